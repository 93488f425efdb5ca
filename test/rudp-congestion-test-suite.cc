/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-test-network.h"

#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/test.h"

/**
 * \file
 * \ingroup rudp-test
 * RUDP carrying ns-3's TCP congestion controls (Variant TcpCongestionOps):
 * the windows follow the algorithm, and the file still arrives intact.
 */

using namespace ns3;
using namespace ns3::rudptest;

namespace
{

const uint16_t PORT = 2222;
const uint32_t MSS = 1000;

/// The first window reduction of a transfer: cwnd before, ssthresh after.
struct Reduction
{
    uint32_t cwndBefore{0};
    uint32_t ssThreshAfter{0};
};

/// One file transfer over a 10 Mbit/s, 40 ms RTT path, recording the windows.
class CongestionRun
{
  public:
    CongestionRun(const std::string& variant, const std::string& congestionOps)
    {
        // Seed 000's Reno, or the TcpCongestionOps named.
        Config::SetDefault("ns3::RudpSocket::WindowPolicy",
                           StringValue(variant == "Reno" ? "ns3::RudpReno" : congestionOps));
        Config::SetDefault("ns3::RudpSocket::SegmentSize", UintegerValue(MSS));
        Config::SetDefault("ns3::RudpSocket::WindowSize", UintegerValue(1000));
        Config::SetDefault("ns3::RudpSocket::RtoMode", StringValue("Adaptive"));
        Config::SetDefault("ns3::RudpSocket::Sack", BooleanValue(true));
        Config::SetDefault("ns3::RudpSocket::RcvBufSize", UintegerValue(1 << 20));
        Config::SetDefault("ns3::RudpSocket::SndBufSize", UintegerValue(1 << 20));
    }

    ~CongestionRun()
    {
        Simulator::Destroy();
        Config::Reset();
    }

    /// Sends \p bytes with data segments \p drops (indices at the server) lost.
    void Run(uint32_t bytes, const std::list<uint32_t>& drops)
    {
        TestNetwork network(MilliSeconds(20), DataRate("10Mbps"));
        network.AssignStreams(1);
        network.DropAtServer(drops);
        RudpFileReceiverHelper receiver("ns3::RudpSocketFactory",
                                        InetSocketAddress(Ipv4Address::GetAny(), PORT));
        ApplicationContainer receiverApp = receiver.Install(network.Server());
        RudpFileSenderHelper sender("ns3::RudpSocketFactory", network.ServerAddress(PORT));
        sender.SetAttribute("Size", UintegerValue(bytes));
        ApplicationContainer senderApp = sender.Install(network.Client());
        senderApp.Start(Seconds(1));
        Simulator::Schedule(Seconds(1.001), &CongestionRun::Watch, this, senderApp.Get(0));
        Simulator::Stop(Seconds(1000));
        Simulator::Run();
        m_sender = DynamicCast<RudpFileSender>(senderApp.Get(0));
        m_receiver = DynamicCast<RudpFileReceiver>(receiverApp.Get(0));
    }

    bool Intact() const
    {
        const auto& reports = m_receiver->GetReports();
        return reports.size() == 1 && reports[0].complete &&
               reports[0].sha256 == m_sender->GetSourceSha256();
    }

    const std::vector<Reduction>& Reductions() const
    {
        return m_reductions;
    }

    /// \return the sender's counters
    RudpSocket::Stats SenderStats() const
    {
        return DynamicCast<RudpSocket>(m_sender->GetSocket())->GetStats();
    }

    /// \return the largest congestion window (bytes)
    uint32_t MaxCwnd() const
    {
        return m_maxCwnd;
    }

  private:
    void Watch(Ptr<Application> app)
    {
        Ptr<Socket> socket = DynamicCast<RudpFileSender>(app)->GetSocket();
        socket->TraceConnectWithoutContext("CongestionWindow",
                                           MakeCallback(&CongestionRun::Cwnd, this));
        socket->TraceConnectWithoutContext("SlowStartThreshold",
                                           MakeCallback(&CongestionRun::SsThresh, this));
    }

    void Cwnd(uint32_t, uint32_t cwnd)
    {
        m_lastCwnd = cwnd;
        m_maxCwnd = std::max(m_maxCwnd, cwnd);
    }

    void SsThresh(uint32_t old, uint32_t ssThresh)
    {
        if (old > 0) // not the initial value set when the connection opens
        {
            m_reductions.push_back({m_lastCwnd, ssThresh});
        }
    }

    Ptr<RudpFileSender> m_sender;
    Ptr<RudpFileReceiver> m_receiver;
    std::vector<Reduction> m_reductions;
    uint32_t m_lastCwnd{0};
    uint32_t m_maxCwnd{0};
};

} // namespace

/// The multiplicative decrease is the algorithm's, not seed 000's.
class RudpCongestionOpsDecreaseTest : public TestCase
{
  public:
    RudpCongestionOpsDecreaseTest(std::string variant,
                                  std::string congestionOps,
                                  double beta,
                                  std::string what)
        : TestCase("RUDP with " + what + ": a fast retransmit sets ssthresh to " +
                   std::to_string(beta).substr(0, 3) + " x cwnd and the file arrives intact"),
          m_variant(std::move(variant)),
          m_congestionOps(std::move(congestionOps)),
          m_beta(beta)
    {
    }

  private:
    void DoRun() override
    {
        CongestionRun run(m_variant, m_congestionOps);
        // The server receives SYN, ACK, then data: lose data segment 300,
        // well into congestion avoidance for every algorithm here.
        run.Run(1000000, {2 + 300});
        NS_TEST_ASSERT_MSG_EQ(run.Intact(), true, "the file arrived intact");
        NS_TEST_ASSERT_MSG_GT(run.Reductions().size(), 0, "a reduction happened");
        if (run.Reductions().empty())
        {
            return;
        }
        const Reduction& first = run.Reductions().front();
        NS_TEST_ASSERT_MSG_GT(first.cwndBefore, 10 * MSS, "lost in a grown window");
        NS_TEST_ASSERT_MSG_EQ_TOL(first.ssThreshAfter / static_cast<double>(first.cwndBefore),
                                  m_beta,
                                  0.03,
                                  "ssthresh / cwnd at the loss");
    }

    std::string m_variant;
    std::string m_congestionOps;
    double m_beta;
};

/// Selective repeat: several losses in one window cost one reduction and no timeout.
class RudpCongestionOpsSackRecoveryTest : public TestCase
{
  public:
    RudpCongestionOpsSackRecoveryTest()
        : TestCase("RUDP with ns3::TcpLinuxReno and SACK: five losses in one window are "
                   "repaired in one recovery, without a timeout")
    {
    }

  private:
    void DoRun() override
    {
        CongestionRun run("TcpCongestionOps", "ns3::TcpLinuxReno");
        // Five data segments of one window (cwnd is over 60 segments by then).
        run.Run(1000000, {2 + 300, 2 + 304, 2 + 309, 2 + 315, 2 + 330});
        NS_TEST_ASSERT_MSG_EQ(run.Intact(), true, "the file arrived intact");
        const RudpSocket::Stats stats = run.SenderStats();
        NS_TEST_ASSERT_MSG_EQ(stats.timeouts, 0, "no timeout");
        NS_TEST_ASSERT_MSG_EQ(stats.fastRetransmits, 1, "one trigger");
        NS_TEST_ASSERT_MSG_EQ(stats.retransmissions, 5, "each lost segment resent once");
        NS_TEST_ASSERT_MSG_EQ(run.Reductions().size(), 1, "one reduction for the window");
    }
};

/// The adapter drives an algorithm through slow start, recovery and its exit.
class RudpCongestionOpsTypeTest : public TestCase
{
  public:
    RudpCongestionOpsTypeTest()
        : TestCase("CongestionOps accepts any TcpCongestionOps and starts it from seed settings")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpTcpCongestionAdapter> adapter = CreateObject<RudpTcpCongestionAdapter>();
        adapter->SetCongestionOps(CreateObject<TcpCubic>());
        Ptr<RudpSenderState> tcb = CreateObject<RudpSenderState>();
        tcb->m_segmentSize = MSS;
        tcb->m_windowSegments = 30;
        tcb->m_initialCwnd = 1;
        tcb->m_initialSsThresh = 64000;
        tcb->m_dupAckThreshold = 3;
        adapter->Init(tcb);
        NS_TEST_ASSERT_MSG_EQ(adapter->GetName(), "TcpCubic", "named after the algorithm");
        NS_TEST_ASSERT_MSG_EQ(tcb->m_cWnd.Get(), MSS, "initial window");
        tcb->m_lastRtt = MilliSeconds(40);
        tcb->m_minRtt = MilliSeconds(40);
        adapter->OnNewAck(tcb, 1);
        NS_TEST_ASSERT_MSG_EQ(tcb->m_cWnd.Get(), 2 * MSS, "slow start through the algorithm");
        tcb->m_highAck = SequenceNumber32(3000);
        tcb->m_highTxMark = SequenceNumber32(9000);
        tcb->m_bytesInFlight = 6 * MSS;
        NS_TEST_ASSERT_MSG_EQ(adapter->OnDupAck(tcb, 2), false, "two duplicates: nothing yet");
        NS_TEST_ASSERT_MSG_EQ(adapter->OnDupAck(tcb, 3), true, "third duplicate retransmits");
        NS_TEST_ASSERT_MSG_EQ(RudpSenderState::CongStateName(tcb->m_congState),
                              std::string("FAST_RECOVERY"),
                              "recovery");
        const uint32_t ssThresh = tcb->m_ssThresh;
        NS_TEST_ASSERT_MSG_EQ(tcb->m_cWnd.Get(), ssThresh + 3 * MSS, "NewReno's inflation");
        adapter->OnDupAck(tcb, 4);
        NS_TEST_ASSERT_MSG_EQ(tcb->m_cWnd.Get(), ssThresh + 4 * MSS, "one more per duplicate");
        // A partial ACK (below what was sent before the loss) keeps recovery.
        tcb->m_highAck = SequenceNumber32(5000);
        adapter->OnNewAck(tcb, 2);
        NS_TEST_ASSERT_MSG_EQ(RudpSenderState::CongStateName(tcb->m_congState),
                              std::string("FAST_RECOVERY"),
                              "a partial ACK keeps recovery");
        NS_TEST_ASSERT_MSG_EQ(tcb->m_cWnd.Get(), ssThresh + 3 * MSS, "deflated by two, plus one");
        NS_TEST_ASSERT_MSG_EQ(adapter->OnDupAck(tcb, 3), false, "no second reduction");
        tcb->m_highAck = SequenceNumber32(9000);
        adapter->OnNewAck(tcb, 4);
        NS_TEST_ASSERT_MSG_EQ(tcb->m_cWnd.Get(), ssThresh, "deflated on exit");
        NS_TEST_ASSERT_MSG_NE(RudpSenderState::CongStateName(tcb->m_congState),
                              std::string("FAST_RECOVERY"),
                              "a full ACK ends recovery");

        // With selective repeat the window is not inflated: SACKs shrink the flight.
        tcb->m_selectiveRepeat = true;
        tcb->m_highTxMark = SequenceNumber32(20000);
        adapter->OnDupAck(tcb, 3);
        NS_TEST_ASSERT_MSG_EQ(tcb->m_cWnd.Get(), tcb->m_ssThresh.Get(), "no inflation");
        adapter->OnDupAck(tcb, 4);
        NS_TEST_ASSERT_MSG_EQ(tcb->m_cWnd.Get(), tcb->m_ssThresh.Get(), "still none");
        NS_TEST_ASSERT_MSG_EQ(adapter->GetSendWindow(tcb), tcb->m_cWnd.Get(), "under the cap");
    }
};

/**
 * A retransmission timeout sets ssthresh once per loss episode (RFC 5681
 * section 3.1; Linux's tcp_enter_loss): not again when the same segment
 * times out twice, nor when a timeout comes during fast recovery; again in
 * the loss state once an ACK has advanced since the last timeout.
 */
class RudpCongestionOpsTimeoutTest : public TestCase
{
  public:
    RudpCongestionOpsTimeoutTest()
        : TestCase("A timeout reduces ssthresh once per window: not on a repeated timeout of the "
                   "same segment, nor during fast recovery")
    {
    }

  private:
    /// An adapter around TcpNewReno with a 20-segment window in flight.
    static Ptr<RudpTcpCongestionAdapter> Start(Ptr<RudpSenderState> tcb)
    {
        Ptr<RudpTcpCongestionAdapter> adapter = CreateObject<RudpTcpCongestionAdapter>();
        adapter->SetCongestionOps(CreateObject<TcpNewReno>());
        tcb->m_segmentSize = MSS;
        tcb->m_windowSegments = 1000;
        tcb->m_initialCwnd = 1;
        tcb->m_initialSsThresh = 1 << 30;
        tcb->m_dupAckThreshold = 3;
        adapter->Init(tcb);
        tcb->m_lastRtt = MilliSeconds(40);
        tcb->m_minRtt = MilliSeconds(40);
        for (uint32_t acked = 1; acked < 20; ++acked)
        {
            tcb->m_highAck = SequenceNumber32(acked * MSS);
            adapter->OnNewAck(tcb, 1); // slow start: one segment more per ACK
        }
        tcb->m_highTxMark = SequenceNumber32(39 * MSS);
        tcb->m_bytesInFlight = 20 * MSS;
        return adapter;
    }

    void DoRun() override
    {
        {
            Ptr<RudpSenderState> tcb = CreateObject<RudpSenderState>();
            Ptr<RudpTcpCongestionAdapter> adapter = Start(tcb);
            NS_TEST_ASSERT_MSG_EQ(tcb->m_cWnd.Get(), 20 * MSS, "20 segments after slow start");
            adapter->OnTimeout(tcb);
            NS_TEST_ASSERT_MSG_EQ(tcb->m_ssThresh.Get(), 10 * MSS, "first timeout: flight / 2");
            NS_TEST_ASSERT_MSG_EQ(tcb->m_cWnd.Get(), MSS, "one segment");
            // The resent segment is lost too: the same segment times out again.
            tcb->m_bytesInFlight = MSS;
            adapter->OnTimeout(tcb);
            NS_TEST_ASSERT_MSG_EQ(tcb->m_ssThresh.Get(),
                                  10 * MSS,
                                  "second timeout of the same segment: ssthresh kept (was 2 "
                                  "segments, the flight of one halved up to 2 MSS)");
            adapter->OnTimeout(tcb);
            NS_TEST_ASSERT_MSG_EQ(tcb->m_ssThresh.Get(), 10 * MSS, "and after a third");
            NS_TEST_ASSERT_MSG_EQ(tcb->m_cWnd.Get(), MSS, "one segment");
            // An ACK advances (still below the recovery point), then a timeout:
            // a new segment times out, a new reduction (Linux: the retransmission
            // count was reset by the ACK).
            tcb->m_highAck = SequenceNumber32(20 * MSS);
            adapter->OnNewAck(tcb, 1);
            tcb->m_bytesInFlight = 8 * MSS;
            adapter->OnTimeout(tcb);
            NS_TEST_ASSERT_MSG_EQ(tcb->m_ssThresh.Get(),
                                  4 * MSS,
                                  "a timeout of another segment reduces again");
        }
        {
            Ptr<RudpSenderState> tcb = CreateObject<RudpSenderState>();
            Ptr<RudpTcpCongestionAdapter> adapter = Start(tcb);
            tcb->m_highAck = SequenceNumber32(20 * MSS);
            for (uint32_t count = 1; count <= 3; ++count)
            {
                adapter->OnDupAck(tcb, count);
            }
            NS_TEST_ASSERT_MSG_EQ(RudpSenderState::CongStateName(tcb->m_congState),
                                  std::string("FAST_RECOVERY"),
                                  "recovery");
            NS_TEST_ASSERT_MSG_EQ(tcb->m_ssThresh.Get(), 10 * MSS, "fast retransmit: flight / 2");
            // The retransmission is lost: the timer expires during recovery.
            tcb->m_bytesInFlight = 12 * MSS;
            adapter->OnTimeout(tcb);
            NS_TEST_ASSERT_MSG_EQ(tcb->m_ssThresh.Get(),
                                  10 * MSS,
                                  "a timeout during recovery keeps the reduction made in this "
                                  "window (it was cut again to 6 segments)");
            NS_TEST_ASSERT_MSG_EQ(tcb->m_cWnd.Get(), MSS, "one segment");
            NS_TEST_ASSERT_MSG_EQ(adapter->GetTcpState()->m_congState.Get(),
                                  TcpSocketState::CA_LOSS,
                                  "loss state");
            // Once everything sent before the timeout is acknowledged, a new
            // loss episode reduces again.
            tcb->m_highAck = SequenceNumber32(39 * MSS);
            adapter->OnNewAck(tcb, 19);
            NS_TEST_ASSERT_MSG_EQ(adapter->GetTcpState()->m_congState.Get(),
                                  TcpSocketState::CA_OPEN,
                                  "open again");
            tcb->m_highTxMark = SequenceNumber32(41 * MSS);
            tcb->m_bytesInFlight = 2 * MSS;
            adapter->OnTimeout(tcb);
            NS_TEST_ASSERT_MSG_EQ(tcb->m_ssThresh.Get(), 2 * MSS, "a new episode reduces");
        }
    }
};

/// \ingroup rudp-test
/// Pluggable congestion control test suite.
class RudpCongestionTestSuite : public TestSuite
{
  public:
    RudpCongestionTestSuite()
        : TestSuite("rudp-congestion")
    {
        // Seed 000's Reno halves; NewReno halves the flight; Cubic keeps 0.7.
        AddTestCase(new RudpCongestionOpsDecreaseTest("Reno", "ns3::TcpNewReno", 0.5, "seed Reno"));
        AddTestCase(new RudpCongestionOpsDecreaseTest("TcpCongestionOps",
                                                      "ns3::TcpNewReno",
                                                      0.5,
                                                      "ns3::TcpNewReno"));
        AddTestCase(new RudpCongestionOpsDecreaseTest("TcpCongestionOps",
                                                      "ns3::TcpCubic",
                                                      0.7,
                                                      "ns3::TcpCubic"));
        // CVTCP at a loss with the bottleneck queue full (diff >= gamma):
        // congestion, Veno's 1/2.
        AddTestCase(new RudpCongestionOpsDecreaseTest("TcpCongestionOps",
                                                      "ns3::TcpCvtcp",
                                                      0.5,
                                                      "ns3::TcpCvtcp"));
        AddTestCase(new RudpCongestionOpsTypeTest);
        AddTestCase(new RudpCongestionOpsSackRecoveryTest);
        AddTestCase(new RudpCongestionOpsTimeoutTest);
    }
};

/// Static instance registering the suite.
static RudpCongestionTestSuite g_rudpCongestionTestSuite;
