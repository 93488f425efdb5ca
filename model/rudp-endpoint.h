/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_ENDPOINT_H
#define RUDP_ENDPOINT_H

#include "ns3/address.h"
#include "ns3/ipv4-address.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"
#include "ns3/socket.h"

#include <unordered_map>

namespace ns3
{

class Packet;
class RudpUdpDemux;
class Socket;

/**
 * \ingroup rudp-socket
 * \brief What a socket served by a RudpEndpoint implements: it takes the
 * datagrams of its peer (or, listening, of unknown sources).
 */
class RudpDatagramSink
{
  public:
    virtual ~RudpDatagramSink() = default;
    /**
     * \brief Hands a datagram to this socket.
     * \param packet the datagram, RUDP header first
     * \param from where it came from
     * \param local the address of this node it was sent to (any if unknown)
     */
    virtual void ReceiveDatagram(Ptr<Packet> packet, const Address& from, Ipv4Address local) = 0;
};

/**
 * \ingroup rudp-socket
 * \brief One UDP socket shared by the RUDP sockets bound to its port.
 *
 * A listening socket and the connections it accepted all use the
 * listener's UDP port, as TCP connections share their listener's port. The
 * endpoint hands each datagram to the connection of its source address, or
 * else to the listener, which accepts a SYN by forking a new connection. A
 * multipath association (RudpCmtSocket) is registered under each of its
 * peer's addresses. Both steps take constant time: the node's
 * RudpUdpDemux hands the endpoint the datagrams to its address and port
 * (ns-3's UDP would scan the node's every UDP socket for each), and the
 * endpoint finds the connection in a hash table.
 */
class RudpEndpoint : public SimpleRefCount<RudpEndpoint>
{
  public:
    /**
     * \param udp a bound UDP socket; the endpoint closes it when destroyed.
     *        Its datagrams come through the node's RudpUdpDemux when it is
     *        one of ns-3's UDP sockets bound to an IPv4 address, else
     *        through the socket.
     */
    explicit RudpEndpoint(Ptr<Socket> udp);
    ~RudpEndpoint();

    RudpEndpoint(const RudpEndpoint&) = delete;
    RudpEndpoint& operator=(const RudpEndpoint&) = delete;

    /**
     * \param listener the listening socket (a Socket and a RudpDatagramSink),
     *        or nullptr when it closes
     */
    template <class S>
    void SetListener(Ptr<S> listener)
    {
        m_listener = Served{listener, PeekPointer(listener)};
    }

    /**
     * \brief Routes datagrams from \p peer to \p socket (a Socket and a
     * RudpDatagramSink).
     */
    template <class S>
    void Register(const Address& peer, Ptr<S> socket)
    {
        m_connections[peer] = Served{socket, PeekPointer(socket)};
    }

    /// Stops routing to \p socket: as the listener, or as the connection to \p peer.
    void Remove(Ptr<Socket> socket, const Address& peer);
    /// \return true if a connection takes the datagrams from \p peer
    bool IsRegistered(const Address& peer) const;

    /**
     * \brief Sends a datagram to \p peer.
     * \return the UDP socket's result
     */
    int SendTo(Ptr<Packet> packet, const Address& peer);
    /// \return the UDP socket
    Ptr<Socket> GetUdpSocket() const;

    /**
     * \brief Hands a datagram to the connection of \p from, else to the
     * listener; drops it if there is neither.
     * \param packet the UDP payload
     * \param from the source address and port
     * \param local the address of this node it was sent to (any if unknown)
     */
    void Deliver(Ptr<Packet> packet, const Address& from, Ipv4Address local);

  private:
    void HandleRead(Ptr<Socket> udp);

    /// A socket the endpoint serves: held alive, and reached as a sink.
    struct Served
    {
        Ptr<Socket> socket;              ///< keeps the socket alive while it is served
        RudpDatagramSink* sink{nullptr}; ///< the same object, as a sink
    };

    /// Hashes an address's bytes (FNV-1a), for m_connections.
    struct AddressHash
    {
        /// \return the hash of \p address
        size_t operator()(const Address& address) const;
    };

    Ptr<Socket> m_udp;
    Ptr<RudpUdpDemux> m_demux; ///< the node's, if it serves this endpoint
    Ipv4Address m_local;       ///< the address the demux knows this endpoint by
    uint16_t m_port{0};        ///< the port the demux knows this endpoint by
    Served m_listener;
    std::unordered_map<Address, Served, AddressHash> m_connections; ///< by peer
};

} // namespace ns3

#endif /* RUDP_ENDPOINT_H */
