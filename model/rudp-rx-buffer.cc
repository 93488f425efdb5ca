/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-rx-buffer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpRxBuffer");

NS_OBJECT_ENSURE_REGISTERED(RudpRxBuffer);

TypeId
RudpRxBuffer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpRxBuffer")
                            .SetParent<Object>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpRxBuffer>();
    return tid;
}

void
RudpRxBuffer::SetCapacity(uint32_t bytes)
{
    m_capacity = bytes;
}

uint32_t
RudpRxBuffer::GetCapacity() const
{
    return m_capacity;
}

void
RudpRxBuffer::SetNextRxSequence(SequenceNumber32 seq)
{
    m_nextRx = seq;
}

SequenceNumber32
RudpRxBuffer::NextRxSequence() const
{
    return m_nextRx;
}

void
RudpRxBuffer::AcceptFin()
{
    NS_ASSERT_MSG(m_outOfOrder.empty(), "FIN accepted with a gap before it");
    m_nextRx += 1;
}

RudpRxBuffer::AddResult
RudpRxBuffer::Add(Ptr<Packet> payload, SequenceNumber32 seq, bool keepOutOfOrder)
{
    const uint32_t length = payload->GetSize();
    const SequenceNumber32 end = seq + length;
    if (length == 0 || end <= m_nextRx)
    {
        return DUPLICATE;
    }
    if (seq < m_nextRx)
    {
        // Partly received already: keep the new tail.
        const uint32_t old = m_nextRx - seq;
        payload = payload->CreateFragment(old, length - old);
        seq = m_nextRx;
    }
    const uint32_t size = payload->GetSize();

    if (seq > m_nextRx)
    {
        if (!keepOutOfOrder)
        {
            return OUT_OF_ORDER;
        }
        auto next = m_outOfOrder.lower_bound(seq);
        const bool overlapsNext = next != m_outOfOrder.end() && next->first < seq + size;
        const bool overlapsPrevious =
            next != m_outOfOrder.begin() &&
            std::prev(next)->first + std::prev(next)->second->GetSize() > seq;
        if (overlapsNext || overlapsPrevious)
        {
            // Segments keep their boundaries, so an overlap is a duplicate.
            return DUPLICATE;
        }
        if (size > FreeSpace())
        {
            return NO_SPACE;
        }
        m_outOfOrder.emplace(seq, payload);
        m_outOfOrderBytes += size;
        return OUT_OF_ORDER;
    }

    if (size > FreeSpace())
    {
        return NO_SPACE;
    }
    m_inOrder.push_back(payload);
    m_inOrderBytes += size;
    m_nextRx += size;

    // Close the gap with whatever waited behind it.
    while (!m_outOfOrder.empty() && m_outOfOrder.begin()->first <= m_nextRx)
    {
        auto first = m_outOfOrder.begin();
        Ptr<Packet> waiting = first->second;
        const uint32_t waitingSize = waiting->GetSize();
        const SequenceNumber32 waitingEnd = first->first + waitingSize;
        m_outOfOrderBytes -= waitingSize;
        if (waitingEnd > m_nextRx)
        {
            const uint32_t old = m_nextRx - first->first;
            m_inOrder.push_back(old == 0 ? waiting
                                         : waiting->CreateFragment(old, waitingSize - old));
            m_inOrderBytes += waitingSize - old;
            m_nextRx = waitingEnd;
        }
        m_outOfOrder.erase(first);
    }
    return IN_ORDER;
}

uint32_t
RudpRxBuffer::Available() const
{
    return m_inOrderBytes;
}

uint32_t
RudpRxBuffer::Occupancy() const
{
    return m_inOrderBytes + m_outOfOrderBytes;
}

uint32_t
RudpRxBuffer::FreeSpace() const
{
    return m_capacity > Occupancy() ? m_capacity - Occupancy() : 0;
}

bool
RudpRxBuffer::HasGap() const
{
    return !m_outOfOrder.empty();
}

Ptr<Packet>
RudpRxBuffer::Extract(uint32_t maxSize)
{
    if (m_inOrderBytes == 0 || maxSize == 0)
    {
        return nullptr;
    }
    Ptr<Packet> out;
    uint32_t taken = 0;
    while (taken < maxSize && !m_inOrder.empty())
    {
        Ptr<Packet> front = m_inOrder.front();
        const uint32_t want = maxSize - taken;
        Ptr<Packet> piece;
        if (front->GetSize() <= want)
        {
            piece = front;
            m_inOrder.pop_front();
        }
        else
        {
            piece = front->CreateFragment(0, want);
            m_inOrder.front() = front->CreateFragment(want, front->GetSize() - want);
        }
        taken += piece->GetSize();
        if (!out)
        {
            out = piece->Copy();
        }
        else
        {
            out->AddAtEnd(piece);
        }
    }
    m_inOrderBytes -= taken;
    return out;
}

std::vector<RudpHeader::SackBlock>
RudpRxBuffer::GetSackBlocks(uint32_t maxBlocks) const
{
    std::vector<RudpHeader::SackBlock> blocks;
    for (const auto& [seq, packet] : m_outOfOrder)
    {
        const SequenceNumber32 end = seq + packet->GetSize();
        if (!blocks.empty() && blocks.back().right == seq)
        {
            blocks.back().right = end;
            continue;
        }
        if (blocks.size() == maxBlocks)
        {
            break;
        }
        blocks.push_back({seq, end});
    }
    return blocks;
}

} // namespace ns3
