/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_UDP_DEMUX_H
#define RUDP_UDP_DEMUX_H

#include "ns3/ip-l4-protocol.h"
#include "ns3/ipv4-address.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <unordered_map>

namespace ns3
{

class RudpEndpoint;
class Socket;

/**
 * \ingroup rudp-socket
 * \brief A node's UDP datagrams to RUDP's ports, handed to their
 * RudpEndpoint in constant time.
 *
 * ns-3's UDP finds a datagram's socket by scanning every UDP endpoint of
 * the node (Ipv4EndPointDemux::Lookup), and each RUDP connection that
 * connects has a UDP socket of its own, as a TCP connection has a port of
 * its own: with 10 000 connections on a host, each datagram the host
 * receives cost 10 000 steps. This protocol takes UDP's place as the
 * node's IPv4 protocol 17 and finds the RudpEndpoint bound to a datagram's
 * destination address and port in a hash table (the address bound to,
 * else any address); the endpoint finds the connection of the source
 * address in its own. Every other datagram, and every ICMP error, goes to
 * UDP as before.
 *
 * The ports stay UDP's: each endpoint keeps its bound UDP socket, which
 * holds the port (Bind's rules and errors are UDP's), sends the
 * endpoint's datagrams and receives what this protocol leaves to UDP
 * (broadcast and multicast datagrams, IPv6). A datagram it takes goes
 * through what UDP would do to it on the way: the checksum check when
 * checksums are enabled (Node::ChecksumEnabled), the header and the
 * socket priority tag removed.
 *
 * It cannot see the node's other UDP sockets: one bound to a node address
 * and the port of an endpoint bound to any address, which UDP would prefer
 * for the datagrams to that address, no longer gets them.
 */
class RudpUdpDemux : public IpL4Protocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \param udp the node's UDP, to which it hands what is not RUDP's
    explicit RudpUdpDemux(Ptr<IpL4Protocol> udp);
    ~RudpUdpDemux() override;

    /**
     * \brief The demux of the node of \p udp, put in front of the node's UDP
     * the first time.
     * \param udp a bound socket of ns-3's UDP (ns3::UdpSocketImpl)
     * \return the demux, or null when \p udp is another kind of socket or
     *         its node's IPv4 protocol 17 is not ns-3's UDP (its datagrams
     *         then reach it through UDP alone)
     */
    static Ptr<RudpUdpDemux> Find(Ptr<Socket> udp);

    /**
     * \brief Routes the datagrams to \p local and \p port to \p endpoint.
     * \return false if another endpoint has them already (UDP's Bind keeps
     *         two sockets from one address and port)
     */
    bool Add(Ipv4Address local, uint16_t port, RudpEndpoint* endpoint);
    /// Stops routing to \p endpoint the datagrams to \p local and \p port.
    void Remove(Ipv4Address local, uint16_t port, const RudpEndpoint* endpoint);
    /// \return the endpoints served
    size_t GetNEndpoints() const;
    /// \return the datagrams handed to an endpoint
    uint64_t GetDelivered() const;
    /// \return the datagrams left to UDP
    uint64_t GetPassed() const;

    // IpL4Protocol: UDP's number; what is not RUDP's goes to UDP.
    int GetProtocolNumber() const override;
    RxStatus Receive(Ptr<Packet> packet,
                     const Ipv4Header& header,
                     Ptr<Ipv4Interface> incomingInterface) override;
    RxStatus Receive(Ptr<Packet> packet,
                     const Ipv6Header& header,
                     Ptr<Ipv6Interface> incomingInterface) override;
    void ReceiveIcmp(Ipv4Address icmpSource,
                     uint8_t icmpTtl,
                     uint8_t icmpType,
                     uint8_t icmpCode,
                     uint32_t icmpInfo,
                     Ipv4Address payloadSource,
                     Ipv4Address payloadDestination,
                     const uint8_t payload[8]) override;
    void ReceiveIcmp(Ipv6Address icmpSource,
                     uint8_t icmpTtl,
                     uint8_t icmpType,
                     uint8_t icmpCode,
                     uint32_t icmpInfo,
                     Ipv6Address payloadSource,
                     Ipv6Address payloadDestination,
                     const uint8_t payload[8]) override;
    void SetDownTarget(DownTargetCallback cb) override;
    void SetDownTarget6(DownTargetCallback6 cb) override;
    DownTargetCallback GetDownTarget() const override;
    DownTargetCallback6 GetDownTarget6() const override;

  protected:
    void DoDispose() override;

  private:
    /// \return the key of \p local and \p port in m_endpoints
    static uint64_t Key(Ipv4Address local, uint16_t port);
    /// \return the endpoint a datagram to \p destination and \p port is for, or null
    RudpEndpoint* Lookup(Ipv4Address destination, uint16_t port) const;

    Ptr<IpL4Protocol> m_udp;                                 ///< the node's UDP
    std::unordered_map<uint64_t, RudpEndpoint*> m_endpoints; ///< by bound address and port
    uint64_t m_delivered{0};                                 ///< handed to an endpoint
    uint64_t m_passed{0};                                    ///< left to UDP
};

} // namespace ns3

#endif /* RUDP_UDP_DEMUX_H */
