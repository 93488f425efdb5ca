/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-flow-metrics.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rudp-socket.h"
#include "ns3/simulator.h"
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

RudpGoodputMeter::RudpGoodputMeter(Ptr<PacketSink> sink, Time start, Time warmup, Time stop)
    : m_sink(sink),
      m_start(start),
      m_warmup(warmup),
      m_stop(stop)
{
    NS_LOG_FUNCTION(this << sink << start << warmup << stop);
    NS_ABORT_MSG_UNLESS(sink, "RudpGoodputMeter: no sink");
    NS_ABORT_MSG_UNLESS(start + warmup < stop,
                        "RudpGoodputMeter: start + warmup must come before stop");
    NS_ABORT_MSG_UNLESS(start + warmup >= Simulator::Now(),
                        "RudpGoodputMeter: the measured interval has begun already");
    Simulator::Schedule(start + warmup - Simulator::Now(),
                        &RudpGoodputMeter::Open,
                        Ptr<RudpGoodputMeter>(this));
}

void
RudpGoodputMeter::Open()
{
    NS_LOG_FUNCTION(this);
    m_atOpen = RudpFlowMetrics::ReceivedBytes(m_sink);
    m_open = true;
}

uint64_t
RudpGoodputMeter::GetBytes() const
{
    return m_open ? RudpFlowMetrics::ReceivedBytes(m_sink) - m_atOpen : 0;
}

uint64_t
RudpGoodputMeter::GetTotalBytes() const
{
    return m_sink->GetTotalRx();
}

double
RudpGoodputMeter::GetMeasuredSeconds() const
{
    // In seconds, term by term, as rudp-cc-comparison has always reported measured_s.
    return m_stop.GetSeconds() - m_start.GetSeconds() - m_warmup.GetSeconds();
}

double
RudpGoodputMeter::GetThroughput() const
{
    return GetBytes() * 8.0 / GetMeasuredSeconds();
}

} // namespace ns3
