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
#include "ns3/rudp-module.h"
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
    FlowSpec spec;                       ///< what was asked for
    Ptr<Node> sender;                    ///< its sender
    Ptr<Node> receiver;                  ///< its receiver
    Ipv4Address senderAddress;           ///< the sender's address
    uint16_t port{0};                    ///< the receiver's port
    Ptr<BulkSendApplication> source;     ///< the sending application
    Ptr<PacketSink> sink;                ///< the receiving application
    uint64_t rxAtMeasureStart{0};        ///< bytes received at start + warm-up
    Ptr<OutputStreamWrapper> cwndStream; ///< --cwnd-trace: cwnd CSV
    Ptr<OutputStreamWrapper> rttStream;  ///< --cwnd-trace: RTT CSV
    std::string cwndFile;                ///< cwnd CSV name
    std::string rttFile;                 ///< RTT CSV name
    uint32_t startTries{0};              ///< waits for the application's socket
};

/**
 * \brief Parses a duration: a number with s, ms, us or ns (seconds without a unit).
 * \return false if \p text is not one
 */
bool
ParseSeconds(const std::string& text, double& seconds)
{
    const std::vector<std::pair<std::string, double>> units{{"ms", 1e-3},
                                                            {"us", 1e-6},
                                                            {"ns", 1e-9},
                                                            {"s", 1.0}};
    std::string number = text;
    double scale = 1.0;
    for (const auto& [unit, factor] : units)
    {
        if (text.size() > unit.size() &&
            text.compare(text.size() - unit.size(), unit.size(), unit) == 0)
        {
            number = text.substr(0, text.size() - unit.size());
            scale = factor;
            break;
        }
    }
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(value))
    {
        return false;
    }
    seconds = value * scale;
    return true;
}

/// \return --name's value as a data rate (exits 2 if it is not one)
DataRate
ParseRate(const std::string& name, const std::string& text)
{
    DataRateValue value;
    if (!value.DeserializeFromString(text, MakeDataRateChecker()))
    {
        RudpParameterCheck::Fail(name, "not a data rate: '" + text + "' (e.g. 100Mbps)");
    }
    RudpParameterCheck::Range<uint64_t>(name, value.Get().GetBitRate(), 1000, 100000000000);
    return value.Get();
}

/// \return --flows parsed and checked (exits 2 naming --flows otherwise)
std::vector<FlowSpec>
ParseFlows(const std::string& text, double minRttS, double durationS)
{
    std::vector<FlowSpec> flows;
    std::istringstream items(text);
    std::string item;
    while (std::getline(items, item, ','))
    {
        const auto fail = [&item](const std::string& problem) {
            RudpParameterCheck::Fail("flows", "'" + item + "': " + problem);
        };
        const size_t at = item.find('@');
        if (at == std::string::npos)
        {
            fail("expected algorithm@RTT[+start], e.g. cubic@50ms or newreno@200ms+5s");
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
            fail("unknown algorithm '" + flow.algorithm + "' (" + names +
                 " or the TypeId of a TcpCongestionOps)");
        }
        const std::string rest = item.substr(at + 1);
        const size_t plus = rest.find('+');
        if (!ParseSeconds(rest.substr(0, plus), flow.rttS))
        {
            fail("RTT '" + rest.substr(0, plus) + "' is not a time (e.g. 50ms)");
        }
        if (plus != std::string::npos && !ParseSeconds(rest.substr(plus + 1), flow.startS))
        {
            fail("start '" + rest.substr(plus + 1) + "' is not a time (e.g. 5s)");
        }
        if (!(flow.rttS > minRttS && flow.rttS <= 10))
        {
            std::ostringstream problem;
            problem << "RTT must be in (" << minRttS << " s (2 x --bottleneck-delay), 10 s]";
            fail(problem.str());
        }
        if (!(flow.startS >= 0 && flow.startS < durationS))
        {
            fail("start must be in [0, --duration)");
        }
        flows.push_back(flow);
    }
    if (flows.empty() || flows.size() > 100)
    {
        RudpParameterCheck::Fail("flows", "give 1 to 100 flows, e.g. cubic@50ms,newreno@50ms");
    }
    return flows;
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

/// Writes "time_s,value" for a cwnd change.
void
CwndChange(Ptr<OutputStreamWrapper> stream, uint32_t /* oldValue */, uint32_t newValue)
{
    *stream->GetStream() << Simulator::Now().GetSeconds() << ',' << newValue << '\n';
}

/// Writes "time_s,value" for an RTT sample.
void
RttChange(Ptr<OutputStreamWrapper> stream, Time /* oldValue */, Time newValue)
{
    *stream->GetStream() << Simulator::Now().GetSeconds() << ',' << newValue.GetSeconds() << '\n';
}

/**
 * \brief At the flow's start, once BulkSendApplication has made its socket:
 * connects the traces and, for RUDP, sets the socket's congestion control
 * (RudpSocket reads Variant and CongestionOps when the connection opens).
 */
void
FlowStarted(Flow* flow, bool rudpCongestionOps, TypeId algorithm)
{
    Ptr<Socket> socket = flow->source->GetSocket();
    if (!socket)
    {
        // The application starts later in this same instant.
        NS_ABORT_MSG_IF(++flow->startTries > 100, "the sending application made no socket");
        Simulator::ScheduleNow(&FlowStarted, flow, rudpCongestionOps, algorithm);
        return;
    }
    if (rudpCongestionOps)
    {
        NS_ABORT_MSG_UNLESS(
            socket->SetAttributeFailSafe("Variant", StringValue("TcpCongestionOps")) &&
                socket->SetAttributeFailSafe("CongestionOps", TypeIdValue(algorithm)),
            "ns3::RudpSocket refused its congestion control");
    }
    if (flow->cwndStream)
    {
        socket->TraceConnectWithoutContext("CongestionWindow",
                                           MakeBoundCallback(&CwndChange, flow->cwndStream));
        socket->TraceConnectWithoutContext("RTT", MakeBoundCallback(&RttChange, flow->rttStream));
    }
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
    std::string rateText = "100Mbps";
    std::string accessRateText;
    std::string queue = "bfifo";
    uint64_t queueSize = 0;
    double loss = 0;
    std::string flowsText = "cubic@50ms";
    double duration = 60;
    double warmup = 0;
    std::string transport = "tcp";
    uint32_t segmentSize = 1448;
    std::string bottleneckDelayText = "1ms";
    uint64_t buffer = 0;
    std::string initialSsThreshText = "auto";
    std::string output;
    std::string cwndTrace;

    CommandLine cmd(__FILE__);
    cmd.AddValue("rate", "Bottleneck data rate (seed: 100Mbps high-BDP, 10Mbps lossy)", rateText);
    cmd.AddValue("access-rate",
                 "Access links' data rate (default: ten times the bottleneck rate)",
                 accessRateText);
    cmd.AddValue("queue", "Bottleneck queue: bfifo (bytes) or pfifo (packets)", queue);
    cmd.AddValue("queue-size",
                 "Queue limit in the queue's unit; 0: bfifo one BDP of the largest RTT in bytes, "
                 "pfifo 1000 packets",
                 queueSize);
    cmd.AddValue("loss", "Random loss rate of data packets on the bottleneck (0..0.5)", loss);
    cmd.AddValue("flows",
                 "Flows as algorithm@RTT[+start], comma-separated, e.g. "
                 "cubic@50ms,newreno@200ms+5s (algorithms: newreno, reno, cubic, htcp, hybla, "
                 "westwood, veno, cvtcp, or a TcpCongestionOps TypeId)",
                 flowsText);
    cmd.AddValue("duration", "Simulated time, s (seed: 600)", duration);
    cmd.AddValue("warmup", "Seconds after each flow's start not measured", warmup);
    cmd.AddValue("transport", "tcp or rudp (ns3::RudpSocketFactory)", transport);
    cmd.AddValue("segment-size", "Segment payload, bytes (TCP up to 1448, RUDP 1454)", segmentSize);
    cmd.AddValue("bottleneck-delay", "Bottleneck one-way delay (e.g. 1ms)", bottleneckDelayText);
    cmd.AddValue("buffer",
                 "Socket send and receive buffers, bytes (0: twice the largest BDP plus the queue)",
                 buffer);
    cmd.AddValue("initial-ssthresh",
                 "Initial slow-start threshold: auto (the path's capacity, rate x largest RTT + "
                 "queue, shared by the flows), none (unlimited, ns-3's and Linux's default) or "
                 "bytes",
                 initialSsThreshText);
    cmd.AddValue("output", "Write the metrics as JSON to this file", output);
    cmd.AddValue("cwnd-trace",
                 "Write PREFIX-<flow>-cwnd.csv and PREFIX-<flow>-rtt.csv per flow",
                 cwndTrace);
    cmd.Parse(argc, argv);

    // --- Parameters --------------------------------------------------------------
    const DataRate rate = ParseRate("rate", rateText);
    const DataRate accessRate = accessRateText.empty() ? DataRate(rate.GetBitRate() * 10)
                                                       : ParseRate("access-rate", accessRateText);
    if (accessRate < rate)
    {
        RudpParameterCheck::Fail("access-rate", "must not be below --rate");
    }
    const bool bfifo = RudpParameterCheck::OneOf("queue", queue, {"bfifo", "pfifo"}) == 0;
    RudpParameterCheck::Range("loss", loss, 0.0, 0.5);
    RudpParameterCheck::Range("duration", duration, 0.001, 100000.0);
    RudpParameterCheck::Range("warmup", warmup, 0.0, duration);
    const bool rudp = RudpParameterCheck::OneOf("transport", transport, {"tcp", "rudp"}) == 1;
    RudpParameterCheck::Range<uint32_t>("segment-size", segmentSize, 64, rudp ? 1454 : 1448);
    double bottleneckDelay = 0;
    if (!ParseSeconds(bottleneckDelayText, bottleneckDelay))
    {
        RudpParameterCheck::Fail("bottleneck-delay", "not a time: '" + bottleneckDelayText + "'");
    }
    RudpParameterCheck::Range("bottleneck-delay", bottleneckDelay, 0.0, 1.0);
    const std::vector<FlowSpec> specs = ParseFlows(flowsText, 2 * bottleneckDelay, duration);
    double maxRtt = 0;
    double firstMeasured = duration;
    for (const auto& spec : specs)
    {
        maxRtt = std::max(maxRtt, spec.rttS);
        firstMeasured = std::min(firstMeasured, spec.startS + warmup);
        if (spec.startS + warmup >= duration)
        {
            RudpParameterCheck::Fail("warmup",
                                     "every flow's start + warm-up must precede --duration");
        }
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
        char* end = nullptr;
        initialSsThresh = std::strtoull(initialSsThreshText.c_str(), &end, 10);
        if (initialSsThreshText.empty() || *end != '\0' || initialSsThreshText[0] == '-')
        {
            RudpParameterCheck::Fail("initial-ssthresh",
                                     "must be auto, none or a number of bytes, got '" +
                                         initialSsThreshText + "'");
        }
        RudpParameterCheck::Range<uint64_t>("initial-ssthresh",
                                            initialSsThresh,
                                            2 * segmentSize,
                                            UINT32_MAX);
    }

    if (!output.empty() && !std::ofstream(output))
    {
        RudpParameterCheck::Fail("output", "cannot write '" + output + "'");
    }

    // --- Congestion controls -------------------------------------------------------
    // RUDP runs any TcpCongestionOps if its socket has the CongestionOps attribute;
    // otherwise only seed 000's own Reno.
    TypeId::AttributeInformation info;
    const bool rudpCongestionOps =
        rudp && RudpSocket::GetTypeId().LookupAttributeByName("CongestionOps", &info);
    for (const auto& spec : specs)
    {
        if (rudp && !rudpCongestionOps && spec.algorithm != "reno" && spec.algorithm != "newreno")
        {
            RudpParameterCheck::Fail("flows",
                                     "'" + spec.algorithm +
                                         "' over --transport=rudp needs ns3::RudpSocket's "
                                         "CongestionOps attribute, which this build lacks; "
                                         "use reno or newreno (seed 000's Reno)");
        }
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
        Config::SetDefault("ns3::RudpSocket::Variant",
                           StringValue(rudpCongestionOps ? "TcpCongestionOps" : "Reno"));
        // Each sender's socket also gets its flow's algorithm when it is made
        // (FlowStarted); the default covers the common case of one algorithm.
        if (rudpCongestionOps)
        {
            Config::SetDefault("ns3::RudpSocket::CongestionOps",
                               TypeIdValue(RudpCongestionTypeId(specs.front().algorithm)));
        }
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
        if (!rudp)
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
            for (const auto& file : {flow.cwndFile, flow.rttFile})
            {
                if (!std::ofstream(file))
                {
                    RudpParameterCheck::Fail("cwnd-trace", "cannot write '" + file + "'");
                }
            }
            flow.cwndStream = Create<OutputStreamWrapper>(flow.cwndFile, std::ios::out);
            flow.rttStream = Create<OutputStreamWrapper>(flow.rttFile, std::ios::out);
            *flow.cwndStream->GetStream() << "time_s,cwnd_bytes\n";
            *flow.rttStream->GetStream() << "time_s,rtt_s\n";
        }
        Simulator::Schedule(Seconds(flow.spec.startS),
                            &FlowStarted,
                            &flow,
                            rudpCongestionOps,
                            algorithm);
        Simulator::Schedule(Seconds(flow.spec.startS + warmup), &MeasureStart, &flow);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    // A packet not delivered within a few RTTs and a full queue is lost (FlowMonitor's
    // default of 10 s would not count the losses of a short run).
    FlowMonitorHelper flowHelper;
    const double queueDelay = queueBytes * 8.0 / rate.GetBitRate();
    flowHelper.SetMonitorAttribute("MaxPerHopDelay",
                                   TimeValue(Seconds(std::max(1.0, 4 * (maxRtt + queueDelay)))));
    NodeContainer hosts(senders, receivers);
    Ptr<FlowMonitor> monitor = flowHelper.Install(hosts);

    Simulator::Stop(Seconds(duration));
    Simulator::Run();

    // --- Metrics -----------------------------------------------------------------
    const std::vector<RudpFlowSummary> summaries = RudpSummarizeFlows(flowHelper, monitor);
    const Ptr<QueueDisc> bottleneckQueue = queueDiscs.Get(0);
    const uint64_t queueDrops = bottleneckQueue->GetStats().nTotalDroppedPackets;
    std::vector<double> throughputs;
    std::vector<RudpJson> flowJson;
    uint64_t measuredBytes = 0;
    for (size_t k = 0; k < n; ++k)
    {
        const Flow& flow = flows[k];
        const uint64_t total = flow.sink->GetTotalRx();
        const uint64_t bytes = ReceivedBytes(flow) - flow.rxAtMeasureStart;
        const double measured = duration - flow.spec.startS - warmup;
        const double throughput = bytes * 8.0 / measured;
        throughputs.push_back(throughput);
        measuredBytes += bytes;
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
    }
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

    if (!output.empty())
    {
        RudpJson json;
        json.Set("scenario", "rudp-cc-comparison")
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
            json.Set("rudp_variant", rudpCongestionOps ? "TcpCongestionOps" : "Reno");
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
    return 0;
}
