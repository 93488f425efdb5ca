/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "../model/rudp-path-routing.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/csma-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-cmt-addresses.h"
#include "ns3/rudp-cmt-path-manager.h"
#include "ns3/rudp-cmt-path.h"
#include "ns3/rudp-cmt-send-engine.h"
#include "ns3/rudp-cmt-socket-factory.h"
#include "ns3/rudp-cmt-socket.h"
#include "ns3/rudp-stack-helper.h"
#include "ns3/test.h"

/**
 * \file
 * \ingroup rudp-test
 * The multipath socket's path managers: SCTP's paths (one per peer
 * address, the routing picks the interface) and the full mesh (each local
 * address to each peer address, each by its own interface), and the
 * source-address routing the full mesh sends by, on a phone with two
 * "radios" talking to a server with one address; the addresses an
 * association adds and deletes on the wire (RudpCmtAddressChange).
 */

#include <map>
#include <set>
#include <tuple>

using namespace ns3;

namespace
{

const uint16_t PORT = 7000;

/**
 * \ingroup rudp-test
 * A phone with a "Wi-Fi" interface on a LAN (10.1.1.0/24, CSMA, 20 Mbit/s)
 * whose access point routes on to the operator's router (10.3.1.0/24), and
 * a "cellular" point-to-point link straight to that router (10.2.1.0/24,
 * 8 Mbit/s, 30 ms); the server has one address behind the router
 * (10.4.1.2). Global routing: the phone reaches the server by the cellular
 * link, two hops against the LAN's three.
 */
class PhoneNetwork
{
  public:
    /**
     * \param cellularAddressed false: the cellular link has no addresses
     *        yet (AddCellularAddresses gives it them)
     */
    explicit PhoneNetwork(bool cellularAddressed = true)
    {
        nodes.Create(4); // phone, access point, router, server
        CsmaHelper csma;
        csma.SetChannelAttribute("DataRate", StringValue("20Mbps"));
        csma.SetChannelAttribute("Delay", StringValue("2ms"));
        lan = csma.Install(NodeContainer(Phone(), AccessPoint()));
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("5ms"));
        backhaul = p2p.Install(AccessPoint(), Router());
        server = p2p.Install(Router(), Server());
        p2p.SetDeviceAttribute("DataRate", StringValue("8Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("30ms"));
        cellular = p2p.Install(Phone(), Router());

        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper address;
        address.SetBase("10.1.1.0", "255.255.255.0");
        address.Assign(lan);
        address.SetBase("10.2.1.0", "255.255.255.0");
        if (cellularAddressed)
        {
            address.Assign(cellular);
        }
        address.SetBase("10.3.1.0", "255.255.255.0");
        address.Assign(backhaul);
        address.SetBase("10.4.1.0", "255.255.255.0");
        address.Assign(server);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        RudpStackHelper().Install(NodeContainer(Phone(), Server()));
    }

    ~PhoneNetwork()
    {
        Simulator::Destroy();
    }

    Ptr<Node> Phone() const
    {
        return nodes.Get(0);
    }

    Ptr<Node> AccessPoint() const
    {
        return nodes.Get(1);
    }

    Ptr<Node> Router() const
    {
        return nodes.Get(2);
    }

    Ptr<Node> Server() const
    {
        return nodes.Get(3);
    }

    static Ipv4Address ServerAddress()
    {
        return Ipv4Address("10.4.1.2");
    }

    /**
     * \brief A PacketSink on the server and a BulkSend of \p bytes from the
     * phone, started at 1 s, the phone's association built by \p manager.
     * \return the sink
     */
    Ptr<PacketSink> InstallTransfer(uint64_t bytes, const std::string& manager)
    {
        // Both ends: the server's one address gives it a path per phone address either way.
        Config::SetDefault("ns3::RudpCmtSocket::PathManager", StringValue(manager));
        PacketSinkHelper sink("ns3::RudpCmtSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), PORT));
        BulkSendHelper bulk("ns3::RudpCmtSocketFactory", InetSocketAddress(ServerAddress(), PORT));
        bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
        bulk.Install(Phone()).Start(Seconds(1));
        return DynamicCast<PacketSink>(sink.Install(Server()).Get(0));
    }

    /**
     * \brief Addresses the cellular link as an attach would: the phone's end
     * 10.2.1.2, the router's 10.2.1.1, up; global routing computed again.
     */
    void AddCellularAddresses()
    {
        for (const auto& [device, local] : {std::make_pair(cellular.Get(1), "10.2.1.1"),
                                            std::make_pair(cellular.Get(0), "10.2.1.2")})
        {
            Ptr<Ipv4> ipv4 = device->GetNode()->GetObject<Ipv4>();
            const uint32_t interface = ipv4->AddInterface(device);
            ipv4->AddAddress(interface,
                             Ipv4InterfaceAddress(Ipv4Address(local), Ipv4Mask("255.255.255.0")));
            ipv4->SetUp(interface);
        }
        Ipv4GlobalRoutingHelper::RecomputeRoutingTables();
    }

    /// \return the phone's association
    Ptr<RudpCmtSocket> PhoneSocket() const
    {
        ObjectVectorValue sockets;
        Phone()->GetObject<RudpCmtSocketFactory>()->GetAttribute("SocketList", sockets);
        return sockets.GetN() > 0 ? DynamicCast<RudpCmtSocket>(sockets.Get(0)) : nullptr;
    }

    NodeContainer nodes;
    NetDeviceContainer lan;
    NetDeviceContainer backhaul;
    NetDeviceContainer server;
    NetDeviceContainer cellular;
};

/// Adds a transmitted packet's size to \p bytes.
void
CountBytes(uint64_t* bytes, Ptr<const Packet> packet)
{
    *bytes += packet->GetSize();
}

/// Datagrams by (source, destination) address.
using DatagramsByEnds = std::map<std::pair<Ipv4Address, Ipv4Address>, uint64_t>;

/// Counts an IPv4 datagram by its ends (Ipv4L3Protocol's SendOutgoing and LocalDeliver).
void
CountEnds(DatagramsByEnds* count, const Ipv4Header& header, Ptr<const Packet>, uint32_t)
{
    ++(*count)[{header.GetSource(), header.GetDestination()}];
}

/// Notes when path 0 changed status, and to what.
void
NoteStatus(std::vector<std::pair<Time, uint32_t>>* changes, uint32_t path, uint32_t, uint32_t now)
{
    if (path == 0)
    {
        changes->emplace_back(Simulator::Now(), now);
    }
}

/// Sets interface \p interface of \p ipv4 up or down.
void
SetInterface(Ptr<Ipv4> ipv4, uint32_t interface, bool up)
{
    if (up)
    {
        ipv4->SetUp(interface);
    }
    else
    {
        ipv4->SetDown(interface);
    }
}

/// Copies \p from into \p to.
void
Snapshot(const uint64_t* from, uint64_t* to)
{
    *to = *from;
}

/// Notes what path \p index of the phone's association has sent so far.
void
NotePathBytes(PhoneNetwork* net, uint32_t index, std::vector<uint64_t>* notes)
{
    notes->push_back(net->PhoneSocket()->GetSender()->GetPaths().at(index)->GetStats().bytesSent);
}

/// Follows the phone's association's path 0 once it exists.
void
WatchPathStatus(PhoneNetwork* net, std::vector<std::pair<Time, uint32_t>>* changes)
{
    net->PhoneSocket()->TraceConnectWithoutContext("PathStatus",
                                                   MakeBoundCallback(&NoteStatus, changes));
}

} // namespace

/**
 * \ingroup rudp-test
 * The managers' answers: SCTP's a path per peer address from any local
 * one; the full mesh each local address to each peer address, peer by
 * peer, up to MaxPaths.
 */
class RudpPathManagerAnswersTestCase : public TestCase
{
  public:
    RudpPathManagerAnswersTestCase()
        : TestCase("RudpSctpPaths and RudpFullMesh: which paths")
    {
    }

  private:
    void DoRun() override
    {
        const Ipv4Address a("10.1.1.1");
        const Ipv4Address b("10.2.1.1");
        const Ipv4Address p("10.4.1.2");
        const Ipv4Address q("10.5.1.2");
        const Ipv4Address any = Ipv4Address::GetAny();

        Ptr<RudpSctpPaths> sctp = CreateObject<RudpSctpPaths>();
        const std::vector<RudpCmtPathEnds> sctpPaths = sctp->Paths({a, b}, {p, q});
        NS_TEST_ASSERT_MSG_EQ(sctpPaths.size(), 2, "SCTP: one path per peer address");
        NS_TEST_EXPECT_MSG_EQ((sctpPaths[0] == RudpCmtPathEnds{any, p}), true, "primary first");
        NS_TEST_EXPECT_MSG_EQ((sctpPaths[1] == RudpCmtPathEnds{any, q}), true, "then the next");

        Ptr<RudpFullMesh> mesh = CreateObject<RudpFullMesh>();
        const std::vector<RudpCmtPathEnds> meshPaths = mesh->Paths({a, b}, {p, q});
        NS_TEST_ASSERT_MSG_EQ(meshPaths.size(), 4, "full mesh: every pair");
        NS_TEST_EXPECT_MSG_EQ((meshPaths[0] == RudpCmtPathEnds{a, p}), true, "primary first");
        NS_TEST_EXPECT_MSG_EQ((meshPaths[1] == RudpCmtPathEnds{b, p}), true, "its other local");
        NS_TEST_EXPECT_MSG_EQ((meshPaths[2] == RudpCmtPathEnds{a, q}), true, "then peer q");
        NS_TEST_EXPECT_MSG_EQ((meshPaths[3] == RudpCmtPathEnds{b, q}), true, "last");
        mesh->SetAttribute("MaxPaths", UintegerValue(3));
        NS_TEST_EXPECT_MSG_EQ(mesh->Paths({a, b}, {p, q}).size(), 3, "MaxPaths");
        NS_TEST_EXPECT_MSG_EQ(mesh->Paths({a, b}, {}).size(), 0, "no peer, no path");
    }
};

/**
 * \ingroup rudp-test
 * RudpPathRouting on the phone: each local address reaches the server by
 * its own interface, the LAN's through the access point (which global
 * routing does not offer the phone), the cellular one through the router;
 * an interface that is down has no route; a node whose routing is no list
 * gets none installed.
 */
class RudpPathRoutingTestCase : public TestCase
{
  public:
    RudpPathRoutingTestCase()
        : TestCase("RudpPathRouting: a route from each local address by its interface")
    {
    }

  private:
    void DoRun() override
    {
        PhoneNetwork net;
        Ptr<Ipv4> ipv4 = net.Phone()->GetObject<Ipv4>();
        Ptr<RudpPathRouting> routing = RudpPathRouting::Install(net.Phone());
        NS_TEST_ASSERT_MSG_NE(routing, nullptr, "InternetStackHelper's list routing");
        NS_TEST_EXPECT_MSG_EQ(RudpPathRouting::Install(net.Phone()),
                              routing,
                              "installed once per node");

        // Global routing prefers the cellular link for the server.
        Ipv4Header header;
        header.SetDestination(PhoneNetwork::ServerAddress());
        Socket::SocketErrno error;
        Ptr<Ipv4Route> preferred =
            ipv4->GetRoutingProtocol()->RouteOutput(Create<Packet>(), header, nullptr, error);
        NS_TEST_ASSERT_MSG_NE(preferred, nullptr, "a route");
        NS_TEST_EXPECT_MSG_EQ(preferred->GetOutputDevice(), net.cellular.Get(0), "cellular");

        Ptr<Ipv4Route> lan = routing->RouteFrom(Ipv4Address("10.1.1.1"), net.ServerAddress());
        NS_TEST_ASSERT_MSG_NE(lan, nullptr, "the LAN reaches the server through the AP");
        NS_TEST_EXPECT_MSG_EQ(lan->GetOutputDevice(), net.lan.Get(0), "by the LAN's device");
        NS_TEST_EXPECT_MSG_EQ(lan->GetGateway(), Ipv4Address("10.1.1.2"), "the AP's address");
        NS_TEST_EXPECT_MSG_EQ(lan->GetSource(), Ipv4Address("10.1.1.1"), "from the LAN address");

        Ptr<Ipv4Route> cell = routing->RouteFrom(Ipv4Address("10.2.1.1"), net.ServerAddress());
        NS_TEST_ASSERT_MSG_NE(cell, nullptr, "the cellular route");
        NS_TEST_EXPECT_MSG_EQ(cell->GetOutputDevice(), net.cellular.Get(0), "cellular device");
        NS_TEST_EXPECT_MSG_EQ(cell->GetGateway(), Ipv4Address("10.2.1.2"), "the router");

        // A tagged datagram takes the tag's route; an untagged one the routing's.
        Ptr<Packet> tagged = Create<Packet>(10);
        tagged->AddPacketTag(RudpPathTag(Ipv4Address("10.1.1.1")));
        Ptr<Ipv4Route> route =
            ipv4->GetRoutingProtocol()->RouteOutput(tagged, header, nullptr, error);
        NS_TEST_ASSERT_MSG_NE(route, nullptr, "the list asks RudpPathRouting first");
        NS_TEST_EXPECT_MSG_EQ(route->GetOutputDevice(), net.lan.Get(0), "the tag's interface");
        // A reply's tag is not bound: the routing's route, the tag's source.
        Ptr<Packet> reply = Create<Packet>(10);
        reply->AddPacketTag(RudpPathTag(Ipv4Address("10.1.1.1"), false));
        route = ipv4->GetRoutingProtocol()->RouteOutput(reply, header, nullptr, error);
        NS_TEST_ASSERT_MSG_NE(route, nullptr, "a reply's route");
        NS_TEST_EXPECT_MSG_EQ(route->GetOutputDevice(), net.cellular.Get(0), "the routing's");
        NS_TEST_EXPECT_MSG_EQ(route->GetSource(), Ipv4Address("10.1.1.1"), "from the tag's");
        RudpPathTag copied;
        reply->PeekPacketTag(copied);
        NS_TEST_EXPECT_MSG_EQ(copied.IsBound(), false, "the flag kept");
        Ptr<Packet> stranger = Create<Packet>(10);
        stranger->AddPacketTag(RudpPathTag(Ipv4Address("10.9.9.9"), false));
        route = ipv4->GetRoutingProtocol()->RouteOutput(stranger, header, nullptr, error);
        NS_TEST_ASSERT_MSG_NE(route, nullptr, "an address not the node's: the routing's route");
        NS_TEST_EXPECT_MSG_EQ(route->GetSource(), Ipv4Address("10.2.1.1"), "and its source");

        ipv4->SetDown(ipv4->GetInterfaceForDevice(net.lan.Get(0)));
        NS_TEST_EXPECT_MSG_EQ(routing->RouteFrom(Ipv4Address("10.1.1.1"), net.ServerAddress()),
                              nullptr,
                              "an interface that is down has no route");
        NS_TEST_EXPECT_MSG_EQ(routing->RouteFrom(Ipv4Address("10.9.9.9"), net.ServerAddress()),
                              nullptr,
                              "an address not the node's has none");

        Ptr<Node> lone = CreateObject<Node>();
        InternetStackHelper olsrLike;
        olsrLike.SetRoutingHelper(Ipv4StaticRoutingHelper());
        olsrLike.Install(lone);
        NS_TEST_EXPECT_MSG_EQ(RudpPathRouting::Install(lone),
                              nullptr,
                              "a routing protocol that is no list: none installed");
    }
};

/**
 * \ingroup rudp-test
 * The phone's transfer to a server with one address: SCTP's paths give
 * one path, on the cellular link the routing prefers, nothing on the LAN;
 * the full mesh gives two, one per radio, each carrying data out of its
 * own interface, and the file arrives whole.
 */
class RudpPhoneTransferTestCase : public TestCase
{
  public:
    /// \param manager the phone's PathManager
    explicit RudpPhoneTransferTestCase(const std::string& manager)
        : TestCase("a phone's two radios to a single-homed server, " + manager),
          m_manager(manager)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 4000000;
        PhoneNetwork net;
        Ptr<PacketSink> sink = net.InstallTransfer(bytes, m_manager);
        uint64_t lanBytes = 0;
        uint64_t cellularBytes = 0;
        net.lan.Get(0)->TraceConnectWithoutContext("MacTx",
                                                   MakeBoundCallback(&CountBytes, &lanBytes));
        net.cellular.Get(0)->TraceConnectWithoutContext(
            "MacTx",
            MakeBoundCallback(&CountBytes, &cellularBytes));
        Simulator::Stop(Seconds(30));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(sink->GetTotalRx(), bytes, "the whole file arrived");
        Ptr<RudpCmtSocket> socket = net.PhoneSocket();
        NS_TEST_ASSERT_MSG_NE(socket, nullptr, "the phone's association");
        const auto& paths = socket->GetSender()->GetPaths();
        if (m_manager == "ns3::RudpSctpPaths")
        {
            NS_TEST_ASSERT_MSG_EQ(paths.size(), 1, "one peer address, one path");
            NS_TEST_EXPECT_MSG_LT(lanBytes, 10000, "no data on the LAN (ARP at most)");
            NS_TEST_EXPECT_MSG_GT(cellularBytes, bytes, "everything on the cellular link");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(paths.size(), 2, "a path per radio");
        NS_TEST_EXPECT_MSG_EQ(paths[0]->GetLocal(), Ipv4Address("10.1.1.1"), "the LAN's");
        NS_TEST_EXPECT_MSG_EQ(paths[1]->GetLocal(), Ipv4Address("10.2.1.1"), "the cellular");
        for (const auto& path : paths)
        {
            NS_TEST_EXPECT_MSG_GT(path->GetStats().bytesSent, bytes / 10, "each path carries data");
        }
        // Each path's bytes left by its own interface (plus headers).
        NS_TEST_EXPECT_MSG_GT(lanBytes, paths[0]->GetStats().bytesSent, "LAN path on the LAN");
        NS_TEST_EXPECT_MSG_GT(cellularBytes,
                              paths[1]->GetStats().bytesSent,
                              "cellular path on the cellular link");
        NS_TEST_EXPECT_MSG_LT(lanBytes,
                              paths[0]->GetStats().bytesSent * 11 / 10 + 100000,
                              "and nothing else on the LAN but its headers and SACKs");
    }

    void DoTeardown() override
    {
        Config::SetDefault("ns3::RudpCmtSocket::PathManager", StringValue("ns3::RudpSctpPaths"));
    }

    std::string m_manager; ///< the phone's PathManager
};

/**
 * \ingroup rudp-test
 * Paths follow the interfaces: the phone's LAN interface goes down at 2 s
 * and up at 4 s during a full-mesh transfer. The LAN path fails at once (no
 * retransmission timeout to wait for), carries nothing while down, is
 * probed as soon as the interface is back and active again one round trip
 * later; the file arrives whole.
 */
class RudpInterfaceDownUpTestCase : public TestCase
{
  public:
    RudpInterfaceDownUpTestCase()
        : TestCase("full mesh: a path goes with its interface and returns with it")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 6000000;
        PhoneNetwork net;
        Ptr<PacketSink> sink = net.InstallTransfer(bytes, "ns3::RudpFullMesh");
        std::vector<std::pair<Time, uint32_t>> changes;
        Simulator::Schedule(Seconds(1.5), &WatchPathStatus, &net, &changes);
        Ptr<Ipv4> ipv4 = net.Phone()->GetObject<Ipv4>();
        const uint32_t lan = ipv4->GetInterfaceForDevice(net.lan.Get(0));
        Simulator::Schedule(Seconds(2), &SetInterface, ipv4, lan, false);
        Simulator::Schedule(Seconds(4), &SetInterface, ipv4, lan, true);
        uint64_t lanBytes = 0;
        uint64_t lanBytesWhenBack = 0;
        net.lan.Get(0)->TraceConnectWithoutContext("MacTx",
                                                   MakeBoundCallback(&CountBytes, &lanBytes));
        Simulator::Schedule(Seconds(4), &Snapshot, &lanBytes, &lanBytesWhenBack);
        Simulator::Stop(Seconds(40));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(sink->GetTotalRx(), bytes, "the whole file arrived");
        NS_TEST_ASSERT_MSG_EQ(changes.size(), 2, "failed, then active again");
        NS_TEST_EXPECT_MSG_EQ(changes[0].first, Seconds(2), "failed with its interface");
        NS_TEST_EXPECT_MSG_EQ(changes[0].second, RudpCmtPath::FAILED, "failed");
        NS_TEST_EXPECT_MSG_EQ(changes[1].second, RudpCmtPath::ACTIVE, "active again");
        // The probe's round trip: LAN, backhaul and server link, about 25 ms.
        NS_TEST_EXPECT_MSG_GT(changes[1].first, Seconds(4), "not before it is back");
        NS_TEST_EXPECT_MSG_LT(changes[1].first, Seconds(4.1), "one round trip after");
        NS_TEST_EXPECT_MSG_GT(net.PhoneSocket()->GetSender()->GetPaths()[0]->GetStats().bytesSent,
                              bytes / 10,
                              "it carried data");
        NS_TEST_EXPECT_MSG_GT(lanBytes - lanBytesWhenBack, bytes / 10, "on the LAN, once back");
    }

    void DoTeardown() override
    {
        Config::SetDefault("ns3::RudpCmtSocket::PathManager", StringValue("ns3::RudpSctpPaths"));
    }
};

/**
 * \ingroup rudp-test
 * A backup address (MPTCP's backup flag): the phone's cellular address is
 * one. Its path carries nothing while the LAN's path is active, the data
 * while the LAN's interface is down (2 to 4 s), and nothing again once the
 * LAN's path is back.
 */
class RudpBackupPathTestCase : public TestCase
{
  public:
    RudpBackupPathTestCase()
        : TestCase("full mesh: a backup path carries data only while no other path is active")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 8000000;
        PhoneNetwork net;
        net.Phone()->GetObject<RudpCmtSocketFactory>()->SetBackup(Ipv4Address("10.2.1.1"), true);
        Ptr<PacketSink> sink = net.InstallTransfer(bytes, "ns3::RudpFullMesh");
        Ptr<Ipv4> ipv4 = net.Phone()->GetObject<Ipv4>();
        const uint32_t lan = ipv4->GetInterfaceForDevice(net.lan.Get(0));
        Simulator::Schedule(Seconds(2), &SetInterface, ipv4, lan, false);
        Simulator::Schedule(Seconds(4), &SetInterface, ipv4, lan, true);
        std::vector<uint64_t> cellular; // just before 2 s and 4 s, at 4.5 s
        for (const double at : {1.999, 3.999, 4.5})
        {
            Simulator::Schedule(Seconds(at), &NotePathBytes, &net, 1, &cellular);
        }
        Simulator::Stop(Seconds(40));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(sink->GetTotalRx(), bytes, "the whole file arrived");
        const auto& paths = net.PhoneSocket()->GetSender()->GetPaths();
        NS_TEST_ASSERT_MSG_EQ(paths.size(), 2, "both radios");
        NS_TEST_EXPECT_MSG_EQ(paths[0]->IsBackup(), false, "the LAN's is no backup");
        NS_TEST_EXPECT_MSG_EQ(paths[1]->IsBackup(), true, "the cellular one is");
        NS_TEST_ASSERT_MSG_EQ(cellular.size(), 3, "three notes");
        NS_TEST_EXPECT_MSG_EQ(cellular[0], 0, "nothing while the LAN carried the data");
        NS_TEST_EXPECT_MSG_GT(cellular[1], 500000, "the data while the LAN was down");
        NS_TEST_EXPECT_MSG_EQ(paths[1]->GetStats().bytesSent,
                              cellular[2],
                              "nothing once the LAN's path was back");
        NS_TEST_EXPECT_MSG_GT(paths[0]->GetStats().bytesSent, bytes / 2, "the LAN the most");
    }

    void DoTeardown() override
    {
        Config::SetDefault("ns3::RudpCmtSocket::PathManager", StringValue("ns3::RudpSctpPaths"));
    }
};

/**
 * \ingroup rudp-test
 * An address change on the wire and its two ends: the payload round trip
 * and what Decode refuses; the announcer's serial numbers, its one request
 * outstanding, a waiting parameter cancelled by its opposite, answers that
 * are not its request's refused, resends backed off and the give-up after
 * MaxRetries; the receiving end's next, repeated and stray requests.
 */
class RudpAddressChangeCodecTestCase : public TestCase
{
  public:
    RudpAddressChangeCodecTestCase()
        : TestCase("address changes: wire format, the announcer, the receiving end")
    {
    }

  private:
    using Change = RudpCmtAddressChange;

    /// Notes a request sent.
    static void Sent(std::vector<Change>* sent, Ptr<Packet> payload)
    {
        Change change;
        NS_ABORT_UNLESS(Change::Decode(payload, change));
        sent->push_back(change);
    }

    /// Notes a give-up.
    static void GaveUp(uint32_t* tries, uint32_t count)
    {
        *tries = count;
    }

    void DoRun() override
    {
        Change change;
        change.tag = 0x1122334455667788ULL;
        change.serial = 7;
        change.parameters = {{Change::ADD, Change::REQUESTED, Ipv4Address("10.2.1.1")},
                             {Change::DELETE, Change::REFUSED, Ipv4Address("10.1.1.1")}};
        Change decoded;
        NS_TEST_ASSERT_MSG_EQ(Change::Decode(change.Encode(), decoded), true, "decoded");
        NS_TEST_EXPECT_MSG_EQ(decoded.tag, change.tag, "tag");
        NS_TEST_EXPECT_MSG_EQ(decoded.serial, 7, "serial");
        NS_TEST_ASSERT_MSG_EQ(decoded.parameters.size(), 2, "two parameters");
        NS_TEST_EXPECT_MSG_EQ(decoded.parameters[1].type, Change::DELETE, "type");
        NS_TEST_EXPECT_MSG_EQ(decoded.parameters[1].result, Change::REFUSED, "result");
        NS_TEST_EXPECT_MSG_EQ(decoded.parameters[1].address, Ipv4Address("10.1.1.1"), "address");
        NS_TEST_EXPECT_MSG_EQ(change.Encode()->GetSize(), 12 + 2 * 6, "12 + 6 a parameter");
        NS_TEST_EXPECT_MSG_EQ(Change::Decode(Create<Packet>(12), decoded), false, "no parameter");
        NS_TEST_EXPECT_MSG_EQ(Change::Decode(Create<Packet>(17), decoded), false, "ragged");
        NS_TEST_EXPECT_MSG_EQ(Change::Decode(Create<Packet>(12 + 6 * 17), decoded),
                              false,
                              "too many");
        for (const auto& [type, result, address] :
             std::vector<std::tuple<uint8_t, uint8_t, const char*>>{{3, 0, "10.2.1.1"},
                                                                    {1, 3, "10.2.1.1"},
                                                                    {1, 0, "127.0.0.1"},
                                                                    {2, 0, "224.0.0.5"}})
        {
            std::vector<uint8_t> bytes(18);
            bytes[12] = type;
            bytes[13] = result;
            Ipv4Address(address).Serialize(&bytes[14]);
            NS_TEST_EXPECT_MSG_EQ(
                Change::Decode(Create<Packet>(bytes.data(), bytes.size()), decoded),
                false,
                "a bad parameter");
        }

        // The announcer.
        std::vector<Change> sent;
        uint32_t gaveUpAfter = 0;
        RudpCmtAddressAnnouncer announcer;
        announcer.SetCallbacks(MakeBoundCallback(&Sent, &sent),
                               MakeBoundCallback(&GaveUp, &gaveUpAfter));
        const uint64_t peerKey = 5;
        const uint64_t localKey = 9;
        announcer.Start(peerKey, Seconds(1), Seconds(4), 3);
        announcer.Announce(Change::ADD, Ipv4Address("10.2.1.1"));
        announcer.Announce(Change::ADD, Ipv4Address("10.5.1.1"));    // waits
        announcer.Announce(Change::DELETE, Ipv4Address("10.5.1.1")); // cancels it
        announcer.Announce(Change::DELETE, Ipv4Address("10.1.1.1")); // waits
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 1, "one request outstanding");
        NS_TEST_EXPECT_MSG_EQ(sent[0].tag, peerKey, "tagged with the peer's key");
        NS_TEST_EXPECT_MSG_EQ(sent[0].serial, 1, "serial numbers start at 1");
        NS_TEST_EXPECT_MSG_EQ(announcer.IsPending(Ipv4Address("10.5.1.1")), false, "cancelled");
        NS_TEST_EXPECT_MSG_EQ(announcer.IsPending(Ipv4Address("10.1.1.1")), true, "waiting");
        Change ack = sent[0];
        ack.tag = localKey;
        ack.parameters[0].result = Change::DONE;
        std::vector<Change::Parameter> answered;
        Change wrong = ack;
        wrong.tag = peerKey;
        NS_TEST_EXPECT_MSG_EQ(announcer.Acknowledge(wrong, localKey, answered), false, "tag");
        wrong = ack;
        wrong.serial = 2;
        NS_TEST_EXPECT_MSG_EQ(announcer.Acknowledge(wrong, localKey, answered), false, "serial");
        wrong = ack;
        wrong.parameters[0].address = Ipv4Address("10.9.9.9");
        NS_TEST_EXPECT_MSG_EQ(announcer.Acknowledge(wrong, localKey, answered), false, "address");
        NS_TEST_EXPECT_MSG_EQ(announcer.Acknowledge(ack, localKey, answered), true, "answered");
        NS_TEST_EXPECT_MSG_EQ(answered.size(), 1, "its parameter");
        NS_TEST_EXPECT_MSG_EQ(announcer.Acknowledge(ack, localKey, answered), false, "once");
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 2, "the next request, at once");
        NS_TEST_EXPECT_MSG_EQ(sent[1].serial, 2, "serial 2");
        NS_TEST_EXPECT_MSG_EQ(sent[1].parameters[0].type, Change::DELETE, "the waiting DELETE");
        // Unanswered: resent after 1, 2, 4 (MaxRto) s, then given up 4 s later.
        Simulator::Stop(Seconds(60));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(sent.size(), 5, "resent three times");
        NS_TEST_EXPECT_MSG_EQ(sent[4].serial, 2, "the same request");
        NS_TEST_EXPECT_MSG_EQ(gaveUpAfter, 4, "given up after four tries");
        NS_TEST_EXPECT_MSG_EQ(Simulator::Now(), Seconds(60), "nothing pending kept it");
        Simulator::Destroy();

        // The receiving end.
        RudpCmtAddressRequests requests;
        Change request = sent[0];
        request.tag = localKey;
        NS_TEST_EXPECT_MSG_EQ(requests.Admit(request, peerKey),
                              RudpCmtAddressRequests::DROP,
                              "not our key");
        NS_TEST_EXPECT_MSG_EQ(requests.Admit(request, localKey),
                              RudpCmtAddressRequests::APPLY,
                              "serial 1 first");
        NS_TEST_EXPECT_MSG_EQ(requests.GetLastAnswer(), nullptr, "nothing to repeat yet");
        requests.Answered(ack.Encode(), 1);
        NS_TEST_EXPECT_MSG_EQ(requests.Admit(request, localKey),
                              RudpCmtAddressRequests::REPEAT,
                              "serial 1 again: its answer was lost");
        request.serial = 3;
        NS_TEST_EXPECT_MSG_EQ(requests.Admit(request, localKey),
                              RudpCmtAddressRequests::DROP,
                              "out of order");
        request.serial = 2;
        NS_TEST_EXPECT_MSG_EQ(requests.Admit(request, localKey),
                              RudpCmtAddressRequests::APPLY,
                              "the next");
    }
};

/// Notes an association's address change.
void
NoteAddressChange(std::vector<std::tuple<bool, uint8_t, Ipv4Address, uint8_t>>* changes,
                  bool peer,
                  uint8_t type,
                  Ipv4Address address,
                  uint8_t result)
{
    changes->emplace_back(peer, type, address, result);
}

/// Follows every association's AddressChange on \p node.
void
WatchAddressChanges(Ptr<Node> node,
                    std::vector<std::tuple<bool, uint8_t, Ipv4Address, uint8_t>>* changes)
{
    ObjectVectorValue sockets;
    node->GetObject<RudpCmtSocketFactory>()->GetAttribute("SocketList", sockets);
    for (uint32_t i = 0; i < sockets.GetN(); ++i)
    {
        sockets.Get(i)->TraceConnectWithoutContext("AddressChange",
                                                   MakeBoundCallback(&NoteAddressChange, changes));
    }
}

/// \return the server's association (its listener's child)
Ptr<RudpCmtSocket>
ServerAssociation(const PhoneNetwork& net)
{
    ObjectVectorValue sockets;
    net.Server()->GetObject<RudpCmtSocketFactory>()->GetAttribute("SocketList", sockets);
    for (uint32_t i = 0; i < sockets.GetN(); ++i)
    {
        Ptr<RudpCmtSocket> socket = DynamicCast<RudpCmtSocket>(sockets.Get(i));
        if (!socket->GetPeerAddresses().empty())
        {
            return socket;
        }
    }
    return nullptr;
}

/// Replaces the first address of \p interface by \p address (/24), as a new lease does.
void
Renumber(Ptr<Ipv4> ipv4, uint32_t interface, Ipv4Address address)
{
    ipv4->RemoveAddress(interface, 0);
    ipv4->AddAddress(interface, Ipv4InterfaceAddress(address, Ipv4Mask("255.255.255.0")));
    Ipv4GlobalRoutingHelper::RecomputeRoutingTables(); // it looks addresses up by index
}

/// Hands the server's association a change of the phone's addresses under a wrong tag.
void
ForgeAddressChange(PhoneNetwork* net, uint64_t* droppedBefore, uint64_t* droppedAfter)
{
    Ptr<RudpCmtSocket> server = ServerAssociation(*net);
    Address phone;
    net->PhoneSocket()->GetSockName(phone);
    RudpCmtAddressChange change;
    change.tag = 0x5eed;
    change.serial = 1;
    change.parameters = {
        {RudpCmtAddressChange::ADD, RudpCmtAddressChange::REQUESTED, Ipv4Address("10.9.9.9")},
        {RudpCmtAddressChange::DELETE, RudpCmtAddressChange::REQUESTED, Ipv4Address("10.1.1.1")}};
    RudpHeader header;
    header.SetFlags(RudpHeader::ADDRESS_CHANGE);
    *droppedBefore = server->GetDroppedDatagrams();
    server->ReceiveDatagram(
        RudpSegmentCodec::Encode(header, change.Encode(), RudpHeader::CHECKSUM_INTERNET16),
        InetSocketAddress(Ipv4Address("10.1.1.1"), InetSocketAddress::ConvertFrom(phone).GetPort()),
        PhoneNetwork::ServerAddress());
    *droppedAfter = server->GetDroppedDatagrams();
}

/**
 * \ingroup rudp-test
 * Addresses announced on the wire: the phone's cellular device has no
 * address when it connects (its INIT lists the LAN's address alone), gets
 * one at 2 s (the phone asks the server to ADD it, and once answered opens
 * a full-mesh path from it), and the LAN's address is replaced at 4 s (the
 * phone removes the old address's path, asks the server to DELETE it and
 * ADD the new one, and opens a path from it once answered). A change under
 * a wrong tag, at 1.5 s, is dropped. The file arrives whole, each path
 * carrying a share.
 */
class RudpAddressChangeTestCase : public TestCase
{
  public:
    RudpAddressChangeTestCase()
        : TestCase("full mesh: an address added is announced and used, one removed is deleted")
    {
    }

  private:
    using Noted = std::tuple<bool, uint8_t, Ipv4Address, uint8_t>;

    void DoRun() override
    {
        const uint64_t bytes = 6000000;
        PhoneNetwork net(false);
        Ptr<PacketSink> sink = net.InstallTransfer(bytes, "ns3::RudpFullMesh");
        Ptr<Ipv4> ipv4 = net.Phone()->GetObject<Ipv4>();
        const uint32_t lan = ipv4->GetInterfaceForDevice(net.lan.Get(0));
        std::vector<Noted> phoneChanges;
        std::vector<Noted> serverChanges;
        Simulator::Schedule(Seconds(1.4), &WatchAddressChanges, net.Phone(), &phoneChanges);
        Simulator::Schedule(Seconds(1.4), &WatchAddressChanges, net.Server(), &serverChanges);
        uint64_t droppedBefore = 0;
        uint64_t droppedAfter = 0;
        Simulator::Schedule(Seconds(1.5), &ForgeAddressChange, &net, &droppedBefore, &droppedAfter);
        Simulator::Schedule(Seconds(2), &PhoneNetwork::AddCellularAddresses, &net);
        // Renumbered at 4 s (a new lease, on another network): the LAN's
        // address replaced. ns-3's global routing needs an address on every
        // interface, and to be told.
        Simulator::Schedule(Seconds(4), &Renumber, ipv4, lan, Ipv4Address("10.1.1.7"));
        Simulator::Stop(Seconds(40));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(sink->GetTotalRx(), bytes, "the whole file arrived");
        NS_TEST_EXPECT_MSG_EQ(droppedAfter, droppedBefore + 1, "the forged change dropped");
        const auto done = [](uint8_t type, const char* address) {
            return std::set<std::pair<uint8_t, Ipv4Address>>::value_type(type,
                                                                         Ipv4Address(address));
        };
        const std::set<std::pair<uint8_t, Ipv4Address>> expected{
            done(RudpCmtAddressChange::ADD, "10.2.1.2"),
            done(RudpCmtAddressChange::DELETE, "10.1.1.1"),
            done(RudpCmtAddressChange::ADD, "10.1.1.7")};
        for (const auto* changes : {&phoneChanges, &serverChanges})
        {
            const bool peer = changes == &serverChanges;
            std::set<std::pair<uint8_t, Ipv4Address>> seen;
            for (const auto& [byPeer, type, address, result] : *changes)
            {
                NS_TEST_EXPECT_MSG_EQ(byPeer, peer, "whose address");
                NS_TEST_EXPECT_MSG_EQ(+result, +RudpCmtAddressChange::DONE, "applied");
                seen.emplace(type, address);
            }
            NS_TEST_EXPECT_MSG_EQ(changes->size(), 3, "three changes, no forged one");
            NS_TEST_EXPECT_MSG_EQ((seen == expected), true, "the cellular's and the LAN's");
        }
        NS_TEST_ASSERT_MSG_EQ(phoneChanges.empty(), false, "the phone changed addresses");
        if (phoneChanges.empty())
        {
            return; // the runner goes on after a failure
        }
        NS_TEST_ASSERT_MSG_EQ((phoneChanges[0] == Noted{false,
                                                        RudpCmtAddressChange::ADD,
                                                        Ipv4Address("10.2.1.2"),
                                                        RudpCmtAddressChange::DONE}),
                              true,
                              "the cellular's first");
        Ptr<RudpCmtSocket> server = ServerAssociation(net);
        NS_TEST_ASSERT_MSG_NE(server, nullptr, "the server's association");
        if (!server)
        {
            return;
        }
        const std::set<Ipv4Address> now{Ipv4Address("10.2.1.2"), Ipv4Address("10.1.1.7")};
        const auto& peers = server->GetPeerAddresses();
        NS_TEST_EXPECT_MSG_EQ((std::set<Ipv4Address>(peers.begin(), peers.end()) == now),
                              true,
                              "the server knows the phone's addresses of now");
        Ptr<RudpCmtSocket> phone = net.PhoneSocket();
        const auto& announced = phone->GetAnnouncedAddresses();
        NS_TEST_EXPECT_MSG_EQ((std::set<Ipv4Address>(announced.begin(), announced.end()) == now),
                              true,
                              "and the phone says so");
        const auto& paths = phone->GetSender()->GetPaths();
        NS_TEST_ASSERT_MSG_EQ(paths.size(), 3, "the LAN's old path, the cellular, the LAN's new");
        if (paths.size() != 3)
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(paths[0]->GetStatus(), RudpCmtPath::REMOVED, "the old one removed");
        NS_TEST_EXPECT_MSG_EQ(paths[1]->GetLocal(), Ipv4Address("10.2.1.2"), "the cellular");
        NS_TEST_EXPECT_MSG_EQ(paths[2]->GetLocal(), Ipv4Address("10.1.1.7"), "the new LAN's");
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_GT(paths[i]->GetStats().bytesSent, bytes / 10, "each carried data");
        }
        NS_TEST_EXPECT_MSG_EQ(paths[1]->GetStatus(), RudpCmtPath::ACTIVE, "active");
        NS_TEST_EXPECT_MSG_EQ(paths[2]->GetStatus(), RudpCmtPath::ACTIVE, "active");
    }

    void DoTeardown() override
    {
        Config::SetDefault("ns3::RudpCmtSocket::PathManager", StringValue("ns3::RudpSctpPaths"));
    }
};

/**
 * \ingroup rudp-test
 * The second finding: a client with three interfaces and a server
 * with three addresses, a direct point-to-point link (10.1.1.0/24), a CSMA
 * LAN (10.2.1.0/24) and a routed path through a router (10.3.1.0/24,
 * 10.4.1.0/24), under ns-3's global routing. With SCTP's paths (a path per
 * server address, the routing picking the interface) the routed path's
 * link carries no data; with the full mesh (MaxPaths 9: every pair with a
 * route) each of the client's three links carries a share.
 */
class RudpThreeLinksTestCase : public TestCase
{
  public:
    /// \param manager the client's PathManager
    explicit RudpThreeLinksTestCase(const std::string& manager)
        : TestCase("three interfaces to three server addresses under global routing, " + manager),
          m_manager(manager)
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(3); // client, server, router
        Ptr<Node> client = nodes.Get(0);
        Ptr<Node> server = nodes.Get(1);
        Ptr<Node> router = nodes.Get(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("5ms"));
        NetDeviceContainer direct = p2p.Install(client, server);
        NetDeviceContainer toRouter = p2p.Install(client, router);
        NetDeviceContainer fromRouter = p2p.Install(router, server);
        CsmaHelper csma;
        csma.SetChannelAttribute("DataRate", StringValue("10Mbps"));
        csma.SetChannelAttribute("Delay", StringValue("5ms"));
        NetDeviceContainer lan = csma.Install(NodeContainer(client, server));
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper address;
        address.SetBase("10.1.1.0", "255.255.255.0");
        address.Assign(direct);
        address.SetBase("10.2.1.0", "255.255.255.0");
        address.Assign(lan);
        address.SetBase("10.3.1.0", "255.255.255.0");
        address.Assign(toRouter);
        address.SetBase("10.4.1.0", "255.255.255.0");
        address.Assign(fromRouter);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        RudpStackHelper().Install(NodeContainer(client, server));
        Config::SetDefault("ns3::RudpCmtSocket::PathManager", StringValue(m_manager));
        Config::SetDefault("ns3::RudpFullMesh::MaxPaths", UintegerValue(9));

        const uint64_t bytes = 6000000;
        PacketSinkHelper sinkHelper("ns3::RudpCmtSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), PORT));
        Ptr<PacketSink> sink = DynamicCast<PacketSink>(sinkHelper.Install(server).Get(0));
        BulkSendHelper bulk("ns3::RudpCmtSocketFactory",
                            InetSocketAddress(Ipv4Address("10.1.1.2"), PORT));
        bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
        bulk.Install(client).Start(Seconds(1));
        std::vector<uint64_t> sent(3, 0); // the client's direct, LAN and routed links
        const NetDeviceContainer links[] = {direct, lan, toRouter};
        for (uint32_t i = 0; i < 3; ++i)
        {
            links[i].Get(0)->TraceConnectWithoutContext("MacTx",
                                                        MakeBoundCallback(&CountBytes, &sent[i]));
        }
        DatagramsByEnds out; // the client's datagrams, by their ends
        DatagramsByEnds in;  // the server's that reached it
        Ptr<Ipv4L3Protocol> ipv4 = client->GetObject<Ipv4L3Protocol>();
        ipv4->TraceConnectWithoutContext("SendOutgoing", MakeBoundCallback(&CountEnds, &out));
        ipv4->TraceConnectWithoutContext("LocalDeliver", MakeBoundCallback(&CountEnds, &in));
        Simulator::Stop(Seconds(60));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(sink->GetTotalRx(), bytes, "the whole file arrived");
        NS_LOG_UNCOND("three links, " << m_manager << ": the client sent " << sent[0]
                                      << " bytes on the direct link, " << sent[1] << " on the LAN, "
                                      << sent[2] << " on the routed path");
        // The server, multi-homed, answers each pair of addresses the data
        // went between from the address the data went to: the client tells
        // its paths' SACKs apart by their addresses. Its routing alone would
        // answer a path to its LAN address from the client's routed
        // interface by the router, from its address there.
        for (const auto& [ends, datagrams] : out)
        {
            if (datagrams >= 100)
            {
                const auto answers = in.find({ends.second, ends.first});
                NS_TEST_EXPECT_MSG_EQ((answers != in.end() && answers->second > 0),
                                      true,
                                      datagrams << " datagrams from " << ends.first << " to "
                                                << ends.second << ", answered from there");
            }
        }
        if (m_manager == "ns3::RudpSctpPaths")
        {
            // The finding, SCTP's documented behaviour: the routing decides.
            NS_TEST_EXPECT_MSG_LT(sent[2], bytes / 100, "nothing on the routed path");
            return;
        }
        const char* names[] = {"the direct link", "the LAN", "the routed path"};
        for (uint32_t i = 0; i < 3; ++i)
        {
            // The LAN's share is the smallest, 4 to 6 % by the ns-3 release
            // (its half-duplex channel carries its paths' SACKs too; not
            // analysed further): "a share" is more than 2 %.
            NS_TEST_EXPECT_MSG_GT(sent[i], bytes / 50, names[i] << " carries a share");
        }
    }

    void DoTeardown() override
    {
        Simulator::Destroy();
        Config::SetDefault("ns3::RudpCmtSocket::PathManager", StringValue("ns3::RudpSctpPaths"));
        Config::SetDefault("ns3::RudpFullMesh::MaxPaths", UintegerValue(8));
    }

    std::string m_manager; ///< the client's PathManager
};

/**
 * \ingroup rudp-test
 * The path managers' suite.
 */
class RudpCmtPathManagerTestSuite : public TestSuite
{
  public:
    RudpCmtPathManagerTestSuite()
        : TestSuite("rudp-cmt-path-manager")
    {
        AddTestCase(new RudpPathManagerAnswersTestCase);
        AddTestCase(new RudpPathRoutingTestCase);
        AddTestCase(new RudpPhoneTransferTestCase("ns3::RudpSctpPaths"));
        AddTestCase(new RudpPhoneTransferTestCase("ns3::RudpFullMesh"));
        AddTestCase(new RudpInterfaceDownUpTestCase);
        AddTestCase(new RudpBackupPathTestCase);
        AddTestCase(new RudpThreeLinksTestCase("ns3::RudpSctpPaths"));
        AddTestCase(new RudpThreeLinksTestCase("ns3::RudpFullMesh"));
        AddTestCase(new RudpAddressChangeCodecTestCase);
        AddTestCase(new RudpAddressChangeTestCase);
    }
};

/// The suite's instance.
static RudpCmtPathManagerTestSuite g_rudpCmtPathManagerTestSuite;
