/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-flow-stats.h"

#include "ns3/flow-monitor.h"
#include "ns3/ipv4-flow-classifier.h"

#include <sstream>

namespace ns3
{

namespace
{

/// Copies the bins of \p histogram that hold samples, as edges and counts.
/// Takes a copy because Histogram's getters are not const before ns-3.39.
void
CopyHistogram(Histogram histogram, std::vector<double>& edges, std::vector<double>& counts)
{
    uint32_t first = histogram.GetNBins();
    uint32_t last = 0;
    for (uint32_t i = 0; i < histogram.GetNBins(); ++i)
    {
        if (histogram.GetBinCount(i) > 0)
        {
            first = std::min(first, i);
            last = i;
        }
    }
    for (uint32_t i = first; i <= last && first < histogram.GetNBins(); ++i)
    {
        edges.push_back(histogram.GetBinStart(i));
        counts.push_back(histogram.GetBinCount(i));
    }
    if (!edges.empty())
    {
        edges.push_back(histogram.GetBinEnd(last));
    }
}

std::string
ToString(Ipv4Address address)
{
    std::ostringstream os;
    os << address;
    return os.str();
}

} // namespace

RudpJson
RudpFlowSummary::ToJson(bool histograms) const
{
    RudpJson json;
    json.Set("source", ToString(source))
        .Set("destination", ToString(destination))
        .Set("source_port", static_cast<uint32_t>(sourcePort))
        .Set("destination_port", static_cast<uint32_t>(destinationPort))
        .Set("protocol", static_cast<uint32_t>(protocol))
        .Set("tx_packets", txPackets)
        .Set("rx_packets", rxPackets)
        .Set("lost_packets", lostPackets)
        .Set("tx_bytes", txBytes)
        .Set("rx_bytes", rxBytes)
        .Set("throughput_Mbps", throughputMbps)
        .Set("rx_span_throughput_Mbps", rxSpanThroughputMbps)
        .Set("mean_delay_s", meanDelayS)
        .Set("mean_jitter_s", meanJitterS)
        .Set("duration_s", durationS);
    if (histograms)
    {
        json.Set("delay_hist_edges_s", delayEdgesS)
            .Set("delay_hist_counts", delayCounts)
            .Set("jitter_hist_edges_s", jitterEdgesS)
            .Set("jitter_hist_counts", jitterCounts);
    }
    return json;
}

std::vector<RudpFlowSummary>
RudpSummarizeFlows(FlowMonitorHelper& helper, Ptr<FlowMonitor> monitor)
{
    monitor->CheckForLostPackets();
    Ptr<Ipv4FlowClassifier> classifier = DynamicCast<Ipv4FlowClassifier>(helper.GetClassifier());
    std::vector<RudpFlowSummary> flows;
    for (const auto& [id, stats] : monitor->GetFlowStats())
    {
        const Ipv4FlowClassifier::FiveTuple tuple = classifier->FindFlow(id);
        RudpFlowSummary flow;
        flow.source = tuple.sourceAddress;
        flow.destination = tuple.destinationAddress;
        flow.sourcePort = tuple.sourcePort;
        flow.destinationPort = tuple.destinationPort;
        flow.protocol = tuple.protocol;
        flow.txPackets = stats.txPackets;
        flow.rxPackets = stats.rxPackets;
        flow.lostPackets = stats.lostPackets;
        flow.txBytes = stats.txBytes;
        flow.rxBytes = stats.rxBytes;
        if (stats.rxPackets > 0)
        {
            flow.durationS = (stats.timeLastRxPacket - stats.timeFirstTxPacket).GetSeconds();
            flow.throughputMbps =
                flow.durationS > 0 ? stats.rxBytes * 8.0 / flow.durationS / 1e6 : 0;
            const double rxSpan = (stats.timeLastRxPacket - stats.timeFirstRxPacket).GetSeconds();
            flow.rxSpanThroughputMbps = rxSpan > 0 ? stats.rxBytes * 8.0 / rxSpan / 1e6 : 0;
            flow.meanDelayS = stats.delaySum.GetSeconds() / stats.rxPackets;
        }
        if (stats.rxPackets > 1)
        {
            flow.meanJitterS = stats.jitterSum.GetSeconds() / (stats.rxPackets - 1);
        }
        CopyHistogram(stats.delayHistogram, flow.delayEdgesS, flow.delayCounts);
        CopyHistogram(stats.jitterHistogram, flow.jitterEdgesS, flow.jitterCounts);
        flows.push_back(flow);
    }
    return flows;
}

RudpFlowSummary
RudpFindFlow(const std::vector<RudpFlowSummary>& flows,
             Ipv4Address source,
             uint16_t destinationPort)
{
    for (const auto& summary : flows)
    {
        if (summary.source == source && summary.destinationPort == destinationPort)
        {
            return summary;
        }
    }
    return RudpFlowSummary();
}

void
RudpAddGoodputMetrics(RudpJson& json, const RudpGoodputMeter& meter)
{
    json.Set("measured_s", meter.GetMeasuredSeconds())
        .Set("bytes", meter.GetBytes())
        .Set("total_bytes", meter.GetTotalBytes())
        .Set("throughput_bps", meter.GetThroughput());
}

void
RudpAddBulkFlowMetrics(RudpJson& json,
                       const RudpGoodputMeter& meter,
                       const RudpFlowSummary& summary)
{
    RudpAddGoodputMetrics(json, meter);
    json.Set("mean_delay_s", summary.meanDelayS)
        .Set("mean_jitter_s", summary.meanJitterS)
        .Set("tx_packets", summary.txPackets)
        .Set("rx_packets", summary.rxPackets)
        .Set("lost_packets", summary.lostPackets)
        .Set("loss_rate",
             summary.txPackets ? static_cast<double>(summary.lostPackets) / summary.txPackets
                               : 0.0);
}

} // namespace ns3
