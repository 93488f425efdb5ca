/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-heartbeat.h"

#include "ns3/log.h"

#include <algorithm>
#include <array>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtHeartbeat");

namespace
{

/// Writes \p value at \p out, \p bytes bytes, most significant first.
void
WriteBigEndian(uint8_t* out, uint64_t value, uint32_t bytes)
{
    for (uint32_t i = 0; i < bytes; ++i)
    {
        out[i] = static_cast<uint8_t>(value >> (8 * (bytes - 1 - i)));
    }
}

/// \return the \p bytes bytes at \p in, most significant first
uint64_t
ReadBigEndian(const uint8_t* in, uint32_t bytes)
{
    uint64_t value = 0;
    for (uint32_t i = 0; i < bytes; ++i)
    {
        value = value << 8 | in[i];
    }
    return value;
}

} // namespace

Ptr<Packet>
RudpCmtHeartbeatInfo::Encode() const
{
    std::array<uint8_t, SIZE> bytes{};
    WriteBigEndian(bytes.data(), path, 4);
    WriteBigEndian(bytes.data() + 4, static_cast<uint64_t>(sent.GetNanoSeconds()), 8);
    WriteBigEndian(bytes.data() + 12, nonce, 8);
    return Create<Packet>(bytes.data(), bytes.size());
}

bool
RudpCmtHeartbeatInfo::Decode(Ptr<const Packet> payload, RudpCmtHeartbeatInfo& info)
{
    if (payload->GetSize() != SIZE)
    {
        return false;
    }
    std::array<uint8_t, SIZE> bytes{};
    payload->CopyData(bytes.data(), bytes.size());
    info.path = static_cast<uint32_t>(ReadBigEndian(bytes.data(), 4));
    info.sent = NanoSeconds(static_cast<int64_t>(ReadBigEndian(bytes.data() + 4, 8)));
    info.nonce = ReadBigEndian(bytes.data() + 12, 8);
    return true;
}

bool
RudpCmtHeartbeatInfo::operator==(const RudpCmtHeartbeatInfo& other) const
{
    return path == other.path && sent == other.sent && nonce == other.nonce;
}

void
RudpCmtHeartbeat::SetCallbacks(uint32_t path,
                               Callback<void, uint32_t> due,
                               Callback<void, uint32_t> unanswered)
{
    m_path = path;
    m_due = due;
    m_unansweredCallback = unanswered;
    m_timer.SetFunction(MakeCallback(&RudpCmtHeartbeat::Expired, this));
}

void
RudpCmtHeartbeat::ScheduleNext(Time delay)
{
    m_awaiting = false;
    m_dataSent = false;
    m_timer.Set(delay);
}

void
RudpCmtHeartbeat::Sent(const RudpCmtHeartbeatInfo& info, Time answerWithin)
{
    m_lastSent = info.sent;
    m_unanswered.push_back(info);
    if (m_unanswered.size() > MAX_OUTSTANDING)
    {
        m_unanswered.pop_front();
    }
    if (answerWithin.IsStrictlyPositive())
    {
        m_awaiting = true;
        m_timer.Set(answerWithin);
    }
}

bool
RudpCmtHeartbeat::Accept(const RudpCmtHeartbeatInfo& info)
{
    const auto sent = std::find(m_unanswered.begin(), m_unanswered.end(), info);
    if (sent == m_unanswered.end())
    {
        return false;
    }
    m_unanswered.erase(sent);
    if (m_awaiting)
    {
        m_awaiting = false;
        m_timer.Cancel();
    }
    return true;
}

bool
RudpCmtHeartbeat::IsAwaitingAnswer() const
{
    return m_awaiting;
}

Time
RudpCmtHeartbeat::GetLastSent() const
{
    return m_lastSent;
}

void
RudpCmtHeartbeat::DataSent()
{
    m_dataSent = true;
}

bool
RudpCmtHeartbeat::DataSentSinceScheduled() const
{
    return m_dataSent;
}

void
RudpCmtHeartbeat::Stop()
{
    m_timer.Cancel();
    m_awaiting = false;
    m_unanswered.clear();
}

void
RudpCmtHeartbeat::Expired()
{
    if (m_awaiting)
    {
        m_awaiting = false;
        m_unansweredCallback(m_path);
    }
    else
    {
        m_due(m_path);
    }
}

} // namespace ns3
