/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_ENDPOINT_H
#define RUDP_ENDPOINT_H

#include "ns3/address.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <map>

namespace ns3
{

class Packet;
class RudpSocket;
class Socket;

/**
 * \ingroup rudp-socket
 * \brief One UDP socket shared by the RUDP sockets bound to its port.
 *
 * A listening RudpSocket and the connections it accepted all use the
 * listener's UDP port, as TCP connections share their listener's port. The
 * endpoint hands each datagram to the connection of its source address, or
 * else to the listener, which accepts a SYN by forking a new connection.
 */
class RudpEndpoint : public SimpleRefCount<RudpEndpoint>
{
  public:
    /// \param udp a bound UDP socket; the endpoint closes it when destroyed
    explicit RudpEndpoint(Ptr<Socket> udp);
    ~RudpEndpoint();

    RudpEndpoint(const RudpEndpoint&) = delete;
    RudpEndpoint& operator=(const RudpEndpoint&) = delete;

    /// \param listener the listening socket, or nullptr when it closes
    void SetListener(Ptr<RudpSocket> listener);
    /// Routes datagrams from \p peer to \p socket.
    void Register(const Address& peer, Ptr<RudpSocket> socket);
    /// Stops routing to \p socket: as the listener, or as the connection to \p peer.
    void Remove(Ptr<RudpSocket> socket, const Address& peer);

    /**
     * \brief Sends a datagram to \p peer.
     * \return the UDP socket's result
     */
    int SendTo(Ptr<Packet> packet, const Address& peer);
    /// \return the UDP socket
    Ptr<Socket> GetUdpSocket() const;

  private:
    void HandleRead(Ptr<Socket> udp);

    Ptr<Socket> m_udp;
    Ptr<RudpSocket> m_listener;
    std::map<Address, Ptr<RudpSocket>> m_connections;
};

} // namespace ns3

#endif /* RUDP_ENDPOINT_H */
