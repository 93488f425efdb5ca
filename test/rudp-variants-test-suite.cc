/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-test-network.h"

#include "ns3/test.h"

#include <sstream>

/**
 * \file
 * \ingroup rudp-test
 * Each variant end to end under deterministic drop lists: exactly which
 * segments are sent again, and for Reno the window after each event.
 */

using namespace ns3;
using namespace ns3::rudptest;

namespace
{

const uint16_t PORT = 2222;
const uint32_t MSS = 1000;

/// Flips a bit in the RUDP part of the listed received packets.
class CorruptListErrorModel : public ErrorModel
{
  public:
    explicit CorruptListErrorModel(std::list<uint32_t> indices)
        : m_indices(std::move(indices))
    {
    }

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        if (std::find(m_indices.begin(), m_indices.end(), m_count++) != m_indices.end())
        {
            // SimpleNetDevice frames carry no link header: IPv4 (20) + UDP (8) first.
            RudpCorruptionErrorModel::FlipBits(p, {(28 + 30) * 8 + 3});
        }
        return false;
    }

    void DoReset() override
    {
    }

    std::list<uint32_t> m_indices;
    uint32_t m_count{0};
};

/// Congestion-state changes of a socket, with the windows (bytes) at each.
struct WindowLog
{
    Ptr<RudpSocket> socket;
    std::vector<std::string> events;

    void State(RudpSenderState::CongState, RudpSenderState::CongState state)
    {
        const Ptr<const RudpSenderState> tcb = socket->GetSenderState();
        // The state changes after the windows, so both are current here.
        std::ostringstream os;
        os << RudpSenderState::CongStateName(state) << " cwnd=" << tcb->m_cWnd.Get()
           << " ssthresh=" << tcb->m_ssThresh.Get();
        events.push_back(os.str());
    }
};

/// Socket defaults, set before any socket of a Transfer exists.
struct Defaults
{
    explicit Defaults(bool sack)
    {
        Config::SetDefault("ns3::RudpSocket::Sack", BooleanValue(sack));
        Config::SetDefault("ns3::RudpSocket::SegmentSize", UintegerValue(MSS));
    }

    ~Defaults()
    {
        Config::Reset();
    }
};

/// A transfer of \p segments full segments with the given variant.
struct Transfer
{
    Defaults defaults;
    TestNetwork network{MilliSeconds(10)};
    SegmentLog log;
    AcceptingServer server{network.Server(), PORT};
    Ptr<RudpSocket> client = TestNetwork::CreateSocket(network.Client());
    WindowLog windows;

    Transfer(const std::string& variant, uint32_t window, bool sack = false)
        : defaults(sack)
    {
        log.Watch(network.Client(), "C");
        client->SetAttribute("WindowPolicy", StringValue("ns3::Rudp" + variant));
        client->SetAttribute("WindowSize", UintegerValue(window));
        client->SetAttribute("InitialSlowStartThreshold", UintegerValue(4 * MSS));
        client->SetAttribute("InitialRto", TimeValue(Seconds(1)));
        windows.socket = client;
        client->TraceConnectWithoutContext("CongState", MakeCallback(&WindowLog::State, &windows));
    }

    ~Transfer()
    {
        Simulator::Destroy();
    }

    /// Connects, queues \p segments full segments and closes.
    void Start(uint32_t segments)
    {
        client->Connect(network.ServerAddress(PORT));
        client->Send(Create<Packet>(segments * MSS));
        client->Close();
    }

    void Run(uint32_t segments)
    {
        Simulator::Schedule(Seconds(1), &Transfer::Start, this, segments);
        Simulator::Stop(Seconds(600));
        Simulator::Run();
    }

    /// \return the data segments the client sent, as segment numbers: "0 1 2 2 3"
    std::string DataSent() const
    {
        std::string out;
        const SequenceNumber32 first = log.Segments().front().header.GetSequenceNumber() + 1;
        for (const auto& s : log.Segments())
        {
            if (s.length > 0)
            {
                out += out.empty() ? "" : " ";
                out += std::to_string((s.header.GetSequenceNumber() - first) / MSS);
            }
        }
        return out;
    }

    /// \return the times the client sent segment number \p n
    std::vector<Time> SendTimes(uint32_t n) const
    {
        std::vector<Time> times;
        const SequenceNumber32 first = log.Segments().front().header.GetSequenceNumber() + 1;
        for (const auto& s : log.Segments())
        {
            if (s.length > 0 && s.header.GetSequenceNumber() == first + n * MSS)
            {
                times.push_back(s.time);
            }
        }
        return times;
    }
};

} // namespace

/// Stop-and-wait: a lost segment waits for the timeout.
class RudpStopAndWaitLossTest : public TestCase
{
  public:
    RudpStopAndWaitLossTest()
        : TestCase("stop-and-wait: a lost segment is resent alone, one RTO after it was sent")
    {
    }

  private:
    void DoRun() override
    {
        Transfer t("StopAndWait", 30);
        t.network.DropAtServer({2 + 2}); // SYN, ACK, then data segment 2
        t.Run(5);
        NS_TEST_ASSERT_MSG_EQ(t.DataSent(), "0 1 2 2 3 4", "segments sent");
        const auto times = t.SendTimes(2);
        NS_TEST_ASSERT_MSG_EQ(times.size(), 2, "segment 2 sent twice");
        if (times.size() != 2)
        {
            return; // the runner continues after a failed assertion
        }
        NS_TEST_ASSERT_MSG_EQ_TOL((times[1] - times[0]).GetSeconds(), 1.0, 1e-9, "after the RTO");
        const auto& stats = t.client->GetStats();
        NS_TEST_ASSERT_MSG_EQ(stats.retransmissions, 1, "one retransmission");
        NS_TEST_ASSERT_MSG_EQ(stats.timeouts, 1, "one timeout");
        NS_TEST_ASSERT_MSG_EQ(t.server.BytesRead(), 5 * MSS, "delivered");
    }
};

/// Stop-and-wait: a corrupted segment is answered at once (rdt3.0).
class RudpStopAndWaitCorruptionTest : public TestCase
{
  public:
    RudpStopAndWaitCorruptionTest()
        : TestCase("stop-and-wait: a corrupted segment draws a duplicate ACK and is resent at once")
    {
    }

  private:
    void DoRun() override
    {
        Transfer t("StopAndWait", 30);
        t.network.SetServerErrorModel(CreateObject<CorruptListErrorModel>(std::list<uint32_t>{4}));
        t.Run(5);
        NS_TEST_ASSERT_MSG_EQ(t.DataSent(), "0 1 2 2 3 4", "segments sent");
        const auto times = t.SendTimes(2);
        NS_TEST_ASSERT_MSG_EQ(times.size(), 2, "segment 2 sent twice");
        if (times.size() != 2)
        {
            return; // the runner continues after a failed assertion
        }
        NS_TEST_ASSERT_MSG_EQ_TOL((times[1] - times[0]).GetSeconds(),
                                  0.0216,
                                  0.001,
                                  "one RTT later, no timeout");
        NS_TEST_ASSERT_MSG_EQ(t.server.Connection()->GetStats().checksumErrors, 1, "caught");
        NS_TEST_ASSERT_MSG_EQ(t.client->GetStats().timeouts, 0, "no timeout");
        NS_TEST_ASSERT_MSG_EQ(t.server.BytesRead(), 5 * MSS, "delivered");
    }
};

/// Go-Back-N: three duplicate ACKs resend every segment sent in the window.
class RudpGoBackNLossTest : public TestCase
{
  public:
    /// \param sack selective repeat instead of go-back-N
    explicit RudpGoBackNLossTest(bool sack)
        : TestCase(sack ? "Go-Back-N with selective repeat: three duplicate ACKs resend the hole "
                          "only"
                        : "Go-Back-N: three duplicate ACKs resend every segment sent in the "
                          "window"),
          m_sack(sack)
    {
    }

  private:
    void DoRun() override
    {
        Transfer t("GoBackN", 4, m_sack);
        t.network.DropAtServer({2 + 2});
        t.Run(10);
        // Window 4: 0-3 go at once; ACKs of 0 and 1 release 4 and 5; 3, 4
        // and 5 arrive after the gap at 2 and draw three duplicate ACKs.
        // With SACK the segments reported received leave the flight, so 6
        // and 7 go out before the third duplicate (RFC 6675's pipe).
        const std::string expected =
            m_sack ? "0 1 2 3 4 5 6 7 2 8 9" : "0 1 2 3 4 5 2 3 4 5 6 7 8 9";
        NS_TEST_ASSERT_MSG_EQ(t.DataSent(), expected, "segments sent");
        const auto& stats = t.client->GetStats();
        NS_TEST_ASSERT_MSG_EQ(stats.fastRetransmits, 1, "one trigger");
        NS_TEST_ASSERT_MSG_EQ(stats.retransmissions, (m_sack ? 1 : 4), "segments resent");
        NS_TEST_ASSERT_MSG_EQ(stats.timeouts, 0, "no timeout");
        NS_TEST_ASSERT_MSG_EQ(t.server.BytesRead(), 10 * MSS, "delivered");
    }

    bool m_sack;
};

/// Go-Back-N: losing the last segments leaves too few duplicates: the timer resends.
class RudpGoBackNTimeoutTest : public TestCase
{
  public:
    RudpGoBackNTimeoutTest()
        : TestCase("Go-Back-N: a lost tail draws no three duplicates; the timeout resends it")
    {
    }

  private:
    void DoRun() override
    {
        Transfer t("GoBackN", 4);
        t.network.DropAtServer({2 + 4}); // segment 4 of 6: only 5 follows
        t.Run(6);
        NS_TEST_ASSERT_MSG_EQ(t.DataSent(), "0 1 2 3 4 5 4 5", "segments sent");
        NS_TEST_ASSERT_MSG_EQ(t.client->GetStats().timeouts, 1, "one timeout");
        NS_TEST_ASSERT_MSG_EQ(t.client->GetStats().fastRetransmits, 0, "no trigger");
    }
};

/// Reno: the window through slow start, a fast retransmit and a timeout.
class RudpRenoLossTest : public TestCase
{
  public:
    RudpRenoLossTest()
        : TestCase("Reno end to end: cwnd, ssthresh and state after each event of a drop list")
    {
    }

  private:
    void DoRun() override
    {
        Transfer t("Reno", 30);
        // Data segment 8 is lost (enough follow it for three duplicates);
        // then segment 19, the last, which only a timeout recovers.
        t.network.DropAtServer({2 + 8, 2 + 20 + 3});
        t.Run(20);
        const std::vector<std::string> expected{
            // open: 1 MSS, InitialSsThresh 4 MSS
            "SLOW_START cwnd=1000 ssthresh=4000",
            // three new ACKs: 2, 3, 4 MSS reach ssthresh
            "CONGESTION_AVOIDANCE cwnd=4000 ssthresh=4000",
            // four more ACKs: 5 MSS; then three duplicates: 5000/2, + 3 MSS
            "FAST_RECOVERY cwnd=5500 ssthresh=2500",
            // the new ACK: cwnd = ssthresh
            "CONGESTION_AVOIDANCE cwnd=2500 ssthresh=2500",
            // 2 + 3 + 4 new ACKs grow it to 5500; the lost tail times out: 5500/2, 1 MSS
            "SLOW_START cwnd=1000 ssthresh=2750",
            // two new ACKs: 2000, then 3000 >= ssthresh
            "CONGESTION_AVOIDANCE cwnd=3000 ssthresh=2750",
        };
        NS_TEST_ASSERT_MSG_EQ(Join(t.windows.events), Join(expected), "window after each event");
        NS_TEST_ASSERT_MSG_EQ(t.server.BytesRead(), 20 * MSS, "delivered");
    }
};

/// \ingroup rudp-test
/// Variant behaviour test suite.
class RudpVariantsTestSuite : public TestSuite
{
  public:
    RudpVariantsTestSuite()
        : TestSuite("rudp-variants")
    {
        AddTestCase(new RudpStopAndWaitLossTest);
        AddTestCase(new RudpStopAndWaitCorruptionTest);
        AddTestCase(new RudpGoBackNLossTest(false));
        AddTestCase(new RudpGoBackNLossTest(true));
        AddTestCase(new RudpGoBackNTimeoutTest);
        AddTestCase(new RudpRenoLossTest);
    }
};

/// Static instance registering the suite.
static RudpVariantsTestSuite g_rudpVariantsTestSuite;
