/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rudp-module.h"
#include "ns3/test.h"

#include <map>
#include <set>

/**
 * \file
 * \ingroup rudp-test
 * RudpCmtSender's ModelAssumptions mode: seed 002's analytic model's own
 * assumptions hold in the simulation (every loss known one RTT after its
 * send, no retransmission lost, no timeout, no slow start after the
 * warm-up), and the realistic mode, in the same setting, breaks them.
 */

using namespace ns3;

namespace
{

const Time RTT = MilliSeconds(100);
const Time WARMUP = Seconds(10);
const Time DURATION = Seconds(60);

/// Seed 002's bounded setting at its highest loss: 3 paths, RTT 100 ms, 5 %, 16 KB.
class ModelRun
{
  public:
    explicit ModelRun(bool modelAssumptions)
    {
        for (int i = 0; i < 3; ++i)
        {
            m_helper.AddPath(DataRate("10Mbps"), RTT / 2, 0.05);
        }
        m_helper.SetSenderAttribute("ModelAssumptions", BooleanValue(modelAssumptions));
        m_helper.SetReceiverAttribute("RcvBufSize", UintegerValue(16384));
        m_helper.Install();
        m_helper.AssignStreams(7);
        Ptr<RudpCmtSender> sender = m_helper.GetSender();
        sender->TraceConnectWithoutContext("Tx", MakeCallback(&ModelRun::Sent, this));
        sender->TraceConnectWithoutContext("Retransmission", MakeCallback(&ModelRun::Resent, this));
        for (uint32_t i = 0; i < sender->GetPaths().size(); ++i)
        {
            m_helper.GetPathDevices(i).Get(1)->TraceConnectWithoutContext(
                "PhyRxDrop",
                MakeCallback(&ModelRun::Dropped, this));
            sender->GetPaths()[i]->GetState()->TraceConnectWithoutContext(
                "CongState",
                MakeCallback(&ModelRun::CongStateChanged, this));
        }
        sender->SetStopTime(DURATION);
        m_helper.GetReceiver()->SetStopTime(DURATION);
        Simulator::Stop(DURATION);
        Simulator::Run();
    }

    ~ModelRun()
    {
        Simulator::Destroy();
    }

    Ptr<RudpCmtSender> Sender() const
    {
        return m_helper.GetSender();
    }

    Ptr<RudpCmtReceiver> Receiver() const
    {
        return m_helper.GetReceiver();
    }

    uint64_t m_drops{0};                  ///< data packets the paths dropped
    uint64_t m_resendsDropped{0};         ///< of which retransmissions (tagged ones)
    uint64_t m_slowStartsAfterWarmup{0};  ///< paths that entered slow start after WARMUP
    Time m_earliestResend{Seconds(1000)}; ///< shortest time from a first send to its resend
    Time m_resendDelaySum;                ///< sum of those times
    uint64_t m_resends{0};                ///< resends of a segment's first transmission

  private:
    void Sent(Ptr<const Packet>, const RudpHeader& header, uint32_t)
    {
        // The first transmission only: Tx fires for resends too.
        m_firstSent.emplace(header.GetSequenceNumber().GetValue(), Simulator::Now());
    }

    void Resent(Ptr<const Packet>, const RudpHeader& header, uint32_t)
    {
        auto first = m_firstSent.find(header.GetSequenceNumber().GetValue());
        if (first == m_firstSent.end() || m_resent.count(first->first))
        {
            return;
        }
        m_resent.insert(first->first);
        const Time delay = Simulator::Now() - first->second;
        m_earliestResend = std::min(m_earliestResend, delay);
        m_resendDelaySum += delay;
        ++m_resends;
    }

    void Dropped(Ptr<const Packet> packet)
    {
        ++m_drops;
        RudpCmtTransmissionTag tag;
        if (packet->PeekPacketTag(tag) && tag.GetTransmission() > 1)
        {
            ++m_resendsDropped;
        }
    }

    void CongStateChanged(RudpSenderState::CongState, RudpSenderState::CongState state)
    {
        if (state == RudpSenderState::SLOW_START && Simulator::Now() > WARMUP)
        {
            ++m_slowStartsAfterWarmup;
        }
    }

    RudpCmtHelper m_helper;
    std::map<uint32_t, Time> m_firstSent;
    std::set<uint32_t> m_resent;
};

} // namespace

/// The mode: the model's assumptions hold, event by event.
class RudpCmtModelAssumptionsTest : public TestCase
{
  public:
    RudpCmtModelAssumptionsTest()
        : TestCase("ModelAssumptions, 3 paths, 5 % loss, 16 KB: every loss known one RTT after "
                   "its send, no retransmission lost, no timeout, no slow start after warm-up")
    {
    }

  private:
    void DoRun() override
    {
        ModelRun run(true);
        Ptr<RudpCmtSender> sender = run.Sender();
        NS_TEST_ASSERT_MSG_EQ(run.Receiver()->IsContentIntact(), true, "every byte as sent");
        NS_TEST_ASSERT_MSG_GT(run.m_drops, 100, "the paths lose data");
        NS_TEST_ASSERT_MSG_EQ(run.m_resendsDropped, 0, "no retransmission is lost");
        NS_TEST_ASSERT_MSG_EQ(sender->GetOracleLosses(),
                              run.m_drops,
                              "the oracle heard every drop");
        // Each drop is acted on one RTT after its send; those of the last RTT are not yet.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(sender->GetFastRetransmits(), run.m_drops, "one per drop");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(sender->GetFastRetransmits() + 10, run.m_drops, "all acted on");
        NS_TEST_ASSERT_MSG_EQ(sender->GetTimeouts(), 0, "no T3 timeout");
        NS_TEST_ASSERT_MSG_EQ(run.m_slowStartsAfterWarmup, 0, "no slow start after the warm-up");
        NS_TEST_ASSERT_MSG_GT(run.m_resends, 100, "losses were resent");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(run.m_earliestResend, RTT, "never known before one RTT");
        NS_TEST_ASSERT_MSG_LT(run.m_resendDelaySum / run.m_resends,
                              1.5 * RTT,
                              "known and resent about one RTT after the send");
    }
};

/// The contrast: the realistic mode, same setting, breaks the assumptions.
class RudpCmtRealisticModeTest : public TestCase
{
  public:
    RudpCmtRealisticModeTest()
        : TestCase("realistic mode, same setting: timeouts repair losses that missing reports "
                   "cannot find (what ModelAssumptions removes)")
    {
    }

  private:
    void DoRun() override
    {
        ModelRun run(false);
        Ptr<RudpCmtSender> sender = run.Sender();
        NS_TEST_ASSERT_MSG_EQ(run.Receiver()->IsContentIntact(), true, "every byte as sent");
        NS_TEST_ASSERT_MSG_GT(run.m_drops, 50, "the paths lose data");
        NS_TEST_ASSERT_MSG_EQ(sender->GetOracleLosses(), 0, "no oracle");
        NS_TEST_ASSERT_MSG_GT(sender->GetTimeouts(), 10, "timeouts repair losses");
        NS_TEST_ASSERT_MSG_GT(run.m_slowStartsAfterWarmup, 0, "each timeout restarts slow start");
    }
};

/// \ingroup rudp-test
/// RudpCmtSender's ModelAssumptions mode against the analytic model's assumptions.
class RudpCmtModelTestSuite : public TestSuite
{
  public:
    RudpCmtModelTestSuite()
        : TestSuite("rudp-cmt-model")
    {
        AddTestCase(new RudpCmtModelAssumptionsTest);
        AddTestCase(new RudpCmtRealisticModeTest);
    }
};

/// Static instance registering the suite.
static RudpCmtModelTestSuite g_rudpCmtModelTestSuite;
