/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-examples
 * Many connections at once: --flows BulkSend applications, each moving
 * --flow-bytes over a connection of its own, from client hosts through a
 * router to one PacketSink on a server, with RUDP, ns-3's TCP or the
 * multipath socket (one path: the hosts have one interface each).
 *
 *     host 1 (flows 1..F) ----+
 *     host 2 (flows F+1..2F) -+-- router ---- server (PacketSink)
 *     ...                  ---+
 *
 * A host has 16 384 ephemeral ports (ns-3 hands out 49152 to 65535), so a
 * host runs at most --flows-per-host flows (10 000). Every link is --rate
 * (10 Gbit/s) with --delay, and its device queue holds --queue packets
 * (no queue discipline), enough that no flow loses a packet in the runs of
 * bench/many_flows.py: what a run costs is then what the connections cost,
 * not how they recover. Flow i starts at 0.1 s + i * --start-spacing (0:
 * all at once); the record's "concurrent" counts the flows that had started
 * before the first one finished, which were all open at once.
 *
 * The transports are set alike where they differ by default: 1400-byte
 * segments, an initial window of 10 segments, an ACK every second segment,
 * SACK and RFC 6298's adaptive timeout for RUDP, as ns-3's TCP has them;
 * RUDP's window is capped by the receiver's (WindowSize 65535), as TCP's is.
 *
 * The record gives the bytes delivered, the simulator's events (and per
 * wall-clock second), and when the flows started and finished; the bench
 * measures the process's CPU time and peak memory.
 *
 * --pcap=PREFIX writes every device's pcap file and --flowmon-xml=FILE
 * installs a FlowMonitor and writes its XML (RudpTraceOptions); both cost
 * time and memory, so a run that measures the transport leaves them out.
 *
 *     rudp-many-flows --transport=rudp --flows=1000 --flow-bytes=100000
 *     rudp-many-flows --transport=tcp --flows=20000 --flow-bytes=5000 --output=tcp.json
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-module.h"
#include "ns3/rudp-parameter-check.h"
#include "ns3/rudp-scenario-record.h"
#include "ns3/rudp-trace-options.h"
#include "ns3/traffic-control-module.h"

#include <chrono>
#include <iostream>
#include <unordered_map>

using namespace ns3;

namespace
{

/// When the flows finish, from the bytes the sink receives from each.
class FlowCompletion
{
  public:
    /// \param flowBytes the bytes each flow moves
    explicit FlowCompletion(uint64_t flowBytes)
        : m_flowBytes(flowBytes)
    {
    }

    /// PacketSink's RxWithAddresses: \p packet arrived from \p from.
    void Received(Ptr<const Packet> packet, const Address& from, const Address& /* local */)
    {
        const InetSocketAddress peer = InetSocketAddress::ConvertFrom(from);
        const uint64_t key = (static_cast<uint64_t>(peer.GetIpv4().Get()) << 16) | peer.GetPort();
        uint64_t& bytes = m_bytes[key];
        bytes += packet->GetSize();
        if (bytes == m_flowBytes)
        {
            if (m_finished == 0)
            {
                m_firstFinish = Simulator::Now();
            }
            ++m_finished;
            m_lastFinish = Simulator::Now();
        }
    }

    uint64_t m_flowBytes;                             ///< each flow's bytes
    std::unordered_map<uint64_t, uint64_t> m_bytes{}; ///< received, by source address and port
    uint32_t m_finished{0};                           ///< flows complete
    Time m_firstFinish{};                             ///< when the first completed
    Time m_lastFinish{};                              ///< when the last completed
};

} // namespace

int
main(int argc, char* argv[])
{
    std::string transport = "rudp";
    uint32_t flows = 1000;
    uint64_t flowBytes = 100000;
    uint32_t flowsPerHost = 10000;
    DataRate rate("10Gbps");
    Time delay = MicroSeconds(10);
    uint32_t queue = 1000000;
    Time spacing = Seconds(0);
    Time maxTime = Seconds(1000);
    RudpScenarioRecord record("rudp-many-flows");
    RudpTraceOptions tracing;
    RudpCommandLine cmd(__FILE__);
    cmd.AddValue("transport",
                 "Transport: RUDP, ns-3 TCP, or the multipath socket",
                 transport,
                 {"rudp", "tcp", "rudp-cmt"});
    cmd.AddValue("flows", "Connections, each from a BulkSend of its own", flows, 1u, 1000000u);
    cmd.AddValue("flow-bytes", "Bytes each connection moves", flowBytes, 1, 1ULL << 32);
    // ns-3's ephemeral ports are 49152..65535.
    cmd.AddValue("flows-per-host", "Most connections on a client host", flowsPerHost, 1u, 16384u);
    cmd.AddValue("rate", "Data rate of every link", rate, DataRate("1Mbps"), DataRate("100Gbps"));
    cmd.AddValue("delay", "One-way delay of every link", delay, Seconds(0), Seconds(1));
    cmd.AddValue("queue", "Packets each device queue holds", queue, 1u, 10000000u);
    cmd.AddValue("start-spacing",
                 "Time between the starts of consecutive flows",
                 spacing,
                 Seconds(0),
                 Seconds(1));
    cmd.AddValue("max-time",
                 "Simulated time after which unfinished flows fail the run",
                 maxTime,
                 Seconds(1),
                 Seconds(1e6));
    record.AddOption(cmd);
    const std::vector<std::string> alike{
        "ns3::TcpSocket::SegmentSize",
        "ns3::RudpSocket::SegmentSize",
        "ns3::RudpSocket::InitialCwnd",
        "ns3::RudpSocket::DelAckCount",
        "ns3::RudpSocket::Sack",
        "ns3::RudpSocket::RtoMode",
        "ns3::RudpSocket::WindowSize",
        "ns3::RudpSocket::InitialSlowStartThreshold",
        "ns3::RudpCmtSocket::SegmentSize",
        "ns3::RudpCmtSocket::InitialCwnd",
        "ns3::RudpCmtSocket::DelAckCount",
    };
    cmd.SetsAttributes("", alike);
    tracing.AddOptions(cmd);
    cmd.Parse(argc, argv);
    const uint32_t hosts = (flows + flowsPerHost - 1) / flowsPerHost;
    if (hosts > 1000)
    {
        RudpParameterCheck::Fail("flows",
                                 std::to_string(flows) + " flows need " + std::to_string(hosts) +
                                     " hosts of flows-per-host each; allowed: at most 1000 hosts");
    }

    const uint32_t segment = 1400;
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segment));
    Config::SetDefault("ns3::RudpSocket::SegmentSize", UintegerValue(segment));
    Config::SetDefault("ns3::RudpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::RudpSocket::DelAckCount", UintegerValue(2));
    Config::SetDefault("ns3::RudpSocket::Sack", BooleanValue(true));
    Config::SetDefault("ns3::RudpSocket::RtoMode", StringValue("Adaptive"));
    Config::SetDefault("ns3::RudpSocket::WindowSize", UintegerValue(65535));
    Config::SetDefault("ns3::RudpSocket::InitialSlowStartThreshold", UintegerValue(1 << 30));
    Config::SetDefault("ns3::RudpCmtSocket::SegmentSize", UintegerValue(segment));
    Config::SetDefault("ns3::RudpCmtSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::RudpCmtSocket::DelAckCount", UintegerValue(2));

    // Node 0 the server, node 1 the router, then the client hosts.
    NodeContainer server(1);
    NodeContainer router(1);
    NodeContainer clients(hosts);
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(rate));
    link.SetChannelAttribute("Delay", TimeValue(delay));
    link.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue(std::to_string(queue) + "p"));
    std::vector<NetDeviceContainer> links{link.Install(server.Get(0), router.Get(0))};
    for (uint32_t h = 0; h < hosts; ++h)
    {
        links.push_back(link.Install(clients.Get(h), router.Get(0)));
    }
    tracing.EnablePcap(link);
    NodeContainer all(server, router, clients);
    InternetStackHelper().Install(all);
    RudpStackHelper().Install(all);
    tracing.InstallFlowMonitor(); // only with --flowmon-xml
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer serverLink;
    for (const NetDeviceContainer& devices : links)
    {
        Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
        if (serverLink.GetN() == 0)
        {
            serverLink = interfaces;
        }
        addresses.NewNetwork();
        // The device queues alone, no queue discipline in front of them.
        TrafficControlHelper().Uninstall(devices);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    uint64_t drops = 0;
    for (const NetDeviceContainer& devices : links)
    {
        for (uint32_t d = 0; d < devices.GetN(); ++d)
        {
            DynamicCast<PointToPointNetDevice>(devices.Get(d))
                ->GetQueue()
                ->TraceConnectWithoutContext("Drop",
                                             MakeBoundCallback(
                                                 +[](uint64_t* n, Ptr<const Packet>) { ++*n; },
                                                 &drops));
        }
    }

    const std::string factory = transport == "tcp"        ? "ns3::TcpSocketFactory"
                                : transport == "rudp-cmt" ? "ns3::RudpCmtSocketFactory"
                                                          : "ns3::RudpSocketFactory";
    const uint16_t port = 9;
    ApplicationContainer sinks =
        PacketSinkHelper(factory, InetSocketAddress(Ipv4Address::GetAny(), port))
            .Install(server.Get(0));
    Ptr<PacketSink> sink = DynamicCast<PacketSink>(sinks.Get(0));
    FlowCompletion completion(flowBytes);
    sink->TraceConnectWithoutContext("RxWithAddresses",
                                     MakeCallback(&FlowCompletion::Received, &completion));

    BulkSendHelper bulk(factory, InetSocketAddress(serverLink.GetAddress(0), port));
    bulk.SetAttribute("MaxBytes", UintegerValue(flowBytes));
    bulk.SetAttribute("SendSize", UintegerValue(segment));
    const Time firstStart = Seconds(0.1);
    for (uint32_t i = 0; i < flows; ++i)
    {
        ApplicationContainer app = bulk.Install(clients.Get(i / flowsPerHost));
        app.Start(firstStart + TimeStep(spacing.GetTimeStep() * i));
    }
    const Time lastStart = firstStart + TimeStep(spacing.GetTimeStep() * (flows - 1));

    const auto start = std::chrono::steady_clock::now();
    Simulator::Stop(maxTime);
    Simulator::Run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const uint64_t events = Simulator::GetEventCount();
    tracing.WriteFlowMonitor();
    const uint64_t delivered = sink->GetTotalRx();
    const uint64_t expected = flowBytes * flows;

    // The flows that had started when the first one finished were all open then.
    uint32_t concurrent = flows;
    if (completion.m_finished > 0 && spacing.IsStrictlyPositive() &&
        completion.m_firstFinish <= lastStart)
    {
        concurrent = static_cast<uint32_t>((completion.m_firstFinish - firstStart).GetInteger() /
                                           spacing.GetInteger()) +
                     1;
    }
    std::string failure;
    if (delivered != expected || completion.m_finished != flows)
    {
        failure = std::to_string(completion.m_finished) + " of " + std::to_string(flows) +
                  " flows finished by --max-time, " + std::to_string(delivered) + " of " +
                  std::to_string(expected) + " bytes delivered";
    }
    Simulator::Destroy();
    const bool ok = failure.empty();
    const double eventsPerSecond = wall > 0 ? events / wall : 0.0;
    if (ok)
    {
        std::cout << transport << ": " << flows << " flows of " << flowBytes << " bytes on "
                  << hosts << " hosts, " << concurrent << " at once, " << delivered
                  << " bytes delivered by " << completion.m_lastFinish.GetSeconds() << " s, "
                  << drops << " packets dropped, " << wall << " s wall, " << events << " events, "
                  << eventsPerSecond << " events/s" << std::endl;
    }
    else
    {
        std::cerr << "error: " << failure << std::endl;
    }
    if (record.IsWanted())
    {
        RudpJson json;
        record.SetOutcome(json, ok, failure);
        json.Set("transport", transport)
            .Set("flows", flows)
            .Set("flow_bytes", flowBytes)
            .Set("hosts", hosts)
            .Set("rate_bps", static_cast<uint64_t>(rate.GetBitRate()))
            .Set("delay_s", delay.GetSeconds())
            .Set("queue_packets", queue)
            .Set("bytes", delivered)
            .Set("queue_drops", drops)
            .Set("concurrent", concurrent)
            .Set("last_start_s", lastStart.GetSeconds())
            .Set("first_finish_s", completion.m_firstFinish.GetSeconds())
            .Set("last_finish_s", completion.m_lastFinish.GetSeconds())
            .Set("events", events)
            .Set("wall_s", wall)
            .Set("events_per_s", eventsPerSecond);
        record.WriteOrFail(json);
    }
    return ok ? 0 : 1;
}
