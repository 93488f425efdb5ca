/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rudp-module.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"

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

/// A CMT association of equal paths (10 Mbit/s), run once.
struct Setting
{
    uint32_t paths;    ///< number of paths
    Time rtt;          ///< every path's RTT
    double loss;       ///< every path's loss rate
    uint32_t rbuf;     ///< the receive buffer (bytes)
    Time duration;     ///< simulated time
    Time warmup;       ///< slow start may happen before this
    int64_t stream;    ///< first random stream of the paths' loss models
    uint32_t minDrops; ///< drops the setting must have, at least
    double resendRtts; ///< bound of the mean time from a first send to its resend, RTTs
};

/// Runs a Setting and observes every drop, resend and congestion state.
class ModelRun
{
  public:
    ModelRun(const Setting& setting, bool modelAssumptions)
        : m_warmup(setting.warmup)
    {
        for (uint32_t i = 0; i < setting.paths; ++i)
        {
            m_helper.AddPath(DataRate("10Mbps"), setting.rtt / 2, setting.loss);
        }
        m_helper.SetSenderAttribute("ModelAssumptions", BooleanValue(modelAssumptions));
        m_helper.SetReceiverAttribute("RcvBufSize", UintegerValue(setting.rbuf));
        m_helper.Install();
        m_helper.AssignStreams(setting.stream);
        Ptr<RudpCmtSender> sender = m_helper.GetSender();
        sender->TraceConnectWithoutContext("Tx", MakeCallback(&ModelRun::Sent, this));
        sender->TraceConnectWithoutContext("Retransmission", MakeCallback(&ModelRun::Resent, this));
        Ptr<TrafficControlLayer> tc = m_helper.GetHosts().Get(0)->GetObject<TrafficControlLayer>();
        for (uint32_t i = 0; i < sender->GetPaths().size(); ++i)
        {
            m_helper.GetPathDevices(i).Get(1)->TraceConnectWithoutContext(
                "PhyRxDrop",
                MakeCallback(&ModelRun::Dropped, this));
            Ptr<QueueDisc> queueDisc =
                tc->GetRootQueueDiscOnDevice(m_helper.GetPathDevices(i).Get(0));
            if (queueDisc)
            {
                queueDisc->TraceConnectWithoutContext(
                    "Drop",
                    MakeCallback(&ModelRun::QueueDiscDropped, this));
            }
            sender->GetPaths()[i]->GetState()->TraceConnectWithoutContext(
                "CongState",
                MakeCallback(&ModelRun::CongStateChanged, this));
        }
        sender->SetStopTime(setting.duration);
        m_helper.GetReceiver()->SetStopTime(setting.duration);
        Simulator::Stop(setting.duration);
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

    uint64_t m_drops{0};                  ///< data packets dropped: on a path, in a queue
    uint64_t m_resendsDropped{0};         ///< of which retransmissions (tagged ones)
    uint64_t m_slowStartsAfterWarmup{0};  ///< paths that entered slow start after the warm-up
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

    void QueueDiscDropped(Ptr<const QueueDiscItem> item)
    {
        Dropped(item->GetPacket());
    }

    void CongStateChanged(RudpSenderState::CongState, RudpSenderState::CongState state)
    {
        if (state == RudpSenderState::SLOW_START && Simulator::Now() > m_warmup)
        {
            ++m_slowStartsAfterWarmup;
        }
    }

    RudpCmtHelper m_helper;
    Time m_warmup;
    std::map<uint32_t, Time> m_firstSent;
    std::set<uint32_t> m_resent;
};

} // namespace

/// The mode: the model's assumptions hold, event by event.
class RudpCmtModelAssumptionsTest : public TestCase
{
  public:
    RudpCmtModelAssumptionsTest(const std::string& name, const Setting& setting)
        : TestCase("ModelAssumptions, " + name +
                   ": every loss known one RTT after its send, no retransmission lost, no "
                   "timeout, no slow start after the warm-up"),
          m_setting(setting)
    {
    }

  private:
    void DoRun() override
    {
        ModelRun run(m_setting, true);
        Ptr<RudpCmtSender> sender = run.Sender();
        const Time rtt = m_setting.rtt;
        NS_TEST_ASSERT_MSG_EQ(run.Receiver()->IsContentIntact(), true, "every byte as sent");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(run.m_drops, m_setting.minDrops, "data is lost");
        NS_TEST_ASSERT_MSG_EQ(run.m_resendsDropped, 0, "no retransmission is lost");
        NS_TEST_ASSERT_MSG_EQ(sender->GetStats().oracleLosses,
                              run.m_drops,
                              "the oracle heard every drop");
        // Each drop is acted on one RTT after its send; those of the last RTT are not yet.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(sender->GetStats().fastRetransmits,
                                    run.m_drops,
                                    "one per drop");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(sender->GetStats().fastRetransmits + 10,
                                    run.m_drops,
                                    "all acted on");
        NS_TEST_ASSERT_MSG_EQ(sender->GetStats().timeouts, 0, "no T3 timeout");
        NS_TEST_ASSERT_MSG_EQ(run.m_slowStartsAfterWarmup, 0, "no slow start after the warm-up");
        NS_TEST_ASSERT_MSG_GT(run.m_resends, 0, "losses were resent");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(run.m_earliestResend, rtt, "never known before one RTT");
        NS_TEST_ASSERT_MSG_LT(run.m_resendDelaySum / run.m_resends,
                              m_setting.resendRtts * rtt,
                              "known and resent about one RTT after the send");
    }

    Setting m_setting;
};

/// The contrast: the realistic mode, same setting, breaks the assumptions.
class RudpCmtRealisticModeTest : public TestCase
{
  public:
    explicit RudpCmtRealisticModeTest(const Setting& setting)
        : TestCase("realistic mode, 3 paths, 5 % loss, 16 KB: timeouts repair losses that "
                   "missing reports cannot find (what ModelAssumptions removes)"),
          m_setting(setting)
    {
    }

  private:
    void DoRun() override
    {
        ModelRun run(m_setting, false);
        Ptr<RudpCmtSender> sender = run.Sender();
        NS_TEST_ASSERT_MSG_EQ(run.Receiver()->IsContentIntact(), true, "every byte as sent");
        NS_TEST_ASSERT_MSG_GT(run.m_drops, 50, "the paths lose data");
        NS_TEST_ASSERT_MSG_EQ(sender->GetStats().oracleLosses, 0, "no oracle");
        NS_TEST_ASSERT_MSG_GT(sender->GetStats().timeouts, 10, "timeouts repair losses");
        NS_TEST_ASSERT_MSG_GT(run.m_slowStartsAfterWarmup, 0, "each timeout restarts slow start");
    }

    Setting m_setting;
};

/// \ingroup rudp-test
/// RudpCmtSender's ModelAssumptions mode against the analytic model's assumptions.
class RudpCmtModelTestSuite : public TestSuite
{
  public:
    RudpCmtModelTestSuite()
        : TestSuite("rudp-cmt-model")
    {
        // Seed 002's bounded setting at its highest loss.
        const Setting
            lossy{3, MilliSeconds(100), 0.05, 16384, Seconds(60), Seconds(10), 7, 100, 1.5};
        AddTestCase(new RudpCmtModelAssumptionsTest("3 paths, 5 % loss, 16 KB", lossy));
        AddTestCase(new RudpCmtRealisticModeTest(lossy));
        // A resend moved the last outstanding segment of a path elsewhere and
        // the path's T3 kept running: it expired at 132.5 s (rudp-cmt run 1).
        AddTestCase(new RudpCmtModelAssumptionsTest(
            "2 paths, RTT 200 ms, 1 % loss, 16 KB, 200 s",
            Setting{2, MilliSeconds(200), 0.01, 16384, Seconds(200), Seconds(20), 0, 50, 1.5}));
        // The initial slow start overflows the sending host's queue discs: the
        // oracle must hear those losses too, or one times out at 2.5 s. The
        // queues lengthen the RTT, and resends wait for room in the windows.
        AddTestCase(new RudpCmtModelAssumptionsTest(
            "4 paths, RTT 100 ms, 1 % loss, 2^28 B, the initial slow start",
            Setting{4, MilliSeconds(100), 0.01, 1u << 28, Seconds(5), Seconds(5), 0, 10, 2.5}));
    }
};

/// Static instance registering the suite.
static RudpCmtModelTestSuite g_rudpCmtModelTestSuite;
