/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-examples
 * The floor of a rudp-cmt run's cost: ns-3's bare UDP (UdpClient to
 * UdpServer) carrying the same packets over the same topology, so that what
 * the simulator spends on the packets themselves (IPv4, UDP, traffic
 * control, the point-to-point devices, the loss model, the events) is
 * measured apart from what the transport adds. bench/peer_speed.py counts a
 * rudp-cmt run's packets (its FlowMonitor) and runs this with the counts.
 *
 *     sender ==== path 1: --rate, RTT/2 each way, loss p on data ==== receiver
 *            ==== path n
 *
 * The links are those RudpCmtHelper builds for rudp-cmt (rate, delay, an MTU
 * that carries --data-size, a packet loss model on the receiver's device of
 * each path, the queues --queue names). On each path i the sender sends the i-th of --data packets
 * of
 * --data-size bytes (UDP payload) and the receiver the i-th of --acks packets
 * of --ack-size bytes, each evenly spaced over --duration.
 *
 *     rudp-udp-floor --paths=2 --rtt=100ms --loss=0.01 --duration=200s \
 *         --data=14000,14000 --data-size=1488 --acks=7000,7000 --ack-size=20
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-module.h"
#include "ns3/rudp-parameter-check.h"
#include "ns3/rudp-scenario-record.h"

#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

/// UdpClient's own header (SeqTsHeader): the smallest packet it sends.
const uint32_t SEQ_TS_SIZE = 12;

/// One value per path: a single value applies to every path.
template <typename T>
void
PerPath(const std::string& name, std::vector<T>& values, uint32_t paths)
{
    if (values.size() == 1)
    {
        values.assign(paths, values.front());
    }
    if (values.size() != paths)
    {
        RudpParameterCheck::Fail(
            name,
            "gives " + std::to_string(values.size()) +
                " values; allowed: one, or one per path (--paths=" + std::to_string(paths) + ")");
    }
}

/**
 * Sends \p packets UDP packets of \p size bytes from \p from to \p to
 * (port \p port), evenly spaced over \p duration.
 * \return the receiving UdpServer
 */
Ptr<UdpServer>
Carry(Ptr<Node> from,
      Ptr<Node> to,
      Ipv4Address toAddress,
      uint16_t port,
      uint64_t packets,
      uint32_t size,
      Time duration)
{
    ApplicationContainer server = UdpServerHelper(port).Install(to);
    if (packets > 0)
    {
        UdpClientHelper client(InetSocketAddress(toAddress, port));
        client.SetAttribute("MaxPackets", UintegerValue(packets));
        client.SetAttribute("PacketSize", UintegerValue(size));
        client.SetAttribute(
            "Interval",
            TimeValue(NanoSeconds(duration.GetNanoSeconds() / static_cast<int64_t>(packets))));
        client.Install(from).Start(Seconds(0));
    }
    return DynamicCast<UdpServer>(server.Get(0));
}

/// \return \p values joined with commas
std::string
Joined(const std::vector<uint64_t>& values)
{
    std::ostringstream out;
    for (size_t i = 0; i < values.size(); ++i)
    {
        out << (i > 0 ? "," : "") << values[i];
    }
    return out.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t paths = 2;
    std::string rtt = "100ms";
    std::string loss = "0.01";
    DataRate rate("10Mbps");
    std::string queue = "default";
    Time duration = Seconds(200);
    std::string data = "1000";
    std::string acks = "500";
    uint32_t dataSize = 1488;
    uint32_t ackSize = 20;
    RudpScenarioRecord record("rudp-udp-floor");
    std::vector<Time> rtts;
    std::vector<double> losses;
    std::vector<uint64_t> dataPackets;
    std::vector<uint64_t> ackPackets;

    const auto parseRtts = [&rtts](const std::string& text) {
        return RudpText::CheckList(text, rtts, [](const std::string& item, Time& time) {
            return RudpRange<Time>{MicroSeconds(2), Seconds(10)}.Check(item, time);
        });
    };
    const auto parseLosses = [&losses](const std::string& text) {
        return RudpText::CheckList(text, losses, [](const std::string& item, double& p) {
            return RudpRange<double>{0.0, 1.0}.Check(item, p);
        });
    };
    const auto counts = [](std::vector<uint64_t>& values) {
        return [&values](const std::string& text) {
            return RudpText::CheckList(text, values, [](const std::string& item, uint64_t& n) {
                return RudpRange<uint64_t>{0, 1ULL << 32}.Check(item, n);
            });
        };
    };

    RudpCommandLine cmd(__FILE__);
    cmd.AddValue("paths", "Number of disjoint paths", paths, 1u, 8u);
    cmd.AddValue("rtt",
                 "Round-trip time of every path, or a list per path",
                 rtt,
                 "times in [2us, 10s], comma-separated",
                 parseRtts);
    cmd.AddValue("loss",
                 "Loss probability of the data packets on every path, or a list per path",
                 loss,
                 "numbers in [0, 1], comma-separated",
                 parseLosses);
    cmd.AddValue("rate", "Data rate of every path", rate, DataRate("1kbps"), DataRate("100Gbps"));
    cmd.AddValue("queue",
                 "Queue of every path's devices, as rudp-cmt's: default (ns-3's root "
                 "queue disc) or ns2 (the device's DropTail queue alone)",
                 queue,
                 {"default", "ns2"});
    cmd.AddValue("duration",
                 "Simulated time over which the packets are spread",
                 duration,
                 MilliSeconds(1),
                 Seconds(1e6));
    cmd.AddValue("data",
                 "Data packets the sender sends on every path, or a list per path",
                 data,
                 "integers in [0, 4294967296], comma-separated",
                 counts(dataPackets));
    cmd.AddValue("acks",
                 "Packets the receiver sends back on every path, or a list per path",
                 acks,
                 "integers in [0, 4294967296], comma-separated",
                 counts(ackPackets));
    cmd.AddValue("data-size",
                 "UDP payload of a data packet in bytes (rudp-cmt: RUDP header and chunk)",
                 dataSize,
                 SEQ_TS_SIZE,
                 65507u);
    cmd.AddValue("ack-size",
                 "UDP payload of a packet sent back in bytes (rudp-cmt: a SACK)",
                 ackSize,
                 SEQ_TS_SIZE,
                 65507u);
    record.AddOption(cmd);
    cmd.Parse(argc, argv);
    // The defaults, where the option was not given.
    if (rtts.empty())
    {
        parseRtts(rtt);
    }
    if (losses.empty())
    {
        parseLosses(loss);
    }
    if (dataPackets.empty())
    {
        counts(dataPackets)(data);
    }
    if (ackPackets.empty())
    {
        counts(ackPackets)(acks);
    }
    PerPath("rtt", rtts, paths);
    PerPath("loss", losses, paths);
    PerPath("data", dataPackets, paths);
    PerPath("acks", ackPackets, paths);

    NodeContainer hosts(2);
    InternetStackHelper().Install(hosts);
    // As RudpCmtHelper: an MTU that carries the data packet in one piece.
    const uint32_t mtu = std::max<uint32_t>(1500, dataSize + 20 + 8);
    std::vector<Ptr<UdpServer>> dataServers;
    std::vector<Ptr<UdpServer>> ackServers;
    std::vector<Ptr<RateErrorModel>> lossModels;
    for (uint32_t i = 0; i < paths; ++i)
    {
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", DataRateValue(rate));
        link.SetDeviceAttribute("Mtu", UintegerValue(mtu));
        link.SetChannelAttribute("Delay", TimeValue(rtts[i] / 2));
        NetDeviceContainer devices = link.Install(hosts);
        Ptr<RateErrorModel> pathLoss = CreateObject<RateErrorModel>();
        pathLoss->SetAttribute("ErrorRate", DoubleValue(losses[i]));
        pathLoss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(pathLoss));
        lossModels.push_back(pathLoss);
        std::ostringstream subnet;
        subnet << "10." << i + 1 << ".1.0";
        Ipv4InterfaceContainer interfaces =
            Ipv4AddressHelper(subnet.str().c_str(), "255.255.255.0").Assign(devices);
        RudpCmtHelper::InstallPathQueue(devices,
                                        queue == "ns2" ? RudpCmtHelper::PathQueue::NS2
                                                       : RudpCmtHelper::PathQueue::NS3);
        const auto port = static_cast<uint16_t>(5000 + i);
        dataServers.push_back(Carry(hosts.Get(0),
                                    hosts.Get(1),
                                    interfaces.GetAddress(1),
                                    port,
                                    dataPackets[i],
                                    dataSize,
                                    duration));
        ackServers.push_back(Carry(hosts.Get(1),
                                   hosts.Get(0),
                                   interfaces.GetAddress(0),
                                   port,
                                   ackPackets[i],
                                   ackSize,
                                   duration));
    }
    int64_t stream = 0;
    for (const auto& model : lossModels)
    {
        stream += model->AssignStreams(stream);
    }

    // A little past the last send, so that every packet lands.
    Time longest;
    for (const Time& t : rtts)
    {
        longest = std::max(longest, t);
    }
    Simulator::Stop(duration + longest + Seconds(1));
    Simulator::Run();

    std::vector<uint64_t> dataReceived;
    std::vector<uint64_t> acksReceived;
    for (uint32_t i = 0; i < paths; ++i)
    {
        dataReceived.push_back(dataServers[i]->GetReceived());
        acksReceived.push_back(ackServers[i]->GetReceived());
    }
    Simulator::Destroy();

    std::cout << "rudp-udp-floor: " << paths << " paths, data packets " << Joined(dataPackets)
              << " (received " << Joined(dataReceived) << "), packets back " << Joined(ackPackets)
              << " (received " << Joined(acksReceived) << ")" << std::endl;
    if (record.IsWanted())
    {
        RudpJson json;
        record.SetOutcome(json, true, "");
        json.Set("paths", paths)
            .Set("rtt", rtt)
            .Set("loss", loss)
            .Set("rate_bps", static_cast<uint64_t>(rate.GetBitRate()))
            .Set("queue", queue)
            .Set("duration_s", duration.GetSeconds())
            .Set("data_size", dataSize)
            .Set("ack_size", ackSize)
            .Set("data_packets", Joined(dataPackets))
            .Set("data_received", Joined(dataReceived))
            .Set("ack_packets", Joined(ackPackets))
            .Set("ack_received", Joined(acksReceived));
        record.WriteOrFail(json);
    }
    return 0;
}
