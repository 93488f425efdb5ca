/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-tx-buffer.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpTxBuffer");

NS_OBJECT_ENSURE_REGISTERED(RudpTxBuffer);

TypeId
RudpTxBuffer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpTxBuffer")
                            .SetParent<Object>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpTxBuffer>();
    return tid;
}

void
RudpTxBuffer::SetMaxBufferSize(uint32_t bytes)
{
    m_maxBufferSize = bytes;
}

uint32_t
RudpTxBuffer::GetMaxBufferSize() const
{
    return m_maxBufferSize;
}

void
RudpTxBuffer::SetHeadSequence(SequenceNumber32 seq)
{
    NS_ASSERT_MSG(m_sent.empty(), "head sequence set with segments in flight");
    m_head = seq;
    m_highTx = seq;
}

SequenceNumber32
RudpTxBuffer::HeadSequence() const
{
    return m_head;
}

SequenceNumber32
RudpTxBuffer::HighTxMark() const
{
    return m_highTx;
}

bool
RudpTxBuffer::Add(Ptr<Packet> p)
{
    if (p->GetSize() > Available())
    {
        return false;
    }
    if (p->GetSize() > 0)
    {
        m_unsent.push_back(p);
        m_unsentBytes += p->GetSize();
    }
    return true;
}

uint32_t
RudpTxBuffer::Available() const
{
    return m_maxBufferSize - m_unsentBytes - m_sentBytes;
}

uint32_t
RudpTxBuffer::UnsentBytes() const
{
    return m_unsentBytes;
}

bool
RudpTxBuffer::IsEmpty() const
{
    return m_unsentBytes == 0 && m_sent.empty();
}

RudpTxBuffer::Segment&
RudpTxBuffer::Mutable(const Segment& segment)
{
    // The buffer hands out its segments to read only; a reference it gets
    // back names one of its own, which it may change.
    return const_cast<Segment&>(segment);
}

const RudpTxBuffer::Segment&
RudpTxBuffer::NewSegment(uint32_t maxLength)
{
    NS_ASSERT_MSG(maxLength > 0 && m_unsentBytes > 0, "no bytes to cut a segment from");
    Segment segment;
    segment.seq = m_highTx;
    while (segment.length < maxLength && !m_unsent.empty())
    {
        Ptr<Packet> front = m_unsent.front();
        uint32_t take = std::min(front->GetSize() - m_unsentOffset, maxLength - segment.length);
        Ptr<Packet> piece = (m_unsentOffset == 0 && take == front->GetSize())
                                ? front
                                : front->CreateFragment(m_unsentOffset, take);
        if (!segment.payload)
        {
            segment.payload = piece;
        }
        else
        {
            // Several small application writes in one segment: the one copy.
            segment.payload->AddAtEnd(piece);
        }
        segment.length += take;
        m_unsentOffset += take;
        if (m_unsentOffset == front->GetSize())
        {
            m_unsent.pop_front();
            m_unsentOffset = 0;
        }
    }
    m_unsentBytes -= segment.length;
    m_sentBytes += segment.length;
    m_highTx += segment.length;
    m_sent.push_back(segment);
    return m_sent.back();
}

void
RudpTxBuffer::MarkTransmitted(const Segment& sent, Time now)
{
    Segment& segment = Mutable(sent);
    const bool counted = segment.txCount > 0 && segment.InFlight();
    if (!counted)
    {
        m_bytesInFlight += segment.length;
    }
    ClearLost(segment);
    if (segment.sacked)
    {
        // Resent after all: no run of SACKed segments may reach over it.
        const size_t index = IndexAfter(segment.seq);
        for (size_t before = index; before > 0 && m_sent[before - 1].sacked; --before)
        {
            uint32_t& run = m_sent[before - 1].sackedRun;
            run = std::min<uint32_t>(run, index - (before - 1));
        }
        segment.sacked = false;
        segment.sackedRun = 0;
    }
    segment.lastTx = now;
    ++segment.txCount;
    segment.txOrder = ++m_txOrder;
    m_transmissions.emplace_back(segment.txOrder, segment.seq);
}

RudpTxBuffer::AckResult
RudpTxBuffer::DiscardUpTo(SequenceNumber32 ack, Time now, const SegmentCallback& onAcked)
{
    AckResult result;
    while (!m_sent.empty() && m_sent.front().seq < ack)
    {
        Segment& front = m_sent.front();
        if (front.End() > ack)
        {
            // Acknowledged up to the middle: keep the unacknowledged tail.
            uint32_t acked = ack - front.seq;
            if (front.txCount > 0 && front.InFlight())
            {
                m_bytesInFlight -= acked;
            }
            if (front.lost)
            {
                m_lostBytes -= acked;
            }
            front.payload = front.payload->CreateFragment(acked, front.length - acked);
            front.seq = ack;
            front.length -= acked;
            m_sentBytes -= acked;
            result.bytes += acked;
            break;
        }
        if (front.TimesRtt(true))
        {
            result.rtt = now - front.lastTx;
        }
        if (onAcked)
        {
            onAcked(front);
        }
        if (!front.sacked) // a SACKed segment's delivery is noted already
        {
            NoteDelivered(front, now);
        }
        LeaveFlight(front);
        ClearLost(front);
        m_sentBytes -= front.length;
        result.bytes += front.length;
        result.lastTxCount = front.txCount;
        ++result.segments;
        m_sent.pop_front();
    }
    if (ack > m_head)
    {
        m_head = ack;
    }
    ForgetLanded();
    return result;
}

bool
RudpTxBuffer::MarkSacked(SequenceNumber32 left,
                         SequenceNumber32 right,
                         Time now,
                         const SegmentCallback& onSacked)
{
    // Found by sequence number, walked skipping the runs already SACKed: a
    // block that grows by one segment an ACK costs one segment, not the
    // window.
    bool changed = false;
    auto first = std::partition_point(m_sent.begin(), m_sent.end(), [left](const Segment& s) {
        return s.seq < left;
    });
    for (size_t i = first - m_sent.begin(); i < m_sent.size() && m_sent[i].seq < right;)
    {
        Segment& segment = m_sent[i];
        if (segment.sacked)
        {
            i = SkipSacked(i);
            continue;
        }
        if (segment.End() > right)
        {
            break;
        }
        if (onSacked)
        {
            onSacked(segment);
        }
        NoteDelivered(segment, now);
        LeaveFlight(segment);
        ClearLost(segment);
        segment.sacked = true;
        segment.sackedRun = 1;
        if (i + 1 < m_sent.size() && m_sent[i + 1].sacked)
        {
            segment.sackedRun += m_sent[i + 1].sackedRun;
        }
        changed = true;
        ++i;
    }
    return changed;
}

size_t
RudpTxBuffer::SkipSacked(size_t index)
{
    size_t next = index;
    while (next < m_sent.size() && m_sent[next].sacked)
    {
        next += m_sent[next].sackedRun;
    }
    m_sent[index].sackedRun = next - index;
    return next;
}

size_t
RudpTxBuffer::IndexAfter(SequenceNumber32 seq) const
{
    return std::partition_point(m_sent.begin(),
                                m_sent.end(),
                                [seq](const Segment& s) { return s.End() <= seq; }) -
           m_sent.begin();
}

RudpTxBuffer::Segment*
RudpTxBuffer::StillInFlight(const Transmission& transmission)
{
    // Transmission numbers are unique: the segment holding the sequence
    // number (the front, once partly acknowledged) is that transmission's
    // only if its latest carries the same number.
    const size_t index = IndexAfter(transmission.second);
    if (index < m_sent.size() && m_sent[index].txOrder == transmission.first &&
        m_sent[index].InFlight())
    {
        return &m_sent[index];
    }
    return nullptr;
}

void
RudpTxBuffer::ForgetLanded()
{
    while (!m_transmissions.empty() && !StillInFlight(m_transmissions.front()))
    {
        m_transmissions.pop_front();
    }
}

void
RudpTxBuffer::NoteDelivered(const Segment& segment, Time now)
{
    const Time sinceLatest = now - segment.lastTx;
    if (segment.txCount == 1)
    {
        m_minRtt = std::min(m_minRtt, sinceLatest);
    }
    else if (sinceLatest < m_minRtt)
    {
        return;
    }
    m_deliveredOrder = std::max(m_deliveredOrder, segment.txOrder);
}

uint32_t
RudpTxBuffer::MarkOvertakenLost(uint32_t threshold)
{
    NS_LOG_FUNCTION(this << threshold);
    NS_ASSERT_MSG(threshold > 0, "a loss needs at least one transmission overtaking it");
    // Overtaken transmissions are the oldest: taken from the front of the
    // transmission order, never walking the window.
    uint32_t marked = 0;
    while (!m_transmissions.empty() &&
           m_transmissions.front().first + threshold <= m_deliveredOrder)
    {
        if (const Segment* overtaken = StillInFlight(m_transmissions.front()))
        {
            marked += MarkLost(*overtaken) ? 1 : 0;
        }
        m_transmissions.pop_front();
    }
    return marked;
}

uint32_t
RudpTxBuffer::MarkAllLost()
{
    NS_LOG_FUNCTION(this);
    uint32_t marked = 0;
    for (auto& segment : m_sent)
    {
        marked += MarkLost(segment) ? 1 : 0;
    }
    return marked;
}

bool
RudpTxBuffer::MarkLost(const Segment& lost)
{
    Segment& segment = Mutable(lost);
    if (segment.sacked || segment.lost)
    {
        return false;
    }
    LeaveFlight(segment);
    segment.lost = true;
    ++m_lostCount;
    m_lostBytes += segment.length;
    return true;
}

const RudpTxBuffer::Segment*
RudpTxBuffer::FirstLost() const
{
    if (m_lostCount == 0)
    {
        return nullptr;
    }
    for (const auto& segment : m_sent)
    {
        if (segment.lost)
        {
            return &segment;
        }
    }
    NS_ASSERT_MSG(false, "lost count out of step with the segments");
    return nullptr;
}

uint32_t
RudpTxBuffer::BytesInFlight() const
{
    return m_bytesInFlight;
}

void
RudpTxBuffer::ClearLost(Segment& segment)
{
    if (segment.lost)
    {
        segment.lost = false;
        --m_lostCount;
        m_lostBytes -= segment.length;
    }
}

const std::deque<RudpTxBuffer::Segment>&
RudpTxBuffer::GetSegments() const
{
    return m_sent;
}

void
RudpTxBuffer::LeaveFlight(const Segment& segment)
{
    if (segment.InFlight() && segment.txCount > 0)
    {
        m_bytesInFlight -= segment.length;
    }
}

} // namespace ns3
