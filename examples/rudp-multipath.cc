/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-cmt
 * A phone with two radios sends a file to a server over a multipath
 * association (RudpCmtSocket) with stock applications: BulkSend on the
 * phone, PacketSink on the server, Protocol ns3::RudpCmtSocketFactory.
 *
 *   phone --wlan (fast, short)--- AP -------+
 *     |                                     server (two addresses)
 *     +---cell (slow, long)---- base -------+
 *
 * Each radio's access link is a point-to-point link with the rate, delay
 * and loss given; each access router reaches its own address of the server,
 * and static routes keep each path on its own radio.
 * The association learns the server's second address from its INIT-ACK and
 * sends on both paths at once. The coupling and the scheduler are options;
 * the program prints what each path carried, the goodput, and FlowMonitor's
 * view of every flow, and can write every path's congestion window.
 *
 *   ./ns3 run "rudp-multipath --coupling=lia --cwnd-trace=cwnd.tsv"
 *
 * Bad parameters exit with status 2; a transfer that does not complete in
 * the simulated time exits with status 1.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-module.h"
#include "ns3/rudp-trace-options.h"

#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("RudpMultipathExample");

namespace
{

/// One access network of the phone.
struct Access
{
    DataRate rate;  ///< the radio's rate
    Time delay;     ///< one-way delay to the access router
    double loss{0}; ///< packet loss probability on the radio link
};

/**
 * \brief Builds phone -- router -- server for one radio.
 * \return the server's address on this access network
 */
Ipv4Address
Connect(NodeContainer& nodes, uint32_t router, const Access& access, uint32_t network)
{
    PointToPointHelper radio;
    radio.SetDeviceAttribute("DataRate", DataRateValue(access.rate));
    radio.SetChannelAttribute("Delay", TimeValue(access.delay));
    NetDeviceContainer air = radio.Install(nodes.Get(0), nodes.Get(router));
    if (access.loss > 0)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<RateErrorModel> error = CreateObject<RateErrorModel>();
            error->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            error->SetRate(access.loss);
            air.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(error));
        }
    }
    PointToPointHelper wire;
    wire.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    wire.SetChannelAttribute("Delay", StringValue("5ms"));
    NetDeviceContainer core = wire.Install(nodes.Get(router), nodes.Get(1));
    Ipv4AddressHelper address;
    address.SetBase(Ipv4Address(0x0a000000 + (network << 16) + (1 << 8)), "255.255.255.0");
    const Ipv4InterfaceContainer radioSide = address.Assign(air);
    address.SetBase(Ipv4Address(0x0a000000 + (network << 16) + (2 << 8)), "255.255.255.0");
    const Ipv4InterfaceContainer coreSide = address.Assign(core);
    // Each radio reaches its own address of the server, and the server
    // answers each radio through the same router: the two paths are
    // disjoint. (Global routing would send both through one router, the
    // networks being equally far.)
    Ipv4StaticRoutingHelper routing;
    const Ipv4Mask mask("255.255.255.0");
    Ptr<Ipv4> phone = nodes.Get(0)->GetObject<Ipv4>();
    Ptr<Ipv4> server = nodes.Get(1)->GetObject<Ipv4>();
    routing.GetStaticRouting(phone)->AddNetworkRouteTo(
        coreSide.GetAddress(1).CombineMask(mask),
        mask,
        radioSide.GetAddress(1),
        phone->GetInterfaceForAddress(radioSide.GetAddress(0)));
    routing.GetStaticRouting(server)->AddNetworkRouteTo(
        radioSide.GetAddress(0).CombineMask(mask),
        mask,
        coreSide.GetAddress(0),
        server->GetInterfaceForAddress(coreSide.GetAddress(1)));
    return coreSide.GetAddress(1);
}

/// Writes a path's new congestion window: time, path, bytes.
void
WriteCwnd(std::ofstream* out, uint32_t path, uint32_t, uint32_t cwnd)
{
    *out << Simulator::Now().GetSeconds() << '\t' << path << '\t' << cwnd << '\n';
}

/// Connects every association's per-path window trace (the sockets exist once BulkSend started).
void
TraceCwnd(std::ofstream* out)
{
    Config::ConnectWithoutContextFailSafe(
        "/NodeList/0/$ns3::RudpCmtSocketFactory/SocketList/*/PathCongestionWindow",
        MakeBoundCallback(&WriteCwnd, out));
}

} // namespace

int
main(int argc, char* argv[])
{
    Access wlan{DataRate("20Mbps"), MilliSeconds(10), 0.0};
    Access cell{DataRate("5Mbps"), MilliSeconds(40), 0.0};
    uint64_t bytes = 10000000;
    Time duration = Seconds(60);
    std::string coupling = "uncoupled";
    std::string scheduler = "round-robin";
    std::string cwndTrace;
    uint32_t rcvBuf = 1u << 22;

    RudpCommandLine cmd(__FILE__);
    cmd.Usage("A phone with a Wi-Fi-like and a cellular-like link sends a file to a server "
              "over one multipath association (RudpCmtSocket) with BulkSend and PacketSink.");
    cmd.AddValue("wlan-rate",
                 "Rate of the Wi-Fi-like link",
                 wlan.rate,
                 DataRate("1kbps"),
                 DataRate("10Gbps"));
    cmd.AddValue("wlan-delay",
                 "One-way delay of the Wi-Fi-like link",
                 wlan.delay,
                 Seconds(0),
                 Seconds(10));
    cmd.AddValue("wlan-loss",
                 "Packet loss probability of the Wi-Fi-like link",
                 wlan.loss,
                 0.0,
                 1.0,
                 RudpText::OPEN_HIGH);
    cmd.AddValue("cell-rate",
                 "Rate of the cellular-like link",
                 cell.rate,
                 DataRate("1kbps"),
                 DataRate("10Gbps"));
    cmd.AddValue("cell-delay",
                 "One-way delay of the cellular-like link",
                 cell.delay,
                 Seconds(0),
                 Seconds(10));
    cmd.AddValue("cell-loss",
                 "Packet loss probability of the cellular-like link",
                 cell.loss,
                 0.0,
                 1.0,
                 RudpText::OPEN_HIGH);
    cmd.AddValue("bytes", "Bytes the phone sends", bytes, 1, uint64_t(1) << 40);
    cmd.AddValue("duration",
                 "Simulated time allowed for the transfer",
                 duration,
                 Seconds(1),
                 Seconds(1000000));
    cmd.AddValue("rcvbuf", "The server's receive buffer (bytes)", rcvBuf, 1500, 1u << 30);
    cmd.AddValue("coupling",
                 "Coupled congestion control: uncoupled (CMT's), lia (RFC 6356), olia "
                 "(Khalili et al.), balia (Peng et al.) or rpv2 (CMT/RPv2)",
                 coupling,
                 RudpCmtCoupling::GetShortNames());
    cmd.AddValue("scheduler",
                 "Path scheduler: round-robin, lowest-rtt-first, buffer-aware or blest",
                 scheduler,
                 {"round-robin", "lowest-rtt-first", "buffer-aware", "blest"});
    cmd.AddValue("cwnd-trace",
                 "Write every path's congestion window to this file (TSV)",
                 cwndTrace);
    cmd.SetsAttributes("coupling", {"ns3::RudpCmtSocket::Coupling"});
    cmd.SetsAttributes("scheduler", {"ns3::RudpCmtSocket::Scheduler"});
    cmd.SetsAttributes("rcvbuf", {"ns3::RudpCmtSocket::RcvBufSize"});
    RudpTraceOptions tracing;
    tracing.AddOptions(cmd);
    cmd.Parse(argc, argv);

    Config::SetDefault("ns3::RudpCmtSocket::Coupling",
                       TypeIdValue(RudpCmtCoupling::LookupByShortName(coupling)));
    const std::map<std::string, std::string> schedulers{{"round-robin", "RoundRobin"},
                                                        {"lowest-rtt-first", "LowestRttFirst"},
                                                        {"buffer-aware", "BufferAware"},
                                                        {"blest", "Blest"}};
    Config::SetDefault("ns3::RudpCmtSocket::Scheduler", StringValue(schedulers.at(scheduler)));
    Config::SetDefault("ns3::RudpCmtSocket::RcvBufSize", UintegerValue(rcvBuf));

    NodeContainer nodes;
    nodes.Create(4); // phone, server, Wi-Fi access point, cellular base station
    InternetStackHelper().Install(nodes);
    const Ipv4Address serverWlan = Connect(nodes, 2, wlan, 1);
    Connect(nodes, 3, cell, 2);
    PointToPointHelper every; // --pcap: every device (all are point-to-point)
    tracing.EnablePcap(every);
    RudpStackHelper().Install(nodes.Get(0));
    RudpStackHelper().Install(nodes.Get(1));

    const uint16_t port = 9000;
    PacketSinkHelper sink("ns3::RudpCmtSocketFactory",
                          InetSocketAddress(Ipv4Address::GetAny(), port));
    Ptr<PacketSink> server = DynamicCast<PacketSink>(sink.Install(nodes.Get(1)).Get(0));
    BulkSendHelper bulk("ns3::RudpCmtSocketFactory", InetSocketAddress(serverWlan, port));
    bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
    Ptr<BulkSendApplication> phone =
        DynamicCast<BulkSendApplication>(bulk.Install(nodes.Get(0)).Get(0));
    phone->SetStartTime(Seconds(1));

    std::ofstream cwnd;
    if (!cwndTrace.empty())
    {
        cwnd.open(cwndTrace);
        cwnd << "time_s\tpath\tcwnd_bytes\n";
        Simulator::Schedule(Seconds(1) + NanoSeconds(1), &TraceCwnd, &cwnd);
    }
    tracing.InstallFlowMonitor();
    Simulator::Stop(duration);
    Simulator::Run();

    const bool complete = server->GetTotalRx() == bytes;
    Ptr<RudpCmtSocket> association = DynamicCast<RudpCmtSocket>(phone->GetSocket());
    std::cout << "coupling " << coupling << ", scheduler " << scheduler << ": "
              << server->GetTotalRx() << " of " << bytes << " bytes delivered\n";
    if (association)
    {
        for (const Ptr<RudpCmtPath>& path : association->GetSender()->GetPaths())
        {
            std::cout << "  path " << path->GetIndex() << " to "
                      << InetSocketAddress::ConvertFrom(path->GetRemote()).GetIpv4() << ": "
                      << path->GetStats().bytesSent << " bytes sent, "
                      << path->GetStats().retransmissions << " resent, "
                      << path->GetStats().timeouts << " timeouts\n";
        }
    }
    tracing.WriteFlowMonitor();
    Simulator::Destroy();
    if (!complete)
    {
        std::cerr << "the transfer did not complete in " << duration.GetSeconds() << " s\n";
        return 1;
    }
    return 0;
}
