/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-endpoint.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/socket.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpEndpoint");

RudpEndpoint::RudpEndpoint(Ptr<Socket> udp)
    : m_udp(udp)
{
    m_udp->SetRecvCallback(MakeCallback(&RudpEndpoint::HandleRead, this));
}

RudpEndpoint::~RudpEndpoint()
{
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
        auto connection = m_connections.find(from);
        if (connection != m_connections.end())
        {
            const Served served = connection->second; // alive while it takes the datagram
            served.sink->ReceiveDatagram(packet, from);
        }
        else if (m_listener.socket)
        {
            const Served served = m_listener;
            served.sink->ReceiveDatagram(packet, from);
        }
        else
        {
            NS_LOG_LOGIC("no socket for a datagram from " << from << ": dropped");
        }
    }
}

} // namespace ns3
