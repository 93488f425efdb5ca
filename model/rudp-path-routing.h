/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_PATH_ROUTING_H
#define RUDP_PATH_ROUTING_H

#include "rudp-compat.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/simple-ref-count.h"
#include "ns3/tag.h"
#include "ns3/traced-callback.h"

#include <map>
#include <utility>
#include <vector>

namespace ns3
{

class Node;

/**
 * \ingroup rudp-cmt
 * \brief Marks a datagram of a multipath path bound to a local address: it
 * leaves by that address's interface, with that address as its source
 * (RudpPathRouting reads it).
 */
class RudpPathTag : public Tag
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RudpPathTag() = default;
    /**
     * \param local the address the datagram is sent from
     * \param bound true: it leaves by \p local's interface (a path's
     *        datagram); false: by the route the node's routing picks, from
     *        \p local all the same (a reply, from the address its request
     *        came to, as a TCP socket's 4-tuple has it)
     */
    explicit RudpPathTag(Ipv4Address local, bool bound = true);

    /// \return the address the datagram is sent from
    Ipv4Address GetLocal() const;
    /// \return whether the datagram leaves by its local address's interface
    bool IsBound() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

  private:
    Ipv4Address m_local; ///< the source address
    bool m_bound{true};  ///< leaves by m_local's interface
};

/**
 * \ingroup rudp-cmt
 * \brief Source-address routing for the module's multipath paths, as Linux
 * MPTCP's full mesh relies on (a routing table per source address): a
 * datagram carrying a RudpPathTag leaves by its local address's interface
 * whatever route the node's routing prefers for its destination. One whose
 * tag is not bound (a SACK or HEARTBEAT ACK, RudpCmtReceiveEngine) takes
 * the route the node's routing picks, from the tag's address.
 *
 * It sits first in the node's Ipv4ListRouting (Install) and answers only for
 * tagged datagrams; everything else, forwarding included, goes to the
 * node's other routing protocols as before. A tagged datagram takes the
 * route the node's routing has to its destination through that interface
 * (asked with the interface's device as output interface: a static default
 * route on it, LTE's default gateway, or the routing protocol's own route).
 * When the routing has none (global routing keeps only the best route), the
 * next hop is a neighbour on the interface's link that reaches the
 * destination by another of its interfaces, as a host's default gateway on
 * that link would: the lowest such address, a choice made with the
 * simulation's global view as ns-3's global routing makes its own. Neither:
 * no route, and the path carries nothing.
 *
 * Interfaces going up or down, their devices' links going up or down (a
 * Wi-Fi station losing its access point's beacons, and associating again)
 * and addresses added or removed are traced (InterfaceChange), so that the
 * associations on the node follow them.
 */
class RudpPathRouting : public Ipv4RoutingProtocol
{
  public:
    /// RouteInput's callback parameter types in the ns-3 at hand.
    using RouteInputCallbacks =
        rudpcompat::RouteInputCallbacksOf<decltype(&Ipv4RoutingProtocol::RouteInput)>;

    /// What InterfaceChange reports.
    enum Change
    {
        INTERFACE_UP,
        INTERFACE_DOWN,
        ADDRESS_ADDED,
        ADDRESS_REMOVED,
        LINK_UP,   ///< the interface's device reports its link up (NetDevice::IsLinkUp)
        LINK_DOWN, ///< ... down
    };

    /**
     * \brief Callback signature of InterfaceChange.
     * \param [in] interface the interface's index
     * \param [in] address the address added or removed (the interface's first, for up and down)
     * \param [in] change what happened
     */
    typedef void (*InterfaceChangeCallback)(uint32_t interface, Ipv4Address address, Change change);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief The node's instance, put first in its Ipv4ListRouting the first time.
     * \param node a node with an IPv4 stack
     * \return the instance, or null if the node's routing protocol is not an
     *         Ipv4ListRouting (InternetStackHelper's always is)
     */
    static Ptr<RudpPathRouting> Install(Ptr<Node> node);

    /**
     * \brief The next hop a datagram from \p local to \p destination takes.
     * \param local an address of this node
     * \param destination where the datagram goes
     * \return the route, or null if there is none by \p local's interface
     *         (it is down, or nothing there reaches \p destination)
     */
    Ptr<Ipv4Route> RouteFrom(Ipv4Address local, Ipv4Address destination);

    // Ipv4RoutingProtocol
    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p,
                               const Ipv4Header& header,
                               Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    RouteInputCallbacks::Unicast ucb,
                    RouteInputCallbacks::Multicast mcb,
                    RouteInputCallbacks::Local lcb,
                    RouteInputCallbacks::Error ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * \return the route the node's routing picks to \p destination, from
     *         \p local; null if \p local is not this node's or there is none
     */
    Ptr<Ipv4Route> RouteBySource(Ipv4Address local, Ipv4Address destination) const;
    /// \return the gateway a neighbour on \p interface's link offers to \p destination, or any
    Ipv4Address NeighbourGateway(uint32_t interface, Ipv4Address destination) const;
    /// \return \p interface's first address (what InterfaceChange names for up and down), or any
    Ipv4Address FirstAddress(uint32_t interface) const;
    /// Forgets the gateways found: the interfaces changed.
    void Changed(uint32_t interface, Ipv4Address address, Change change);
    /// Follows the links of the node's devices (NetDevice::AddLinkChangeCallback).
    void WatchLinks();

    /**
     * What a device's link-change callback holds: the device cannot forget
     * a callback, and may outlive this object.
     */
    struct LinkWatch : public SimpleRefCount<LinkWatch>
    {
        RudpPathRouting* routing{nullptr}; ///< null once the routing is disposed
        uint32_t interface {
            0
        }; ///< the device's interface
        /// The device's link changed.
        static void Fire(Ptr<LinkWatch> watch);
    };

    Ptr<Ipv4> m_ipv4;
    /// NeighbourGateway's answers, by interface and destination
    std::map<std::pair<uint32_t, Ipv4Address>, Ipv4Address> m_gateways;
    std::vector<Ptr<LinkWatch>> m_linkWatches; ///< one per device followed
    TracedCallback<uint32_t, Ipv4Address, Change> m_changeTrace;
};

} // namespace ns3

#endif /* RUDP_PATH_ROUTING_H */
