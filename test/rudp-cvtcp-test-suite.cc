/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/rudp-congestion-names.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tcp-cvtcp.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/test.h"

#include <cmath>
#include <functional>
#include <sstream>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * CVTCP (seed 003) driven directly, as ns-3's tcp-*-test suites drive
 * congestion controls: a TcpSocketState, and PktsAcked / IncreaseWindow /
 * GetSsThresh calls with chosen RTT samples at chosen simulated times.
 * Expected values come from the algorithm's equations, computed here.
 */

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("RudpCvtcpTestSuite");

namespace
{

const uint32_t SEG = 1000;               //!< segment size, bytes
const Time BASE_RTT = MilliSeconds(100); //!< the propagation RTT of every test

/// \return a TCP state with cwnd and ssthresh in segments
Ptr<TcpSocketState>
MakeState(uint32_t cwndSegments, uint32_t ssThreshSegments)
{
    Ptr<TcpSocketState> tcb = CreateObject<TcpSocketState>();
    tcb->m_segmentSize = SEG;
    tcb->m_cWnd = cwndSegments * SEG;
    tcb->m_ssThresh = ssThreshSegments * SEG;
    return tcb;
}

/// \return CVTCP with the given attributes (defaults otherwise)
Ptr<TcpCvtcp>
MakeCvtcp(double gamma = 3, double beta = 0.5, double randomBeta = 0.8, bool fastConv = true)
{
    Ptr<TcpCvtcp> cong = CreateObject<TcpCvtcp>();
    cong->SetAttribute("Gamma", DoubleValue(gamma));
    cong->SetAttribute("Beta", DoubleValue(beta));
    cong->SetAttribute("RandomLossBeta", DoubleValue(randomBeta));
    cong->SetAttribute("FastConvergence", BooleanValue(fastConv));
    return cong;
}

/**
 * \brief Gives CVTCP BaseRTT = 100 ms, then three samples of \p rtt and one
 * ACK without growth, so that diff = cwnd - cwnd 100 ms / rtt.
 */
void
Measure(Ptr<TcpCvtcp> cong, Ptr<TcpSocketState> tcb, Time rtt)
{
    cong->PktsAcked(tcb, 1, BASE_RTT);
    cong->IncreaseWindow(tcb, 0);
    for (int i = 0; i < 3; ++i)
    {
        cong->PktsAcked(tcb, 1, rtt);
    }
    cong->IncreaseWindow(tcb, 0);
}

/// Veno's diff for cwnd \p w (segments) and an RTT sample \p rtt.
double
Diff(double w, Time rtt)
{
    return w - w * BASE_RTT.GetSeconds() / rtt.GetSeconds();
}

/// Cubic's window W(t) = C (t - K)^3 + W_max, segments, K from W_max and cwnd0.
double
CubicWindow(double c, double wMax, double cwnd0, double t)
{
    const double k = std::cbrt((wMax - cwnd0) / c);
    return c * std::pow(t - k, 3) + wMax;
}

/// Cubic's count at the first ACK of an epoch (t = BaseRTT, Cubic aims one RTT ahead).
uint32_t
FirstCount(double c, double wMax, uint32_t cwnd)
{
    const double target = CubicWindow(c, wMax, cwnd, BASE_RTT.GetSeconds());
    return std::max(2U, static_cast<uint32_t>(std::floor(cwnd / (target - cwnd))));
}

/**
 * \brief Sends ACKs of one segment each, with an RTT sample of \p rtt, until
 * cwnd changes or \p limit ACKs have gone.
 * \return the ACKs it took (\p limit + 1 if cwnd did not change)
 */
uint32_t
AcksToGrow(Ptr<TcpCvtcp> cong, Ptr<TcpSocketState> tcb, Time rtt, uint32_t limit)
{
    const uint32_t before = tcb->m_cWnd;
    for (uint32_t ack = 1; ack <= limit; ++ack)
    {
        cong->PktsAcked(tcb, 1, rtt);
        cong->IncreaseWindow(tcb, 1);
        if (tcb->m_cWnd != before)
        {
            return ack;
        }
    }
    return limit + 1;
}

/// Calls \p body (an event: ns-3.35 schedules no lambdas).
void
Invoke(std::function<void()> body)
{
    body();
}

/// Runs \p body as a simulator event at time \p at (CVTCP reads Simulator::Now).
void
RunAt(Time at, const std::function<void()>& body)
{
    Simulator::Schedule(at, &Invoke, body);
    Simulator::Run();
    Simulator::Destroy();
}

} // namespace

/**
 * \ingroup rudp-test
 * \brief Reno's slow start, then Reno's rate in the non-congestive state.
 */
class RudpCvtcpSlowStartTest : public TestCase
{
  public:
    RudpCvtcpSlowStartTest()
        : TestCase("Slow start adds one segment per segment acknowledged up to ssthresh; the "
                   "rest of the ACK counts towards congestion avoidance")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TcpSocketState> tcb = MakeState(2, 10);
        Ptr<TcpCvtcp> cong = MakeCvtcp();
        const std::vector<std::pair<uint32_t, uint32_t>> steps{{1, 3}, {2, 5}, {4, 9}, {3, 10}};
        for (const auto& [acked, cwnd] : steps)
        {
            cong->IncreaseWindow(tcb, acked);
            NS_TEST_EXPECT_MSG_EQ(tcb->m_cWnd.Get(), cwnd * SEG, "after " << acked << " acked");
        }
        // The ACK of 3 segments used 1 to reach ssthresh = 10; 2 count towards
        // the next increase. Before any loss and without RTT samples the state
        // is non-congestive and Cubic's count is clamped to 20, so the count is
        // min(20, cwnd = 10) = 10: 8 more segments add one.
        NS_TEST_EXPECT_MSG_EQ(cong->IsNonCongestive(), true, "no samples: non-congestive");
        for (int i = 0; i < 7; ++i)
        {
            cong->IncreaseWindow(tcb, 1);
        }
        NS_TEST_EXPECT_MSG_EQ(tcb->m_cWnd.Get(), 10 * SEG, "2 + 7 of 10 segments");
        cong->IncreaseWindow(tcb, 1);
        NS_TEST_EXPECT_MSG_EQ(tcb->m_cWnd.Get(), 11 * SEG, "2 + 8 of 10 segments: +1");
    }
};

/**
 * \ingroup rudp-test
 * \brief Congestion avoidance on Cubic's curve, with an ACK clock.
 */
class RudpCvtcpCubicCurveTest : public TestCase
{
  public:
    RudpCvtcpCubicCurveTest()
        : TestCase("Congestion avoidance after a congestion loss follows W(t) = C (t - K)^3 + "
                   "W_max: concave up to W_max at K, convex beyond")
    {
    }

  private:
    /// One ACK of one segment; the next follows RTT / cwnd later (an ACK clock).
    void Ack()
    {
        m_cong->PktsAcked(m_tcb, 1, m_rtt);
        m_cong->IncreaseWindow(m_tcb, 1);
        Simulator::Schedule(m_rtt / m_tcb->GetCwndInSegments(),
                            &RudpCvtcpCubicCurveTest::Ack,
                            this);
    }

    void Sample()
    {
        m_samples.emplace_back((Simulator::Now() - m_epoch).GetSeconds(),
                               m_tcb->GetCwndInSegments());
    }

    void DoRun() override
    {
        const double c = 0.4;
        const uint32_t wMax = 100;
        m_tcb = MakeState(wMax, 10);
        m_cong = MakeCvtcp();
        // Queueing delay of 50 ms: diff = cwnd / 3 >= Gamma, congestive.
        m_rtt = MilliSeconds(150);
        Measure(m_cong, m_tcb, m_rtt);
        NS_TEST_ASSERT_MSG_EQ(m_cong->IsNonCongestive(), false, "diff = 100/3 is congestive");
        const uint32_t ssThresh = m_cong->GetSsThresh(m_tcb, m_tcb->m_cWnd);
        NS_TEST_ASSERT_MSG_EQ(ssThresh, wMax / 2 * SEG, "congestion loss halves cwnd");
        m_tcb->m_ssThresh = ssThresh;
        m_tcb->m_cWnd = ssThresh; // leaving recovery

        m_epoch = Seconds(1);
        Simulator::Schedule(m_epoch, &RudpCvtcpCubicCurveTest::Ack, this);
        for (int i = 1; i <= 80; ++i)
        {
            Simulator::Schedule(m_epoch + MilliSeconds(100 * i),
                                &RudpCvtcpCubicCurveTest::Sample,
                                this);
        }
        Simulator::Stop(m_epoch + Seconds(8.05));
        Simulator::Run();
        Simulator::Destroy();

        // cwnd follows the curve within 1.5 segments: it is a whole number of
        // segments, and Cubic aims at W(t + BaseRTT) but reaches it about an
        // RTT later. K = cbrt(50 / 0.4) = 5 s. (Without the one-RTT aim it
        // would lag W'(t) x 0.1 s, about 3 segments, early in the epoch.)
        NS_TEST_ASSERT_MSG_EQ(m_samples.size(), 80, "every sample taken");
        for (const auto& [t, cwnd] : m_samples)
        {
            const double curve = CubicWindow(c, wMax, wMax / 2, t);
            NS_LOG_DEBUG("t " << t << " s: cwnd " << cwnd << ", W(t) " << curve);
            NS_TEST_EXPECT_MSG_EQ_TOL(cwnd, curve, 1.5, "t = " << t << " s since the epoch");
        }
        // The shape: fast at first, flat near W_max at K = 5 s, faster again
        // beyond. Reno would be at 50 + 2.5 / 0.15 = 66 segments at 2.5 s.
        const auto at = [this](double t) {
            for (const auto& [when, cwnd] : m_samples)
            {
                if (std::abs(when - t) < 1e-6)
                {
                    return cwnd;
                }
            }
            return 0U;
        };
        NS_TEST_EXPECT_MSG_GT_OR_EQ(at(2.5), 92U, "concave: 100 - 0.4 x 2.5^3 = 93.75");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(at(5.0) - at(4.0), 1U, "plateau around K");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(at(8.0), 110U, "convex: 100 + 0.4 x 3^3 = 110.8");
    }

    Ptr<TcpSocketState> m_tcb;                          //!< the connection's state
    Ptr<TcpCvtcp> m_cong;                               //!< the algorithm
    Time m_rtt;                                         //!< every RTT sample
    Time m_epoch;                                       //!< first ACK after the loss
    std::vector<std::pair<double, uint32_t>> m_samples; //!< (t since epoch, cwnd segments)
};

/**
 * \ingroup rudp-test
 * \brief Loss classification: diff against Gamma decides the count and the decrease.
 */
class RudpCvtcpClassificationTest : public TestCase
{
  public:
    /**
     * \param rtt the RTT samples (BaseRTT is 100 ms)
     * \param gamma the Gamma attribute, segments
     * \param beta the Beta attribute
     * \param randomBeta the RandomLossBeta attribute
     * \param random whether the loss must be taken as random
     */
    RudpCvtcpClassificationTest(Time rtt, double gamma, double beta, double randomBeta, bool random)
        : TestCase(Describe(rtt, gamma, beta, randomBeta, random)),
          m_rtt(rtt),
          m_gamma(gamma),
          m_beta(beta),
          m_randomBeta(randomBeta),
          m_random(random)
    {
    }

  private:
    /// \return the test's name, from its parameters
    static std::string Describe(Time rtt, double gamma, double beta, double randomBeta, bool random)
    {
        std::ostringstream name;
        name << "cwnd 30, RTT " << rtt.GetMilliSeconds() << " ms, BaseRTT 100 ms: diff "
             << Diff(30, rtt) << (random ? " < " : " >= ") << "Gamma " << gamma << ": "
             << (random ? "random loss, count min(cnt_cubic, cwnd), ssthresh "
                        : "congestion loss, count cnt_cubic, ssthresh ")
             << (random ? randomBeta : beta) << " cwnd";
        return name.str();
    }

    void DoRun() override
    {
        RunAt(Seconds(1), [this] { Check(); });
    }

    void Check()
    {
        const uint32_t w = 30;
        Ptr<TcpSocketState> tcb = MakeState(w, 10);
        Ptr<TcpCvtcp> cong = MakeCvtcp(m_gamma, m_beta, m_randomBeta);
        Measure(cong, tcb, m_rtt);
        NS_TEST_EXPECT_MSG_EQ_TOL(cong->GetDiff(), Diff(w, m_rtt), 1e-9, "Veno's diff");
        NS_TEST_EXPECT_MSG_EQ(cong->IsNonCongestive(), m_random, "classification");

        // The decrease.
        const uint32_t ssThresh = cong->GetSsThresh(tcb, tcb->m_cWnd);
        const double factor = m_random ? m_randomBeta : m_beta;
        NS_TEST_EXPECT_MSG_EQ(ssThresh,
                              std::max(2U, static_cast<uint32_t>(w * factor)) * SEG,
                              "ssthresh = " << factor << " x cwnd");

        // The count, on Cubic's plateau: back at cwnd = W_max = 30, the epoch
        // starts with K = 0 and the target one RTT ahead is 30 + 0.4 x 0.1^3,
        // so cnt_cubic = 30 / 0.0004 = 75000. A random loss makes the count
        // min(75000, 30): +1 segment after exactly 30 segments acknowledged, as
        // Reno. A congestion loss keeps 75000: no growth within 2 x 30.
        tcb->m_ssThresh = ssThresh;
        const uint32_t acks = AcksToGrow(cong, tcb, m_rtt, 2 * w);
        const uint32_t expected = m_random ? w : 2 * w + 1;
        NS_TEST_EXPECT_MSG_EQ(acks, expected, "ACKs to grow one segment");
    }

    Time m_rtt;          //!< RTT samples
    double m_gamma;      //!< Gamma
    double m_beta;       //!< Beta
    double m_randomBeta; //!< RandomLossBeta
    bool m_random;       //!< expected: random loss
};

/**
 * \ingroup rudp-test
 * \brief W_max after a loss: the count of the next epoch's first ACK reveals it.
 */
class RudpCvtcpPlateauTest : public TestCase
{
  public:
    /**
     * \param rtt the RTT samples (BaseRTT is 100 ms)
     * \param fastConvergence the FastConvergence attribute
     * \param timeout whether a retransmission timeout follows the second loss
     * \param wMax the W_max the next epoch must have (0: none)
     * \param name what the case shows
     */
    RudpCvtcpPlateauTest(Time rtt,
                         bool fastConvergence,
                         bool timeout,
                         double wMax,
                         const std::string& name)
        : TestCase(name),
          m_rtt(rtt),
          m_fastConvergence(fastConvergence),
          m_timeout(timeout),
          m_wMax(wMax)
    {
    }

  private:
    void DoRun() override
    {
        RunAt(Seconds(1), [this] { Check(); });
    }

    void Check()
    {
        Ptr<TcpSocketState> tcb = MakeState(100, 10);
        Ptr<TcpCvtcp> cong = MakeCvtcp(3, 0.5, 0.8, m_fastConvergence);
        Measure(cong, tcb, m_rtt);
        cong->GetSsThresh(tcb, tcb->m_cWnd); // first loss at 100: W_max = 100
        tcb->m_cWnd = 80 * SEG;
        Measure(cong, tcb, m_rtt);
        const uint32_t ssThresh = cong->GetSsThresh(tcb, tcb->m_cWnd); // second, below W_max
        if (m_timeout)
        {
            cong->CongestionStateSet(tcb, TcpSocketState::CA_LOSS);
        }
        tcb->m_cWnd = ssThresh;
        tcb->m_ssThresh = ssThresh;
        const uint32_t cwnd = tcb->GetCwndInSegments();

        // No loss remembered: Cubic's count is clamped to 20. Otherwise the
        // first count of the epoch is cwnd / (W(BaseRTT) - cwnd).
        uint32_t expected = m_wMax == 0 ? 20 : FirstCount(0.4, m_wMax, cwnd);
        if (cong->IsNonCongestive())
        {
            expected = std::min(expected, cwnd);
        }
        NS_LOG_DEBUG("cwnd " << cwnd << " W_max " << m_wMax << " count " << expected);
        NS_TEST_EXPECT_MSG_EQ(AcksToGrow(cong, tcb, m_rtt, 1000), expected, "first count");
    }

    Time m_rtt;             //!< RTT samples
    bool m_fastConvergence; //!< FastConvergence
    bool m_timeout;         //!< a timeout after the second loss
    double m_wMax;          //!< expected W_max of the next epoch
};

/**
 * \ingroup rudp-test
 * \brief Attribute ranges and Fork.
 */
class RudpCvtcpAttributesTest : public TestCase
{
  public:
    RudpCvtcpAttributesTest()
        : TestCase("Attributes refuse out-of-range values; Fork copies attributes and state")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TcpCvtcp> cong = CreateObject<TcpCvtcp>();
        NS_TEST_EXPECT_MSG_EQ(cong->GetName(), "TcpCvtcp", "name");
        NS_TEST_EXPECT_MSG_EQ(cong->SetAttributeFailSafe("C", DoubleValue(0)), false, "C = 0");
        NS_TEST_EXPECT_MSG_EQ(cong->SetAttributeFailSafe("Gamma", DoubleValue(-1)), false, "Gamma");
        NS_TEST_EXPECT_MSG_EQ(cong->SetAttributeFailSafe("Beta", DoubleValue(1.5)), false, "Beta");
        NS_TEST_EXPECT_MSG_EQ(cong->SetAttributeFailSafe("RandomLossBeta", DoubleValue(0)),
                              false,
                              "RandomLossBeta");
        DoubleValue value;
        cong->GetAttribute("C", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 0.4, "C default (Cubic)");
        cong->GetAttribute("Gamma", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 3.0, "Gamma default (Veno's beta)");
        cong->GetAttribute("Beta", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 0.5, "Beta default (Veno)");
        cong->GetAttribute("RandomLossBeta", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 0.8, "RandomLossBeta default (Veno)");

        cong->SetAttribute("Gamma", DoubleValue(7));
        Ptr<TcpSocketState> tcb = MakeState(30, 10);
        Measure(cong, tcb, MilliSeconds(125)); // diff = 6 < 7
        Ptr<TcpCongestionOps> copy = cong->Fork();
        Ptr<TcpCvtcp> fork = DynamicCast<TcpCvtcp>(copy);
        NS_TEST_ASSERT_MSG_NE(fork, nullptr, "Fork makes a TcpCvtcp");
        NS_TEST_EXPECT_MSG_NE(fork, cong, "a new object");
        fork->GetAttribute("Gamma", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 7.0, "Gamma copied");
        NS_TEST_EXPECT_MSG_EQ_TOL(fork->GetDiff(), 6.0, 1e-9, "diff copied");
        NS_TEST_EXPECT_MSG_EQ(fork->IsNonCongestive(), true, "state copied");
    }
};

/**
 * \ingroup rudp-test
 * \brief The short names of seed 003's algorithms.
 */
class RudpCongestionNamesTest : public TestCase
{
  public:
    RudpCongestionNamesTest()
        : TestCase("Short names map to ns-3 congestion controls; TypeId names are accepted; "
                   "others are not")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::string, std::string>> expected{
            {"newreno", "ns3::TcpLinuxReno"},
            {"reno", "ns3::TcpLinuxReno"},
            {"cubic", "ns3::TcpCubic"},
            {"htcp", "ns3::TcpHtcp"},
            {"hybla", "ns3::TcpHybla"},
            {"veno", "ns3::TcpVeno"},
            {"cvtcp", "ns3::TcpCvtcp"},
            {"ns3::TcpNewReno", "ns3::TcpNewReno"},
            {"ns3::TcpCubic", "ns3::TcpCubic"}, // parent TcpSocketBase up to ns-3.42
        };
        for (const auto& [name, typeId] : expected)
        {
            const bool known = RudpCongestionNames::IsKnown(name);
            NS_TEST_EXPECT_MSG_EQ(known, true, name);
            if (!known)
            {
                continue; // the lookups below would abort
            }
            NS_TEST_EXPECT_MSG_EQ(RudpCongestionTypeId(name).GetName(), typeId, name);
            Ptr<TcpCongestionOps> algorithm =
                RudpCongestionNames::GetFactory(name).Create<TcpCongestionOps>();
            NS_TEST_EXPECT_MSG_NE(algorithm, nullptr, name);
        }
        NS_TEST_EXPECT_MSG_EQ(RudpCongestionNames::GetNames().size(), 8, "eight short names");
        NS_TEST_EXPECT_MSG_EQ(RudpCongestionNames::GetNames().front(), "newreno", "baseline");

        // Westwood+ on every ns-3 version.
        Ptr<TcpCongestionOps> westwood =
            RudpCongestionNames::GetFactory("westwood").Create<TcpCongestionOps>();
        const std::string tid = westwood->GetInstanceTypeId().GetName();
        if (tid == "ns3::TcpWestwood")
        {
            StringValue protocol;
            westwood->GetAttribute("ProtocolType", protocol);
            NS_TEST_EXPECT_MSG_EQ(protocol.Get(), "WestwoodPlus", "ns-3.37's Westwood+");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(tid, "ns3::TcpWestwoodPlus", "Westwood+");
        }

        const uint32_t nodes = NodeList::GetNNodes();
        for (const std::string name :
             {"vegas-ish", "", "ns3::Node", "ns3::TcpCongestionOps", "ns3::TcpSocketBase"})
        {
            NS_TEST_EXPECT_MSG_EQ(RudpCongestionNames::IsKnown(name), false, "'" << name << "'");
        }
        NS_TEST_EXPECT_MSG_EQ(NodeList::GetNNodes(), nodes, "looking up ns3::Node made no node");
    }
};

/**
 * \ingroup rudp-test
 * \brief CVTCP's test suite.
 */
class RudpCvtcpTestSuite : public TestSuite
{
  public:
    RudpCvtcpTestSuite()
        : TestSuite("rudp-cvtcp")
    {
        AddTestCase(new RudpCvtcpSlowStartTest);
        AddTestCase(new RudpCvtcpCubicCurveTest);
        // diff = 30 - 3000 / RTT[ms] crosses Gamma = 3 between 111 and 112 ms.
        AddTestCase(new RudpCvtcpClassificationTest(MilliSeconds(100), 3, 0.5, 0.8, true));
        AddTestCase(new RudpCvtcpClassificationTest(MilliSeconds(111), 3, 0.5, 0.8, true));
        AddTestCase(new RudpCvtcpClassificationTest(MilliSeconds(112), 3, 0.5, 0.8, false));
        AddTestCase(new RudpCvtcpClassificationTest(MilliSeconds(200), 3, 0.5, 0.8, false));
        AddTestCase(new RudpCvtcpClassificationTest(MilliSeconds(112), 5, 0.5, 0.8, true));
        AddTestCase(new RudpCvtcpClassificationTest(MilliSeconds(100), 0, 0.5, 0.8, false));
        AddTestCase(new RudpCvtcpClassificationTest(MilliSeconds(200), 3, 0.7, 0.8, false));
        AddTestCase(new RudpCvtcpClassificationTest(MilliSeconds(100), 3, 0.5, 0.9, true));
        AddTestCase(new RudpCvtcpPlateauTest(MilliSeconds(200),
                                             true,
                                             false,
                                             80 * 0.75,
                                             "Congestion loss below the previous W_max: "
                                             "W_max = cwnd (1 + Beta) x 0.5 (fast convergence)"));
        AddTestCase(new RudpCvtcpPlateauTest(MilliSeconds(200),
                                             false,
                                             false,
                                             80,
                                             "Without FastConvergence W_max = cwnd at the loss"));
        AddTestCase(new RudpCvtcpPlateauTest(MilliSeconds(100),
                                             true,
                                             false,
                                             80,
                                             "Random loss below the previous W_max: W_max = "
                                             "cwnd (no fast convergence)"));
        AddTestCase(new RudpCvtcpPlateauTest(MilliSeconds(200),
                                             true,
                                             true,
                                             0,
                                             "A retransmission timeout forgets W_max"));
        AddTestCase(new RudpCvtcpAttributesTest);
        AddTestCase(new RudpCongestionNamesTest);
    }
};

/// Registers the suite.
static RudpCvtcpTestSuite g_rudpCvtcpTestSuite;
