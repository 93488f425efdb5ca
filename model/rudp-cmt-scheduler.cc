/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-scheduler.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

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

void
RudpCmtScheduler::SetBlestLambda(const RudpCmtBlest::Lambda& lambda)
{
    m_blest.SetLambda(lambda);
}

const RudpCmtBlest&
RudpCmtScheduler::GetBlest() const
{
    return m_blest;
}

void
RudpCmtScheduler::SetSegmentSize(uint32_t segmentSize)
{
    NS_ABORT_MSG_IF(segmentSize == 0, "RudpCmtScheduler: a segment has at least one byte");
    m_segmentSize = segmentSize;
}

bool
RudpCmtScheduler::LimitsPaths() const
{
    return m_kind == BUFFER_AWARE || m_kind == BLEST ||
           m_splitting.GetVariant() != RudpCmtBufferSplitting::NONE;
}

bool
RudpCmtScheduler::RoutesResends() const
{
    return m_kind == BUFFER_AWARE || m_kind == BLEST;
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
    if (m_kind == BLEST)
    {
        // lambda moves once per round trip of the slowest path: one
        // segment's fate on it is what the estimate was about.
        Time period;
        for (const auto& path : m_paths)
        {
            period = path.active ? std::max(period, path.srtt) : period;
        }
        m_blest.BeginRound(buffers.windowLimited, Simulator::Now(), period);
    }
}

std::optional<uint32_t>
RudpCmtScheduler::Fastest() const
{
    std::optional<uint32_t> fastest;
    for (const auto& path : m_paths)
    {
        if (path.active && (!fastest || Faster(path, m_paths[*fastest])))
        {
            fastest = path.index;
        }
    }
    return fastest;
}

bool
RudpCmtScheduler::BlestWaits(uint32_t index, uint32_t length) const
{
    const std::optional<uint32_t> fastest = Fastest();
    if (!fastest || *fastest == index)
    {
        return false; // the fastest path is limited only by its windows
    }
    return m_blest.Waits(m_paths[*fastest],
                         m_paths.at(index),
                         length,
                         m_segmentSize,
                         m_buffers.PeerBuffer());
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
                        (m_kind != BLEST || !BlestWaits(index, length)) &&
                        m_splitting.Allows(queued, length, m_paths.size(), m_buffers);
    NS_LOG_LOGIC("path " << index << " queued " << queued << " limit "
                         << (limit ? static_cast<int64_t>(*limit) : -1) << ": "
                         << (allows ? "allowed" : "held back"));
    return allows;
}

uint32_t
RudpCmtScheduler::ResendPath(uint32_t assigned, uint32_t length) const
{
    if (m_kind == BLEST)
    {
        // The resend is among the bytes the path has queued already.
        const std::optional<uint32_t> fastest = Fastest();
        return fastest && BlestWaits(assigned, 0) ? *fastest : assigned;
    }
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
RudpCmtBlest::SetLambda(const Lambda& lambda)
{
    NS_ABORT_MSG_UNLESS(lambda.min > 0 && lambda.min <= lambda.initial &&
                            lambda.initial <= lambda.max && lambda.increase >= 0 &&
                            lambda.decrease >= 0,
                        "RudpCmtBlest: lambda needs 0 < min <= initial <= max and steps >= 0");
    m_parameters = lambda;
    m_lambda = lambda.initial;
    m_blocked = false;
    m_lastUpdate.reset();
}

double
RudpCmtBlest::GetLambda() const
{
    return m_lambda;
}

void
RudpCmtBlest::BeginRound(bool windowLimited, Time now, Time period)
{
    m_blocked = m_blocked || windowLimited;
    if (!m_lastUpdate)
    {
        m_lastUpdate = now; // the first period starts with the association's first round
        return;
    }
    if (!period.IsStrictlyPositive() || now - *m_lastUpdate < period)
    {
        return;
    }
    // Blocked: the estimate let too much onto a slow path; free: the slow
    // path may take more.
    m_lambda += m_blocked ? m_parameters.increase : -m_parameters.decrease;
    m_lambda = std::clamp(m_lambda, m_parameters.min, m_parameters.max);
    NS_LOG_LOGIC("BLEST: " << (m_blocked ? "blocked" : "free") << ", lambda " << m_lambda);
    m_blocked = false;
    m_lastUpdate = now;
}

double
RudpCmtBlest::FastBytes(const RudpCmtPathView& fast,
                        const RudpCmtPathView& slow,
                        uint32_t segmentSize)
{
    const double rtts = fast.srtt.IsStrictlyPositive()
                            ? std::max(1.0, slow.srtt.GetSeconds() / fast.srtt.GetSeconds())
                            : 1.0;
    // rtts windows, each a segment larger than the one before
    // (congestion avoidance): rtts * cwnd + MSS * rtts * (rtts - 1) / 2.
    return rtts * (fast.cwnd + segmentSize * (rtts - 1) / 2);
}

bool
RudpCmtBlest::Waits(const RudpCmtPathView& fast,
                    const RudpCmtPathView& slow,
                    uint32_t length,
                    uint32_t segmentSize,
                    uint32_t buffer) const
{
    const double slowBytes = static_cast<double>(slow.queued) + length;
    const double room = slowBytes < buffer ? buffer - slowBytes : 0;
    const double fastBytes = m_lambda * FastBytes(fast, slow, segmentSize);
    NS_LOG_LOGIC("BLEST: path " << fast.index << " sends " << fastBytes << " during path "
                                << slow.index << "'s RTT, room " << room);
    return fastBytes > room;
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
