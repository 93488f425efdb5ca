/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_FLOW_METRICS_H
#define RUDP_FLOW_METRICS_H

#include "ns3/packet-sink.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp
 * \brief Measurements of bulk flows that any scenario can use, over TCP
 * or RUDP alike.
 */
class RudpFlowMetrics
{
  public:
    /**
     * \brief Jain's fairness index, (sum x)^2 / (n sum x^2): 1 when every
     * flow gets the same, 1/n when one gets everything.
     * \param x the flows' throughputs (or any non-negative shares)
     * \return the index, or 0 if every x is 0 or there is none
     */
    static double JainIndex(const std::vector<double>& x);

    /**
     * \brief The bytes that reached a flow's receiver, each once: what
     * \p sink read, plus what its accepted sockets (TcpSocketBase or
     * RudpSocket) hold in their receive buffers, ahead of a gap too.
     *
     * The sink's count alone jumps when a retransmission releases a window
     * of held segments, so over a short interval it could exceed what the
     * bottleneck carried.
     * \param sink the flow's PacketSink
     * \return the bytes
     */
    static uint64_t ReceivedBytes(Ptr<PacketSink> sink);
};

} // namespace ns3

#endif /* RUDP_FLOW_METRICS_H */
