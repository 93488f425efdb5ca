/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-flow-metrics.h"

#include "ns3/log.h"
#include "ns3/rudp-socket.h"
#include "ns3/tcp-rx-buffer.h"
#include "ns3/tcp-socket-base.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpFlowMetrics");

double
RudpFlowMetrics::JainIndex(const std::vector<double>& x)
{
    double sum = 0;
    double squares = 0;
    for (double v : x)
    {
        sum += v;
        squares += v * v;
    }
    return squares > 0 ? sum * sum / (x.size() * squares) : 0.0;
}

uint64_t
RudpFlowMetrics::ReceivedBytes(Ptr<PacketSink> sink)
{
    NS_LOG_FUNCTION(sink);
    uint64_t held = 0;
    for (const Ptr<Socket>& socket : sink->GetAcceptedSockets())
    {
        if (const auto tcp = DynamicCast<TcpSocketBase>(socket))
        {
            held += tcp->GetRxBuffer()->Size();
        }
        else if (const auto rudp = DynamicCast<RudpSocket>(socket))
        {
            held += rudp->GetRxBuffer()->Occupancy();
        }
    }
    return sink->GetTotalRx() + held;
}

} // namespace ns3
