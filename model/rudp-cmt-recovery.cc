/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-recovery.h"

#include "rudp-sender-state.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtRecovery");

RudpCmtRecovery::RudpCmtRecovery(const Config& config,
                                 RudpCmtScoreboard& scoreboard,
                                 const std::vector<Ptr<RudpCmtPath>>& paths,
                                 Actions actions)
    : m_config(config),
      m_scoreboard(scoreboard),
      m_paths(paths),
      m_records(paths.size()),
      m_actions(std::move(actions))
{
}

RudpCmtRecovery::~RudpCmtRecovery() = default;

void
RudpCmtRecovery::AddPath()
{
    m_records.emplace_back();
}

bool
RudpCmtRecovery::InFastRecovery(uint32_t path) const
{
    return m_records[path].inFastRecovery;
}

void
RudpCmtRecovery::BeginSack(const RudpHeader& /* sack */)
{
}

void
RudpCmtRecovery::Exit(uint32_t path, SequenceNumber32 cum)
{
    Record& record = m_records[path];
    if (record.inFastRecovery && cum >= record.exit)
    {
        record.inFastRecovery = false;
        m_paths[path]->GetState()->m_congState = RudpSenderState::CONGESTION_AVOIDANCE;
    }
}

bool
RudpCmtRecovery::RestartsTimer(uint32_t /* path */) const
{
    return false;
}

bool
RudpCmtRecovery::Grows(uint32_t path, const RudpCmtScoreboard::SackDigest& acked) const
{
    const bool advanced =
        m_config.cuc ? PseudoCumulativeAdvanced(path, acked) : acked.cumulativeBytes > 0;
    return advanced && !HoldsWindow(path);
}

void
RudpCmtRecovery::Enter(uint32_t path, std::optional<SequenceNumber32> exit)
{
    m_actions.cut(path);
    if (exit)
    {
        m_records[path].inFastRecovery = true;
        m_records[path].exit = *exit;
    }
    else
    {
        m_paths[path]->GetState()->m_congState = RudpSenderState::CONGESTION_AVOIDANCE;
    }
}

void
RudpCmtRecovery::EnterOnce(uint32_t path, SequenceNumber32 exit)
{
    if (!m_records[path].inFastRecovery)
    {
        Enter(path, m_config.fastRetransmit ? std::optional<SequenceNumber32>(exit) : std::nullopt);
    }
}

uint32_t
RudpCmtRecovery::CountMissingReports(const RudpCmtScoreboard::SackDigest& acked, uint32_t pairs)
{
    if (!acked.highestNewOfAll || m_config.lossOracle) // the model's losses come from the oracle
    {
        return 0;
    }
    uint32_t marked = 0;
    const uint32_t pathsGapAcked = acked.PathsGapAcked();
    const auto count = [&](const RudpTxBuffer::Segment& segment,
                           RudpCmtScoreboard::Record& record) {
        if (segment.sacked || segment.lost || record.fastRetransmitted || segment.txCount == 0)
        {
            return;
        }
        // SFR: only a later segment newly acknowledged on the same path
        // proves this one missing; across paths it may just be slower.
        const std::optional<SequenceNumber32>& highestOnPath = acked.highestNew[record.GetPath()];
        const bool reported = m_config.sfr ? highestOnPath && segment.seq < *highestOnPath
                                           : segment.seq < *acked.highestNewOfAll;
        if (!reported)
        {
            return;
        }
        // DAC (ns-2's rule): a SACK that answers two segments reports this
        // one missing twice only if it acknowledges data on this path alone
        // (not a "mixed" SACK), and all of it above this segment.
        const std::optional<SequenceNumber32>& lowestOnPath = acked.lowestNew[record.GetPath()];
        const bool acrossAll = lowestOnPath && segment.seq < *lowestOnPath;
        record.missingReports += (m_config.dac && pathsGapAcked <= 1 && acrossAll) ? pairs : 1;
        if (record.missingReports < m_config.reTxThreshold)
        {
            return;
        }
        ++marked;
        record.fastRetransmitted = true;
        NS_LOG_LOGIC("segment " << segment.seq << " lost on path " << record.GetPath() << " after "
                                << record.missingReports << " missing reports");
        Reported(segment, record.GetPath());
        m_actions.retransmit(segment);
    };
    if (m_config.sfr)
    {
        // Only a segment below the highest one newly acknowledged on its
        // own path can be reported missing: the paths' indexes give those
        // alone, not the other paths' segments in flight below.
        m_scoreboard.ForEachInFlightBelow(acked.highestNew, count);
    }
    else
    {
        // Only a segment below the highest newly acknowledged one can be reported missing.
        m_scoreboard.ForEachUnsackedBelow(*acked.highestNewOfAll, count);
    }
    return marked;
}

bool
RudpCmtRecovery::OracleLoss(const RudpTxBuffer::Segment& segment, uint32_t transmission)
{
    RudpCmtScoreboard::Record& record = m_scoreboard.RecordOf(segment);
    if (segment.txCount != transmission || segment.sacked || segment.lost ||
        record.fastRetransmitted)
    {
        return false; // repaired otherwise meanwhile (a timeout, if any)
    }
    record.fastRetransmitted = true;
    EnterOnce(record.GetPath(), segment.End());
    m_actions.retransmit(segment);
    return true;
}

void
RudpCmtRecovery::Rescheduled(const RudpTxBuffer::Segment& segment, uint32_t from)
{
    // Segments sent on the target before the move are acknowledged after
    // it: their missing reports for the moved one would be spurious.
    m_scoreboard.RecordOf(segment).fastRetransmitted = true;
    EnterOnce(from, m_scoreboard.Buffer().HighTxMark());
}

void
RudpCmtRecovery::Left(uint32_t /* path */)
{
}

void
RudpCmtRecovery::Timeout(uint32_t path)
{
    m_records[path].inFastRecovery = false;
    m_scoreboard.ForEach([this, path](const RudpTxBuffer::Segment& segment,
                                      const RudpCmtScoreboard::Record& record) {
        if (record.GetPath() == path && segment.txCount > 0 && segment.InFlight())
        {
            m_actions.retransmit(segment);
        }
    });
}

// ---------------------------------------------------------------------------
// RFC 4960

void
RudpCmtRfcRecovery::Reported(const RudpTxBuffer::Segment& /* segment */, uint32_t path)
{
    EnterOnce(path, m_scoreboard.Buffer().HighTxMark());
}

bool
RudpCmtRfcRecovery::PseudoCumulativeAdvanced(uint32_t path,
                                             const RudpCmtScoreboard::SackDigest& acked) const
{
    return acked.earliestAcked[path];
}

bool
RudpCmtRfcRecovery::HoldsWindow(uint32_t path) const
{
    return m_config.fastRetransmit && m_records[path].inFastRecovery;
}

// ---------------------------------------------------------------------------
// ns-2.35

RudpCmtNs2Recovery::RudpCmtNs2Recovery(const Config& config,
                                       RudpCmtScoreboard& scoreboard,
                                       const std::vector<Ptr<RudpCmtPath>>& paths,
                                       Actions actions)
    : RudpCmtRecovery(config, scoreboard, paths, std::move(actions)),
      m_pseudoCumulative(paths.size())
{
}

void
RudpCmtNs2Recovery::AddPath()
{
    RudpCmtRecovery::AddPath();
    m_pseudoCumulative.emplace_back();
}

void
RudpCmtNs2Recovery::Reported(const RudpTxBuffer::Segment& segment, uint32_t path)
{
    // Once per window of data: a loss above the highest segment outstanding
    // at the last cut (ns-2's uiRecover), which becomes the exit point
    // whatever FastRetransmit.
    if (segment.seq >= m_records[path].exit)
    {
        Enter(path, m_scoreboard.HighestOutstandingEnd(path));
    }
}

bool
RudpCmtNs2Recovery::PseudoCumulativeAdvanced(uint32_t path,
                                             const RudpCmtScoreboard::SackDigest& /* acked */) const
{
    return m_pseudoCumulative[path].advanced;
}

bool
RudpCmtNs2Recovery::HoldsWindow(uint32_t /* path */) const
{
    return false;
}

bool
RudpCmtNs2Recovery::RestartsTimer(uint32_t path) const
{
    return m_pseudoCumulative[path].restartTimer;
}

void
RudpCmtNs2Recovery::Left(uint32_t path)
{
    // ns-2's RtxMarkedChunks: the path looks for new pseudo-cumulative ACKs.
    m_pseudoCumulative[path].findFirst = true;
    m_pseudoCumulative[path].findResend = true;
}

void
RudpCmtNs2Recovery::BeginSack(const RudpHeader& sack)
{
    const SequenceNumber32 cum = sack.GetAckNumber();
    const std::vector<RudpHeader::SackBlock>& blocks = sack.GetSackBlocks();
    std::optional<SequenceNumber32> lastRight;
    for (const auto& block : blocks)
    {
        lastRight = lastRight ? std::max(*lastRight, block.right) : block.right;
    }
    auto inBlock = [&blocks](const RudpTxBuffer::Segment& segment) {
        return std::any_of(blocks.begin(), blocks.end(), [&segment](const auto& block) {
            return segment.seq >= block.left && segment.End() <= block.right;
        });
    };
    for (auto& path : m_pseudoCumulative)
    {
        path.advanced = false;
        path.restartTimer = false;
    }
    m_scoreboard.ForEachWhile(
        [&](const RudpTxBuffer::Segment& segment, const RudpCmtScoreboard::Record& record) {
            if (segment.txCount == 0)
            {
                return false; // the unsent ones end the walk
            }
            PseudoCumulative& path = m_pseudoCumulative[record.GetPath()];
            if (segment.End() <= cum)
            {
                // SendBufferDequeueUpTo stops the path's timer (an expected ACK
                // never set counts as 0, below every segment).
                const bool running = m_paths[record.GetPath()]->GetRtoTimer()->IsRunning();
                const auto atOrBelow = [&segment](const std::optional<SequenceNumber32>& expected) {
                    return !expected || *expected <= segment.seq;
                };
                if ((running && atOrBelow(path.first)) || atOrBelow(path.resend))
                {
                    path.restartTimer = true;
                }
                // Newly acknowledged by the cumulative ACK.
                if (!segment.sacked)
                {
                    path.advanced = true;
                    path.findFirst = true;
                    path.findResend = true;
                }
                return true;
            }
            if (!lastRight)
            {
                return false; // no gap block: ns-2 does not walk the buffer
            }
            if (!segment.sacked)
            {
                if (path.findFirst && segment.txCount == 1)
                {
                    path.first = segment.seq;
                    path.findFirst = false;
                }
                if (path.findResend && segment.txCount > 1)
                {
                    path.resend = segment.seq;
                    path.findResend = false;
                }
                if (inBlock(segment))
                {
                    if (path.first == segment.seq)
                    {
                        path.advanced = true;
                        path.findFirst = true;
                    }
                    if (path.resend == segment.seq)
                    {
                        path.advanced = true;
                        path.findResend = true;
                    }
                }
            }
            // The first segment beyond the last gap block ends the walk.
            return segment.seq < *lastRight;
        });
}

} // namespace ns3
