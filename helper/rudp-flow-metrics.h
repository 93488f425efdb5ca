/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_FLOW_METRICS_H
#define RUDP_FLOW_METRICS_H

#include "ns3/nstime.h"
#include "ns3/packet-sink.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

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

/**
 * \ingroup rudp
 * \brief Measures a bulk flow's goodput after a warm-up: the bytes that
 * reached its receiver (RudpFlowMetrics::ReceivedBytes) from its start plus
 * the warm-up to the end of the run, over that interval.
 *
 * \code
 *   Ptr<RudpGoodputMeter> meter = Create<RudpGoodputMeter>(sink, start, warmup, stop);
 *   Simulator::Stop(stop);
 *   Simulator::Run();
 *   double bps = meter->GetThroughput();
 * \endcode
 */
class RudpGoodputMeter : public SimpleRefCount<RudpGoodputMeter>
{
  public:
    /**
     * \brief Schedules the reading that opens the measured interval, at
     * \p start + \p warmup; create the meter before that time.
     * \param sink the flow's PacketSink
     * \param start the flow's start time
     * \param warmup the time after \p start that is not measured
     * \param stop the end of the measured interval: the end of the run
     */
    RudpGoodputMeter(Ptr<PacketSink> sink, Time start, Time warmup, Time stop);

    /// \return the bytes that reached the receiver from start + warmup until now (0 before)
    uint64_t GetBytes() const;
    /// \return the bytes the sink has read in all (PacketSink::GetTotalRx)
    uint64_t GetTotalBytes() const;
    /// \return the measured interval, stop - start - warmup, in seconds
    double GetMeasuredSeconds() const;
    /// \return GetBytes() over the measured interval, in bit/s; call it at \p stop
    double GetThroughput() const;

  private:
    /// Notes the bytes received when the measured interval opens.
    void Open();

    Ptr<PacketSink> m_sink; ///< the flow's receiving application
    Time m_start;           ///< the flow's start
    Time m_warmup;          ///< not measured after m_start
    Time m_stop;            ///< the end of the measured interval
    bool m_open{false};     ///< the measured interval has opened
    uint64_t m_atOpen{0};   ///< bytes received when it opened
};

} // namespace ns3

#endif /* RUDP_FLOW_METRICS_H */
