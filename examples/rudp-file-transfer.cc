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

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/csma-module.h"
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

#include <iomanip>
#include <iostream>
#include <limits>

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

/// The sender's start: 0.1 s, as the seed's client started after its server.
const Time SENDER_START = Seconds(0.1);

/**
 * With --router=none the router-server link is ns-3's CSMA channel, which is
 * busy for the whole propagation delay of each frame; a frame that finds it
 * busy backs off at most 1000 times by 1..999 us slots (CsmaNetDevice's
 * Backoff), about 0.5 s in all, and is then dropped. Longer delays make
 * every frame that waits behind another a loss, and ARP (1 s reply timeout)
 * gives up on top: the path stops being a delayed link.
 */
const Time CSMA_MAX_DELAY = MilliSeconds(500);

/// The link kinds of --link.
const std::vector<std::string> LINKS{"csma", "p2p"};

/// IPv4 (20) + UDP (8) + RUDP header (18): what an MTU carries besides the segment.
const uint32_t SEGMENT_OVERHEAD = 20 + 8 + 18;

/// The largest MTU of a link kind: Ethernet's 1500 for CSMA (CsmaNetDevice's
/// DIX framing), IPv4's 65535 for point-to-point.
uint32_t
MaxMtu(size_t linkIndex)
{
    return linkIndex == 0 ? 1500 : 65535;
}

/// Why the transfer failed, or "" if the file arrived intact.
std::string
Failure(Ptr<RudpFileSender> sender,
        Ptr<RudpSocket> socket,
        const std::vector<RudpFileReport>& reports,
        Time maxTime)
{
    const std::string limit = "--max-time=" + RudpCommandLine::FormatTime(maxTime);
    if (!socket)
    {
        return "the sender had not started by " + limit + " (it starts at " +
               RudpCommandLine::FormatTime(SENDER_START) + ")";
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
    std::string link = "csma";
    uint32_t mtu = 1500;
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
    Time netemDelay = Seconds(0);
    double ackLoss = 0.0;
    uint32_t corruptionBits = 1;
    Time blackoutStart = Seconds(0);
    Time blackoutDuration = Seconds(0);
    std::string checksum = "internet";
    std::string cwndTrace;
    RudpTraceOptions tracing;

    RudpCommandLine cmd(__FILE__);
    cmd.AddValue("variant", "Protocol variant", variant, VARIANTS);
    cmd.AddValue("window",
                 "Window N in segments (Go-Back-N; Reno's cap), as RudpSocket::WindowSize",
                 window,
                 1u,
                 65535u);
    // --mtu less IPv4 (20), UDP (8) and the RUDP header (18): 1454 at 1500;
    // checked against --mtu below. 65000 is RudpSocket::SegmentSize's limit.
    cmd.AddValue("mss",
                 "Segment payload in bytes: at most the MTU less the IPv4, UDP and RUDP headers "
                 "(46 bytes; 1454 at the default MTU of 1500)",
                 mss,
                 1u,
                 65000u);
    cmd.AddValue("loss", "Probability that a client-to-server datagram is lost", loss, 0.0, 1.0);
    cmd.AddValue("corruption",
                 "Probability that a client-to-server datagram has a bit flipped",
                 corruption,
                 0.0,
                 1.0);
    cmd.AddValue("delay",
                 "One-way delay of client-to-server datagrams (with router none at most 500ms: "
                 "the CSMA channel is busy for the whole delay, see doc/scenarios.rst)",
                 delay,
                 Seconds(0),
                 Seconds(10));
    cmd.AddValue("router",
                 "How the router impairs the path: none (error model and channel delay), "
                 "delay or sleeping (seed 000's relay)",
                 router,
                 {"none", "delay", "sleeping"});
    cmd.AddValue("rate", "Channel data rate", rate, DataRate("1kbps"), DataRate("1000Gbps"));
    cmd.AddValue("link",
                 "Both links: csma (half duplex; a channel busy while a frame propagates, so the "
                 "delay also cuts capacity) or p2p (full duplex; the delay is pure propagation)",
                 link,
                 LINKS);
    cmd.AddValue("mtu",
                 "Both links' MTU in bytes: at most 1500 on csma links (Ethernet), 65535 on "
                 "p2p links (IPv4's limit; a loopback's MTU)",
                 mtu,
                 68u,
                 65535u);
    cmd.AddValue("file",
                 "File to send: a path, or a test-set name (1.jpg, 2.jpg, 3.jpg, "
                 "helloworld.txt; generated with the seed's sizes)",
                 file);
    cmd.AddValue("size",
                 "Send this many generated bytes instead of the file (0: send the file; up "
                 "to 1 TiB)",
                 size,
                 0,
                 1ULL << 40);
    cmd.AddValue("content-seed",
                 "Seed of generated content",
                 contentSeed,
                 0,
                 std::numeric_limits<uint64_t>::max());
    cmd.AddValue("rto-mode", "Retransmission timeout", rtoMode, {"fixed", "adaptive"});
    cmd.AddValue("rto",
                 "Fixed RTO, and the initial adaptive one (RudpSocket::Rto's range; the "
                 "adaptive RTO then stays within RudpSocket::MinRto and MaxRto, 1s and 60s "
                 "by default)",
                 rto,
                 MilliSeconds(1),
                 Seconds(3600));
    cmd.AddValue("sack",
                 "Selective repeat with SACK instead of the seed's go-back-N",
                 selectiveRepeat);
    cmd.AddValue("received-dir",
                 "Directory to write the received file to (empty: not stored)",
                 receivedDir);
    cmd.AddValue("output",
                 "Write the metrics as JSON to this file, also when the transfer fails",
                 output,
                 "a file path that can be written",
                 RudpCommandLine::WritableFile());
    cmd.AddValue("max-time",
                 "Simulated time after which an unfinished transfer fails (up to 10^9 s, "
                 "inside ns-3's 64-bit nanosecond clock)",
                 maxTime,
                 Seconds(0),
                 Seconds(1e9),
                 RudpCommandLine::OPEN_LOW);
    // The program sets these itself: a --ns3::...=value for them would be overridden.
    cmd.SetsAttribute("ns3::RudpSocket::Variant", "variant");
    cmd.SetsAttribute("ns3::RudpSocket::WindowPolicy", "variant");
    cmd.SetsAttribute("ns3::RudpSocketFactory::WindowPolicy", "variant");
    cmd.SetsAttribute("ns3::RudpSocket::WindowSize", "window");
    cmd.SetsAttribute("ns3::RudpSocket::SegmentSize", "mss");
    cmd.SetsAttribute("ns3::RudpSocket::RtoMode", "rto-mode");
    cmd.SetsAttribute("ns3::RudpSocket::InitialRto", "rto");
    cmd.SetsAttribute("ns3::RudpSocket::Rto", "rto"); // the former names too
    cmd.SetsAttribute("ns3::RudpSocket::Sack", "sack");
    cmd.SetsAttribute("ns3::RudpSocket::SelectiveRepeat", "sack");
    cmd.SetsAttribute("ns3::RateErrorModel::ErrorRate", "loss");
    cmd.SetsAttribute("ns3::RateErrorModel::ErrorUnit");
    cmd.SetsAttribute("ns3::RudpCorruptionErrorModel::ErrorRate", "corruption");
    cmd.SetsAttribute("ns3::CsmaChannel::DataRate", "rate");
    cmd.SetsAttribute("ns3::CsmaChannel::Delay", "delay");
    cmd.SetsAttribute("ns3::CsmaNetDevice::Mtu", "mtu");
    cmd.SetsAttribute("ns3::PointToPointNetDevice::DataRate", "rate");
    cmd.SetsAttribute("ns3::PointToPointNetDevice::Mtu", "mtu");
    cmd.SetsAttribute("ns3::PointToPointChannel::Delay", "delay");
    cmd.SetsAttribute("ns3::RudpRelay::Loss", "loss");
    cmd.SetsAttribute("ns3::RudpRelay::Delay", "delay");
    cmd.SetsAttribute("ns3::RudpRelay::Mode", "router");
    cmd.AddValue("checksum",
                 "Segment checksum: internet (RFC 1071's 16-bit sum, the seed's) or crc32c "
                 "(SCTP's CRC-32c, RFC 4960 appendix B)",
                 checksum,
                 {"internet", "crc32c"});
    cmd.AddValue("reorder",
                 "Probability that a client-to-server datagram is sent at once, skipping "
                 "netem's delay, and so overtakes those delayed (netem's reorder); needs a "
                 "netem delay (netem-delay or jitter above 0)",
                 reorder,
                 0.0,
                 1.0);
    cmd.AddValue("duplicate",
                 "Probability that a client-to-server datagram is sent twice (netem)",
                 duplicate,
                 0.0,
                 1.0);
    cmd.AddValue("netem-delay",
                 "Netem's delay D on client-to-server datagrams, on top of the path's delay "
                 "(netem's delay D [J]; 0: none, or J when only a jitter J is given)",
                 netemDelay,
                 Seconds(0),
                 Seconds(10));
    cmd.AddValue("jitter",
                 "Netem's jitter J on client-to-server datagrams: their netem delay is uniform "
                 "in [D - J, D + J) (netem's delay D J), D = J without a netem delay, so "
                 "datagrams overtake one another",
                 jitter,
                 Seconds(0),
                 Seconds(10));
    cmd.AddValue("ack-loss",
                 "Probability that a server-to-client datagram is lost (netem)",
                 ackLoss,
                 0.0,
                 1.0);
    cmd.AddValue("corruption-bits",
                 "Distinct bits flipped in each datagram that corruption corrupts",
                 corruptionBits,
                 1u,
                 64u);
    cmd.AddValue("blackout-start",
                 "Start of a blackout: every datagram reaching the router, either way, is "
                 "lost during [start, start + duration) (netem)",
                 blackoutStart,
                 Seconds(0),
                 Seconds(1e9));
    cmd.AddValue("blackout-duration",
                 "Duration of the blackout (0: none)",
                 blackoutDuration,
                 Seconds(0),
                 Seconds(1e9));
    cmd.SetsAttribute("ns3::RudpSocket::Checksum", "checksum");
    cmd.SetsAttribute("ns3::RudpCorruptionErrorModel::BitsPerPacket", "corruption-bits");
    cmd.AddValue("cwnd-trace",
                 "Write the sender's congestion window, slow-start threshold and congestion "
                 "state, one line per change, to this file (CSV: time_s, cwnd_bytes, "
                 "ssthresh_bytes, state, timeouts)",
                 cwndTrace,
                 "a file path that can be written",
                 RudpCommandLine::WritableFile());
    tracing.AddOptions(cmd);
    cmd.Parse(argc, argv);
    if (size > 0)
    {
        file.clear(); // generated content
    }

    // What only a combination rules out.
    const size_t variantIndex = RudpParameterCheck::OneOf("variant", variant, VARIANTS);
    const size_t routerIndex =
        RudpParameterCheck::OneOf("router", router, {"none", "delay", "sleeping"});
    if (loss > 0 && corruption > 0)
    {
        RudpParameterCheck::Fail("corruption", "use either --loss or --corruption in one run");
    }
    const size_t linkIndex = RudpParameterCheck::OneOf("link", link, LINKS);
    if (mtu > MaxMtu(linkIndex))
    {
        RudpParameterCheck::Fail("mtu",
                                 "'" + std::to_string(mtu) + "' is too large for --link=" + link +
                                     "; allowed: [68, " + std::to_string(MaxMtu(linkIndex)) +
                                     "] (65535 with --link=p2p)");
    }
    if (mss + SEGMENT_OVERHEAD > mtu)
    {
        RudpParameterCheck::Fail("mss",
                                 "'" + std::to_string(mss) +
                                     "' does not fit --mtu=" + std::to_string(mtu) +
                                     "; allowed: [1, " + std::to_string(mtu - SEGMENT_OVERHEAD) +
                                     "] (the MTU less IPv4, UDP and RUDP headers, 46 bytes)");
    }
    if (routerIndex == 0 && linkIndex == 0 && delay > CSMA_MAX_DELAY)
    {
        RudpParameterCheck::Fail(
            "delay",
            RudpCommandLine::FormatTime(delay) + " is too long for --router=none; allowed: [0s, " +
                RudpCommandLine::FormatTime(CSMA_MAX_DELAY) +
                "] (the CSMA channel is busy for the whole delay and drops a frame that waits "
                "longer than its backoff, about 0.5 s); use --router=delay for longer delays");
    }
    RudpFileSource source = RudpFileSource::Generated("", 0, 0);
    // tc's "delay J" alone is "delay J J" here, as this option always was.
    const Time netemBaseDelay = netemDelay.IsStrictlyPositive() ? netemDelay : jitter;
    if (reorder > 0 && !netemBaseDelay.IsStrictlyPositive())
    {
        RudpParameterCheck::Fail("reorder",
                                 "needs a netem delay, --netem-delay > 0 or --jitter > 0: "
                                 "reordered datagrams skip netem's delay (netem's rule), so "
                                 "without one nothing is overtaken");
    }
    // The MTU - IPv4 (20) - UDP (8) - RUDP header with CRC-32c (20): 1452 at 1500.
    if (checksum == "crc32c" && mss + SEGMENT_OVERHEAD + 2 > mtu)
    {
        RudpParameterCheck::Fail("mss",
                                 "must be in [1, " + std::to_string(mtu - SEGMENT_OVERHEAD - 2) +
                                     "] with --checksum=crc32c (its header is 2 bytes longer), "
                                     "got " +
                                     std::to_string(mss));
    }
    // Netem only when asked for: runs without these options stay as they were.
    const bool useNetem = reorder > 0 || duplicate > 0 || netemBaseDelay.IsStrictlyPositive() ||
                          ackLoss > 0 || blackoutDuration.IsStrictlyPositive();
    {
        std::string error;
        if (!RudpFileSource::Open(file, size, contentSeed, source, error))
        {
            RudpParameterCheck::Fail("file", error);
        }
    }

    Config::SetDefault("ns3::RudpSocket::Variant", StringValue(VARIANT_ATTRIBUTES[variantIndex]));
    Config::SetDefault("ns3::RudpSocket::WindowSize", UintegerValue(window));
    Config::SetDefault("ns3::RudpSocket::SegmentSize", UintegerValue(mss));
    Config::SetDefault("ns3::RudpSocket::RtoMode",
                       StringValue(rtoMode == "fixed" ? "Fixed" : "Adaptive"));
    Config::SetDefault("ns3::RudpSocket::InitialRto", TimeValue(rto));
    Config::SetDefault("ns3::RudpSocket::Sack", BooleanValue(selectiveRepeat));
    Config::SetDefault("ns3::RudpSocket::Checksum",
                       StringValue(checksum == "internet" ? "Internet16" : "Crc32c"));
    if (useNetem)
    {
        Config::SetDefault("ns3::ArpCache::DeadTimeout", TimeValue(Seconds(0)));
    }

    NodeContainer nodes(3);
    Ptr<Node> client = nodes.Get(0);
    Ptr<Node> middle = nodes.Get(1);
    Ptr<Node> server = nodes.Get(2);
    // The router-server link has the delay with --router=none; with a relay
    // the relay delays.
    const Time linkDelay = routerIndex == 0 ? delay : Seconds(0);
    NetDeviceContainer clientLink;
    NetDeviceContainer serverLink;
    if (linkIndex == 0)
    {
        CsmaHelper csma;
        csma.SetChannelAttribute("DataRate", DataRateValue(rate));
        if (mtu != 1500) // CsmaNetDevice's default: runs without --mtu stay as they were
        {
            csma.SetDeviceAttribute("Mtu", UintegerValue(mtu));
        }
        clientLink = csma.Install(NodeContainer(client, middle));
        csma.SetChannelAttribute("Delay", TimeValue(linkDelay));
        serverLink = csma.Install(NodeContainer(middle, server));
        tracing.EnablePcap(csma);
    }
    else
    {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(rate));
        p2p.SetDeviceAttribute("Mtu", UintegerValue(mtu));
        clientLink = p2p.Install(client, middle);
        p2p.SetChannelAttribute("Delay", TimeValue(linkDelay));
        serverLink = p2p.Install(middle, server);
        tracing.EnablePcap(p2p);
    }

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
        dataNetem->SetAttribute("Delay", TimeValue(netemBaseDelay));
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
    senderApps.Start(SENDER_START);
    // At --max-time the receiver reports a transfer still under way (incomplete).
    receiverApps.Stop(maxTime);

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
        cwnd->ConnectWhenCreated(MakeCallback(&RudpFileSender::GetSocket,
                                              DynamicCast<RudpFileSender>(senderApps.Get(0))),
                                 SENDER_START);
    }

    Simulator::Stop(maxTime);
    Simulator::Run();
    // Simulator::Stop ends the run before the receiver's stop of the same
    // instant, scheduled after it: let that instant finish.
    Simulator::Stop(Seconds(0));
    Simulator::Run();

    Ptr<RudpFileSender> sender = DynamicCast<RudpFileSender>(senderApps.Get(0));
    Ptr<RudpFileReceiver> receiver = DynamicCast<RudpFileReceiver>(receiverApps.Get(0));
    // No socket if the run ended before the sender started (--max-time < 0.1 s).
    Ptr<RudpSocket> socket = DynamicCast<RudpSocket>(sender->GetSocket());
    const RudpSocket::Stats stats = socket ? socket->GetStats() : RudpSocket::Stats();
    const auto& reports = receiver->GetReports();
    const std::string failure = Failure(sender, socket, reports, maxTime);
    const bool ok = failure.empty();
    const RudpFileReport report = reports.empty() ? RudpFileReport() : reports.front();

    // Time and throughput exist only for a finished transfer (JSON null otherwise).
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double seconds = ok ? (report.lastByteTime - SENDER_START).GetSeconds() : nan;
    const double kBps = ok ? report.bytes / seconds / 1000.0 : nan;
    const double mbps = ok ? report.bytes * 8.0 / seconds / 1e6 : nan;
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

    if (ok)
    {
        std::cout << std::fixed << std::setprecision(3) << "rudp-file-transfer: " << variant
                  << " window=" << window << " loss=" << loss << " corruption=" << corruption
                  << " delay=" << delay.As(Time::MS) << " RngRun=" << RngSeedManager::GetRun()
                  << "\n  file " << report.name << ": " << report.bytes << " bytes in " << seconds
                  << " s = " << kBps << " KB/s (" << mbps
                  << " Mbit/s), SHA-256 match\n  retransmissions " << stats.retransmissions
                  << ", timeouts " << stats.timeouts << ", fast retransmits "
                  << stats.fastRetransmits << ", checksum errors " << checksumErrors
                  << "\n  data flow: " << dataSent << " packets sent, " << data.rxPackets
                  << " received, mean delay " << data.meanDelayS * 1e3 << " ms, mean jitter "
                  << data.meanJitterS * 1e3 << " ms\n  ACK flow: " << ackSent << " packets sent, "
                  << ack.rxPackets << " received, mean delay " << ack.meanDelayS * 1e3 << " ms"
                  << std::endl;
        if (useNetem)
        {
            std::cout << "  netem: data " << dataNetem->GetCounts().lost << " lost, "
                      << dataNetem->GetCounts().duplicated << " duplicated, "
                      << dataNetem->GetCounts().reordered << " reordered; ACKs "
                      << ackNetem->GetCounts().lost << " lost" << std::endl;
        }
    }
    else
    {
        std::cerr << "error: transfer failed: " << failure << std::endl;
    }

    if (!output.empty())
    {
        RudpJson json;
        json.Set("scenario", "rudp-file-transfer")
            .Set("ok", ok)
            .Set("failure", failure)
            .Set("variant", variant)
            .Set("window", window)
            .Set("mss", mss)
            .Set("loss", loss)
            .Set("corruption", corruption)
            .Set("delay_s", delay.GetSeconds())
            .Set("rto_mode", rtoMode)
            .Set("rto_s", rto.GetSeconds())
            .Set("sack", selectiveRepeat)
            .Set("max_time_s", maxTime.GetSeconds())
            .Set("rng_run", static_cast<uint64_t>(RngSeedManager::GetRun()))
            .Set("rng_seed", static_cast<uint64_t>(RngSeedManager::GetSeed()))
            .Set("file", reports.empty() ? source.GetName() : report.name)
            .Set("file_size", source.GetSize())
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
            .Set("sha256_sent", sender->GetSourceSha256())
            .Set("sha256_match", ok)
            .Set("router", router)
            .Set("link", link)
            .Set("mtu", mtu)
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
        json.Set("checksum", checksum)
            .Set("reorder", reorder)
            .Set("duplicate", duplicate)
            .Set("jitter_s", jitter.GetSeconds())
            .Set("netem_delay_s", netemBaseDelay.GetSeconds())
            .Set("ack_loss", ackLoss)
            .Set("corruption_bits", corruptionBits)
            .Set("blackout_start_s", blackoutStart.GetSeconds())
            .Set("blackout_duration_s", blackoutDuration.GetSeconds());
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
    // The traces, once the record is written.
    tracing.WriteFlowMonitor();
    if (cwnd && !cwnd->Close())
    {
        RudpParameterCheck::Fail("cwnd-trace", "cannot write '" + cwndTrace + "'");
    }
    Simulator::Destroy();
    return ok ? 0 : 1;
}
