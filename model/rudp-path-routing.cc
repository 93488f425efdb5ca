/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-path-routing.h"

#include "ns3/channel.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet.h"
#include "ns3/trace-source-accessor.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpPathRouting");

NS_OBJECT_ENSURE_REGISTERED(RudpPathTag);
NS_OBJECT_ENSURE_REGISTERED(RudpPathRouting);

// ---------------------------------------------------------------------------
// RudpPathTag

TypeId
RudpPathTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpPathTag")
                            .SetParent<Tag>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpPathTag>();
    return tid;
}

TypeId
RudpPathTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

RudpPathTag::RudpPathTag(Ipv4Address local, bool bound)
    : m_local(local),
      m_bound(bound)
{
}

Ipv4Address
RudpPathTag::GetLocal() const
{
    return m_local;
}

bool
RudpPathTag::IsBound() const
{
    return m_bound;
}

uint32_t
RudpPathTag::GetSerializedSize() const
{
    return 5;
}

void
RudpPathTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU32(m_local.Get());
    buffer.WriteU8(m_bound ? 1 : 0);
}

void
RudpPathTag::Deserialize(TagBuffer buffer)
{
    m_local = Ipv4Address(buffer.ReadU32());
    m_bound = buffer.ReadU8() != 0;
}

void
RudpPathTag::Print(std::ostream& os) const
{
    os << "local=" << m_local << (m_bound ? " bound" : "");
}

// ---------------------------------------------------------------------------
// RudpPathRouting

namespace
{

/// \return a route to \p destination through \p gateway on \p device, from \p source
Ptr<Ipv4Route>
MakeRoute(Ipv4Address destination, Ipv4Address gateway, Ipv4Address source, Ptr<NetDevice> device)
{
    Ptr<Ipv4Route> route = Create<Ipv4Route>();
    route->SetDestination(destination);
    route->SetGateway(gateway);
    route->SetSource(source);
    route->SetOutputDevice(device);
    return route;
}

/// \return the node's own route to \p destination (leaving by \p oif if it is set), or null
Ptr<Ipv4Route>
AskRouting(Ptr<Ipv4> ipv4, Ipv4Address destination, Ptr<NetDevice> oif)
{
    Ipv4Header header;
    header.SetDestination(destination);
    Socket::SocketErrno error;
    // An untagged packet: RudpPathRouting leaves it to the others.
    Ptr<Ipv4Route> route =
        ipv4->GetRoutingProtocol()->RouteOutput(Create<Packet>(), header, oif, error);
    // A routing protocol that defers (AODV) answers with the loopback
    // interface, interface 0: no route yet.
    if (!route || ipv4->GetInterfaceForDevice(route->GetOutputDevice()) <= 0)
    {
        return nullptr;
    }
    return route;
}

} // namespace

TypeId
RudpPathRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RudpPathRouting")
            .SetParent<Ipv4RoutingProtocol>()
            .SetGroupName("Rudp")
            .AddConstructor<RudpPathRouting>()
            .AddTraceSource("InterfaceChange",
                            "An interface went up or down, or gained or lost an address "
                            "(interface index, address, RudpPathRouting::Change)",
                            MakeTraceSourceAccessor(&RudpPathRouting::m_changeTrace),
                            "ns3::RudpPathRouting::InterfaceChangeCallback");
    return tid;
}

Ptr<RudpPathRouting>
RudpPathRouting::Install(Ptr<Node> node)
{
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    Ptr<Ipv4ListRouting> list =
        ipv4 ? DynamicCast<Ipv4ListRouting>(ipv4->GetRoutingProtocol()) : nullptr;
    if (!list)
    {
        return nullptr;
    }
    for (uint32_t i = 0; i < list->GetNRoutingProtocols(); ++i)
    {
        int16_t priority;
        if (Ptr<RudpPathRouting> own =
                DynamicCast<RudpPathRouting>(list->GetRoutingProtocol(i, priority)))
        {
            return own;
        }
    }
    Ptr<RudpPathRouting> routing = CreateObject<RudpPathRouting>();
    // First: it answers for tagged datagrams only, and the list asks in
    // order of priority.
    list->AddRoutingProtocol(routing, std::numeric_limits<int16_t>::max());
    routing->WatchLinks();
    return routing;
}

Ptr<Ipv4Route>
RudpPathRouting::RouteFrom(Ipv4Address local, Ipv4Address destination)
{
    const int32_t interface = m_ipv4 ? m_ipv4->GetInterfaceForAddress(local) : -1;
    if (interface <= 0 || !m_ipv4->IsUp(interface))
    {
        return nullptr;
    }
    Ptr<NetDevice> device = m_ipv4->GetNetDevice(interface);
    if (Ptr<Ipv4Route> own = AskRouting(m_ipv4, destination, device);
        own && own->GetOutputDevice() == device)
    {
        return MakeRoute(destination, own->GetGateway(), local, device);
    }
    const auto key = std::make_pair(static_cast<uint32_t>(interface), destination);
    auto found = m_gateways.find(key);
    if (found == m_gateways.end())
    {
        found = m_gateways.emplace(key, NeighbourGateway(interface, destination)).first;
    }
    if (found->second == Ipv4Address::GetAny())
    {
        return nullptr;
    }
    return MakeRoute(destination, found->second, local, device);
}

Ptr<Ipv4Route>
RudpPathRouting::RouteBySource(Ipv4Address local, Ipv4Address destination) const
{
    if (!m_ipv4 || m_ipv4->GetInterfaceForAddress(local) <= 0)
    {
        return nullptr; // not this node's: the node's routing picks the source too
    }
    Ptr<Ipv4Route> own = AskRouting(m_ipv4, destination, nullptr);
    return own ? MakeRoute(destination, own->GetGateway(), local, own->GetOutputDevice()) : nullptr;
}

Ipv4Address
RudpPathRouting::NeighbourGateway(uint32_t interface, Ipv4Address destination) const
{
    Ptr<NetDevice> device = m_ipv4->GetNetDevice(interface);
    Ptr<Channel> channel = device->GetChannel();
    if (!channel)
    {
        return Ipv4Address::GetAny();
    }
    Ipv4Address best = Ipv4Address::GetAny();
    for (std::size_t k = 0; k < channel->GetNDevices(); ++k)
    {
        Ptr<NetDevice> other = channel->GetDevice(k);
        Ptr<Ipv4> neighbour =
            other && other != device ? other->GetNode()->GetObject<Ipv4>() : nullptr;
        const int32_t j = neighbour ? neighbour->GetInterfaceForDevice(other) : -1;
        if (j <= 0 || !neighbour->IsUp(j) || !neighbour->IsForwarding(j))
        {
            continue;
        }
        // Its address on this interface's subnet: the gateway's.
        Ipv4Address address = Ipv4Address::GetAny();
        for (uint32_t a = 0; a < m_ipv4->GetNAddresses(interface); ++a)
        {
            const Ipv4InterfaceAddress mine = m_ipv4->GetAddress(interface, a);
            for (uint32_t b = 0; b < neighbour->GetNAddresses(j); ++b)
            {
                const Ipv4Address theirs = neighbour->GetAddress(j, b).GetLocal();
                if (mine.GetLocal().CombineMask(mine.GetMask()) ==
                    theirs.CombineMask(mine.GetMask()))
                {
                    address = theirs;
                }
            }
        }
        if (address == Ipv4Address::GetAny())
        {
            continue;
        }
        // It reaches the destination, by another of its interfaces (else it
        // would send the datagram back here).
        const bool isDestination = neighbour->GetInterfaceForAddress(destination) >= 0;
        Ptr<Ipv4Route> onward =
            isDestination ? nullptr : AskRouting(neighbour, destination, nullptr);
        if ((isDestination || (onward && onward->GetOutputDevice() != other)) &&
            (best == Ipv4Address::GetAny() || address.Get() < best.Get()))
        {
            best = address;
        }
    }
    NS_LOG_LOGIC("interface " << interface << " reaches " << destination << " through " << best);
    return best;
}

Ptr<Ipv4Route>
RudpPathRouting::RouteOutput(Ptr<Packet> p,
                             const Ipv4Header& header,
                             Ptr<NetDevice> /* oif */,
                             Socket::SocketErrno& sockerr)
{
    RudpPathTag tag;
    if (!p || !p->PeekPacketTag(tag))
    {
        return nullptr; // not a path's: the node's other protocols decide
    }
    Ptr<Ipv4Route> route = tag.IsBound() ? RouteFrom(tag.GetLocal(), header.GetDestination())
                                         : RouteBySource(tag.GetLocal(), header.GetDestination());
    sockerr = route ? Socket::ERROR_NOTERROR : Socket::ERROR_NOROUTETOHOST;
    return route;
}

bool
RudpPathRouting::RouteInput(Ptr<const Packet> /* p */,
                            const Ipv4Header& /* header */,
                            Ptr<const NetDevice> /* idev */,
                            RouteInputCallbacks::Unicast /* ucb */,
                            RouteInputCallbacks::Multicast /* mcb */,
                            RouteInputCallbacks::Local /* lcb */,
                            RouteInputCallbacks::Error /* ecb */)
{
    return false; // forwarding is the other protocols'
}

void
RudpPathRouting::NotifyInterfaceUp(uint32_t interface)
{
    Changed(interface, FirstAddress(interface), INTERFACE_UP);
}

void
RudpPathRouting::NotifyInterfaceDown(uint32_t interface)
{
    Changed(interface, FirstAddress(interface), INTERFACE_DOWN);
}

void
RudpPathRouting::NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    Changed(interface, address.GetLocal(), ADDRESS_ADDED);
}

void
RudpPathRouting::NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address)
{
    Changed(interface, address.GetLocal(), ADDRESS_REMOVED);
}

Ipv4Address
RudpPathRouting::FirstAddress(uint32_t interface) const
{
    return m_ipv4->GetNAddresses(interface) > 0 ? m_ipv4->GetAddress(interface, 0).GetLocal()
                                                : Ipv4Address::GetAny();
}

void
RudpPathRouting::Changed(uint32_t interface, Ipv4Address address, Change change)
{
    NS_LOG_FUNCTION(this << interface << address << change);
    m_gateways.clear();
    m_changeTrace(interface, address, change);
}

void
RudpPathRouting::WatchLinks()
{
    for (uint32_t i = 1; m_ipv4 && i < m_ipv4->GetNInterfaces(); ++i)
    {
        Ptr<LinkWatch> watch = Create<LinkWatch>();
        watch->routing = this;
        watch->interface = i;
        m_ipv4->GetNetDevice(i)->AddLinkChangeCallback(MakeBoundCallback(&LinkWatch::Fire, watch));
        m_linkWatches.push_back(watch);
    }
}

void
RudpPathRouting::LinkWatch::Fire(Ptr<LinkWatch> watch)
{
    RudpPathRouting* routing = watch->routing;
    if (!routing || !routing->m_ipv4)
    {
        return;
    }
    const uint32_t i = watch->interface;
    const bool up = routing->m_ipv4->GetNetDevice(i)->IsLinkUp();
    routing->Changed(i, routing->FirstAddress(i), up ? LINK_UP : LINK_DOWN);
}

void
RudpPathRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    m_ipv4 = ipv4;
}

void
RudpPathRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit /* unit */) const
{
    std::ostream& os = *stream->GetStream();
    os << "RudpPathRouting: multipath paths by source address; gateways found on links:\n";
    for (const auto& [key, gateway] : m_gateways)
    {
        os << "  interface " << key.first << " to " << key.second << " via " << gateway << "\n";
    }
}

void
RudpPathRouting::DoDispose()
{
    for (const Ptr<LinkWatch>& watch : m_linkWatches)
    {
        watch->routing = nullptr;
    }
    m_linkWatches.clear();
    m_ipv4 = nullptr;
    m_gateways.clear();
    Ipv4RoutingProtocol::DoDispose();
}

} // namespace ns3
