/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-cmt
 * A phone with Wi-Fi and a cellular radio sends to a server with one
 * address over a multipath association (RudpCmtSocket: BulkSend on the
 * phone, PacketSink on the server, ns3::RudpCmtSocketFactory), and walks
 * out of the Wi-Fi's coverage and back.
 *
 *   phone ))) 802.11n ((( AP ---- 1 Gbit/s, 1 ms ----+
 *     |                                              router -- 1 Gbit/s, 5 ms -- server
 *     +------ cellular (--cellular) ---------------------+
 *
 * The Wi-Fi is ns-3's 802.11n (Minstrel-HT, log-distance loss). The
 * cellular radio is, with --cellular=p2p (the default), a point-to-point
 * link to the operator's router (--cellular-rate, --cellular-delay); with
 * --cellular=lte, ns-3's LTE (where the host has the lte module, as the
 * wheel does): the phone is a UE of an eNB 500 m from the walk's line,
 * whose EPC's PGW is wired to the router (1 Gbit/s, 1 ms). Routes are
 * static: the phone's default route is by the cellular radio, so that its
 * datagrams for the server go by the cellular radio. With --path-manager=full-mesh (the default,
 * RudpFullMesh) the association has a path from each radio's address; with
 * sctp (RudpSctpPaths, SCTP's: a path per server address) it has one, on
 * the radio the routing picks.
 *
 * The phone stands 10 m from the AP, walks --distance away at --speed from
 * --walk-out, and back from --walk-back. The program prints the bytes each
 * radio's path sent (first transmissions) before, during and after the
 * outage, the goodput, the failover time: the longest gap between two
 * deliveries to the server of those ending during the walk, and the longest
 * gap of the run (LTE's, for one, is at the start: a segment its RLC buffer
 * dropped in slow start, resent at the 1 s RTO). --trace=FILE writes, every --interval, the bytes
 * each path sent and the server received (TSV: time_s, flow, bytes), the
 * figure of doc/multipath.rst; --output=FILE the record (JSON).
 *
 *   ./ns3 run "rudp-phone --trace=phone.tsv"
 *
 * Bad parameters exit with status 2; a run in which the server received
 * nothing exits with status 1.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-module.h"
#include "ns3/rudp-parameter-check.h"
#include "ns3/rudp-scenario-record.h"
#include "ns3/wifi-module.h"
#ifdef RUDP_PHONE_LTE
#include "ns3/lte-module.h"
#endif

#include <algorithm>
#include <array>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>

using namespace ns3;

namespace
{

/// What the phone's paths sent and the server received, per interval and per phase.
class PhoneMeter
{
  public:
    /// The walk's phases: Wi-Fi in reach, the walk out and back, in reach again.
    enum Phase
    {
        BEFORE,
        DURING,
        AFTER,
    };

    /**
     * \param interval the trace's bin
     * \param outageStart when the phone starts walking out
     * \param outageEnd when it is back where it started
     */
    PhoneMeter(Time interval, Time outageStart, Time outageEnd)
        : m_interval(interval),
          m_outageStart(outageStart),
          m_outageEnd(outageEnd)
    {
    }

    /// Names path \p index after its radio.
    void NamePath(uint32_t index, const std::string& radio)
    {
        m_radios[index] = radio;
    }

    /// \return the name of path \p index's radio
    std::string RadioOf(uint32_t index) const
    {
        auto found = m_radios.find(index);
        return found != m_radios.end() ? found->second : "path" + std::to_string(index);
    }

    static void Sent(PhoneMeter* meter, Ptr<const Packet> payload, const RudpHeader&, uint32_t path)
    {
        meter->Count(meter->RadioOf(path), payload->GetSize());
    }

    static void Resent(PhoneMeter* meter,
                       Ptr<const Packet> payload,
                       const RudpHeader&,
                       uint32_t path)
    {
        // Tx traces resends too: first transmissions only.
        meter->Count(meter->RadioOf(path), -static_cast<int64_t>(payload->GetSize()));
    }

    static void Received(PhoneMeter* meter, Ptr<const Packet> packet, const Address&)
    {
        const Time now = Simulator::Now();
        if (!meter->m_lastDelivery.IsNegative())
        {
            const Time gap = now - meter->m_lastDelivery;
            const Phase phase = meter->PhaseAt(now);
            if (gap > meter->m_longestGap[phase])
            {
                meter->m_longestGap[phase] = gap;
                meter->m_longestGapEnd[phase] = now;
            }
        }
        meter->m_lastDelivery = now;
        meter->Count("server", packet->GetSize());
    }

    /// \return the bytes \p flow counted in \p phase
    int64_t PhaseBytes(const std::string& flow, Phase phase) const
    {
        auto found = m_phases.find(flow);
        return found != m_phases.end() ? found->second[phase] : 0;
    }

    /// \return the flows counted, "server" among them
    std::vector<std::string> Flows() const
    {
        std::vector<std::string> flows;
        for (const auto& [flow, bins] : m_bins)
        {
            flows.push_back(flow);
        }
        return flows;
    }

    /// \return the longest time between two deliveries to the server, of the gaps ending in \p
    /// phase
    Time LongestGap(Phase phase) const
    {
        return m_longestGap[phase];
    }

    /// \return when the longest gap ending in \p phase ended
    Time LongestGapEnd(Phase phase) const
    {
        return m_longestGapEnd[phase];
    }

    /// \return the phase whose gap is the longest of all (the first of equal ones)
    Phase LongestGapPhase() const
    {
        return static_cast<Phase>(std::max_element(m_longestGap.begin(), m_longestGap.end()) -
                                  m_longestGap.begin());
    }

    /**
     * \brief Writes the bins (TSV), every flow's from the first bin any
     * flow counted to the last, 0 where it counted nothing.
     * \return whether every line was written
     */
    bool Write(const std::string& file) const
    {
        std::ofstream out(file);
        out << "time_s\tflow\tbytes\n";
        int64_t first = std::numeric_limits<int64_t>::max();
        int64_t last = std::numeric_limits<int64_t>::min();
        for (const auto& [flow, bins] : m_bins)
        {
            first = std::min(first, bins.begin()->first);
            last = std::max(last, bins.rbegin()->first);
        }
        for (const auto& [flow, bins] : m_bins)
        {
            for (int64_t bin = first; bin <= last; ++bin)
            {
                auto found = bins.find(bin);
                out << (bin + 1) * m_interval.GetSeconds() << '\t' << flow << '\t'
                    << (found != bins.end() ? found->second : 0) << '\n';
            }
        }
        out.close();
        return !out.fail();
    }

  private:
    void Count(const std::string& flow, int64_t bytes)
    {
        const Time now = Simulator::Now();
        const int64_t bin = now.GetNanoSeconds() / m_interval.GetNanoSeconds();
        m_bins[flow][bin] += bytes;
        m_phases[flow][PhaseAt(now)] += bytes;
    }

    Phase PhaseAt(Time now) const
    {
        return now < m_outageStart ? BEFORE : now < m_outageEnd ? DURING : AFTER;
    }

    Time m_interval;
    Time m_outageStart;
    Time m_outageEnd;
    std::map<uint32_t, std::string> m_radios;
    std::map<std::string, std::map<int64_t, int64_t>> m_bins;
    std::map<std::string, std::array<int64_t, 3>> m_phases;
    Time m_lastDelivery{Seconds(-1)};
    std::array<Time, 3> m_longestGap;    ///< by the phase the gap ended in
    std::array<Time, 3> m_longestGapEnd; ///< by the phase the gap ended in
};

/// Connects the meter to the phone's association once it exists, and names its paths.
void
WatchPhone(PhoneMeter* meter,
           Ptr<BulkSendApplication> source,
           Ipv4Address wifi,
           Ipv4Address cellular)
{
    Ptr<RudpCmtSocket> socket = DynamicCast<RudpCmtSocket>(source->GetSocket());
    if (!socket || socket->GetState() != RudpCmtSocket::ESTABLISHED)
    {
        Simulator::Schedule(MilliSeconds(10), &WatchPhone, meter, source, wifi, cellular);
        return;
    }
    for (const Ptr<RudpCmtPath>& path : socket->GetSender()->GetPaths())
    {
        const Ipv4Address local = path->GetLocal();
        meter->NamePath(path->GetIndex(),
                        local == wifi       ? "wifi"
                        : local == cellular ? "cellular"
                                            : "path" + std::to_string(path->GetIndex()));
    }
    socket->GetSender()->TraceConnectWithoutContext("Tx",
                                                    MakeBoundCallback(&PhoneMeter::Sent, meter));
    socket->GetSender()->TraceConnectWithoutContext("Retransmission",
                                                    MakeBoundCallback(&PhoneMeter::Resent, meter));
}

#ifdef RUDP_PHONE_LTE
/// The UE's RLC buffer (bytes): about the LTE uplink's bandwidth-delay product.
constexpr uint32_t kLteRlcBuffer = 64 * 1024;

/**
 * The phone's LTE radio: a UE of one eNB, whose EPC's PGW is wired to the
 * operator's router. Install() before the nodes' internet stacks, Connect()
 * after.
 */
class PhoneLte
{
  public:
    /**
     * \brief Creates the EPC, the eNB at \p enbPosition, the phone's UE
     * device (the phone needs its mobility model) and the PGW's link to the
     * router.
     * \return the phone's UE device
     */
    NetDeviceContainer Install(Ptr<Node> phone, Ptr<Node> router, Vector enbPosition)
    {
        m_lte = CreateObject<LteHelper>();
        m_epc = CreateObject<PointToPointEpcHelper>();
        m_lte->SetEpcHelper(m_epc);
        Ptr<Node> enb = CreateObject<Node>();
        MobilityHelper mobility;
        mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
        mobility.Install(enb);
        enb->GetObject<MobilityModel>()->SetPosition(enbPosition);
        m_enbDevice = m_lte->InstallEnbDevice(enb);
        m_ueDevice = m_lte->InstallUeDevice(phone);
        m_router = router;
        PointToPointHelper sgi;
        sgi.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        sgi.SetChannelAttribute("Delay", StringValue("1ms"));
        m_sgi = sgi.Install(m_epc->GetPgwNode(), router);
        return m_ueDevice;
    }

    /**
     * \brief Addresses the UE (the EPC's 7.0.0.0/8) and the PGW's link,
     * routes the UEs' network from the router and everything else from the
     * PGW by the router, and attaches the UE to the eNB.
     * \return the UE's address
     */
    Ipv4InterfaceContainer Connect(Ipv4AddressHelper& address)
    {
        const Ipv4InterfaceContainer ue = m_epc->AssignUeIpv4Address(m_ueDevice);
        address.SetBase("10.5.1.0", "255.255.255.0");
        const Ipv4InterfaceContainer sgi = address.Assign(m_sgi);
        Ipv4StaticRoutingHelper routing;
        Ptr<Ipv4> routerIp = m_router->GetObject<Ipv4>();
        routing.GetStaticRouting(routerIp)->AddNetworkRouteTo(
            Ipv4Address("7.0.0.0"),
            Ipv4Mask("255.0.0.0"),
            sgi.GetAddress(0),
            routerIp->GetInterfaceForDevice(m_sgi.Get(1)));
        Ptr<Ipv4> pgwIp = m_epc->GetPgwNode()->GetObject<Ipv4>();
        routing.GetStaticRouting(pgwIp)->SetDefaultRoute(
            sgi.GetAddress(1),
            pgwIp->GetInterfaceForDevice(m_sgi.Get(0)));
        m_lte->Attach(m_ueDevice, m_enbDevice.Get(0));
        return ue;
    }

    /// \return the UE's default gateway (the PGW's end of the EPC's tunnel)
    Ipv4Address GetGateway() const
    {
        return m_epc->GetUeDefaultGatewayAddress();
    }

    /// Fixes the random streams of the eNB's and the UE's devices from \p stream.
    void AssignStreams(int64_t stream)
    {
        m_lte->AssignStreams(NetDeviceContainer(m_enbDevice, m_ueDevice), stream);
    }

  private:
    Ptr<LteHelper> m_lte;
    Ptr<PointToPointEpcHelper> m_epc;
    NetDeviceContainer m_enbDevice;
    NetDeviceContainer m_ueDevice;
    NetDeviceContainer m_sgi;
    Ptr<Node> m_router;
};
#endif

} // namespace

int
main(int argc, char* argv[])
{
    std::string pathManager = "full-mesh";
    std::string coupling = "uncoupled";
    std::string cellularRadio = "p2p";
    DataRate cellularRate("8Mbps");
    Time cellularDelay = MilliSeconds(30);
    Time duration = Seconds(60);
    Time walkOut = Seconds(10);
    Time walkBack = Seconds(35);
    double distance = 150;
    double speed = 10;
    Time interval = MilliSeconds(500);
    std::string traceFile;
    RudpScenarioRecord record("rudp-phone");

    RudpCommandLine cmd(__FILE__);
    cmd.Usage("A phone with Wi-Fi and a cellular radio sends to a single-homed server over a "
              "multipath association, walking out of the Wi-Fi's coverage and back: each "
              "radio's bytes and the failover time.");
    cmd.AddValue("path-manager",
                 "Which paths: full-mesh (RudpFullMesh: one per radio) or sctp (RudpSctpPaths: "
                 "one per server address, on the radio the routing picks)",
                 pathManager,
                 {"full-mesh", "sctp"});
    cmd.AddValue("coupling",
                 "Coupled congestion control: uncoupled, lia, olia, balia or rpv2",
                 coupling,
                 RudpCmtCoupling::GetShortNames());
    cmd.AddValue("cellular",
                 "The cellular radio: p2p (a point-to-point link to the router) or lte "
                 "(ns-3's LTE and EPC; where the lte module is built)",
                 cellularRadio,
                 {"p2p", "lte"});
    cmd.AddValue("cellular-rate",
                 "The cellular link's rate (cellular p2p only)",
                 cellularRate,
                 DataRate("100kbps"),
                 DataRate("10Gbps"));
    cmd.AddValue("cellular-delay",
                 "The cellular link's one-way delay (cellular p2p only)",
                 cellularDelay,
                 Seconds(0),
                 Seconds(1));
    cmd.AddValue("duration", "Simulated time", duration, Seconds(2), Seconds(100000));
    cmd.AddValue("walk-out",
                 "When the phone starts walking away from the AP",
                 walkOut,
                 Seconds(0),
                 Seconds(100000));
    cmd.AddValue("walk-back", "When it starts walking back", walkBack, Seconds(0), Seconds(100000));
    cmd.AddValue("distance", "How far it walks (m)", distance, 0.0, 10000.0);
    cmd.AddValue("speed", "Its speed (m/s)", speed, 0.1, 100.0);
    cmd.AddValue("interval", "The trace's bin", interval, MilliSeconds(1), Seconds(100));
    cmd.AddValue("trace",
                 "Write each path's bytes sent and the server's bytes received per interval "
                 "to this file (TSV)",
                 traceFile,
                 "a file name",
                 RudpCommandLine::WritableFile());
    record.AddOption(cmd);
#ifdef RUDP_PHONE_LTE
    // ns-3's 10 KiB holds 7 segments, less than the uplink's bandwidth-delay
    // product: the UE's RLC dropped most of each window and the radio carried
    // 1.9 Mbit/s of its 17. A phone's buffer holds at least the BDP.
    Config::SetDefault("ns3::LteRlcUm::MaxTxBufferSize", UintegerValue(kLteRlcBuffer));
#endif
    cmd.SetsAttributes("coupling", {"ns3::RudpCmtSocket::Coupling"});
    cmd.SetsAttributes("path-manager", {"ns3::RudpCmtSocket::PathManager"});
    cmd.Parse(argc, argv);
    const bool lte = cellularRadio == "lte";
#ifndef RUDP_PHONE_LTE
    if (lte)
    {
        RudpParameterCheck::Fail("cellular", "lte needs ns-3's lte module, absent from this build");
    }
#endif
    for (int i = 1; i < argc && lte; ++i)
    {
        const std::string arg = argv[i];
        for (const std::string link : {"cellular-rate", "cellular-delay"})
        {
            if (arg.rfind("--" + link + "=", 0) == 0)
            {
                RudpParameterCheck::Fail(link, "applies to --cellular=p2p only");
            }
        }
    }
    const Time walking = Seconds(distance / speed);
    if (walkOut + walking > walkBack)
    {
        RudpParameterCheck::Fail(
            "walk-back",
            "must come after walk-out plus the walk's time (distance / speed)");
    }

    Config::SetDefault("ns3::RudpCmtSocket::Coupling",
                       TypeIdValue(RudpCmtCoupling::LookupByShortName(coupling)));
    Config::SetDefault("ns3::RudpCmtSocket::PathManager",
                       TypeIdValue(pathManager == "full-mesh" ? RudpFullMesh::GetTypeId()
                                                              : RudpSctpPaths::GetTypeId()));

    NodeContainer nodes;
    nodes.Create(4);
    Ptr<Node> phone = nodes.Get(0);
    Ptr<Node> ap = nodes.Get(1);
    Ptr<Node> router = nodes.Get(2);
    Ptr<Node> server = nodes.Get(3);

    WifiHelper wifi;
    wifi.SetStandard(WIFI_STANDARD_80211n);
    wifi.SetRemoteStationManager("ns3::MinstrelHtWifiManager");
    YansWifiChannelHelper channel = YansWifiChannelHelper::Default();
    YansWifiPhyHelper phy;
    phy.SetChannel(channel.Create());
    WifiMacHelper mac;
    const Ssid ssid("rudp-phone");
    mac.SetType("ns3::StaWifiMac", "Ssid", SsidValue(ssid));
    NetDeviceContainer wlan = wifi.Install(phy, mac, phone);
    mac.SetType("ns3::ApWifiMac", "Ssid", SsidValue(ssid));
    wlan.Add(wifi.Install(phy, mac, ap));

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    p2p.SetChannelAttribute("Delay", StringValue("1ms"));
    NetDeviceContainer backhaul = p2p.Install(ap, router);
    p2p.SetChannelAttribute("Delay", StringValue("5ms"));
    NetDeviceContainer core = p2p.Install(router, server);
    NetDeviceContainer cellular;
    if (!lte)
    {
        p2p.SetDeviceAttribute("DataRate", DataRateValue(cellularRate));
        p2p.SetChannelAttribute("Delay", TimeValue(cellularDelay));
        cellular = p2p.Install(phone, router);
    }

    MobilityHelper mobility;
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(NodeContainer(ap, router, server));
    ap->GetObject<MobilityModel>()->SetPosition(Vector(0, 0, 0));
    mobility.SetMobilityModel("ns3::WaypointMobilityModel");
    mobility.Install(phone);
    Ptr<WaypointMobilityModel> walk = phone->GetObject<WaypointMobilityModel>();
    const Vector near(10, 0, 0);
    const Vector far(10 + distance, 0, 0);
    // A waypoint at the time of the one before is the same place (a walk
    // from 0 s, of 0 m, or back as soon as it arrives): WaypointMobilityModel
    // takes strictly later ones only.
    Time last = Seconds(-1);
    for (const Waypoint& waypoint : {Waypoint(Seconds(0), near),
                                     Waypoint(walkOut, near),
                                     Waypoint(walkOut + walking, far),
                                     Waypoint(walkBack, far),
                                     Waypoint(walkBack + walking, near)})
    {
        if (waypoint.time > last)
        {
            walk->AddWaypoint(waypoint);
            last = waypoint.time;
        }
    }
#ifdef RUDP_PHONE_LTE
    PhoneLte phoneLte;
    if (lte)
    {
        cellular = phoneLte.Install(phone, router, Vector(10 + distance / 2, 500, 0));
    }
#endif

    InternetStackHelper internet;
    internet.Install(NodeContainer(ap, router, server));
    // The phone is a host: static routes only, in a list as
    // InternetStackHelper's.
    Ipv4ListRoutingHelper hostRouting;
    hostRouting.Add(Ipv4StaticRoutingHelper(), 0);
    InternetStackHelper host;
    host.SetRoutingHelper(hostRouting);
    host.Install(phone);
    Ipv4AddressHelper address;
    address.SetBase("10.1.1.0", "255.255.255.0");
    const Ipv4InterfaceContainer wlanAddresses = address.Assign(wlan);
    Ipv4InterfaceContainer cellularAddresses;
    Ipv4Address cellularGateway;
    if (!lte)
    {
        address.SetBase("10.2.1.0", "255.255.255.0");
        cellularAddresses = address.Assign(cellular);
        cellularGateway = cellularAddresses.GetAddress(1);
    }
    address.SetBase("10.3.1.0", "255.255.255.0");
    const Ipv4InterfaceContainer backhaulAddresses = address.Assign(backhaul);
    address.SetBase("10.4.1.0", "255.255.255.0");
    const Ipv4InterfaceContainer coreAddresses = address.Assign(core);
#ifdef RUDP_PHONE_LTE
    if (lte)
    {
        cellularAddresses = phoneLte.Connect(address);
        cellularGateway = phoneLte.GetGateway();
    }
#endif
    // Static routes (ns-3's global routing cannot run beside the EPC: its
    // PGW's tunnel is a point-to-point device without a channel). The AP and
    // the server send everything by the router, which reaches the Wi-Fi's
    // network by the AP; the phone's default route is by the cellular radio.
    Ipv4StaticRoutingHelper staticRouting;
    const auto setDefaultRoute =
        [&staticRouting](Ptr<Node> node, Ptr<NetDevice> device, Ipv4Address gateway) {
            Ptr<Ipv4> ip = node->GetObject<Ipv4>();
            staticRouting.GetStaticRouting(ip)->SetDefaultRoute(gateway,
                                                                ip->GetInterfaceForDevice(device));
        };
    setDefaultRoute(ap, backhaul.Get(0), backhaulAddresses.GetAddress(1));
    setDefaultRoute(server, core.Get(1), coreAddresses.GetAddress(0));
    setDefaultRoute(phone, cellular.Get(0), cellularGateway);
    Ptr<Ipv4> routerIp = router->GetObject<Ipv4>();
    staticRouting.GetStaticRouting(routerIp)->AddNetworkRouteTo(
        wlanAddresses.GetAddress(0).CombineMask(Ipv4Mask("255.255.255.0")),
        Ipv4Mask("255.255.255.0"),
        backhaulAddresses.GetAddress(0),
        routerIp->GetInterfaceForDevice(backhaul.Get(1)));
    RudpStackHelper().Install(NodeContainer(phone, server));
    wifi.AssignStreams(wlan, 1);
#ifdef RUDP_PHONE_LTE
    if (lte)
    {
        phoneLte.AssignStreams(100);
    }
#endif

    const uint16_t port = 7000;
    PacketSinkHelper sinkHelper("ns3::RudpCmtSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sinkHelper.Install(server);
    Ptr<PacketSink> sink = DynamicCast<PacketSink>(sinkApp.Get(0));
    BulkSendHelper bulk("ns3::RudpCmtSocketFactory",
                        InetSocketAddress(coreAddresses.GetAddress(1), port));
    bulk.SetAttribute("MaxBytes", UintegerValue(0));
    ApplicationContainer sourceApp = bulk.Install(phone);
    sourceApp.Start(Seconds(1));
    sourceApp.Stop(duration);

    PhoneMeter meter(interval, walkOut, walkBack + walking);
    sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&PhoneMeter::Received, &meter));
    Simulator::Schedule(Seconds(1),
                        &WatchPhone,
                        &meter,
                        DynamicCast<BulkSendApplication>(sourceApp.Get(0)),
                        wlanAddresses.GetAddress(0),
                        cellularAddresses.GetAddress(0));
    Simulator::Stop(duration);
    Simulator::Run();

    const double goodput = sink->GetTotalRx() * 8 / (duration - Seconds(1)).GetSeconds() / 1e6;
    std::cout << std::fixed << std::setprecision(3) << "rudp-phone: " << pathManager << ", "
              << coupling << ", " << cellularRadio << " cellular, walks out at "
              << walkOut.GetSeconds() << " s, back at " << walkBack.GetSeconds() << " s ("
              << distance << " m at " << speed << " m/s)\n";
    std::cout << "  server received " << sink->GetTotalRx() << " bytes, " << goodput << " Mbit/s\n";
    std::vector<RudpJson> radios;
    for (const std::string& flow : meter.Flows())
    {
        if (flow == "server")
        {
            continue;
        }
        std::cout << "  " << flow << " sent " << meter.PhaseBytes(flow, PhoneMeter::BEFORE)
                  << " bytes before the outage, " << meter.PhaseBytes(flow, PhoneMeter::DURING)
                  << " during, " << meter.PhaseBytes(flow, PhoneMeter::AFTER) << " after\n";
        RudpJson json;
        json.Set("radio", flow)
            .Set("bytes_before", meter.PhaseBytes(flow, PhoneMeter::BEFORE))
            .Set("bytes_during", meter.PhaseBytes(flow, PhoneMeter::DURING))
            .Set("bytes_after", meter.PhaseBytes(flow, PhoneMeter::AFTER));
        radios.push_back(json);
    }
    const PhoneMeter::Phase longest = meter.LongestGapPhase();
    std::cout << "  failover time (longest gap in delivery during the walk) "
              << meter.LongestGap(PhoneMeter::DURING).GetSeconds() << " s, ending at "
              << meter.LongestGapEnd(PhoneMeter::DURING).GetSeconds() << " s\n"
              << "  longest gap in delivery " << meter.LongestGap(longest).GetSeconds()
              << " s, ending at " << meter.LongestGapEnd(longest).GetSeconds() << " s" << std::endl;
    Simulator::Destroy();
    if (!traceFile.empty() && !meter.Write(traceFile))
    {
        RudpParameterCheck::Fail("trace", "could not write " + traceFile);
    }
    const bool ok = sink->GetTotalRx() > 0;
    const std::string failure = ok ? "" : "the server received nothing";
    if (record.IsWanted())
    {
        RudpJson json;
        record.SetOutcome(json, ok, failure);
        json.Set("path_manager", pathManager)
            .Set("coupling", coupling)
            .Set("cellular", cellularRadio);
        if (!lte)
        {
            json.Set("cellular_rate_bps", static_cast<uint64_t>(cellularRate.GetBitRate()))
                .Set("cellular_delay_s", cellularDelay.GetSeconds());
        }
        json.Set("duration_s", duration.GetSeconds())
            .Set("walk_out_s", walkOut.GetSeconds())
            .Set("walk_back_s", walkBack.GetSeconds())
            .Set("distance_m", distance)
            .Set("speed_mps", speed)
            .Set("rng_run", static_cast<uint64_t>(RngSeedManager::GetRun()))
            .Set("received_bytes", sink->GetTotalRx())
            .Set("goodput_mbps", goodput)
            .Set("failover_s", meter.LongestGap(PhoneMeter::DURING).GetSeconds())
            .Set("failover_end_s", meter.LongestGapEnd(PhoneMeter::DURING).GetSeconds())
            .Set("longest_gap_s", meter.LongestGap(longest).GetSeconds())
            .Set("longest_gap_end_s", meter.LongestGapEnd(longest).GetSeconds())
            .Set("radios", radios);
        record.WriteOrFail(json);
    }
    if (!ok)
    {
        std::cerr << "error: " << failure << std::endl;
    }
    return ok ? 0 : 1;
}
