/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-rx-buffer.h"

#include "ns3/log.h"

#include <algorithm>
#include <array>

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
    NS_LOG_FUNCTION(this << bytes);
    NS_ABORT_MSG_IF(bytes == 0 || bytes > MAX_CAPACITY,
                    "receive buffer of " << bytes << " bytes: 1.." << MAX_CAPACITY);
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

bool
RudpRxBuffer::AcceptFin()
{
    if (!m_outOfOrder.empty())
    {
        NS_LOG_LOGIC("a FIN at " << m_nextRx << " with data beyond it: ignored");
        return false;
    }
    m_nextRx += 1;
    return true;
}

SequenceNumber32
RudpRxBuffer::WindowEnd() const
{
    return m_nextRx + (m_capacity - m_inOrderBytes);
}

RudpRxBuffer::AddResult
RudpRxBuffer::Add(Ptr<Packet> payload, SequenceNumber32 seq, bool keepOutOfOrder)
{
    NS_LOG_FUNCTION(this << seq << payload->GetSize());
    const uint32_t length = payload->GetSize();
    if (length == 0)
    {
        return DUPLICATE;
    }
    // Distance from RCV.NXT in sequence space, modulo 2^32: half of the
    // space lies ahead, half behind.
    uint32_t offset = seq.GetValue() - m_nextRx.GetValue();
    if (offset >= 1u << 31)
    {
        const uint32_t old = m_nextRx.GetValue() - seq.GetValue();
        if (length <= old)
        {
            return DUPLICATE;
        }
        // Partly received already: keep the new tail.
        payload = payload->CreateFragment(old, length - old);
        seq = m_nextRx;
        offset = 0;
    }
    const uint32_t size = payload->GetSize();
    // The window's right edge never moves left, and no byte beyond it was
    // ever allowed to be sent: such a segment is bogus or corrupted.
    if (static_cast<uint64_t>(offset) + size > m_capacity - m_inOrderBytes)
    {
        NS_LOG_LOGIC("[" << seq << ", " << seq + size << ") beyond the window's end "
                         << WindowEnd());
        return OUT_OF_WINDOW;
    }

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
        m_outOfOrder.emplace_hint(next, seq, payload); // where lower_bound found its place
        m_outOfOrderBytes += size;
        AddBlock(seq, seq + size);
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
    while (!m_blocks.empty() && m_blocks.begin()->first <= m_nextRx)
    {
        m_blocks.erase(m_blocks.begin());
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
RudpRxBuffer::WindowReopened(uint32_t freeBefore, uint32_t mss) const
{
    const uint32_t step = std::min(mss, std::max(1u, m_capacity / 2));
    return freeBefore < step && FreeSpace() >= step;
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
    // One stored segment (or its head) per call: merging many would also
    // merge their byte tags, and ns-3 then sizes every later tag list like
    // the largest it has seen (ByteTagList's allocator), which with
    // FlowMonitor's tags costs memory in proportion to the window.
    Ptr<Packet> front = m_inOrder.front();
    Ptr<Packet> piece;
    if (front->GetSize() <= maxSize)
    {
        piece = front;
        m_inOrder.pop_front();
    }
    else
    {
        piece = front->CreateFragment(0, maxSize);
        m_inOrder.front() = front->CreateFragment(maxSize, front->GetSize() - maxSize);
    }
    m_inOrderBytes -= piece->GetSize();
    return piece;
}

void
RudpRxBuffer::AddBlock(SequenceNumber32 seq, SequenceNumber32 end)
{
    // Segments of one path arrive in order, so a segment most often
    // extends the block before it: that block's right edge moves, and no
    // node is taken out and made again.
    auto next = m_blocks.lower_bound(seq);
    const bool joinsNext = next != m_blocks.end() && next->first == end;
    if (next != m_blocks.begin() && std::prev(next)->second == seq)
    {
        auto previous = std::prev(next);
        previous->second = joinsNext ? next->second : end;
        if (joinsNext)
        {
            m_blocks.erase(next);
        }
    }
    else if (joinsNext)
    {
        const SequenceNumber32 right = next->second;
        m_blocks.emplace_hint(m_blocks.erase(next), seq, right);
    }
    else
    {
        m_blocks.emplace_hint(next, seq, end);
    }
    if (!m_trackRecent)
    {
        return;
    }

    // Newest first, one entry per block, no more than a SACK can carry.
    m_recent.push_front(seq);
    // On the stack: this runs for every segment that arrives out of order.
    std::array<SequenceNumber32, RudpHeader::MAX_SACK_BLOCKS> kept;
    size_t nKept = 0;
    for (auto it = m_recent.begin(); it != m_recent.end();)
    {
        auto block = FindBlock(*it);
        const bool fresh =
            block != m_blocks.end() &&
            std::find(kept.begin(), kept.begin() + nKept, block->first) == kept.begin() + nKept;
        if (fresh && nKept < kept.size())
        {
            kept[nKept++] = block->first;
            ++it;
        }
        else
        {
            it = m_recent.erase(it);
        }
    }
}

std::map<SequenceNumber32, SequenceNumber32>::const_iterator
RudpRxBuffer::FindBlock(SequenceNumber32 seq) const
{
    auto after = m_blocks.upper_bound(seq);
    if (after == m_blocks.begin())
    {
        return m_blocks.end();
    }
    auto block = std::prev(after);
    return seq < block->second ? block : m_blocks.end();
}

std::vector<RudpHeader::SackBlock>
RudpRxBuffer::GetSackBlocks(uint32_t maxBlocks) const
{
    std::vector<RudpHeader::SackBlock> blocks;
    blocks.reserve(std::min<size_t>(m_blocks.size(), maxBlocks)); // one allocation
    for (auto it = m_blocks.begin(); it != m_blocks.end() && blocks.size() < maxBlocks; ++it)
    {
        blocks.push_back({it->first, it->second});
    }
    return blocks;
}

void
RudpRxBuffer::SetTrackRecent(bool track)
{
    m_trackRecent = track;
    m_recent.clear();
}

std::vector<RudpHeader::SackBlock>
RudpRxBuffer::GetRecentSackBlocks(uint32_t maxBlocks) const
{
    NS_ABORT_MSG_UNLESS(m_trackRecent, "RudpRxBuffer: the order of the blocks is not kept");
    std::vector<RudpHeader::SackBlock> blocks;
    for (const SequenceNumber32& seq : m_recent)
    {
        auto block = FindBlock(seq);
        if (blocks.size() == maxBlocks)
        {
            break;
        }
        // An entry whose block the gap's closing took is skipped.
        const bool listed = block != m_blocks.end() &&
                            std::any_of(blocks.begin(), blocks.end(), [&block](const auto& b) {
                                return b.left == block->first;
                            });
        if (block != m_blocks.end() && !listed)
        {
            blocks.push_back({block->first, block->second});
        }
    }
    return blocks;
}

} // namespace ns3
