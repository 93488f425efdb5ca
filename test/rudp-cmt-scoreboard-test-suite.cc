/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/packet.h"
#include "ns3/rudp-cmt-scoreboard.h"
#include "ns3/test.h"

#include <random>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * The CMT send scoreboard on its own: segments cut on paths, a SACK's digest
 * per path, the cumulative ACK taking segments and their records out
 * together, and Karn's rule.
 */

using namespace ns3;

namespace
{

const SequenceNumber32 FIRST(1);
const uint32_t MSS = 1000;

/// \return a SACK acknowledging up to \p cum, and \p blocks beyond it
RudpHeader
Sack(SequenceNumber32 cum, const std::vector<RudpHeader::SackBlock>& blocks)
{
    RudpHeader header;
    header.SetAckNumber(cum);
    header.SetSackBlocks(blocks);
    return header;
}

/// \return the first sequence number of segment \p k (1, 2, ...) of MSS bytes
SequenceNumber32
Start(uint32_t k)
{
    return FIRST + (k - 1) * MSS;
}

/**
 * A scoreboard of three paths with six segments of MSS bytes sent round
 * robin at 0, 10, ..., 50 ms: segments 1 and 4 on path 0, 2 and 5 on path
 * 1, 3 and 6 on path 2.
 */
void
SendSix(RudpCmtScoreboard& board)
{
    for (uint32_t i = 0; i < 3; ++i)
    {
        board.AddPath();
    }
    board.Open(FIRST, 1 << 20);
    board.Add(Create<Packet>(10 * MSS));
    for (uint32_t k = 0; k < 6; ++k)
    {
        const RudpTxBuffer::Segment& segment = board.NewSegment(MSS, k % 3);
        board.MarkTransmitted(segment, MilliSeconds(10 * k));
    }
}

} // namespace

/**
 * \ingroup rudp-test
 * Cut segments keep their paths; per-path bytes in flight, earliest lost
 * segment and highest outstanding end come from them.
 */
class RudpCmtScoreboardPathsTest : public TestCase
{
  public:
    RudpCmtScoreboardPathsTest()
        : TestCase("segments keep their paths: bytes in flight, first lost, highest outstanding")
    {
    }

  private:
    void DoRun() override
    {
        RudpCmtScoreboard board;
        SendSix(board);
        NS_TEST_ASSERT_MSG_EQ(board.PathOf(*board.Find(Start(5))), 1, "segment 5 on path 1");
        NS_TEST_ASSERT_MSG_EQ(
            (board.BytesInFlight() == std::vector<uint32_t>{2 * MSS, 2 * MSS, 2 * MSS}),
            true,
            "two segments in flight on each path");
        NS_TEST_ASSERT_MSG_EQ((board.FirstLost(std::nullopt) == nullptr), true, "nothing lost");
        NS_TEST_ASSERT_MSG_EQ(board.MarkLost(*board.Find(Start(5))), true, "5 is marked");
        NS_TEST_ASSERT_MSG_EQ(board.MarkLost(*board.Find(Start(2))), true, "2 is marked");
        NS_TEST_ASSERT_MSG_EQ(board.FirstLost(1u)->seq, Start(2), "the earliest on path 1");
        NS_TEST_ASSERT_MSG_EQ(board.FirstLost(std::nullopt)->seq, Start(2), "on any path");
        NS_TEST_ASSERT_MSG_EQ((board.FirstLost(0u) == nullptr), true, "none on path 0");
        NS_TEST_ASSERT_MSG_EQ(board.BytesInFlight()[1], 0, "a lost segment is not in flight");
        NS_TEST_ASSERT_MSG_EQ(board.HighestOutstandingEnd(2), Start(7), "segment 6's end");
        NS_TEST_ASSERT_MSG_EQ((board.Find(Start(4) + 1) == nullptr), true, "no segment there");
    }
};

/**
 * \ingroup rudp-test
 * A SACK's digest, path by path: gap blocks first, then the cumulative ACK,
 * which takes the segments and their records out of the scoreboard in step.
 */
class RudpCmtScoreboardSackDigestTest : public TestCase
{
  public:
    RudpCmtScoreboardSackDigestTest()
        : TestCase("a SACK's digest per path; the cumulative ACK takes records with segments")
    {
    }

  private:
    void DoRun() override
    {
        RudpCmtScoreboard board;
        SendSix(board);
        // Segments 3 and 4 (paths 2 and 0) arrive; 1 and 2 have not.
        RudpCmtScoreboard::SackDigest gap =
            board.ApplySack(Sack(FIRST, {{Start(3), Start(5)}}), MilliSeconds(130));
        NS_TEST_ASSERT_MSG_EQ(gap.bytesNew[0], MSS, "segment 4 on path 0");
        NS_TEST_ASSERT_MSG_EQ(gap.bytesNew[1], 0, "nothing on path 1");
        NS_TEST_ASSERT_MSG_EQ(gap.bytesNew[2], MSS, "segment 3 on path 2");
        NS_TEST_ASSERT_MSG_EQ(gap.PathsGapAcked(), 2, "two paths by a gap block");
        NS_TEST_ASSERT_MSG_EQ(*gap.highestNewOfAll, Start(4), "the highest newly acknowledged");
        NS_TEST_ASSERT_MSG_EQ(*gap.highestNew[0], Start(4), "path 0's highest");
        NS_TEST_ASSERT_MSG_EQ(gap.highestNew[1].has_value(), false, "path 1: none");
        NS_TEST_ASSERT_MSG_EQ(gap.earliestAcked[0], false, "path 0's earliest is 1, missing");
        NS_TEST_ASSERT_MSG_EQ(gap.earliestAcked[2], true, "path 2's earliest is 3");
        NS_TEST_ASSERT_MSG_EQ(gap.oldestAcked[2], true, "and the oldest of path 2");
        NS_TEST_ASSERT_MSG_EQ(gap.cumulativeBytes, 0, "the cumulative ACK stayed");
        NS_TEST_ASSERT_MSG_EQ(gap.rttSamples[0].size(), 1, "one sample on path 0");
        NS_TEST_ASSERT_MSG_EQ(gap.rttSamples[0].front(), MilliSeconds(100), "sent at 30 ms");
        // The same block again is nothing new.
        RudpCmtScoreboard::SackDigest again =
            board.ApplySack(Sack(FIRST, {{Start(3), Start(5)}}), MilliSeconds(140));
        NS_TEST_ASSERT_MSG_EQ(again.highestNewOfAll.has_value(), false, "nothing new");
        // Then 1 and 2: the cumulative ACK passes 1-4.
        RudpCmtScoreboard::SackDigest cum = board.ApplySack(Sack(Start(5), {}), MilliSeconds(150));
        NS_TEST_ASSERT_MSG_EQ(cum.cumulativeBytes, 4 * MSS, "four segments");
        NS_TEST_ASSERT_MSG_EQ(cum.bytesNew[0], MSS, "segment 1, new; 4 was SACKed before");
        NS_TEST_ASSERT_MSG_EQ(cum.bytesNew[1], MSS, "segment 2");
        NS_TEST_ASSERT_MSG_EQ(cum.bytesNew[2], 0, "segment 3 was SACKed before");
        NS_TEST_ASSERT_MSG_EQ(cum.PathsGapAcked(), 0, "no gap block");
        NS_TEST_ASSERT_MSG_EQ(board.Buffer().GetSegments().size(), 2, "5 and 6 are left");
        NS_TEST_ASSERT_MSG_EQ((board.Find(Start(1)) == nullptr), true, "1 is gone");
        NS_TEST_ASSERT_MSG_EQ(board.PathOf(*board.Find(Start(5))), 1, "records still in step");
        NS_TEST_ASSERT_MSG_EQ(board.PathOf(*board.Find(Start(6))), 2, "records still in step");
        // A cumulative ACK into the middle of segment 5 keeps its record.
        board.ApplySack(Sack(Start(5) + MSS / 2, {}), MilliSeconds(160));
        const RudpTxBuffer::Segment& rest = board.Buffer().GetSegments().front();
        NS_TEST_ASSERT_MSG_EQ(rest.length, MSS / 2, "the unacknowledged half");
        NS_TEST_ASSERT_MSG_EQ(board.PathOf(rest), 1, "on its path");
    }
};

/**
 * \ingroup rudp-test
 * Karn's rule: the acknowledgment of a segment sent twice, or thought lost,
 * measures nothing; a first transmission's does.
 */
class RudpCmtScoreboardKarnTest : public TestCase
{
  public:
    RudpCmtScoreboardKarnTest()
        : TestCase("Karn's rule: no RTT from a resent segment or one marked lost")
    {
    }

  private:
    void DoRun() override
    {
        RudpCmtScoreboard board;
        SendSix(board);
        const RudpTxBuffer::Segment& first = *board.Find(Start(1));
        board.MarkLost(first);
        board.Move(first, 1); // moved by the retransmission policy
        board.MarkTransmitted(first, MilliSeconds(200));
        board.MarkLost(*board.Find(Start(2)));
        RudpCmtScoreboard::SackDigest acked =
            board.ApplySack(Sack(Start(4), {}), MilliSeconds(300));
        NS_TEST_ASSERT_MSG_EQ(acked.bytesNew[1], 2 * MSS, "1 (resent on path 1) and 2");
        NS_TEST_ASSERT_MSG_EQ(acked.rttSamples[1].size(), 0, "neither measures");
        NS_TEST_ASSERT_MSG_EQ(acked.rttSamples[2].size(), 1, "3, sent once, does");
        NS_TEST_ASSERT_MSG_EQ(acked.rttSamples[2].front(), MilliSeconds(280), "sent at 20 ms");
        NS_TEST_ASSERT_MSG_EQ(acked.earliestAcked[1], true, "the resend was path 1's earliest");
    }
};

/**
 * \ingroup rudp-test
 * The per-path bytes in flight, earliest lost segments and segments in
 * flight below a limit (SFR's candidates) are kept as segments change, not
 * walked for:
 * after each of many random sends, resends, losses, moves between paths and
 * SACKs (partial cumulative ACKs too) they equal a walk over the segments.
 */
class RudpCmtScoreboardInFlightTest : public TestCase
{
  public:
    RudpCmtScoreboardInFlightTest()
        : TestCase("bytes in flight, first lost segment and segments in flight below a limit "
                   "per path, kept as segments change, equal a walk")
    {
    }

  private:
    /// \return the bytes in flight on each path, walked
    static std::vector<uint32_t> Walk(const RudpCmtScoreboard& board, uint32_t paths)
    {
        std::vector<uint32_t> inFlight(paths, 0);
        board.ForEach(
            [&inFlight](const RudpTxBuffer::Segment& segment, const RudpCmtScoreboard::Record& r) {
                if (segment.txCount > 0 && segment.InFlight())
                {
                    inFlight[r.GetPath()] += segment.length;
                }
            });
        return inFlight;
    }

    /// \return the earliest segment waiting for a resend on \p path (any path: none), walked
    static const RudpTxBuffer::Segment* WalkFirstLost(const RudpCmtScoreboard& board,
                                                      std::optional<uint32_t> path)
    {
        const RudpTxBuffer::Segment* first = nullptr;
        board.ForEach([&first, path](const RudpTxBuffer::Segment& segment,
                                     const RudpCmtScoreboard::Record& r) {
            if (!first && segment.lost && (!path || r.GetPath() == *path))
            {
                first = &segment;
            }
        });
        return first;
    }

    void DoRun() override
    {
        const uint32_t paths = 3;
        RudpCmtScoreboard board;
        for (uint32_t i = 0; i < paths; ++i)
        {
            board.AddPath();
        }
        board.Open(FIRST, 1 << 24);
        board.Add(Create<Packet>(1 << 23));
        std::mt19937 draw(12345);
        Time now;
        uint32_t mismatches = 0;
        for (uint32_t step = 0; step < 20000; ++step)
        {
            now += MicroSeconds(100);
            const std::deque<RudpTxBuffer::Segment>& segments = board.Buffer().GetSegments();
            const uint32_t action = draw() % 10;
            if (action < 4 || segments.empty())
            {
                if (board.Buffer().UnsentBytes() >= MSS)
                {
                    board.MarkTransmitted(board.NewSegment(MSS, draw() % paths), now);
                }
            }
            else
            {
                const RudpTxBuffer::Segment& segment = segments[draw() % segments.size()];
                const SequenceNumber32 front = segments.front().seq;
                const SequenceNumber32 high = board.Buffer().HighTxMark();
                if (action == 4)
                {
                    board.MarkLost(segment);
                }
                else if (action == 5 && segment.lost)
                {
                    board.Move(segment, draw() % paths); // the policy moves it
                    board.MarkTransmitted(segment, now);
                }
                else if (action == 6 && segment.lost)
                {
                    board.Move(segment, draw() % paths);
                }
                else if (action <= 8)
                {
                    const SequenceNumber32 left = segment.seq;
                    const SequenceNumber32 right = std::min(high, left + MSS * (1 + draw() % 4));
                    board.ApplySack(Sack(front, {{left, right}}), now);
                }
                else
                {
                    // A cumulative ACK, sometimes into the middle of a segment.
                    const uint32_t span = static_cast<uint32_t>(high - front);
                    board.ApplySack(Sack(front + draw() % (span / 4 + 1), {}), now);
                }
            }
            mismatches += board.BytesInFlight() != Walk(board, paths);
            mismatches += board.FirstLost(std::nullopt) != WalkFirstLost(board, std::nullopt);
            for (uint32_t path = 0; path < paths; ++path)
            {
                mismatches += board.FirstLost(path) != WalkFirstLost(board, path);
            }
            mismatches += board.AnyLost() != (WalkFirstLost(board, std::nullopt) != nullptr);
            // SFR's candidates: per path, below a segment's start (or nowhere).
            std::vector<std::optional<SequenceNumber32>> limits(paths);
            for (auto& limit : limits)
            {
                if (!segments.empty() && draw() % 4 != 0)
                {
                    limit = segments[draw() % segments.size()].seq;
                }
            }
            std::vector<SequenceNumber32> indexed;
            board.ForEachInFlightBelow(
                limits,
                [&indexed](const RudpTxBuffer::Segment& segment, RudpCmtScoreboard::Record&) {
                    indexed.push_back(segment.seq);
                });
            std::vector<SequenceNumber32> walked;
            board.ForEach([&walked, &limits](const RudpTxBuffer::Segment& segment,
                                             const RudpCmtScoreboard::Record& r) {
                const std::optional<SequenceNumber32>& limit = limits[r.GetPath()];
                if (segment.txCount > 0 && segment.InFlight() && limit && segment.seq < *limit)
                {
                    walked.push_back(segment.seq);
                }
            });
            mismatches += indexed != walked;
        }
        NS_TEST_ASSERT_MSG_EQ(mismatches, 0, "the kept counts are the walked ones");
        NS_TEST_ASSERT_MSG_GT(board.Buffer().GetSegments().size(), 0, "segments were left");
    }
};

/**
 * \ingroup rudp-test
 * \brief The CMT send scoreboard.
 */
class RudpCmtScoreboardTestSuite : public TestSuite
{
  public:
    RudpCmtScoreboardTestSuite()
        : TestSuite("rudp-cmt-scoreboard")
    {
        AddTestCase(new RudpCmtScoreboardPathsTest);
        AddTestCase(new RudpCmtScoreboardSackDigestTest);
        AddTestCase(new RudpCmtScoreboardKarnTest);
        AddTestCase(new RudpCmtScoreboardInFlightTest);
    }
};

/// The suite's one instance.
static RudpCmtScoreboardTestSuite g_rudpCmtScoreboardTestSuite;
