/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtScheduler");

void
RudpCmtScheduler::SetKind(Kind kind)
{
    m_kind = kind;
}

RudpCmtScheduler::Kind
RudpCmtScheduler::GetKind() const
{
    return m_kind;
}

void
RudpCmtScheduler::SetBufferSplitting(RudpCmtBufferSplitting::Variant variant)
{
    m_splitting.SetVariant(variant);
}

RudpCmtBufferSplitting::Variant
RudpCmtScheduler::GetBufferSplitting() const
{
    return m_splitting.GetVariant();
}

bool
RudpCmtScheduler::LimitsPaths() const
{
    return m_kind == BUFFER_AWARE || m_splitting.GetVariant() != RudpCmtBufferSplitting::NONE;
}

bool
RudpCmtScheduler::ReadsPaths() const
{
    return m_kind != ROUND_ROBIN || LimitsPaths();
}

void
RudpCmtScheduler::Begin(const std::vector<RudpCmtPathView>& paths, const RudpCmtBuffers& buffers)
{
    m_paths = paths;
    m_buffers = buffers;
}

bool
RudpCmtScheduler::Faster(const RudpCmtPathView& a, const RudpCmtPathView& b) const
{
    return a.srtt != b.srtt ? a.srtt < b.srtt : a.index < b.index;
}

std::vector<uint32_t>
RudpCmtScheduler::Order(uint32_t roundRobinStart) const
{
    std::vector<uint32_t> order;
    Order(roundRobinStart, order);
    return order;
}

void
RudpCmtScheduler::Order(uint32_t roundRobinStart, std::vector<uint32_t>& order) const
{
    const uint32_t n = m_paths.size();
    order.resize(n);
    for (uint32_t k = 0; k < n; ++k)
    {
        order[k] = m_kind == ROUND_ROBIN ? (roundRobinStart + k) % n : k;
    }
    if (m_kind != ROUND_ROBIN)
    {
        std::sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
            return Faster(m_paths[a], m_paths[b]);
        });
    }
}

std::optional<uint32_t>
RudpCmtScheduler::QueueLimit(uint32_t index) const
{
    if (m_kind != BUFFER_AWARE)
    {
        return std::nullopt;
    }
    const RudpCmtPathView& path = m_paths.at(index);
    const double buffer = m_buffers.PeerBuffer();
    // While a segment of this path travels, each faster path turns its
    // window srtt_i / srtt_j times; those later segments wait in the
    // receiver's buffer behind it.
    double reserved = 0;
    bool fastest = true;
    for (const auto& other : m_paths)
    {
        if (other.index == index || !other.active || !Faster(other, path))
        {
            continue;
        }
        fastest = false;
        const double ratio = other.srtt.IsStrictlyPositive()
                                 ? path.srtt.GetSeconds() / other.srtt.GetSeconds()
                                 : 1.0;
        reserved += std::min<double>(other.cwnd, buffer) * ratio;
    }
    if (fastest)
    {
        return std::nullopt;
    }
    return reserved >= buffer ? 0 : static_cast<uint32_t>(buffer - reserved);
}

bool
RudpCmtScheduler::Allows(uint32_t index, uint32_t length) const
{
    const std::optional<uint32_t> limit = QueueLimit(index);
    const uint32_t queued = m_paths.at(index).queued;
    const bool allows = (!limit || queued + length <= *limit) &&
                        m_splitting.Allows(queued, length, m_paths.size(), m_buffers);
    NS_LOG_LOGIC("path " << index << " queued " << queued << " limit "
                         << (limit ? static_cast<int64_t>(*limit) : -1) << ": "
                         << (allows ? "allowed" : "held back"));
    return allows;
}

uint32_t
RudpCmtScheduler::ResendPath(uint32_t assigned, uint32_t length) const
{
    const std::optional<uint32_t> limit = QueueLimit(assigned);
    if (m_kind != BUFFER_AWARE || !limit || *limit >= length)
    {
        return assigned;
    }
    for (const uint32_t index : Order(0))
    {
        if (m_paths[index].active)
        {
            return index; // the fastest active path
        }
    }
    return assigned;
}

void
RudpCmtScheduler::Sent(uint32_t index, uint32_t length, bool resend)
{
    if (!resend && index < m_paths.size())
    {
        m_paths[index].queued += length;
    }
}

void
RudpCmtBufferSplitting::SetVariant(Variant variant)
{
    m_variant = variant;
}

RudpCmtBufferSplitting::Variant
RudpCmtBufferSplitting::GetVariant() const
{
    return m_variant;
}

bool
RudpCmtBufferSplitting::Allows(uint32_t queued,
                               uint32_t length,
                               uint32_t paths,
                               const RudpCmtBuffers& buffers) const
{
    NS_ASSERT_MSG(paths > 0, "an association has at least one path");
    if (m_variant == SENDER_SIDE || m_variant == BOTH_SIDES)
    {
        // The path's queued bytes and the new segment within 1/n of the
        // sender's buffer.
        if (static_cast<uint64_t>(queued) + length > buffers.sendBuffer / paths)
        {
            return false;
        }
    }
    if (m_variant == RECEIVER_SIDE || m_variant == BOTH_SIDES)
    {
        // 1/n of the receiver's window, as INET: a_rwnd is SCTP's peerRwnd
        // plus the bytes outstanding, and a path may overbook its share by
        // the one segment it sends.
        if (queued > buffers.peerWindow / paths)
        {
            return false;
        }
    }
    return true;
}

void
RudpCmtChunkRescheduling::SetThreshold(double threshold)
{
    NS_ABORT_MSG_UNLESS(threshold > 0 && threshold <= 1,
                        "RudpCmtChunkRescheduling: the threshold is a fraction in (0, 1]");
    m_threshold = threshold;
}

double
RudpCmtChunkRescheduling::GetThreshold() const
{
    return m_threshold;
}

bool
RudpCmtChunkRescheduling::Blocked(const RudpCmtBuffers& buffers) const
{
    return buffers.heldByPeer > 0 &&
           buffers.heldByPeer >= m_threshold * static_cast<double>(buffers.PeerBuffer());
}

std::optional<uint32_t>
RudpCmtChunkRescheduling::Target(const std::vector<RudpCmtPathView>& paths,
                                 uint32_t headPath,
                                 Time sinceHeadSent) const
{
    std::optional<uint32_t> fastest;
    for (const auto& path : paths)
    {
        if (!path.active || path.inFastRecovery)
        {
            continue;
        }
        if (!fastest || path.srtt < paths[*fastest].srtt)
        {
            fastest = path.index;
        }
    }
    // Back on its own path only once that path has had two RTTs to
    // acknowledge it (INET: a chunk sent more than 2 srtt ago).
    if (fastest && *fastest == headPath && sinceHeadSent <= paths[*fastest].srtt * 2)
    {
        return std::nullopt;
    }
    return fastest;
}

} // namespace ns3
