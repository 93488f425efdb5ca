/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_SOCKET_FACTORY_H
#define RUDP_CMT_SOCKET_FACTORY_H

#include "rudp-cmt-socket.h"

#include "ns3/ipv4-address.h"
#include "ns3/socket-factory.h"

#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \brief Creates RudpCmtSockets (multipath associations) on the node it is
 * aggregated to.
 *
 * RudpStackHelper aggregates it beside RudpSocketFactory; use
 * "ns3::RudpCmtSocketFactory" as an application's Protocol, e.g.
 * BulkSendHelper("ns3::RudpCmtSocketFactory", server). Every socket it
 * creates, and every association they accept, is in its SocketList, so that
 * Config paths reach them as TCP's do:
 * /NodeList/[i]/$ns3::RudpCmtSocketFactory/SocketList/[j]/PathCongestionWindow
 */
class RudpCmtSocketFactory : public SocketFactory
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Ptr<Socket> CreateSocket() override;

    /// Adds an accepted association to the SocketList.
    void AddSocket(Ptr<RudpCmtSocket> socket);
    /**
     * \brief Assigns a fixed random variable stream number to the random
     * variable its sockets and their associations share (their heartbeats'
     * jitter and nonces), those created already and those to come.
     * \param stream the stream index
     * \return the number of stream indices assigned (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Marks an address of the node as a backup (MPTCP's backup
     * flag, e.g. a phone's metered cellular radio): the paths bound to it
     * (RudpFullMesh's) carry data only while no other path is active.
     * For the associations set up after the call.
     * \param local the address (an interface's)
     * \param backup whether it is one
     */
    void SetBackup(Ipv4Address local, bool backup);
    /// \return whether \p local is a backup address
    bool IsBackup(Ipv4Address local) const;

  protected:
    void DoDispose() override;

  private:
    std::vector<Ptr<RudpCmtSocket>> m_sockets;    ///< the sockets created and accepted here
    std::set<Ipv4Address> m_backups;              ///< SetBackup's addresses
    Ptr<UniformRandomVariable> m_heartbeatRandom; ///< shared by its sockets (AssignStreams)
};

} // namespace ns3

#endif /* RUDP_CMT_SOCKET_FACTORY_H */
