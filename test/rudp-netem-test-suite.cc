/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-module.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

/**
 * \file
 * \ingroup rudp-test
 * NetemQueueDisc: each impairment's effect, exactly where it is exact and
 * within a stated statistical bound where it is random; the queue disc's
 * accounting; determinism; attribute ranges; and a RUDP transfer through it.
 * RudpCorruptionErrorModel's BitsPerPacket, which shares the bit flipping.
 *
 * Statistical bounds are 5 standard errors: a correct model fails one with
 * probability below 1e-6, and the streams are fixed, so a run is repeatable.
 */

using namespace ns3;

namespace
{

/// One packet as the queue disc sent it.
struct Departure
{
    Time time;     ///< when it left the queue disc
    uint64_t uid;  ///< its packet's uid (a duplicate has its original's)
    uint32_t ones; ///< bits set in its bytes (sent packets are all zeros)
};

/**
 * A NetemQueueDisc on its own: packets are enqueued as TrafficControlLayer
 * does (Enqueue, then Run) and what it sends is recorded, with no device, so
 * a packet leaves exactly when it is due.
 */
class Bench
{
  public:
    Bench()
        : disc(CreateObject<NetemQueueDisc>())
    {
    }

    ~Bench()
    {
        disc->Dispose();
        Simulator::Destroy();
    }

    /// Fixes the streams and initializes the queue disc.
    void Start(int64_t stream = 1)
    {
        disc->AssignStreams(stream);
        disc->SetSendCallback([this](Ptr<QueueDiscItem> item) { Sent(item); });
        disc->Initialize();
    }

    /// Enqueues one \p size-byte packet (plus a 20-byte IPv4 header with \p protocol) now.
    void Send(uint32_t size = 100, uint8_t protocol = 0)
    {
        std::vector<uint8_t> zeros(size, 0);
        Ptr<Packet> packet = Create<Packet>(zeros.data(), size);
        Ipv4Header header;
        header.SetPayloadSize(size);
        header.SetProtocol(protocol);
        Ptr<Ipv4QueueDiscItem> item =
            Create<Ipv4QueueDiscItem>(packet, Mac48Address::GetBroadcast(), 0x0800, header);
        order[packet->GetUid()] = order.size();
        enqueued[packet->GetUid()] = Simulator::Now();
        disc->Enqueue(item);
        disc->Run();
    }

    /// Enqueues \p n packets, one every \p gap, from now on, and runs until all are out.
    void SendEvery(uint32_t n, Time gap, uint32_t size = 100)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(gap * i, &Bench::Send, this, size, uint8_t{0});
        }
        Simulator::Run();
    }

    /// \return each departure's delay, in departure order
    std::vector<double> Delays() const
    {
        std::vector<double> delays;
        for (const auto& d : departures)
        {
            delays.push_back((d.time - enqueued.at(d.uid)).GetSeconds());
        }
        return delays;
    }

    /// \return how many departures left before a packet enqueued earlier than them
    uint32_t Overtakes() const
    {
        uint32_t overtakes = 0;
        uint32_t latest = 0;
        bool any = false;
        for (const auto& d : departures)
        {
            const uint32_t index = order.at(d.uid);
            if (any && index < latest)
            {
                ++overtakes; // an earlier packet left after a later one
            }
            latest = std::max(latest, index);
            any = true;
        }
        return overtakes;
    }

    Ptr<NetemQueueDisc> disc;
    std::vector<Departure> departures;
    std::map<uint64_t, size_t> order;  ///< uid -> enqueue index
    std::map<uint64_t, Time> enqueued; ///< uid -> enqueue time

  private:
    void Sent(Ptr<QueueDiscItem> item)
    {
        // The queue disc added the IPv4 header on its way out: count the payload.
        Ptr<Packet> packet = item->GetPacket()->Copy();
        Ipv4Header header;
        packet->RemoveHeader(header);
        std::vector<uint8_t> bytes(packet->GetSize());
        packet->CopyData(bytes.data(), bytes.size());
        uint32_t ones = 0;
        for (uint8_t b : bytes)
        {
            ones += __builtin_popcount(b);
        }
        departures.push_back({Simulator::Now(), packet->GetUid(), ones});
    }
};

/// Mean of \p x.
double
Mean(const std::vector<double>& x)
{
    return std::accumulate(x.begin(), x.end(), 0.0) / x.size();
}

/// Sample variance of \p x.
double
Variance(const std::vector<double>& x)
{
    const double m = Mean(x);
    double s = 0;
    for (double v : x)
    {
        s += (v - m) * (v - m);
    }
    return s / (x.size() - 1);
}

/// Counts a traced item.
void
CountItem(uint32_t* count, Ptr<const QueueDiscItem> item)
{
    ++*count;
}

/// 5 standard errors of a binomial count of \p n trials at probability \p p.
double
BinomialBound(double n, double p)
{
    return 5 * std::sqrt(n * p * (1 - p));
}

/// \return whether each packet \p b was given was lost, in the order they came
std::vector<bool>
LostInOrder(const Bench& b)
{
    std::set<uint64_t> sent;
    for (const auto& d : b.departures)
    {
        sent.insert(d.uid);
    }
    std::vector<uint64_t> uids(b.order.size());
    for (const auto& [uid, index] : b.order)
    {
        uids[index] = uid;
    }
    std::vector<bool> lost;
    for (uint64_t uid : uids)
    {
        lost.push_back(sent.count(uid) == 0);
    }
    return lost;
}

/**
 * netem's get_crandom, written here from sch_netem.c for the tests: the
 * first call takes the initial value, then each value is blended with the
 * previous one, (v (2^32 - rho) + last rho) >> 32, rho = rint(c x UINT32_MAX) + 1.
 */
class ReferenceCrandom
{
  public:
    /// \param stream the stream the queue disc draws from; \param c the correlation
    ReferenceCrandom(int64_t stream, double c)
        : m_random(CreateObject<UniformRandomVariable>()),
          m_rho(static_cast<uint64_t>(std::rint(c * 4294967295.0)) + 1)
    {
        m_random->SetStream(stream);
        m_last = m_random->GetInteger(0, 4294967295U);
    }

    /// \return the next correlated value
    uint32_t Next()
    {
        const uint64_t v = m_random->GetInteger(0, 4294967295U);
        m_last = static_cast<uint32_t>((v * ((uint64_t{1} << 32) - m_rho) + m_last * m_rho) >> 32);
        return static_cast<uint32_t>(m_last);
    }

    /// \return whether netem's "p >= get_crandom()" holds for the next value
    bool Below(double p)
    {
        return Next() <= std::rint(p * 4294967295.0);
    }

  private:
    Ptr<UniformRandomVariable> m_random; ///< the stream
    uint64_t m_rho;                      ///< the correlation, scaled, plus one
    uint64_t m_last;                     ///< the previous value
};

/**
 * P(C <= x) for the stationary value of netem's correlated generator, seen
 * as C = (1 - rho) U + rho C' with U uniform on [0, 1) and C' an independent
 * copy of C: the fixed point of F(x) = rho / (1 - rho) (G(x / rho) -
 * G((x - 1 + rho) / rho)), G the integral of F from 0 (F is 0 below 0 and 1
 * above 1), iterated from the uniform law with F piecewise linear on a grid
 * (G then exact) until rho^k is below 1e-12.
 */
double
CorrelatedCdf(double rho, double x)
{
    const int n = 20001;
    const double h = 1.0 / (n - 1);
    std::vector<double> f(n);
    std::vector<double> g(n);
    for (int i = 0; i < n; ++i)
    {
        f[i] = i * h;
    }
    auto integral = [&f, &g, h, n](double y) {
        if (y <= 0)
        {
            return 0.0;
        }
        if (y >= 1)
        {
            return g[n - 1] + (y - 1);
        }
        const int k = std::min(static_cast<int>(y / h), n - 2);
        const double t = y / h - k;
        return g[k] + h * (f[k] * t + (f[k + 1] - f[k]) * t * t / 2);
    };
    const int iterations = static_cast<int>(std::ceil(std::log(1e-12) / std::log(rho)));
    std::vector<double> next(n);
    for (int it = 0; it < iterations; ++it)
    {
        g[0] = 0;
        for (int i = 1; i < n; ++i)
        {
            g[i] = g[i - 1] + h * (f[i - 1] + f[i]) / 2;
        }
        for (int i = 0; i < n; ++i)
        {
            const double xi = i * h;
            next[i] = rho / (1 - rho) * (integral(xi / rho) - integral((xi - 1 + rho) / rho));
        }
        f.swap(next);
    }
    const double pos = x / h;
    const int k = std::min(static_cast<int>(pos), n - 2);
    return f[k] + (pos - k) * (f[k + 1] - f[k]);
}

} // namespace

/// Delay: every packet leaves exactly Delay after it came, in order.
class NetemDelayTest : public TestCase
{
  public:
    NetemDelayTest()
        : TestCase("Delay holds every packet exactly that long, in order")
    {
    }

  private:
    void DoRun() override
    {
        Bench b;
        b.disc->SetAttribute("Delay", TimeValue(MilliSeconds(10)));
        b.Start();
        b.SendEvery(200, MicroSeconds(300));
        NS_TEST_ASSERT_MSG_EQ(b.departures.size(), 200, "all sent");
        for (const auto& d : b.departures)
        {
            NS_TEST_ASSERT_MSG_EQ(d.time - b.enqueued[d.uid], MilliSeconds(10), "exact delay");
        }
        NS_TEST_ASSERT_MSG_EQ(b.Overtakes(), 0, "FIFO without jitter");
        NS_TEST_ASSERT_MSG_EQ(b.disc->GetNPackets(), 0, "empty at the end");
    }
};

/// Uniform jitter: bounds, mean and variance of a uniform law; it reorders.
class NetemUniformJitterTest : public TestCase
{
  public:
    NetemUniformJitterTest()
        : TestCase(
              "uniform Jitter: delays in [Delay - J, Delay + J), mean Delay, variance J^2 over 3, "
              "and packets overtake")
    {
    }

  private:
    void DoRun() override
    {
        Bench b;
        b.disc->SetAttribute("Delay", TimeValue(MilliSeconds(50)));
        b.disc->SetAttribute("Jitter", TimeValue(MilliSeconds(10)));
        b.Start();
        const uint32_t n = 20000;
        b.SendEvery(n, MicroSeconds(500));
        const std::vector<double> delays = b.Delays();
        NS_TEST_ASSERT_MSG_EQ(delays.size(), n, "all sent");
        for (double d : delays)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(d, 0.040, "not below Delay - Jitter");
            NS_TEST_ASSERT_MSG_LT(d, 0.060, "below Delay + Jitter");
        }
        const double variance = 0.010 * 0.010 / 3;
        NS_TEST_EXPECT_MSG_EQ_TOL(Mean(delays), 0.050, 5 * std::sqrt(variance / n), "mean");
        // The sample variance of a uniform law: standard error var x sqrt(0.8 / n).
        NS_TEST_EXPECT_MSG_EQ_TOL(Variance(delays),
                                  variance,
                                  5 * variance * std::sqrt(0.8 / n),
                                  "variance of a uniform law");
        NS_TEST_EXPECT_MSG_GT(b.Overtakes(), n / 10, "jitter 20 x the spacing reorders");
    }
};

/// Normal jitter: mean, standard deviation, the share within one sigma, and the 4-sigma cut.
class NetemNormalJitterTest : public TestCase
{
  public:
    NetemNormalJitterTest()
        : TestCase("normal Jitter: mean Delay, standard deviation J, 68.3 % within J, none "
                   "beyond 4 J")
    {
    }

  private:
    void DoRun() override
    {
        Bench b;
        b.disc->SetAttribute("Delay", TimeValue(MilliSeconds(100)));
        b.disc->SetAttribute("Jitter", TimeValue(MilliSeconds(10)));
        b.disc->SetAttribute("JitterDistribution", StringValue("Normal"));
        b.Start();
        const uint32_t n = 20000;
        b.SendEvery(n, MicroSeconds(500));
        const std::vector<double> delays = b.Delays();
        NS_TEST_ASSERT_MSG_EQ(delays.size(), n, "all sent");
        uint32_t withinOne = 0;
        for (double d : delays)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(std::abs(d - 0.100), 0.040 + 1e-9, "cut at 4 Jitter");
            withinOne += std::abs(d - 0.100) < 0.010 ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(Mean(delays), 0.100, 5 * 0.010 / std::sqrt(n), "mean");
        // The sample variance of a normal law: standard error var x sqrt(2 / n).
        NS_TEST_EXPECT_MSG_EQ_TOL(Variance(delays),
                                  1e-4,
                                  5 * 1e-4 * std::sqrt(2.0 / n),
                                  "variance Jitter^2");
        // A uniform law of the same variance puts 57.7 % within one sigma.
        NS_TEST_EXPECT_MSG_EQ_TOL(withinOne,
                                  0.6827 * n,
                                  BinomialBound(n, 0.6827),
                                  "68.3 % within one Jitter: a normal law");
    }
};

/// Random loss: the count of drops is binomial, and counted everywhere alike.
class NetemRandomLossTest : public TestCase
{
  public:
    NetemRandomLossTest()
        : TestCase("random Loss: binomial drop count, counted as Loss drop")
    {
    }

  private:
    void DoRun() override
    {
        Bench b;
        b.disc->SetAttribute("Loss", DoubleValue(0.1));
        b.Start();
        const uint32_t n = 20000;
        b.SendEvery(n, MicroSeconds(100));
        const uint64_t lost = b.disc->GetCounts().lost;
        NS_TEST_EXPECT_MSG_EQ_TOL(lost, 0.1 * n, BinomialBound(n, 0.1), "loss count");
        NS_TEST_EXPECT_MSG_EQ(b.departures.size() + lost, n, "each packet sent or lost");
        const QueueDisc::Stats& stats = b.disc->GetStats();
        NS_TEST_EXPECT_MSG_EQ(stats.GetNDroppedPackets(NetemQueueDisc::LOSS_DROP),
                              lost,
                              "the queue disc's drop reason");
        NS_TEST_EXPECT_MSG_EQ(stats.nTotalDroppedPacketsBeforeEnqueue, lost, "dropped before");
        NS_TEST_EXPECT_MSG_EQ(stats.nTotalReceivedPackets, n, "received");
        NS_TEST_EXPECT_MSG_EQ(stats.nTotalDequeuedPackets, n - lost, "dequeued");
    }
};

/// Gilbert-Elliott: loss rate and mean burst and gap lengths as the chain's.
class NetemGilbertElliottTest : public TestCase
{
  public:
    NetemGilbertElliottTest()
        : TestCase("Gilbert-Elliott loss: rate p over p+r, bursts of mean 1 over r, gaps of mean 1 "
                   "over p; "
                   "and a lossy good state and lossless bad state")
    {
    }

  private:
    void DoRun() override
    {
        const double p = 0.05;
        const double r = 0.25;
        const uint32_t n = 100000;
        std::vector<bool> lost;
        {
            Bench b;
            b.disc->SetAttribute("LossModel", StringValue("GilbertElliott"));
            b.disc->SetAttribute("GeP", DoubleValue(p));
            b.disc->SetAttribute("GeR", DoubleValue(r));
            b.Start(3);
            b.SendEvery(n, MicroSeconds(10), 20);
            std::set<uint64_t> sent;
            for (const auto& d : b.departures)
            {
                sent.insert(d.uid);
            }
            std::vector<uint64_t> uids(b.order.size());
            for (const auto& [uid, index] : b.order)
            {
                uids[index] = uid;
            }
            for (uint64_t uid : uids)
            {
                lost.push_back(sent.count(uid) == 0);
            }
        }
        // With 1-h = 1 and 1-k = 0 a packet is lost exactly in the bad state.
        std::vector<double> bursts;
        std::vector<double> gaps;
        size_t i = 0;
        while (i < lost.size())
        {
            size_t j = i;
            while (j < lost.size() && lost[j] == lost[i])
            {
                ++j;
            }
            if (j < lost.size() && i > 0) // whole runs only
            {
                (lost[i] ? bursts : gaps).push_back(j - i);
            }
            i = j;
        }
        const double rate = std::count(lost.begin(), lost.end(), true) / double(n);
        const double pi = p / (p + r);
        // A two-state chain's mean has variance pi (1 - pi) (1 + l) / (1 - l) / n, l = 1 - p - r.
        const double l = 1 - p - r;
        NS_TEST_EXPECT_MSG_EQ_TOL(rate,
                                  pi,
                                  5 * std::sqrt(pi * (1 - pi) * (1 + l) / (1 - l) / n),
                                  "stationary loss rate");
        // Runs are geometric: mean 1/q, variance (1 - q)/q^2.
        NS_TEST_EXPECT_MSG_EQ_TOL(Mean(bursts),
                                  1 / r,
                                  5 * std::sqrt((1 - r) / (r * r) / bursts.size()),
                                  "mean burst length 1/r");
        NS_TEST_EXPECT_MSG_EQ_TOL(Mean(gaps),
                                  1 / p,
                                  5 * std::sqrt((1 - p) / (p * p) / gaps.size()),
                                  "mean gap length 1/p");

        // 1-h and 1-k: the loss rate is pi (1-h) + (1 - pi)(1-k).
        Bench b;
        b.disc->SetAttribute("LossModel", StringValue("GilbertElliott"));
        b.disc->SetAttribute("GeP", DoubleValue(0.1));
        b.disc->SetAttribute("GeR", DoubleValue(0.4));
        b.disc->SetAttribute("Ge1MinusH", DoubleValue(0.5));
        b.disc->SetAttribute("Ge1MinusK", DoubleValue(0.02));
        b.Start(4);
        b.SendEvery(n, MicroSeconds(10), 20);
        // Bound: (0.48^2 x 0.16 x 3 + 0.0657) / n for the variance (state part
        // with l = 0.5, and the Bernoulli part).
        NS_TEST_EXPECT_MSG_EQ_TOL(b.disc->GetCounts().lost / double(n),
                                  0.2 * 0.5 + 0.8 * 0.02,
                                  5 * std::sqrt((0.48 * 0.48 * 0.16 * 3 + 0.0657) / n),
                                  "loss in both states");
    }
};

/**
 * Correlated random loss: each loss is netem's "Loss >= get_crandom()", and
 * the loss rate is that of the blended value's stationary law, below Loss.
 */
class NetemCorrelatedLossTest : public TestCase
{
  public:
    NetemCorrelatedLossTest()
        : TestCase("LossCorrelation: netem's get_crandom decides each loss; the loss rate is "
                   "P(C <= Loss) for the blended value C, below Loss")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 100000;
        for (const auto& [p, rho] : {std::pair{0.1, 0.25}, std::pair{0.2, 0.5}})
        {
            Bench b;
            b.disc->SetAttribute("Loss", DoubleValue(p));
            NS_TEST_ASSERT_MSG_EQ(b.disc->SetAttributeFailSafe("LossCorrelation", DoubleValue(rho)),
                                  true,
                                  "LossCorrelation exists");
            b.Start(7);
            b.SendEvery(n, MicroSeconds(10), 20);
            const std::vector<bool> lost = LostInOrder(b);
            ReferenceCrandom reference(7, rho);
            uint32_t same = 0;
            for (bool l : lost)
            {
                same += reference.Below(p) == l ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_EQ(same, n, "each loss as netem's formula decides it");
            const double rate = std::count(lost.begin(), lost.end(), true) / double(n);
            const double expected = CorrelatedCdf(rho, p);
            // The draws are correlated: the variance of the mean is inflated by
            // at most (1 + rho) / (1 - rho), the blended value's own factor.
            NS_TEST_EXPECT_MSG_EQ_TOL(
                rate,
                expected,
                5 * std::sqrt(expected * (1 - expected) / n * (1 + rho) / (1 - rho)),
                "loss rate P(C <= " << p << "), correlation " << rho);
            NS_TEST_EXPECT_MSG_LT(rate, 0.8 * p, "well below the nominal Loss " << p);
        }
    }
};

/**
 * Correlated jitter: each delay is netem's tabledist on get_crandom, in
 * integer nanoseconds, (rnd mod 2 J) - J; the modulo leaves no correlation
 * between successive delays unless the correlation is close to 1.
 */
class NetemCorrelatedDelayTest : public TestCase
{
  public:
    NetemCorrelatedDelayTest()
        : TestCase("DelayCorrelation: each delay is Delay + (get_crandom mod 2 J) - J ns, as "
                   "netem's; successive delays are correlated only near a correlation of 1")
    {
    }

  private:
    /// Lag-1 sample autocorrelation of \p x.
    static double Lag1(const std::vector<double>& x)
    {
        const double m = Mean(x);
        double num = 0;
        double den = 0;
        for (size_t i = 0; i < x.size(); ++i)
        {
            den += (x[i] - m) * (x[i] - m);
            if (i > 0)
            {
                num += (x[i] - m) * (x[i - 1] - m);
            }
        }
        return num / den;
    }

    void DoRun() override
    {
        const uint32_t n = 20000;
        for (double rho : {0.25, 0.9999})
        {
            Bench b;
            b.disc->SetAttribute("Delay", TimeValue(MilliSeconds(50)));
            b.disc->SetAttribute("Jitter", TimeValue(MilliSeconds(10)));
            NS_TEST_ASSERT_MSG_EQ(
                b.disc->SetAttributeFailSafe("DelayCorrelation", DoubleValue(rho)),
                true,
                "DelayCorrelation exists");
            b.Start(11);
            b.SendEvery(n, MicroSeconds(500));
            NS_TEST_ASSERT_MSG_EQ(b.departures.size(), n, "all sent");
            std::map<uint64_t, int64_t> delayNs;
            for (const auto& d : b.departures)
            {
                delayNs[d.uid] = (d.time - b.enqueued.at(d.uid)).GetNanoSeconds();
            }
            std::vector<int64_t> inOrder(n);
            for (const auto& [uid, index] : b.order)
            {
                inOrder[index] = delayNs.at(uid);
            }
            ReferenceCrandom reference(11 + 5, rho); // the uniform jitter's stream
            uint32_t same = 0;
            std::vector<double> delays;
            for (int64_t d : inOrder)
            {
                const int64_t expected =
                    50000000 + static_cast<int64_t>(reference.Next() % 20000000) - 10000000;
                same += d == expected ? 1 : 0;
                delays.push_back(d * 1e-9);
            }
            NS_TEST_EXPECT_MSG_EQ(same, n, "each delay as netem's tabledist gives it");
            if (rho < 0.5)
            {
                NS_TEST_EXPECT_MSG_LT(std::abs(Lag1(delays)),
                                      5 / std::sqrt(n),
                                      "correlation 0.25 does not survive the modulo");
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(Lag1(delays), 0.5, "correlation 0.9999 does");
            }
        }
    }
};

/**
 * Correlated duplication, reordering and corruption: each decision is
 * netem's "p >= get_crandom()" on the impairment's own stream.
 */
class NetemCorrelatedEventsTest : public TestCase
{
  public:
    NetemCorrelatedEventsTest()
        : TestCase("DuplicateCorrelation, ReorderCorrelation, CorruptCorrelation: each decision "
                   "as netem's get_crandom makes it")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 20000;
        Bench b;
        b.disc->SetAttribute("Delay", TimeValue(MilliSeconds(1)));
        b.disc->SetAttribute("Duplicate", DoubleValue(0.3));
        NS_TEST_ASSERT_MSG_EQ(
            b.disc->SetAttributeFailSafe("DuplicateCorrelation", DoubleValue(0.5)),
            true,
            "DuplicateCorrelation exists");
        b.disc->SetAttribute("Corrupt", DoubleValue(0.2));
        NS_TEST_ASSERT_MSG_EQ(b.disc->SetAttributeFailSafe("CorruptCorrelation", DoubleValue(0.7)),
                              true,
                              "CorruptCorrelation exists");
        b.disc->SetAttribute("Reorder", DoubleValue(0.4));
        NS_TEST_ASSERT_MSG_EQ(b.disc->SetAttributeFailSafe("ReorderCorrelation", DoubleValue(0.3)),
                              true,
                              "ReorderCorrelation exists");
        b.Start(21);
        b.SendEvery(n, MicroSeconds(100));
        // Streams: duplicate s + 1, corrupt s + 2, reorder s + 4. Each original
        // draws once for duplication; every packet, copies included, once for
        // corruption and once for reordering (ReorderGap 1), in enqueue order:
        // an original, then its copy.
        ReferenceCrandom duplicate(22, 0.5);
        ReferenceCrandom corrupt(23, 0.7);
        ReferenceCrandom reorder(25, 0.3);
        uint32_t duplicated = 0;
        uint32_t corrupted = 0;
        uint32_t reordered = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t copies = duplicate.Below(0.3) ? 2 : 1;
            duplicated += copies - 1;
            for (uint32_t c = 0; c < copies; ++c)
            {
                corrupted += corrupt.Below(0.2) ? 1 : 0;
                reordered += reorder.Below(0.4) ? 1 : 0;
            }
        }
        const NetemQueueDisc::Counts& counts = b.disc->GetCounts();
        NS_TEST_EXPECT_MSG_EQ(counts.duplicated, duplicated, "duplications");
        NS_TEST_EXPECT_MSG_EQ(counts.corrupted, corrupted, "corruptions");
        NS_TEST_EXPECT_MSG_EQ(counts.reordered, reordered, "reorders");
        NS_TEST_EXPECT_MSG_EQ(b.departures.size(), n + duplicated, "all sent");
    }
};

/**
 * Gilbert-Elliott with only GeP set: r = 1 - p, as tc sets it (iproute2
 * since 5.2), so the chain is memoryless and the loss rate is p.
 */
class NetemGilbertElliottDefaultTest : public TestCase
{
  public:
    NetemGilbertElliottDefaultTest()
        : TestCase("Gilbert-Elliott with only GeP: r = 1 - p as tc's, loss rate p, bursts of "
                   "mean 1 over 1 - p")
    {
    }

  private:
    void DoRun() override
    {
        const double p = 0.2;
        const uint32_t n = 100000;
        Bench b;
        b.disc->SetAttribute("LossModel", StringValue("GilbertElliott"));
        b.disc->SetAttribute("GeP", DoubleValue(p));
        DoubleValue r;
        b.disc->GetAttribute("GeR", r);
        NS_TEST_EXPECT_MSG_EQ(r.Get(), -1.0, "GeR's default: -1, for 1 - GeP");
        b.Start(5);
        b.SendEvery(n, MicroSeconds(10), 20);
        const std::vector<bool> lost = LostInOrder(b);
        const double rate = std::count(lost.begin(), lost.end(), true) / double(n);
        // r = 1 - p: a two-state chain with l = 1 - p - r = 0, i.e. independent
        // losses of probability p (with r = 1 it was p / (1 + p) = 0.167).
        NS_TEST_EXPECT_MSG_EQ_TOL(rate, p, 5 * std::sqrt(p * (1 - p) / n), "loss rate p");
        std::vector<double> bursts;
        size_t i = 0;
        while (i < lost.size())
        {
            size_t j = i;
            while (j < lost.size() && lost[j] == lost[i])
            {
                ++j;
            }
            if (lost[i] && i > 0 && j < lost.size())
            {
                bursts.push_back(j - i);
            }
            i = j;
        }
        const double q = 1 - p;
        NS_TEST_EXPECT_MSG_EQ_TOL(Mean(bursts),
                                  1 / q,
                                  5 * std::sqrt((1 - q) / (q * q) / bursts.size()),
                                  "mean burst 1/(1 - p)");
    }
};

/**
 * CorruptMode Linux: one bit of the whole IPv4 datagram, its header
 * included, after the checksums; with ns-3's checksums on, the receiver's
 * IPv4 layer (header bits) or UDP (the others) drops every such datagram.
 */
class NetemLinuxCorruptionTest : public TestCase
{
  public:
    NetemLinuxCorruptionTest()
        : TestCase("CorruptMode Linux: one bit anywhere in the IPv4 datagram, after the "
                   "checksums; the receiver's stack drops every corrupted datagram")
    {
    }

  private:
    /// What the receiving device got, and what its stack let through, in one run.
    struct Outcome
    {
        std::vector<std::vector<uint8_t>> wire; ///< each datagram as received (IPv4 header on)
        uint32_t delivered{0};                  ///< datagrams the UDP socket received
        uint32_t badIpChecksum{0};              ///< dropped by IPv4 for a bad header checksum
        uint64_t corrupted{0};                  ///< the disc's count
        bool linuxMode{false};                  ///< CorruptMode Linux was set
    };

    /// Records a frame the receiving device got, without its 2-byte PPP header.
    static void Received(Outcome* o, Ptr<const Packet> p)
    {
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        bytes.erase(bytes.begin(), bytes.begin() + 2);
        o->wire.push_back(bytes);
    }

    /// Counts the receiver's IPv4 drops for a bad header checksum.
    static void Dropped(Outcome* o,
                        const Ipv4Header& /* header */,
                        Ptr<const Packet> /* packet */,
                        Ipv4L3Protocol::DropReason reason,
                        Ptr<Ipv4> /* ipv4 */,
                        uint32_t /* interface */)
    {
        o->badIpChecksum += reason == Ipv4L3Protocol::DROP_BAD_CHECKSUM ? 1 : 0;
    }

    /// Counts the datagrams the UDP socket received.
    static void Delivered(Outcome* o, Ptr<Socket> socket)
    {
        while (socket->Recv())
        {
            ++o->delivered;
        }
    }

    /// Sends a 72-byte datagram of zeros.
    static void SendZeros(Ptr<Socket> socket)
    {
        std::vector<uint8_t> zeros(72, 0);
        socket->Send(Create<Packet>(zeros.data(), zeros.size()));
    }

    /// One run of \p n datagrams, corrupted or not.
    static Outcome Run(bool corrupt, uint32_t n)
    {
        Outcome outcome;
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        link.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer devices = link.Install(nodes);
        InternetStackHelper stack;
        stack.Install(nodes);
        TrafficControlHelper netem;
        netem.SetRootQueueDisc("ns3::NetemQueueDisc", "Corrupt", DoubleValue(corrupt ? 1.0 : 0.0));
        QueueDiscContainer discs = netem.Install(devices.Get(0));
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
        Ptr<NetemQueueDisc> disc = DynamicCast<NetemQueueDisc>(discs.Get(0));
        outcome.linuxMode = disc->SetAttributeFailSafe("CorruptMode", StringValue("Linux"));
        disc->AssignStreams(31);

        devices.Get(1)->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&Received, &outcome));
        nodes.Get(1)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Drop",
            MakeBoundCallback(&Dropped, &outcome));
        Ptr<Socket> sink = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        sink->SetRecvCallback(MakeBoundCallback(&Delivered, &outcome));
        Ptr<Socket> source = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        source->Connect(InetSocketAddress(interfaces.GetAddress(1), 9));
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(MicroSeconds(100 * i), &SendZeros, source);
        }
        Simulator::Run();
        outcome.corrupted = disc->GetCounts().corrupted;
        Simulator::Destroy();
        return outcome;
    }

    void DoRun() override
    {
        const uint32_t n = 2000;
        const Outcome clean = Run(false, n);
        const Outcome corrupted = Run(true, n);
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(false));
        NS_TEST_ASSERT_MSG_EQ(corrupted.linuxMode, true, "CorruptMode Linux exists");
        NS_TEST_ASSERT_MSG_EQ(clean.delivered, n, "without corruption every datagram arrives");
        NS_TEST_ASSERT_MSG_EQ(corrupted.wire.size(), n, "every datagram reached the receiver");
        NS_TEST_EXPECT_MSG_EQ(corrupted.corrupted, n, "every one corrupted");
        // 100-byte datagrams: 20 bytes of IPv4 header, 8 of UDP, 72 of data.
        uint32_t inIpHeader = 0;
        uint32_t inUdpHeader = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            const auto& a = clean.wire[i];
            const auto& b = corrupted.wire[i];
            NS_TEST_ASSERT_MSG_EQ(a.size(), b.size(), "same size");
            uint32_t differing = 0;
            size_t where = 0;
            for (size_t k = 0; k < a.size(); ++k)
            {
                const uint32_t d = __builtin_popcount(a[k] ^ b[k]);
                differing += d;
                where = d > 0 ? k : where;
            }
            NS_TEST_ASSERT_MSG_EQ(differing, 1, "exactly one bit differs, datagram " << i);
            NS_TEST_ASSERT_MSG_GT(where, 0, "never the version and header length byte");
            inIpHeader += where < 20 ? 1 : 0;
            inUdpHeader += where >= 20 && where < 28 ? 1 : 0;
        }
        // The bit is uniform over the 99 bytes after the first.
        NS_TEST_EXPECT_MSG_EQ_TOL(inIpHeader, n * 19 / 99.0, BinomialBound(n, 19 / 99.0), "IP");
        NS_TEST_EXPECT_MSG_EQ_TOL(inUdpHeader, n * 8 / 99.0, BinomialBound(n, 8 / 99.0), "UDP");
        NS_TEST_EXPECT_MSG_EQ(corrupted.delivered, 0, "the receiver's stack drops them all");
        NS_TEST_EXPECT_MSG_EQ(corrupted.badIpChecksum,
                              inIpHeader,
                              "IPv4 drops those with a header bit flipped, UDP the others");
    }
};

/// Duplicate: binomial count of copies, each packet at most twice; loss takes one of two.
class NetemDuplicateTest : public TestCase
{
  public:
    NetemDuplicateTest()
        : TestCase("Duplicate: binomial count of copies, never a copy of a copy; a duplicated "
                   "packet that is lost leaves one copy, as netem's")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 20000;
        {
            Bench b;
            b.disc->SetAttribute("Duplicate", DoubleValue(0.2));
            b.Start();
            b.SendEvery(n, MicroSeconds(100));
            std::map<uint64_t, uint32_t> copies;
            for (const auto& d : b.departures)
            {
                ++copies[d.uid];
            }
            uint32_t twice = 0;
            for (const auto& [uid, count] : copies)
            {
                NS_TEST_ASSERT_MSG_LT_OR_EQ(count, 2, "a copy is never copied");
                twice += count == 2 ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_EQ(copies.size(), n, "every packet sent");
            NS_TEST_EXPECT_MSG_EQ(twice, b.disc->GetCounts().duplicated, "counted");
            NS_TEST_EXPECT_MSG_EQ_TOL(twice, 0.2 * n, BinomialBound(n, 0.2), "binomial");
            const QueueDisc::Stats& stats = b.disc->GetStats();
            NS_TEST_EXPECT_MSG_EQ(stats.nTotalReceivedPackets, n + twice, "copies received too");
            NS_TEST_EXPECT_MSG_EQ(stats.nTotalDequeuedPackets, n + twice, "and sent");
        }
        Bench b;
        b.disc->SetAttribute("Duplicate", DoubleValue(1.0));
        b.disc->SetAttribute("Loss", DoubleValue(1.0));
        b.Start();
        b.SendEvery(100, MicroSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(b.departures.size(), 100, "each packet exactly once");
        NS_TEST_EXPECT_MSG_EQ(b.disc->GetCounts().duplicated, 0, "no copy made");
        NS_TEST_EXPECT_MSG_EQ(b.disc->GetCounts().lost, 0, "nothing dropped");
    }
};

/// Reorder: the fraction sent at once, which overtake the delayed ones; the gap.
class NetemReorderTest : public TestCase
{
  public:
    NetemReorderTest()
        : TestCase("Reorder: a binomial share sent at once, overtaking delayed packets; "
                   "ReorderGap 5 reorders exactly every fifth")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 20000;
        {
            Bench b;
            b.disc->SetAttribute("Delay", TimeValue(MilliSeconds(10)));
            b.disc->SetAttribute("Reorder", DoubleValue(0.25));
            b.Start();
            uint32_t traced = 0;
            b.disc->TraceConnectWithoutContext("Reorder", MakeBoundCallback(&CountItem, &traced));
            b.SendEvery(n, MilliSeconds(1));
            uint32_t atOnce = 0;
            for (const auto& d : b.departures)
            {
                const Time delay = d.time - b.enqueued[d.uid];
                NS_TEST_ASSERT_MSG_EQ((delay.IsZero() || delay == MilliSeconds(10)),
                                      true,
                                      "at once or after Delay");
                atOnce += delay.IsZero() ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_EQ(atOnce, b.disc->GetCounts().reordered, "counted");
            NS_TEST_EXPECT_MSG_EQ(atOnce, traced, "traced");
            NS_TEST_EXPECT_MSG_EQ_TOL(atOnce, 0.25 * n, BinomialBound(n, 0.25), "binomial");
            // A packet sent at once overtakes every delayed packet of the last
            // 10 ms: each reordered one overtakes at least the one before it,
            // unless that one was reordered too.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(b.Overtakes(),
                                        0.75 * atOnce - BinomialBound(atOnce, 0.75),
                                        "reordered packets overtake");
        }
        Bench b;
        b.disc->SetAttribute("Delay", TimeValue(MilliSeconds(10)));
        b.disc->SetAttribute("Reorder", DoubleValue(1.0));
        b.disc->SetAttribute("ReorderGap", UintegerValue(5));
        b.Start();
        b.SendEvery(100, MilliSeconds(1));
        for (const auto& d : b.departures)
        {
            const bool fifth = (b.order[d.uid] + 1) % 5 == 0;
            NS_TEST_ASSERT_MSG_EQ(d.time - b.enqueued[d.uid],
                                  fifth ? Time(0) : MilliSeconds(10),
                                  "packet " << b.order[d.uid] + 1);
        }
        NS_TEST_EXPECT_MSG_EQ(b.disc->GetCounts().reordered, 20, "every fifth");
    }
};

/// Corrupt: exactly CorruptBits bits differ; the share of packets is binomial.
class NetemCorruptTest : public TestCase
{
  public:
    NetemCorruptTest()
        : TestCase("Corrupt: exactly CorruptBits distinct bits flipped per corrupted packet, "
                   "binomial share of packets")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t bits : {1U, 2U, 8U, 64U})
        {
            Bench b;
            b.disc->SetAttribute("Corrupt", DoubleValue(1.0));
            b.disc->SetAttribute("CorruptBits", UintegerValue(bits));
            b.Start(bits);
            b.SendEvery(500, MicroSeconds(100), 40);
            NS_TEST_ASSERT_MSG_EQ(b.departures.size(), 500, "never dropped");
            for (const auto& d : b.departures)
            {
                NS_TEST_ASSERT_MSG_EQ(d.ones, bits, "exactly K bits differ");
            }
            NS_TEST_EXPECT_MSG_EQ(b.disc->GetCounts().bitsFlipped, 500 * bits, "counted");
        }
        // More bits than the packet has: all of them.
        {
            Bench b;
            b.disc->SetAttribute("Corrupt", DoubleValue(1.0));
            b.disc->SetAttribute("CorruptBits", UintegerValue(64));
            b.Start();
            b.SendEvery(10, MicroSeconds(100), 4);
            for (const auto& d : b.departures)
            {
                NS_TEST_ASSERT_MSG_EQ(d.ones, 32, "a 4-byte packet has 32 bits");
            }
        }
        const uint32_t n = 20000;
        Bench b;
        b.disc->SetAttribute("Corrupt", DoubleValue(0.05));
        b.disc->SetAttribute("CorruptBits", UintegerValue(3));
        b.Start();
        b.SendEvery(n, MicroSeconds(100));
        uint32_t corrupted = 0;
        for (const auto& d : b.departures)
        {
            NS_TEST_ASSERT_MSG_EQ((d.ones == 0 || d.ones == 3), true, "0 or K bits");
            corrupted += d.ones > 0 ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(corrupted, b.disc->GetCounts().corrupted, "counted");
        NS_TEST_EXPECT_MSG_EQ_TOL(corrupted, 0.05 * n, BinomialBound(n, 0.05), "binomial");
    }
};

/**
 * ICMPv4 messages pass both corrupters untouched: ns-3 parses ICMP without
 * checking its checksum, and a flipped bit in the IPv4 header an ICMP error
 * quotes aborts the simulation in the parser (found by the fault campaign).
 */
class IcmpNeverCorruptedTest : public TestCase
{
  public:
    IcmpNeverCorruptedTest()
        : TestCase("ICMPv4 messages are never corrupted, by NetemQueueDisc or by "
                   "RudpCorruptionErrorModel; UDP datagrams are")
    {
    }

  private:
    void DoRun() override
    {
        for (uint8_t protocol : {uint8_t{1}, uint8_t{17}})
        {
            Bench b;
            b.disc->SetAttribute("Corrupt", DoubleValue(1.0));
            b.Start();
            b.Send(40, protocol);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(b.departures.size(), 1, "sent");
            NS_TEST_EXPECT_MSG_EQ(b.departures.front().ones,
                                  (protocol == 1 ? 0 : 1),
                                  "netem, IPv4 protocol " << +protocol);
        }
        for (uint8_t protocol : {uint8_t{1}, uint8_t{17}})
        {
            Ptr<RudpCorruptionErrorModel> model = CreateObject<RudpCorruptionErrorModel>();
            model->SetAttribute("ErrorRate", DoubleValue(1.0));
            model->SetAttribute("HeaderBytes", UintegerValue(14 + 28)); // Ethernet, IPv4, 8
            model->SetAttribute("TrailerBytes", UintegerValue(0));
            Ptr<Packet> datagram = Create<Packet>(8 + 40); // after IPv4: 8 + 40 bytes
            Ipv4Header ip;
            ip.SetProtocol(protocol);
            ip.SetPayloadSize(datagram->GetSize());
            datagram->AddHeader(ip);
            std::vector<uint8_t> frame(14, 0); // an Ethernet header's worth
            frame.resize(14 + datagram->GetSize());
            datagram->CopyData(frame.data() + 14, datagram->GetSize());
            Ptr<Packet> p = Create<Packet>(frame.data(), frame.size());
            std::vector<uint8_t> before(p->GetSize());
            p->CopyData(before.data(), before.size());
            model->IsCorrupt(p);
            std::vector<uint8_t> after(p->GetSize());
            p->CopyData(after.data(), after.size());
            NS_TEST_EXPECT_MSG_EQ((before == after),
                                  (protocol == 1),
                                  "error model, IPv4 protocol " << +protocol);
            NS_TEST_EXPECT_MSG_EQ(model->GetCorruptedPackets(), (protocol == 1 ? 0 : 1), "counted");
        }
    }
};

/// Rate: packets are spaced by their serialisation time, after Delay; jitter no longer reorders.
class NetemRateTest : public TestCase
{
  public:
    NetemRateTest()
        : TestCase("Rate: a burst leaves one serialisation time apart, after Delay; with Rate, "
                   "jitter keeps the order (netem's)")
    {
    }

  private:
    void DoRun() override
    {
        {
            Bench b;
            b.disc->SetAttribute("Rate", DataRateValue(DataRate("1Mbps")));
            b.disc->SetAttribute("Delay", TimeValue(MilliSeconds(5)));
            b.Start();
            b.SendEvery(10, Seconds(0), 980); // a burst: 10 x (980 + 20) bytes at t = 0
            NS_TEST_ASSERT_MSG_EQ(b.departures.size(), 10, "all sent");
            for (size_t k = 0; k < b.departures.size(); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(b.departures[k].time,
                                      MilliSeconds(5) + MilliSeconds(8) * (k + 1),
                                      "1000 bytes at 1 Mbit/s: 8 ms each");
            }
        }
        Bench b;
        b.disc->SetAttribute("Rate", DataRateValue(DataRate("10Mbps")));
        b.disc->SetAttribute("Delay", TimeValue(MilliSeconds(20)));
        b.disc->SetAttribute("Jitter", TimeValue(MilliSeconds(10)));
        b.Start();
        b.SendEvery(2000, MicroSeconds(500), 480);
        NS_TEST_EXPECT_MSG_EQ(b.departures.size(), 2000, "all sent");
        NS_TEST_EXPECT_MSG_EQ(b.Overtakes(), 0, "in order");
        for (size_t k = 1; k < b.departures.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(b.departures[k].time - b.departures[k - 1].time,
                                        MicroSeconds(400),
                                        "at least 500 bytes at 10 Mbit/s apart");
        }
    }
};

/// Limit: beyond Limit packets held, drops counted as "Limit drop".
class NetemLimitTest : public TestCase
{
  public:
    NetemLimitTest()
        : TestCase("Limit: packets beyond Limit held are dropped and counted")
    {
    }

  private:
    void DoRun() override
    {
        Bench b;
        b.disc->SetAttribute("Limit", UintegerValue(10));
        b.disc->SetAttribute("Delay", TimeValue(Seconds(1)));
        b.Start();
        for (int i = 0; i < 25; ++i)
        {
            b.Send();
        }
        NS_TEST_EXPECT_MSG_EQ(b.disc->GetNPackets(), 10, "Limit held");
        NS_TEST_EXPECT_MSG_EQ(b.disc->GetCounts().limitDropped, 15, "the rest dropped");
        NS_TEST_EXPECT_MSG_EQ(b.disc->GetStats().GetNDroppedPackets(NetemQueueDisc::LIMIT_DROP),
                              15,
                              "as the queue disc's drop reason");
        NS_TEST_EXPECT_MSG_EQ(b.disc->GetMaxSize().GetValue(), 10, "GetMaxSize is Limit");
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(b.departures.size(), 10, "the held ones leave");
        NS_TEST_EXPECT_MSG_EQ(b.departures.front().time, Seconds(1), "after Delay");
    }
};

/// Everything at once: the queue disc's counts stay consistent throughout.
class NetemAccountingTest : public TestCase
{
  public:
    NetemAccountingTest()
        : TestCase("all impairments at once: packets held = received - dropped - sent at every "
                   "step, and the counts add up")
    {
    }

  private:
    void DoRun() override
    {
        Bench b;
        b.disc->SetAttribute("Delay", TimeValue(MilliSeconds(10)));
        b.disc->SetAttribute("Jitter", TimeValue(MilliSeconds(8)));
        b.disc->SetAttribute("Loss", DoubleValue(0.1));
        b.disc->SetAttribute("Duplicate", DoubleValue(0.1));
        b.disc->SetAttribute("Reorder", DoubleValue(0.1));
        b.disc->SetAttribute("Corrupt", DoubleValue(0.1));
        b.disc->SetAttribute("Limit", UintegerValue(20));
        b.Start();
        const uint32_t n = 5000;
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(MicroSeconds(400) * i, &Bench::Send, &b, 100, uint8_t{0});
            Simulator::Schedule(MicroSeconds(400) * i + MicroSeconds(1),
                                &NetemAccountingTest::Check,
                                this,
                                &b);
        }
        Simulator::Run();
        const NetemQueueDisc::Counts& counts = b.disc->GetCounts();
        const QueueDisc::Stats& stats = b.disc->GetStats();
        NS_TEST_EXPECT_MSG_EQ(stats.nTotalReceivedPackets, n + counts.duplicated, "received");
        NS_TEST_EXPECT_MSG_EQ(stats.nTotalDroppedPackets,
                              counts.lost + counts.limitDropped,
                              "dropped");
        NS_TEST_EXPECT_MSG_GT(counts.limitDropped, 0, "the limit was reached");
        NS_TEST_EXPECT_MSG_EQ(b.departures.size(),
                              n + counts.duplicated - counts.lost - counts.limitDropped,
                              "sent");
        NS_TEST_EXPECT_MSG_EQ(b.disc->GetNPackets(), 0, "empty");
        NS_TEST_EXPECT_MSG_EQ(b.disc->GetNBytes(), 0, "no bytes");
    }

    void Check(Bench* b)
    {
        const QueueDisc::Stats& stats = b->disc->GetStats();
        NS_TEST_EXPECT_MSG_EQ(b->disc->GetNPackets(),
                              stats.nTotalReceivedPackets - stats.nTotalDroppedPackets -
                                  b->departures.size(),
                              "held = received - dropped - sent");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(b->disc->GetNPackets(), 20, "never above Limit");
    }
};

/// Same seed and streams: the same departures; another stream: others.
class NetemDeterminismTest : public TestCase
{
  public:
    NetemDeterminismTest()
        : TestCase("the same streams give the same departures, packet for packet")
    {
    }

  private:
    static std::vector<std::pair<int64_t, uint64_t>> Run(int64_t stream)
    {
        Bench b;
        b.disc->SetAttribute("Delay", TimeValue(MilliSeconds(10)));
        b.disc->SetAttribute("Jitter", TimeValue(MilliSeconds(5)));
        b.disc->SetAttribute("JitterDistribution", StringValue("Normal"));
        b.disc->SetAttribute("Loss", DoubleValue(0.05));
        b.disc->SetAttribute("Duplicate", DoubleValue(0.05));
        b.disc->SetAttribute("Reorder", DoubleValue(0.05));
        b.disc->SetAttribute("Corrupt", DoubleValue(0.05));
        b.Start(stream);
        b.SendEvery(2000, MicroSeconds(300));
        std::vector<std::pair<int64_t, uint64_t>> out;
        for (const auto& d : b.departures)
        {
            // uids differ between runs; the enqueue index and the bits do not
            out.emplace_back(d.time.GetTimeStep(), b.order[d.uid] * 1000 + d.ones);
        }
        return out;
    }

    void DoRun() override
    {
        const auto first = Run(7);
        NS_TEST_EXPECT_MSG_EQ((first == Run(7)), true, "identical");
        NS_TEST_EXPECT_MSG_EQ((first == Run(8)), false, "another stream differs");
    }
};

/// Every attribute refuses values outside its range.
class NetemAttributeRangeTest : public TestCase
{
  public:
    NetemAttributeRangeTest()
        : TestCase("attributes refuse values out of their ranges and take their bounds")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NetemQueueDisc> disc = CreateObject<NetemQueueDisc>();
        for (const std::string name : {"Loss",
                                       "GeP",
                                       "GeR",
                                       "Ge1MinusH",
                                       "Ge1MinusK",
                                       "Duplicate",
                                       "Reorder",
                                       "Corrupt",
                                       "DelayCorrelation",
                                       "LossCorrelation",
                                       "DuplicateCorrelation",
                                       "ReorderCorrelation",
                                       "CorruptCorrelation"})
        {
            NS_TEST_EXPECT_MSG_EQ(disc->SetAttributeFailSafe(name, DoubleValue(1.01)),
                                  false,
                                  name << " above 1");
            NS_TEST_EXPECT_MSG_EQ(disc->SetAttributeFailSafe(name, DoubleValue(-0.01)),
                                  false,
                                  name << " below 0");
            NS_TEST_EXPECT_MSG_EQ(disc->SetAttributeFailSafe(name, DoubleValue(1)),
                                  true,
                                  name << " 1");
        }
        NS_TEST_EXPECT_MSG_EQ(disc->SetAttributeFailSafe("GeR", DoubleValue(-1)),
                              true,
                              "GeR -1 (1 - GeP)");
        NS_TEST_EXPECT_MSG_EQ(disc->SetAttributeFailSafe("GeR", DoubleValue(-0.5)),
                              false,
                              "GeR -0.5");
        for (const std::string name : {"Delay", "Jitter"})
        {
            NS_TEST_EXPECT_MSG_EQ(disc->SetAttributeFailSafe(name, TimeValue(NanoSeconds(-1))),
                                  false,
                                  name << " negative");
            NS_TEST_EXPECT_MSG_EQ(disc->SetAttributeFailSafe(name, TimeValue(Seconds(3601))),
                                  false,
                                  name << " above an hour");
            NS_TEST_EXPECT_MSG_EQ(disc->SetAttributeFailSafe(name, TimeValue(Seconds(3600))),
                                  true,
                                  name << " an hour");
        }
        NS_TEST_EXPECT_MSG_EQ(disc->SetAttributeFailSafe("CorruptBits", UintegerValue(0)),
                              false,
                              "CorruptBits 0");
        NS_TEST_EXPECT_MSG_EQ(disc->SetAttributeFailSafe("CorruptBits", UintegerValue(65)),
                              false,
                              "CorruptBits 65");
        NS_TEST_EXPECT_MSG_EQ(disc->SetAttributeFailSafe("CorruptBits", UintegerValue(64)),
                              true,
                              "CorruptBits 64");
        NS_TEST_EXPECT_MSG_EQ(disc->SetAttributeFailSafe("Limit", UintegerValue(0)),
                              false,
                              "Limit 0");
        NS_TEST_EXPECT_MSG_EQ(disc->SetAttributeFailSafe("ReorderGap", UintegerValue(0)),
                              false,
                              "ReorderGap 0");
        disc->Dispose();

        Ptr<RudpCorruptionErrorModel> model = CreateObject<RudpCorruptionErrorModel>();
        NS_TEST_EXPECT_MSG_EQ(model->SetAttributeFailSafe("BitsPerPacket", UintegerValue(0)),
                              false,
                              "BitsPerPacket 0");
        NS_TEST_EXPECT_MSG_EQ(model->SetAttributeFailSafe("BitsPerPacket", UintegerValue(65)),
                              false,
                              "BitsPerPacket 65");
        NS_TEST_EXPECT_MSG_EQ(model->SetAttributeFailSafe("BitsPerPacket", UintegerValue(64)),
                              true,
                              "BitsPerPacket 64");
    }
};

/// RudpCorruptionErrorModel's BitsPerPacket: K bits, inside the span; one bit draws as before.
class RudpCorruptionBitsTest : public TestCase
{
  public:
    RudpCorruptionBitsTest()
        : TestCase("RudpCorruptionErrorModel BitsPerPacket: exactly K distinct bits between the "
                   "protected bytes; with 1, the draws of the one-bit model")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t k : {2U, 5U, 64U})
        {
            Ptr<RudpCorruptionErrorModel> model = CreateObject<RudpCorruptionErrorModel>();
            model->SetAttribute("ErrorRate", DoubleValue(1.0));
            model->SetAttribute("BitsPerPacket", UintegerValue(k));
            model->SetAttribute("HeaderBytes", UintegerValue(28));
            model->SetAttribute("TrailerBytes", UintegerValue(4));
            model->AssignStreams(k);
            for (int i = 0; i < 200; ++i)
            {
                std::vector<uint8_t> zeros(100, 0);
                Ptr<Packet> p = Create<Packet>(zeros.data(), zeros.size());
                model->IsCorrupt(p);
                std::vector<uint8_t> bytes(p->GetSize());
                p->CopyData(bytes.data(), bytes.size());
                uint32_t ones = 0;
                for (size_t j = 0; j < bytes.size(); ++j)
                {
                    if (j < 28 || j >= 96)
                    {
                        NS_TEST_ASSERT_MSG_EQ(+bytes[j], 0, "protected byte " << j);
                    }
                    ones += __builtin_popcount(bytes[j]);
                }
                NS_TEST_ASSERT_MSG_EQ(ones, k, "exactly K bits");
            }
        }
        // BitsPerPacket 1 (the default) draws what the model always drew: a
        // uniform value for the decision, then one integer in [0, span - 1].
        Ptr<RudpCorruptionErrorModel> model = CreateObject<RudpCorruptionErrorModel>();
        model->SetAttribute("ErrorRate", DoubleValue(0.5));
        model->SetAttribute("HeaderBytes", UintegerValue(28));
        model->SetAttribute("TrailerBytes", UintegerValue(4));
        model->AssignStreams(42);
        Ptr<UniformRandomVariable> reference = CreateObject<UniformRandomVariable>();
        reference->SetStream(42);
        const uint32_t span = (100 - 28 - 4) * 8;
        for (int i = 0; i < 500; ++i)
        {
            std::vector<uint8_t> zeros(100, 0);
            Ptr<Packet> p = Create<Packet>(zeros.data(), zeros.size());
            model->IsCorrupt(p);
            std::vector<uint8_t> bytes(100);
            p->CopyData(bytes.data(), bytes.size());
            int64_t flipped = -1;
            for (uint32_t bit = 0; bit < 800; ++bit)
            {
                if (bytes[bit / 8] & (0x80 >> (bit % 8)))
                {
                    NS_TEST_ASSERT_MSG_EQ(flipped, -1, "one bit");
                    flipped = bit;
                }
            }
            const bool corrupt = reference->GetValue() < 0.5;
            const int64_t expected =
                corrupt ? int64_t{28 * 8 + reference->GetInteger(0, span - 1)} : int64_t{-1};
            NS_TEST_ASSERT_MSG_EQ(flipped, expected, "the same draws as the one-bit model");
        }
    }
};

/// A file transfer between two nodes whose devices hold the queue discs of a TrafficControlHelper.
struct NetemTransfer
{
    Ptr<NetemQueueDisc> data;       ///< the sender's queue disc (data direction)
    Ptr<NetemQueueDisc> acks;       ///< the receiver's queue disc (ACK direction)
    Ptr<RudpFileSender> sender;     ///< the file sender
    Ptr<RudpFileReceiver> receiver; ///< the file receiver
};

/**
 * Runs a \p size-byte transfer through the queue discs \p tc installs on both
 * devices of a 20 Mb/s, 1 ms link, with the sockets' defaults as Config set
 * them; the caller checks the result and destroys the simulator.
 */
NetemTransfer
RunNetemTransfer(TrafficControlHelper& tc, uint64_t size)
{
    NodeContainer nodes(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("20Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("1ms"));
    NetDeviceContainer devices = p2p.Install(nodes);
    InternetStackHelper().Install(nodes);
    RudpStackHelper rudp;
    rudp.Install(nodes);
    rudp.AssignStreams(nodes, 1);
    Ipv4AddressGenerator::Reset();
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);

    tc.Uninstall(devices);
    QueueDiscContainer discs = tc.Install(devices);
    int64_t stream = 10;
    for (uint32_t i = 0; i < discs.GetN(); ++i)
    {
        stream += DynamicCast<NetemQueueDisc>(discs.Get(i))->AssignStreams(stream);
    }

    const uint16_t port = 2222;
    RudpFileReceiverHelper receiver("ns3::RudpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer receiverApp = receiver.Install(nodes.Get(1));
    RudpFileSenderHelper sender("ns3::RudpSocketFactory",
                                InetSocketAddress(interfaces.GetAddress(1), port));
    sender.SetAttribute("Size", UintegerValue(size));
    ApplicationContainer senderApp = sender.Install(nodes.Get(0));
    senderApp.Start(Seconds(1));
    Simulator::Stop(Seconds(600));
    Simulator::Run();
    return {DynamicCast<NetemQueueDisc>(discs.Get(0)),
            DynamicCast<NetemQueueDisc>(discs.Get(1)),
            DynamicCast<RudpFileSender>(senderApp.Get(0)),
            DynamicCast<RudpFileReceiver>(receiverApp.Get(0))};
}

/// NetemQueueDisc on real devices, installed with TrafficControlHelper; RUDP through it.
class NetemRudpTransferTest : public TestCase
{
  public:
    NetemRudpTransferTest(const std::string& variant, bool sack)
        : TestCase("a " + variant + (sack ? "+SACK" : "") +
                   " transfer through netem (delay, jitter, reorder, duplicate, loss both "
                   "ways) arrives byte-identical"),
          m_variant(variant),
          m_sack(sack)
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RudpSocket::WindowPolicy", StringValue("ns3::Rudp" + m_variant));
        Config::SetDefault("ns3::RudpSocket::Sack", BooleanValue(m_sack));
        Config::SetDefault("ns3::RudpSocket::InitialRto", TimeValue(MilliSeconds(500)));
        TrafficControlHelper tc;
        tc.SetRootQueueDisc("ns3::NetemQueueDisc",
                            "Delay",
                            TimeValue(MilliSeconds(10)),
                            "Jitter",
                            TimeValue(MilliSeconds(3)),
                            "Reorder",
                            DoubleValue(0.1),
                            "Duplicate",
                            DoubleValue(0.05),
                            "Loss",
                            DoubleValue(0.03));
        NetemTransfer t = RunNetemTransfer(tc, 300000);

        NS_TEST_EXPECT_MSG_GT(t.data->GetCounts().reordered, 0, "data reordered");
        NS_TEST_EXPECT_MSG_GT(t.data->GetCounts().duplicated, 0, "data duplicated");
        NS_TEST_EXPECT_MSG_GT(t.data->GetCounts().lost, 0, "data lost");
        NS_TEST_EXPECT_MSG_GT(t.acks->GetCounts().duplicated, 0, "ACKs duplicated");
        NS_TEST_ASSERT_MSG_EQ(t.sender->HasFailed(), false, "the sender did not give up");
        NS_TEST_ASSERT_MSG_EQ(t.receiver->GetReports().size(), 1, "one file");
        NS_TEST_EXPECT_MSG_EQ(t.receiver->GetReports().front().complete, true, "complete");
        NS_TEST_EXPECT_MSG_EQ(t.receiver->GetReports().front().sha256,
                              t.sender->GetSourceSha256(),
                              "byte-identical");
        Simulator::Destroy();
        Config::Reset();
    }

    std::string m_variant;
    bool m_sack;
};

/**
 * Duplicated datagrams and a stop-and-wait sender: each copy may cost one
 * resend, never a chain of them. (A sender that resends on every duplicate
 * ACK, echoes of its own resends included, sends every later segment twice
 * once one datagram is duplicated: RFC 1123 4.2.3.1's "Sorcerer's
 * Apprentice", found by the rudp-socket fuzz target.)
 */
class NetemStopAndWaitDuplicateTest : public TestCase
{
  public:
    NetemStopAndWaitDuplicateTest()
        : TestCase("stop-and-wait through a link that duplicates datagrams both ways: at most one "
                   "resend per copy (no Sorcerer's Apprentice)")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RudpSocket::WindowPolicy", StringValue("ns3::RudpStopAndWait"));
        TrafficControlHelper tc;
        tc.SetRootQueueDisc("ns3::NetemQueueDisc", "Duplicate", DoubleValue(0.05));
        NetemTransfer t = RunNetemTransfer(tc, 200000);

        const uint64_t copies = t.data->GetCounts().duplicated + t.acks->GetCounts().duplicated;
        Ptr<RudpSocket> socket = DynamicCast<RudpSocket>(t.sender->GetSocket());
        NS_TEST_ASSERT_MSG_NE(socket, nullptr, "the sender kept its socket");
        const RudpSocket::Stats& stats = socket->GetStats();
        NS_TEST_ASSERT_MSG_GT(copies, 0, "datagrams duplicated");
        NS_TEST_EXPECT_MSG_EQ(stats.timeouts, 0, "nothing lost, nothing timed out");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(stats.retransmissions, copies, "at most one resend per copy");
        NS_TEST_ASSERT_MSG_EQ(t.receiver->GetReports().size(), 1, "one file");
        NS_TEST_EXPECT_MSG_EQ(t.receiver->GetReports().front().sha256,
                              t.sender->GetSourceSha256(),
                              "byte-identical");
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * \ingroup rudp-test
 * NetemQueueDisc test suite.
 */
class RudpNetemTestSuite : public TestSuite
{
  public:
    RudpNetemTestSuite()
        : TestSuite("rudp-netem")
    {
        AddTestCase(new NetemDelayTest);
        AddTestCase(new NetemUniformJitterTest);
        AddTestCase(new NetemNormalJitterTest);
        AddTestCase(new NetemRandomLossTest);
        AddTestCase(new NetemGilbertElliottTest);
        AddTestCase(new NetemGilbertElliottDefaultTest);
        AddTestCase(new NetemCorrelatedLossTest);
        AddTestCase(new NetemCorrelatedDelayTest);
        AddTestCase(new NetemCorrelatedEventsTest);
        AddTestCase(new NetemLinuxCorruptionTest);
        AddTestCase(new NetemDuplicateTest);
        AddTestCase(new NetemReorderTest);
        AddTestCase(new NetemCorruptTest);
        AddTestCase(new IcmpNeverCorruptedTest);
        AddTestCase(new NetemRateTest);
        AddTestCase(new NetemLimitTest);
        AddTestCase(new NetemAccountingTest);
        AddTestCase(new NetemDeterminismTest);
        AddTestCase(new NetemAttributeRangeTest);
        AddTestCase(new RudpCorruptionBitsTest);
        AddTestCase(new NetemStopAndWaitDuplicateTest);
        AddTestCase(new NetemRudpTransferTest("StopAndWait", false));
        AddTestCase(new NetemRudpTransferTest("GoBackN", false));
        AddTestCase(new NetemRudpTransferTest("Reno", false));
        AddTestCase(new NetemRudpTransferTest("Reno", true));
    }
};

/// Static instance.
static RudpNetemTestSuite g_rudpNetemTestSuite;
