/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-test-network.h"

#include "ns3/test.h"

#include <map>

/**
 * \file
 * \ingroup rudp-test
 * RudpUdpDemux and RudpEndpoint: a node's RUDP datagrams reach their
 * connection without UDP's scan of the node's sockets. Connections sharing a
 * listener's socket, one closing while the others go on, a port bound again
 * after its connection closed (and refused while it is held, as UDP refuses
 * it), datagrams for no connection dropped without an answer, and UDP's own
 * sockets on the same node still served.
 */

using namespace ns3;
using namespace ns3::rudptest;

namespace
{

const uint16_t PORT = 4000;

/// \return the RUDP demux in front of \p node's UDP, or null
Ptr<RudpUdpDemux>
DemuxOf(Ptr<Node> node)
{
    return DynamicCast<RudpUdpDemux>(
        node->GetObject<Ipv4>()->GetProtocol(UdpL4Protocol::PROT_NUMBER));
}

/// A listener that accepts every connection and reads it, bytes counted by peer.
class Listener
{
  public:
    /// \param node the server \param port the port to listen on
    Listener(Ptr<Node> node, uint16_t port)
        : m_socket(TestNetwork::CreateSocket(node))
    {
        m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        m_socket->Listen();
        m_socket->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&Listener::Accept, this));
    }

    /// \return the bytes read from the connection of \p peer's port
    uint64_t BytesFrom(uint16_t port) const
    {
        auto found = m_bytes.find(port);
        return found == m_bytes.end() ? 0 : found->second;
    }

    /// \return the connections accepted
    size_t Accepted() const
    {
        return m_accepted;
    }

  private:
    void Accept(Ptr<Socket> socket, const Address& /* from */)
    {
        ++m_accepted;
        socket->SetRecvCallback(MakeCallback(&Listener::Read, this));
        socket->SetCloseCallbacks(MakeCallback(&Listener::Closed, this),
                                  MakeNullCallback<void, Ptr<Socket>>());
    }

    void Read(Ptr<Socket> socket)
    {
        Address from;
        while (Ptr<Packet> p = socket->RecvFrom(from))
        {
            m_bytes[InetSocketAddress::ConvertFrom(from).GetPort()] += p->GetSize();
        }
    }

    void Closed(Ptr<Socket> socket)
    {
        socket->Close();
    }

    Ptr<RudpSocket> m_socket;
    std::map<uint16_t, uint64_t> m_bytes;
    size_t m_accepted{0};
};

/// A client connection that sends its bytes and closes.
struct Client
{
    Ptr<RudpSocket> socket;
    uint32_t bytes;
    uint16_t port{0}; ///< its local port, once connected

    /// Connects to \p server, queues the bytes and closes.
    void Start(Address server)
    {
        socket->Connect(server);
        Address local;
        socket->GetSockName(local);
        port = InetSocketAddress::ConvertFrom(local).GetPort();
        socket->Send(Create<Packet>(bytes));
        socket->Close();
    }
};

/// Notes \p demux's endpoint count in \p count.
void
NoteEndpoints(Ptr<RudpUdpDemux> demux, size_t* count)
{
    *count = demux->GetNEndpoints();
}

} // namespace

/**
 * \ingroup rudp-test
 * Five connections from one host share the listener's UDP socket on the
 * server; every datagram of theirs, on both hosts, reaches its connection
 * through the demux, none through UDP's scan.
 */
class RudpDemuxSharedSocketTestCase : public TestCase
{
  public:
    RudpDemuxSharedSocketTestCase()
        : TestCase("Connections sharing a listener's socket, each datagram found by the demux")
    {
    }

  private:
    void DoRun() override
    {
        TestNetwork network;
        Listener listener(network.Server(), PORT);
        std::vector<Client> clients;
        clients.reserve(5); // scheduled by address
        for (uint32_t i = 0; i < 5; ++i)
        {
            clients.push_back({TestNetwork::CreateSocket(network.Client()), 3000 * (i + 1)});
            clients.back().socket->Bind();
            Simulator::Schedule(MilliSeconds(100 + i),
                                &Client::Start,
                                &clients.back(),
                                network.ServerAddress(PORT));
        }
        size_t serverEndpoints = 0;
        size_t clientEndpoints = 0;
        Ptr<RudpUdpDemux> serverDemux = DemuxOf(network.Server());
        NS_TEST_ASSERT_MSG_NE(serverDemux, nullptr, "the listener put a demux before UDP");
        Ptr<RudpUdpDemux> clientDemux = DemuxOf(network.Client());
        NS_TEST_ASSERT_MSG_NE(clientDemux, nullptr, "the clients put a demux before UDP");
        Simulator::Schedule(MilliSeconds(150), &NoteEndpoints, serverDemux, &serverEndpoints);
        Simulator::Schedule(MilliSeconds(150), &NoteEndpoints, clientDemux, &clientEndpoints);
        Simulator::Stop(Seconds(60));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(serverEndpoints, 1, "the connections share the listener's socket");
        NS_TEST_EXPECT_MSG_EQ(clientEndpoints, 5, "each client connection has a port");
        NS_TEST_EXPECT_MSG_EQ(listener.Accepted(), 5, "every connection accepted");
        for (const Client& client : clients)
        {
            NS_TEST_EXPECT_MSG_EQ(listener.BytesFrom(client.port),
                                  client.bytes,
                                  "each connection's bytes to its own reader");
            NS_TEST_EXPECT_MSG_EQ(client.socket->GetState(), RudpSocket::CLOSED, "closed");
        }
        NS_TEST_EXPECT_MSG_GT(serverDemux->GetDelivered(), 5 * 3, "the server's datagrams");
        NS_TEST_EXPECT_MSG_GT(clientDemux->GetDelivered(), 5 * 3, "the clients' datagrams");
        NS_TEST_EXPECT_MSG_EQ(serverDemux->GetPassed(), 0, "none left to UDP's scan");
        NS_TEST_EXPECT_MSG_EQ(clientDemux->GetPassed(), 0, "none left to UDP's scan");
        NS_TEST_EXPECT_MSG_EQ(clientDemux->GetNEndpoints(), 0, "closed connections left it");
        Simulator::Destroy();
    }
};

/**
 * \ingroup rudp-test
 * A connection that closes leaves the demux while another one of the same
 * host and listener goes on to deliver every byte.
 */
class RudpDemuxOneClosesTestCase : public TestCase
{
  public:
    RudpDemuxOneClosesTestCase()
        : TestCase("One connection closes while another goes on")
    {
    }

  private:
    void DoRun() override
    {
        TestNetwork network;
        Listener listener(network.Server(), PORT);
        Client shortOne{TestNetwork::CreateSocket(network.Client()), 2000};
        Client longOne{TestNetwork::CreateSocket(network.Client()), 2000000};
        longOne.socket->SetAttribute("SndBufSize", UintegerValue(1 << 22)); // all of it queued
        m_short = &shortOne;
        m_long = &longOne;
        m_client = network.Client();
        Simulator::Schedule(MilliSeconds(100),
                            &Client::Start,
                            &shortOne,
                            network.ServerAddress(PORT));
        Simulator::Schedule(MilliSeconds(100),
                            &Client::Start,
                            &longOne,
                            network.ServerAddress(PORT));
        Simulator::Schedule(Seconds(1), &RudpDemuxOneClosesTestCase::Note, this);
        Simulator::Stop(Seconds(100));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(m_shortState, RudpSocket::CLOSED, "the short one had closed at 1 s");
        NS_TEST_EXPECT_MSG_EQ(m_longState, RudpSocket::ESTABLISHED, "the long one still ran");
        NS_TEST_EXPECT_MSG_EQ(m_endpoints, 1, "only the long one was in the demux");
        NS_TEST_EXPECT_MSG_EQ(listener.BytesFrom(shortOne.port), 2000, "short one delivered");
        NS_TEST_EXPECT_MSG_EQ(listener.BytesFrom(longOne.port), 2000000, "long one delivered");
        NS_TEST_EXPECT_MSG_EQ(longOne.socket->GetState(), RudpSocket::CLOSED, "and closed");
        Simulator::Destroy();
    }

    /// Notes both connections' states and the client's demux's endpoints.
    void Note()
    {
        m_shortState = m_short->socket->GetState();
        m_longState = m_long->socket->GetState();
        m_endpoints = DemuxOf(m_client)->GetNEndpoints();
    }

    Client* m_short{nullptr};
    Client* m_long{nullptr};
    Ptr<Node> m_client;
    RudpSocket::State m_shortState{RudpSocket::LISTEN};
    RudpSocket::State m_longState{RudpSocket::LISTEN};
    size_t m_endpoints{0};
};

/**
 * \ingroup rudp-test
 * A port is UDP's to hand out: bound by a connection, another RUDP socket
 * or a UDP socket gets ERROR_ADDRINUSE; once the connection closed, a new
 * connection binds it and works.
 */
class RudpDemuxPortReuseTestCase : public TestCase
{
  public:
    RudpDemuxPortReuseTestCase()
        : TestCase("A port refused while held, bound again after its connection closed")
    {
    }

  private:
    void DoRun() override
    {
        TestNetwork network;
        Listener listener(network.Server(), PORT);
        const uint16_t port = 5000;
        const InetSocketAddress local(Ipv4Address::GetAny(), port);
        Client first{TestNetwork::CreateSocket(network.Client()), 5000};
        NS_TEST_ASSERT_MSG_EQ(first.socket->Bind(local), 0, "the port is free");
        Ptr<RudpSocket> rival = TestNetwork::CreateSocket(network.Client());
        NS_TEST_EXPECT_MSG_EQ(rival->Bind(local), -1, "a second RUDP socket is refused");
        NS_TEST_EXPECT_MSG_EQ(rival->GetErrno(), Socket::ERROR_ADDRINUSE, "as UDP refuses it");
        Ptr<Socket> udp = Socket::CreateSocket(network.Client(), UdpSocketFactory::GetTypeId());
        NS_TEST_EXPECT_MSG_EQ(udp->Bind(local), -1, "so is a UDP socket");
        NS_TEST_EXPECT_MSG_EQ(udp->GetErrno(), Socket::ERROR_ADDRINUSE, "with UDP's error");
        Simulator::Schedule(MilliSeconds(100), &Client::Start, &first, network.ServerAddress(PORT));

        Client second{TestNetwork::CreateSocket(network.Client()), 7000};
        int rebound = 1;
        Simulator::Schedule(Seconds(5),
                            &RudpDemuxPortReuseTestCase::BindAndStart,
                            &second,
                            Address(local),
                            network.ServerAddress(PORT),
                            &rebound);
        Simulator::Stop(Seconds(60));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(first.socket->GetState(), RudpSocket::CLOSED, "the first closed");
        NS_TEST_EXPECT_MSG_EQ(rebound, 0, "its port bound again");
        NS_TEST_EXPECT_MSG_EQ(second.port, port, "by the second connection");
        NS_TEST_EXPECT_MSG_EQ(listener.Accepted(), 2, "both accepted");
        // Both came from the same address and port: the reader adds them up.
        NS_TEST_EXPECT_MSG_EQ(listener.BytesFrom(port), 5000 + 7000, "both delivered");
        NS_TEST_EXPECT_MSG_EQ(second.socket->GetState(), RudpSocket::CLOSED, "the second closed");
        NS_TEST_EXPECT_MSG_EQ(DemuxOf(network.Client())->GetPassed(), 0, "all through the demux");
        Simulator::Destroy();
    }

    /// Binds \p client to \p local (the result in \p bound) and starts it.
    static void BindAndStart(Client* client, Address local, Address server, int* bound)
    {
        *bound = client->socket->Bind(local);
        client->Start(server);
    }
};

/**
 * \ingroup rudp-test
 * A datagram to a connection's port from an address and port it is not
 * connected to (and no listener there) is dropped by the endpoint: no
 * answer, nothing counted by the connection. Garbage, a zero-filled
 * datagram and a forged SYN|ACK to a listener's port from a UDP socket fork
 * no connection. A datagram to a port no RUDP socket holds goes to UDP, and
 * a UDP socket of the same node still gets its datagrams.
 */
class RudpDemuxStrangerTestCase : public TestCase
{
  public:
    RudpDemuxStrangerTestCase()
        : TestCase("Datagrams for no connection dropped; UDP's own sockets still served")
    {
    }

  private:
    void DoRun() override
    {
        TestNetwork network;
        SegmentLog log;
        log.Watch(network.Client(), "C");
        Listener listener(network.Server(), PORT);
        Ptr<RudpSocket> client = TestNetwork::CreateSocket(network.Client());
        client->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5000));
        client->Connect(network.ServerAddress(PORT));

        // A UDP application on the client node, and a stranger on the server.
        uint32_t udpReceived = 0;
        Ptr<Socket> udpApp = Socket::CreateSocket(network.Client(), UdpSocketFactory::GetTypeId());
        udpApp->Bind(InetSocketAddress(Ipv4Address::GetAny(), 6000));
        udpApp->SetRecvCallback(MakeBoundCallback(
            +[](uint32_t* n, Ptr<Socket> socket) {
                while (socket->Recv())
                {
                    ++*n;
                }
            },
            &udpReceived));
        Ptr<Socket> stranger =
            Socket::CreateSocket(network.Server(), UdpSocketFactory::GetTypeId());
        stranger->Bind(InetSocketAddress(Ipv4Address::GetAny(), 7777));
        const Ipv4Address clientAddress =
            network.Client()->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();

        // A well-formed RUDP SYN|ACK: only the peer the connection knows may answer.
        RudpHeader synAck;
        synAck.SetFlags(RudpHeader::SYN | RudpHeader::ACK);
        synAck.SetWindow(1000);
        const Ptr<Packet> forged =
            RudpSegmentCodec::Encode(synAck, Create<Packet>(), RudpHeader::CHECKSUM_INTERNET16);

        m_log = &log;
        m_client = client;
        m_demux = DemuxOf(network.Client());
        m_stranger = stranger;
        m_clientAddress = clientAddress;
        m_forged = forged;
        // A UDP socket on the client node, not a connection, to the listener's port.
        m_intruder = Socket::CreateSocket(network.Client(), UdpSocketFactory::GetTypeId());
        m_intruder->Bind();
        m_server = network.ServerAddress(PORT);
        m_serverDemux = DemuxOf(network.Server());
        Simulator::Schedule(Seconds(1), &RudpDemuxStrangerTestCase::Inject, this);
        Simulator::Schedule(Seconds(2), &RudpDemuxStrangerTestCase::NoteAfter, this);
        Simulator::Schedule(Seconds(2.1), &RudpDemuxStrangerTestCase::Intrude, this);
        Simulator::Stop(Seconds(3));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(client->GetState(), RudpSocket::ESTABLISHED, "undisturbed");
        NS_TEST_EXPECT_MSG_EQ(m_sentAfter, m_sentBefore, "no answer to a stranger");
        NS_TEST_EXPECT_MSG_EQ(m_receivedAfter, m_receivedBefore, "the connection saw nothing");
        NS_TEST_EXPECT_MSG_EQ(m_deliveredAfter,
                              m_deliveredBefore + 1,
                              "the stranger's datagram reached the endpoint, which dropped it");
        NS_TEST_EXPECT_MSG_EQ(m_passedAfter,
                              m_passedBefore + 2,
                              "the datagrams to other ports went to UDP");
        NS_TEST_EXPECT_MSG_EQ(udpReceived, 1, "and the UDP application got its own");
        NS_TEST_EXPECT_MSG_EQ(client->GetState(), RudpSocket::ESTABLISHED, "still undisturbed");
        NS_TEST_EXPECT_MSG_EQ(listener.Accepted(), 1, "the listener forked no connection");
        NS_TEST_EXPECT_MSG_EQ(DemuxOf(network.Server())->GetDelivered(),
                              m_serverDeliveredBefore + 3,
                              "the intruder's datagrams reached the listener, which dropped them");
        m_client = nullptr;
        m_intruder = nullptr;
        m_serverDemux = nullptr;
        m_demux = nullptr;
        m_stranger = nullptr;
        m_forged = nullptr;
        Simulator::Destroy();
    }

    /// Notes the counts, then sends the stranger's datagrams.
    void Inject()
    {
        m_sentBefore = m_log->Segments().size();
        m_receivedBefore = m_client->GetStats().segmentsReceived;
        m_deliveredBefore = m_demux->GetDelivered();
        m_passedBefore = m_demux->GetPassed();
        m_stranger->SendTo(m_forged->Copy(), 0, InetSocketAddress(m_clientAddress, 5000));
        m_stranger->SendTo(Create<Packet>(100), 0, InetSocketAddress(m_clientAddress, 5001));
        m_stranger->SendTo(Create<Packet>(100), 0, InetSocketAddress(m_clientAddress, 6000));
    }

    /// Notes the counts once the datagrams arrived.
    void NoteAfter()
    {
        m_sentAfter = m_log->Segments().size();
        m_receivedAfter = m_client->GetStats().segmentsReceived;
        m_deliveredAfter = m_demux->GetDelivered();
        m_passedAfter = m_demux->GetPassed();
    }

    /// Sends the intruder's datagrams to the listener.
    void Intrude()
    {
        m_serverDeliveredBefore = m_serverDemux->GetDelivered();
        const uint8_t garbage[3] = {0xff, 0x00, 0x7e};
        m_intruder->SendTo(Create<Packet>(garbage, sizeof(garbage)), 0, m_server);
        m_intruder->SendTo(Create<Packet>(1000), 0, m_server);
        m_intruder->SendTo(m_forged->Copy(), 0, m_server);
    }

    SegmentLog* m_log{nullptr};
    Ptr<RudpSocket> m_client;
    Ptr<RudpUdpDemux> m_demux;
    Ptr<Socket> m_stranger;
    Ipv4Address m_clientAddress;
    Ptr<Packet> m_forged;
    Ptr<Socket> m_intruder; ///< a UDP socket of the client node
    Address m_server;       ///< the listener's address and port
    Ptr<RudpUdpDemux> m_serverDemux;
    uint64_t m_serverDeliveredBefore{0};
    size_t m_sentBefore{0};
    size_t m_sentAfter{0};
    uint64_t m_receivedBefore{0};
    uint64_t m_receivedAfter{0};
    uint64_t m_deliveredBefore{0};
    uint64_t m_passedBefore{0};
    uint64_t m_deliveredAfter{0};
    uint64_t m_passedAfter{0};
};

/**
 * \ingroup rudp-test
 * The demux's suite.
 */
class RudpUdpDemuxTestSuite : public TestSuite
{
  public:
    RudpUdpDemuxTestSuite()
        : TestSuite("rudp-udp-demux")
    {
        AddTestCase(new RudpDemuxSharedSocketTestCase);
        AddTestCase(new RudpDemuxOneClosesTestCase);
        AddTestCase(new RudpDemuxPortReuseTestCase);
        AddTestCase(new RudpDemuxStrangerTestCase);
    }
};

/// The suite's instance.
static RudpUdpDemuxTestSuite g_rudpUdpDemuxTestSuite;
