/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-scoreboard.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtScoreboard");

namespace
{

/// \return the larger of \p held and \p seq (\p seq if nothing is held)
std::optional<SequenceNumber32>
Larger(const std::optional<SequenceNumber32>& held, SequenceNumber32 seq)
{
    return held && *held > seq ? held : seq;
}

/// \return the smaller of \p held and \p seq (\p seq if nothing is held)
std::optional<SequenceNumber32>
Smaller(const std::optional<SequenceNumber32>& held, SequenceNumber32 seq)
{
    return held && *held < seq ? held : seq;
}

} // namespace

RudpCmtScoreboard::SackDigest::SackDigest(uint32_t paths)
    : bytesNew(paths, 0),
      highestNew(paths),
      lowestNew(paths),
      gapAcked(paths, false),
      earliestAcked(paths, false),
      oldestAcked(paths, false),
      rttSamples(paths)
{
}

void
RudpCmtScoreboard::SackDigest::Reset(uint32_t paths)
{
    bytesNew.assign(paths, 0);
    highestNew.assign(paths, std::nullopt);
    lowestNew.assign(paths, std::nullopt);
    gapAcked.assign(paths, false);
    earliestAcked.assign(paths, false);
    oldestAcked.assign(paths, false);
    rttSamples.resize(paths);
    for (auto& samples : rttSamples)
    {
        samples.clear();
    }
    highestNewOfAll.reset();
    cumulativeBytes = 0;
}

uint32_t
RudpCmtScoreboard::SackDigest::PathsGapAcked() const
{
    return static_cast<uint32_t>(std::count(gapAcked.begin(), gapAcked.end(), true));
}

RudpCmtScoreboard::RudpCmtScoreboard()
    : m_buffer(CreateObject<RudpTxBuffer>())
{
}

uint32_t
RudpCmtScoreboard::AddPath()
{
    m_inFlight.push_back(0);
    m_index.emplace_back();
    return m_paths++;
}

const RudpTxBuffer&
RudpCmtScoreboard::Buffer() const
{
    return *m_buffer;
}

void
RudpCmtScoreboard::Open(SequenceNumber32 head, uint32_t maxBytes)
{
    m_buffer->SetMaxBufferSize(maxBytes);
    m_buffer->SetHeadSequence(head);
}

void
RudpCmtScoreboard::Add(Ptr<Packet> data)
{
    m_buffer->Add(data);
}

const RudpTxBuffer::Segment&
RudpCmtScoreboard::NewSegment(uint32_t length, uint32_t path)
{
    NS_ABORT_MSG_IF(path >= m_paths, "RudpCmtScoreboard: no path " << path);
    const RudpTxBuffer::Segment& segment = m_buffer->NewSegment(length);
    Entry entry;
    entry.end = segment.End();
    entry.record.m_path = path;
    m_records.push_back(entry);
    return segment;
}

void
RudpCmtScoreboard::MarkTransmitted(const RudpTxBuffer::Segment& segment, Time now)
{
    if (segment.sacked)
    {
        m_appliedBlocks.clear(); // resent after all: a block holding it is no longer all SACKed
    }
    Entry& entry = Find(segment);
    entry.record.missingReports = 0;
    m_buffer->MarkTransmitted(segment, now);
    Recount(segment, entry);
}

bool
RudpCmtScoreboard::MarkLost(const RudpTxBuffer::Segment& segment)
{
    const bool marked = m_buffer->MarkLost(segment);
    Recount(segment, Find(segment));
    return marked;
}

void
RudpCmtScoreboard::Move(const RudpTxBuffer::Segment& segment, uint32_t path)
{
    NS_ABORT_MSG_IF(path >= m_paths, "RudpCmtScoreboard: no path " << path);
    Entry& entry = Find(segment);
    entry.record.m_path = path;
    Recount(segment, entry);
}

void
RudpCmtScoreboard::EndIndex::Insert(SequenceNumber32 end)
{
    if (m_ends.empty() || m_ends.back() < end)
    {
        m_ends.push_back(end); // the rule: a segment sent after the others on the path
        return;
    }
    const auto at = std::lower_bound(m_ends.begin(), m_ends.end(), end);
    if (at == m_ends.end() || *at != end)
    {
        m_ends.insert(at, end);
    }
}

void
RudpCmtScoreboard::EndIndex::Erase(SequenceNumber32 end)
{
    if (!m_ends.empty() && m_ends.front() == end)
    {
        m_ends.pop_front(); // the rule: the path's earliest acknowledged
        return;
    }
    const auto at = std::lower_bound(m_ends.begin(), m_ends.end(), end);
    if (at != m_ends.end() && *at == end)
    {
        m_ends.erase(at);
    }
}

void
RudpCmtScoreboard::Recount(const RudpTxBuffer::Segment& segment, Entry& entry)
{
    Uncount(entry);
    entry.countedPath = entry.record.m_path;
    PathIndex& index = m_index[entry.countedPath];
    if (segment.lost)
    {
        entry.indexedIn = &index.lost;
    }
    else if (segment.txCount > 0 && !segment.sacked)
    {
        entry.indexedIn = segment.txCount == 1 ? &index.firsts : &index.resends;
        entry.countedBytes = segment.length;
        m_inFlight[entry.countedPath] += entry.countedBytes;
    }
    if (entry.indexedIn)
    {
        entry.indexedIn->Insert(entry.end);
    }
}

void
RudpCmtScoreboard::Uncount(Entry& entry)
{
    if (entry.indexedIn)
    {
        entry.indexedIn->Erase(entry.end);
        entry.indexedIn = nullptr;
    }
    m_inFlight[entry.countedPath] -= entry.countedBytes;
    entry.countedBytes = 0;
}

std::vector<size_t>
RudpCmtScoreboard::InFlightBelow(const std::vector<std::optional<SequenceNumber32>>& limits) const
{
    std::vector<size_t> positions;
    for (uint32_t path = 0; path < m_paths && path < limits.size(); ++path)
    {
        if (!limits[path])
        {
            continue;
        }
        // Segments do not overlap: one starts below the limit (the start of
        // a segment of the path) if and only if it ends at or below it.
        for (const EndIndex* index : {&m_index[path].firsts, &m_index[path].resends})
        {
            for (auto end = index->Begin(); end != index->End() && *end <= *limits[path]; ++end)
            {
                const auto entry = std::lower_bound(
                    m_records.begin(),
                    m_records.end(),
                    *end,
                    [](const Entry& e, SequenceNumber32 at) { return e.end < at; });
                positions.push_back(entry - m_records.begin());
            }
        }
    }
    std::sort(positions.begin(), positions.end());
    return positions;
}

const RudpTxBuffer::Segment&
RudpCmtScoreboard::SegmentEndingAt(SequenceNumber32 end) const
{
    const auto it =
        std::lower_bound(m_records.begin(),
                         m_records.end(),
                         end,
                         [](const Entry& entry, SequenceNumber32 at) { return entry.end < at; });
    NS_ABORT_MSG_IF(it == m_records.end() || it->end != end,
                    "RudpCmtScoreboard: no segment ends at " << end);
    return m_buffer->GetSegments()[it - m_records.begin()];
}

const RudpTxBuffer::Segment*
RudpCmtScoreboard::Earliest(const EndIndex& index) const
{
    return index.IsEmpty() ? nullptr : &SegmentEndingAt(index.Front());
}

const RudpCmtScoreboard::Entry&
RudpCmtScoreboard::Find(const RudpTxBuffer::Segment& segment) const
{
    // Ends are unique (segments do not overlap), so a match is the entry.
    const SequenceNumber32 end = segment.End();
    // Most look-ups are of the hinted record, the one after it, or the
    // newest (a segment cut to be sent).
    for (size_t at = m_findHint; at < m_findHint + 2 && at < m_records.size(); ++at)
    {
        if (m_records[at].end == end)
        {
            m_findHint = at;
            return m_records[at];
        }
    }
    if (!m_records.empty() && m_records.back().end == end)
    {
        m_findHint = m_records.size() - 1;
        return m_records.back();
    }
    const auto it =
        std::lower_bound(m_records.begin(),
                         m_records.end(),
                         end,
                         [](const Entry& entry, SequenceNumber32 at) { return entry.end < at; });
    NS_ABORT_MSG_IF(it == m_records.end() || it->end != end,
                    "RudpCmtScoreboard: no record of the segment ending at " << end);
    m_findHint = it - m_records.begin();
    return *it;
}

RudpCmtScoreboard::Entry&
RudpCmtScoreboard::Find(const RudpTxBuffer::Segment& segment)
{
    return const_cast<Entry&>(std::as_const(*this).Find(segment));
}

RudpCmtScoreboard::Record&
RudpCmtScoreboard::RecordOf(const RudpTxBuffer::Segment& segment)
{
    return Find(segment).record;
}

uint32_t
RudpCmtScoreboard::PathOf(const RudpTxBuffer::Segment& segment) const
{
    return Find(segment).record.m_path;
}

const RudpTxBuffer::Segment*
RudpCmtScoreboard::Find(SequenceNumber32 seq) const
{
    const std::deque<RudpTxBuffer::Segment>& segments = m_buffer->GetSegments();
    const auto it = std::lower_bound(
        segments.begin(),
        segments.end(),
        seq,
        [](const RudpTxBuffer::Segment& segment, SequenceNumber32 at) { return segment.seq < at; });
    return it != segments.end() && it->seq == seq ? &*it : nullptr;
}

const std::vector<uint32_t>&
RudpCmtScoreboard::BytesInFlight() const
{
    return m_inFlight;
}

const RudpTxBuffer::Segment*
RudpCmtScoreboard::FirstLost(std::optional<uint32_t> path) const
{
    if (path)
    {
        return Earliest(m_index[*path].lost);
    }
    const RudpTxBuffer::Segment* first = nullptr;
    for (const PathIndex& index : m_index)
    {
        const RudpTxBuffer::Segment* candidate = Earliest(index.lost);
        first = candidate && (!first || candidate->seq < first->seq) ? candidate : first;
    }
    return first;
}

bool
RudpCmtScoreboard::AnyLost() const
{
    return std::any_of(m_index.begin(), m_index.end(), [](const PathIndex& index) {
        return !index.lost.IsEmpty();
    });
}

SequenceNumber32
RudpCmtScoreboard::HighestOutstandingEnd(uint32_t path) const
{
    SequenceNumber32 highest = m_buffer->HeadSequence();
    const std::deque<RudpTxBuffer::Segment>& segments = m_buffer->GetSegments();
    for (size_t i = 0; i < segments.size(); ++i)
    {
        if (m_records[i].record.m_path == path && segments[i].txCount > 0 && !segments[i].sacked)
        {
            highest = std::max(highest, segments[i].End());
        }
    }
    return highest;
}

void
RudpCmtScoreboard::NoteAcked(const RudpTxBuffer::Segment& segment)
{
    Entry& entry = Find(segment);
    Uncount(entry);
    if (segment.sacked)
    {
        return; // acknowledged already, by an earlier SACK block
    }
    SackDigest& digest = m_digest;
    const uint32_t on = entry.record.m_path;
    const SequenceNumber32 end = segment.End();
    digest.bytesNew[on] += segment.length;
    digest.highestNew[on] = Larger(digest.highestNew[on], segment.seq);
    digest.lowestNew[on] = Smaller(digest.lowestNew[on], segment.seq);
    digest.gapAcked[on] = digest.gapAcked[on] || m_inGapBlocks;
    digest.highestNewOfAll = Larger(digest.highestNewOfAll, segment.seq);
    const std::optional<SequenceNumber32>& firstEnd = m_earliestEnd[on];
    const std::optional<SequenceNumber32>& resendEnd = m_earliestResendEnd[on];
    const bool first = firstEnd && *firstEnd == end;
    const bool resend = resendEnd && *resendEnd == end;
    digest.earliestAcked[on] = digest.earliestAcked[on] || first || resend;
    // Segments do not overlap: one starts before another if and only if it ends before it.
    const bool oldest =
        (first && !(resendEnd && *resendEnd < end)) || (resend && !(firstEnd && *firstEnd < end));
    digest.oldestAcked[on] = digest.oldestAcked[on] || oldest;
    if (segment.TimesRtt(false))
    {
        digest.rttSamples[on].push_back(m_sackTime - segment.lastTx);
    }
}

bool
RudpCmtScoreboard::AppliedBefore(const RudpHeader::SackBlock& block)
{
    // Only the front segment changes its start (a cumulative ACK into its
    // middle), and it starts at the head: a block above the head holds
    // the same whole segments as when it was applied.
    if (block.left <= m_buffer->HeadSequence())
    {
        return false;
    }
    const auto same = [&block](const RudpHeader::SackBlock& applied) {
        return applied.left == block.left && applied.right == block.right;
    };
    // Both lists lowest first (RudpRxBuffer::GetSackBlocks): a cursor finds
    // each block in one step; a peer that lists them otherwise is searched.
    while (m_appliedCursor < m_appliedBlocks.size() &&
           m_appliedBlocks[m_appliedCursor].left < block.left)
    {
        ++m_appliedCursor;
    }
    if (m_appliedCursor < m_appliedBlocks.size() && same(m_appliedBlocks[m_appliedCursor]))
    {
        return true;
    }
    return std::any_of(m_appliedBlocks.begin(), m_appliedBlocks.end(), same);
}

const RudpCmtScoreboard::SackDigest&
RudpCmtScoreboard::ApplySack(const RudpHeader& sack, Time now)
{
    m_digest.Reset(m_paths);
    m_sackTime = now;
    // CUC's pseudo-cumulative ACKs: each path's earliest outstanding
    // segment, kept apart for first transmissions and for resends, so that
    // a resend does not hold back the path it was moved to.
    m_earliestEnd.assign(m_paths, std::nullopt);
    m_earliestResendEnd.assign(m_paths, std::nullopt);
    for (uint32_t path = 0; path < m_paths; ++path)
    {
        if (!m_index[path].firsts.IsEmpty())
        {
            m_earliestEnd[path] = m_index[path].firsts.Front();
        }
        if (!m_index[path].resends.IsEmpty())
        {
            m_earliestResendEnd[path] = m_index[path].resends.Front();
        }
    }
    // One callback for every block (capturing only this, it needs no allocation).
    const RudpTxBuffer::SegmentCallback onAcked = [this](const RudpTxBuffer::Segment& segment) {
        NoteAcked(segment);
    };
    m_inGapBlocks = true;
    m_nextApplied.clear();
    m_appliedCursor = 0;
    const SequenceNumber32 highTx = m_buffer->HighTxMark();
    for (const auto& block : sack.GetSackBlocks())
    {
        if (!AppliedBefore(block))
        {
            m_buffer->MarkSacked(block.left, block.right, now, onAcked);
        }
        if (block.right <= highTx)
        {
            m_nextApplied.push_back(block);
        }
    }
    m_appliedBlocks.swap(m_nextApplied);
    m_inGapBlocks = false;
    const SequenceNumber32 cum = sack.GetAckNumber();
    const SequenceNumber32 previous = m_buffer->HeadSequence();
    if (cum > previous)
    {
        m_buffer->DiscardUpTo(cum, now, onAcked);
        ForgetAcknowledged();
        if (!m_records.empty())
        {
            // A cumulative ACK into the middle of a segment acknowledges its front.
            Recount(m_buffer->GetSegments().front(), m_records.front());
        }
        m_digest.cumulativeBytes = static_cast<uint32_t>(cum - previous);
    }
    return m_digest;
}

void
RudpCmtScoreboard::ForgetAcknowledged()
{
    const SequenceNumber32 head = m_buffer->HeadSequence();
    while (!m_records.empty() && m_records.front().end <= head)
    {
        m_records.pop_front();
        // The hint stays on its record, now one place nearer the front.
        m_findHint = m_findHint > 0 ? m_findHint - 1 : 0;
    }
    NS_ABORT_MSG_IF(m_records.size() != m_buffer->GetSegments().size(),
                    "RudpCmtScoreboard: " << m_records.size() << " records for "
                                          << m_buffer->GetSegments().size() << " segments");
}

} // namespace ns3
