/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "../model/rudp-compat.h"
#include "rudp-test-network.h"

#include "ns3/applications-module.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-htcp.h"
#include "ns3/tcp-hybla.h"
#include "ns3/tcp-linux-reno.h"
#include "ns3/tcp-veno.h"
#include "ns3/test.h"
#if RUDP_HAVE_TCP_WESTWOOD_PLUS
#include "ns3/tcp-westwood-plus.h"
#else
#include "ns3/tcp-westwood.h"
#endif

#include <map>
#include <set>

/**
 * \file
 * \ingroup rudp-test
 * Window policies chosen by TypeId: RudpSocket's WindowPolicy, its Variant
 * shorthand, a node's RudpSocketFactory::WindowPolicy for stock
 * applications; and, per TcpCongestionOps the module names, that a transfer
 * calls the hooks the algorithm implements.
 */

using namespace ns3;
using namespace ns3::rudptest;

namespace
{

const uint16_t PORT = 4000;
const uint32_t MSS = 1000;

/// \return the WindowPolicy attribute of \p socket, as a TypeId name
std::string
PolicyOf(Ptr<RudpSocket> socket)
{
    TypeIdValue policy;
    socket->GetAttribute("WindowPolicy", policy);
    return policy.Get().GetName();
}

/// \return the Variant attribute of \p socket, as its name
std::string
VariantOf(Ptr<RudpSocket> socket)
{
    StringValue variant;
    socket->GetAttribute("Variant", variant);
    return variant.Get();
}

/**
 * \brief One BulkSendApplication -> PacketSink transfer of \p bytes over
 * RUDP, the server's received packets \p drops dropped.
 */
class BulkTransfer
{
  public:
    /// Runs it; the configuration (Config::SetDefault) is the caller's.
    BulkTransfer(uint32_t bytes, const std::list<uint32_t>& drops)
    {
        TestNetwork network(MilliSeconds(20), DataRate("10Mbps"));
        network.AssignStreams(1);
        network.DropAtServer(drops);
        PacketSinkHelper sinkHelper("ns3::RudpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), PORT));
        ApplicationContainer sinkApp = sinkHelper.Install(network.Server());
        BulkSendHelper bulk("ns3::RudpSocketFactory", network.ServerAddress(PORT));
        bulk.SetAttribute("MaxBytes", UintegerValue(bytes));
        bulk.SetAttribute("SendSize", UintegerValue(MSS));
        ApplicationContainer sourceApp = bulk.Install(network.Client());
        sourceApp.Start(Seconds(1));
        Simulator::Stop(Seconds(300));
        Simulator::Run();
        m_sink = DynamicCast<PacketSink>(sinkApp.Get(0));
        m_sender = DynamicCast<RudpSocket>(
            DynamicCast<BulkSendApplication>(sourceApp.Get(0))->GetSocket());
        m_receiver = m_sink->GetAcceptedSockets().empty()
                         ? nullptr
                         : DynamicCast<RudpSocket>(m_sink->GetAcceptedSockets().front());
    }

    ~BulkTransfer()
    {
        Simulator::Destroy();
    }

    /// \return bytes the sink read
    uint64_t Received() const
    {
        return m_sink->GetTotalRx();
    }

    /// \return the BulkSendApplication's socket
    Ptr<RudpSocket> Sender() const
    {
        return m_sender;
    }

    /// \return the connection the PacketSink accepted
    Ptr<RudpSocket> Receiver() const
    {
        return m_receiver;
    }

  private:
    Ptr<PacketSink> m_sink;
    Ptr<RudpSocket> m_sender;
    Ptr<RudpSocket> m_receiver;
};

} // namespace

/// WindowPolicy by TypeId, per socket; Variant and CongestionOps its aliases.
class RudpWindowPolicyAttributeTest : public TestCase
{
  public:
    RudpWindowPolicyAttributeTest()
        : TestCase("WindowPolicy takes a TypeId; Variant and CongestionOps are aliases that "
                   "set it, applied only when configured")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(PolicyOf(CreateObject<RudpSocket>()),
                              "ns3::RudpReno",
                              "seed 000's Reno by default");
        NS_TEST_EXPECT_MSG_EQ(VariantOf(CreateObject<RudpSocket>()), "Reno", "read as Reno");

        Config::SetDefault("ns3::RudpSocket::WindowPolicy", StringValue("ns3::TcpVeno"));
        Ptr<RudpSocket> veno = CreateObject<RudpSocket>();
        NS_TEST_EXPECT_MSG_EQ(PolicyOf(veno), "ns3::TcpVeno", "an unconfigured alias keeps it");
        NS_TEST_EXPECT_MSG_EQ(VariantOf(veno), "TcpCongestionOps", "read as TcpCongestionOps");
        Config::Reset();

        Config::SetDefault("ns3::RudpSocket::Variant", StringValue("GoBackN"));
        NS_TEST_EXPECT_MSG_EQ(PolicyOf(CreateObject<RudpSocket>()),
                              "ns3::RudpGoBackN",
                              "Variant sets the policy");
        Config::Reset();

        Config::SetDefault("ns3::RudpSocket::Variant", StringValue("TcpCongestionOps"));
        NS_TEST_EXPECT_MSG_EQ(PolicyOf(CreateObject<RudpSocket>()),
                              "ns3::TcpNewReno",
                              "Variant TcpCongestionOps: NewReno");
        Config::SetDefault("ns3::RudpSocket::CongestionOps", StringValue("ns3::TcpCubic"));
        NS_TEST_EXPECT_MSG_EQ(PolicyOf(CreateObject<RudpSocket>()),
                              "ns3::TcpCubic",
                              "and CongestionOps the algorithm");
        Config::Reset();

        // After construction, the last attribute set decides.
        Ptr<RudpSocket> socket = CreateObject<RudpSocket>();
        socket->SetAttribute("CongestionOps", StringValue("ns3::TcpHtcp"));
        NS_TEST_EXPECT_MSG_EQ(PolicyOf(socket), "ns3::TcpHtcp", "CongestionOps sets it");
        socket->SetAttribute("Variant", StringValue("TcpCongestionOps"));
        NS_TEST_EXPECT_MSG_EQ(PolicyOf(socket), "ns3::TcpHtcp", "a TcpCongestionOps stays");
        socket->SetAttribute("Variant", StringValue("StopAndWait"));
        NS_TEST_EXPECT_MSG_EQ(PolicyOf(socket), "ns3::RudpStopAndWait", "a seed variant");
        TypeIdValue algorithm;
        socket->GetAttribute("CongestionOps", algorithm);
        NS_TEST_EXPECT_MSG_EQ(algorithm.Get().GetName(),
                              "ns3::TcpNewReno",
                              "CongestionOps reads what Variant TcpCongestionOps would run");
        socket->SetAttribute("WindowPolicy", StringValue("ns3::RudpGoBackN"));
        NS_TEST_EXPECT_MSG_EQ(VariantOf(socket), "GoBackN", "Variant reads the policy");
    }
};

/// The node's RudpSocketFactory::WindowPolicy reaches stock applications' sockets.
class RudpFactoryWindowPolicyTest : public TestCase
{
  public:
    /**
     * \param policy the factories' WindowPolicy
     * \param socketDefault RudpSocket's WindowPolicy default, which it overrides
     * \param name the name the sender's policy reports
     */
    RudpFactoryWindowPolicyTest(std::string policy, std::string socketDefault, std::string name)
        : TestCase("RudpSocketFactory::WindowPolicy " + policy + " over RudpSocket's " +
                   socketDefault + ": BulkSendApplication's socket runs " + name),
          m_policy(std::move(policy)),
          m_socketDefault(std::move(socketDefault)),
          m_name(std::move(name))
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RudpSocket::WindowPolicy", StringValue(m_socketDefault));
        Config::SetDefault("ns3::RudpSocket::WindowSize", UintegerValue(1000));
        Config::SetDefault("ns3::RudpSocket::SegmentSize", UintegerValue(MSS));
        Config::SetDefault("ns3::RudpSocketFactory::WindowPolicy", StringValue(m_policy));
        {
            BulkTransfer transfer(200 * MSS, {});
            NS_TEST_EXPECT_MSG_EQ(transfer.Received(), 200 * MSS, "every byte arrived");
            NS_TEST_ASSERT_MSG_NE(transfer.Sender()->GetWindowPolicy(), nullptr, "connected");
            NS_TEST_EXPECT_MSG_EQ(transfer.Sender()->GetWindowPolicy()->GetName(),
                                  m_name,
                                  "the sender's policy");
            NS_TEST_EXPECT_MSG_EQ(PolicyOf(transfer.Sender()), m_policy, "its attribute");
            NS_TEST_ASSERT_MSG_NE(transfer.Receiver(), nullptr, "accepted");
            NS_TEST_EXPECT_MSG_EQ(PolicyOf(transfer.Receiver()),
                                  m_policy,
                                  "an accepted connection has its listener's");
        }
        Config::Reset();
    }

    std::string m_policy;
    std::string m_socketDefault;
    std::string m_name;
};

namespace
{

/// A TcpCongestionOps hook.
enum Hook
{
    INIT,
    PKTS_ACKED,
    INCREASE_WINDOW,
    GET_SS_THRESH,
    CONGESTION_STATE_SET,
    CWND_EVENT,
};

/// \return the name of \p hook
const char*
HookName(Hook hook)
{
    static const char* names[] =
        {"Init", "PktsAcked", "IncreaseWindow", "GetSsThresh", "CongestionStateSet", "CwndEvent"};
    return names[hook];
}

/// What the hooks of one algorithm saw.
struct HookLog
{
    std::map<Hook, uint32_t> calls;                  ///< calls per hook
    std::set<TcpSocketState::TcpCongState_t> states; ///< states CongestionStateSet was given
    uint32_t pktsAckedWithoutRtt{0};                 ///< PktsAcked calls with a zero RTT
    uint32_t staleState{0};                          ///< calls with the TCP state not current
};

/// The log of the algorithm a test runs (one at a time).
HookLog g_hooks;

/**
 * \brief \p Algorithm, logging every hook call into g_hooks before it
 * passes the call on; a TypeId of its own, so that WindowPolicy can name it.
 */
template <typename Algorithm>
class HookRecorder : public Algorithm
{
  public:
    /// \return the TypeId, "ns3::RudpTestHookRecorder<" + the algorithm's + ">"
    static TypeId GetTypeId()
    {
        // ns-3.35's TypeId takes a const char* only.
        static const std::string name =
            "ns3::RudpTestHookRecorder<" + Algorithm::GetTypeId().GetName() + ">";
        static TypeId tid = TypeId(name.c_str())
                                .template SetParent<Algorithm>()
                                .SetGroupName("Rudp")
                                .template AddConstructor<HookRecorder<Algorithm>>();
        return tid;
    }

    void Init(Ptr<TcpSocketState> tcb) override
    {
        Note(INIT, tcb);
        Algorithm::Init(tcb);
    }

    void PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt) override
    {
        Note(PKTS_ACKED, tcb);
        g_hooks.pktsAckedWithoutRtt += rtt.IsZero() ? 1 : 0;
        Algorithm::PktsAcked(tcb, segmentsAcked, rtt);
    }

    void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override
    {
        Note(INCREASE_WINDOW, tcb);
        Algorithm::IncreaseWindow(tcb, segmentsAcked);
    }

    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override
    {
        Note(GET_SS_THRESH, tcb);
        return Algorithm::GetSsThresh(tcb, bytesInFlight);
    }

    void CongestionStateSet(Ptr<TcpSocketState> tcb,
                            const TcpSocketState::TcpCongState_t newState) override
    {
        Note(CONGESTION_STATE_SET, tcb);
        g_hooks.states.insert(newState);
        Algorithm::CongestionStateSet(tcb, newState);
    }

    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t event) override
    {
        Note(CWND_EVENT, tcb);
        Algorithm::CwndEvent(tcb, event);
    }

  private:
    /// Counts a call; the state the socket keeps current must be set.
    void Note(Hook hook, Ptr<const TcpSocketState> tcb)
    {
        ++g_hooks.calls[hook];
        const Time lastRtt = tcb->m_lastRtt;
        const bool current =
            tcb->m_segmentSize == MSS && tcb->m_cWnd > 0U &&
            (hook == INIT || (lastRtt.IsStrictlyPositive() && tcb->m_minRtt <= lastRtt));
        g_hooks.staleState += current ? 0 : 1;
    }
};

#if RUDP_HAVE_TCP_WESTWOOD_PLUS
/// Westwood+ as the module names it on this ns-3.
using WestwoodPlus = TcpWestwoodPlus;
#else
/// Westwood+ as the module names it on this ns-3 (ProtocolType WestwoodPlus).
using WestwoodPlus = TcpWestwood;
#endif

} // namespace

/**
 * \brief A transfer with a fast retransmit and a timeout calls the hooks
 * \p Algorithm implements (the ones it overrides), and never CwndEvent.
 */
template <typename Algorithm>
class RudpCongestionHooksTest : public TestCase
{
  public:
    /**
     * \param name the module's short name of the algorithm
     * \param hooks the hooks \p Algorithm overrides (besides GetName and Fork)
     */
    RudpCongestionHooksTest(std::string name, std::set<Hook> hooks)
        : TestCase("RUDP drives " + name + " (" + Algorithm::GetTypeId().GetName() +
                   "): through a fast retransmit and a timeout, each hook it implements is "
                   "called with the TCP state current"),
          m_name(std::move(name)),
          m_hooks(std::move(hooks))
    {
    }

  private:
    void DoRun() override
    {
        g_hooks = HookLog();
        RudpCongestionNames::SetDefaults(m_name); // westwood up to ns-3.37: WestwoodPlus
        Config::SetDefault("ns3::RudpSocket::SegmentSize", UintegerValue(MSS));
        Config::SetDefault("ns3::RudpSocket::WindowSize", UintegerValue(1000));
        Config::SetDefault("ns3::RudpSocket::Sack", BooleanValue(true));
        Config::SetDefault("ns3::RudpSocket::RtoMode", StringValue("Adaptive"));
        Config::SetDefault("ns3::RudpSocket::RcvBufSize", UintegerValue(1 << 20));
        Config::SetDefault("ns3::RudpSocket::SndBufSize", UintegerValue(1 << 20));
        Config::SetDefault("ns3::RudpSocketFactory::WindowPolicy",
                           TypeIdValue(HookRecorder<Algorithm>::GetTypeId()));
        {
            // The server receives SYN, ACK, then data segments 0..299: lose
            // segment 150 (three duplicate ACKs follow) and the last one
            // (nothing follows it: the timer).
            BulkTransfer transfer(300 * MSS, {2 + 150, 2 + 299});
            NS_TEST_EXPECT_MSG_EQ(transfer.Received(), 300 * MSS, "every byte arrived");
            const RudpSocket::Stats& stats = transfer.Sender()->GetStats();
            NS_TEST_EXPECT_MSG_EQ(stats.fastRetransmits, 1, "one fast retransmit");
            NS_TEST_EXPECT_MSG_GT(stats.timeouts, 0, "a timeout");
        }
        Config::Reset();

        for (const Hook hook : m_hooks)
        {
            NS_TEST_EXPECT_MSG_GT(g_hooks.calls[hook], 0, HookName(hook) << " is called");
        }
        NS_TEST_EXPECT_MSG_EQ(g_hooks.calls[CWND_EVENT], 0, "CwndEvent is not driven");
        NS_TEST_EXPECT_MSG_EQ(g_hooks.pktsAckedWithoutRtt, 0, "PktsAcked gets an RTT sample");
        NS_TEST_EXPECT_MSG_EQ(g_hooks.staleState,
                              0,
                              "segment size, cwnd and RTTs are set when a hook runs");
        if (m_hooks.count(CONGESTION_STATE_SET))
        {
            for (const auto state :
                 {TcpSocketState::CA_RECOVERY, TcpSocketState::CA_OPEN, TcpSocketState::CA_LOSS})
            {
                NS_TEST_EXPECT_MSG_EQ(g_hooks.states.count(state),
                                      1,
                                      "CongestionStateSet to "
                                          << TcpSocketState::TcpCongStateName[state]);
            }
        }
    }

    std::string m_name;
    std::set<Hook> m_hooks;
};

/// \ingroup rudp-test
/// Window policies by TypeId, and the TcpCongestionOps hooks RUDP drives.
class RudpWindowPolicyTestSuite : public TestSuite
{
  public:
    RudpWindowPolicyTestSuite()
        : TestSuite("rudp-window-policy")
    {
        AddTestCase(new RudpWindowPolicyAttributeTest);
        AddTestCase(new RudpFactoryWindowPolicyTest("ns3::TcpCubic", "ns3::RudpReno", "TcpCubic"));
        AddTestCase(new RudpFactoryWindowPolicyTest("ns3::RudpGoBackN", "ns3::TcpVeno", "GoBackN"));
        AddTestCase(new RudpFactoryWindowPolicyTest("ns3::RudpStopAndWait",
                                                    "ns3::RudpReno",
                                                    "StopAndWait"));

        // The algorithms RudpCongestionNames lists, with the hooks each
        // overrides in ns-3 (tcp-*.h) and in TcpCvtcp.
        const std::set<Hook> renoHooks{INCREASE_WINDOW, GET_SS_THRESH};
        AddTestCase(new RudpCongestionHooksTest<TcpLinuxReno>("newreno", renoHooks));
        AddTestCase(new RudpCongestionHooksTest<TcpNewReno>("ns3::TcpNewReno", renoHooks));
        AddTestCase(new RudpCongestionHooksTest<TcpCubic>(
            "cubic",
            {INIT, PKTS_ACKED, INCREASE_WINDOW, GET_SS_THRESH, CONGESTION_STATE_SET}));
        AddTestCase(
            new RudpCongestionHooksTest<TcpHtcp>("htcp",
                                                 {PKTS_ACKED, INCREASE_WINDOW, GET_SS_THRESH}));
        AddTestCase(new RudpCongestionHooksTest<TcpHybla>("hybla", {PKTS_ACKED, INCREASE_WINDOW}));
        AddTestCase(
            new RudpCongestionHooksTest<WestwoodPlus>("westwood", {PKTS_ACKED, GET_SS_THRESH}));
        AddTestCase(new RudpCongestionHooksTest<TcpVeno>(
            "veno",
            {PKTS_ACKED, INCREASE_WINDOW, GET_SS_THRESH, CONGESTION_STATE_SET}));
        AddTestCase(new RudpCongestionHooksTest<TcpCvtcp>(
            "cvtcp",
            {PKTS_ACKED, INCREASE_WINDOW, GET_SS_THRESH, CONGESTION_STATE_SET}));
    }
};

/// Static instance registering the suite.
static RudpWindowPolicyTestSuite g_rudpWindowPolicyTestSuite;
