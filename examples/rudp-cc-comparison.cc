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
 * throughput over the second's. With --flow-monitor (implied by
 * --flowmon-xml), FlowMonitor's delay, jitter and loss of each flow too: off
 * by default, since its per-packet tags and records cost a long high-BDP run
 * much of its time and memory and change none of the metrics above.
 *
 * Tracing: --cwnd-trace=PREFIX writes each flow's congestion window,
 * slow-start threshold and congestion state (RudpCwndTrace) and its RTT
 * samples (RudpFlowTraces); --pcap=PREFIX every point-to-point device's pcap
 * file; --flowmon-xml=FILE FlowMonitor's XML (RudpTraceOptions).
 *
 * Split across MPI ranks (--ranks=N, run as mpiexec -n N ... --ranks=N, in
 * an ns-3 tree configured with --enable-mpi): the dumbbell is cut at its
 * bottleneck (RudpDumbbellHelper::SetRanks), each rank measures the nodes it
 * simulates, and the record, written by rank 0, is the one a single process
 * writes but for its "ranks" and "synchronizer". FlowMonitor (--flow-monitor,
 * --flowmon-xml) follows a packet within one process only: refused there.
 *
 * The pieces: RudpDumbbellOptions declares and checks the dumbbell's
 * options and sizes; RudpDumbbellHelper builds the network;
 * RudpGoodputMeter and RudpFlowMetrics measure; RudpAddBulkFlowMetrics
 * writes a flow's record; RudpRanks splits the run across MPI ranks.
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
#include "ns3/rudp-dumbbell-options.h"
#include "ns3/rudp-flow-stats.h"
#include "ns3/rudp-flow-traces.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-module.h"
#include "ns3/rudp-parameter-check.h"
#include "ns3/rudp-ranks.h"
#include "ns3/rudp-scenario-record.h"
#include "ns3/rudp-trace-options.h"
#include "ns3/traffic-control-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// Counts packets the bottleneck's error model dropped.
void
CountDrop(uint64_t* drops, Ptr<const Packet> /* packet */)
{
    ++*drops;
}

/// \return the name under which flow \p k's \p what is shared between ranks
std::string
FlowKey(size_t k, const std::string& what)
{
    return "flow." + std::to_string(k) + "." + what;
}

/// \return the dumbbell's nodes this process simulates
NodeContainer
LocalNodes(const RudpDumbbellHelper& dumbbell)
{
    NodeContainer local;
    const NodeContainer all(dumbbell.GetSenders(), dumbbell.GetReceivers(), dumbbell.GetRouters());
    for (uint32_t i = 0; i < all.GetN(); ++i)
    {
        if (dumbbell.IsLocal(all.Get(i)))
        {
            local.Add(all.Get(i));
        }
    }
    return local;
}

/**
 * A flow's round trips as its sender measures them, from its measurement
 * start (start + --warmup) to the end of the run: the mean of its RTT trace
 * (TCP's smoothed estimate, RUDP's samples), the mean RTO in force when each
 * sample arrived, and its retransmission timeouts and fast retransmits.
 * Padhye et al.'s throughput formula takes the RTT and the RTO (T0) as
 * inputs: rudp-reno-model's sweep evaluates it with these.
 */
class RoundTripMeter : public SimpleRefCount<RoundTripMeter>
{
  public:
    /**
     * \param socketOf returns the flow's sending socket once its application started
     * \param start the application's start time
     * \param measured when the measured interval begins
     */
    RoundTripMeter(Callback<Ptr<Socket>> socketOf, Time start, Time measured)
        : m_socketOf(socketOf),
          m_measured(measured)
    {
        // The application makes its socket when it starts.
        Simulator::Schedule(start + TimeStep(1) - Simulator::Now(), &RoundTripMeter::Connect, this);
        Simulator::Schedule(measured - Simulator::Now(), &RoundTripMeter::Begin, this);
    }

    /// Adds mean_rtt_s, rtt_samples, mean_rto_s, timeouts and fast_retransmits to \p json.
    void AddToJson(RudpJson& json)
    {
        uint64_t timeouts = m_timeouts;
        uint64_t fastRetransmits = m_fastRetransmits;
        const Ptr<RudpSocket> rudp = DynamicCast<RudpSocket>(m_socketOf());
        if (rudp)
        {
            timeouts = rudp->GetStats().timeouts - m_rudpStart.timeouts;
            fastRetransmits = rudp->GetStats().fastRetransmits - m_rudpStart.fastRetransmits;
        }
        const double n = static_cast<double>(m_samples);
        json.Set("mean_rtt_s", m_samples ? m_rttSum / n : 0.0)
            .Set("rtt_samples", m_samples)
            .Set("mean_rto_s", m_samples ? m_rtoSum / n : 0.0)
            .Set("timeouts", timeouts)
            .Set("fast_retransmits", fastRetransmits);
    }

  private:
    void Connect()
    {
        const Ptr<Socket> socket = m_socketOf();
        NS_ABORT_MSG_UNLESS(socket, "RoundTripMeter: the sending application made no socket");
        NS_ABORT_MSG_UNLESS(
            socket->TraceConnectWithoutContext("RTT",
                                               MakeCallback(&RoundTripMeter::RttChanged, this)) &&
                socket->TraceConnectWithoutContext("RTO",
                                                   MakeCallback(&RoundTripMeter::RtoChanged, this)),
            "RoundTripMeter: " << socket->GetInstanceTypeId().GetName()
                               << " has no RTT or RTO trace");
        if (!DynamicCast<RudpSocket>(socket))
        {
            socket->TraceConnectWithoutContext(
                "CongState",
                MakeCallback(&RoundTripMeter::TcpStateChanged, this));
        }
    }

    void Begin()
    {
        const Ptr<RudpSocket> rudp = DynamicCast<RudpSocket>(m_socketOf());
        if (rudp)
        {
            m_rudpStart = rudp->GetStats();
        }
    }

    void RttChanged(Time /* oldValue */, Time newValue)
    {
        if (Simulator::Now() >= m_measured && newValue.IsStrictlyPositive())
        {
            m_rttSum += newValue.GetSeconds();
            m_rtoSum += m_rto.GetSeconds();
            ++m_samples;
        }
    }

    void RtoChanged(Time /* oldValue */, Time newValue)
    {
        m_rto = newValue;
    }

    void TcpStateChanged(TcpSocketState::TcpCongState_t oldValue,
                         TcpSocketState::TcpCongState_t newValue)
    {
        if (Simulator::Now() < m_measured || oldValue == newValue)
        {
            return;
        }
        if (newValue == TcpSocketState::CA_LOSS)
        {
            ++m_timeouts;
        }
        else if (newValue == TcpSocketState::CA_RECOVERY)
        {
            ++m_fastRetransmits;
        }
    }

    Callback<Ptr<Socket>> m_socketOf; ///< the flow's sending socket
    Time m_measured;                  ///< start of the measured interval
    Time m_rto;                       ///< the RTO in force
    double m_rttSum{0};               ///< sum of the measured RTT samples (s)
    double m_rtoSum{0};               ///< sum of the RTO at those samples (s)
    uint64_t m_samples{0};            ///< measured RTT samples
    uint64_t m_timeouts{0};           ///< TCP: entries into CA_LOSS
    uint64_t m_fastRetransmits{0};    ///< TCP: entries into CA_RECOVERY
    RudpSocket::Stats m_rudpStart;    ///< RUDP: the counters when the measurement began
};

} // namespace

int
main(int argc, char* argv[])
{
    RudpRanks ranks;             // --ranks, --synchronizer (first: it ends MPI last)
    RudpDumbbellOptions options; // --rate, --queue, --flows, --duration, --transport, ...
    RudpScenarioRecord record("rudp-cc-comparison");
    std::string cwndTrace;
    bool flowMonitor = false;
    RudpTraceOptions tracing;

    RudpCommandLine cmd(__FILE__);
    options.AddOptions(cmd);
    record.AddOption(cmd);
    cmd.AddValue("cwnd-trace",
                 "Write PREFIX-<flow>-cwnd.csv (time_s, cwnd_bytes, ssthresh_bytes, state, "
                 "timeouts: one line per change) and PREFIX-<flow>-rtt.csv per flow",
                 cwndTrace);
    cmd.AddValue("flow-monitor",
                 "Run FlowMonitor and add each flow's mean delay, jitter, packets sent, "
                 "received and lost to its record (implied by the XML option)",
                 flowMonitor);
    tracing.AddOptions(cmd);
    ranks.AddOptions(cmd);
    cmd.Parse(argc, argv);
    options.ResolveOrFail(); // what only a combination of options rules out; sizes
    const std::string oneProcess =
        "FlowMonitor follows a packet within one process only (its probes on the "
        "receivers' rank cannot find what those on the senders' rank recorded)";
    ranks.RefuseWhenSplit("flow-monitor", flowMonitor, oneProcess);
    ranks.RefuseWhenSplit("flowmon-xml", !tracing.GetFlowMonitorFile().empty(), oneProcess);
    ranks.EnableOrFail(argc, argv);
    const std::vector<RudpDumbbellOptions::Flow>& flows = options.GetFlows();
    const size_t n = flows.size();
    const DataRate rate = options.GetRate();
    const Time duration = options.GetDuration();

    // --- The dumbbell ---------------------------------------------------------------
    RudpDumbbellHelper dumbbell;
    options.Configure(dumbbell);
    dumbbell.SetRanks(ranks.GetRanks());
    dumbbell.Install();
    dumbbell.AssignStreams(10);
    const Ptr<Node> leftRouter = dumbbell.GetRouters().Get(0);
    const Ptr<Node> rightRouter = dumbbell.GetRouters().Get(1);
    uint64_t randomDrops = 0; // counted where the right router is simulated
    dumbbell.GetBottleneckDevices().Get(1)->TraceConnectWithoutContext(
        "PhyRxDrop",
        MakeBoundCallback(&CountDrop, &randomDrops));
    // Each flow is measured where its ends are simulated: its goodput at the
    // receiver, its round trips and traces at the sender.
    std::vector<Ptr<RudpGoodputMeter>> meters(n);
    std::vector<Ptr<RoundTripMeter>> roundTrips(n);
    RudpFlowTraces traces(cwndTrace);
    for (size_t k = 0; k < n; ++k)
    {
        if (dumbbell.GetSink(k))
        {
            meters[k] = Create<RudpGoodputMeter>(dumbbell.GetSink(k),
                                                 flows[k].start,
                                                 options.GetWarmup(),
                                                 duration);
        }
        if (!dumbbell.GetSource(k))
        {
            traces.AddElsewhere();
            continue;
        }
        roundTrips[k] = Create<RoundTripMeter>(
            MakeCallback(&BulkSendApplication::GetSocket, dumbbell.GetSource(k)),
            flows[k].start,
            flows[k].start + options.GetWarmup());
        const std::string problem =
            traces.Add(MakeCallback(&BulkSendApplication::GetSocket, dumbbell.GetSource(k)),
                       flows[k].start);
        if (!problem.empty())
        {
            RudpParameterCheck::Fail("cwnd-trace", problem);
        }
    }
    PointToPointHelper pointToPoint;
    tracing.EnablePcap(pointToPoint, LocalNodes(dumbbell)); // every point-to-point device
    flowMonitor = flowMonitor || !tracing.GetFlowMonitorFile().empty();
    FlowMonitorHelper flowHelper;
    Ptr<FlowMonitor> monitor;
    if (flowMonitor)
    {
        flowHelper.SetMonitorAttribute(
            "MaxPerHopDelay",
            TimeValue(
                RudpDumbbellSizing::LossDelay(rate, options.GetMaxRtt(), options.GetQueueBytes())));
        monitor = flowHelper.Install(NodeContainer(dumbbell.GetSenders(), dumbbell.GetReceivers()));
        tracing.SetFlowMonitor(monitor);
    }

    Simulator::Stop(duration);
    Simulator::Run();

    // --- Metrics -----------------------------------------------------------------
    // What each rank measured of the nodes it simulates (one process: all of
    // them), shared with every rank, which all compute the record.
    const std::vector<RudpFlowSummary> summaries =
        monitor ? RudpSummarizeFlows(flowHelper, monitor) : std::vector<RudpFlowSummary>();
    RudpRankValues local;
    if (dumbbell.IsLocal(leftRouter))
    {
        local.Set("queue_drops",
                  static_cast<uint64_t>(
                      dumbbell.GetBottleneckQueueDiscs().Get(0)->GetStats().nTotalDroppedPackets));
    }
    if (dumbbell.IsLocal(rightRouter))
    {
        local.Set("random_drops", randomDrops);
    }
    for (size_t k = 0; k < n; ++k)
    {
        if (meters[k])
        {
            local.Set(FlowKey(k, "bytes"), meters[k]->GetBytes());
            local.Set(FlowKey(k, "throughput"), meters[k]->GetThroughput());
            RudpJson goodput;
            if (monitor)
            {
                RudpAddBulkFlowMetrics(
                    goodput,
                    *meters[k],
                    RudpFindFlow(summaries, dumbbell.GetSenderAddress(k), dumbbell.GetPort(k)));
            }
            else
            {
                RudpAddGoodputMetrics(goodput, *meters[k]);
            }
            local.Set(FlowKey(k, "goodput"), goodput);
        }
        if (roundTrips[k])
        {
            RudpJson roundTrip;
            roundTrips[k]->AddToJson(roundTrip); // mean_rtt_s, mean_rto_s, timeouts, ...
            local.Set(FlowKey(k, "round_trips"), roundTrip);
        }
    }
    const std::string traceProblem = traces.Close();
    if (!traceProblem.empty())
    {
        RudpParameterCheck::Fail("cwnd-trace", traceProblem);
    }
    const RudpRankValues measured = ranks.Share(local);
    const uint64_t queueDrops = measured.GetUint("queue_drops");
    randomDrops = measured.GetUint("random_drops");
    std::vector<double> throughputs;
    std::vector<RudpJson> flowJson;
    uint64_t measuredBytes = 0;
    std::string failure; // a flow that got nothing through: its connection broke down
    for (size_t k = 0; k < n; ++k)
    {
        const RudpDumbbellOptions::Flow& flow = flows[k];
        const uint64_t bytes = measured.GetUint(FlowKey(k, "bytes"));
        throughputs.push_back(measured.GetDouble(FlowKey(k, "throughput")));
        measuredBytes += bytes;
        if (bytes == 0 && failure.empty())
        {
            failure = "flow " + std::to_string(k) + " (" + flow.algorithm + " @ " +
                      RudpText::FormatTime(flow.rtt) +
                      ") delivered no byte in its measured interval";
        }
        RudpJson json;
        json.Set("index", static_cast<uint32_t>(k))
            .Set("algorithm", flow.algorithm)
            .Set("type_id", RudpDumbbellOptions::AlgorithmTypeId(flow.algorithm).GetName())
            .Set("rtt_s", flow.rtt.GetSeconds())
            .Set("start_s", flow.start.GetSeconds())
            .Append(measured.GetJson(FlowKey(k, "goodput")))
            .Append(measured.GetJson(FlowKey(k, "round_trips")));
        if (traces.IsEnabled())
        {
            json.Set("cwnd_trace", traces.GetCwndFile(k)).Set("rtt_trace", traces.GetRttFile(k));
        }
        flowJson.push_back(json);
    }
    tracing.WriteFlowMonitor();
    Simulator::Destroy();

    const double utilization = measuredBytes * 8.0 /
                               (static_cast<double>(rate.GetBitRate()) *
                                (duration.GetSeconds() - options.GetFirstMeasured().GetSeconds()));
    const double jain = RudpFlowMetrics::JainIndex(throughputs);
    const double ratio = n == 2 ? throughputs[0] / throughputs[1] : 0.0;
    const bool ok = failure.empty();

    if (!ranks.IsRoot())
    {
        return ok ? 0 : 1; // rank 0 prints and writes what every rank computed
    }
    const bool bfifo = options.GetQueueUnit() == QueueSizeUnit::BYTES;
    std::cout << std::fixed << std::setprecision(3)
              << "rudp-cc-comparison: " << options.GetTransport() << ", bottleneck "
              << rate.GetBitRate() / 1e6 << " Mbit/s, " << options.GetQueue() << " "
              << options.GetQueueSize() << (bfifo ? " B" : " packets") << ", loss "
              << options.GetLoss() << ", " << duration.GetSeconds() << " s\n";
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

    if (record.IsWanted())
    {
        RudpJson json;
        record.SetOutcome(json, ok, failure);
        options.AddToJson(json); // transport ... initial_ssthresh_bytes
        ranks.AddToJson(json);   // ranks, synchronizer
        json.Set("rng_run", static_cast<uint64_t>(RngSeedManager::GetRun()))
            .Set("flow_monitor", flowMonitor)
            .Set("flows", flowJson)
            .Set("utilization", utilization)
            .Set("jain_index", jain)
            .Set("queue_drops", queueDrops)
            .Set("random_drops", randomDrops);
        if (options.GetTransportKind() == RudpDumbbellHelper::RUDP)
        {
            // Every flow runs its TcpCongestionOps, or RUDP's own Reno.
            const bool reno = flows[0].algorithm == RudpDumbbellOptions::RUDP_RENO;
            json.Set("rudp_variant", reno ? "Reno" : "TcpCongestionOps");
        }
        if (n == 2)
        {
            json.Set("throughput_ratio", ratio);
        }
        record.WriteOrFail(json);
    }
    return ok ? 0 : 1;
}
