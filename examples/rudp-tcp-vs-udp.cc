/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp
 * Seed 001's comparison of TCP and UDP with FlowMonitor, with the three RUDP
 * variants beside them.
 *
 *     sender ---- CSMA 1 Gbit/s, 2 us, MTU 1500 ---- receiver
 *
 * - tcp: BulkSendApplication to PacketSink, MaxBytes = packets x payload.
 * - udp: UdpClient to UdpServer, --payload-byte datagrams every --interval.
 * - rudp-stop-and-wait | rudp-go-back-n | rudp-reno: BulkSendApplication to
 *   PacketSink over ns3::RudpSocketFactory, the same bytes as TCP.
 *
 * FlowMonitor measures the sender-to-receiver flow: throughput (received
 * bytes over first transmission .. last reception, Mbit/s of 10^6 bit/s),
 * mean delay (delaySum / rxPackets), mean jitter (jitterSum / (rxPackets - 1):
 * FlowMonitor takes one jitter sample per packet after the first), lost
 * packets, and the delay and jitter histograms. Unlike the seed's public
 * scripts, --RngRun takes effect (it is parsed before anything random is
 * drawn), Mbit/s are not divided by 1024, each application has its own
 * port, and the UDP interval is the 2 us the text says.
 *
 *     ./ns3 run "rudp-tcp-vs-udp --transport=udp --packets=100 --output=udp.json"
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/rudp-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string transport = "tcp";
    uint32_t packets = 10000;
    uint32_t payload = 1472;
    Time interval = MicroSeconds(2);
    DataRate rate("1Gbps");
    Time delay = MicroSeconds(2);
    std::string flowmonXml;
    std::string output;
    Time maxTime = Seconds(600);

    CommandLine cmd(__FILE__);
    cmd.AddValue("transport", "tcp|udp|rudp-stop-and-wait|rudp-go-back-n|rudp-reno", transport);
    cmd.AddValue("packets", "Packets to send, each of the payload size (1..10^7)", packets);
    cmd.AddValue("payload",
                 "Payload bytes per packet (1..1472; 1472 fills a 1500-byte MTU with UDP)",
                 payload);
    cmd.AddValue("interval", "UDP: time between datagrams (1ns..1s)", interval);
    cmd.AddValue("rate", "Channel data rate", rate);
    cmd.AddValue("delay", "Channel delay (0..1s)", delay);
    cmd.AddValue("flowmon-xml", "Also write FlowMonitor's XML to this file", flowmonXml);
    cmd.AddValue("output", "Write the metrics as JSON to this file", output);
    cmd.AddValue("max-time", "Simulated time limit", maxTime);
    cmd.Parse(argc, argv);

    const std::vector<std::string> transports{"tcp",
                                              "udp",
                                              "rudp-stop-and-wait",
                                              "rudp-go-back-n",
                                              "rudp-reno"};
    const size_t kind = RudpParameterCheck::OneOf("transport", transport, transports);
    RudpParameterCheck::Range<uint32_t>("packets", packets, 1, 10000000);
    RudpParameterCheck::Range<uint32_t>("payload", payload, 1, 1472);
    RudpParameterCheck::Range("interval", interval, NanoSeconds(1), Seconds(1));
    RudpParameterCheck::Range("delay", delay, Seconds(0), Seconds(1));
    RudpParameterCheck::Range<uint64_t>("rate", rate.GetBitRate(), 1000, 1000000000000);

    // RUDP's segment must fit one frame: 1500 - IPv4 20 - UDP 8 - RUDP 18.
    const std::vector<std::string> variants{"StopAndWait", "GoBackN", "Reno"};
    if (kind >= 2)
    {
        Config::SetDefault("ns3::RudpSocket::Variant", StringValue(variants[kind - 2]));
        Config::SetDefault("ns3::RudpSocket::SegmentSize", UintegerValue(std::min(payload, 1454u)));
    }

    NodeContainer nodes(2);
    CsmaHelper csma;
    csma.SetChannelAttribute("DataRate", DataRateValue(rate));
    csma.SetChannelAttribute("Delay", TimeValue(delay));
    csma.SetDeviceAttribute("Mtu", UintegerValue(1500));
    NetDeviceContainer devices = csma.Install(nodes);
    InternetStackHelper internet;
    internet.Install(nodes);
    RudpStackHelper rudp;
    rudp.Install(nodes);
    rudp.AssignStreams(nodes, 10);
    Ipv4InterfaceContainer interfaces =
        Ipv4AddressHelper("10.1.1.0", "255.255.255.0").Assign(devices);

    const uint64_t bytes = static_cast<uint64_t>(packets) * payload;
    const uint16_t port = kind == 1 ? 4000 : 5000; // separate ports per application
    ApplicationContainer receiverApp;
    ApplicationContainer senderApp;
    if (kind == 1)
    {
        receiverApp = UdpServerHelper(port).Install(nodes.Get(1));
        UdpClientHelper client(InetSocketAddress(interfaces.GetAddress(1), port));
        client.SetAttribute("MaxPackets", UintegerValue(packets));
        client.SetAttribute("PacketSize", UintegerValue(payload));
        client.SetAttribute("Interval", TimeValue(interval));
        senderApp = client.Install(nodes.Get(0));
    }
    else
    {
        const std::string factory = kind == 0 ? "ns3::TcpSocketFactory" : "ns3::RudpSocketFactory";
        receiverApp = PacketSinkHelper(factory, InetSocketAddress(Ipv4Address::GetAny(), port))
                          .Install(nodes.Get(1));
        BulkSendHelper bulk(factory, InetSocketAddress(interfaces.GetAddress(1), port));
        bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
        senderApp = bulk.Install(nodes.Get(0));
    }
    receiverApp.Start(Seconds(0));
    senderApp.Start(Seconds(1));

    FlowMonitorHelper flowHelper;
    flowHelper.SetMonitorAttribute("DelayBinWidth", DoubleValue(1e-5));
    flowHelper.SetMonitorAttribute("JitterBinWidth", DoubleValue(1e-6));
    Ptr<FlowMonitor> monitor = flowHelper.InstallAll();

    Simulator::Stop(maxTime);
    Simulator::Run();

    uint64_t delivered = 0;
    if (kind == 1)
    {
        delivered = DynamicCast<UdpServer>(receiverApp.Get(0))->GetReceived() * payload;
    }
    else
    {
        delivered = DynamicCast<PacketSink>(receiverApp.Get(0))->GetTotalRx();
    }
    RudpFlowSummary data;
    for (const auto& flow : RudpSummarizeFlows(flowHelper, monitor))
    {
        if (flow.source == interfaces.GetAddress(0) && flow.destinationPort == port)
        {
            data = flow;
        }
    }
    if (!flowmonXml.empty())
    {
        monitor->SerializeToXmlFile(flowmonXml, true, true);
    }
    Simulator::Destroy();

    // UDP may lose datagrams; the reliable transports must deliver every byte.
    if (kind != 1 && delivered != bytes)
    {
        std::cerr << "error: " << transport << " delivered " << delivered << " of " << bytes
                  << " bytes within --max-time" << std::endl;
        return 1;
    }

    std::cout << std::fixed << std::setprecision(3) << "rudp-tcp-vs-udp: " << transport << ", "
              << packets << " x " << payload << " bytes\n  throughput " << data.throughputMbps
              << " Mbit/s, mean delay " << data.meanDelayS * 1e6 << " us, mean jitter "
              << data.meanJitterS * 1e6 << " us, packets sent " << data.txPackets << ", received "
              << data.rxPackets << ", lost " << data.lostPackets << std::endl;

    if (!output.empty())
    {
        RudpJson json = data.ToJson(true);
        json.Set("scenario", "rudp-tcp-vs-udp")
            .Set("transport", transport)
            .Set("packets", packets)
            .Set("payload_bytes", payload)
            .Set("bytes", bytes)
            .Set("delivered_bytes", delivered)
            .Set("rng_run", static_cast<uint64_t>(RngSeedManager::GetRun()));
        if (!json.Write(output))
        {
            RudpParameterCheck::Fail("output", "cannot write '" + output + "'");
        }
    }
    return 0;
}
