/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/inet-socket-address.h"
#include "ns3/packet.h"
#include "ns3/rudp-cmt-recovery.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <memory>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * CMT loss recovery on its own, driven through the send scoreboard without
 * a network: missing reports with SFR and DAC, entering and leaving fast
 * recovery, CUC's growth rule, ns-2's pseudo-cumulative ACKs and its cut
 * once per window, the timeout, the loss oracle and chunk rescheduling.
 */

using namespace ns3;

namespace
{

const SequenceNumber32 FIRST(1);
const uint32_t MSS = 1000;

/// \return the first sequence number of segment \p k (1, 2, ...) of MSS bytes
SequenceNumber32
Start(uint32_t k)
{
    return FIRST + (k - 1) * MSS;
}

/**
 * An association's sender without its engine: a scoreboard, paths and a
 * recovery of either variant, whose window cut halves the path's window and
 * whose retransmission keeps the segment on its path (RTX-SAME). Segment k
 * (1, 2, ...) of MSS bytes goes on path (k - 1) mod n. SACKs go through the
 * steps RudpCmtSendEngine::ProcessSack takes, in its order.
 */
class Association
{
  public:
    /**
     * \param paths the number of paths
     * \param ns2 ns-2.35's recovery instead of RFC 4960's
     * \param config the settings
     */
    Association(uint32_t paths, bool ns2, const RudpCmtRecovery::Config& config)
        : cuts(paths, 0),
          grew(paths, false)
    {
        for (uint32_t i = 0; i < paths; ++i)
        {
            Ptr<RudpCmtPath> path = CreateObject<RudpCmtPath>();
            path->SetPeer(InetSocketAddress(Ipv4Address(0x0a000102 + (i << 16)), 9),
                          board.AddPath());
            path->Open(MSS, 10, 1u << 30);
            m_paths.push_back(path);
        }
        board.Open(FIRST, 1 << 24);
        board.Add(Create<Packet>(1000 * MSS));
        RudpCmtRecovery::Actions actions;
        actions.cut = [this](uint32_t path) {
            ++cuts[path];
            m_paths[path]->Reduce(0.5);
        };
        actions.retransmit = [this](const RudpTxBuffer::Segment& segment) {
            board.MarkLost(segment);
            resent.push_back(segment.seq);
        };
        if (ns2)
        {
            recovery = std::make_unique<RudpCmtNs2Recovery>(config, board, m_paths, actions);
        }
        else
        {
            recovery = std::make_unique<RudpCmtRfcRecovery>(config, board, m_paths, actions);
        }
    }

    ~Association()
    {
        recovery.reset();
        for (auto& path : m_paths)
        {
            path->Dispose();
        }
        Simulator::Destroy();
    }

    Association(const Association&) = delete;
    Association& operator=(const Association&) = delete;

    /// Sends the next \p count new segments, round robin.
    void Send(uint32_t count)
    {
        for (uint32_t i = 0; i < count; ++i)
        {
            const uint32_t k = static_cast<uint32_t>(board.Buffer().HighTxMark() - FIRST) / MSS + 1;
            now += MilliSeconds(1);
            board.MarkTransmitted(board.NewSegment(MSS, (k - 1) % m_paths.size()), now);
        }
    }

    /// Resends segment \p k on the path it is on.
    void Resend(uint32_t k)
    {
        now += MilliSeconds(1);
        board.MarkTransmitted(Segment(k), now);
    }

    /**
     * \brief A SACK, through the steps of RudpCmtSendEngine::ProcessSack.
     * \param cum its cumulative ACK: the segment it is the start of
     * \param blocks its gap blocks, as [first segment, last segment]
     * \param pair whether it answers two segments (DAC)
     * \return the segments marked for fast retransmission
     */
    uint32_t Sack(uint32_t cum,
                  const std::vector<std::pair<uint32_t, uint32_t>>& blocks,
                  bool pair = false)
    {
        RudpHeader header;
        header.SetAckNumber(Start(cum));
        std::vector<RudpHeader::SackBlock> sackBlocks;
        for (const auto& [first, last] : blocks)
        {
            sackBlocks.push_back({Start(first), Start(last + 1)});
        }
        header.SetSackBlocks(sackBlocks);
        now += MilliSeconds(1);
        recovery->BeginSack(header);
        const RudpCmtScoreboard::SackDigest& acked = board.ApplySack(header, now);
        for (uint32_t path = 0; path < m_paths.size(); ++path)
        {
            recovery->Exit(path, Start(cum));
            grew[path] = acked.bytesNew[path] > 0 && recovery->Grows(path, acked);
        }
        return recovery->CountMissingReports(acked, pair ? 2 : 1);
    }

    /**
     * \brief On two paths: sends segments 1 to 8 (1, 3, 5, 7 on path 0), of
     * which 1 is lost: SACKs of 2-3, 2-5 and 2-7 report it missing three times.
     * \return what the third SACK marked for fast retransmission
     */
    uint32_t LoseFirst()
    {
        Send(8);
        Sack(1, {{2, 3}});
        Sack(1, {{2, 5}});
        return Sack(1, {{2, 7}});
    }

    /// \return segment \p k, in the scoreboard
    const RudpTxBuffer::Segment& Segment(uint32_t k) const
    {
        const RudpTxBuffer::Segment* segment = board.Find(Start(k));
        NS_ABORT_MSG_UNLESS(segment, "no segment " << k);
        return *segment;
    }

    /// \return the missing reports of segment \p k
    uint32_t Reports(uint32_t k)
    {
        return board.RecordOf(Segment(k)).missingReports;
    }

    /// \return path \p path's congestion window
    uint32_t Cwnd(uint32_t path) const
    {
        return m_paths[path]->GetState()->m_cWnd;
    }

    /// \return path \p path's congestion state
    RudpSenderState::CongState CongState(uint32_t path) const
    {
        return m_paths[path]->GetState()->m_congState;
    }

  private:
    std::vector<Ptr<RudpCmtPath>> m_paths; ///< the paths (the recovery reads them)

  public:
    RudpCmtScoreboard board;                   ///< the segments
    std::unique_ptr<RudpCmtRecovery> recovery; ///< the recovery under test
    std::vector<uint32_t> cuts;                ///< window cuts per path
    std::vector<bool> grew;                    ///< per path: the latest SACK lets it grow
    std::vector<SequenceNumber32> resent;      ///< the segments marked for retransmission
    Time now;                                  ///< the time of the latest event
};

} // namespace

/**
 * \ingroup rudp-test
 * RFC 4960 with SFR: only segments newly acknowledged on a lost segment's
 * own path report it missing; the third report enters fast recovery (one
 * cut, the window held) until the cumulative ACK reaches the highest
 * segment sent then.
 */
class RudpCmtRecoveryFastRecoveryTest : public TestCase
{
  public:
    RudpCmtRecoveryFastRecoveryTest()
        : TestCase("RFC 4960 and SFR: the third report on its own path enters fast recovery, "
                   "which holds the window until the exit point")
    {
    }

  private:
    void DoRun() override
    {
        Association a(2, false, RudpCmtRecovery::Config());
        a.Send(8); // path 0: 1, 3, 5, 7; path 1: 2, 4, 6, 8
        const uint32_t cwnd = a.Cwnd(0);
        NS_TEST_ASSERT_MSG_EQ(a.Sack(1, {{2, 2}}), 0, "nothing marked");
        NS_TEST_ASSERT_MSG_EQ(a.Reports(1), 0, "2, on path 1, does not report 1 missing (SFR)");
        a.Sack(1, {{2, 3}});
        NS_TEST_ASSERT_MSG_EQ(a.Reports(1), 1, "3, on path 0, does");
        a.Sack(1, {{2, 5}});
        NS_TEST_ASSERT_MSG_EQ(a.Reports(1), 2, "and 5");
        NS_TEST_ASSERT_MSG_EQ(a.Sack(1, {{2, 7}}), 1, "7 makes three: 1 is lost");
        NS_TEST_ASSERT_MSG_EQ(a.resent.size(), 1, "marked for retransmission");
        NS_TEST_ASSERT_MSG_EQ(a.resent.front(), Start(1), "segment 1");
        NS_TEST_ASSERT_MSG_EQ(a.cuts[0], 1, "path 0's window is cut");
        NS_TEST_ASSERT_MSG_EQ(a.Cwnd(0), cwnd / 2, "by half");
        NS_TEST_ASSERT_MSG_EQ(a.cuts[1], 0, "path 1's is not");
        NS_TEST_ASSERT_MSG_EQ(a.recovery->InFastRecovery(0), true, "path 0 is in fast recovery");
        NS_TEST_ASSERT_MSG_EQ(a.recovery->InFastRecovery(1), false, "path 1 is not");

        // New data; the resend; path 0's earliest outstanding segment (9) is
        // acknowledged, but fast recovery holds the window.
        a.Send(2); // 9 on path 0, 10 on path 1
        a.Resend(1);
        a.Sack(1, {{2, 9}});
        NS_TEST_ASSERT_MSG_EQ(a.grew[0], false, "no growth in fast recovery");
        NS_TEST_ASSERT_MSG_EQ(a.grew[1], true, "path 1 grows (CUC: 8 was its earliest)");
        NS_TEST_ASSERT_MSG_EQ(a.recovery->InFastRecovery(0), true, "9 is below the exit point");
        // The resend arrives: the cumulative ACK passes the exit point (9, the
        // first segment not sent at the loss).
        a.Sack(11, {});
        NS_TEST_ASSERT_MSG_EQ(a.recovery->InFastRecovery(0), false, "fast recovery is over");
        NS_TEST_ASSERT_MSG_EQ(a.CongState(0),
                              RudpSenderState::CONGESTION_AVOIDANCE,
                              "congestion avoidance");
        NS_TEST_ASSERT_MSG_EQ(a.grew[0], true, "the resend was path 0's earliest: it grows");
        NS_TEST_ASSERT_MSG_EQ(a.cuts[0], 1, "one cut in all");
    }
};

/**
 * \ingroup rudp-test
 * Without SFR any later segment newly acknowledged reports a segment
 * missing, whatever its path.
 */
class RudpCmtRecoveryWithoutSfrTest : public TestCase
{
  public:
    RudpCmtRecoveryWithoutSfrTest()
        : TestCase("without SFR, segments on other paths report a segment missing")
    {
    }

  private:
    void DoRun() override
    {
        RudpCmtRecovery::Config config;
        config.sfr = false;
        Association a(2, false, config);
        a.Send(8);
        a.Sack(1, {{2, 2}});
        NS_TEST_ASSERT_MSG_EQ(a.Reports(1), 1, "2, on path 1, reports 1 missing");
        a.Sack(1, {{2, 4}});
        NS_TEST_ASSERT_MSG_EQ(a.Sack(1, {{2, 6}}), 1, "three SACKs: 1 is lost");
        NS_TEST_ASSERT_MSG_EQ(a.cuts[0], 1, "path 0's window is cut");
    }
};

/**
 * \ingroup rudp-test
 * DAC: a SACK that answers two segments reports a segment missing twice if
 * it newly acknowledges data on one path only, all above the segment; once
 * if it acknowledges data on several paths.
 */
class RudpCmtRecoveryDacTest : public TestCase
{
  public:
    RudpCmtRecoveryDacTest()
        : TestCase("DAC: a SACK answering two segments reports two, unless it is mixed")
    {
    }

  private:
    void DoRun() override
    {
        Association a(2, false, RudpCmtRecovery::Config());
        a.Send(8);
        a.Sack(1, {{3, 3}}, true);
        NS_TEST_ASSERT_MSG_EQ(a.Reports(1), 2, "3 alone, answering two segments: two reports");
        a.Sack(1, {{3, 5}}, true);
        NS_TEST_ASSERT_MSG_EQ(a.Reports(1), 3, "4 and 5, on two paths: one more");

        RudpCmtRecovery::Config off;
        off.dac = false;
        Association b(2, false, off);
        b.Send(8);
        b.Sack(1, {{3, 3}}, true);
        NS_TEST_ASSERT_MSG_EQ(b.Reports(1), 1, "without DAC one report");
    }
};

/**
 * \ingroup rudp-test
 * Without CUC a path's window grows only when the cumulative ACK advances;
 * without FastRetransmit a loss cuts the window and the path goes on in
 * congestion avoidance, growing.
 */
class RudpCmtRecoveryGrowthTest : public TestCase
{
  public:
    RudpCmtRecoveryGrowthTest()
        : TestCase("without CUC growth waits for the cumulative ACK; without FastRetransmit "
                   "the window is not held")
    {
    }

  private:
    void DoRun() override
    {
        RudpCmtRecovery::Config noCuc;
        noCuc.cuc = false;
        Association a(2, false, noCuc);
        a.Send(4);
        a.Sack(1, {{2, 3}});
        NS_TEST_ASSERT_MSG_EQ(a.grew[0], false, "3 was SACKed, the cumulative ACK stayed");
        NS_TEST_ASSERT_MSG_EQ(a.grew[1], false, "2 was SACKed, the cumulative ACK stayed");
        a.Sack(4, {});
        NS_TEST_ASSERT_MSG_EQ(a.grew[0], true, "the cumulative ACK advanced");

        RudpCmtRecovery::Config noFr;
        noFr.fastRetransmit = false;
        Association b(2, false, noFr);
        NS_TEST_ASSERT_MSG_EQ(b.LoseFirst(), 1, "1 is lost");
        NS_TEST_ASSERT_MSG_EQ(b.cuts[0], 1, "the window is cut");
        NS_TEST_ASSERT_MSG_EQ(b.recovery->InFastRecovery(0), false, "no fast recovery");
        NS_TEST_ASSERT_MSG_EQ(b.CongState(0),
                              RudpSenderState::CONGESTION_AVOIDANCE,
                              "congestion avoidance at once");
        b.Send(2); // 9 on path 0
        b.Sack(1, {{2, 9}});
        NS_TEST_ASSERT_MSG_EQ(b.grew[0], true, "9, path 0's earliest outstanding: it grows");
    }
};

/**
 * \ingroup rudp-test
 * A second loss on a path: RFC 4960 cuts the window once per fast
 * recovery; ns-2 once per window of data -- again only for a loss above
 * the highest segment outstanding on the path at its last cut, in fast
 * recovery or not.
 */
class RudpCmtRecoveryCutOncePerWindowTest : public TestCase
{
  public:
    RudpCmtRecoveryCutOncePerWindowTest()
        : TestCase("RFC 4960 cuts once per fast recovery, ns-2 once per window of data")
    {
    }

  private:
    void DoRun() override
    {
        for (const bool ns2 : {false, true})
        {
            Association a(1, ns2, RudpCmtRecovery::Config());
            a.Send(6); // all on path 0; 1 and 2 are lost
            a.Sack(1, {{3, 3}});
            a.Sack(1, {{3, 4}});
            NS_TEST_ASSERT_MSG_EQ(a.Sack(1, {{3, 5}}), 2, "three reports each: both lost");
            NS_TEST_ASSERT_MSG_EQ(a.cuts[0], 1, "one cut for two losses of one window");
            a.Send(4); // 7 to 10; 7 is lost
            a.Sack(1, {{3, 6}, {8, 8}});
            a.Sack(1, {{3, 6}, {8, 9}});
            NS_TEST_ASSERT_MSG_EQ(a.Sack(1, {{3, 6}, {8, 10}}), 1, "7 is lost");
            NS_TEST_ASSERT_MSG_EQ(a.recovery->InFastRecovery(0), true, "still in fast recovery");
            NS_TEST_ASSERT_MSG_EQ(a.cuts[0],
                                  ns2 ? 2 : 1,
                                  "7 is above the recovery point: ns-2 cuts again, RFC 4960 not");
        }
    }
};

/**
 * \ingroup rudp-test
 * ns-2's pseudo-cumulative ACK stays on a lost segment until its resend is
 * acknowledged, so the path's window does not grow meanwhile, where RFC
 * 4960's CUC moves on to the next segment outstanding; and ns-2 restarts a
 * path's timer whenever the cumulative ACK passes one of its segments.
 */
class RudpCmtRecoveryNs2PseudoCumulativeTest : public TestCase
{
  public:
    RudpCmtRecoveryNs2PseudoCumulativeTest()
        : TestCase("ns-2's pseudo-cumulative ACK waits for the lost segment's resend; its "
                   "timer restarts whenever the cumulative ACK passes a segment of the path")
    {
    }

  private:
    void DoRun() override
    {
        RudpCmtRecovery::Config config;
        config.fastRetransmit = false; // no hold: growth follows CUC alone
        for (const bool ns2 : {false, true})
        {
            Association a(2, ns2, config);
            NS_TEST_ASSERT_MSG_EQ(a.LoseFirst(), 1, "1 is lost");
            a.Send(2); // 9 on path 0, 10 on path 1
            a.Sack(1, {{2, 9}});
            NS_TEST_ASSERT_MSG_EQ(a.grew[0],
                                  !ns2,
                                  "9: RFC 4960 grows (the earliest in flight), ns-2 waits for 1");
            a.Resend(1);
            a.Send(2); // 11 on path 0, 12 on path 1
            a.Sack(1, {{2, 11}});
            NS_TEST_ASSERT_MSG_EQ(a.grew[0], !ns2, "11: the same");
            NS_TEST_ASSERT_MSG_EQ(a.recovery->RestartsTimer(1), false, "no cumulative ACK yet");
            a.Sack(12, {});
            NS_TEST_ASSERT_MSG_EQ(a.grew[0], true, "1's resend arrived: both grow");
            NS_TEST_ASSERT_MSG_EQ(a.recovery->RestartsTimer(0), ns2, "ns-2 restarts the timer");
            NS_TEST_ASSERT_MSG_EQ(a.recovery->RestartsTimer(1), ns2, "of both paths");
        }
    }
};

/**
 * \ingroup rudp-test
 * A timeout ends the path's fast recovery and marks every segment in
 * flight on it, and only on it, for retransmission.
 */
class RudpCmtRecoveryTimeoutTest : public TestCase
{
  public:
    RudpCmtRecoveryTimeoutTest()
        : TestCase("a timeout ends fast recovery and marks the path's segments in flight")
    {
    }

  private:
    void DoRun() override
    {
        Association a(2, false, RudpCmtRecovery::Config());
        a.LoseFirst();
        NS_TEST_ASSERT_MSG_EQ(a.recovery->InFastRecovery(0), true, "path 0 in fast recovery");
        a.Send(4); // 9 and 11 on path 0, 10 and 12 on path 1
        a.resent.clear();
        a.recovery->Timeout(0);
        NS_TEST_ASSERT_MSG_EQ(a.recovery->InFastRecovery(0), false, "fast recovery is over");
        NS_TEST_ASSERT_MSG_EQ((a.resent == std::vector<SequenceNumber32>{Start(9), Start(11)}),
                              true,
                              "path 0's segments in flight are marked: 9 and 11");
        NS_TEST_ASSERT_MSG_EQ(a.board.BytesInFlight()[0], 0, "nothing in flight on path 0");
        NS_TEST_ASSERT_MSG_EQ(a.board.BytesInFlight()[1], 3 * MSS, "path 1's (8, 10, 12) stay");
    }
};

/**
 * \ingroup rudp-test
 * ModelAssumptions: missing reports count for nothing; the oracle's loss
 * enters fast recovery until the cumulative ACK passes the lost segment,
 * once; chunk rescheduling takes the path a segment left to have lost it,
 * once per recovery.
 */
class RudpCmtRecoveryOracleAndReschedulingTest : public TestCase
{
  public:
    RudpCmtRecoveryOracleAndReschedulingTest()
        : TestCase("the oracle's losses recover until the lost segment; a rescheduled "
                   "segment is a loss on the path it left")
    {
    }

  private:
    void DoRun() override
    {
        RudpCmtRecovery::Config oracle;
        oracle.lossOracle = true;
        Association a(2, false, oracle);
        NS_TEST_ASSERT_MSG_EQ(a.LoseFirst(), 0, "missing reports mark nothing");
        NS_TEST_ASSERT_MSG_EQ(a.recovery->OracleLoss(a.Segment(1), 2), false, "not its send");
        NS_TEST_ASSERT_MSG_EQ(a.recovery->OracleLoss(a.Segment(1), 1), true, "the oracle's");
        NS_TEST_ASSERT_MSG_EQ(a.cuts[0], 1, "the window is cut");
        NS_TEST_ASSERT_MSG_EQ(a.recovery->OracleLoss(a.Segment(1), 1), false, "once");
        a.Resend(1);
        a.Send(2);
        a.Sack(2, {{3, 10}});
        NS_TEST_ASSERT_MSG_EQ(a.recovery->InFastRecovery(0), false, "over: 1 is acknowledged");

        Association b(2, false, RudpCmtRecovery::Config());
        b.Send(4);
        const RudpTxBuffer::Segment& head = b.Segment(1);
        b.board.MarkLost(head);
        b.board.Move(head, 1);
        b.recovery->Rescheduled(head, 0);
        NS_TEST_ASSERT_MSG_EQ(b.cuts[0], 1, "the path it left is cut");
        NS_TEST_ASSERT_MSG_EQ(b.recovery->InFastRecovery(0), true, "and in fast recovery");
        NS_TEST_ASSERT_MSG_EQ(b.board.RecordOf(head).fastRetransmitted, true, "not again");
        const RudpTxBuffer::Segment& third = b.Segment(3);
        b.board.MarkLost(third);
        b.board.Move(third, 1);
        b.recovery->Rescheduled(third, 0);
        NS_TEST_ASSERT_MSG_EQ(b.cuts[0], 1, "once per recovery");
    }
};

/**
 * \ingroup rudp-test
 * \brief CMT loss recovery.
 */
class RudpCmtRecoveryTestSuite : public TestSuite
{
  public:
    RudpCmtRecoveryTestSuite()
        : TestSuite("rudp-cmt-recovery")
    {
        AddTestCase(new RudpCmtRecoveryFastRecoveryTest);
        AddTestCase(new RudpCmtRecoveryWithoutSfrTest);
        AddTestCase(new RudpCmtRecoveryDacTest);
        AddTestCase(new RudpCmtRecoveryGrowthTest);
        AddTestCase(new RudpCmtRecoveryCutOncePerWindowTest);
        AddTestCase(new RudpCmtRecoveryNs2PseudoCumulativeTest);
        AddTestCase(new RudpCmtRecoveryTimeoutTest);
        AddTestCase(new RudpCmtRecoveryOracleAndReschedulingTest);
    }
};

/// The suite's one instance.
static RudpCmtRecoveryTestSuite g_rudpCmtRecoveryTestSuite;
