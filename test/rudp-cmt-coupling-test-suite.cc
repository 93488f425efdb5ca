/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-test-harness.h"

#include "ns3/test.h"

#include <functional>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * Coupled congestion control of the CMT association (RudpCmtCoupling):
 * each coupling's increase and cut against its published formula, and
 * associations over two lossy disjoint paths against one path's.
 */

using namespace ns3;
using namespace ns3::rudptest;

namespace
{

const uint32_t MSS = 1000;

/// \return a path of \p segments MSS and an RTT of \p rttMs, \p lossBytes between losses
RudpCmtCoupling::Path
PathOf(uint32_t segments, uint32_t rttMs, uint64_t lossBytes = 0)
{
    RudpCmtCoupling::Path path;
    path.cwnd = segments * MSS;
    path.rtt = MilliSeconds(rttMs);
    path.bytesBetweenLosses = lossBytes;
    return path;
}

/// \return a coupling of type \p name
Ptr<RudpCmtCoupling>
Make(const std::string& name)
{
    ObjectFactory factory;
    factory.SetTypeId(name);
    return factory.Create<RudpCmtCoupling>();
}

} // namespace

/**
 * \ingroup rudp-test
 * On one path every coupling is CMT's own rule: one MSS per window, half the
 * window on a loss (RFC 6356's goal 1 and OLIA's design: a single path
 * behaves as TCP).
 */
class RudpCmtCouplingOnePathTest : public TestCase
{
  public:
    RudpCmtCouplingOnePathTest()
        : TestCase("on one path every coupling grows one MSS a window and halves on a loss")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<RudpCmtCoupling::Path> one{PathOf(20, 100, 50000)};
        for (const std::string name : {"ns3::RudpCmtUncoupled",
                                       "ns3::RudpLia",
                                       "ns3::RudpOlia",
                                       "ns3::RudpBalia",
                                       "ns3::RudpCmtRpv2"})
        {
            Ptr<RudpCmtCoupling> coupling = Make(name);
            NS_TEST_ASSERT_MSG_EQ(coupling->AvoidanceIncrease(one, 0, MSS, 1.0), MSS, name);
            NS_TEST_ASSERT_MSG_EQ(coupling->SlowStartIncrease(one, 0, 1500, MSS), MSS, name);
            NS_TEST_ASSERT_MSG_EQ_TOL(coupling->LossReduction(one, 0, 0.5), 0.5, 1e-12, name);
            NS_TEST_ASSERT_MSG_EQ_TOL(coupling->TimeoutReduction(one, 0), 0.5, 1e-12, name);
        }
        // The seed's alpha belongs to CMT's own rule.
        NS_TEST_ASSERT_MSG_EQ(Make("ns3::RudpCmtUncoupled")->AvoidanceIncrease(one, 0, MSS, 2.0),
                              2 * MSS,
                              "alpha 2");
    }
};

/**
 * \ingroup rudp-test
 * Two paths: each coupling's increase and cut from its formula.
 */
class RudpCmtCouplingFormulaTest : public TestCase
{
  public:
    RudpCmtCouplingFormulaTest()
        : TestCase("LIA, OLIA, Balia and CMT-RPv2 on two paths follow their formulas")
    {
    }

  private:
    void DoRun() override
    {
        // Two equal paths: RFC 6356's a = 2w * (w / rtt^2) / (2w / rtt)^2 = 1/2,
        // so each grows min(a w / 2w, 1) = 1/4 MSS a window; OLIA's first
        // term is (w / rtt)^2 / (2w / rtt)^2 = 1/4, its shift 0 (no best
        // path without the largest window).
        const std::vector<RudpCmtCoupling::Path> equal{PathOf(10, 100, 9000),
                                                       PathOf(10, 100, 9000)};
        NS_TEST_ASSERT_MSG_EQ_TOL(RudpLia::Aggressiveness(equal), 0.5, 1e-12, "LIA's a");
        NS_TEST_ASSERT_MSG_EQ(Make("ns3::RudpLia")->AvoidanceIncrease(equal, 0, MSS, 1.0),
                              MSS / 4,
                              "LIA");
        NS_TEST_ASSERT_MSG_EQ(Make("ns3::RudpOlia")->AvoidanceIncrease(equal, 1, MSS, 1.0),
                              MSS / 4,
                              "OLIA");
        NS_TEST_ASSERT_MSG_EQ(Make("ns3::RudpBalia")->AvoidanceIncrease(equal, 0, MSS, 1.0),
                              MSS / 4,
                              "Balia: a_r = 1, as OLIA's first term");
        NS_TEST_ASSERT_MSG_EQ(Make("ns3::RudpCmtUncoupled")->AvoidanceIncrease(equal, 1, MSS, 1.0),
                              MSS,
                              "uncoupled: one MSS each");

        // Path 0 has the larger window (20 MSS), path 1 fewer losses (the
        // best path, not in M): OLIA moves window from 0 to 1, a_0 = -1/2,
        // a_1 = +1/2; (20/30)^2 - 1/2 = -0.0556 MSS, (10/30)^2 + 1/2 = 0.6111.
        const std::vector<RudpCmtCoupling::Path> apart{PathOf(20, 100, 5000),
                                                       PathOf(10, 100, 40000)};
        NS_TEST_ASSERT_MSG_EQ_TOL(RudpOlia::Shift(apart, 0), -0.5, 1e-12, "a_0");
        NS_TEST_ASSERT_MSG_EQ_TOL(RudpOlia::Shift(apart, 1), 0.5, 1e-12, "a_1");
        Ptr<RudpCmtCoupling> olia = Make("ns3::RudpOlia");
        NS_TEST_ASSERT_MSG_EQ(olia->AvoidanceIncrease(apart, 0, MSS, 1.0), -56, "OLIA shrinks 0");
        NS_TEST_ASSERT_MSG_EQ(olia->AvoidanceIncrease(apart, 1, MSS, 1.0), 611, "OLIA grows 1");
        // LIA there: a = 30 * (20 / 0.01) / (300)^2 = 2/3; path 0 gets
        // min(2/3 * 20/30, 1) = 4/9 MSS, path 1 2/9.
        Ptr<RudpCmtCoupling> lia = Make("ns3::RudpLia");
        NS_TEST_ASSERT_MSG_EQ(lia->AvoidanceIncrease(apart, 0, MSS, 1.0), 444, "LIA on 0");
        NS_TEST_ASSERT_MSG_EQ(lia->AvoidanceIncrease(apart, 1, MSS, 1.0), 222, "LIA on 1");
        // A shorter RTT counts: LIA's a takes the best cwnd / rtt^2.
        const std::vector<RudpCmtCoupling::Path> rtts{PathOf(10, 50), PathOf(10, 200)};
        NS_TEST_ASSERT_MSG_EQ_TOL(RudpLia::Aggressiveness(rtts),
                                  20.0 * (10 / 0.0025) / ((200.0 + 50) * (200.0 + 50)),
                                  1e-9,
                                  "LIA's a, unequal RTTs");

        // Balia there: rates 2/3 and 1/3 of the whole, a_0 = 1 and a_1 = 2;
        // path 0 grows (2/3)^2 MSS a window and halves on a loss, path 1
        // (1/3)^2 (3/2) (6/5) = 1/5 MSS and gives up min(2, 1.5) / 2 = 3/4.
        Ptr<RudpCmtCoupling> balia = Make("ns3::RudpBalia");
        NS_TEST_ASSERT_MSG_EQ_TOL(RudpBalia::RateRatio(apart, 0), 1.0, 1e-12, "Balia's a_0");
        NS_TEST_ASSERT_MSG_EQ_TOL(RudpBalia::RateRatio(apart, 1), 2.0, 1e-12, "Balia's a_1");
        NS_TEST_ASSERT_MSG_EQ(balia->AvoidanceIncrease(apart, 0, MSS, 1.0), 444, "Balia on 0");
        NS_TEST_ASSERT_MSG_EQ(balia->AvoidanceIncrease(apart, 1, MSS, 1.0), 200, "Balia on 1");
        NS_TEST_ASSERT_MSG_EQ_TOL(balia->LossReduction(apart, 0, 0.5), 0.5, 1e-12, "Balia cut 0");
        NS_TEST_ASSERT_MSG_EQ_TOL(balia->LossReduction(apart, 1, 0.5), 0.75, 1e-12, "Balia cut 1");
        const std::vector<RudpCmtCoupling::Path> slow{PathOf(20, 100), PathOf(2, 100)};
        NS_TEST_ASSERT_MSG_EQ_TOL(balia->LossReduction(slow, 1, 0.5),
                                  0.75,
                                  1e-12,
                                  "Balia's cut: at most 3/4 however slow the path");
        NS_TEST_ASSERT_MSG_EQ_TOL(balia->LossReduction(slow, 1, 0.8),
                                  1.0,
                                  1e-12,
                                  "never more than the window");

        // CMT/RPv2: shares of the rate 2/3 and 1/3; a loss on the larger path
        // gives up half the association's rate, 3/4 of its window; on the
        // smaller, everything down to the 2-MSS floor.
        Ptr<RudpCmtCoupling> rpv2 = Make("ns3::RudpCmtRpv2");
        NS_TEST_ASSERT_MSG_EQ(rpv2->AvoidanceIncrease(apart, 0, MSS, 1.0), 667, "RPv2 on 0");
        NS_TEST_ASSERT_MSG_EQ(rpv2->AvoidanceIncrease(apart, 1, MSS, 1.0), 334, "RPv2 on 1");
        NS_TEST_ASSERT_MSG_EQ(rpv2->SlowStartIncrease(apart, 1, 1500, MSS), 334, "RPv2 slow start");
        NS_TEST_ASSERT_MSG_EQ_TOL(rpv2->LossReduction(apart, 0, 0.5), 0.75, 1e-12, "RPv2 cut");
        NS_TEST_ASSERT_MSG_EQ_TOL(rpv2->LossReduction(apart, 1, 0.5), 1.0, 1e-12, "RPv2 cut");
        NS_TEST_ASSERT_MSG_EQ_TOL(rpv2->TimeoutReduction(apart, 0), 0.75, 1e-12, "RPv2 timeout");
    }
};

/**
 * \ingroup rudp-test
 * Over two disjoint paths with 0.3 % random loss each, CMT's own rule takes
 * about twice what one path takes; a coupled association takes about what
 * one path takes, at least as much (RFC 6356's goal 1, "improve
 * throughput") and not much more (goal 2, "do no harm": a single-path flow
 * on either path would meet it alone). Measured here (ns-3.44): uncoupled
 * 2.06 x one path, LIA 1.10, OLIA 1.01, Balia 1.05, CMT/RPv2 1.15; above 1
 * because slow start after a timeout is each path's own (RFC 6356 couples
 * congestion avoidance only).
 */
class RudpCmtCouplingTwoPathsTest : public TestCase
{
  public:
    RudpCmtCouplingTwoPathsTest()
        : TestCase("two lossy paths: uncoupled about twice one path, coupled about one path")
    {
    }

  private:
    /// \return the goodput (bytes delivered in order) of \p paths paths with \p coupling
    static uint64_t Delivered(uint32_t paths, const std::string& coupling)
    {
        const CmtScenario::Path path{MilliSeconds(50), 0.003};
        CmtScenario cmt(std::vector<CmtScenario::Path>(paths, path), 1u << 28, MSS, false);
        cmt.Helper().SetSenderAttribute("Coupling", TypeIdValue(TypeId::LookupByName(coupling)));
        cmt.Run(Seconds(240));
        return cmt.Receiver()->GetStats().deliveredBytes;
    }

    void DoRun() override
    {
        const double one = Delivered(1, "ns3::RudpCmtUncoupled");
        const double uncoupled = Delivered(2, "ns3::RudpCmtUncoupled");
        NS_LOG_UNCOND("two lossy paths, uncoupled: x" << uncoupled / one << " one path");
        NS_TEST_EXPECT_MSG_GT(uncoupled / one, 1.6, "uncoupled: each path a flow of its own");
        for (const std::string name :
             {"ns3::RudpLia", "ns3::RudpOlia", "ns3::RudpBalia", "ns3::RudpCmtRpv2"})
        {
            const double coupled = Delivered(2, name) / one;
            NS_LOG_UNCOND("two lossy paths, " << name << ": x" << coupled << " one path");
            NS_TEST_EXPECT_MSG_GT(coupled, 0.85, name << ": at least about one path's");
            NS_TEST_EXPECT_MSG_LT(coupled, 1.4, name << ": not much more than one path's");
        }
    }
};

/**
 * \brief Runs an association of two paths for 2 s with each coupling and
 * hands \p check each of its paths, with whether the coupling keeps SCTP's
 * window rules (uncoupled CMT, CMT/RPv2) or takes TCP's (LIA, OLIA, Balia).
 * \param check called with the coupling's TypeId name, the rule and a path
 */
void
ForEachCouplingsPath(const std::function<void(const std::string&, bool, Ptr<RudpCmtPath>)>& check)
{
    for (const auto& [name, sctp] :
         std::vector<std::pair<std::string, bool>>{{"ns3::RudpCmtUncoupled", true},
                                                   {"ns3::RudpCmtRpv2", true},
                                                   {"ns3::RudpLia", false},
                                                   {"ns3::RudpOlia", false},
                                                   {"ns3::RudpBalia", false}})
    {
        CmtScenario cmt({{MilliSeconds(20)}, {MilliSeconds(30)}}, 1u << 20, MSS, false);
        cmt.Helper().SetSenderAttribute("Coupling", TypeIdValue(TypeId::LookupByName(name)));
        cmt.Run(Seconds(2));
        for (const Ptr<RudpCmtPath>& path : cmt.Sender()->GetPaths())
        {
            check(name, sctp, path);
        }
    }
}

/**
 * \ingroup rudp-test
 * A window just cut to its ssthresh: SCTP's rule (RFC 4960 7.2.1, cwnd <=
 * ssthresh) grows it once more in slow start, one MSS on the next SACK;
 * TCP's (RFC 5681, cwnd < ssthresh), which LIA and OLIA assume, leaves it to
 * congestion avoidance, the coupled increase after a window. The sender
 * gives its paths the coupling's rule; uncoupled CMT and CMT/RPv2 keep
 * SCTP's (and ns-2's). With SCTP's rule everywhere, LIA and OLIA took 1.34
 * and 1.33 times a TCP flow at a shared drop-tail bottleneck (doc/multipath.rst).
 */
class RudpCmtCouplingSlowStartRuleTest : public TestCase
{
  public:
    RudpCmtCouplingSlowStartRuleTest()
        : TestCase("cwnd = ssthresh: slow start for SCTP's couplings, congestion avoidance for "
                   "LIA and OLIA")
    {
    }

  private:
    /// \return the window of a path cut to 10 MSS after one SACK of one MSS, under \p rule
    static uint32_t AfterOneSack(bool slowStartAtThreshold)
    {
        Ptr<RudpCmtPath> path = CreateObject<RudpCmtPath>();
        path->Open(MSS, 20, 1u << 20);
        path->SetSlowStartAtThreshold(slowStartAtThreshold);
        path->Reduce(0.5);
        const uint32_t cwnd = path->GetState()->m_cWnd.Get();
        path->Grow(MSS, cwnd, MSS, MSS);
        const uint32_t grown = path->GetState()->m_cWnd.Get();
        path->Dispose();
        return grown;
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(AfterOneSack(true), 11 * MSS, "SCTP: one more MSS in slow start");
        NS_TEST_ASSERT_MSG_EQ(AfterOneSack(false), 10 * MSS, "TCP: congestion avoidance");
        ForEachCouplingsPath([this](const std::string& name, bool sctp, Ptr<RudpCmtPath> path) {
            const Ptr<RudpSenderState> state = path->GetState();
            state->m_cWnd = state->m_ssThresh.Get();
            NS_TEST_EXPECT_MSG_EQ(path->InSlowStart(), sctp, name << ": the path's rule");
        });
    }
};

/**
 * \ingroup rudp-test
 * A window of 10.5 segments with 10 outstanding: SCTP's rule (RFC 4960 and
 * 9260 6.1 B) sends one more packet, past cwnd by half a segment, and counts
 * the window used only at cwnd outstanding; TCP's (RFC 5681), which LIA and
 * OLIA assume, sends none, and the window is used once no segment fits.
 * The sender gives its paths the coupling's rule; uncoupled CMT and
 * CMT/RPv2 keep SCTP's (and ns-2's). With SCTP's rule, each path of two
 * sharing a drop-tail bottleneck with three TCP flows kept about half a
 * segment more outstanding than its window, and LIA and OLIA took 1.48 and
 * 1.37 times a TCP flow (doc/multipath.rst).
 */
class RudpCmtCouplingWindowRuleTest : public TestCase
{
  public:
    RudpCmtCouplingWindowRuleTest()
        : TestCase("a packet past cwnd: sent for SCTP's couplings, held for LIA and OLIA")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t cwnd = 21 * MSS / 2;
        const uint32_t flight = 10 * MSS;
        for (const bool sctp : {true, false})
        {
            Ptr<RudpCmtPath> path = CreateObject<RudpCmtPath>();
            path->Open(MSS, 1, 1u << 20);
            path->SetMayOvershootWindow(sctp);
            path->GetState()->m_cWnd = cwnd;
            const std::string rule = sctp ? "SCTP's rule" : "TCP's rule";
            const bool oneMore = path->WindowFor(flight, MSS) >= flight + MSS;
            NS_TEST_EXPECT_MSG_EQ(oneMore, sctp, rule << ": one more segment");
            NS_TEST_EXPECT_MSG_EQ(path->WindowFor(cwnd - 100, 100),
                                  cwnd,
                                  rule << ": a packet that fits");
            const bool pastCwnd = path->WindowFor(cwnd, 1) >= cwnd + 1;
            NS_TEST_EXPECT_MSG_EQ(pastCwnd, false, rule << ": nothing once cwnd is outstanding");
            NS_TEST_EXPECT_MSG_EQ(path->FullyUtilised(flight), !sctp, rule << ": window used");
            NS_TEST_EXPECT_MSG_EQ(path->FullyUtilised(flight - MSS),
                                  false,
                                  rule << ": room for a segment");
            path->Dispose();
        }
        ForEachCouplingsPath(
            [this, cwnd, flight](const std::string& name, bool sctp, Ptr<RudpCmtPath> path) {
                path->GetState()->m_cWnd = cwnd;
                const bool oneMore = path->WindowFor(flight, MSS) >= flight + MSS;
                NS_TEST_EXPECT_MSG_EQ(oneMore, sctp, name << ": the path's rule");
            });
    }
};

/**
 * \ingroup rudp-test
 * \brief Coupled congestion control of the CMT association.
 */
class RudpCmtCouplingTestSuite : public TestSuite
{
  public:
    RudpCmtCouplingTestSuite()
        : TestSuite("rudp-cmt-coupling")
    {
        AddTestCase(new RudpCmtCouplingOnePathTest);
        AddTestCase(new RudpCmtCouplingFormulaTest);
        AddTestCase(new RudpCmtCouplingTwoPathsTest);
        AddTestCase(new RudpCmtCouplingSlowStartRuleTest);
        AddTestCase(new RudpCmtCouplingWindowRuleTest);
    }
};

/// The suite's one instance.
static RudpCmtCouplingTestSuite g_rudpCmtCouplingTestSuite;
