/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-endpoint.h"

#include "rudp-udp-demux.h"

#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-packet-info-tag.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/socket.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpEndpoint");

size_t
RudpEndpoint::AddressHash::operator()(const Address& address) const
{
    uint8_t bytes[Address::MAX_SIZE + 2];
    const uint32_t size = address.CopyAllTo(bytes, sizeof(bytes));
    uint64_t hash = 14695981039346656037ULL;
    for (uint32_t i = 0; i < size; ++i)
    {
        hash = (hash ^ bytes[i]) * 1099511628211ULL;
    }
    return static_cast<size_t>(hash);
}

RudpEndpoint::RudpEndpoint(Ptr<Socket> udp)
    : m_udp(udp)
{
    m_udp->SetRecvCallback(MakeCallback(&RudpEndpoint::HandleRead, this));
    m_udp->SetRecvPktInfo(true);
    Address bound;
    if (m_udp->GetSockName(bound) == 0 && InetSocketAddress::IsMatchingType(bound))
    {
        const InetSocketAddress inet = InetSocketAddress::ConvertFrom(bound);
        m_demux = RudpUdpDemux::Find(m_udp);
        if (m_demux && !m_demux->Add(inet.GetIpv4(), inet.GetPort(), this))
        {
            m_demux = nullptr; // another endpoint has the address and port: UDP decides
        }
        m_local = inet.GetIpv4();
        m_port = inet.GetPort();
    }
}

RudpEndpoint::~RudpEndpoint()
{
    if (m_demux)
    {
        m_demux->Remove(m_local, m_port, this);
    }
    m_udp->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    m_udp->Close();
}

void
RudpEndpoint::Remove(Ptr<Socket> socket, const Address& peer)
{
    if (m_listener.socket == socket)
    {
        m_listener = Served{};
    }
    auto connection = m_connections.find(peer);
    if (connection != m_connections.end() && connection->second.socket == socket)
    {
        m_connections.erase(connection);
    }
}

bool
RudpEndpoint::IsRegistered(const Address& peer) const
{
    return m_connections.count(peer) > 0;
}

int
RudpEndpoint::SendTo(Ptr<Packet> packet, const Address& peer)
{
    return m_udp->SendTo(packet, 0, peer);
}

Ptr<Socket>
RudpEndpoint::GetUdpSocket() const
{
    return m_udp;
}

void
RudpEndpoint::HandleRead(Ptr<Socket> udp)
{
    // Keep this endpoint alive while a socket it serves closes and detaches.
    Ptr<RudpEndpoint> self(this);
    Address from;
    Ptr<Packet> packet;
    while ((packet = udp->RecvFrom(from)))
    {
        // The address the datagram was sent to tells a multipath association's
        // paths from one local address apart (RudpFullMesh).
        Ipv4PacketInfoTag info;
        const Ipv4Address local =
            packet->RemovePacketTag(info) ? info.GetAddress() : Ipv4Address::GetAny();
        Deliver(packet, from, local);
    }
}

void
RudpEndpoint::Deliver(Ptr<Packet> packet, const Address& from, Ipv4Address local)
{
    // Keep this endpoint alive while a socket it serves closes and detaches.
    Ptr<RudpEndpoint> self(this);
    auto connection = m_connections.find(from);
    if (connection != m_connections.end())
    {
        const Served served = connection->second; // alive while it takes the datagram
        served.sink->ReceiveDatagram(packet, from, local);
    }
    else if (m_listener.socket)
    {
        const Served served = m_listener;
        served.sink->ReceiveDatagram(packet, from, local);
    }
    else
    {
        NS_LOG_LOGIC("no socket for a datagram from " << from << ": dropped");
    }
}

} // namespace ns3
