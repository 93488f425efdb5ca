/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-test-network.h"

#include "ns3/test.h"

#include <algorithm>

/**
 * \file
 * \ingroup rudp-test
 * Connection management: seed 000's three-way handshake and four-way close,
 * packet by packet, with each step's loss, and failure after the retry limit.
 * Integrity: multi-bit corruption and the checksum kinds, hostile datagrams
 * (short, far ahead, data beyond the FIN), a receive buffer smaller than a
 * segment, zero-window persist, reordered ACKs and window updates.
 */

using namespace ns3;
using namespace ns3::rudptest;

namespace
{

const uint16_t PORT = 2222;

/// Collects the reasons of a socket's Failure trace.
struct FailureRecorder
{
    std::vector<std::string> reasons;

    void Record(const std::string& reason)
    {
        reasons.push_back(reason);
    }
};

/// One client connection: connect, send some bytes, close.
struct Exchange
{
    TestNetwork network{MilliSeconds(10)};
    SegmentLog log;
    AcceptingServer server{network.Server(), PORT};
    Ptr<RudpSocket> client = TestNetwork::CreateSocket(network.Client());
    bool connected{false};
    bool connectFailed{false};
    bool errorClosed{false};
    std::vector<std::string> failures;
    std::vector<std::pair<Time, RudpSocket::State>> clientStates;

    Exchange()
    {
        log.Watch(network.Client(), "C");
        log.Watch(network.Server(), "S");
        client->SetAttribute("InitialRto", TimeValue(Seconds(1)));
        client->SetConnectCallback(MakeCallback(&Exchange::Connected, this),
                                   MakeCallback(&Exchange::ConnectFailed, this));
        client->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                  MakeCallback(&Exchange::ErrorClosed, this));
        client->TraceConnectWithoutContext("Failure", MakeCallback(&Exchange::Failed, this));
        client->TraceConnectWithoutContext("State", MakeCallback(&Exchange::StateChanged, this));
    }

    ~Exchange()
    {
        Simulator::Destroy();
    }

    /// Connects at 1 s, queues \p bytes, closes when they are acknowledged.
    void Run(uint32_t bytes, bool close = true)
    {
        Simulator::Schedule(Seconds(1), &Exchange::Start, this, bytes, close);
        Simulator::Stop(Seconds(600));
        Simulator::Run();
    }

    /// Connects, queues \p bytes and, if \p close, closes.
    void Start(uint32_t bytes, bool close)
    {
        client->Connect(network.ServerAddress(PORT));
        if (bytes > 0)
        {
            client->Send(Create<Packet>(bytes));
        }
        if (close)
        {
            client->Close();
        }
    }

    /// \return the index of the first segment matching \p summary, from \p from
    size_t Find(const std::string& summary, size_t from = 0) const
    {
        auto lines = log.Summary();
        for (size_t i = from; i < lines.size(); ++i)
        {
            if (lines[i] == summary)
            {
                return i;
            }
        }
        return lines.size();
    }

    size_t Count(const std::string& summary) const
    {
        auto lines = log.Summary();
        return std::count(lines.begin(), lines.end(), summary);
    }

    void Connected(Ptr<Socket>)
    {
        connected = true;
    }

    void ConnectFailed(Ptr<Socket>)
    {
        connectFailed = true;
    }

    void ErrorClosed(Ptr<Socket>)
    {
        errorClosed = true;
    }

    void Failed(const std::string& reason)
    {
        failures.push_back(reason);
    }

    void StateChanged(RudpSocket::State, RudpSocket::State state)
    {
        clientStates.emplace_back(Simulator::Now(), state);
    }
};

/// Gives \p x's server connection 3 data retries and records its failures in \p server.
void
WatchServerFailures(Exchange* x, FailureRecorder* server)
{
    x->server.Connection()->SetAttribute("DataRetries", UintegerValue(3));
    x->server.Connection()->TraceConnectWithoutContext(
        "Failure",
        MakeCallback(&FailureRecorder::Record, server));
}

/// \return byte \p i of the test stream (not periodic at any short distance)
uint8_t
PatternByte(uint64_t i)
{
    return static_cast<uint8_t>(((i * 2654435761u) >> 11) ^ (i >> 8));
}

/// Sends \p total bytes of the test stream on a client socket, then closes.
struct PatternSender
{
    Ptr<RudpSocket> socket;
    uint64_t total{0};
    uint64_t queued{0};
    bool closed{false};

    void Start(InetSocketAddress to)
    {
        socket->SetSendCallback(MakeCallback(&PatternSender::Fill, this));
        socket->Connect(to);
        Fill(socket, 0);
    }

    void Fill(Ptr<Socket>, uint32_t)
    {
        while (queued < total)
        {
            const uint64_t room = socket->GetTxAvailable();
            const uint32_t n =
                static_cast<uint32_t>(std::min<uint64_t>({room, total - queued, 4096}));
            if (n == 0)
            {
                return; // NotifySend calls again
            }
            std::vector<uint8_t> bytes(n);
            for (uint32_t k = 0; k < n; ++k)
            {
                bytes[k] = PatternByte(queued + k);
            }
            if (socket->Send(Create<Packet>(bytes.data(), n)) < 0)
            {
                return;
            }
            queued += n;
        }
        if (!closed)
        {
            closed = true;
            socket->Close();
        }
    }
};

/// A listener that accepts one connection, checks every byte against the test stream.
struct PatternReceiver
{
    Ptr<RudpSocket> listener;
    Ptr<RudpSocket> connection;
    uint64_t received{0};
    uint64_t mismatches{0};
    bool paused{false};
    bool peerClosed{false};
    uint32_t listenerChecksumErrors{0};

    explicit PatternReceiver(Ptr<Node> node)
        : listener(TestNetwork::CreateSocket(node))
    {
        listener->TraceConnectWithoutContext(
            "ChecksumError",
            MakeCallback(&PatternReceiver::ListenerChecksumError, this));
    }

    void Listen(uint16_t port)
    {
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&PatternReceiver::Accept, this));
    }

    void Accept(Ptr<Socket> socket, const Address&)
    {
        connection = DynamicCast<RudpSocket>(socket);
        socket->SetRecvCallback(MakeCallback(&PatternReceiver::Read, this));
        socket->SetCloseCallbacks(MakeCallback(&PatternReceiver::Closed, this),
                                  MakeNullCallback<void, Ptr<Socket>>());
    }

    void Read(Ptr<Socket> socket)
    {
        if (paused)
        {
            return;
        }
        while (Ptr<Packet> p = socket->Recv())
        {
            std::vector<uint8_t> bytes(p->GetSize());
            p->CopyData(bytes.data(), bytes.size());
            for (uint8_t b : bytes)
            {
                mismatches += b != PatternByte(received++);
            }
        }
    }

    void Resume()
    {
        paused = false;
        if (connection)
        {
            Read(connection);
        }
    }

    void Closed(Ptr<Socket> socket)
    {
        peerClosed = true;
        socket->Close();
    }

    void ListenerChecksumError(Ptr<const Packet>)
    {
        ++listenerChecksumErrors;
    }
};

/// A pattern transfer between the two nodes of a TestNetwork.
struct PatternTransfer
{
    TestNetwork network{MilliSeconds(10)};
    SegmentLog log;
    PatternReceiver server{network.Server()};
    PatternSender sender;
    std::vector<std::string> failures;
    uint32_t largestDataSegment{0};

    explicit PatternTransfer(uint64_t bytes)
    {
        log.Watch(network.Client(), "C");
        log.Watch(network.Server(), "S");
        sender.socket = TestNetwork::CreateSocket(network.Client());
        sender.total = bytes;
        sender.socket->TraceConnectWithoutContext("Failure",
                                                  MakeCallback(&PatternTransfer::Failed, this));
        sender.socket->TraceConnectWithoutContext("Tx", MakeCallback(&PatternTransfer::Sent, this));
    }

    ~PatternTransfer()
    {
        Simulator::Destroy();
    }

    Ptr<RudpSocket> Client() const
    {
        return sender.socket;
    }

    /// Listens, connects at 1 s, runs until \p stop.
    void Run(Time stop = Seconds(600))
    {
        server.Listen(PORT);
        Simulator::Schedule(Seconds(1),
                            &PatternSender::Start,
                            &sender,
                            network.ServerAddress(PORT));
        Simulator::Stop(stop);
        Simulator::Run();
    }

    /// \return true if every byte arrived, in order and unchanged, and both ends closed
    bool Delivered() const
    {
        return server.received == sender.total && server.mismatches == 0 && server.peerClosed &&
               Client()->GetState() == RudpSocket::CLOSED && failures.empty();
    }

    void Failed(const std::string& reason)
    {
        failures.push_back(reason);
    }

    void Sent(Ptr<const Packet> payload, const RudpHeader&, Ptr<const RudpSocket>)
    {
        largestDataSegment = std::max(largestDataSegment, payload->GetSize());
    }
};

/**
 * Flips, in the RUDP payload of every \p period-th data packet received, two
 * bits of one 16-bit column in opposite directions: an error the Internet
 * checksum cannot see.
 */
class CancellingFlipErrorModel : public ErrorModel
{
  public:
    explicit CancellingFlipErrorModel(uint32_t period)
        : m_period(period)
    {
    }

    uint32_t Corrupted() const
    {
        return m_corrupted;
    }

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        // SimpleNetDevice frames carry no link header: IPv4 (20) + UDP (8) first.
        const uint32_t rudp = 28;
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        if (bytes.size() < rudp + RudpHeader::FIXED_SIZE_CRC32C + 64)
        {
            return false; // not a data segment
        }
        if (++m_dataPackets % m_period != 0)
        {
            return false;
        }
        const uint32_t header = (bytes[rudp + 8] & RudpHeader::CRC32C)
                                    ? RudpHeader::FIXED_SIZE_CRC32C
                                    : RudpHeader::FIXED_SIZE;
        // Two bytes a word apart in the payload (the header is even-sized, so
        // the columns are the segment's): the first bit on which they differ.
        const uint32_t first = rudp + header + 2 * (m_corrupted % 16);
        for (uint32_t bit = 0; bit < 8; ++bit)
        {
            const uint8_t mask = 0x80 >> bit;
            if ((bytes[first] & mask) != (bytes[first + 2] & mask))
            {
                RudpCorruptionErrorModel::FlipBits(p, {first * 8 + bit, (first + 2) * 8 + bit});
                ++m_corrupted;
                return false;
            }
        }
        return false;
    }

    void DoReset() override
    {
    }

    uint32_t m_period;
    uint32_t m_dataPackets{0};
    uint32_t m_corrupted{0};
};

/// Injects a hand-made segment into a socket, as if it came from its peer.
struct Injector
{
    Ptr<RudpSocket> socket;
    Address from;
    RudpHeader::ChecksumKind kind{RudpHeader::CHECKSUM_INTERNET16};
    uint32_t injected{0};

    void Inject(RudpHeader header, uint32_t payloadBytes)
    {
        std::vector<uint8_t> payload(payloadBytes, 0x5a);
        Ptr<Packet> datagram =
            RudpSegmentCodec::Encode(header, Create<Packet>(payload.data(), payload.size()), kind);
        ++injected;
        socket->ReceiveDatagram(datagram, from, Ipv4Address::GetAny());
    }
};

} // namespace

/// The exchange of seed 000, every sequence and acknowledgment number checked.
class RudpSeedExchangeTest : public TestCase
{
  public:
    RudpSeedExchangeTest()
        : TestCase("handshake, transfer and close follow seed 000 packet by packet")
    {
    }

  private:
    void DoRun() override
    {
        Exchange x;
        x.Run(3000);
        const std::vector<std::string> expected{"C SYN",
                                                "S SYN|ACK",
                                                "C ACK",
                                                "C DATA 1400",
                                                "S ACK",
                                                "C DATA 1400",
                                                "C DATA 200",
                                                "S ACK",
                                                "S ACK",
                                                "C FIN|ACK",
                                                "S ACK",
                                                "S FIN|ACK",
                                                "C ACK"};
        NS_TEST_ASSERT_MSG_EQ(Join(x.log.Summary()), Join(expected), "segment sequence");
        if (x.log.Segments().size() != expected.size())
        {
            return; // the runner continues after a failed assertion
        }

        const auto& s = x.log.Segments();
        const SequenceNumber32 r1 = s[0].header.GetSequenceNumber();
        const SequenceNumber32 r2 = s[1].header.GetSequenceNumber();
        auto check = [&](size_t i, SequenceNumber32 seq, SequenceNumber32 ack) {
            NS_TEST_EXPECT_MSG_EQ(s[i].header.GetSequenceNumber(), seq, "SEQ of segment " << i);
            NS_TEST_EXPECT_MSG_EQ(s[i].header.GetAckNumber(), ack, "ACK of segment " << i);
        };
        check(0, r1, SequenceNumber32(0)); // SEQ=R1, SYN
        check(1, r2, r1 + 1);              // SEQ=R2, ACK=R1+1, SYN|ACK
        check(2, r1 + 1, r2 + 1);          // SEQ=R1+1, ACK=R2+1, ACK
        check(3, r1 + 1, r2 + 1);          // data: SEQ advances by LEN
        check(5, r1 + 1401, r2 + 1);
        check(6, r1 + 2801, r2 + 1);
        const SequenceNumber32 l1 = r1 + 3001; // after the last data byte
        const SequenceNumber32 l2 = r2 + 1;    // the server sent no data
        check(9, l1, l2);                      // SEQ=L1, ACK=L2, FIN|ACK
        check(10, l2, l1 + 1);                 // SEQ=L2, ACK=L1+1, ACK
        check(11, l2, l1 + 1);                 // SEQ=L2, ACK=L1+1, FIN|ACK
        check(12, l1 + 1, l2 + 1);             // SEQ=L1+1, ACK=L2+1, ACK
        NS_TEST_EXPECT_MSG_EQ(s[3].header.HasFlags(RudpHeader::ACK),
                              false,
                              "the seed's data segments carry no ACK flag");

        NS_TEST_ASSERT_MSG_EQ(x.server.BytesRead(), 3000, "bytes delivered");
        NS_TEST_ASSERT_MSG_EQ(x.client->GetState(), RudpSocket::CLOSED, "client closed");
        NS_TEST_ASSERT_MSG_EQ(x.server.Connection()->GetState(),
                              RudpSocket::CLOSED,
                              "server closed");
        // TIME_WAIT: 2 RTT (RTT = 20 ms here) after the last ACK.
        const auto& states = x.clientStates;
        if (states.size() < 2)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(states.back().second, RudpSocket::CLOSED, "ends CLOSED");
        const auto& timeWait = states[states.size() - 2];
        NS_TEST_ASSERT_MSG_EQ(timeWait.second, RudpSocket::TIME_WAIT, "via TIME_WAIT");
        NS_TEST_EXPECT_MSG_EQ_TOL((states.back().first - timeWait.first).GetSeconds(),
                                  0.040,
                                  0.002,
                                  "TIME_WAIT lasts 2 RTT");
        NS_TEST_EXPECT_MSG_EQ(x.failures.empty(), true, "no failure");
    }
};

/// A lost step of the handshake or close is retransmitted when its timer expires.
class RudpLostStepTest : public TestCase
{
  public:
    /**
     * \param name what is lost
     * \param atServer drop at the server's device (else the client's)
     * \param index index of the packet that device receives
     * \param bytes bytes the client sends
     * \param expected the segment sequence
     */
    RudpLostStepTest(std::string name,
                     bool atServer,
                     uint32_t index,
                     uint32_t bytes,
                     std::vector<std::string> expected)
        : TestCase("lost " + name + " is recovered by retransmission"),
          m_atServer(atServer),
          m_index(index),
          m_bytes(bytes),
          m_expected(std::move(expected))
    {
    }

  private:
    void DoRun() override
    {
        Exchange x;
        if (m_atServer)
        {
            x.network.DropAtServer({m_index});
        }
        else
        {
            x.network.DropAtClient({m_index});
        }
        x.Run(m_bytes);
        NS_TEST_ASSERT_MSG_EQ(Join(x.log.Summary()), Join(m_expected), "segment sequence");
        NS_TEST_ASSERT_MSG_EQ(x.connected, true, "connected");
        NS_TEST_ASSERT_MSG_EQ(x.server.BytesRead(), m_bytes, "bytes delivered");
        NS_TEST_ASSERT_MSG_EQ(x.client->GetState(), RudpSocket::CLOSED, "client closed");
        NS_TEST_ASSERT_MSG_EQ(x.failures.empty(), true, "no failure");
    }

    bool m_atServer;
    uint32_t m_index;
    uint32_t m_bytes;
    std::vector<std::string> m_expected;
};

/// The handshake's last ACK lost with no data to follow: the SYN|ACK is repeated.
class RudpLostHandshakeAckTest : public TestCase
{
  public:
    RudpLostHandshakeAckTest()
        : TestCase("lost handshake ACK without data: the server repeats SYN-ACK after its RTO")
    {
    }

  private:
    void DoRun() override
    {
        Exchange x;
        x.network.DropAtServer({1});
        x.Run(0, false);
        const std::vector<std::string> expected{"C SYN",
                                                "S SYN|ACK",
                                                "C ACK",
                                                "S SYN|ACK",
                                                "C ACK"};
        NS_TEST_ASSERT_MSG_EQ(Join(x.log.Summary()), Join(expected), "segment sequence");
        if (x.log.Segments().size() != expected.size())
        {
            return; // the runner continues after a failed assertion
        }
        const auto& s = x.log.Segments();
        NS_TEST_EXPECT_MSG_EQ_TOL((s[3].time - s[1].time).GetSeconds(),
                                  2.0,
                                  1e-9,
                                  "the server's SYN|ACK timer (default RTO 2 s)");
        NS_TEST_ASSERT_MSG_EQ(x.server.Connection()->GetState(),
                              RudpSocket::ESTABLISHED,
                              "server established");
    }
};

/// The last ACK of the close is lost.
class RudpLostFinalAckTest : public TestCase
{
  public:
    /// \param timeWaitRtts the client's TIME_WAIT, in RTTs
    explicit RudpLostFinalAckTest(double timeWaitRtts)
        : TestCase(timeWaitRtts > 100 ? "lost final ACK: the client in TIME_WAIT answers the "
                                        "repeated FIN-ACK"
                                      : "lost final ACK after the client's 2 RTT TIME_WAIT: the "
                                        "server gives up after its retries"),
          m_timeWaitRtts(timeWaitRtts)
    {
    }

  private:
    void DoRun() override
    {
        Exchange x;
        x.client->SetAttribute("TimeWait", DoubleValue(m_timeWaitRtts));
        // Server receives: SYN, ACK, DATA, FIN|ACK, ACK (the last one: index 4).
        x.network.DropAtServer({4});
        FailureRecorder server;
        Simulator::Schedule(Seconds(1.5), &WatchServerFailures, &x, &server);
        const auto& serverFailures = server.reasons;
        x.Run(100);
        NS_TEST_ASSERT_MSG_EQ(x.server.BytesRead(), 100, "bytes delivered");
        NS_TEST_ASSERT_MSG_EQ(x.server.Connection()->GetState(),
                              RudpSocket::CLOSED,
                              "server closed in bounded time");
        if (m_timeWaitRtts > 100)
        {
            NS_TEST_ASSERT_MSG_EQ(x.Count("S FIN|ACK"), 2, "FIN|ACK repeated once");
            NS_TEST_ASSERT_MSG_EQ(x.Count("C ACK"), 3, "handshake ACK, final ACK twice");
            NS_TEST_ASSERT_MSG_EQ(serverFailures.empty(), true, "a normal close");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(x.Count("S FIN|ACK"), 4, "FIN|ACK sent 1 + 3 retries");
            NS_TEST_ASSERT_MSG_EQ(serverFailures.size(), 1, "the server reports the failure");
            NS_TEST_ASSERT_MSG_EQ(serverFailures.front(), "close", "in the close");
        }
    }

    double m_timeWaitRtts;
};

/// An unreachable server: the client gives up after ConnectRetries.
class RudpUnreachablePeerTest : public TestCase
{
  public:
    RudpUnreachablePeerTest()
        : TestCase("an unreachable peer ends in a reported connect failure in bounded time")
    {
    }

  private:
    void DoRun() override
    {
        Exchange x;
        Ptr<RateErrorModel> all = CreateObject<RateErrorModel>();
        all->SetAttribute("ErrorRate", DoubleValue(1.0));
        all->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        x.network.SetServerErrorModel(all);
        x.client->SetAttribute("ConnCount", UintegerValue(4));
        x.Run(1000);
        NS_TEST_ASSERT_MSG_EQ(x.Count("C SYN"), 5, "SYN sent 1 + 4 retries");
        NS_TEST_ASSERT_MSG_EQ(x.connectFailed, true, "connect-failed callback");
        NS_TEST_ASSERT_MSG_EQ(x.failures.size(), 1, "Failure trace");
        NS_TEST_ASSERT_MSG_EQ(x.failures.front(), "connect", "in the handshake");
        NS_TEST_ASSERT_MSG_EQ(x.client->GetState(), RudpSocket::CLOSED, "closed");
        // 5 timeouts of 1 s after connecting at 1 s.
        NS_TEST_ASSERT_MSG_EQ_TOL(x.clientStates.back().first.GetSeconds(),
                                  6.0,
                                  1e-9,
                                  "gave up at 1 + 5 x RTO");
    }
};

/// A path that dies during the transfer: the sender gives up after DataRetries.
class RudpDeadPathTest : public TestCase
{
  public:
    RudpDeadPathTest()
        : TestCase("a path that dies mid-transfer ends in a reported data failure")
    {
    }

  private:
    void DoRun() override
    {
        Exchange x;
        x.client->SetAttribute("DataRetries", UintegerValue(3));
        std::list<uint32_t> afterHandshake;
        for (uint32_t i = 3; i < 1000; ++i)
        {
            afterHandshake.push_back(i);
        }
        x.network.DropAtServer(afterHandshake);
        x.Run(100000);
        NS_TEST_ASSERT_MSG_EQ(x.connected, true, "connected first");
        NS_TEST_ASSERT_MSG_EQ(x.errorClosed, true, "error-close callback");
        NS_TEST_ASSERT_MSG_EQ(x.failures.size(), 1, "Failure trace");
        NS_TEST_ASSERT_MSG_EQ(x.failures.front(), "data", "in the transfer");
        NS_TEST_ASSERT_MSG_EQ((x.clientStates.back().first < Seconds(10)),
                              true,
                              "within 1 + 4 x RTO of the start");
    }
};

/// Initial sequence numbers come from ns-3's random variables.
class RudpIsnReproducibleTest : public TestCase
{
  public:
    RudpIsnReproducibleTest()
        : TestCase("initial sequence numbers: same run, same number; another run, another")
    {
    }

  private:
    static uint32_t FirstIsn(uint32_t run)
    {
        RngSeedManager::SetRun(run);
        Exchange x;
        x.network.AssignStreams(7);
        x.Run(10);
        return x.log.Segments().front().header.GetSequenceNumber().GetValue();
    }

    void DoRun() override
    {
        const uint64_t run = RngSeedManager::GetRun();
        const uint32_t a = FirstIsn(1);
        const uint32_t b = FirstIsn(1);
        const uint32_t c = FirstIsn(2);
        RngSeedManager::SetRun(run);
        NS_TEST_ASSERT_MSG_EQ(a, b, "same seed and run");
        NS_TEST_ASSERT_MSG_NE(a, c, "another run");
    }
};

/// Datagrams shorter than a header at a listening socket: counted, dropped, no abort.
class RudpShortDatagramsTest : public TestCase
{
  public:
    RudpShortDatagramsTest()
        : TestCase("datagrams of 0 to 17 bytes at a listener are checksum errors; a connection "
                   "then works")
    {
    }

  private:
    struct RawSender
    {
        Ptr<Socket> udp;
        InetSocketAddress to{Ipv4Address::GetAny(), 0};

        void Send(uint32_t size)
        {
            std::vector<uint8_t> bytes(size, 0xab); // 0x20 set in the flags byte too
            udp->SendTo(Create<Packet>(bytes.data(), bytes.size()), 0, to);
        }
    };

    void DoRun() override
    {
        PatternTransfer t(3000);
        RawSender raw;
        raw.udp = Socket::CreateSocket(t.network.Client(), UdpSocketFactory::GetTypeId());
        raw.udp->Bind();
        raw.to = t.network.ServerAddress(PORT);
        for (uint32_t size = 0; size < RudpHeader::FIXED_SIZE; ++size)
        {
            Simulator::Schedule(MilliSeconds(500 + size), &RawSender::Send, &raw, size);
        }
        t.Run();
        NS_TEST_ASSERT_MSG_EQ(t.server.listenerChecksumErrors, 18, "ChecksumError trace");
        NS_TEST_ASSERT_MSG_EQ(t.server.listener->GetStats().checksumErrors, 18, "counted");
        NS_TEST_ASSERT_MSG_EQ(t.Delivered(), true, "a connection after them works");
    }
};

/// A bogus data segment far ahead, or beyond the stream's end, never aborts (audit M4).
class RudpBogusSegmentTest : public TestCase
{
  public:
    /// \param beyondEnd inject inside the window but past the stream's end (else 2^31 - 10 ahead)
    explicit RudpBogusSegmentTest(bool beyondEnd)
        : TestCase(beyondEnd ? "SACK mode: bogus data past the stream's end makes the FIN wait; "
                               "the close fails, reported, no abort, no truncation"
                             : "SACK mode: a segment 2^31 - 10 ahead is refused; the FIN then "
                               "closes normally"),
          m_beyondEnd(beyondEnd)
    {
    }

  private:
    /// Injects the bogus segment into the server's connection.
    struct Attack
    {
        PatternTransfer* transfer{nullptr};
        bool beyondEnd{false};
        Injector injector;

        void Go()
        {
            Ptr<RudpSocket> connection = transfer->server.connection;
            NS_ABORT_MSG_UNLESS(connection, "the connection is not up yet");
            injector.socket = connection;
            connection->GetPeerName(injector.from);
            const SequenceNumber32 first =
                transfer->log.Segments().front().header.GetSequenceNumber() + 1;
            RudpHeader header;
            header.SetSequenceNumber(beyondEnd ? first + transfer->sender.total + 1000
                                               : connection->GetRxBuffer()->NextRxSequence() +
                                                     ((1u << 31) - 10));
            header.SetWindow(65535);
            injector.Inject(header, 100);
        }
    };

    void DoRun() override
    {
        PatternTransfer t(20000);
        t.Client()->SetAttribute("Sack", BooleanValue(true));
        t.Client()->SetAttribute("InitialRto", TimeValue(MilliSeconds(200)));
        t.Client()->SetAttribute("DataRetries", UintegerValue(3));
        t.server.listener->SetAttribute("Sack", BooleanValue(true));
        Attack attack;
        attack.transfer = &t;
        attack.beyondEnd = m_beyondEnd;
        Simulator::Schedule(MilliSeconds(1035), &Attack::Go, &attack);
        t.Run();
        NS_TEST_ASSERT_MSG_EQ(attack.injector.injected, 1, "injected");
        NS_TEST_ASSERT_MSG_EQ(t.server.received, 20000, "every byte");
        NS_TEST_ASSERT_MSG_EQ(t.server.mismatches, 0, "unchanged");
        const RudpSocket::Stats& stats = t.server.connection->GetStats();
        if (m_beyondEnd)
        {
            NS_TEST_ASSERT_MSG_GT(stats.rejectedFins, 0, "the FIN was refused");
            NS_TEST_ASSERT_MSG_EQ(t.server.peerClosed, false, "never taken as the stream's end");
            NS_TEST_ASSERT_MSG_EQ(Join(t.failures), "close", "the client reports the failure");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(stats.outOfWindowSegments, 1, "refused as out of window");
            NS_TEST_ASSERT_MSG_EQ(t.Delivered(), true, "a normal close");
            NS_TEST_ASSERT_MSG_EQ(t.server.connection->GetState(),
                                  RudpSocket::CLOSED,
                                  "the server closed");
        }
    }

    bool m_beyondEnd;
};

/// The Checksum attribute: Crc32c on both ends works; mixed kinds never connect.
class RudpChecksumKindTest : public TestCase
{
  public:
    /// \param mixed the client sends Crc32c to an Internet16 server (else both Crc32c)
    explicit RudpChecksumKindTest(bool mixed)
        : TestCase(mixed ? "a Crc32c client and an Internet16 server: every segment is a "
                           "checksum error, the connect fails"
                         : "Crc32c on both ends: 20-byte headers, every byte delivered"),
          m_mixed(mixed)
    {
    }

  private:
    void DoRun() override
    {
        PatternTransfer t(50000);
        t.Client()->SetAttribute("Checksum", StringValue("Crc32c"));
        t.Client()->SetAttribute("ConnCount", UintegerValue(2));
        if (!m_mixed)
        {
            t.server.listener->SetAttribute("Checksum", StringValue("Crc32c"));
        }
        t.Run();
        if (m_mixed)
        {
            NS_TEST_ASSERT_MSG_EQ(Join(t.failures), "connect", "the connect fails");
            NS_TEST_ASSERT_MSG_EQ(t.server.listenerChecksumErrors, 3, "SYN sent 1 + 2 times");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(t.Delivered(), true, "every byte, both ends closed");
        uint32_t crc = 0;
        for (const auto& segment : t.log.Segments())
        {
            crc += segment.header.GetChecksumKind() == RudpHeader::CHECKSUM_CRC32C;
        }
        NS_TEST_ASSERT_MSG_EQ(crc, t.log.Segments().size(), "every segment carries CRC-32c");
    }

    bool m_mixed;
};

/// Multi-bit corruption: what the Internet checksum misses, CRC-32c catches.
class RudpMultiBitCorruptionTest : public TestCase
{
  public:
    /// \param kind the checksum on both ends
    explicit RudpMultiBitCorruptionTest(RudpHeader::ChecksumKind kind)
        : TestCase(kind == RudpHeader::CHECKSUM_CRC32C
                       ? "Crc32c: two-bit errors that cancel in the 16-bit sum are caught; every "
                         "byte delivered"
                       : "Internet16: two-bit errors that cancel in the 16-bit sum reach the "
                         "application (the limit Crc32c removes)"),
          m_kind(kind)
    {
    }

  private:
    void DoRun() override
    {
        PatternTransfer t(100000);
        const StringValue kind(m_kind == RudpHeader::CHECKSUM_CRC32C ? "Crc32c" : "Internet16");
        t.Client()->SetAttribute("Checksum", kind);
        t.server.listener->SetAttribute("Checksum", kind);
        t.Client()->SetAttribute("InitialRto", TimeValue(MilliSeconds(200)));
        Ptr<CancellingFlipErrorModel> model = CreateObject<CancellingFlipErrorModel>(4);
        t.network.SetServerErrorModel(model);
        t.Run();
        NS_TEST_ASSERT_MSG_GT(model->Corrupted(), 10, "segments corrupted");
        if (m_kind == RudpHeader::CHECKSUM_CRC32C)
        {
            NS_TEST_ASSERT_MSG_EQ(t.Delivered(), true, "every byte, unchanged");
            NS_TEST_ASSERT_MSG_EQ(t.server.connection->GetStats().checksumErrors,
                                  model->Corrupted(),
                                  "every corrupted segment caught");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(t.server.connection->GetStats().checksumErrors, 0, "none caught");
            NS_TEST_ASSERT_MSG_GT(t.server.mismatches, 0, "wrong bytes delivered");
        }
    }

    RudpHeader::ChecksumKind m_kind;
};

/// RudpCorruptionErrorModel's per-bit errors (often several per segment) with Crc32c.
class RudpPerBitCorruptionTest : public TestCase
{
  public:
    explicit RudpPerBitCorruptionTest(int64_t stream)
        : TestCase("Crc32c, per-bit corruption 1e-4 both ways, streams " + std::to_string(stream) +
                   ": every byte delivered"),
          m_stream(stream)
    {
    }

  private:
    void CountBits(Ptr<const Packet>, uint32_t bits)
    {
        m_multiBit += bits >= 2;
    }

    void DoRun() override
    {
        PatternTransfer t(1000000);
        t.network.AssignStreams(m_stream);
        for (Ptr<RudpSocket> socket : {t.Client(), t.server.listener})
        {
            socket->SetAttribute("Checksum", StringValue("Crc32c"));
            socket->SetAttribute("Sack", BooleanValue(true));
            socket->SetAttribute("InitialRto", TimeValue(MilliSeconds(200)));
            // Two thirds of the data segments arrive corrupted: twenty
            // timeouts in a row (the default limit) happen once in a few
            // thousand tries, and this test is about the checksum.
            socket->SetAttribute("DataRetries", UintegerValue(200));
        }
        int64_t stream = 100 * m_stream;
        for (bool server : {true, false})
        {
            Ptr<RudpCorruptionErrorModel> corrupt = CreateObject<RudpCorruptionErrorModel>();
            corrupt->SetAttribute("ErrorUnit", StringValue("PerBit"));
            corrupt->SetAttribute("ErrorRate", DoubleValue(1e-4));
            corrupt->SetAttribute("HeaderBytes", UintegerValue(28)); // IPv4 + UDP
            corrupt->SetAttribute("TrailerBytes", UintegerValue(0));
            corrupt->TraceConnectWithoutContext(
                "Corrupt",
                MakeCallback(&RudpPerBitCorruptionTest::CountBits, this));
            stream += corrupt->AssignStreams(stream);
            server ? t.network.SetServerErrorModel(corrupt)
                   : t.network.SetClientErrorModel(corrupt);
        }
        t.Run();
        NS_TEST_ASSERT_MSG_GT(m_multiBit, 100, "segments with two or more bits flipped");
        NS_TEST_ASSERT_MSG_EQ(t.server.mismatches, 0, "no byte changed");
        NS_TEST_ASSERT_MSG_EQ(t.Delivered(), true, "every byte, both ends closed");
    }

    int64_t m_stream;
    uint32_t m_multiBit{0};
};

/// A receive buffer smaller than a segment, with and without a reader that pauses (audit M5).
class RudpSmallReceiveBufferTest : public TestCase
{
  public:
    /**
     * \param rcvBuf the receiver's RcvBufSize (the sender's SegmentSize is 1400)
     * \param pause how long the receiving application does not read (0: never pauses)
     */
    RudpSmallReceiveBufferTest(uint32_t rcvBuf, Time pause)
        : TestCase("RcvBufSize " + std::to_string(rcvBuf) + ", SegmentSize 1400" +
                   (pause.IsZero()
                        ? std::string()
                        : ", reader paused for " + std::to_string(pause.GetMilliSeconds()) +
                              " ms (zero-window persist)") +
                   ": every byte delivered"),
          m_rcvBuf(rcvBuf),
          m_pause(pause)
    {
    }

  private:
    void DoRun() override
    {
        PatternTransfer t(30000);
        t.server.listener->SetAttribute("RcvBufSize", UintegerValue(m_rcvBuf));
        t.Client()->SetAttribute("SegmentSize", UintegerValue(1400));
        t.Client()->SetAttribute("DataRetries", UintegerValue(5));
        if (!m_pause.IsZero())
        {
            t.server.paused = true;
            Simulator::Schedule(Seconds(1) + m_pause, &PatternReceiver::Resume, &t.server);
        }
        t.Run();
        NS_TEST_ASSERT_MSG_EQ(t.Delivered(), true, "every byte, both ends closed");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(t.largestDataSegment,
                                    std::min(m_rcvBuf, 1400u),
                                    "no segment larger than the window");
    }

    uint32_t m_rcvBuf;
    Time m_pause;
};

/**
 * A reader that stops reading for 200 s behind a 2-segment buffer: the
 * sender persists (issue 23's socket fuzz finding, a server that never reads).
 * Its probes wait twice as long each time, up to MaxRto (RFC 1122
 * 4.2.2.17), and the peer's answers to them, ACKs of a closed window, are no
 * duplicate ACKs: no fast retransmit, no window inflation. Once the reader
 * resumes, every byte arrives.
 */
class RudpPersistTest : public TestCase
{
  public:
    RudpPersistTest()
        : TestCase("a reader paused for 200 s: zero-window probes back off to MaxRto, their "
                   "answers are no duplicate ACKs, every byte delivered")
    {
    }

  private:
    void Resent(Ptr<const Packet>, const RudpHeader&, Ptr<const RudpSocket>)
    {
        m_resent.push_back(Simulator::Now());
    }

    void CongState(RudpSenderState::CongState, RudpSenderState::CongState state)
    {
        m_fastRecovery = m_fastRecovery || state == RudpSenderState::FAST_RECOVERY;
    }

    // A member, not a lambda: ns-3.35's Simulator::Schedule takes no lambdas.
    void RecordAtResume(Ptr<RudpSocket> client)
    {
        m_atResume = client->GetStats();
    }

    void DoRun() override
    {
        PatternTransfer t(30000);
        t.server.listener->SetAttribute("RcvBufSize", UintegerValue(2800));
        t.Client()->SetAttribute("RtoMode", StringValue("Adaptive"));
        t.Client()->TraceConnectWithoutContext("Retransmission",
                                               MakeCallback(&RudpPersistTest::Resent, this));
        t.Client()->TraceConnectWithoutContext("CongState",
                                               MakeCallback(&RudpPersistTest::CongState, this));
        t.server.paused = true;
        const Time resume = Seconds(201);
        Simulator::Schedule(resume, &PatternReceiver::Resume, &t.server);
        Simulator::Schedule(resume, &RudpPersistTest::RecordAtResume, this, t.Client());
        t.Run(Seconds(600));
        const RudpSocket::Stats& atResume = m_atResume;

        // Adaptive RTO: 1 s (MinRto) at first, then 2, 4 ... 32, 60, 60 s.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(atResume.windowProbes, 5, "the closed window was probed");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(atResume.windowProbes, 9, "probes back off (else ~200)");
        NS_TEST_ASSERT_MSG_EQ(atResume.timeouts, 0, "a probe is no timeout");
        NS_TEST_ASSERT_MSG_EQ(atResume.fastRetransmits, 0, "answers to probes are no dup ACKs");
        NS_TEST_ASSERT_MSG_EQ(m_fastRecovery, false, "no fast recovery while persisting");
        Time previous;
        for (size_t i = 1; i < m_resent.size() && m_resent[i] < resume; ++i)
        {
            const Time gap = m_resent[i] - m_resent[i - 1];
            NS_TEST_ASSERT_MSG_GT_OR_EQ(gap, previous, "each probe waits at least as long");
            previous = gap;
        }
        NS_TEST_ASSERT_MSG_EQ(previous, Seconds(60), "probes end at MaxRto apart");
        NS_TEST_ASSERT_MSG_EQ(t.Delivered(), true, "every byte, both ends closed");
    }

    std::vector<Time> m_resent;
    bool m_fastRecovery{false};
    RudpSocket::Stats m_atResume; //!< the client's counters when the reader resumes
};

/// Forges ACKs from the server into a PatternTransfer's client.
struct ForgedServerAck
{
    PatternTransfer* transfer{nullptr};
    Injector injector;

    explicit ForgedServerAck(PatternTransfer& t)
        : transfer(&t)
    {
        injector.socket = t.Client();
        injector.from = t.network.ServerAddress(PORT);
    }

    /// \return the client's first data byte
    SequenceNumber32 ClientData() const
    {
        return transfer->log.Segments().front().header.GetSequenceNumber() + 1;
    }

    /// An ACK with SEQ \p seqOffset bytes past the server's first, acknowledging
    /// \p acked bytes of the client's data, with window \p window.
    void Ack(uint32_t seqOffset, uint32_t acked, uint32_t window)
    {
        SequenceNumber32 serverIsn;
        for (const auto& segment : transfer->log.Segments())
        {
            if (segment.side == "S")
            {
                serverIsn = segment.header.GetSequenceNumber();
                break;
            }
        }
        RudpHeader header;
        header.SetSequenceNumber(serverIsn + 1 + seqOffset);
        header.SetAckNumber(ClientData() + acked);
        header.SetFlags(RudpHeader::ACK);
        header.SetWindow(window);
        injector.Inject(header, 0);
    }
};

/**
 * Hand-made ACKs to a Go-Back-N sender whose real ACKs are all lost:
 * reordered ACKs and window updates (audit L2).
 */
class RudpAckWindowTest : public TestCase
{
  public:
    /// What the test injects.
    enum Case
    {
        REORDERED,      ///< an older ACK with a larger window after a newer one
        WINDOW_UPDATES, ///< three ACKs that only open the window
        DUPLICATES,     ///< three ACKs with the same window (the control)
    };

    explicit RudpAckWindowTest(Case c)
        : TestCase(c == REORDERED ? "a reordered older ACK does not bring back its stale window"
                   : c == WINDOW_UPDATES
                       ? "three ACKs that only open the window are no duplicate ACKs"
                       : "three ACKs with the same window are duplicate ACKs (fast retransmit)"),
          m_case(c)
    {
    }

  private:
    static constexpr uint32_t SEGMENT = 1000;

    /// Injects ACKs into the client and samples what it sent.
    struct Peer : ForgedServerAck
    {
        using ForgedServerAck::ForgedServerAck;
        uint32_t newSegmentsAtCheck{0};

        /// Counts data segments beyond the first ten the client sent.
        void Check()
        {
            newSegmentsAtCheck = 0;
            for (const auto& segment : transfer->log.Segments())
            {
                newSegmentsAtCheck +=
                    segment.side == "C" && segment.length > 0 &&
                    segment.header.GetSequenceNumber() >= ClientData() + 10 * SEGMENT;
            }
        }
    };

    void DoRun() override
    {
        PatternTransfer t(30 * SEGMENT);
        t.Client()->SetAttribute("WindowPolicy", StringValue("ns3::RudpGoBackN"));
        t.Client()->SetAttribute("WindowSize", UintegerValue(10));
        t.Client()->SetAttribute("SegmentSize", UintegerValue(SEGMENT));
        // The client hears the SYN|ACK, then nothing but what the test injects.
        std::list<uint32_t> afterSynAck;
        for (uint32_t i = 1; i < 1000; ++i)
        {
            afterSynAck.push_back(i);
        }
        t.network.DropAtClient(afterSynAck);
        Peer peer(t);
        const Time at = MilliSeconds(1100); // the first ten segments are out
        if (m_case == REORDERED)
        {
            Simulator::Schedule(at, &Peer::Ack, &peer, 0, 2 * SEGMENT, 5000);
            Simulator::Schedule(at, &Peer::Ack, &peer, 0, 1 * SEGMENT, 100000); // older, delayed
        }
        else
        {
            Simulator::Schedule(at, &Peer::Ack, &peer, 0, 2 * SEGMENT, 20000);
            for (uint32_t k = 1; k <= 3; ++k)
            {
                const uint32_t window = m_case == WINDOW_UPDATES ? 20000 + 1000 * k : 20000;
                Simulator::Schedule(at + MilliSeconds(10 * k),
                                    &Peer::Ack,
                                    &peer,
                                    0,
                                    2 * SEGMENT,
                                    window);
            }
        }
        Simulator::Schedule(MilliSeconds(1200), &Peer::Check, &peer);
        t.Run(Seconds(2)); // before the retransmission timer (2 s)
        const RudpSocket::Stats& stats = t.Client()->GetStats();
        NS_TEST_ASSERT_MSG_EQ(stats.timeouts, 0, "no timeout in the test's time");
        switch (m_case)
        {
        case REORDERED:
            // 8 segments of 1000 outstanding against the newer window of 5000.
            NS_TEST_ASSERT_MSG_EQ(peer.newSegmentsAtCheck, 0, "kept to the newer, smaller window");
            break;
        case WINDOW_UPDATES:
            NS_TEST_ASSERT_MSG_EQ(stats.fastRetransmits, 0, "no fast retransmit");
            NS_TEST_ASSERT_MSG_EQ(stats.retransmissions, 0, "nothing resent");
            break;
        case DUPLICATES:
            NS_TEST_ASSERT_MSG_EQ(stats.fastRetransmits, 1, "a fast retransmit");
            break;
        }
    }

    Case m_case;
};

/// \ingroup rudp-test
/// Connection management test suite.
/**
 * A forged ACK far beyond the client's receive buffer, then the server's
 * ACKs of a closed window (rudp-connection fuzz finding): the forged SEQ
 * must not become SND.WL1 (else no real window is taken after it and the
 * client keeps sending into the closed window), and the zero-window ACKs
 * are no duplicate ACKs (else a stop-and-wait client resends at each, and
 * each resend draws another: a storm).
 */
class RudpForgedWindowTest : public TestCase
{
  public:
    RudpForgedWindowTest()
        : TestCase("a forged ACK beyond the receive buffer does not hold the window open: "
                   "zero-window ACKs after it draw no resend")
    {
    }

  private:
    void DoRun() override
    {
        PatternTransfer t(10000);
        t.Client()->SetAttribute("WindowPolicy", StringValue("ns3::RudpStopAndWait"));
        t.Client()->SetAttribute("RcvBufSize", UintegerValue(2000));
        // The client hears the SYN|ACK, then nothing but what the test injects.
        std::list<uint32_t> afterSynAck;
        for (uint32_t i = 1; i < 1000; ++i)
        {
            afterSynAck.push_back(i);
        }
        t.network.DropAtClient(afterSynAck);
        ForgedServerAck forger(t);
        // 30 000 bytes ahead: beyond the client's 2000-byte buffer.
        Simulator::Schedule(MilliSeconds(1100), &ForgedServerAck::Ack, &forger, 30000, 0, 65535);
        for (uint32_t k = 1; k <= 3; ++k)
        {
            Simulator::Schedule(MilliSeconds(1100 + 10 * k),
                                &ForgedServerAck::Ack,
                                &forger,
                                0,
                                0,
                                0);
        }
        t.Run(Seconds(2)); // before the retransmission timer (2 s)
        const RudpSocket::Stats& stats = t.Client()->GetStats();
        NS_TEST_ASSERT_MSG_EQ(stats.timeouts, 0, "no timeout in the test's time");
        // The forged ACK acknowledges nothing: a duplicate ACK, which a
        // stop-and-wait sender answers with one resend; the zero-window
        // ACKs after it, none.
        NS_TEST_ASSERT_MSG_EQ(stats.retransmissions, 1, "one resend, for the forged ACK");
        NS_TEST_ASSERT_MSG_EQ(stats.fastRetransmits, 1, "one fast retransmit, the same");
    }
};

/**
 * A forged ACK with a SEQ ahead of the server's, inside the client's receive
 * buffer, and a window of 1 byte (rudp-connection and rudp-socket fuzz
 * finding): its SEQ became SND.WL1, so every real ACK after it looked older
 * and its window was never replaced; the client sent one byte a round trip
 * for the rest of the transfer. An ACK of new data now always sets the
 * window, as in Linux.
 */
class RudpForgedSmallWindowTest : public TestCase
{
  public:
    RudpForgedSmallWindowTest()
        : TestCase("a forged 1-byte window ahead of the peer's SEQ gives way to the next ACK "
                   "of new data")
    {
    }

  private:
    void DoRun() override
    {
        PatternTransfer t(50000);
        ForgedServerAck forger(t);
        std::vector<uint32_t> payloads;
        t.Client()->TraceConnectWithoutContext("Tx",
                                               MakeBoundCallback(
                                                   +[](std::vector<uint32_t>* sizes,
                                                       Ptr<const Packet> payload,
                                                       const RudpHeader&,
                                                       Ptr<const RudpSocket>) {
                                                       if (payload->GetSize() > 0)
                                                       {
                                                           sizes->push_back(payload->GetSize());
                                                       }
                                                   },
                                                   &payloads));
        // Mid-transfer (connected at 1.02 s, 20 ms round trips), 16 896 bytes
        // ahead of the server's SEQ: inside the client's receive buffer.
        Simulator::Schedule(MilliSeconds(1050), &ForgedServerAck::Ack, &forger, 16896, 0, 1);
        t.Run(Seconds(5));
        NS_TEST_ASSERT_MSG_EQ(t.Delivered(), true, "the transfer completes within 4 s");
        const auto tiny = std::count_if(payloads.begin(), payloads.end(), [](uint32_t size) {
            return size < 100;
        });
        NS_TEST_ASSERT_MSG_LT_OR_EQ(tiny,
                                    2,
                                    "at most a probe or two of a byte, not a byte a round trip");
    }
};

class RudpConnectionTestSuite : public TestSuite
{
  public:
    RudpConnectionTestSuite()
        : TestSuite("rudp-connection")
    {
        AddTestCase(new RudpSeedExchangeTest);
        // Server receives SYN(0) ACK(1) DATA(2) FIN|ACK(3) ACK(4); client
        // receives SYN|ACK(0) ACK(1) ACK(2) FIN|ACK(3).
        AddTestCase(new RudpLostStepTest("SYN",
                                         true,
                                         0,
                                         100,
                                         {"C SYN",
                                          "C SYN",
                                          "S SYN|ACK",
                                          "C ACK",
                                          "C DATA 100",
                                          "S ACK",
                                          "C FIN|ACK",
                                          "S ACK",
                                          "S FIN|ACK",
                                          "C ACK"}));
        AddTestCase(new RudpLostStepTest("SYN-ACK",
                                         false,
                                         0,
                                         100,
                                         {"C SYN",
                                          "S SYN|ACK",
                                          "C SYN",
                                          "S SYN|ACK",
                                          "C ACK",
                                          "C DATA 100",
                                          "S ACK",
                                          "C FIN|ACK",
                                          "S ACK",
                                          "S FIN|ACK",
                                          "C ACK"}));
        AddTestCase(new RudpLostStepTest("handshake ACK followed by data",
                                         true,
                                         1,
                                         100,
                                         {"C SYN",
                                          "S SYN|ACK",
                                          "C ACK",
                                          "C DATA 100",
                                          "S ACK",
                                          "C FIN|ACK",
                                          "S ACK",
                                          "S FIN|ACK",
                                          "C ACK"}));
        AddTestCase(new RudpLostStepTest("FIN",
                                         true,
                                         3,
                                         100,
                                         {"C SYN",
                                          "S SYN|ACK",
                                          "C ACK",
                                          "C DATA 100",
                                          "S ACK",
                                          "C FIN|ACK",
                                          "C FIN|ACK",
                                          "S ACK",
                                          "S FIN|ACK",
                                          "C ACK"}));
        AddTestCase(new RudpLostStepTest("ACK of the FIN",
                                         false,
                                         2,
                                         100,
                                         {"C SYN",
                                          "S SYN|ACK",
                                          "C ACK",
                                          "C DATA 100",
                                          "S ACK",
                                          "C FIN|ACK",
                                          "S ACK",
                                          "S FIN|ACK",
                                          "C ACK"}));
        AddTestCase(new RudpLostHandshakeAckTest);
        AddTestCase(new RudpLostFinalAckTest(1000));
        AddTestCase(new RudpLostFinalAckTest(2));
        AddTestCase(new RudpUnreachablePeerTest);
        AddTestCase(new RudpDeadPathTest);
        AddTestCase(new RudpIsnReproducibleTest);
        // Integrity
        AddTestCase(new RudpShortDatagramsTest);
        AddTestCase(new RudpBogusSegmentTest(false));
        AddTestCase(new RudpBogusSegmentTest(true));
        AddTestCase(new RudpChecksumKindTest(false));
        AddTestCase(new RudpChecksumKindTest(true));
        AddTestCase(new RudpMultiBitCorruptionTest(RudpHeader::CHECKSUM_INTERNET16));
        AddTestCase(new RudpMultiBitCorruptionTest(RudpHeader::CHECKSUM_CRC32C));
        for (int64_t stream = 1; stream <= 3; ++stream)
        {
            AddTestCase(new RudpPerBitCorruptionTest(stream));
        }
        AddTestCase(new RudpSmallReceiveBufferTest(1000, Seconds(0)));
        AddTestCase(new RudpSmallReceiveBufferTest(1000, Seconds(3)));
        AddTestCase(new RudpSmallReceiveBufferTest(4000, Seconds(3)));
        AddTestCase(new RudpPersistTest);
        AddTestCase(new RudpForgedWindowTest);
        AddTestCase(new RudpForgedSmallWindowTest);
        AddTestCase(new RudpAckWindowTest(RudpAckWindowTest::REORDERED));
        AddTestCase(new RudpAckWindowTest(RudpAckWindowTest::WINDOW_UPDATES));
        AddTestCase(new RudpAckWindowTest(RudpAckWindowTest::DUPLICATES));
    }
};

/// Static instance registering the suite.
static RudpConnectionTestSuite g_rudpConnectionTestSuite;
