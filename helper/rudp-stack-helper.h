/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_STACK_HELPER_H
#define RUDP_STACK_HELPER_H

#include "ns3/node-container.h"

namespace ns3
{

/**
 * \ingroup rudp-socket
 * \brief Installs RUDP on nodes that have an Internet stack: aggregates a
 * RudpSocketFactory and a RudpCmtSocketFactory, so that applications can use
 * Protocol = "ns3::RudpSocketFactory" (one path) or
 * "ns3::RudpCmtSocketFactory" (a multipath association).
 */
class RudpStackHelper
{
  public:
    /// \param nodes nodes with an Internet stack (InternetStackHelper)
    void Install(NodeContainer nodes) const;
    /// \param node a node with an Internet stack
    void Install(Ptr<Node> node) const;

    /**
     * \brief Fixes the random streams RUDP uses on \p nodes, as
     * InternetStackHelper::AssignStreams does for its models: two per node,
     * the RudpSocketFactory's (initial sequence numbers) and the
     * RudpCmtSocketFactory's (the multipath heartbeats' jitter and nonces).
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(NodeContainer nodes, int64_t stream) const;
};

} // namespace ns3

#endif /* RUDP_STACK_HELPER_H */
