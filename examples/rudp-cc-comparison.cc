/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp
 * Seed 003's comparison of congestion controls (Cubic, H-TCP, Hybla,
 * Westwood+, Veno, CVTCP, with Reno as the baseline) on a dumbbell that
 * stands in for the seed's netem testbed:
 *
 *     sender 0 --+                                        +-- receiver 0
 *                 \  access                     access   /
 *                  router L ===== bottleneck ===== router R
 *                 /  (rtt_k)     --rate, FIFO     (rtt_k)  \
 *     sender k --+               --loss                   +-- receiver k
 *
 * Each flow (--flows=algorithm@RTT[+start], e.g. cubic@50ms,newreno@200ms+5s)
 * runs BulkSendApplication to PacketSink over TCP (or RUDP) from its own
 * sender to its own receiver. Its two access links carry the delays that
 * make its propagation RTT: 2 x (2 a_k + --bottleneck-delay) = rtt_k. The
 * bottleneck has a FIFO queue disc (--queue=bfifo|pfifo, --queue-size) and
 * drops data packets at random with probability --loss (a RateErrorModel, as
 * the seed's netem loss). Access links run at --access-rate (10 x --rate by
 * default) and never queue for long.
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

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

/// One flow of --flows.
struct FlowSpec
{
    std::string algorithm; ///< short name or TypeId name
    double rttS{0};        ///< propagation RTT, s
    double startS{0};      ///< start time, s
};

/// A flow's nodes, applications and measurements.
struct Flow
{
    FlowSpec spec;                      ///< what was asked for
    Ptr<Node> sender;                   ///< its sender
    Ptr<Node> receiver;                 ///< its receiver
    Ipv4Address senderAddress;          ///< the sender's address
    uint16_t port{0};                   ///< the receiver's port
    Ptr<BulkSendApplication> source;    ///< the sending application
    Ptr<PacketSink> sink;               ///< the receiving application
    uint64_t rxAtMeasureStart{0};       ///< bytes received at start + warm-up
    Ptr<RudpCwndTrace> cwnd;            ///< --cwnd-trace: cwnd, ssthresh and state CSV
    Ptr<OutputStreamWrapper> rttStream; ///< --cwnd-trace: RTT CSV
    std::string cwndFile;               ///< cwnd CSV name
    std::string rttFile;                ///< RTT CSV name
};

/**
 * \brief Parses --flows: algorithm@RTT[+start], comma-separated, into \p flows.
 * \return "" or the problem (the ranges that depend on other options are
 * checked once every option is known)
 */
std::string
ParseFlows(const std::string& text, std::vector<FlowSpec>& flows)
{
    flows.clear();
    for (const auto& item : RudpCommandLine::Split(text))
    {
        const size_t at = item.find('@');
        if (at == std::string::npos)
        {
            return "'" + item +
                   "' is not algorithm@RTT[+start], e.g. cubic@50ms or "
                   "newreno@200ms+5s";
        }
        FlowSpec flow;
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
        Time rtt;
        Time start;
        // A flow's RTT is at most 10 s, far beyond the seed's 200 ms; the lower
        // bound (twice the bottleneck delay) is checked with --bottleneck-delay.
        std::string problem =
            RudpCommandLine::CheckTime(rest.substr(0, plus), rtt, Seconds(0), Seconds(10));
        if (problem.empty() && plus != std::string::npos)
        {
            problem = RudpCommandLine::CheckTime(rest.substr(plus + 1),
                                                 start,
                                                 Seconds(0),
                                                 Seconds(100000));
        }
        if (!problem.empty())
        {
            return "'" + item + "': " + problem;
        }
        flow.rttS = rtt.GetSeconds();
        flow.startS = start.GetSeconds();
        flows.push_back(flow);
    }
    if (flows.size() > 100)
    {
        return "gives " + std::to_string(flows.size()) + " flows; allowed: 1 to 100";
    }
    return "";
}

/// Parses --initial-ssthresh: auto, none or a number of bytes.
std::string
ParseInitialSsThresh(const std::string& text)
{
    uint64_t bytes = 0;
    if (text == "auto" || text == "none" || RudpCommandLine::ParseUnsigned(text, bytes))
    {
        return "";
    }
    return "'" + text + "' is not auto, none or a decimal number of bytes";
}

/// Parses --access-rate: "" (ten times --rate) or a data rate.
std::string
ParseAccessRate(const std::string& text, DataRate& rate)
{
    return text.empty() ? ""
                        : RudpCommandLine::CheckDataRate(text,
                                                         rate,
                                                         DataRate("1kbps"),
                                                         DataRate("1000Gbps"));
}

/// Jain's fairness index (sum x)^2 / (n sum x^2); 0 if every x is 0.
double
JainIndex(const std::vector<double>& x)
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

/// Writes "time_s,value" for an RTT sample.
void
RttChange(Ptr<OutputStreamWrapper> stream, Time /* oldValue */, Time newValue)
{
    *stream->GetStream() << Simulator::Now().GetSeconds() << ',' << newValue.GetSeconds() << '\n';
}

/**
 * \brief Just after the flow's start, when BulkSendApplication has made its
 * socket: connects the --cwnd-trace traces to it.
 */
void
ConnectTraces(Flow* flow)
{
    Ptr<Socket> socket = flow->source->GetSocket();
    NS_ABORT_MSG_UNLESS(socket, "the sending application made no socket");
    flow->cwnd->Connect(socket);
    socket->TraceConnectWithoutContext("RTT", MakeBoundCallback(&RttChange, flow->rttStream));
}

/**
 * Bytes that reached the flow's receiver, each once: what the sink read plus
 * what its socket holds, ahead of a gap too. The sink's count alone jumps
 * when a retransmission releases a window of held segments, so over a short
 * window it could exceed what the bottleneck carried.
 */
uint64_t
ReceivedBytes(const Flow& flow)
{
    uint64_t held = 0;
    for (const Ptr<Socket>& socket : flow.sink->GetAcceptedSockets())
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
    return flow.sink->GetTotalRx() + held;
}

/// Notes the bytes received when the flow's measurement starts.
void
MeasureStart(Flow* flow)
{
    flow->rxAtMeasureStart = ReceivedBytes(*flow);
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
    std::vector<FlowSpec> specs;
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
    cmd.AddValue(
        "access-rate",
        "Access links' data rate (default: ten times the bottleneck rate)",
        accessRateText,
        "a data rate in [1kbps, 1000Gbps], not below rate",
        [&accessRate](const std::string& text) { return ParseAccessRate(text, accessRate); });
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
                 [&specs](const std::string& text) { return ParseFlows(text, specs); });
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
                 ParseInitialSsThresh);
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
    cmd.SetsAttribute("ns3::TcpSocket::SegmentSize", "segment-size");
    cmd.SetsAttribute("ns3::TcpSocket::SndBufSize", "buffer");
    cmd.SetsAttribute("ns3::TcpSocket::RcvBufSize", "buffer");
    cmd.SetsAttribute("ns3::TcpSocket::InitialSlowStartThreshold", "initial-ssthresh");
    cmd.SetsAttribute("ns3::TcpL4Protocol::SocketType", "flows");
    cmd.SetsAttribute("ns3::RudpSocket::SegmentSize", "segment-size");
    cmd.SetsAttribute("ns3::RudpSocket::SndBufSize", "buffer");
    cmd.SetsAttribute("ns3::RudpSocket::RcvBufSize", "buffer");
    cmd.SetsAttribute("ns3::RudpSocket::InitialSsThresh", "initial-ssthresh");
    cmd.SetsAttribute("ns3::RudpSocketFactory::WindowPolicy", "flows");
    cmd.SetsAttribute("ns3::RudpSocket::WindowPolicy", "flows");
    cmd.SetsAttribute("ns3::RudpSocket::Variant", "flows");
    cmd.SetsAttribute("ns3::RudpSocket::CongestionOps", "flows");
    cmd.SetsAttribute("ns3::RudpSocket::WindowSize");
    cmd.SetsAttribute("ns3::RudpSocket::RtoMode");
    cmd.SetsAttribute("ns3::RudpSocket::SelectiveRepeat");
    cmd.SetsAttribute("ns3::RudpSocket::DelAckCount");
    cmd.SetsAttribute("ns3::RudpSocket::InitialCwnd");
    cmd.SetsAttribute("ns3::FifoQueueDisc::MaxSize", "queue-size");
    cmd.SetsAttribute("ns3::RateErrorModel::ErrorRate", "loss");
    cmd.Parse(argc, argv);
    if (specs.empty())
    {
        ParseFlows(flowsText, specs); // the default
    }

    // --- What only a combination of options rules out ----------------------------
    const double duration = durationTime.GetSeconds();
    const double warmup = warmupTime.GetSeconds();
    const double bottleneckDelay = bottleneckDelayTime.GetSeconds();
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
    const bool bfifo = queue == "bfifo";
    const bool rudp = transport == "rudp";
    if (!rudp && segmentSize > 1448)
    {
        RudpParameterCheck::Fail("segment-size",
                                 std::to_string(segmentSize) +
                                     " is too large for TCP; allowed: at most 1448 (a 1500-byte "
                                     "MTU less IPv4 and TCP headers with timestamps)");
    }
    double maxRtt = 0;
    double firstMeasured = duration;
    for (const auto& spec : specs)
    {
        if (!(spec.rttS > 2 * bottleneckDelay))
        {
            RudpParameterCheck::Fail("flows",
                                     "RTT " + RudpCommandLine::FormatTime(Seconds(spec.rttS)) +
                                         " must exceed twice --bottleneck-delay=" +
                                         RudpCommandLine::FormatTime(bottleneckDelayTime) +
                                         " (the access links need a delay too)");
        }
        if (spec.startS >= duration)
        {
            RudpParameterCheck::Fail("flows",
                                     "a flow starting at " +
                                         RudpCommandLine::FormatTime(Seconds(spec.startS)) +
                                         " does not start before --duration=" +
                                         RudpCommandLine::FormatTime(durationTime));
        }
        if (spec.startS + warmup >= duration)
        {
            RudpParameterCheck::Fail(
                "warmup",
                "a flow starting at " + RudpCommandLine::FormatTime(Seconds(spec.startS)) +
                    " plus --warmup=" + RudpCommandLine::FormatTime(warmupTime) +
                    " leaves nothing to measure before --duration=" +
                    RudpCommandLine::FormatTime(durationTime));
        }
        maxRtt = std::max(maxRtt, spec.rttS);
        firstMeasured = std::min(firstMeasured, spec.startS + warmup);
    }
    const uint64_t bdpBytes = static_cast<uint64_t>(rate.GetBitRate() * maxRtt / 8);
    if (queueSize == 0)
    {
        queueSize = bfifo ? bdpBytes : 1000;
    }
    if (bfifo)
    {
        RudpParameterCheck::Range<uint64_t>("queue-size", queueSize, 1500, 1000000000);
    }
    else
    {
        RudpParameterCheck::Range<uint64_t>("queue-size", queueSize, 1, 1000000);
    }
    // A full-size packet on the wire: payload, TCP (with timestamps) or RUDP,
    // UDP and IPv4 headers, PPP.
    const uint64_t wireBytes = segmentSize + (rudp ? 18 + 8 + 20 + 2 : 32 + 20 + 2);
    const uint64_t queueBytes = bfifo ? queueSize : queueSize * wireBytes;
    if (buffer == 0)
    {
        buffer = std::max<uint64_t>(131072, 2 * (bdpBytes + queueBytes));
    }
    RudpParameterCheck::Range<uint64_t>("buffer", buffer, 4096, 1073741823);
    uint64_t initialSsThresh = UINT32_MAX;
    if (initialSsThreshText == "auto")
    {
        initialSsThresh =
            std::max<uint64_t>((bdpBytes + queueBytes) / specs.size(), 2 * segmentSize);
    }
    else if (initialSsThreshText != "none")
    {
        RudpCommandLine::ParseUnsigned(initialSsThreshText, initialSsThresh);
        RudpParameterCheck::Range<uint64_t>("initial-ssthresh",
                                            initialSsThresh,
                                            2 * segmentSize,
                                            UINT32_MAX);
    }

    // --- Congestion controls -------------------------------------------------------
    // Each sender node runs its flow's algorithm: TcpL4Protocol's SocketType
    // for TCP, RudpSocketFactory's WindowPolicy for RUDP (set below).
    for (const auto& spec : specs)
    {
        RudpCongestionNames::SetDefaults(spec.algorithm);
    }

    if (rudp)
    {
        Config::SetDefault("ns3::RudpSocket::SegmentSize", UintegerValue(segmentSize));
        Config::SetDefault("ns3::RudpSocket::WindowSize", UintegerValue(65535));
        Config::SetDefault("ns3::RudpSocket::SndBufSize", UintegerValue(buffer));
        Config::SetDefault("ns3::RudpSocket::RcvBufSize", UintegerValue(buffer));
        Config::SetDefault("ns3::RudpSocket::RtoMode", StringValue("Adaptive"));
        Config::SetDefault("ns3::RudpSocket::SelectiveRepeat", BooleanValue(true));
        Config::SetDefault("ns3::RudpSocket::DelAckCount", UintegerValue(2));
        Config::SetDefault("ns3::RudpSocket::InitialCwnd", UintegerValue(10));
        Config::SetDefault("ns3::RudpSocket::InitialSsThresh", UintegerValue(initialSsThresh));
    }
    else
    {
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segmentSize));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(buffer));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(buffer));
        Config::SetDefault("ns3::TcpSocket::InitialSlowStartThreshold",
                           UintegerValue(initialSsThresh));
    }

    // --- Topology ----------------------------------------------------------------
    const size_t n = specs.size();
    NodeContainer senders(n);
    NodeContainer receivers(n);
    NodeContainer routers(2);
    InternetStackHelper internet;
    internet.Install(senders);
    internet.Install(receivers);
    internet.Install(routers);
    if (rudp)
    {
        RudpStackHelper rudpStack;
        rudpStack.Install(senders);
        rudpStack.Install(receivers);
        rudpStack.AssignStreams(senders, 100);
        rudpStack.AssignStreams(receivers, 100 + static_cast<int64_t>(n));
    }

    // The bottleneck: the queue disc holds the queue (the device queue one packet).
    PointToPointHelper bottleneckLink;
    bottleneckLink.SetDeviceAttribute("DataRate", DataRateValue(rate));
    bottleneckLink.SetChannelAttribute("Delay", TimeValue(Seconds(bottleneckDelay)));
    bottleneckLink.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
    NetDeviceContainer bottleneck = bottleneckLink.Install(routers.Get(0), routers.Get(1));
    TrafficControlHelper fifo;
    fifo.SetRootQueueDisc(
        "ns3::FifoQueueDisc",
        "MaxSize",
        QueueSizeValue(QueueSize(bfifo ? QueueSizeUnit::BYTES : QueueSizeUnit::PACKETS,
                                 static_cast<uint32_t>(queueSize))));
    QueueDiscContainer queueDiscs = fifo.Install(bottleneck);
    Ptr<RateErrorModel> errorModel = CreateObject<RateErrorModel>();
    errorModel->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    errorModel->SetRate(loss);
    errorModel->AssignStreams(10);
    bottleneck.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(errorModel));
    uint64_t randomDrops = 0;
    bottleneck.Get(1)->TraceConnectWithoutContext("PhyRxDrop",
                                                  MakeBoundCallback(&CountDrop, &randomDrops));
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
    addresses.Assign(bottleneck);

    std::vector<Flow> flows(n);
    TrafficControlHelper noQueueDisc;
    for (size_t k = 0; k < n; ++k)
    {
        Flow& flow = flows[k];
        flow.spec = specs[k];
        flow.sender = senders.Get(k);
        flow.receiver = receivers.Get(k);
        flow.port = static_cast<uint16_t>(5000 + k);
        // rtt = 2 (access + bottleneck + access)
        const double access = (flow.spec.rttS / 2 - bottleneckDelay) / 2;
        PointToPointHelper accessLink;
        accessLink.SetDeviceAttribute("DataRate", DataRateValue(accessRate));
        accessLink.SetChannelAttribute("Delay", TimeValue(Seconds(access)));
        // A sender's burst (a slow start, Hybla's large steps) waits in its NIC
        // rather than being dropped there: the bottleneck alone decides losses.
        accessLink.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("100000p"));
        NetDeviceContainer left = accessLink.Install(flow.sender, routers.Get(0));
        NetDeviceContainer right = accessLink.Install(routers.Get(1), flow.receiver);
        std::ostringstream leftNet;
        std::ostringstream rightNet;
        leftNet << "10." << 1 + k / 250 << "." << k % 250 << ".0";
        rightNet << "10." << 101 + k / 250 << "." << k % 250 << ".0";
        flow.senderAddress =
            Ipv4AddressHelper(leftNet.str().c_str(), "255.255.255.0").Assign(left).GetAddress(0);
        const Ipv4Address receiverAddress =
            Ipv4AddressHelper(rightNet.str().c_str(), "255.255.255.0").Assign(right).GetAddress(1);
        // Access links keep only their device queue: no default FqCoDel that
        // would act on bursts.
        noQueueDisc.Uninstall(left);
        noQueueDisc.Uninstall(right);

        const TypeId algorithm = RudpCongestionTypeId(flow.spec.algorithm);
        if (rudp)
        {
            flow.sender->GetObject<RudpSocketFactory>()->SetAttribute("WindowPolicy",
                                                                      TypeIdValue(algorithm));
        }
        else
        {
            flow.sender->GetObject<TcpL4Protocol>()->SetAttribute("SocketType",
                                                                  TypeIdValue(algorithm));
        }
        const std::string factory = rudp ? "ns3::RudpSocketFactory" : "ns3::TcpSocketFactory";
        PacketSinkHelper sinkHelper(factory, InetSocketAddress(Ipv4Address::GetAny(), flow.port));
        ApplicationContainer sinkApp = sinkHelper.Install(flow.receiver);
        sinkApp.Start(Seconds(0));
        flow.sink = DynamicCast<PacketSink>(sinkApp.Get(0));
        BulkSendHelper bulk(factory, InetSocketAddress(receiverAddress, flow.port));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        bulk.SetAttribute("SendSize", UintegerValue(segmentSize));
        ApplicationContainer sourceApp = bulk.Install(flow.sender);
        sourceApp.Start(Seconds(flow.spec.startS));
        sourceApp.Stop(Seconds(duration));
        flow.source = DynamicCast<BulkSendApplication>(sourceApp.Get(0));

        if (!cwndTrace.empty())
        {
            flow.cwndFile = cwndTrace + "-" + std::to_string(k) + "-cwnd.csv";
            flow.rttFile = cwndTrace + "-" + std::to_string(k) + "-rtt.csv";
            flow.cwnd = Create<RudpCwndTrace>(flow.cwndFile);
            if (!flow.cwnd->IsGood() || !std::ofstream(flow.rttFile))
            {
                RudpParameterCheck::Fail(
                    "cwnd-trace",
                    "cannot write '" + (flow.cwnd->IsGood() ? flow.rttFile : flow.cwndFile) + "'");
            }
            flow.rttStream = Create<OutputStreamWrapper>(flow.rttFile, std::ios::out);
            *flow.rttStream->GetStream() << "time_s,rtt_s\n";
        }
        if (flow.cwnd)
        {
            // The application makes its socket when it starts.
            Simulator::Schedule(Seconds(flow.spec.startS) + TimeStep(1), &ConnectTraces, &flow);
        }
        Simulator::Schedule(Seconds(flow.spec.startS + warmup), &MeasureStart, &flow);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    tracing.EnablePcap(bottleneckLink); // every point-to-point device: access links too

    // A packet not delivered within a few RTTs and a full queue is lost (FlowMonitor's
    // default of 10 s would not count the losses of a short run).
    FlowMonitorHelper flowHelper;
    const double queueDelay = queueBytes * 8.0 / rate.GetBitRate();
    flowHelper.SetMonitorAttribute("MaxPerHopDelay",
                                   TimeValue(Seconds(std::max(1.0, 4 * (maxRtt + queueDelay)))));
    NodeContainer hosts(senders, receivers);
    Ptr<FlowMonitor> monitor = flowHelper.Install(hosts);
    tracing.SetFlowMonitor(monitor);

    Simulator::Stop(Seconds(duration));
    Simulator::Run();

    // --- Metrics -----------------------------------------------------------------
    const std::vector<RudpFlowSummary> summaries = RudpSummarizeFlows(flowHelper, monitor);
    const Ptr<QueueDisc> bottleneckQueue = queueDiscs.Get(0);
    const uint64_t queueDrops = bottleneckQueue->GetStats().nTotalDroppedPackets;
    std::vector<double> throughputs;
    std::vector<RudpJson> flowJson;
    uint64_t measuredBytes = 0;
    std::string failure; // a flow that got nothing through: its connection broke down
    for (size_t k = 0; k < n; ++k)
    {
        const Flow& flow = flows[k];
        const uint64_t total = flow.sink->GetTotalRx();
        const uint64_t bytes = ReceivedBytes(flow) - flow.rxAtMeasureStart;
        const double measured = duration - flow.spec.startS - warmup;
        const double throughput = bytes * 8.0 / measured;
        throughputs.push_back(throughput);
        measuredBytes += bytes;
        if (bytes == 0 && failure.empty())
        {
            failure = "flow " + std::to_string(k) + " (" + flow.spec.algorithm + " @ " +
                      RudpCommandLine::FormatTime(Seconds(flow.spec.rttS)) +
                      ") delivered no byte in its measured interval";
        }
        RudpFlowSummary data;
        for (const auto& summary : summaries)
        {
            if (summary.source == flow.senderAddress && summary.destinationPort == flow.port)
            {
                data = summary;
            }
        }
        RudpJson json;
        json.Set("index", static_cast<uint32_t>(k))
            .Set("algorithm", flow.spec.algorithm)
            .Set("type_id", RudpCongestionTypeId(flow.spec.algorithm).GetName())
            .Set("rtt_s", flow.spec.rttS)
            .Set("start_s", flow.spec.startS)
            .Set("measured_s", measured)
            .Set("bytes", bytes)
            .Set("total_bytes", total)
            .Set("throughput_bps", throughput)
            .Set("mean_delay_s", data.meanDelayS)
            .Set("mean_jitter_s", data.meanJitterS)
            .Set("tx_packets", data.txPackets)
            .Set("rx_packets", data.rxPackets)
            .Set("lost_packets", data.lostPackets)
            .Set("loss_rate",
                 data.txPackets ? static_cast<double>(data.lostPackets) / data.txPackets : 0.0);
        if (!cwndTrace.empty())
        {
            json.Set("cwnd_trace", flow.cwndFile).Set("rtt_trace", flow.rttFile);
        }
        flowJson.push_back(json);
        if (flow.cwnd && !flow.cwnd->Close())
        {
            RudpParameterCheck::Fail("cwnd-trace", "cannot write '" + flow.cwndFile + "'");
        }
    }
    tracing.WriteFlowMonitor();
    Simulator::Destroy();

    const double utilization =
        measuredBytes * 8.0 / (static_cast<double>(rate.GetBitRate()) * (duration - firstMeasured));
    const double jain = JainIndex(throughputs);
    const double ratio = n == 2 ? throughputs[0] / throughputs[1] : 0.0;

    std::cout << std::fixed << std::setprecision(3) << "rudp-cc-comparison: " << transport
              << ", bottleneck " << rate.GetBitRate() / 1e6 << " Mbit/s, " << queue << " "
              << queueSize << (bfifo ? " B" : " packets") << ", loss " << loss << ", " << duration
              << " s\n";
    for (size_t k = 0; k < n; ++k)
    {
        std::cout << "  flow " << k << ": " << flows[k].spec.algorithm << " @ "
                  << flows[k].spec.rttS * 1e3 << " ms from " << flows[k].spec.startS
                  << " s: " << throughputs[k] / 1e6 << " Mbit/s\n";
    }
    std::cout << "  utilization " << utilization << ", Jain's index " << jain;
    if (n == 2)
    {
        std::cout << ", throughput ratio " << ratio;
    }
    std::cout << ", queue drops " << queueDrops << ", random drops " << randomDrops << std::endl;
    const bool ok = failure.empty();
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
            .Set("bottleneck_delay_s", bottleneckDelay)
            .Set("queue", queue)
            .Set("queue_size", queueSize)
            .Set("queue_unit", bfifo ? "bytes" : "packets")
            .Set("loss", loss)
            .Set("duration_s", duration)
            .Set("warmup_s", warmup)
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
