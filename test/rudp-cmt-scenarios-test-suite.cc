/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-test-harness.h"

#include "ns3/test.h"

/**
 * \file
 * \ingroup rudp-test
 * ns-2's SCTP test suite (tcl/test/test-suite-sctp.tcl) names its CMT
 * scenarios; these are them in ns-3, with the outcomes asserted packet by
 * packet where that is what they show. Each starts from
 * RudpCmtHelper::SetNs2Defaults and sets what the ns-2 test sets; drops are
 * ns-2's ErrorModel/List, here a ReceiveListErrorModel on the path (the k-th
 * data packet to arrive on it, from 1; ns-2 counts from 0 and counts the
 * association's set-up packets, so the same list names nearby packets, not
 * the same ones). The chunk is ns-2's 1468 bytes with
 * its 16-byte header: 1452 bytes of payload.
 */

using namespace ns3;
using namespace ns3::rudptest;

namespace
{

const uint32_t CHUNK = 1452; ///< ns-2's dataChunkSize_ 1468 less the chunk header

/// Sets the error rate of a path's loss model.
void
SetLoss(Ptr<RateErrorModel> model, double rate)
{
    model->SetAttribute("ErrorRate", DoubleValue(rate));
}

/// Notes when a data segment first reached the receiver's device of a path.
void
NoteArrival(std::map<SequenceNumber32, Time>* arrived, Ptr<const Packet> packet)
{
    RudpHeader header;
    if (DecodeOnWire(packet, header))
    {
        arrived->emplace(header.GetSequenceNumber(), Simulator::Now());
    }
}

/// Counts cwnd cuts (entries into fast recovery).
void
CountCuts(uint32_t* cuts, RudpSenderState::CongState, RudpSenderState::CongState state)
{
    *cuts += state == RudpSenderState::FAST_RECOVERY ? 1 : 0;
}

} // namespace

/**
 * \ingroup rudp-test
 * sctp-cmt-2paths-64K-withloss: two paths (30 and 45 ms one way), a 64 KB
 * receive buffer, path 0 loses its 15th, 16th and 17th data packets;
 * RTX-SSTHRESH. Each of the three is fast retransmitted once, on path 1
 * (whose ssthresh path 0's cut left the larger), and the 1452000 bytes
 * arrive well within ns-2's 20 s.
 */
class RudpCmtTwoPaths64kWithLossTest : public TestCase
{
  public:
    RudpCmtTwoPaths64kWithLossTest()
        : TestCase("sctp-cmt-2paths-64K-withloss: drops 15-17 on path 0 are fast retransmitted "
                   "once each, on path 1 (RTX-SSTHRESH)")
    {
    }

  private:
    void DoRun() override
    {
        CmtScenario cmt({{MilliSeconds(30)}, {MilliSeconds(45)}}, 65536, CHUNK, true);
        cmt.Helper().SetSenderAttribute("InitialSlowStartThreshold", UintegerValue(16000));
        cmt.Helper().SetSenderAttribute("RtxPolicy", StringValue("RTX-SSTHRESH"));
        cmt.Helper().SetSenderAttribute("MaxBytes", UintegerValue(1452000));
        cmt.Drop(0, {15, 16, 17});
        cmt.Run(Seconds(20));
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->IsComplete(), true, "1452000 bytes acknowledged");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "intact");
        const std::vector<CmtSent> onPath0 = cmt.SentOn(0);
        const std::vector<CmtSent> resends = cmt.Resends();
        NS_TEST_ASSERT_MSG_EQ(resends.size(), 3, "three resends");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().fastRetransmits, 3, "all fast");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().timeouts, 0, "no timeout");
        for (uint32_t k = 0; k < std::min<size_t>(3, resends.size()); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(resends[k].seq,
                                  onPath0[14 + k].seq,
                                  "the dropped ones, in order");
            NS_TEST_ASSERT_MSG_EQ(resends[k].path, 1, "on path 1");
        }
    }
};

/**
 * \ingroup rudp-test
 * sctp-cmt-3paths-1path-fails and sctp-cmt-pf-3paths-1path-fails: three
 * 45 ms paths, path 1 goes down at 10 s. Without CMT-PF it keeps getting
 * (resent) data at each timeout until its errors exceed PathMaxRetrans 5:
 * failed at its 6th consecutive timeout, 63 s of backoff later. With CMT-PF
 * it carries no data after its first timeout, only probes.
 */
class RudpCmtThreePathsOneFailsTest : public TestCase
{
  public:
    /// \param pf CmtPf
    explicit RudpCmtThreePathsOneFailsTest(bool pf)
        : TestCase(
              std::string(pf ? "sctp-cmt-pf-3paths-1path-fails" : "sctp-cmt-3paths-1path-fails") +
              ": path 1 fails at its 6th timeout" +
              (pf ? "; potentially failed from the first, it carries no data" : "")),
          m_pf(pf)
    {
    }

  private:
    void DoRun() override
    {
        CmtScenario cmt({{MilliSeconds(45)}, {MilliSeconds(45)}, {MilliSeconds(45)}},
                        65536,
                        CHUNK,
                        true);
        cmt.Helper().SetSenderAttribute("InitialSlowStartThreshold", UintegerValue(16000));
        cmt.Helper().SetSenderAttribute("RtxPolicy", StringValue("RTX-SSTHRESH"));
        cmt.Helper().SetSenderAttribute("CmtPf", BooleanValue(m_pf));
        cmt.Install();
        Simulator::Schedule(Seconds(10), &SetLoss, cmt.Helper().GetLossModel(1), 1.0);
        cmt.Run(Seconds(100));
        Ptr<RudpCmtPath> path = cmt.Sender()->GetPaths()[1];
        NS_TEST_ASSERT_MSG_EQ(path->GetStatus(), RudpCmtPath::FAILED, "path 1 failed");
        NS_TEST_ASSERT_MSG_EQ(path->GetStats().timeouts, 6, "at its 6th consecutive timeout (> 5)");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "intact");
        // Data sent on path 1 after it went down: 1 s of RTO at least after 10 s.
        uint32_t after = 0;
        for (const auto& sent : cmt.SentOn(1))
        {
            after += sent.at > Seconds(10.5) ? 1 : 0;
        }
        if (m_pf)
        {
            NS_TEST_ASSERT_MSG_EQ(after, 0, "a potentially failed path carries no data");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(after, 5, "a resend at each of its timeouts");
        }
        // Without CMT-PF each resend lost on the dead path blocks the 64 KB
        // buffer until that path's next timeout, 2, 4, ... 32 s later.
        // With it the other two paths carry on at their pace (69 MB).
        const uint64_t delivered = cmt.Receiver()->GetStats().deliveredBytes;
        if (m_pf)
        {
            NS_TEST_ASSERT_MSG_GT(delivered, 60000000, "the two other paths carry on");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT(delivered, 20000000, "the other paths carry on, stalled");
            NS_TEST_ASSERT_MSG_LT(delivered, 30000000, "by each resend on the dead path");
        }
    }

    bool m_pf;
};

/**
 * \ingroup rudp-test
 * sctp-cmt-Rtx-ssthresh: two 45 ms paths, path 0 loses its data packets 6
 * to 11; RTX-SSTHRESH sends every resend to path 1, the path with the
 * larger ssthresh once path 0's window was cut.
 */
class RudpCmtRtxSsthreshTest : public TestCase
{
  public:
    RudpCmtRtxSsthreshTest()
        : TestCase("sctp-cmt-Rtx-ssthresh: six drops on path 0, every resend on path 1")
    {
    }

  private:
    void DoRun() override
    {
        CmtScenario cmt({{MilliSeconds(45)}, {MilliSeconds(45)}}, 65536, CHUNK, true);
        cmt.Helper().SetSenderAttribute("InitialSlowStartThreshold", UintegerValue(16000));
        cmt.Helper().SetSenderAttribute("RtxPolicy", StringValue("RTX-SSTHRESH"));
        cmt.Helper().SetSenderAttribute("MaxBytes", UintegerValue(1452000));
        cmt.Drop(0, {6, 7, 8, 9, 10, 11});
        cmt.Run(Seconds(20));
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->IsComplete(), true, "acknowledged");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "intact");
        const std::vector<CmtSent> onPath0 = cmt.SentOn(0);
        const std::vector<CmtSent> resends = cmt.Resends();
        NS_TEST_ASSERT_MSG_EQ(resends.size(), 6, "six resends");
        for (uint32_t k = 0; k < std::min<size_t>(6, resends.size()); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(resends[k].seq, onPath0[5 + k].seq, "the dropped ones, in order");
            NS_TEST_ASSERT_MSG_EQ(resends[k].path, 1, "on path 1");
        }
    }
};

/**
 * \ingroup rudp-test
 * sctp-cmt-Rtx-cwnd: paths of 35 and 45 ms, path 0 loses its 30th data
 * packet; RTX-CWND resends it on the path with the larger window at that
 * moment, path 1 (path 0's was just cut).
 */
class RudpCmtRtxCwndTest : public TestCase
{
  public:
    RudpCmtRtxCwndTest()
        : TestCase("sctp-cmt-Rtx-cwnd: the drop on path 0 is resent once, on path 1 (larger "
                   "cwnd)")
    {
    }

  private:
    /// Notes both windows when path 0 enters fast recovery.
    struct Probe
    {
        Ptr<RudpSenderState> paths[2];
        uint32_t cwnd[2]{0, 0};

        void State(RudpSenderState::CongState, RudpSenderState::CongState state)
        {
            if (state == RudpSenderState::FAST_RECOVERY && cwnd[0] == 0)
            {
                cwnd[0] = paths[0]->m_cWnd;
                cwnd[1] = paths[1]->m_cWnd;
            }
        }
    };

    void DoRun() override
    {
        CmtScenario cmt({{MilliSeconds(35)}, {MilliSeconds(45)}}, 65536, CHUNK, true);
        cmt.Helper().SetSenderAttribute("InitialSlowStartThreshold", UintegerValue(16000));
        cmt.Helper().SetSenderAttribute("RtxPolicy", StringValue("RTX-CWND"));
        cmt.Helper().SetSenderAttribute("MaxBytes", UintegerValue(1452000));
        cmt.Drop(0, {30});
        Probe probe;
        probe.paths[0] = cmt.Sender()->GetPaths()[0]->GetState();
        probe.paths[1] = cmt.Sender()->GetPaths()[1]->GetState();
        probe.paths[0]->TraceConnectWithoutContext("CongState",
                                                   MakeCallback(&Probe::State, &probe));
        cmt.Run(Seconds(20));
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->IsComplete(), true, "acknowledged");
        const std::vector<CmtSent> resends = cmt.Resends();
        NS_TEST_ASSERT_MSG_EQ(resends.size(), 1, "one resend");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().timeouts, 0, "no timeout");
        NS_TEST_ASSERT_MSG_GT(probe.cwnd[1], probe.cwnd[0], "path 1's window is the larger");
        if (!resends.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(resends[0].seq, cmt.SentOn(0)[29].seq, "the dropped one");
            NS_TEST_ASSERT_MSG_EQ(resends[0].path, 1, "on path 1");
        }
    }
};

/**
 * \ingroup rudp-test
 * sctp-smallRwnd: one path of 0.5 Mbit/s and 300 ms, 724-byte chunks, a
 * 4096-byte receive window, no delayed SACKs: at most five chunks are ever
 * outstanding, and the goodput is the window's per round trip.
 */
class RudpCmtSmallRwndTest : public TestCase
{
  public:
    RudpCmtSmallRwndTest()
        : TestCase("sctp-smallRwnd: a 4096-byte window keeps five 724-byte chunks in flight")
    {
    }

  private:
    void DoRun() override
    {
        CmtScenario cmt({{MilliSeconds(300), 0.0, DataRate("500kbps")}}, 4096, 724, true);
        cmt.Helper().SetReceiverAttribute("DelAckCount", UintegerValue(1));
        cmt.Run(Seconds(10));
        NS_TEST_ASSERT_MSG_LT_OR_EQ(cmt.Receiver()->GetStats().maxOccupancy,
                                    4096,
                                    "within the window");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->GetStats().droppedForSpace, 0, "nothing refused");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().retransmissions, 0, "no loss, no resend");
        // Five chunks per round trip: 600 ms, and 5 x 12.5 ms to serialise them.
        const double round = 0.6 + 5 * (724 + 60) * 8 / 500e3;
        const double expected = 5 * 724 * (10 - round) / round;
        const double delivered = cmt.Receiver()->GetStats().deliveredBytes;
        NS_TEST_ASSERT_MSG_GT(delivered, 0.85 * expected, "about a window per round trip");
        NS_TEST_ASSERT_MSG_LT(delivered, 1.15 * expected, "and no more");
    }
};

/**
 * \ingroup rudp-test
 * sctp-multipleDropsSameWnd-1: one path of 0.5 Mbit/s and 200 ms, data
 * packets 20, 21 and 23 lost in one window, no delayed SACKs. All three are
 * fast retransmitted, the window is cut once, and the first resend leaves
 * the instant the loss is detected.
 */
class RudpCmtMultipleDropsSameWindowTest : public TestCase
{
  public:
    RudpCmtMultipleDropsSameWindowTest()
        : TestCase("sctp-multipleDropsSameWnd-1: three drops in a window, three fast "
                   "retransmits, one cut, no timeout")
    {
    }

  private:
    /// Notes when the window is cut.
    static void Cut(Time* at, RudpSenderState::CongState, RudpSenderState::CongState state)
    {
        if (state == RudpSenderState::FAST_RECOVERY && at->IsNegative())
        {
            *at = Simulator::Now();
        }
    }

    void DoRun() override
    {
        CmtScenario cmt({{MilliSeconds(200), 0.0, DataRate("500kbps")}}, 131072, CHUNK, true);
        cmt.Helper().SetReceiverAttribute("DelAckCount", UintegerValue(1));
        cmt.Drop(0, {20, 21, 23});
        Ptr<RudpSenderState> state = cmt.Sender()->GetPaths()[0]->GetState();
        uint32_t cuts = 0;
        Time cutAt = Seconds(-1);
        state->TraceConnectWithoutContext("CongState", MakeBoundCallback(&CountCuts, &cuts));
        state->TraceConnectWithoutContext("CongState", MakeBoundCallback(&Cut, &cutAt));
        cmt.Run(Seconds(7));
        const std::vector<CmtSent> sent = cmt.SentOn(0);
        const std::vector<CmtSent> resends = cmt.Resends();
        NS_TEST_ASSERT_MSG_EQ(resends.size(), 3, "three resends");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().fastRetransmits, 3, "all fast");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().timeouts, 0, "no timeout");
        NS_TEST_ASSERT_MSG_EQ(cuts, 1, "one cut for the window");
        if (resends.size() == 3)
        {
            NS_TEST_ASSERT_MSG_EQ(resends[0].seq, sent[19].seq, "packet 20");
            NS_TEST_ASSERT_MSG_EQ(resends[1].seq, sent[20].seq, "packet 21");
            NS_TEST_ASSERT_MSG_EQ(resends[2].seq, sent[22].seq, "packet 23");
            NS_TEST_ASSERT_MSG_EQ(resends[0].at, cutAt, "sent the instant the loss is found");
        }
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "intact");
    }
};

/**
 * \ingroup rudp-test
 * After sctp-zeroRtx-burstLoss: a burst loss with no retransmission budget.
 * ns-2's test has a PR-SCTP stream with zero retransmissions, which is not
 * modelled; here the budget is the path's: PathMaxRetrans 0. Path 0 loses
 * its data packets 17 to 34, all it sends before its timer expires: its
 * first timeout fails it at once, everything outstanding on it is resent on
 * path 1 (in bursts of Max.Burst 4), and its probe, answered, brings it
 * back.
 */
class RudpCmtZeroBudgetBurstLossTest : public TestCase
{
  public:
    RudpCmtZeroBudgetBurstLossTest()
        : TestCase("after sctp-zeroRtx-burstLoss: a burst loss with PathMaxRetrans 0 fails the "
                   "path at its first timeout; path 1 carries the resends")
    {
    }

  private:
    void DoRun() override
    {
        CmtScenario cmt({{MilliSeconds(45)}, {MilliSeconds(45)}}, 65536, CHUNK, true);
        cmt.Helper().SetSenderAttribute("PathMaxRetrans", UintegerValue(0));
        cmt.Helper().SetSenderAttribute("RtxPolicy", StringValue("RTX-SSTHRESH"));
        cmt.Helper().SetSenderAttribute("MaxBytes", UintegerValue(1452000));
        std::list<uint32_t> burst;
        for (uint32_t k = 17; k <= 34; ++k)
        {
            burst.push_back(k);
        }
        cmt.Drop(0, burst);
        cmt.Run(Seconds(20));
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->IsComplete(), true, "acknowledged");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "intact");
        Ptr<RudpCmtPath> path = cmt.Sender()->GetPaths()[0];
        NS_TEST_ASSERT_MSG_EQ(path->GetStats().timeouts, 1, "one timeout on path 0");
        NS_TEST_ASSERT_MSG_EQ(path->GetStatus(),
                              RudpCmtPath::ACTIVE,
                              "back once its probe answered");
        const std::vector<CmtSent> onPath0 = cmt.SentOn(0);
        std::set<SequenceNumber32> dropped;
        for (uint32_t k = 16; k < 34 && k < onPath0.size(); ++k)
        {
            dropped.insert(onPath0[k].seq);
        }
        uint32_t resentOnPath1 = 0;
        for (const auto& resend : cmt.Resends())
        {
            resentOnPath1 += dropped.count(resend.seq) && resend.path == 1 ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(dropped.size(), 18, "path 0 sent 34 data packets");
        NS_TEST_ASSERT_MSG_EQ(resentOnPath1, 18, "every dropped one resent on path 1");
        NS_TEST_ASSERT_MSG_EQ(cmt.Resends().size(), 18, "and nothing else");
        NS_TEST_ASSERT_MSG_EQ(cmt.LargestBurst(), 4, "Max.Burst 4 paces them");
    }
};

/**
 * \ingroup rudp-test
 * Asymmetric delays (5 and 200 ms one way), no random loss, an unbounded
 * buffer: the case that breaks ns-3's MPTCP forks. SFR keeps the reordering
 * from being taken for loss: the few resends (the fast path's window
 * outgrows the sender's queue) are all of segments that had not arrived, no
 * timeout, and the two paths carry more than the fast path alone.
 */
class RudpCmtAsymmetricDelaysTest : public TestCase
{
  public:
    RudpCmtAsymmetricDelaysTest()
        : TestCase("asymmetric delays (10 and 400 ms RTT): no spurious resend, more than the "
                   "fast path alone")
    {
    }

  private:
    void DoRun() override
    {
        uint64_t fastAlone = 0;
        {
            CmtScenario fast({{MilliSeconds(5)}}, 1u << 28, CHUNK, true);
            fast.Run(Seconds(30));
            fastAlone = fast.Receiver()->GetStats().deliveredBytes;
        }
        CmtScenario both({{MilliSeconds(5)}, {MilliSeconds(200)}}, 1u << 28, CHUNK, true);
        both.Install();
        // The only losses are the sender's queues overflowing, as the fast
        // path's window outgrows them: a resend is spurious if the segment
        // had reached the receiver before it.
        std::map<SequenceNumber32, Time> arrived;
        for (uint32_t i = 0; i < 2; ++i)
        {
            both.Helper().GetPathDevices(i).Get(1)->TraceConnectWithoutContext(
                "PhyRxEnd",
                MakeBoundCallback(&NoteArrival, &arrived));
        }
        both.Run(Seconds(30));
        const std::vector<CmtSent> resends = both.Resends();
        NS_TEST_ASSERT_MSG_LT(resends.size(), 10, "few resends");
        for (const auto& resend : resends)
        {
            const auto it = arrived.find(resend.seq);
            NS_TEST_ASSERT_MSG_EQ((it == arrived.end() || it->second > resend.at),
                                  true,
                                  "a resend of a segment that had not arrived: not spurious");
        }
        NS_TEST_ASSERT_MSG_EQ(both.Sender()->GetStats().timeouts, 0, "no timeout");
        NS_TEST_ASSERT_MSG_EQ(both.Receiver()->IsContentIntact(), true, "intact");
        NS_TEST_ASSERT_MSG_GT(both.Receiver()->GetStats().deliveredBytes,
                              fastAlone,
                              "the slow path adds to the fast one");
    }
};

/// \ingroup rudp-test
/// ns-2's SCTP-CMT test scenarios.
class RudpCmtScenariosTestSuite : public TestSuite
{
  public:
    RudpCmtScenariosTestSuite()
        : TestSuite("rudp-cmt-scenarios")
    {
        AddTestCase(new RudpCmtTwoPaths64kWithLossTest);
        AddTestCase(new RudpCmtThreePathsOneFailsTest(false));
        AddTestCase(new RudpCmtThreePathsOneFailsTest(true));
        AddTestCase(new RudpCmtRtxSsthreshTest);
        AddTestCase(new RudpCmtRtxCwndTest);
        AddTestCase(new RudpCmtSmallRwndTest);
        AddTestCase(new RudpCmtMultipleDropsSameWindowTest);
        AddTestCase(new RudpCmtZeroBudgetBurstLossTest);
        AddTestCase(new RudpCmtAsymmetricDelaysTest);
    }
};

/// Static instance registering the suite.
static RudpCmtScenariosTestSuite g_rudpCmtScenariosTestSuite;
