/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_FLOW_STATS_H
#define RUDP_FLOW_STATS_H

#include "rudp-json.h"

#include "ns3/flow-monitor-helper.h"
#include "ns3/ipv4-address.h"
#include "ns3/rudp-flow-metrics.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-helpers
 * \brief What FlowMonitor measured of one IPv4 flow, in the units a study
 * reports, with the means computed correctly.
 *
 * Mean jitter is jitterSum / (rxPackets - 1): FlowMonitor takes one jitter
 * sample per received packet after the first (seed 001's public scripts
 * divided by rxPackets). Throughput is received bytes over the time from the
 * first transmission to the last reception, in Mbit/s of 10^6 bit/s (the
 * scripts divided by 1024).
 */
struct RudpFlowSummary
{
    Ipv4Address source;          ///< source address
    Ipv4Address destination;     ///< destination address
    uint16_t sourcePort{0};      ///< source port
    uint16_t destinationPort{0}; ///< destination port
    uint8_t protocol{0};         ///< IP protocol number
    uint64_t txPackets{0};       ///< packets sent
    uint64_t rxPackets{0};       ///< packets received
    uint64_t lostPackets{0};     ///< packets FlowMonitor declared lost
    uint64_t txBytes{0};         ///< bytes sent (IP packets)
    uint64_t rxBytes{0};         ///< bytes received (IP packets)
    double throughputMbps{0};    ///< rxBytes over first tx .. last rx (Mbit/s)
    /// rxBytes over first rx .. last rx (Mbit/s): counts n packets' bytes over
    /// n - 1 gaps, which exceeds the line rate for a few back-to-back packets
    double rxSpanThroughputMbps{0};
    double meanDelayS{0};             ///< delaySum / rxPackets (s)
    double meanJitterS{0};            ///< jitterSum / (rxPackets - 1) (s)
    double durationS{0};              ///< first tx .. last rx (s)
    std::vector<double> delayEdgesS;  ///< delay histogram bin edges (s), non-empty span
    std::vector<double> delayCounts;  ///< delay histogram counts
    std::vector<double> jitterEdgesS; ///< jitter histogram bin edges (s)
    std::vector<double> jitterCounts; ///< jitter histogram counts

    /// \return the summary as a JSON object (histograms included if \p histograms)
    RudpJson ToJson(bool histograms = false) const;
};

/**
 * \ingroup rudp-helpers
 * \brief Summaries of every IPv4 flow a FlowMonitor saw.
 * \param helper the helper that installed the monitor (its classifier names the flows)
 * \param monitor the monitor, after Simulator::Run
 * \return one summary per flow, in flow-id order
 */
std::vector<RudpFlowSummary> RudpSummarizeFlows(FlowMonitorHelper& helper,
                                                Ptr<FlowMonitor> monitor);

/**
 * \ingroup rudp-helpers
 * \brief Finds a bulk flow's data direction among FlowMonitor's flows.
 * \param flows the summaries (RudpSummarizeFlows)
 * \param source the sender's address
 * \param destinationPort the port the receiver listens on
 * \return the summary of the flow from \p source to \p destinationPort, or
 *         an empty one (all zero) if FlowMonitor saw none
 */
RudpFlowSummary RudpFindFlow(const std::vector<RudpFlowSummary>& flows,
                             Ipv4Address source,
                             uint16_t destinationPort);

/**
 * \ingroup rudp-helpers
 * \brief Adds a bulk flow's goodput to its JSON record, after the run:
 * measured_s, bytes in the measured interval, total_bytes the sink read,
 * throughput_bps. What a run without FlowMonitor records of a flow.
 * \param json the flow's record
 * \param meter the flow's goodput meter
 */
void RudpAddGoodputMetrics(RudpJson& json, const RudpGoodputMeter& meter);

/**
 * \ingroup rudp-helpers
 * \brief Adds a bulk flow's measurements to its JSON record, after the run:
 * its goodput (measured_s, bytes in the measured interval, total_bytes the
 * sink read, throughput_bps) and FlowMonitor's view of its data packets
 * (mean_delay_s, mean_jitter_s, tx_packets, rx_packets, lost_packets,
 * loss_rate: lost over sent, 0 if none was sent).
 * \param json the flow's record
 * \param meter the flow's goodput meter
 * \param summary FlowMonitor's summary of the flow's data direction (RudpFindFlow)
 */
void RudpAddBulkFlowMetrics(RudpJson& json,
                            const RudpGoodputMeter& meter,
                            const RudpFlowSummary& summary);

} // namespace ns3

#endif /* RUDP_FLOW_STATS_H */
