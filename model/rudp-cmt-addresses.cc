/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-addresses.h"

#include "ns3/buffer.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtAddresses");

namespace
{

/// \return a buffer holding the bytes of \p payload, to read in network order
Buffer
BufferOf(Ptr<const Packet> payload)
{
    std::vector<uint8_t> bytes(payload->GetSize());
    payload->CopyData(bytes.data(), bytes.size());
    Buffer buffer;
    buffer.AddAtStart(bytes.size());
    buffer.Begin().Write(bytes.data(), bytes.size());
    return buffer;
}

/// \return a payload of the bytes \p buffer holds
Ptr<Packet>
PacketOf(const Buffer& buffer)
{
    return Create<Packet>(buffer.PeekData(), buffer.GetSize());
}

} // namespace

// ---------------------------------------------------------------------------
// RudpCmtInit

bool
RudpCmtInit::IsUsable(Ipv4Address address)
{
    return address != Ipv4Address::GetAny() && !address.IsBroadcast() && !address.IsMulticast() &&
           !address.IsLocalhost();
}

Ptr<Packet>
RudpCmtInit::Encode() const
{
    NS_ASSERT(addresses.size() <= MAX_ADDRESSES);
    Buffer buffer;
    buffer.AddAtStart(KEY_SIZE + 4 * addresses.size());
    Buffer::Iterator out = buffer.Begin();
    out.WriteHtonU64(key);
    for (const Ipv4Address& address : addresses)
    {
        out.WriteHtonU32(address.Get());
    }
    return PacketOf(buffer);
}

bool
RudpCmtInit::Decode(Ptr<const Packet> payload, RudpCmtInit& init)
{
    const uint32_t size = payload->GetSize();
    if (size <= KEY_SIZE || (size - KEY_SIZE) % 4 != 0 || (size - KEY_SIZE) / 4 > MAX_ADDRESSES)
    {
        return false;
    }
    const Buffer buffer = BufferOf(payload);
    Buffer::Iterator in = buffer.Begin();
    init.key = in.ReadNtohU64();
    init.addresses.clear();
    for (uint32_t i = KEY_SIZE; i < size; i += 4)
    {
        const Ipv4Address address(in.ReadNtohU32());
        if (!IsUsable(address))
        {
            return false;
        }
        if (std::find(init.addresses.begin(), init.addresses.end(), address) ==
            init.addresses.end())
        {
            init.addresses.push_back(address);
        }
    }
    return true;
}

// ---------------------------------------------------------------------------
// RudpCmtAddressChange

Ptr<Packet>
RudpCmtAddressChange::Encode() const
{
    NS_ASSERT(!parameters.empty() && parameters.size() <= MAX_PARAMETERS);
    Buffer buffer;
    buffer.AddAtStart(HEADER_SIZE + PARAMETER_SIZE * parameters.size());
    Buffer::Iterator out = buffer.Begin();
    out.WriteHtonU64(tag);
    out.WriteHtonU32(serial);
    for (const Parameter& parameter : parameters)
    {
        out.WriteU8(parameter.type);
        out.WriteU8(parameter.result);
        out.WriteHtonU32(parameter.address.Get());
    }
    return PacketOf(buffer);
}

bool
RudpCmtAddressChange::Decode(Ptr<const Packet> payload, RudpCmtAddressChange& change)
{
    const uint32_t size = payload->GetSize();
    if (size < HEADER_SIZE + PARAMETER_SIZE || (size - HEADER_SIZE) % PARAMETER_SIZE != 0 ||
        (size - HEADER_SIZE) / PARAMETER_SIZE > MAX_PARAMETERS)
    {
        return false;
    }
    const Buffer buffer = BufferOf(payload);
    Buffer::Iterator in = buffer.Begin();
    change.tag = in.ReadNtohU64();
    change.serial = in.ReadNtohU32();
    change.parameters.clear();
    for (uint32_t i = HEADER_SIZE; i < size; i += PARAMETER_SIZE)
    {
        const uint8_t type = in.ReadU8();
        const uint8_t result = in.ReadU8();
        Parameter parameter;
        parameter.address = Ipv4Address(in.ReadNtohU32());
        if ((type != ADD && type != DELETE) || result > REFUSED ||
            !RudpCmtInit::IsUsable(parameter.address))
        {
            return false;
        }
        parameter.type = static_cast<Type>(type);
        parameter.result = static_cast<Result>(result);
        change.parameters.push_back(parameter);
    }
    return true;
}

const char*
RudpCmtAddressChange::TypeName(Type type)
{
    return type == ADD ? "ADD" : "DELETE";
}

// ---------------------------------------------------------------------------
// RudpCmtAddressAnnouncer

void
RudpCmtAddressAnnouncer::SetCallbacks(Callback<void, Ptr<Packet>> send,
                                      Callback<void, uint32_t> unanswered)
{
    m_send = send;
    m_unanswered = unanswered;
    m_timer.SetFunction(MakeCallback(&RudpCmtAddressAnnouncer::Expired, this));
}

void
RudpCmtAddressAnnouncer::Start(uint64_t peerKey, Time rto, Time maxRto, uint32_t maxRetries)
{
    m_outstanding.tag = peerKey;
    m_rto = rto;
    m_maxRto = maxRto;
    m_maxRetries = maxRetries;
    m_running = true;
    SendNext();
}

void
RudpCmtAddressAnnouncer::Stop()
{
    m_running = false;
    m_timer.Cancel();
}

void
RudpCmtAddressAnnouncer::Announce(RudpCmtAddressChange::Type type, Ipv4Address address)
{
    NS_LOG_FUNCTION(this << RudpCmtAddressChange::TypeName(type) << address);
    auto waiting = std::find_if(m_waiting.begin(),
                                m_waiting.end(),
                                [address](const RudpCmtAddressChange::Parameter& parameter) {
                                    return parameter.address == address;
                                });
    if (waiting != m_waiting.end())
    {
        // Not yet asked: the later word replaces it, or cancels it.
        if (waiting->type != type)
        {
            m_waiting.erase(waiting);
        }
        return;
    }
    RudpCmtAddressChange::Parameter parameter;
    parameter.type = type;
    parameter.address = address;
    m_waiting.push_back(parameter);
    SendNext();
}

bool
RudpCmtAddressAnnouncer::IsPending(Ipv4Address address) const
{
    const auto names = [address](const RudpCmtAddressChange::Parameter& parameter) {
        return parameter.address == address;
    };
    return std::any_of(m_waiting.begin(), m_waiting.end(), names) ||
           (m_awaitingAck &&
            std::any_of(m_outstanding.parameters.begin(), m_outstanding.parameters.end(), names));
}

bool
RudpCmtAddressAnnouncer::Acknowledge(const RudpCmtAddressChange& ack,
                                     uint64_t localKey,
                                     std::vector<RudpCmtAddressChange::Parameter>& answered)
{
    if (!m_awaitingAck || ack.tag != localKey || ack.serial != m_outstanding.serial ||
        ack.parameters.size() != m_outstanding.parameters.size())
    {
        return false;
    }
    for (size_t i = 0; i < ack.parameters.size(); ++i)
    {
        const RudpCmtAddressChange::Parameter& asked = m_outstanding.parameters[i];
        const RudpCmtAddressChange::Parameter& told = ack.parameters[i];
        if (told.type != asked.type || told.address != asked.address ||
            told.result == RudpCmtAddressChange::REQUESTED)
        {
            return false;
        }
    }
    NS_LOG_FUNCTION(this << ack.serial);
    answered = ack.parameters;
    m_awaitingAck = false;
    m_timer.Cancel();
    SendNext();
    return true;
}

void
RudpCmtAddressAnnouncer::SendNext()
{
    if (!m_running || m_awaitingAck || m_waiting.empty())
    {
        return;
    }
    m_outstanding.serial = m_nextSerial++;
    m_outstanding.parameters.clear();
    while (!m_waiting.empty() &&
           m_outstanding.parameters.size() < RudpCmtAddressChange::MAX_PARAMETERS)
    {
        m_outstanding.parameters.push_back(m_waiting.front());
        m_waiting.pop_front();
    }
    m_awaitingAck = true;
    m_retries = 0;
    m_timeout = m_rto;
    NS_LOG_LOGIC("asks change " << m_outstanding.serial << " of " << m_outstanding.parameters.size()
                                << " addresses");
    m_send(m_outstanding.Encode());
    m_timer.Set(m_timeout);
}

void
RudpCmtAddressAnnouncer::Expired()
{
    if (!m_running || !m_awaitingAck)
    {
        return;
    }
    if (m_retries >= m_maxRetries)
    {
        m_running = false;
        m_unanswered(m_retries + 1);
        return;
    }
    ++m_retries;
    m_timeout = std::min(2 * m_timeout, m_maxRto); // RFC 5061 5.1 A5: T-4's RTO backed off
    m_send(m_outstanding.Encode());
    m_timer.Set(m_timeout);
}

// ---------------------------------------------------------------------------
// RudpCmtAddressRequests

RudpCmtAddressRequests::Verdict
RudpCmtAddressRequests::Admit(const RudpCmtAddressChange& request, uint64_t localKey) const
{
    if (request.tag != localKey)
    {
        return DROP;
    }
    if (request.serial == m_lastSerial + 1)
    {
        return APPLY;
    }
    return request.serial == m_lastSerial && m_answer ? REPEAT : DROP;
}

void
RudpCmtAddressRequests::Answered(Ptr<const Packet> ack, uint32_t serial)
{
    m_lastSerial = serial;
    m_answer = ack;
}

Ptr<const Packet>
RudpCmtAddressRequests::GetLastAnswer() const
{
    return m_answer;
}

} // namespace ns3
