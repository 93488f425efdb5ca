/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A starting point for your own RUDP experiment: every .cc in scratch/ is
// built as a program of its own (build/bin/<name> standalone, or copy it to
// ns-3's scratch/ in-tree). This one sends 1 MB with Reno over a 1% lossy
// 10 Mbit/s link and prints the goodput.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    double loss = 0.01;
    // RudpCommandLine is ns-3's CommandLine with strict parsing: a bad value
    // (--loss=0.05abc, --loss=2) or an unknown option ends the program with
    // "error: --<name>: ..." and exit status 2.
    RudpCommandLine cmd(__FILE__);
    cmd.AddValue("loss", "Packet loss probability of the link", loss, 0.0, 1.0);
    cmd.Parse(argc, argv);

    NodeContainer nodes(2);
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    link.SetChannelAttribute("Delay", StringValue("10ms"));
    NetDeviceContainer devices = link.Install(nodes);
    Ptr<RateErrorModel> model = CreateObject<RateErrorModel>();
    model->SetAttribute("ErrorRate", DoubleValue(loss));
    model->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(model));
    InternetStackHelper().Install(nodes);
    RudpStackHelper().Install(nodes);
    Ipv4InterfaceContainer interfaces =
        Ipv4AddressHelper("10.1.1.0", "255.255.255.0").Assign(devices);

    PacketSinkHelper sink("ns3::RudpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
    ApplicationContainer sinkApp = sink.Install(nodes.Get(1));
    BulkSendHelper bulk("ns3::RudpSocketFactory", InetSocketAddress(interfaces.GetAddress(1), 9));
    bulk.SetAttribute("MaxBytes", UintegerValue(1000000));
    bulk.Install(nodes.Get(0)).Start(Seconds(1));
    Simulator::Stop(Seconds(3600));
    Simulator::Run();
    const uint64_t bytes = DynamicCast<PacketSink>(sinkApp.Get(0))->GetTotalRx();
    std::cout << bytes << " bytes received" << std::endl;
    Simulator::Destroy();
    if (bytes != 1000000)
    {
        std::cerr << "error: the transfer failed: " << bytes << " of 1000000 bytes arrived"
                  << std::endl;
        return 1;
    }
    return 0;
}
