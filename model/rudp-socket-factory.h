/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_SOCKET_FACTORY_H
#define RUDP_SOCKET_FACTORY_H

#include "rudp-socket.h"

#include "ns3/socket-factory.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-socket
 * \brief Creates RudpSockets on the node it is aggregated to.
 *
 * Aggregate it with RudpStackHelper, then use "ns3::RudpSocketFactory" as an
 * application's Protocol, as "ns3::TcpSocketFactory" is used for TCP. Every
 * socket it creates, and every connection they accept, is in its SocketList,
 * so that Config paths reach them as TCP's do:
 * /NodeList/[i]/$ns3::RudpSocketFactory/SocketList/[j]/CongestionWindow
 *
 * Its WindowPolicy attribute chooses the window policy of every socket it
 * creates, as TcpL4Protocol's SocketType chooses TCP's congestion control
 * per node: Config::SetDefault("ns3::RudpSocketFactory::WindowPolicy",
 * TypeIdValue(TcpCubic::GetTypeId())) makes every RUDP socket of a script
 * run Cubic, those of stock applications included. Left at
 * ns3::RudpWindowPolicy, each socket keeps its own RudpSocket::WindowPolicy.
 */
class RudpSocketFactory : public SocketFactory
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Ptr<Socket> CreateSocket() override;

    /// Adds an accepted connection to the SocketList.
    void AddSocket(Ptr<RudpSocket> socket);

    /**
     * \brief Fixes the random stream of the initial sequence numbers of
     * every socket this factory creates.
     * \param stream the stream index to use
     * \return the number of stream indices assigned (1)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    std::vector<Ptr<RudpSocket>> m_sockets; ///< the sockets created and accepted here
    Ptr<UniformRandomVariable> m_isn{CreateObject<UniformRandomVariable>()}; ///< ISN draws
    TypeId m_windowPolicy; ///< the sockets' WindowPolicy; RudpWindowPolicy: their own
};

} // namespace ns3

#endif /* RUDP_SOCKET_FACTORY_H */
