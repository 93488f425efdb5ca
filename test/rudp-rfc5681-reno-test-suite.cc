/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/rudp-multipath-bottleneck-helper.h"
#include "ns3/tcp-rfc5681-reno.h"
#include "ns3/test.h"

#include <algorithm>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * TcpRfc5681Reno, the "standard TCP" of RFC 6356's goals: ssthresh half the
 * FlightSize RFC 5681 defines (the data not cumulatively acknowledged, less
 * what limited transmit sent), where ns-3's TcpNewReno halves its pipe.
 */

using namespace ns3;

namespace
{

const uint32_t SEG = 1448; //!< segment size, bytes

/**
 * \param cwnd the window (segments)
 * \param outstanding the data sent and not cumulatively acknowledged (segments)
 * \return a TCP state with them
 */
Ptr<TcpSocketState>
MakeState(uint32_t cwnd, uint32_t outstanding)
{
    Ptr<TcpSocketState> tcb = CreateObject<TcpSocketState>();
    tcb->m_segmentSize = SEG;
    tcb->m_cWnd = cwnd * SEG;
    tcb->m_ssThresh = 1u << 30;
    tcb->m_lastAckedSeq = SequenceNumber32(1000);
    tcb->m_highTxMark = SequenceNumber32(1000 + outstanding * SEG);
    return tcb;
}

/**
 * GetSsThresh as RFC 5681 3.2 says, from the window and the outstanding
 * data, whatever the pipe ns-3 hands it.
 */
class RudpRfc5681RenoSsThreshTestCase : public TestCase
{
  public:
    RudpRfc5681RenoSsThreshTestCase()
        : TestCase("ssthresh is half the FlightSize, at least 2 SMSS, limited transmit left out")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TcpRfc5681Reno> reno = CreateObject<TcpRfc5681Reno>();
        Ptr<TcpNewReno> newReno = CreateObject<TcpNewReno>();
        // The third duplicate ACK of a window of 20: limited transmit sent
        // two more, three are SACKed and one lost: RFC 6675's pipe is 18.
        Ptr<TcpSocketState> third = MakeState(20, 22);
        NS_TEST_EXPECT_MSG_EQ(reno->GetSsThresh(third, 18 * SEG),
                              10 * SEG,
                              "half the window, limited transmit's segments left out");
        NS_TEST_EXPECT_MSG_EQ(newReno->GetSsThresh(third, 18 * SEG),
                              9 * SEG,
                              "ns-3's TcpNewReno halves the pipe");
        // A sender with less outstanding than its window halves what it has out.
        NS_TEST_EXPECT_MSG_EQ(reno->GetSsThresh(MakeState(20, 8), 6 * SEG),
                              4 * SEG,
                              "half the FlightSize of an application-limited sender");
        NS_TEST_EXPECT_MSG_EQ(reno->GetSsThresh(MakeState(3, 3), 1 * SEG),
                              2 * SEG,
                              "at least two segments");
        NS_TEST_EXPECT_MSG_EQ(reno->GetSsThresh(MakeState(10, 0), 0),
                              2 * SEG,
                              "nothing outstanding: two segments");
        NS_TEST_EXPECT_MSG_EQ(reno->GetName(), "TcpRfc5681Reno", "its name");
    }
};

/// Grows as TcpNewReno does: slow start and congestion avoidance alike.
class RudpRfc5681RenoGrowthTestCase : public TestCase
{
  public:
    RudpRfc5681RenoGrowthTestCase()
        : TestCase("slow start and congestion avoidance are TcpNewReno's")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<TcpRfc5681Reno> reno = CreateObject<TcpRfc5681Reno>();
        Ptr<TcpNewReno> newReno = CreateObject<TcpNewReno>();
        for (const uint32_t ssThresh : {4u, 64u})
        {
            Ptr<TcpSocketState> a = MakeState(10, 10);
            Ptr<TcpSocketState> b = MakeState(10, 10);
            a->m_ssThresh = ssThresh * SEG;
            b->m_ssThresh = ssThresh * SEG;
            for (uint32_t ack = 0; ack < 200; ++ack)
            {
                reno->IncreaseWindow(a, 1);
                newReno->IncreaseWindow(b, 1);
            }
            NS_TEST_EXPECT_MSG_EQ(a->m_cWnd.Get(), b->m_cWnd.Get(), "the same growth");
        }
    }
};

/// What one TCP flow's windows were at its cuts.
struct Cuts
{
    uint32_t cwnd{0};             ///< the latest window
    std::vector<double> fraction; ///< each cut's ssthresh over the window before it
};

/// Notes a TCP flow's window.
void
NoteWindow(Cuts* cuts, uint32_t, uint32_t cwnd)
{
    cuts->cwnd = cwnd;
}

/// Notes a TCP flow's cut (its first, infinite, threshold aside).
void
NoteThreshold(Cuts* cuts, uint32_t, uint32_t ssThresh)
{
    if (cuts->cwnd > 4 * SEG && ssThresh < (1u << 30))
    {
        cuts->fraction.push_back(static_cast<double>(ssThresh) / cuts->cwnd);
    }
}

/// Connects the traces of the TCP flow \p source once its socket exists.
void
TraceFlow(Ptr<BulkSendApplication> source, Cuts* cuts)
{
    source->GetSocket()->TraceConnectWithoutContext("CongestionWindow",
                                                    MakeBoundCallback(&NoteWindow, cuts));
    source->GetSocket()->TraceConnectWithoutContext("SlowStartThreshold",
                                                    MakeBoundCallback(&NoteThreshold, cuts));
}

/**
 * The standard TCP of RudpMultipathBottleneckHelper::SetRfcTcp,
 * in a TcpSocketBase with SACK (ns-3's default) beside two others and a
 * path through a drop-tail FIFO: each fast retransmit halves its window.
 * ns-3's TcpNewReno keeps about 0.44 of it beside others.
 */
class RudpRfc5681RenoCutTestCase : public TestCase
{
  public:
    RudpRfc5681RenoCutTestCase()
        : TestCase("the standard TCP beside others halves its window at every loss")
    {
    }

  private:
    void DoRun() override
    {
        RudpMultipathBottleneckHelper::SetStandardDefaults();
        RudpMultipathBottleneckHelper::SetRfcTcp();
        RudpMultipathBottleneckHelper network;
        network.AddBottleneck(DataRate("10Mbps"),
                              MilliSeconds(20),
                              RudpMultipathBottleneckHelper::FIFO,
                              40);
        network.AddPath(0);
        network.AddTcpFlows(0, 3);
        network.SetStart(Seconds(1), Seconds(0));
        network.SetAccessJitter(MicroSeconds(1200));
        network.Install();
        network.AssignStreams(1);
        Cuts cuts;
        Simulator::Schedule(Seconds(1.001), &TraceFlow, network.GetTcpSource(0), &cuts);
        Simulator::Stop(Seconds(60));
        Simulator::Run();
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_ASSERT_MSG_GT(cuts.fraction.size(), 10u, "the flow lost packets");
        std::sort(cuts.fraction.begin(), cuts.fraction.end());
        const double median = cuts.fraction[cuts.fraction.size() / 2];
        NS_TEST_EXPECT_MSG_EQ_TOL(median, 0.5, 0.01, "half the window at the median cut");
        NS_TEST_EXPECT_MSG_GT(cuts.fraction.front(), 0.45, "no cut below half the window");
    }
};

/// TcpRfc5681Reno's suite.
class RudpRfc5681RenoTestSuite : public TestSuite
{
  public:
    RudpRfc5681RenoTestSuite()
        : TestSuite("rudp-rfc5681-reno")
    {
        AddTestCase(new RudpRfc5681RenoSsThreshTestCase);
        AddTestCase(new RudpRfc5681RenoGrowthTestCase);
        AddTestCase(new RudpRfc5681RenoCutTestCase);
    }
};

/// The suite's one instance.
static RudpRfc5681RenoTestSuite g_rudpRfc5681RenoTestSuite;

} // namespace
