/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-udp-demux.h"

#include "rudp-endpoint.h"

#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-interface.h"
#include "ns3/ipv6-route.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/socket.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpUdpDemux");

NS_OBJECT_ENSURE_REGISTERED(RudpUdpDemux);

TypeId
RudpUdpDemux::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpUdpDemux").SetParent<IpL4Protocol>().SetGroupName("Rudp");
    return tid;
}

RudpUdpDemux::RudpUdpDemux(Ptr<IpL4Protocol> udp)
    : m_udp(udp)
{
    NS_LOG_FUNCTION(this << udp);
}

RudpUdpDemux::~RudpUdpDemux() = default;

void
RudpUdpDemux::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_endpoints.clear();
    m_udp = nullptr;
    IpL4Protocol::DoDispose();
}

Ptr<RudpUdpDemux>
RudpUdpDemux::Find(Ptr<Socket> udp)
{
    // Only ns-3's own UDP sockets are reached through the node's UdpL4Protocol.
    if (udp->GetInstanceTypeId().GetName() != "ns3::UdpSocketImpl")
    {
        return nullptr;
    }
    Ptr<Node> node = udp->GetNode();
    Ptr<Ipv4> ipv4 = node ? node->GetObject<Ipv4>() : nullptr;
    if (!ipv4)
    {
        return nullptr;
    }
    Ptr<IpL4Protocol> current = ipv4->GetProtocol(UdpL4Protocol::PROT_NUMBER);
    if (Ptr<RudpUdpDemux> demux = DynamicCast<RudpUdpDemux>(current))
    {
        return demux;
    }
    if (!DynamicCast<UdpL4Protocol>(current))
    {
        return nullptr;
    }
    Ptr<RudpUdpDemux> demux = CreateObject<RudpUdpDemux>(current);
    ipv4->Remove(current);
    ipv4->Insert(demux);
    return demux;
}

uint64_t
RudpUdpDemux::Key(Ipv4Address local, uint16_t port)
{
    return (static_cast<uint64_t>(local.Get()) << 16) | port;
}

bool
RudpUdpDemux::Add(Ipv4Address local, uint16_t port, RudpEndpoint* endpoint)
{
    NS_LOG_FUNCTION(this << local << port << endpoint);
    return m_endpoints.emplace(Key(local, port), endpoint).second;
}

void
RudpUdpDemux::Remove(Ipv4Address local, uint16_t port, const RudpEndpoint* endpoint)
{
    NS_LOG_FUNCTION(this << local << port << endpoint);
    auto found = m_endpoints.find(Key(local, port));
    if (found != m_endpoints.end() && found->second == endpoint)
    {
        m_endpoints.erase(found);
    }
}

size_t
RudpUdpDemux::GetNEndpoints() const
{
    return m_endpoints.size();
}

uint64_t
RudpUdpDemux::GetDelivered() const
{
    return m_delivered;
}

uint64_t
RudpUdpDemux::GetPassed() const
{
    return m_passed;
}

RudpEndpoint*
RudpUdpDemux::Lookup(Ipv4Address destination, uint16_t port) const
{
    // As UDP ranks them: a socket bound to the address before one bound to any.
    auto found = m_endpoints.find(Key(destination, port));
    if (found == m_endpoints.end())
    {
        found = m_endpoints.find(Key(Ipv4Address::GetAny(), port));
    }
    return found == m_endpoints.end() ? nullptr : found->second;
}

int
RudpUdpDemux::GetProtocolNumber() const
{
    return UdpL4Protocol::PROT_NUMBER;
}

IpL4Protocol::RxStatus
RudpUdpDemux::Receive(Ptr<Packet> packet,
                      const Ipv4Header& header,
                      Ptr<Ipv4Interface> incomingInterface)
{
    const Ipv4Address destination = header.GetDestination();
    UdpHeader udp;
    RudpEndpoint* endpoint = nullptr;
    // A broadcast or multicast datagram may be for several sockets: UDP's.
    if (!m_endpoints.empty() && !destination.IsBroadcast() && !destination.IsMulticast() &&
        packet->GetSize() >= udp.GetSerializedSize())
    {
        packet->PeekHeader(udp);
        endpoint = Lookup(destination, udp.GetDestinationPort());
    }
    if (!endpoint)
    {
        ++m_passed;
        return m_udp->Receive(packet, header, incomingInterface);
    }
    if (Node::ChecksumEnabled())
    {
        UdpHeader checked;
        checked.EnableChecksums();
        checked.InitializeChecksum(header.GetSource(), destination, UdpL4Protocol::PROT_NUMBER);
        packet->PeekHeader(checked);
        if (!checked.IsChecksumOk())
        {
            NS_LOG_INFO("bad UDP checksum: dropped");
            return IpL4Protocol::RX_CSUM_FAILED;
        }
    }
    packet->RemoveHeader(udp);
    SocketPriorityTag priority; // as UDP's socket removes it
    packet->RemovePacketTag(priority);
    ++m_delivered;
    endpoint->Deliver(packet,
                      InetSocketAddress(header.GetSource(), udp.GetSourcePort()),
                      destination);
    return IpL4Protocol::RX_OK;
}

IpL4Protocol::RxStatus
RudpUdpDemux::Receive(Ptr<Packet> packet,
                      const Ipv6Header& header,
                      Ptr<Ipv6Interface> incomingInterface)
{
    ++m_passed;
    return m_udp->Receive(packet, header, incomingInterface);
}

void
RudpUdpDemux::ReceiveIcmp(Ipv4Address icmpSource,
                          uint8_t icmpTtl,
                          uint8_t icmpType,
                          uint8_t icmpCode,
                          uint32_t icmpInfo,
                          Ipv4Address payloadSource,
                          Ipv4Address payloadDestination,
                          const uint8_t payload[8])
{
    m_udp->ReceiveIcmp(icmpSource,
                       icmpTtl,
                       icmpType,
                       icmpCode,
                       icmpInfo,
                       payloadSource,
                       payloadDestination,
                       payload);
}

void
RudpUdpDemux::ReceiveIcmp(Ipv6Address icmpSource,
                          uint8_t icmpTtl,
                          uint8_t icmpType,
                          uint8_t icmpCode,
                          uint32_t icmpInfo,
                          Ipv6Address payloadSource,
                          Ipv6Address payloadDestination,
                          const uint8_t payload[8])
{
    m_udp->ReceiveIcmp(icmpSource,
                       icmpTtl,
                       icmpType,
                       icmpCode,
                       icmpInfo,
                       payloadSource,
                       payloadDestination,
                       payload);
}

void
RudpUdpDemux::SetDownTarget(DownTargetCallback cb)
{
    m_udp->SetDownTarget(cb);
}

void
RudpUdpDemux::SetDownTarget6(DownTargetCallback6 cb)
{
    m_udp->SetDownTarget6(cb);
}

IpL4Protocol::DownTargetCallback
RudpUdpDemux::GetDownTarget() const
{
    return m_udp->GetDownTarget();
}

IpL4Protocol::DownTargetCallback6
RudpUdpDemux::GetDownTarget6() const
{
    return m_udp->GetDownTarget6();
}

} // namespace ns3
