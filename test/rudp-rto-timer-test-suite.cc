/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/rudp-cmt-path.h"
#include "ns3/rudp-deadline.h"
#include "ns3/rudp-rto-timer.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <memory>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * RudpRtoTimer, the retransmission timer of RudpSocket and of each
 * RudpCmtPath: RFC 6298's timeout, one backoff rule, the lazy restart.
 */

using namespace ns3;

namespace
{

/// Records when a timer expired and the RTO trace's values.
class TimerLog
{
  public:
    /// Connects to \p timer.
    explicit TimerLog(Ptr<RudpRtoTimer> timer)
    {
        timer->SetExpiryCallback(MakeCallback(&TimerLog::Expired, this));
        timer->TraceConnectWithoutContext("RTO", MakeCallback(&TimerLog::Rto, this));
    }

    /// \return when the timer expired
    const std::vector<Time>& Expiries() const
    {
        return m_expiries;
    }

    /// \return the RTO trace's new values
    const std::vector<Time>& Rtos() const
    {
        return m_rtos;
    }

  private:
    void Expired()
    {
        m_expiries.push_back(Simulator::Now());
    }

    void Rto(Time /* oldValue */, Time newValue)
    {
        m_rtos.push_back(newValue);
    }

    std::vector<Time> m_expiries;
    std::vector<Time> m_rtos;
};

} // namespace

/// RFC 6298's computation, in both modes.
class RudpRtoTimerComputationTest : public TestCase
{
  public:
    RudpRtoTimerComputationTest()
        : TestCase("RTO: fixed stays put; adaptive is the initial RTO, then "
                   "max(MinRto, SRTT + max(1 ms, 4 RTTVAR)), at most MaxRto")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpRtoTimer> fixed = CreateObject<RudpRtoTimer>();
        fixed->Configure(RudpRtoTimer::FIXED,
                         Seconds(2),
                         Seconds(5),
                         Seconds(1),
                         "ns3::Test"); // a fixed RTO has no bounds to check
        fixed->Sample(MilliSeconds(100));
        fixed->Backoff();
        NS_TEST_EXPECT_MSG_EQ(fixed->GetRto(), Seconds(2), "fixed: samples and backoff ignored");
        NS_TEST_EXPECT_MSG_EQ(fixed->GetBackoff(), 1, "no backoff");
        NS_TEST_EXPECT_MSG_EQ(fixed->GetRttEstimator()->GetNSamples(),
                              1,
                              "the estimate is kept all the same");

        Ptr<RudpRtoTimer> adaptive = CreateObject<RudpRtoTimer>();
        adaptive->Configure(RudpRtoTimer::ADAPTIVE,
                            Seconds(3),
                            MilliSeconds(10),
                            Seconds(60),
                            "ns3::Test");
        NS_TEST_EXPECT_MSG_EQ(adaptive->GetRto(), Seconds(3), "before the first sample");
        // First sample R: SRTT = R, RTTVAR = R/2 (RFC 6298 2.2).
        adaptive->Sample(MilliSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(adaptive->GetRto(), MilliSeconds(300), "R + 4 R/2");
        // Second sample R': RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R'|, SRTT = 7/8 SRTT + 1/8 R'.
        adaptive->Sample(MilliSeconds(200));
        const double srtt = 0.875 * 0.1 + 0.125 * 0.2;
        const double rttvar = 0.75 * 0.05 + 0.25 * 0.1;
        NS_TEST_EXPECT_MSG_EQ_TOL(adaptive->GetRto().GetSeconds(),
                                  srtt + 4 * rttvar,
                                  1e-6,
                                  "SRTT + 4 RTTVAR");
        for (int i = 0; i < 50; ++i)
        {
            adaptive->Sample(MilliSeconds(1));
        }
        NS_TEST_EXPECT_MSG_EQ(adaptive->GetRto(), MilliSeconds(10), "never below MinRto");

        Ptr<RudpRtoTimer> steady = CreateObject<RudpRtoTimer>();
        steady->Configure(RudpRtoTimer::ADAPTIVE,
                          Seconds(1),
                          MilliSeconds(1),
                          Seconds(60),
                          "ns3::Test");
        for (int i = 0; i < 200; ++i)
        {
            steady->Sample(MilliSeconds(50));
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(steady->GetRto().GetSeconds(),
                                  0.051,
                                  1e-4,
                                  "constant samples: SRTT plus the 1 ms clock granularity");
    }
};

/// One backoff rule for the socket and the multipath paths alike.
class RudpRtoTimerBackoffTest : public TestCase
{
  public:
    RudpRtoTimerBackoffTest()
        : TestCase("Backoff doubles the RTO after each timeout until it reaches MaxRto, "
                   "whatever the base; a new ACK resets it")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpRtoTimer> timer = CreateObject<RudpRtoTimer>();
        timer->Configure(RudpRtoTimer::ADAPTIVE,
                         MilliSeconds(1),
                         MilliSeconds(1),
                         Seconds(60),
                         "ns3::Test");
        Time expected = MilliSeconds(1);
        for (int timeouts = 1; timeouts <= 15; ++timeouts)
        {
            timer->Backoff();
            expected = expected * 2;
            NS_TEST_EXPECT_MSG_EQ(timer->GetRto(), expected, "doubled, timeout " << timeouts);
        }
        // 2^15 ms = 32.768 s; twice that exceeds MaxRto: capped there.
        timer->Backoff();
        NS_TEST_EXPECT_MSG_EQ(timer->GetRto(), Seconds(60), "capped at MaxRto");
        const uint32_t atCap = timer->GetBackoff();
        for (int i = 0; i < 100; ++i)
        {
            timer->Backoff();
        }
        NS_TEST_EXPECT_MSG_EQ(timer->GetBackoff(), atCap, "no doubling past MaxRto");
        NS_TEST_EXPECT_MSG_EQ(timer->GetRto(), Seconds(60), "still MaxRto");
        timer->ResetBackoff();
        NS_TEST_EXPECT_MSG_EQ(timer->GetRto(), MilliSeconds(1), "reset by new data");
    }
};

/// The lazy restart: one event, re-armed, and the callback only at the deadline.
class RudpRtoTimerRestartTest : public TestCase
{
  public:
    RudpRtoTimerRestartTest()
        : TestCase("Restart moves the deadline; the timer expires once, at the latest deadline; "
                   "Cancel stops it; RTO is traced at restarts and samples")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpRtoTimer> timer = CreateObject<RudpRtoTimer>();
        timer->Configure(RudpRtoTimer::ADAPTIVE,
                         Seconds(1),
                         MilliSeconds(100),
                         Seconds(60),
                         "ns3::Test");
        TimerLog log(timer);
        Simulator::Schedule(Seconds(0), &RudpRtoTimer::Restart, timer);
        Simulator::Schedule(MilliSeconds(500), &RudpRtoTimer::Restart, timer); // later deadline
        Simulator::Schedule(MilliSeconds(700), &RudpRtoTimer::Restart, timer); // later again
        // Expires at 1.7 s. Then: a restart with a long RTO, and a sample
        // that shortens it: the restart after it must not wait for the old event.
        Simulator::Schedule(Seconds(2), &RudpRtoTimer::Restart, timer); // due at 3 s
        Simulator::Schedule(Seconds(2.1), &RudpRtoTimer::Sample, timer, MilliSeconds(50));
        Simulator::Schedule(Seconds(2.2), &RudpRtoTimer::Restart, timer); // due at 2.35 s
        Simulator::Schedule(Seconds(5), &RudpRtoTimer::Restart, timer);
        Simulator::Schedule(Seconds(5.1), &RudpRtoTimer::Cancel, timer);
        Simulator::Run();
        Simulator::Destroy();

        const std::vector<Time> expected{MilliSeconds(1700), MilliSeconds(2350)};
        NS_TEST_ASSERT_MSG_EQ(log.Expiries().size(), expected.size(), "expiries");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(log.Expiries()[i], expected[i], "expiry " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(log.Rtos().size(), 2, "traced when it changed");
        NS_TEST_EXPECT_MSG_EQ(log.Rtos()[0], Seconds(1), "the initial RTO at the first restart");
        NS_TEST_EXPECT_MSG_EQ(log.Rtos()[1], MilliSeconds(150), "the sample's RTO");
    }
};

/// RudpDeadline on its own: moves and stops that leave the pending event in place.
class RudpDeadlineTest : public TestCase
{
  public:
    RudpDeadlineTest()
        : TestCase("RudpDeadline: one started again after Cancel expires at its new deadline, "
                   "later or earlier; a cancelled one never expires; one destroyed with its "
                   "event pending is not called")
    {
    }

  private:
    void DoRun() override
    {
        RudpDeadline timer;
        timer.SetFunction(MakeCallback(&RudpDeadlineTest::Expired, this));
        // Stopped and started again later: the pending event (1 s) is early.
        Simulator::Schedule(Seconds(0), &RudpDeadline::Set, &timer, Seconds(1));
        Simulator::Schedule(Seconds(0.5), &RudpDeadline::Cancel, &timer);
        Simulator::Schedule(Seconds(0.6), &RudpDeadline::Set, &timer, Seconds(1)); // 1.6 s
        Simulator::Schedule(Seconds(1.2), &RudpDeadlineTest::Probe, this, &timer);
        // Stopped for good: its event runs at 4 s and must not call.
        Simulator::Schedule(Seconds(3), &RudpDeadline::Set, &timer, Seconds(1));
        Simulator::Schedule(Seconds(3.2), &RudpDeadline::Cancel, &timer);
        Simulator::Schedule(Seconds(3.3), &RudpDeadlineTest::Probe, this, &timer);
        // Stopped and started again earlier: the pending event (7 s) is late.
        Simulator::Schedule(Seconds(5), &RudpDeadline::Set, &timer, Seconds(2));
        Simulator::Schedule(Seconds(5.1), &RudpDeadline::Cancel, &timer);
        Simulator::Schedule(Seconds(5.2), &RudpDeadline::Set, &timer, Seconds(0.5)); // 5.7 s
        Simulator::Schedule(Seconds(5.8), &RudpDeadlineTest::Probe, this, &timer);
        // Destroyed while its event is pending.
        m_doomed = std::make_unique<RudpDeadline>();
        m_doomed->SetFunction(MakeCallback(&RudpDeadlineTest::Expired, this));
        Simulator::Schedule(Seconds(10), &RudpDeadline::Set, m_doomed.get(), Seconds(1));
        Simulator::Schedule(Seconds(10.5), &RudpDeadlineTest::Destroy, this);
        Simulator::Run();
        Simulator::Destroy();

        const std::vector<Time> expected{Seconds(1.6), Seconds(5.7)};
        NS_TEST_ASSERT_MSG_EQ(m_expiries.size(), expected.size(), "expiries");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_expiries[i], expected[i], "expiry " << i);
        }
        const std::vector<bool> running{true, false, false};
        NS_TEST_ASSERT_MSG_EQ(m_running.size(), running.size(), "probes");
        for (size_t i = 0; i < running.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_running[i], running[i], "IsRunning at probe " << i);
        }
    }

    void Expired()
    {
        m_expiries.push_back(Simulator::Now());
    }

    void Probe(const RudpDeadline* timer)
    {
        m_running.push_back(timer->IsRunning());
    }

    void Destroy()
    {
        m_doomed.reset();
    }

    std::vector<Time> m_expiries;
    std::vector<bool> m_running;
    std::unique_ptr<RudpDeadline> m_doomed;
};

/// Each multipath path traces its own RTO.
class RudpCmtPathRtoTraceTest : public TestCase
{
  public:
    RudpCmtPathRtoTraceTest()
        : TestCase("A RudpCmtPath has an RTO trace, its timer's")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpCmtPath> path = CreateObject<RudpCmtPath>();
        path->TraceConnectWithoutContext("RTO", MakeCallback(&RudpCmtPathRtoTraceTest::Rto, this));
        path->GetRtoTimer()->Configure(RudpRtoTimer::ADAPTIVE,
                                       Seconds(1),
                                       MilliSeconds(10),
                                       Seconds(60),
                                       "ns3::Test");
        path->GetRtoTimer()->Sample(MilliSeconds(100));
        NS_TEST_ASSERT_MSG_EQ(m_rtos.size(), 1, "traced");
        NS_TEST_EXPECT_MSG_EQ(m_rtos[0], MilliSeconds(300), "the path's RTO");
        NS_TEST_EXPECT_MSG_EQ(path->GetRttEstimator()->GetNSamples(), 1, "the path's estimator");
        path->Dispose();
    }

    void Rto(Time /* oldValue */, Time newValue)
    {
        m_rtos.push_back(newValue);
    }

    std::vector<Time> m_rtos;
};

/// \ingroup rudp-test
/// Retransmission timer test suite.
class RudpRtoTimerTestSuite : public TestSuite
{
  public:
    RudpRtoTimerTestSuite()
        : TestSuite("rudp-rto-timer")
    {
        AddTestCase(new RudpRtoTimerComputationTest);
        AddTestCase(new RudpRtoTimerBackoffTest);
        AddTestCase(new RudpRtoTimerRestartTest);
        AddTestCase(new RudpDeadlineTest);
        AddTestCase(new RudpCmtPathRtoTraceTest);
    }
};

/// Static instance registering the suite.
static RudpRtoTimerTestSuite g_rudpRtoTimerTestSuite;
