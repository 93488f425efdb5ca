/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-examples
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
 * --pcap=PREFIX writes both CSMA devices' pcap files, --flowmon-xml=FILE
 * FlowMonitor's XML with its histograms (RudpTraceOptions).
 *
 * TCP and RUDP must deliver every byte within --max-time; if they do not, the
 * run fails (exit status 1; with --output the record says "ok": false and
 * why). UDP may lose datagrams: that is what is measured. Bad parameters
 * exit with status 2.
 *
 *     ./ns3 run "rudp-tcp-vs-udp --transport=udp --packets=100 --output=udp.json"
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/flow-monitor-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-flow-stats.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-module.h"
#include "ns3/rudp-parameter-check.h"
#include "ns3/rudp-scenario-record.h"
#include "ns3/rudp-trace-options.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// Every application starts at 1 s (the receivers at 0 s).
const Time SENDER_START = Seconds(1);

/// RUDP's segment fits one frame: 1500-byte MTU - IPv4 (20) - UDP (8) - RUDP (18).
const uint32_t RUDP_MAX_SEGMENT = 1454;

} // namespace

int
main(int argc, char* argv[])
{
    std::string transport = "tcp";
    uint32_t packets = 10000;
    uint32_t payload = 1472;
    Time interval = MicroSeconds(2);
    DataRate rate("1Gbps");
    Time delay = MicroSeconds(2);
    RudpScenarioRecord record("rudp-tcp-vs-udp");
    RudpTraceOptions tracing;
    Time maxTime = Seconds(600);

    const std::vector<std::string> transports{"tcp",
                                              "udp",
                                              "rudp-stop-and-wait",
                                              "rudp-go-back-n",
                                              "rudp-reno"};
    RudpCommandLine cmd(__FILE__);
    cmd.AddValue("transport", "Transport", transport, transports);
    cmd.AddValue("packets", "Packets to send, each of the payload size", packets, 1u, 10000000u);
    cmd.AddValue("payload",
                 "Payload bytes per packet (1472 fills a 1500-byte MTU with UDP; RUDP cuts "
                 "the same bytes into segments of at most 1454, its header being 18 bytes)",
                 payload,
                 1u,
                 1472u);
    cmd.AddValue("interval", "UDP: time between datagrams", interval, NanoSeconds(1), Seconds(1));
    cmd.AddValue("rate", "Channel data rate", rate, DataRate("1kbps"), DataRate("1000Gbps"));
    // ns-3's CSMA channel is busy for the whole delay, and a frame that waits
    // longer than its backoff allows (1000 slots of at most 1 ms) is dropped.
    cmd.AddValue("delay",
                 "Channel delay (at most 500ms: the CSMA channel is busy for the whole delay "
                 "and a frame waits at most about 0.5 s for it)",
                 delay,
                 Seconds(0),
                 MilliSeconds(500));
    record.AddOption(cmd);
    cmd.AddValue("max-time",
                 "Simulated time limit (the sender starts at 1s; up to 10^9 s)",
                 maxTime,
                 Seconds(0),
                 Seconds(1e9),
                 RudpText::OPEN_LOW);
    // The program sets these itself: a --ns3::...=value for them would be overridden.
    cmd.SetsAttributes("transport",
                       {"ns3::RudpSocket::WindowPolicy", "ns3::RudpSocketFactory::WindowPolicy"});
    cmd.SetsAttributes("payload", {"ns3::RudpSocket::SegmentSize"});
    cmd.SetsAttributes("rate", {"ns3::CsmaChannel::DataRate"});
    cmd.SetsAttributes("delay", {"ns3::CsmaChannel::Delay"});
    cmd.SetsAttributes("", {"ns3::CsmaNetDevice::Mtu"});
    tracing.AddOptions(cmd);
    cmd.Parse(argc, argv);

    const size_t kind = RudpParameterCheck::OneOf("transport", transport, transports);
    const uint32_t segmentSize = std::min(payload, RUDP_MAX_SEGMENT);
    const std::vector<std::string> policies{"ns3::RudpStopAndWait",
                                            "ns3::RudpGoBackN",
                                            "ns3::RudpReno"};
    if (kind >= 2)
    {
        Config::SetDefault("ns3::RudpSocket::WindowPolicy", StringValue(policies[kind - 2]));
        Config::SetDefault("ns3::RudpSocket::SegmentSize", UintegerValue(segmentSize));
    }

    NodeContainer nodes(2);
    CsmaHelper csma;
    csma.SetChannelAttribute("DataRate", DataRateValue(rate));
    csma.SetChannelAttribute("Delay", TimeValue(delay));
    csma.SetDeviceAttribute("Mtu", UintegerValue(1500));
    NetDeviceContainer devices = csma.Install(nodes);
    tracing.EnablePcap(csma);
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
    senderApp.Start(SENDER_START);

    FlowMonitorHelper flowHelper;
    flowHelper.SetMonitorAttribute("DelayBinWidth", DoubleValue(1e-5));
    flowHelper.SetMonitorAttribute("JitterBinWidth", DoubleValue(1e-6));
    Ptr<FlowMonitor> monitor = flowHelper.InstallAll();
    tracing.SetFlowMonitor(monitor);

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
    tracing.WriteFlowMonitor();
    Simulator::Destroy();

    // UDP may lose datagrams; the reliable transports must deliver every byte.
    std::string failure;
    if (maxTime <= SENDER_START)
    {
        failure = "the sender had not started by --max-time=" + RudpText::FormatTime(maxTime) +
                  " (it starts at " + RudpText::FormatTime(SENDER_START) + ")";
    }
    else if (kind != 1 && delivered != bytes)
    {
        failure = transport + " delivered " + std::to_string(delivered) + " of " +
                  std::to_string(bytes) +
                  " bytes within --max-time=" + RudpText::FormatTime(maxTime);
    }
    const bool ok = failure.empty();

    if (ok)
    {
        std::cout << std::fixed << std::setprecision(3) << "rudp-tcp-vs-udp: " << transport << ", "
                  << packets << " x " << payload << " bytes\n  throughput " << data.throughputMbps
                  << " Mbit/s, mean delay " << data.meanDelayS * 1e6 << " us, mean jitter "
                  << data.meanJitterS * 1e6 << " us, packets sent " << data.txPackets
                  << ", received " << data.rxPackets << ", lost " << data.lostPackets << std::endl;
    }
    else
    {
        std::cerr << "error: " << failure << std::endl;
    }

    if (record.IsWanted())
    {
        RudpJson json = data.ToJson(true);
        record.SetOutcome(json, ok, failure);
        json.Set("transport", transport)
            .Set("packets", packets)
            .Set("payload_bytes", payload)
            .Set("bytes", bytes)
            .Set("delivered_bytes", delivered)
            .Set("max_time_s", maxTime.GetSeconds())
            .Set("rng_run", static_cast<uint64_t>(RngSeedManager::GetRun()));
        if (kind >= 2)
        {
            json.Set("segment_size", segmentSize);
        }
        record.WriteOrFail(json);
    }
    return ok ? 0 : 1;
}
