/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_PATH_MANAGER_H
#define RUDP_CMT_PATH_MANAGER_H

#include "ns3/ipv4-address.h"
#include "ns3/object.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \brief A path of an association: from a local address to one of the peer's.
 */
struct RudpCmtPathEnds
{
    /// the address it is sent from; any: the node's routing picks it (and the interface)
    Ipv4Address local;
    Ipv4Address peer; ///< the peer's address
};

/// \return whether \p a and \p b are the same path
bool operator==(const RudpCmtPathEnds& a, const RudpCmtPathEnds& b);

/**
 * \ingroup rudp-cmt
 * \brief Which paths a RudpCmtSocket's association has, between its own
 * addresses and the peer's (ns3::RudpCmtSocket::PathManager).
 *
 * The association asks when it is set up and whenever an address of
 * either end comes or goes; the answer's first path is the primary.
 */
class RudpCmtPathManager : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief The association's paths.
     * \param locals this end's usable addresses (interfaces up), in the
     *        order of the node's interfaces
     * \param peers the peer's addresses, the primary first
     * \return the paths, the primary first; none if there is no peer address
     */
    virtual std::vector<RudpCmtPathEnds> Paths(const std::vector<Ipv4Address>& locals,
                                               const std::vector<Ipv4Address>& peers) const = 0;
};

/**
 * \ingroup rudp-cmt
 * \brief SCTP's paths (RFC 9260 6.4), the default: one per peer address,
 * each leaving by the interface and with the source address the node's
 * routing picks for it.
 *
 * Two peer addresses the routing reaches by the same interface share it;
 * a peer with one address gets one path however many interfaces this end
 * has.
 */
class RudpSctpPaths : public RudpCmtPathManager
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    std::vector<RudpCmtPathEnds> Paths(const std::vector<Ipv4Address>& locals,
                                       const std::vector<Ipv4Address>& peers) const override;
};

/**
 * \ingroup rudp-cmt
 * \brief Linux MPTCP's full mesh: a path from each usable local address to
 * each peer address, each bound to its local address's interface whatever
 * route the node's routing prefers (RudpPathRouting).
 *
 * The paths go peer address by peer address, local address by local
 * address within each, up to MaxPaths; the first is the primary. A phone
 * with Wi-Fi and a cellular interface gets two paths to a server with one
 * address.
 */
class RudpFullMesh : public RudpCmtPathManager
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    std::vector<RudpCmtPathEnds> Paths(const std::vector<Ipv4Address>& locals,
                                       const std::vector<Ipv4Address>& peers) const override;

  private:
    uint32_t m_maxPaths{8}; ///< MaxPaths
};

} // namespace ns3

#endif /* RUDP_CMT_PATH_MANAGER_H */
