/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-test-network.h"

#include "ns3/test.h"

/**
 * \file
 * \ingroup rudp-test
 * Connection management: seed 000's three-way handshake and four-way close,
 * packet by packet, with each step's loss, and failure after the retry limit.
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
        client->SetAttribute("Rto", TimeValue(Seconds(1)));
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
        Simulator::Schedule(Seconds(1), [this, bytes, close]() {
            client->Connect(network.ServerAddress(PORT));
            if (bytes > 0)
            {
                client->Send(Create<Packet>(bytes));
            }
            if (close)
            {
                client->Close();
            }
        });
        Simulator::Stop(Seconds(600));
        Simulator::Run();
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

std::string
Join(const std::vector<std::string>& lines)
{
    std::string out;
    for (const auto& line : lines)
    {
        out += (out.empty() ? "" : ", ") + line;
    }
    return out;
}

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
        Simulator::Schedule(Seconds(1.5), [&]() {
            x.server.Connection()->SetAttribute("DataRetries", UintegerValue(3));
            x.server.Connection()->TraceConnectWithoutContext(
                "Failure",
                MakeCallback(&FailureRecorder::Record, &server));
        });
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
        x.client->SetAttribute("ConnectRetries", UintegerValue(4));
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

/// \ingroup rudp-test
/// Connection management test suite.
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
    }
};

/// Static instance registering the suite.
static RudpConnectionTestSuite g_rudpConnectionTestSuite;
