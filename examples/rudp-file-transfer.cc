/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-examples
 * Seed 000's experiment: one file from a client to a server over reliable
 * UDP, with stop-and-wait, Go-Back-N or Reno, through a lossy, delayed path.
 *
 *     client ---- CSMA ---- router ---- CSMA (--delay) ---- server
 *      10.1.1.1           10.1.1.2 10.1.2.1              10.1.2.2
 *
 * RudpFileTransferHelper builds the path and RudpFileTransferOptions holds
 * the options below (both usable in one's own program).
 *
 * Both links are CSMA by default (--link=csma), or point-to-point
 * (--link=p2p): full duplex, so the router-server delay is pure propagation,
 * and with an MTU up to 65535 bytes (--mtu), like the loopback seed 000 ran
 * on, so that --mss can be as large as a UDP datagram (65000, the socket's
 * SegmentSize limit).
 *
 * Two ways to impair the path (--router):
 *
 * - none (the design card's): the router forwards IP packets; a
 *   RateErrorModel (--loss) or RudpCorruptionErrorModel (--corruption) on the
 *   server's receiving device hits client-to-server datagrams, and --delay is
 *   the router-server channel's delay, so ACKs see it too (RTT = 2 x delay).
 * - delay | sleeping (the seed's): the client talks to a RudpRelay on the
 *   router (port 3333), which drops client-to-server datagrams with
 *   probability --loss and delays them by --delay, and passes the server's
 *   untouched. "delay" delays each datagram on its own; "sleeping" serves one
 *   datagram per --delay, as the seed's single-threaded Python router did.
 *
 * Linux netem on the router (--netem-delay, --jitter, --reorder, --duplicate,
 * --ack-loss, --blackout-start/--blackout-duration), in every router mode: a
 * NetemQueueDisc on the router's egress device towards the server
 * (client-to-server datagrams: netem's "delay D J reorder P duplicate P", an
 * extra delay uniform in [D - J, D + J) that reordered datagrams skip; D is
 * --netem-delay, or J when only --jitter is given: "delay J J") and one
 * towards the client (server-to-client datagrams: "loss P"); a blackout
 * loses every datagram entering either. Only with these options: without
 * them the run is exactly as before, and with them --delay stays where it
 * was, so that a run differs from one without them by the impairments only.
 * Netem impairs ARP too, as Linux's does; so that a lost ARP exchange costs
 * what it costs in Linux (a new request with the next packet), not ns-3's
 * default 100 s of silence, ArpCache's DeadTimeout is then 0.
 *
 * --paths=N (2 to 8) sends the file over one multipath association instead
 * (RudpCmtSocket, ns3::RudpCmtSocketFactory; SCTP's paths, one to each of
 * the server's addresses) through N copies of the path side by side, each
 * through a router of its own with the impairments above drawn apart, and
 * --path-blackouts darkens single paths for a while (PATH@START+DURATION,
 * comma-separated): the association's paths fail and return. The record
 * then says "transport": "rudp-cmt" and gives each path's bytes,
 * retransmissions and timeouts ("paths_sent"); RudpSocket's options
 * (--variant, --window, --sack, --rto-mode, --rto) are refused, and
 * --ns3::RudpCmtSocket::... sets the association's attributes.
 *
 *     ./ns3 run "rudp-file-transfer --paths=3 --loss=0.02 --path-blackouts=0@1s+2s,1@2s+3s"
 *
 * FlowMonitor measures every flow; the data_* metrics are those of the flow
 * that reaches the server, ack_* of the flow that reaches the client (with a
 * relay, each direction is two flows, one per hop: all are in "flows").
 *
 * Tracing: --cwnd-trace=FILE writes the sender's congestion window,
 * slow-start threshold and congestion state as they change (RudpCwndTrace:
 * time_s, cwnd_bytes, ssthresh_bytes, state, timeouts); --pcap=PREFIX writes
 * each device's pcap file and --flowmon-xml=FILE FlowMonitor's XML
 * (RudpTraceOptions). None of them changes what is simulated.
 *
 * The received file's SHA-256 is checked against the sent one in every run:
 * a transfer that fails or delivers a different file exits with status 1
 * and a message, never with a number; with --output its record still says
 * what happened ("ok": false, "failure", and every metric there is). Bad
 * parameters exit with status 2 before anything is simulated.
 *
 *     ./ns3 run "rudp-file-transfer --variant=go-back-n --window=30 --loss=0.05"
 *     ./ns3 run "rudp-file-transfer --variant=reno --delay=20ms --output=run.json"
 *     ./ns3 run "rudp-file-transfer --variant=reno --loss=0.02 --cwnd-trace=cwnd.csv --pcap=ft"
 */

#include "ns3/core-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-cwnd-trace.h"
#include "ns3/rudp-file-transfer-options.h"
#include "ns3/rudp-flow-stats.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-module.h"
#include "ns3/rudp-parameter-check.h"
#include "ns3/rudp-scenario-record.h"
#include "ns3/rudp-trace-options.h"

#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("RudpFileTransfer");

namespace
{

/// Checksum errors of every RUDP socket and multipath association on \p node.
uint64_t
ChecksumErrors(Ptr<Node> node)
{
    uint64_t errors = 0;
    ObjectVectorValue sockets;
    node->GetObject<RudpSocketFactory>()->GetAttribute("SocketList", sockets);
    for (auto it = sockets.Begin(); it != sockets.End(); ++it)
    {
        errors += DynamicCast<RudpSocket>(it->second)->GetStats().checksumErrors;
    }
    ObjectVectorValue associations;
    node->GetObject<RudpCmtSocketFactory>()->GetAttribute("SocketList", associations);
    for (auto it = associations.Begin(); it != associations.End(); ++it)
    {
        Ptr<RudpCmtSocket> association = DynamicCast<RudpCmtSocket>(it->second);
        errors += association->GetReceiver()->GetStats().checksumErrors;
    }
    return errors;
}

/// Adds \p counts to \p sum.
void
Add(NetemQueueDisc::Counts& sum, const NetemQueueDisc::Counts& counts)
{
    sum.lost += counts.lost;
    sum.limitDropped += counts.limitDropped;
    sum.duplicated += counts.duplicated;
    sum.reordered += counts.reordered;
    sum.corrupted += counts.corrupted;
    sum.bitsFlipped += counts.bitsFlipped;
}

/// What the sender's socket counted, whichever socket it is.
struct SenderCounts
{
    uint64_t retransmissions{0}; ///< segments resent
    uint64_t timeouts{0};        ///< retransmission timer expiries
    uint64_t fastRetransmits{0}; ///< fast retransmissions
    uint64_t segmentsSent{0};    ///< data segments sent, resends included (RudpSocket)
    std::vector<RudpJson> paths; ///< each path's (RudpCmtSocket)
};

/// \return what \p socket (a RudpSocket, a RudpCmtSocket, or null) counted
SenderCounts
CountsOf(Ptr<Socket> socket)
{
    SenderCounts counts;
    if (Ptr<RudpSocket> single = DynamicCast<RudpSocket>(socket))
    {
        const RudpSocket::Stats stats = single->GetStats();
        counts.retransmissions = stats.retransmissions;
        counts.timeouts = stats.timeouts;
        counts.fastRetransmits = stats.fastRetransmits;
        counts.segmentsSent = stats.segmentsSent;
    }
    else if (Ptr<RudpCmtSocket> association = DynamicCast<RudpCmtSocket>(socket))
    {
        const RudpCmtSendEngine::Stats stats = association->GetSender()->GetStats();
        counts.retransmissions = stats.retransmissions;
        counts.timeouts = stats.timeouts;
        counts.fastRetransmits = stats.fastRetransmits;
        for (const Ptr<RudpCmtPath>& path : association->GetSender()->GetPaths())
        {
            const RudpCmtPath::Stats pathStats = path->GetStats();
            std::ostringstream remote;
            remote << path->GetRemoteIpv4();
            RudpJson json;
            json.Set("remote", remote.str())
                .Set("bytes_sent", pathStats.bytesSent)
                .Set("retransmissions", pathStats.retransmissions)
                .Set("timeouts", pathStats.timeouts);
            counts.paths.push_back(json);
        }
    }
    return counts;
}

/// The sender's start: 0.1 s, as the seed's client started after its server.
const Time SENDER_START = Seconds(0.1);

/// Why the transfer failed, or "" if the file arrived intact.
std::string
Failure(Ptr<RudpFileSender> sender,
        Ptr<Socket> socket,
        const std::vector<RudpFileReport>& reports,
        Time maxTime)
{
    const std::string limit = "--max-time=" + RudpText::FormatTime(maxTime);
    if (!socket)
    {
        return "the sender had not started by " + limit + " (it starts at " +
               RudpText::FormatTime(SENDER_START) + ")";
    }
    if (sender->HasFailed())
    {
        return "the sender's connection failed";
    }
    if (reports.empty())
    {
        return "no file arrived within " + limit;
    }
    const RudpFileReport& report = reports.front();
    if (!report.complete)
    {
        return "the receiver reports the file incomplete: " + report.failure + " (within " + limit +
               ")";
    }
    if (report.sha256 != sender->GetSourceSha256())
    {
        return "the received file differs from the sent one (SHA-256 " + report.sha256 + " vs " +
               sender->GetSourceSha256() + ")";
    }
    return "";
}

/// The data flow (to the server) and the ACK flow (to the client), with the packets each end sent.
struct Directions
{
    RudpFlowSummary data; ///< the flow that reaches the server
    RudpFlowSummary ack;  ///< the flow that reaches the client
    uint64_t dataSent{0}; ///< packets the client sent
    uint64_t ackSent{0};  ///< packets the server sent
};

/// Adds \p flow to \p sum: packets and bytes added, delay and jitter averaged over the packets.
void
Merge(RudpFlowSummary& sum, const RudpFlowSummary& flow)
{
    if (sum.rxPackets + sum.txPackets == 0)
    {
        sum = flow;
        return;
    }
    const double rx = sum.rxPackets + flow.rxPackets;
    if (rx > 0)
    {
        sum.meanDelayS = (sum.meanDelayS * sum.rxPackets + flow.meanDelayS * flow.rxPackets) / rx;
        sum.meanJitterS =
            (sum.meanJitterS * sum.rxPackets + flow.meanJitterS * flow.rxPackets) / rx;
    }
    sum.txPackets += flow.txPackets;
    sum.rxPackets += flow.rxPackets;
}

/// \return the two directions among \p flows: over every path, between the client's
/// addresses and the server's
Directions
SplitFlows(const std::vector<RudpFlowSummary>& flows, const RudpFileTransferHelper& path)
{
    Directions d;
    for (uint32_t p = 0; p < path.GetNPaths(); ++p)
    {
        const Ipv4Address client = path.GetClientAddress(p);
        const Ipv4Address server = path.GetServerAddress(p);
        for (const auto& flow : flows)
        {
            if (path.GetNPaths() == 1)
            {
                // One path: the flow to the address (the last if FlowMonitor split it).
                d.data = flow.destination == server ? flow : d.data;
                d.ack = flow.destination == client ? flow : d.ack;
            }
            else if (flow.destination == server)
            {
                Merge(d.data, flow);
            }
            else if (flow.destination == client)
            {
                Merge(d.ack, flow);
            }
            d.dataSent += flow.source == client ? flow.txPackets : 0;
            d.ackSent += flow.source == server ? flow.txPackets : 0;
        }
    }
    return d;
}

} // namespace

int
main(int argc, char* argv[])
{
    RudpFileTransferOptions options;
    RudpScenarioRecord record("rudp-file-transfer");
    std::string cwndTrace;
    RudpTraceOptions tracing;

    RudpCommandLine cmd(__FILE__);
    options.AddOptions(cmd);
    record.AddOption(cmd);
    cmd.AddValue("cwnd-trace",
                 "Write the sender's congestion window, slow-start threshold and congestion "
                 "state, one line per change, to this file (CSV: time_s, cwnd_bytes, "
                 "ssthresh_bytes, state, timeouts)",
                 cwndTrace,
                 "a file path that can be written",
                 RudpCommandLine::WritableFile());
    tracing.AddOptions(cmd);
    cmd.Parse(argc, argv);
    options.ResolveOrFail();
    options.ConfigureSockets();
    const Time maxTime = options.GetMaxTime();

    RudpFileTransferHelper path;
    options.Configure(path);
    path.Install();
    path.AssignStreams(0);
    path.EnablePcapAll(tracing.GetPcapPrefix());

    const InetSocketAddress serverAddress = path.GetServerAddress();
    RudpFileReceiverHelper receiverHelper(
        options.GetSocketFactory(),
        InetSocketAddress(Ipv4Address::GetAny(), serverAddress.GetPort()));
    options.Configure(receiverHelper);
    ApplicationContainer receiverApps = receiverHelper.Install(path.GetServer());
    RudpFileSenderHelper senderHelper(options.GetSocketFactory(), path.GetClientRemote());
    options.Configure(senderHelper);
    ApplicationContainer senderApps = senderHelper.Install(path.GetClient());
    senderApps.Start(SENDER_START);
    // At --max-time the receiver reports a transfer still under way (incomplete).
    receiverApps.Stop(maxTime);
    Ptr<RudpFileSender> sender = DynamicCast<RudpFileSender>(senderApps.Get(0));
    Ptr<RudpFileReceiver> receiver = DynamicCast<RudpFileReceiver>(receiverApps.Get(0));

    FlowMonitorHelper flowHelper;
    Ptr<FlowMonitor> monitor = flowHelper.InstallAll();
    tracing.SetFlowMonitor(monitor);

    Ptr<RudpCwndTrace> cwnd;
    if (!cwndTrace.empty())
    {
        cwnd = Create<RudpCwndTrace>(cwndTrace);
        if (!cwnd->IsGood())
        {
            RudpParameterCheck::Fail("cwnd-trace", "cannot write '" + cwndTrace + "'");
        }
        // The sender makes its socket when it starts.
        cwnd->ConnectWhenCreated(MakeCallback(&RudpFileSender::GetSocket, sender), SENDER_START);
    }

    Simulator::Stop(maxTime);
    Simulator::Run();
    // Simulator::Stop ends the run before the receiver's stop of the same
    // instant, scheduled after it: let that instant finish.
    Simulator::Stop(Seconds(0));
    Simulator::Run();

    // No socket if the run ended before the sender started (--max-time < 0.1 s).
    Ptr<Socket> socket = sender->GetSocket();
    const SenderCounts stats = CountsOf(socket);
    const auto& reports = receiver->GetReports();
    const std::string failure = Failure(sender, socket, reports, maxTime);
    const bool ok = failure.empty();
    const RudpFileReport report = reports.empty() ? RudpFileReport() : reports.front();

    // Time and throughput exist only for a finished transfer (JSON null otherwise).
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double seconds = ok ? (report.lastByteTime - SENDER_START).GetSeconds() : nan;
    const double kBps = ok ? report.bytes / seconds / 1000.0 : nan;
    const double mbps = ok ? report.bytes * 8.0 / seconds / 1e6 : nan;
    const uint64_t checksumErrors =
        ChecksumErrors(path.GetClient()) + ChecksumErrors(path.GetServer());
    const std::vector<RudpFlowSummary> flows = RudpSummarizeFlows(flowHelper, monitor);
    const Directions d = SplitFlows(flows, path);
    // Netem's counts, over every path.
    const bool netem = path.GetDataNetem() != nullptr;
    NetemQueueDisc::Counts data;
    NetemQueueDisc::Counts ack;
    for (uint32_t p = 0; netem && p < path.GetNPaths(); ++p)
    {
        Add(data, path.GetDataNetem(p)->GetCounts());
        Add(ack, path.GetAckNetem(p)->GetCounts());
    }
    Ptr<RudpRelay> relay = path.GetRelay();

    if (ok)
    {
        const std::string transport =
            options.GetPaths() > 1
                ? "rudp-cmt paths=" + std::to_string(options.GetPaths())
                : options.GetVariant() + " window=" + std::to_string(options.GetWindow());
        std::cout << std::fixed << std::setprecision(3) << "rudp-file-transfer: " << transport
                  << " loss=" << options.GetLoss() << " corruption=" << options.GetCorruption()
                  << " delay=" << options.GetDelay().As(Time::MS)
                  << " RngRun=" << RngSeedManager::GetRun() << "\n  file " << report.name << ": "
                  << report.bytes << " bytes in " << seconds << " s = " << kBps << " KB/s (" << mbps
                  << " Mbit/s), SHA-256 match\n  retransmissions " << stats.retransmissions
                  << ", timeouts " << stats.timeouts << ", fast retransmits "
                  << stats.fastRetransmits << ", checksum errors " << checksumErrors
                  << "\n  data flow: " << d.dataSent << " packets sent, " << d.data.rxPackets
                  << " received, mean delay " << d.data.meanDelayS * 1e3 << " ms, mean jitter "
                  << d.data.meanJitterS * 1e3 << " ms\n  ACK flow: " << d.ackSent
                  << " packets sent, " << d.ack.rxPackets << " received, mean delay "
                  << d.ack.meanDelayS * 1e3 << " ms" << std::endl;
        for (const RudpJson& sent : stats.paths)
        {
            std::cout << "  path " << sent.Dump() << std::endl;
        }
        if (netem)
        {
            std::cout << "  netem: data " << data.lost << " lost, " << data.duplicated
                      << " duplicated, " << data.reordered << " reordered; ACKs " << ack.lost
                      << " lost" << std::endl;
        }
    }
    else
    {
        std::cerr << "error: transfer failed: " << failure << std::endl;
    }

    if (record.IsWanted())
    {
        RudpJson json;
        record.SetOutcome(json, ok, failure);
        options.AddToJson(json);
        json.Set("file", reports.empty() ? options.GetSource().GetName() : report.name)
            .Set("bytes", report.bytes)
            .Set("transfer_time_s", seconds)
            .Set("throughput_kBps", kBps)
            .Set("throughput_Mbps", mbps)
            .Set("retransmissions", stats.retransmissions)
            .Set("timeouts", stats.timeouts)
            .Set("fast_retransmits", stats.fastRetransmits)
            .Set("checksum_errors", checksumErrors);
        if (options.GetPaths() > 1)
        {
            json.Set("paths_sent", stats.paths);
        }
        else
        {
            json.Set("segments_sent", stats.segmentsSent);
        }
        json.Set("sha256", report.sha256)
            .Set("sha256_sent", sender->GetSourceSha256())
            .Set("sha256_match", ok)
            .Set("data_tx_packets", d.dataSent)
            .Set("data_rx_packets", d.data.rxPackets)
            .Set("data_lost_packets", d.dataSent - std::min(d.dataSent, d.data.rxPackets))
            .Set("data_delay_mean_s", d.data.meanDelayS)
            .Set("data_jitter_mean_s", d.data.meanJitterS)
            .Set("ack_tx_packets", d.ackSent)
            .Set("ack_rx_packets", d.ack.rxPackets)
            .Set("ack_lost_packets", d.ackSent - std::min(d.ackSent, d.ack.rxPackets))
            .Set("ack_delay_mean_s", d.ack.meanDelayS)
            .Set("ack_jitter_mean_s", d.ack.meanJitterS)
            .Set("relay_dropped", relay ? relay->GetDropped() : 0)
            .Set("relay_overflow_dropped", relay ? relay->GetOverflowDropped() : 0)
            .Set("relay_residence_mean_s", relay ? relay->GetMeanResidence().GetSeconds() : 0.0);
        if (netem)
        {
            json.Set("netem_data_lost", data.lost)
                .Set("netem_data_limit_dropped", data.limitDropped)
                .Set("netem_data_duplicated", data.duplicated)
                .Set("netem_data_reordered", data.reordered)
                .Set("netem_ack_lost", ack.lost)
                .Set("netem_ack_limit_dropped", ack.limitDropped);
        }
        std::vector<RudpJson> flowList;
        for (const auto& flow : flows)
        {
            flowList.push_back(flow.ToJson());
        }
        json.Set("flows", flowList);
        record.WriteOrFail(json);
    }
    // The traces, once the record is written.
    tracing.WriteFlowMonitor();
    if (cwnd && !cwnd->Close())
    {
        RudpParameterCheck::Fail("cwnd-trace", "cannot write '" + cwndTrace + "'");
    }
    Simulator::Destroy();
    return ok ? 0 : 1;
}
