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
 *     +------ cellular (--cellular-rate, --cellular-delay) ----+
 *
 * The Wi-Fi is ns-3's 802.11n (Minstrel-HT, log-distance loss); the
 * "cellular" radio a point-to-point link to the operator's router. The
 * phone is a host (static routes, its default route by the cellular link;
 * the others run global routing), so that its datagrams for the server go
 * by the cellular link. With --path-manager=full-mesh (the default,
 * RudpFullMesh) the association has a path from each radio's address; with
 * sctp (RudpSctpPaths, SCTP's: a path per server address) it has one, on
 * the radio the routing picks.
 *
 * The phone stands 10 m from the AP, walks --distance away at --speed from
 * --walk-out, and back from --walk-back. The program prints the bytes each
 * radio's path sent (first transmissions) before, during and after the
 * outage, the goodput, and the failover time: the longest gap between two
 * deliveries to the server. --trace=FILE writes, every --interval, the bytes
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

#include <algorithm>
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
            if (gap > meter->m_longestGap)
            {
                meter->m_longestGap = gap;
                meter->m_longestGapEnd = now;
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

    /// \return the longest time between two deliveries to the server
    Time LongestGap() const
    {
        return m_longestGap;
    }

    /// \return when the longest gap ended
    Time LongestGapEnd() const
    {
        return m_longestGapEnd;
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
        const Phase phase = now < m_outageStart ? BEFORE : now < m_outageEnd ? DURING : AFTER;
        m_phases[flow][phase] += bytes;
    }

    Time m_interval;
    Time m_outageStart;
    Time m_outageEnd;
    std::map<uint32_t, std::string> m_radios;
    std::map<std::string, std::map<int64_t, int64_t>> m_bins;
    std::map<std::string, std::array<int64_t, 3>> m_phases;
    Time m_lastDelivery{Seconds(-1)};
    Time m_longestGap;
    Time m_longestGapEnd;
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

} // namespace

int
main(int argc, char* argv[])
{
    std::string pathManager = "full-mesh";
    std::string coupling = "uncoupled";
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
                 "Coupled congestion control: uncoupled, lia, olia or rpv2",
                 coupling,
                 RudpCmtCoupling::GetShortNames());
    cmd.AddValue("cellular-rate",
                 "The cellular link's rate",
                 cellularRate,
                 DataRate("100kbps"),
                 DataRate("10Gbps"));
    cmd.AddValue("cellular-delay",
                 "The cellular link's one-way delay",
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
    cmd.SetsAttributes("coupling", {"ns3::RudpCmtSocket::Coupling"});
    cmd.SetsAttributes("path-manager", {"ns3::RudpCmtSocket::PathManager"});
    cmd.Parse(argc, argv);
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
    p2p.SetDeviceAttribute("DataRate", DataRateValue(cellularRate));
    p2p.SetChannelAttribute("Delay", TimeValue(cellularDelay));
    NetDeviceContainer cellular = p2p.Install(phone, router);

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

    InternetStackHelper internet;
    internet.Install(NodeContainer(ap, router, server));
    // The phone is a host, not a router (global routing would send the
    // server's datagrams for its Wi-Fi address through its cellular link):
    // static routes only, in a list as InternetStackHelper's.
    Ipv4ListRoutingHelper hostRouting;
    hostRouting.Add(Ipv4StaticRoutingHelper(), 0);
    InternetStackHelper host;
    host.SetRoutingHelper(hostRouting);
    host.Install(phone);
    Ipv4AddressHelper address;
    address.SetBase("10.1.1.0", "255.255.255.0");
    const Ipv4InterfaceContainer wlanAddresses = address.Assign(wlan);
    address.SetBase("10.2.1.0", "255.255.255.0");
    const Ipv4InterfaceContainer cellularAddresses = address.Assign(cellular);
    address.SetBase("10.3.1.0", "255.255.255.0");
    address.Assign(backhaul);
    address.SetBase("10.4.1.0", "255.255.255.0");
    const Ipv4InterfaceContainer coreAddresses = address.Assign(core);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    // The phone's default route: by the cellular link.
    Ipv4StaticRoutingHelper staticRouting;
    Ptr<Ipv4> phoneIp = phone->GetObject<Ipv4>();
    staticRouting.GetStaticRouting(phoneIp)->SetDefaultRoute(
        cellularAddresses.GetAddress(1),
        phoneIp->GetInterfaceForDevice(cellular.Get(0)));
    RudpStackHelper().Install(NodeContainer(phone, server));
    wifi.AssignStreams(wlan, 1);

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
              << coupling << ", walks out at " << walkOut.GetSeconds() << " s, back at "
              << walkBack.GetSeconds() << " s (" << distance << " m at " << speed << " m/s)\n";
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
    std::cout << "  failover time (longest gap in delivery) " << meter.LongestGap().GetSeconds()
              << " s, ending at " << meter.LongestGapEnd().GetSeconds() << " s" << std::endl;
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
            .Set("cellular_rate_bps", static_cast<uint64_t>(cellularRate.GetBitRate()))
            .Set("cellular_delay_s", cellularDelay.GetSeconds())
            .Set("duration_s", duration.GetSeconds())
            .Set("walk_out_s", walkOut.GetSeconds())
            .Set("walk_back_s", walkBack.GetSeconds())
            .Set("distance_m", distance)
            .Set("speed_mps", speed)
            .Set("rng_run", static_cast<uint64_t>(RngSeedManager::GetRun()))
            .Set("received_bytes", sink->GetTotalRx())
            .Set("goodput_mbps", goodput)
            .Set("failover_s", meter.LongestGap().GetSeconds())
            .Set("failover_end_s", meter.LongestGapEnd().GetSeconds())
            .Set("radios", radios);
        record.WriteOrFail(json);
    }
    if (!ok)
    {
        std::cerr << "error: " << failure << std::endl;
    }
    return ok ? 0 : 1;
}
