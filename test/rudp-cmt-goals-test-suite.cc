/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "../model/rudp-compat.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/rudp-cmt-coupling.h"
#include "ns3/rudp-cmt-path.h"
#include "ns3/rudp-cmt-send-engine.h"
#include "ns3/rudp-cmt-socket.h"
#include "ns3/rudp-multipath-bottleneck-helper.h"
#include "ns3/test.h"

#include <numeric>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * RFC 6356's three goals for the multipath socket's couplings, with stock
 * applications (BulkSend, PacketSink) over ns3::RudpCmtSocketFactory beside
 * TCP NewReno flows that grow as RFC 6356's "standard TCP"
 * (RudpMultipathBottleneckHelper): goal 1, improve throughput; goal 2, do
 * no harm at a shared bottleneck, behind each kind of queue; goal 3,
 * balance congestion.
 */

using namespace ns3;

namespace
{

/// What one run measured: goodputs (Mbit/s) after the warm-up.
struct GoalRun
{
    double association{0};       ///< the association's goodput
    std::vector<double> tcp;     ///< each TCP flow's
    std::vector<uint64_t> paths; ///< the bytes each path sent after the warm-up

    /// \return the mean of the TCP flows' goodputs
    double TcpMean() const
    {
        return tcp.empty() ? 0 : std::accumulate(tcp.begin(), tcp.end(), 0.0) / tcp.size();
    }

    /// \return the association's goodput over a TCP flow's
    double Ratio() const
    {
        return association / TcpMean();
    }

    /// \return the share of the bytes path \p path sent
    double PathShare(uint32_t path) const
    {
        const double all = std::accumulate(paths.begin(), paths.end(), 0.0);
        return all > 0 ? paths.at(path) / all : 0;
    }
};

/// Notes what a sink had received when the measurement starts.
void
NoteRx(Ptr<PacketSink> sink, uint64_t* bytes)
{
    *bytes = sink->GetTotalRx();
}

/// Notes the bytes each path of the association sent so far.
void
NotePaths(Ptr<BulkSendApplication> source, std::vector<uint64_t>* bytes)
{
    Ptr<RudpCmtSocket> socket = DynamicCast<RudpCmtSocket>(source->GetSocket());
    bytes->clear();
    for (const Ptr<RudpCmtPath>& path : socket->GetSender()->GetPaths())
    {
        bytes->push_back(path->GetStats().bytesSent);
    }
}

/**
 * \brief Runs a network RudpMultipathBottleneckHelper built: the
 * applications start at 1 s (plus up to 0.5 s), the measurement after
 * \p warmup and for \p measured.
 * \param network the network, its bottlenecks, paths and flows added
 * \param coupling the association's Coupling
 * \param run the RngRun
 * \param warmup time before the measurement
 * \param measured the measured time
 * \param rfcTcp whether the TCP flows are the standards-track SACK TCP
 *        (RudpMultipathBottleneckHelper::SetRfcTcp), not ns-3's TcpNewReno
 * \return the goodputs
 */
GoalRun
RunGoal(RudpMultipathBottleneckHelper& network,
        TypeId coupling,
        uint32_t run,
        Time warmup,
        Time measured,
        bool rfcTcp = false)
{
    RngSeedManager::SetRun(run);
    Config::SetDefault("ns3::RudpCmtSocket::Coupling", TypeIdValue(coupling));
    RudpMultipathBottleneckHelper::SetStandardDefaults();
    if (rfcTcp)
    {
        RudpMultipathBottleneckHelper::SetRfcTcp();
    }
    const Time jitter = MilliSeconds(500);
    network.SetStart(Seconds(1), jitter);
    network.Install();
    network.AssignStreams(1); // as rudp-coupling: a run here is its run
    const Time begin = Seconds(1) + jitter + warmup;
    uint64_t associationStart = 0;
    std::vector<uint64_t> tcpStart(network.GetNTcpFlows(), 0);
    std::vector<uint64_t> pathsStart;
    std::vector<uint64_t> pathsEnd;
    Simulator::Schedule(begin, &NoteRx, network.GetAssociationSink(), &associationStart);
    Simulator::Schedule(begin, &NotePaths, network.GetAssociationSource(), &pathsStart);
    for (uint32_t k = 0; k < network.GetNTcpFlows(); ++k)
    {
        Simulator::Schedule(begin, &NoteRx, network.GetTcpSink(k), &tcpStart[k]);
    }
    const Time end = begin + measured;
    Simulator::Schedule(end - TimeStep(1), &NotePaths, network.GetAssociationSource(), &pathsEnd);
    Simulator::Stop(end);
    Simulator::Run();
    const double seconds = measured.GetSeconds();
    GoalRun result;
    result.association =
        (network.GetAssociationSink()->GetTotalRx() - associationStart) * 8 / seconds / 1e6;
    for (uint32_t k = 0; k < network.GetNTcpFlows(); ++k)
    {
        result.tcp.push_back((network.GetTcpSink(k)->GetTotalRx() - tcpStart[k]) * 8 / seconds /
                             1e6);
    }
    for (uint32_t p = 0; p < pathsEnd.size(); ++p)
    {
        result.paths.push_back(pathsEnd[p] - (p < pathsStart.size() ? pathsStart[p] : 0));
    }
    Simulator::Destroy();
    Config::Reset();
    RngSeedManager::SetRun(1);
    return result;
}

} // namespace

namespace
{

/// The bottleneck of every case: 10 Mbit/s, 20 ms one way (BDP 40 packets at the base RTT).
const DataRate RATE("10Mbps");
/// Its one-way delay.
const Time DELAY = MilliSeconds(20);
/// The senders' access jitter: one 1500-byte packet's time at RATE (no phase effects).
const Time ACCESS_JITTER = MicroSeconds(1200);

/**
 * \brief The mean over runs 1..\p runs of an association of two paths
 * through one bottleneck beside \p tcpFlows TCP flows: its goodput over a
 * TCP flow's (the standards-track SACK TCP if \p rfcTcp, else ns-3's
 * TcpNewReno).
 */
double
SharedBottleneckRatio(TypeId coupling,
                      RudpMultipathBottleneckHelper::Queue queue,
                      uint32_t packets,
                      uint32_t runs,
                      uint32_t tcpFlows = 1,
                      bool rfcTcp = false)
{
    double sum = 0;
    for (uint32_t run = 1; run <= runs; ++run)
    {
        RudpMultipathBottleneckHelper network;
        network.AddBottleneck(RATE, DELAY, queue, packets);
        network.AddPath(0);
        network.AddPath(0);
        network.AddTcpFlows(0, tcpFlows);
        network.SetAccessJitter(ACCESS_JITTER);
        sum += RunGoal(network, coupling, run, Seconds(100), Seconds(200), rfcTcp).Ratio();
    }
    return sum / runs;
}

/**
 * RFC 6356's goal 2, do no harm: LIA and OLIA over two paths through one
 * bottleneck take between 0.8 and 1.3 times a TCP flow's goodput (the mean
 * of four runs of 200 s after 100 s). Beside one of ns-3's TcpNewReno flows
 * behind a drop-tail FIFO of one BDP and behind RED; before the couplings
 * took TCP's slow-start rule, LIA took 1.34 and 1.40 times there. Beside
 * three standards-track SACK TCP flows
 * (RudpMultipathBottleneckHelper::SetRfcTcp) behind RED: LIA 1.05, OLIA
 * 1.03 (1.26 and 1.19 before they took TCP's window rule,
 * RudpCmtCoupling::MayOvershootWindow; bench/rfc6356_goals.py has the
 * other cells).
 */
class RudpCmtGoalDoNoHarmTestCase : public TestCase
{
  public:
    /**
     * \param queue the bottleneck's queue
     * \param packets its limit (FIFO)
     * \param tcpFlows the TCP flows beside the association
     * \param rfcTcp whether they are the standards-track SACK TCP, not ns-3's TcpNewReno
     * \param couplings the couplings held to the goal, by short name
     */
    RudpCmtGoalDoNoHarmTestCase(RudpMultipathBottleneckHelper::Queue queue,
                                uint32_t packets,
                                uint32_t tcpFlows = 1,
                                bool rfcTcp = false,
                                const std::vector<std::string>& couplings = {"lia", "olia"})
        : TestCase("goal 2, do no harm, beside " + std::to_string(tcpFlows) +
                   (rfcTcp ? " RFC 5681 and 6675 TCP flow(s)" : " TcpNewReno flow(s)") +
                   " behind " + RudpMultipathBottleneckHelper::QueueName(queue) +
                   (packets ? " of " + std::to_string(packets) + " packets" : std::string()) +
                   ": " + Listed(couplings) + " within 0.8-1.3 x a TCP flow"),
          m_queue(queue),
          m_packets(packets),
          m_tcpFlows(tcpFlows),
          m_rfcTcp(rfcTcp),
          m_couplings(couplings)
    {
    }

  private:
    /// \return \p names, comma-separated
    static std::string Listed(const std::vector<std::string>& names)
    {
        std::string listed;
        for (const std::string& name : names)
        {
            listed += (listed.empty() ? "" : ", ") + name;
        }
        return listed;
    }

    void DoRun() override
    {
        for (const std::string& name : m_couplings)
        {
            const TypeId coupling = RudpCmtCoupling::LookupByShortName(name);
            const double ratio =
                SharedBottleneckRatio(coupling, m_queue, m_packets, 4, m_tcpFlows, m_rfcTcp);
            NS_LOG_UNCOND(GetName() << ": " << coupling.GetName() << " " << ratio);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(ratio, 0.8, coupling.GetName() << " takes too little");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(ratio, 1.3, coupling.GetName() << " does harm");
        }
    }

    RudpMultipathBottleneckHelper::Queue m_queue; ///< the bottleneck's queue
    uint32_t m_packets;                           ///< its limit
    uint32_t m_tcpFlows;                          ///< the TCP flows beside the association
    bool m_rfcTcp;                                ///< whether they are the standards-track TCP
    std::vector<std::string> m_couplings;         ///< the couplings held to the goal
};

/**
 * ns-3's default queue disc, FqCoDel, schedules each path as a flow of its
 * own: whatever the coupling, two paths take about two flows' shares. No
 * loss-based coupling can do otherwise: a path below its share sees neither
 * a queue nor a drop (doc/multipath.rst).
 */
class RudpCmtGoalFairQueueTestCase : public TestCase
{
  public:
    RudpCmtGoalFairQueueTestCase()
        : TestCase("ns-3's default queue (FqCoDel): each path a flow's share, coupled or not")
    {
    }

  private:
    void DoRun() override
    {
        for (const TypeId& coupling : {RudpLia::GetTypeId(), RudpCmtUncoupled::GetTypeId()})
        {
            const double ratio =
                SharedBottleneckRatio(coupling, RudpMultipathBottleneckHelper::DEFAULT_QUEUE, 0, 1);
            NS_LOG_UNCOND(GetName() << ": " << coupling.GetName() << " " << ratio);
            NS_TEST_EXPECT_MSG_GT(ratio, 1.6, coupling.GetName() << ": two flows' shares");
            NS_TEST_EXPECT_MSG_LT(ratio, 2.6, coupling.GetName() << ": two flows' shares");
        }
    }
};

/**
 * RFC 6356's goal 3, balance congestion: of two paths through bottlenecks
 * of their own, one shared with three TCP flows and one with none, LIA and
 * OLIA send most bytes on the uncongested path, more of them than uncoupled
 * paths do.
 */
class RudpCmtGoalBalanceTestCase : public TestCase
{
  public:
    RudpCmtGoalBalanceTestCase()
        : TestCase("goal 3, balance congestion: LIA and OLIA move off the congested path")
    {
    }

  private:
    /// \return the share of the bytes the association sent on the congested path
    static double CongestedShare(TypeId coupling)
    {
        RudpMultipathBottleneckHelper network;
        network.AddBottleneck(RATE, DELAY, RudpMultipathBottleneckHelper::RED);
        network.AddBottleneck(RATE, DELAY, RudpMultipathBottleneckHelper::RED);
        network.AddPath(0);
        network.AddPath(1);
        network.AddTcpFlows(0, 3);
        network.SetAccessJitter(ACCESS_JITTER);
        return RunGoal(network, coupling, 1, Seconds(30), Seconds(100)).PathShare(0);
    }

    void DoRun() override
    {
        const double uncoupled = CongestedShare(RudpCmtUncoupled::GetTypeId());
        for (const TypeId& coupling : {RudpLia::GetTypeId(), RudpOlia::GetTypeId()})
        {
            const double share = CongestedShare(coupling);
            NS_LOG_UNCOND(GetName() << ": " << coupling.GetName() << " " << share
                                    << " on the congested path, uncoupled " << uncoupled);
            NS_TEST_EXPECT_MSG_LT(share, 0.2, coupling.GetName() << " stays on the congested path");
            NS_TEST_EXPECT_MSG_LT(share, uncoupled, coupling.GetName() << " balances no better");
        }
    }
};

/**
 * RFC 6356's goal 1, improve throughput: two paths through bottlenecks of
 * their own, each shared with one TCP flow, give LIA and OLIA at least
 * about what a TCP flow gets on one of them.
 */
class RudpCmtGoalImproveTestCase : public TestCase
{
  public:
    RudpCmtGoalImproveTestCase()
        : TestCase("goal 1, improve throughput: at least a TCP flow's share of the best path")
    {
    }

  private:
    void DoRun() override
    {
        for (const TypeId& coupling : {RudpLia::GetTypeId(), RudpOlia::GetTypeId()})
        {
            RudpMultipathBottleneckHelper network;
            network.AddBottleneck(RATE, DELAY, RudpMultipathBottleneckHelper::RED);
            network.AddBottleneck(RATE, DELAY, RudpMultipathBottleneckHelper::RED);
            network.AddPath(0);
            network.AddPath(1);
            network.AddTcpFlows(0, 1);
            network.AddTcpFlows(1, 1);
            network.SetAccessJitter(ACCESS_JITTER);
            const GoalRun run = RunGoal(network, coupling, 1, Seconds(30), Seconds(100));
            const double best = std::max(run.tcp.at(0), run.tcp.at(1));
            NS_LOG_UNCOND(GetName() << ": " << coupling.GetName() << " " << run.association
                                    << " Mbit/s, the TCP flows " << run.tcp.at(0) << " and "
                                    << run.tcp.at(1));
            NS_TEST_EXPECT_MSG_GT_OR_EQ(run.association,
                                        0.9 * best,
                                        coupling.GetName() << " gains nothing from two paths");
        }
    }
};

/**
 * The goals at a glance (goal 1, goal 3, ns-3's default queue); goal 2 has a
 * suite of its own, rudp-cmt-do-no-harm, so that CTest runs the two side by
 * side.
 */
class RudpCmtGoalsTestSuite : public TestSuite
{
  public:
    RudpCmtGoalsTestSuite()
        : TestSuite("rudp-cmt-goals")
    {
        AddTestCase(new RudpCmtGoalFairQueueTestCase, RUDP_TEST_EXTENSIVE);
        AddTestCase(new RudpCmtGoalImproveTestCase, RUDP_TEST_EXTENSIVE);
        AddTestCase(new RudpCmtGoalBalanceTestCase, RUDP_TEST_EXTENSIVE);
    }
};

/// RFC 6356's goal 2 beside one TcpNewReno flow, behind a drop-tail FIFO of one BDP and RED.
class RudpCmtDoNoHarmTestSuite : public TestSuite
{
  public:
    RudpCmtDoNoHarmTestSuite()
        : TestSuite("rudp-cmt-do-no-harm")
    {
        using Helper = RudpMultipathBottleneckHelper;
        AddTestCase(new RudpCmtGoalDoNoHarmTestCase(Helper::FIFO, 40), RUDP_TEST_EXTENSIVE);
        AddTestCase(new RudpCmtGoalDoNoHarmTestCase(Helper::RED, 0), RUDP_TEST_EXTENSIVE);
    }
};

/**
 * RFC 6356's goal 2 beside three standards-track SACK TCP flows behind RED,
 * a suite of its own so that CTest runs it beside rudp-cmt-do-no-harm.
 */
class RudpCmtDoNoHarmThreeTestSuite : public TestSuite
{
  public:
    RudpCmtDoNoHarmThreeTestSuite()
        : TestSuite("rudp-cmt-do-no-harm-three")
    {
        using Helper = RudpMultipathBottleneckHelper;
        AddTestCase(new RudpCmtGoalDoNoHarmTestCase(Helper::RED, 0, 3, true), RUDP_TEST_EXTENSIVE);
    }
};

/**
 * RFC 6356's goal 2 beside three standards-track SACK TCP flows behind a
 * drop-tail FIFO of one BDP, where the overflows come in bursts: OLIA (with
 * TCP's window rule, RudpCmtCoupling::MayOvershootWindow) and CMT/RPv2,
 * whose cut is coupled (a path gives up half the association's rate). LIA,
 * whose coupled increase grows with the paths' imbalance, takes more there
 * (doc/multipath.rst, bench/coupling_losses.py). A suite of its own so that
 * CTest runs it beside the others.
 */
class RudpCmtDoNoHarmDropTailTestSuite : public TestSuite
{
  public:
    RudpCmtDoNoHarmDropTailTestSuite()
        : TestSuite("rudp-cmt-do-no-harm-drop-tail")
    {
        using Helper = RudpMultipathBottleneckHelper;
        AddTestCase(new RudpCmtGoalDoNoHarmTestCase(Helper::FIFO, 40, 3, true, {"olia", "rpv2"}),
                    RUDP_TEST_EXTENSIVE);
    }
};

/// The suites' one instance each.
static RudpCmtGoalsTestSuite g_rudpCmtGoalsTestSuite;
/// \copydoc g_rudpCmtGoalsTestSuite
static RudpCmtDoNoHarmTestSuite g_rudpCmtDoNoHarmTestSuite;
/// \copydoc g_rudpCmtGoalsTestSuite
static RudpCmtDoNoHarmThreeTestSuite g_rudpCmtDoNoHarmThreeTestSuite;
/// \copydoc g_rudpCmtGoalsTestSuite
static RudpCmtDoNoHarmDropTailTestSuite g_rudpCmtDoNoHarmDropTailTestSuite;

} // namespace
