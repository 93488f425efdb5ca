/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-examples
 * Seed 003's comparison of congestion controls (Cubic, H-TCP, Hybla,
 * Westwood+, Veno, CVTCP, with Reno as the baseline) on the dumbbell of
 * RudpDumbbellHelper, which stands in for the seed's netem testbed: each
 * flow (--flows=algorithm@RTT[+start], e.g. cubic@50ms,newreno@200ms+5s)
 * runs BulkSendApplication to PacketSink over TCP (or RUDP) behind access
 * links that make its propagation RTT; the bottleneck (--rate,
 * --bottleneck-delay) has a FIFO queue (--queue=bfifo|pfifo, --queue-size)
 * and drops data packets at random (--loss). Access links run at
 * --access-rate (10 x --rate by default). Sizes not given follow
 * RudpDumbbellSizing: one BDP of queue, buffers of twice the path's
 * capacity, an initial ssthresh of its fair share.
 *
 * Metrics: per flow, goodput from the bytes that reached its receiver (read
 * by the PacketSink or held by its socket) between its start plus --warmup
 * and the end of the run; utilization, the flows' bytes over
 * what the bottleneck could carry from the first flow's measurement start
 * (so it stays within (0, 1], and equals the sum of goodputs over --rate
 * when the flows start together); Jain's fairness index; the first flow's
 * throughput over the second's; FlowMonitor's delay, jitter and loss.
 *
 * Tracing: --cwnd-trace=PREFIX writes each flow's congestion window,
 * slow-start threshold and congestion state (RudpCwndTrace) and its RTT
 * samples; --pcap=PREFIX every point-to-point device's pcap file;
 * --flowmon-xml=FILE FlowMonitor's XML (RudpTraceOptions).
 *
 *     ./ns3 run "rudp-cc-comparison --flows=cubic@100ms --duration=60 --output=cubic.json"
 *     ./ns3 run "rudp-cc-comparison --rate=10Mbps --queue=pfifo --loss=1e-3 \
 *                --flows=cvtcp@50ms,newreno@50ms --output=friendliness.json"
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-cwnd-trace.h"
#include "ns3/rudp-flow-stats.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-module.h"
#include "ns3/rudp-parameter-check.h"
#include "ns3/rudp-trace-options.h"
#include "ns3/traffic-control-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// One flow of --flows, and what is measured of it.
struct Flow
{
    std::string algorithm;              ///< short name or TypeId name
    Time rtt;                           ///< propagation RTT
    Time start;                         ///< start time
    Ptr<PacketSink> sink;               ///< the receiving application
    uint64_t rxAtMeasureStart{0};       ///< bytes received at start + warm-up
    Ptr<RudpCwndTrace> cwnd;            ///< --cwnd-trace: cwnd, ssthresh and state CSV
    Ptr<OutputStreamWrapper> rttStream; ///< --cwnd-trace: RTT CSV
    Ptr<BulkSendApplication> source;    ///< --cwnd-trace: the sending application
};

/// Parses --flows, algorithm@RTT[+start] comma-separated; \return "" or the problem.
std::string
ParseFlows(const std::string& text, std::vector<Flow>& flows)
{
    flows.clear();
    for (const auto& item : RudpCommandLine::Split(text))
    {
        const size_t at = item.find('@');
        if (at == std::string::npos)
        {
            return "'" + item + "' is not algorithm@RTT[+start], e.g. cubic@50ms or " +
                   "newreno@200ms+5s";
        }
        Flow flow;
        flow.algorithm = item.substr(0, at);
        if (!RudpCongestionNames::IsKnown(flow.algorithm))
        {
            std::string names;
            for (const auto& name : RudpCongestionNames::GetNames())
            {
                names += (names.empty() ? "" : "|") + name;
            }
            return "'" + item + "': unknown algorithm '" + flow.algorithm + "' (" + names +
                   " or the TypeId of a TcpCongestionOps)";
        }
        const std::string rest = item.substr(at + 1);
        const size_t plus = rest.find('+');
        // RTT at most 10 s, far beyond the seed's 200 ms; at least twice
        // --bottleneck-delay, checked once it is known.
        std::string problem =
            RudpCommandLine::CheckTime(rest.substr(0, plus), flow.rtt, Seconds(0), Seconds(10));
        if (problem.empty() && plus != std::string::npos)
        {
            problem = RudpCommandLine::CheckTime(rest.substr(plus + 1),
                                                 flow.start,
                                                 Seconds(0),
                                                 Seconds(100000));
        }
        if (!problem.empty())
        {
            return "'" + item + "': " + problem;
        }
        flows.push_back(flow);
    }
    return flows.size() > 100
               ? "gives " + std::to_string(flows.size()) + " flows; allowed: 1 to 100"
               : "";
}

/// Writes "time_s,value" for an RTT sample.
void
RttChange(Ptr<OutputStreamWrapper> stream, Time /* oldValue */, Time newValue)
{
    *stream->GetStream() << Simulator::Now().GetSeconds() << ',' << newValue.GetSeconds() << '\n';
}

/// Just after the flow's start, when its application has made its socket: --cwnd-trace.
void
ConnectTraces(Flow* flow)
{
    Ptr<Socket> socket = flow->source->GetSocket();
    NS_ABORT_MSG_UNLESS(socket, "the sending application made no socket");
    flow->cwnd->Connect(socket);
    socket->TraceConnectWithoutContext("RTT", MakeBoundCallback(&RttChange, flow->rttStream));
}

/// Notes the bytes received when the flow's measurement starts.
void
MeasureStart(Flow* flow)
{
    flow->rxAtMeasureStart = RudpFlowMetrics::ReceivedBytes(flow->sink);
}

/// Counts packets the bottleneck's error model dropped.
void
CountDrop(uint64_t* drops, Ptr<const Packet> /* packet */)
{
    ++*drops;
}

} // namespace

int
main(int argc, char* argv[])
{
    DataRate rate("100Mbps");
    std::string accessRateText;
    DataRate accessRate;
    std::string queue = "bfifo";
    uint64_t queueSize = 0;
    double loss = 0;
    std::string flowsText = "cubic@50ms";
    std::vector<Flow> flows;
    Time durationTime = Seconds(60);
    Time warmupTime = Seconds(0);
    std::string transport = "tcp";
    uint32_t segmentSize = 1448;
    Time bottleneckDelayTime = MilliSeconds(1);
    uint64_t buffer = 0;
    std::string initialSsThreshText = "auto";
    std::string output;
    std::string cwndTrace;
    RudpTraceOptions tracing;

    RudpCommandLine cmd(__FILE__);
    cmd.AddValue("rate",
                 "Bottleneck data rate (seed: 100Mbps high-BDP, 10Mbps lossy)",
                 rate,
                 DataRate("1kbps"),
                 DataRate("100Gbps"));
    cmd.AddValue("access-rate",
                 "Access links' data rate (default: ten times the bottleneck rate)",
                 accessRateText,
                 "a data rate in [1kbps, 1000Gbps], not below rate",
                 [&accessRate](const std::string& text) {
                     return text.empty() ? ""
                                         : RudpCommandLine::CheckDataRate(text,
                                                                          accessRate,
                                                                          DataRate("1kbps"),
                                                                          DataRate("1000Gbps"));
                 });
    cmd.AddValue("queue", "Bottleneck queue: bytes or packets", queue, {"bfifo", "pfifo"});
    cmd.AddValue("queue-size",
                 "Queue limit in the queue's unit; 0: bfifo one BDP of the largest RTT in bytes, "
                 "pfifo 1000 packets (bfifo at least one 1500-byte packet, pfifo at most 10^6)",
                 queueSize,
                 0,
                 1000000000);
    // The seed's lossy setting goes up to 1 %; at 50 % no window survives.
    cmd.AddValue("loss", "Random loss rate of data packets on the bottleneck", loss, 0.0, 0.5);
    cmd.AddValue("flows",
                 "Flows as algorithm@RTT[+start], comma-separated, e.g. "
                 "cubic@50ms,newreno@200ms+5s (algorithms: newreno, reno, cubic, htcp, hybla, "
                 "westwood, veno, cvtcp, or a TcpCongestionOps TypeId)",
                 flowsText,
                 "1 to 100 flows, RTT above twice bottleneck-delay and at most 10s, start "
                 "before duration",
                 [&flows](const std::string& text) { return ParseFlows(text, flows); });
    cmd.AddValue("duration",
                 "Simulated time (seed: 600s; a bare number is seconds)",
                 durationTime,
                 MilliSeconds(1),
                 Seconds(100000));
    cmd.AddValue("warmup",
                 "Time after each flow's start not measured (start + warmup before duration)",
                 warmupTime,
                 Seconds(0),
                 Seconds(100000));
    cmd.AddValue("transport",
                 "Transport (rudp: ns3::RudpSocketFactory)",
                 transport,
                 {"tcp", "rudp"});
    // TCP: 1500-byte MTU - IPv4 (20) - TCP with timestamps (32) = 1448;
    // RUDP: 1500 - IPv4 (20) - UDP (8) - RUDP (18) = 1454.
    cmd.AddValue("segment-size",
                 "Segment payload in bytes (TCP up to 1448, RUDP 1454: what a 1500-byte MTU "
                 "carries)",
                 segmentSize,
                 64u,
                 1454u);
    cmd.AddValue("bottleneck-delay",
                 "Bottleneck one-way delay",
                 bottleneckDelayTime,
                 Seconds(0),
                 Seconds(1));
    cmd.AddValue("buffer",
                 "Socket send and receive buffers in bytes (0: twice the largest BDP plus the "
                 "queue; else at least 4096, and below 2^30 as sequence numbers compare modulo "
                 "2^32)",
                 buffer,
                 0,
                 1073741823);
    cmd.AddValue("initial-ssthresh",
                 "Initial slow-start threshold: auto (the path's capacity, rate x largest RTT + "
                 "queue, shared by the flows), none (unlimited, ns-3's and Linux's default) or "
                 "bytes",
                 initialSsThreshText,
                 "auto, none, or bytes in [2 segments, 2^32-1]",
                 [](const std::string& text) {
                     uint64_t bytes = 0;
                     return text == "auto" || text == "none" ||
                                    RudpCommandLine::ParseUnsigned(text, bytes)
                                ? ""
                                : "'" + text + "' is not auto, none or a decimal number of bytes";
                 });
    cmd.AddValue("output",
                 "Write the metrics as JSON to this file, also when the run fails",
                 output,
                 "a file path that can be written",
                 RudpCommandLine::WritableFile());
    cmd.AddValue("cwnd-trace",
                 "Write PREFIX-<flow>-cwnd.csv (time_s, cwnd_bytes, ssthresh_bytes, state, "
                 "timeouts: one line per change) and PREFIX-<flow>-rtt.csv per flow",
                 cwndTrace);
    tracing.AddOptions(cmd);
    // The program sets these itself: a --ns3::...=value for them would be overridden.
    for (const std::string transportClass : {"ns3::TcpSocket::", "ns3::RudpSocket::"})
    {
        cmd.SetsAttribute(transportClass + "SegmentSize", "segment-size");
        cmd.SetsAttribute(transportClass + "SndBufSize", "buffer");
        cmd.SetsAttribute(transportClass + "RcvBufSize", "buffer");
    }
    for (const char* attribute : {"ns3::TcpSocket::InitialSlowStartThreshold",
                                  "ns3::RudpSocket::InitialSlowStartThreshold",
                                  "ns3::RudpSocket::InitialSsThresh"}) // its former name
    {
        cmd.SetsAttribute(attribute, "initial-ssthresh");
    }
    for (const char* attribute : {"ns3::TcpL4Protocol::SocketType",
                                  "ns3::RudpSocketFactory::WindowPolicy",
                                  "ns3::RudpSocket::WindowPolicy",
                                  "ns3::RudpSocket::Variant",
                                  "ns3::RudpSocket::CongestionOps"})
    {
        cmd.SetsAttribute(attribute, "flows");
    }
    for (const char* attribute :
         {"WindowSize", "RtoMode", "Sack", "SelectiveRepeat", "DelAckCount", "InitialCwnd"})
    {
        cmd.SetsAttribute(std::string("ns3::RudpSocket::") + attribute);
    }
    cmd.SetsAttribute("ns3::FifoQueueDisc::MaxSize", "queue-size");
    cmd.SetsAttribute("ns3::RateErrorModel::ErrorRate", "loss");
    cmd.Parse(argc, argv);
    if (flows.empty())
    {
        ParseFlows(flowsText, flows); // the default
    }

    // --- What only a combination of options rules out ----------------------------
    const auto transportKind =
        transport == "rudp" ? RudpDumbbellHelper::RUDP : RudpDumbbellHelper::TCP;
    const bool rudp = transportKind == RudpDumbbellHelper::RUDP;
    const bool bfifo = queue == "bfifo";
    if (accessRateText.empty())
    {
        accessRate = DataRate(rate.GetBitRate() * 10);
    }
    if (accessRate < rate)
    {
        RudpParameterCheck::Fail("access-rate",
                                 RudpCommandLine::FormatDataRate(accessRate) +
                                     " is below --rate=" + RudpCommandLine::FormatDataRate(rate) +
                                     "; allowed: at least the bottleneck's rate");
    }
    if (!rudp && segmentSize > 1448)
    {
        RudpParameterCheck::Fail("segment-size",
                                 std::to_string(segmentSize) +
                                     " is too large for TCP; allowed: at most 1448 (a 1500-byte "
                                     "MTU less IPv4 and TCP headers with timestamps)");
    }
    Time maxRtt = Seconds(0);
    Time firstMeasured = durationTime;
    for (const auto& flow : flows)
    {
        const std::string at = "a flow starting at " + RudpCommandLine::FormatTime(flow.start);
        if (!(flow.rtt > bottleneckDelayTime * 2))
        {
            RudpParameterCheck::Fail("flows",
                                     "RTT " + RudpCommandLine::FormatTime(flow.rtt) +
                                         " must exceed twice --bottleneck-delay=" +
                                         RudpCommandLine::FormatTime(bottleneckDelayTime) +
                                         " (the access links need a delay too)");
        }
        if (flow.start >= durationTime)
        {
            RudpParameterCheck::Fail("flows",
                                     at + " does not start before --duration=" +
                                         RudpCommandLine::FormatTime(durationTime));
        }
        if (flow.start + warmupTime >= durationTime)
        {
            RudpParameterCheck::Fail(
                "warmup",
                at + " plus --warmup=" + RudpCommandLine::FormatTime(warmupTime) +
                    " leaves nothing to measure before --duration=" +
                    RudpCommandLine::FormatTime(durationTime));
        }
        maxRtt = std::max(maxRtt, flow.rtt);
        firstMeasured = std::min(firstMeasured, flow.start + warmupTime);
    }

    // --- Sizes (RudpDumbbellSizing) -------------------------------------------------
    const QueueSizeUnit unit = bfifo ? QueueSizeUnit::BYTES : QueueSizeUnit::PACKETS;
    const uint64_t bdpBytes = RudpDumbbellSizing::BdpBytes(rate, maxRtt);
    queueSize = queueSize ? queueSize : RudpDumbbellSizing::DefaultQueueSize(unit, bdpBytes);
    RudpParameterCheck::Range<uint64_t>("queue-size",
                                        queueSize,
                                        bfifo ? 1500 : 1,
                                        bfifo ? 1000000000 : 1000000);
    const uint64_t queueBytes =
        RudpDumbbellSizing::QueueBytes(queueSize,
                                       unit,
                                       RudpDumbbellSizing::WireBytes(segmentSize, transportKind));
    buffer = buffer ? buffer : RudpDumbbellSizing::DefaultBuffer(bdpBytes, queueBytes);
    RudpParameterCheck::Range<uint64_t>("buffer", buffer, 4096, 1073741823);
    uint64_t initialSsThresh = UINT32_MAX;
    if (initialSsThreshText == "auto")
    {
        initialSsThresh =
            RudpDumbbellSizing::InitialSsThresh(bdpBytes, queueBytes, flows.size(), segmentSize);
    }
    else if (initialSsThreshText != "none")
    {
        RudpCommandLine::ParseUnsigned(initialSsThreshText, initialSsThresh);
        RudpParameterCheck::Range<uint64_t>("initial-ssthresh",
                                            initialSsThresh,
                                            2 * segmentSize,
                                            UINT32_MAX);
    }

    // --- Transports: the same settings under each one's names ----------------------
    const std::string socket = rudp ? "ns3::RudpSocket::" : "ns3::TcpSocket::";
    Config::SetDefault(socket + "SegmentSize", UintegerValue(segmentSize));
    Config::SetDefault(socket + "SndBufSize", UintegerValue(buffer));
    Config::SetDefault(socket + "RcvBufSize", UintegerValue(buffer));
    Config::SetDefault(socket + "InitialSlowStartThreshold", UintegerValue(initialSsThresh));
    if (rudp)
    {
        Config::SetDefault("ns3::RudpSocket::WindowSize", UintegerValue(65535)); // no cap
        Config::SetDefault("ns3::RudpSocket::RtoMode", StringValue("Adaptive"));
        Config::SetDefault("ns3::RudpSocket::Sack", BooleanValue(true));
        Config::SetDefault("ns3::RudpSocket::DelAckCount", UintegerValue(2));
        Config::SetDefault("ns3::RudpSocket::InitialCwnd", UintegerValue(10));
    }

    // --- The dumbbell ---------------------------------------------------------------
    RudpDumbbellHelper dumbbell;
    dumbbell.SetBottleneck(rate, bottleneckDelayTime);
    dumbbell.SetAccessRate(accessRate);
    dumbbell.SetQueue(QueueSize(unit, static_cast<uint32_t>(queueSize)));
    dumbbell.SetLoss(loss);
    dumbbell.SetSourceAttribute("MaxBytes", UintegerValue(0));
    dumbbell.SetSourceAttribute("SendSize", UintegerValue(segmentSize));
    for (const auto& flow : flows)
    {
        RudpCongestionNames::SetDefaults(flow.algorithm); // westwood up to ns-3.37
        dumbbell.AddFlow(transportKind,
                         RudpCongestionTypeId(flow.algorithm),
                         flow.rtt,
                         flow.start,
                         durationTime);
    }
    dumbbell.Install();
    dumbbell.AssignStreams(10);
    uint64_t randomDrops = 0;
    dumbbell.GetBottleneckDevices().Get(1)->TraceConnectWithoutContext(
        "PhyRxDrop",
        MakeBoundCallback(&CountDrop, &randomDrops));
    const size_t n = flows.size();
    for (size_t k = 0; k < n; ++k)
    {
        Flow& flow = flows[k];
        flow.sink = dumbbell.GetSink(k);
        flow.source = dumbbell.GetSource(k);
        Simulator::Schedule(flow.start + warmupTime, &MeasureStart, &flow);
        if (!cwndTrace.empty())
        {
            const std::string prefix = cwndTrace + "-" + std::to_string(k);
            flow.cwnd = Create<RudpCwndTrace>(prefix + "-cwnd.csv");
            if (!flow.cwnd->IsGood() || !std::ofstream(prefix + "-rtt.csv"))
            {
                RudpParameterCheck::Fail("cwnd-trace",
                                         "cannot write '" + prefix +
                                             (flow.cwnd->IsGood() ? "-rtt.csv'" : "-cwnd.csv'"));
            }
            flow.rttStream = Create<OutputStreamWrapper>(prefix + "-rtt.csv", std::ios::out);
            *flow.rttStream->GetStream() << "time_s,rtt_s\n";
            // The application makes its socket when it starts.
            Simulator::Schedule(flow.start + TimeStep(1), &ConnectTraces, &flow);
        }
    }
    PointToPointHelper pointToPoint;
    tracing.EnablePcap(pointToPoint); // every point-to-point device

    // A packet not delivered within a few RTTs and a full queue is lost (FlowMonitor's
    // default of 10 s would not count the losses of a short run).
    FlowMonitorHelper flowHelper;
    const double queueDelay = queueBytes * 8.0 / rate.GetBitRate();
    flowHelper.SetMonitorAttribute(
        "MaxPerHopDelay",
        TimeValue(Seconds(std::max(1.0, 4 * (maxRtt.GetSeconds() + queueDelay)))));
    Ptr<FlowMonitor> monitor =
        flowHelper.Install(NodeContainer(dumbbell.GetSenders(), dumbbell.GetReceivers()));
    tracing.SetFlowMonitor(monitor);

    Simulator::Stop(durationTime);
    Simulator::Run();

    // --- Metrics -----------------------------------------------------------------
    const std::vector<RudpFlowSummary> summaries = RudpSummarizeFlows(flowHelper, monitor);
    const uint64_t queueDrops =
        dumbbell.GetBottleneckQueueDiscs().Get(0)->GetStats().nTotalDroppedPackets;
    std::vector<double> throughputs;
    std::vector<RudpJson> flowJson;
    uint64_t measuredBytes = 0;
    std::string failure; // a flow that got nothing through: its connection broke down
    for (size_t k = 0; k < n; ++k)
    {
        const Flow& flow = flows[k];
        const uint64_t bytes = RudpFlowMetrics::ReceivedBytes(flow.sink) - flow.rxAtMeasureStart;
        const double measured =
            durationTime.GetSeconds() - flow.start.GetSeconds() - warmupTime.GetSeconds();
        throughputs.push_back(bytes * 8.0 / measured);
        measuredBytes += bytes;
        if (bytes == 0 && failure.empty())
        {
            failure = "flow " + std::to_string(k) + " (" + flow.algorithm + " @ " +
                      RudpCommandLine::FormatTime(flow.rtt) +
                      ") delivered no byte in its measured interval";
        }
        RudpFlowSummary data;
        for (const auto& summary : summaries)
        {
            if (summary.source == dumbbell.GetSenderAddress(k) &&
                summary.destinationPort == dumbbell.GetPort(k))
            {
                data = summary;
            }
        }
        RudpJson json;
        json.Set("index", static_cast<uint32_t>(k))
            .Set("algorithm", flow.algorithm)
            .Set("type_id", RudpCongestionTypeId(flow.algorithm).GetName())
            .Set("rtt_s", flow.rtt.GetSeconds())
            .Set("start_s", flow.start.GetSeconds())
            .Set("measured_s", measured)
            .Set("bytes", bytes)
            .Set("total_bytes", flow.sink->GetTotalRx())
            .Set("throughput_bps", throughputs.back())
            .Set("mean_delay_s", data.meanDelayS)
            .Set("mean_jitter_s", data.meanJitterS)
            .Set("tx_packets", data.txPackets)
            .Set("rx_packets", data.rxPackets)
            .Set("lost_packets", data.lostPackets)
            .Set("loss_rate",
                 data.txPackets ? static_cast<double>(data.lostPackets) / data.txPackets : 0.0);
        if (flow.cwnd)
        {
            const std::string prefix = cwndTrace + "-" + std::to_string(k);
            json.Set("cwnd_trace", prefix + "-cwnd.csv").Set("rtt_trace", prefix + "-rtt.csv");
            if (!flow.cwnd->Close())
            {
                RudpParameterCheck::Fail("cwnd-trace", "cannot write '" + prefix + "-cwnd.csv'");
            }
        }
        flowJson.push_back(json);
    }
    tracing.WriteFlowMonitor();
    Simulator::Destroy();

    const double utilization = measuredBytes * 8.0 /
                               (static_cast<double>(rate.GetBitRate()) *
                                (durationTime.GetSeconds() - firstMeasured.GetSeconds()));
    const double jain = RudpFlowMetrics::JainIndex(throughputs);
    const double ratio = n == 2 ? throughputs[0] / throughputs[1] : 0.0;
    const bool ok = failure.empty();

    std::cout << std::fixed << std::setprecision(3) << "rudp-cc-comparison: " << transport
              << ", bottleneck " << rate.GetBitRate() / 1e6 << " Mbit/s, " << queue << " "
              << queueSize << (bfifo ? " B" : " packets") << ", loss " << loss << ", "
              << durationTime.GetSeconds() << " s\n";
    for (size_t k = 0; k < n; ++k)
    {
        std::cout << "  flow " << k << ": " << flows[k].algorithm << " @ "
                  << flows[k].rtt.GetSeconds() * 1e3 << " ms from " << flows[k].start.GetSeconds()
                  << " s: " << throughputs[k] / 1e6 << " Mbit/s\n";
    }
    std::cout << "  utilization " << utilization << ", Jain's index " << jain;
    if (n == 2)
    {
        std::cout << ", throughput ratio " << ratio;
    }
    std::cout << ", queue drops " << queueDrops << ", random drops " << randomDrops << std::endl;
    if (!ok)
    {
        std::cerr << "error: the run failed: " << failure << std::endl;
    }

    if (!output.empty())
    {
        RudpJson json;
        json.Set("scenario", "rudp-cc-comparison")
            .Set("ok", ok)
            .Set("failure", failure)
            .Set("transport", transport)
            .Set("rate_bps", static_cast<uint64_t>(rate.GetBitRate()))
            .Set("access_rate_bps", static_cast<uint64_t>(accessRate.GetBitRate()))
            .Set("bottleneck_delay_s", bottleneckDelayTime.GetSeconds())
            .Set("queue", queue)
            .Set("queue_size", queueSize)
            .Set("queue_unit", bfifo ? "bytes" : "packets")
            .Set("loss", loss)
            .Set("duration_s", durationTime.GetSeconds())
            .Set("warmup_s", warmupTime.GetSeconds())
            .Set("segment_size", segmentSize)
            .Set("buffer_bytes", buffer)
            .Set("initial_ssthresh_bytes", initialSsThresh)
            .Set("rng_run", static_cast<uint64_t>(RngSeedManager::GetRun()))
            .Set("flows", flowJson)
            .Set("utilization", utilization)
            .Set("jain_index", jain)
            .Set("queue_drops", queueDrops)
            .Set("random_drops", randomDrops);
        if (rudp)
        {
            json.Set("rudp_variant", "TcpCongestionOps"); // every flow runs its TcpCongestionOps
        }
        if (n == 2)
        {
            json.Set("throughput_ratio", ratio);
        }
        if (!json.Write(output))
        {
            RudpParameterCheck::Fail("output", "cannot write '" + output + "'");
        }
    }
    return ok ? 0 : 1;
}
