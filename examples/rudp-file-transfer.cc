/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp
 * Seed 000's experiment: one file from a client to a server over reliable
 * UDP, with stop-and-wait, Go-Back-N or Reno, through a lossy, delayed path.
 *
 *     client ---- CSMA ---- router ---- CSMA (--delay) ---- server
 *      10.1.1.1           10.1.1.2 10.1.2.1              10.1.2.2
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
 * Linux netem on the router (--reorder, --duplicate, --jitter, --ack-loss,
 * --blackout-start/--blackout-duration), in every router mode: a
 * NetemQueueDisc on the router's egress device towards the server
 * (client-to-server datagrams: netem's "delay J J reorder P duplicate P", an
 * extra delay uniform in [0, 2 J) that reordered datagrams skip) and one
 * towards the client (server-to-client datagrams: "loss P"); a blackout
 * loses every datagram entering either. Only with these options: without
 * them the run is exactly as before, and with them --delay stays where it
 * was, so that a run differs from one without them by the impairments only.
 * Netem impairs ARP too, as Linux's does; so that a lost ARP exchange costs
 * what it costs in Linux (a new request with the next packet), not ns-3's
 * default 100 s of silence, ArpCache's DeadTimeout is then 0.
 *
 * FlowMonitor measures every flow; the data_* metrics are those of the flow
 * that reaches the server, ack_* of the flow that reaches the client (with a
 * relay, each direction is two flows, one per hop: all are in "flows").
 *
 * The received file's SHA-256 is checked against the sent one in every run:
 * a transfer that fails or delivers a different file exits with status 1
 * and a message, never with a number. Bad parameters exit with status 2.
 *
 *     ./ns3 run "rudp-file-transfer --variant=go-back-n --window=30 --loss=0.05"
 *     ./ns3 run "rudp-file-transfer --variant=reno --delay=20ms --output=run.json"
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/rudp-module.h"
#include "ns3/traffic-control-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("RudpFileTransfer");

namespace
{

/// The command-line names of the variants, in RudpSocket::Variant order.
const std::vector<std::string> VARIANTS{"stop-and-wait", "go-back-n", "reno"};
const std::vector<std::string> VARIANT_ATTRIBUTES{"StopAndWait", "GoBackN", "Reno"};

/// Checksum errors of every RUDP socket on \p node.
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
    return errors;
}

/// Sets a netem disc's Loss and Duplicate (a blackout's start and end).
void
SetNetemLoss(Ptr<NetemQueueDisc> disc, double loss, double duplicate)
{
    disc->SetAttribute("Loss", DoubleValue(loss));
    disc->SetAttribute("Duplicate", DoubleValue(duplicate));
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string variant = "reno";
    uint32_t window = 30;
    uint32_t mss = 1400;
    double loss = 0.0;
    double corruption = 0.0;
    Time delay = MilliSeconds(0);
    std::string router = "none";
    DataRate rate("100Mbps");
    std::string file = "1.jpg";
    uint64_t size = 0;
    uint64_t contentSeed = 1;
    std::string rtoMode = "fixed";
    Time rto = Seconds(2);
    bool selectiveRepeat = false;
    std::string receivedDir;
    std::string output;
    Time maxTime = Seconds(3600);
    double reorder = 0.0;
    double duplicate = 0.0;
    Time jitter = Seconds(0);
    double ackLoss = 0.0;
    uint32_t corruptionBits = 1;
    Time blackoutStart = Seconds(0);
    Time blackoutDuration = Seconds(0);

    CommandLine cmd(__FILE__);
    cmd.AddValue("variant", "Protocol variant: stop-and-wait|go-back-n|reno", variant);
    cmd.AddValue("window", "Window N in segments (Go-Back-N; Reno's cap), 1..65535", window);
    cmd.AddValue("mss", "Segment payload size in bytes, 1..1454", mss);
    cmd.AddValue("loss", "Probability that a client-to-server datagram is lost, 0..1", loss);
    cmd.AddValue("corruption",
                 "Probability that a client-to-server datagram has a bit flipped, 0..1",
                 corruption);
    cmd.AddValue("delay", "One-way delay of client-to-server datagrams, e.g. 20ms (0..10s)", delay);
    cmd.AddValue("router",
                 "How the router impairs the path: none (error model and channel delay), "
                 "delay or sleeping (seed 000's relay)",
                 router);
    cmd.AddValue("rate", "Channel data rate, e.g. 100Mbps", rate);
    cmd.AddValue("file",
                 "File to send: a path, or a test-set name (1.jpg, 2.jpg, 3.jpg, "
                 "helloworld.txt; generated with the seed's sizes)",
                 file);
    cmd.AddValue("size",
                 "Send this many generated bytes instead of the file (0: send the file)",
                 size);
    cmd.AddValue("content-seed", "Seed of generated content", contentSeed);
    cmd.AddValue("rto-mode", "Retransmission timeout: fixed|adaptive", rtoMode);
    cmd.AddValue("rto", "Fixed RTO, and the initial adaptive one (1ms..3600s)", rto);
    cmd.AddValue("sack",
                 "Selective repeat with SACK instead of the seed's go-back-N",
                 selectiveRepeat);
    cmd.AddValue("received-dir",
                 "Directory to write the received file to (empty: not stored)",
                 receivedDir);
    cmd.AddValue("output", "Write the metrics as JSON to this file", output);
    cmd.AddValue("max-time", "Simulated time after which an unfinished transfer fails", maxTime);
    cmd.AddValue("reorder",
                 "Probability that a client-to-server datagram is sent at once, skipping the "
                 "jitter delay, and so overtakes those delayed (netem's reorder), 0..1; needs "
                 "a jitter above 0",
                 reorder);
    cmd.AddValue("duplicate",
                 "Probability that a client-to-server datagram is sent twice (netem), 0..1",
                 duplicate);
    cmd.AddValue("jitter",
                 "Extra client-to-server delay, uniform in [0, 2 x jitter) (netem's delay J J), "
                 "so datagrams overtake one another; 0..10s",
                 jitter);
    cmd.AddValue("ack-loss",
                 "Probability that a server-to-client datagram is lost (netem), 0..1",
                 ackLoss);
    cmd.AddValue("corruption-bits",
                 "Distinct bits flipped in each datagram that corruption corrupts, 1..64",
                 corruptionBits);
    cmd.AddValue("blackout-start",
                 "Start of a blackout: every datagram reaching the router, either way, is "
                 "lost during [start, start + duration) (netem)",
                 blackoutStart);
    cmd.AddValue("blackout-duration", "Duration of the blackout (0: none)", blackoutDuration);
    cmd.Parse(argc, argv);
    if (size > 0)
    {
        file.clear(); // generated content
    }

    const size_t variantIndex = RudpParameterCheck::OneOf("variant", variant, VARIANTS);
    const size_t rtoIndex = RudpParameterCheck::OneOf("rto-mode", rtoMode, {"fixed", "adaptive"});
    const size_t routerIndex =
        RudpParameterCheck::OneOf("router", router, {"none", "delay", "sleeping"});
    RudpParameterCheck::Range<uint32_t>("window", window, 1, 65535);
    RudpParameterCheck::Range<uint32_t>("mss", mss, 1, 1454);
    RudpParameterCheck::Range("loss", loss, 0.0, 1.0);
    RudpParameterCheck::Range("corruption", corruption, 0.0, 1.0);
    if (loss > 0 && corruption > 0)
    {
        RudpParameterCheck::Fail("corruption", "use either --loss or --corruption in one run");
    }
    RudpParameterCheck::Range("delay", delay, Seconds(0), Seconds(10));
    RudpParameterCheck::Range("rto", rto, MilliSeconds(1), Seconds(3600));
    RudpParameterCheck::Range("max-time", maxTime, MilliSeconds(1), Seconds(1e9));
    RudpParameterCheck::Range<uint64_t>("rate", rate.GetBitRate(), 1000, 1000000000000);
    RudpParameterCheck::Range("reorder", reorder, 0.0, 1.0);
    RudpParameterCheck::Range("duplicate", duplicate, 0.0, 1.0);
    RudpParameterCheck::Range("jitter", jitter, Seconds(0), Seconds(10));
    RudpParameterCheck::Range("ack-loss", ackLoss, 0.0, 1.0);
    RudpParameterCheck::Range<uint32_t>("corruption-bits", corruptionBits, 1, 64);
    RudpParameterCheck::Range("blackout-start", blackoutStart, Seconds(0), Seconds(1e9));
    RudpParameterCheck::Range("blackout-duration", blackoutDuration, Seconds(0), Seconds(1e9));
    if (reorder > 0 && !jitter.IsStrictlyPositive())
    {
        RudpParameterCheck::Fail("reorder",
                                 "needs --jitter > 0: reordered datagrams skip netem's delay "
                                 "(netem's rule), so without one nothing is overtaken");
    }
    // Netem only when asked for: runs without these options stay as they were.
    const bool useNetem = reorder > 0 || duplicate > 0 || jitter.IsStrictlyPositive() ||
                          ackLoss > 0 || blackoutDuration.IsStrictlyPositive();
    {
        std::string error;
        RudpFileSource probe = RudpFileSource::Generated("", 0, 0);
        if (!RudpFileSource::Open(file, size, contentSeed, probe, error))
        {
            RudpParameterCheck::Fail("file", error);
        }
    }

    Config::SetDefault("ns3::RudpSocket::Variant", StringValue(VARIANT_ATTRIBUTES[variantIndex]));
    Config::SetDefault("ns3::RudpSocket::WindowSize", UintegerValue(window));
    Config::SetDefault("ns3::RudpSocket::SegmentSize", UintegerValue(mss));
    Config::SetDefault("ns3::RudpSocket::RtoMode",
                       StringValue(rtoIndex == 0 ? "Fixed" : "Adaptive"));
    Config::SetDefault("ns3::RudpSocket::Rto", TimeValue(rto));
    Config::SetDefault("ns3::RudpSocket::SelectiveRepeat", BooleanValue(selectiveRepeat));
    if (useNetem)
    {
        Config::SetDefault("ns3::ArpCache::DeadTimeout", TimeValue(Seconds(0)));
    }

    NodeContainer nodes(3);
    Ptr<Node> client = nodes.Get(0);
    Ptr<Node> middle = nodes.Get(1);
    Ptr<Node> server = nodes.Get(2);
    CsmaHelper csma;
    csma.SetChannelAttribute("DataRate", DataRateValue(rate));
    NetDeviceContainer clientLink = csma.Install(NodeContainer(client, middle));
    csma.SetChannelAttribute("Delay", TimeValue(routerIndex == 0 ? delay : Seconds(0)));
    NetDeviceContainer serverLink = csma.Install(NodeContainer(middle, server));

    InternetStackHelper internet;
    internet.Install(nodes);
    RudpStackHelper rudp;
    rudp.Install(nodes);
    rudp.AssignStreams(nodes, 10);
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer clientSide = addresses.Assign(clientLink);
    addresses.SetBase("10.1.2.0", "255.255.255.0");
    Ipv4InterfaceContainer serverSide = addresses.Assign(serverLink);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    // The design card's impairments, on the server's receiving device. A
    // device takes one error model: a run either drops or corrupts.
    Ptr<RateErrorModel> lossModel = CreateObject<RateErrorModel>();
    lossModel->SetAttribute("ErrorRate", DoubleValue(routerIndex == 0 ? loss : 0.0));
    lossModel->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    lossModel->AssignStreams(0);
    Ptr<RudpCorruptionErrorModel> corruptionModel = CreateObject<RudpCorruptionErrorModel>();
    corruptionModel->SetAttribute("ErrorRate", DoubleValue(corruption));
    corruptionModel->SetAttribute("BitsPerPacket", UintegerValue(corruptionBits));
    corruptionModel->AssignStreams(1);
    serverLink.Get(1)->SetAttribute("ReceiveErrorModel",
                                    PointerValue(corruption > 0 ? Ptr<ErrorModel>(corruptionModel)
                                                                : Ptr<ErrorModel>(lossModel)));

    // Netem on the router's egress devices: towards the server (data) and
    // towards the client (ACKs).
    Ptr<NetemQueueDisc> dataNetem;
    Ptr<NetemQueueDisc> ackNetem;
    if (useNetem)
    {
        TrafficControlHelper netem;
        netem.SetRootQueueDisc("ns3::NetemQueueDisc",
                               "Limit", // a window in flight, retransmissions and copies
                               UintegerValue(1000 + 4 * window));
        NetDeviceContainer egress(serverLink.Get(0));
        egress.Add(clientLink.Get(1));
        netem.Uninstall(egress);
        QueueDiscContainer discs = netem.Install(egress);
        dataNetem = DynamicCast<NetemQueueDisc>(discs.Get(0));
        dataNetem->SetAttribute("Reorder", DoubleValue(reorder));
        dataNetem->SetAttribute("Duplicate", DoubleValue(duplicate));
        dataNetem->SetAttribute("Delay", TimeValue(jitter)); // delay J J: [0, 2 J)
        dataNetem->SetAttribute("Jitter", TimeValue(jitter));
        dataNetem->AssignStreams(100);
        ackNetem = DynamicCast<NetemQueueDisc>(discs.Get(1));
        ackNetem->SetAttribute("Loss", DoubleValue(ackLoss));
        ackNetem->AssignStreams(110);
        if (blackoutDuration.IsStrictlyPositive())
        {
            const Time end = blackoutStart + blackoutDuration;
            Simulator::Schedule(blackoutStart, &SetNetemLoss, dataNetem, 1.0, 0.0);
            Simulator::Schedule(end, &SetNetemLoss, dataNetem, 0.0, duplicate);
            Simulator::Schedule(blackoutStart, &SetNetemLoss, ackNetem, 1.0, 0.0);
            Simulator::Schedule(end, &SetNetemLoss, ackNetem, ackLoss, 0.0);
        }
    }

    const uint16_t serverPort = 2222; // the seed's ports
    const uint16_t relayPort = 3333;
    const InetSocketAddress serverAddress(serverSide.GetAddress(1), serverPort);
    Ptr<RudpRelay> relay;
    if (routerIndex > 0)
    {
        relay = CreateObject<RudpRelay>();
        relay->SetAttribute("Port", UintegerValue(relayPort));
        relay->SetAttribute("Server", AddressValue(serverAddress));
        relay->SetAttribute("Loss", DoubleValue(loss));
        relay->SetAttribute("Delay", TimeValue(delay));
        relay->SetAttribute("Mode", StringValue(routerIndex == 1 ? "Delay" : "Sleeping"));
        relay->AssignStreams(2);
        middle->AddApplication(relay);
    }

    RudpFileReceiverHelper receiverHelper("ns3::RudpSocketFactory",
                                          InetSocketAddress(Ipv4Address::GetAny(), serverPort));
    receiverHelper.SetAttribute("OutputDirectory", StringValue(receivedDir));
    ApplicationContainer receiverApps = receiverHelper.Install(server);
    const Address remote = routerIndex > 0
                               ? Address(InetSocketAddress(clientSide.GetAddress(1), relayPort))
                               : Address(serverAddress);
    RudpFileSenderHelper senderHelper("ns3::RudpSocketFactory", remote);
    senderHelper.SetAttribute("File", StringValue(file));
    senderHelper.SetAttribute("Size", UintegerValue(size));
    senderHelper.SetAttribute("ContentSeed", UintegerValue(contentSeed));
    ApplicationContainer senderApps = senderHelper.Install(client);
    const Time start = Seconds(0.1);
    senderApps.Start(start);

    FlowMonitorHelper flowHelper;
    Ptr<FlowMonitor> monitor = flowHelper.InstallAll();

    Simulator::Stop(maxTime);
    Simulator::Run();

    Ptr<RudpFileSender> sender = DynamicCast<RudpFileSender>(senderApps.Get(0));
    Ptr<RudpFileReceiver> receiver = DynamicCast<RudpFileReceiver>(receiverApps.Get(0));
    Ptr<RudpSocket> socket = DynamicCast<RudpSocket>(sender->GetSocket());
    const RudpSocket::Stats& stats = socket->GetStats();
    const auto& reports = receiver->GetReports();

    std::string failure;
    if (sender->HasFailed())
    {
        failure = "the sender's connection failed";
    }
    else if (reports.empty())
    {
        failure = "no file arrived within --max-time=" + std::to_string(maxTime.GetSeconds()) + "s";
    }
    else if (!reports.front().complete)
    {
        failure = "the file arrived incomplete: " + std::to_string(reports.front().bytes) + " of " +
                  std::to_string(reports.front().size) + " bytes";
    }
    else if (reports.front().sha256 != sender->GetSourceSha256())
    {
        failure = "the received file differs from the sent one (SHA-256 " + reports.front().sha256 +
                  " vs " + sender->GetSourceSha256() + ")";
    }
    if (!failure.empty())
    {
        std::cerr << "error: transfer failed: " << failure << std::endl;
        Simulator::Destroy();
        return 1;
    }

    const RudpFileReport& report = reports.front();
    const double seconds = (report.lastByteTime - start).GetSeconds();
    const double kBps = report.bytes / seconds / 1000.0;
    const double mbps = report.bytes * 8.0 / seconds / 1e6;
    const uint64_t checksumErrors = ChecksumErrors(client) + ChecksumErrors(server);
    const std::vector<RudpFlowSummary> flows = RudpSummarizeFlows(flowHelper, monitor);
    const Ipv4Address clientAddress = clientSide.GetAddress(0);
    // The flow that reaches the server carries the data, the one that
    // reaches the client the ACKs; the client's own flow counts what it sent.
    RudpFlowSummary data;
    RudpFlowSummary ack;
    uint64_t dataSent = 0;
    uint64_t ackSent = 0;
    for (const auto& flow : flows)
    {
        data = flow.destination == serverAddress.GetIpv4() ? flow : data;
        ack = flow.destination == clientAddress ? flow : ack;
        dataSent += flow.source == clientAddress ? flow.txPackets : 0;
        ackSent += flow.source == serverAddress.GetIpv4() ? flow.txPackets : 0;
    }

    std::cout << std::fixed << std::setprecision(3) << "rudp-file-transfer: " << variant
              << " window=" << window << " loss=" << loss << " corruption=" << corruption
              << " delay=" << delay.As(Time::MS) << " RngRun=" << RngSeedManager::GetRun()
              << "\n  file " << report.name << ": " << report.bytes << " bytes in " << seconds
              << " s = " << kBps << " KB/s (" << mbps << " Mbit/s), SHA-256 match"
              << "\n  retransmissions " << stats.retransmissions << ", timeouts " << stats.timeouts
              << ", fast retransmits " << stats.fastRetransmits << ", checksum errors "
              << checksumErrors << "\n  data flow: " << dataSent << " packets sent, "
              << data.rxPackets << " received, mean delay " << data.meanDelayS * 1e3
              << " ms, mean jitter " << data.meanJitterS * 1e3 << " ms\n  ACK flow: " << ackSent
              << " packets sent, " << ack.rxPackets << " received, mean delay "
              << ack.meanDelayS * 1e3 << " ms" << std::endl;
    if (useNetem)
    {
        std::cout << "  netem: data " << dataNetem->GetCounts().lost << " lost, "
                  << dataNetem->GetCounts().duplicated << " duplicated, "
                  << dataNetem->GetCounts().reordered << " reordered; ACKs "
                  << ackNetem->GetCounts().lost << " lost" << std::endl;
    }

    if (!output.empty())
    {
        RudpJson json;
        json.Set("scenario", "rudp-file-transfer")
            .Set("variant", variant)
            .Set("window", window)
            .Set("mss", mss)
            .Set("loss", loss)
            .Set("corruption", corruption)
            .Set("delay_s", delay.GetSeconds())
            .Set("rto_mode", rtoMode)
            .Set("rto_s", rto.GetSeconds())
            .Set("sack", selectiveRepeat)
            .Set("rng_run", static_cast<uint64_t>(RngSeedManager::GetRun()))
            .Set("rng_seed", static_cast<uint64_t>(RngSeedManager::GetSeed()))
            .Set("file", report.name)
            .Set("bytes", report.bytes)
            .Set("transfer_time_s", seconds)
            .Set("throughput_kBps", kBps)
            .Set("throughput_Mbps", mbps)
            .Set("retransmissions", stats.retransmissions)
            .Set("timeouts", stats.timeouts)
            .Set("fast_retransmits", stats.fastRetransmits)
            .Set("checksum_errors", checksumErrors)
            .Set("segments_sent", stats.segmentsSent)
            .Set("sha256", report.sha256)
            .Set("sha256_match", true)
            .Set("router", router)
            .Set("data_tx_packets", dataSent)
            .Set("data_rx_packets", data.rxPackets)
            .Set("data_lost_packets", dataSent - std::min(dataSent, data.rxPackets))
            .Set("data_delay_mean_s", data.meanDelayS)
            .Set("data_jitter_mean_s", data.meanJitterS)
            .Set("ack_tx_packets", ackSent)
            .Set("ack_rx_packets", ack.rxPackets)
            .Set("ack_lost_packets", ackSent - std::min(ackSent, ack.rxPackets))
            .Set("ack_delay_mean_s", ack.meanDelayS)
            .Set("ack_jitter_mean_s", ack.meanJitterS)
            .Set("relay_dropped", relay ? relay->GetDropped() : 0)
            .Set("relay_overflow_dropped", relay ? relay->GetOverflowDropped() : 0)
            .Set("relay_residence_mean_s", relay ? relay->GetMeanResidence().GetSeconds() : 0.0);
        if (useNetem || corruptionBits != 1) // else the record stays as it was
        {
            json.Set("reorder", reorder)
                .Set("duplicate", duplicate)
                .Set("jitter_s", jitter.GetSeconds())
                .Set("ack_loss", ackLoss)
                .Set("corruption_bits", corruptionBits)
                .Set("blackout_start_s", blackoutStart.GetSeconds())
                .Set("blackout_duration_s", blackoutDuration.GetSeconds());
        }
        if (useNetem)
        {
            const NetemQueueDisc::Counts& d = dataNetem->GetCounts();
            const NetemQueueDisc::Counts& a = ackNetem->GetCounts();
            json.Set("netem_data_lost", d.lost)
                .Set("netem_data_limit_dropped", d.limitDropped)
                .Set("netem_data_duplicated", d.duplicated)
                .Set("netem_data_reordered", d.reordered)
                .Set("netem_ack_lost", a.lost)
                .Set("netem_ack_limit_dropped", a.limitDropped);
        }
        std::vector<RudpJson> flowList;
        for (const auto& flow : flows)
        {
            flowList.push_back(flow.ToJson());
        }
        json.Set("flows", flowList);
        if (!json.Write(output))
        {
            RudpParameterCheck::Fail("output", "cannot write '" + output + "'");
        }
    }
    Simulator::Destroy();
    return 0;
}
