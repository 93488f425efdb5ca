/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-test-network.h"

#include "ns3/applications-module.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/object-factory.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-forwarding.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"

#include <set>

/**
 * \file
 * \ingroup rudp-test
 * Concurrent multipath transfer: delivery, the receive buffer's bound and
 * blocking, the CMT algorithms' effects, a failing path, and n = 1 against
 * single-path RUDP.
 */

using namespace ns3;

namespace
{

const uint32_t MSS = 1400;

/// Notes the bytes \p receiver has delivered so far in \p bytes.
void
NoteDeliveredBytes(Ptr<RudpCmtReceiver> receiver, uint64_t* bytes)
{
    *bytes = receiver->GetStats().deliveredBytes;
}

/// Notes the bytes \p sink has received so far in \p bytes.
void
NoteSinkBytes(Ptr<PacketSink> sink, uint64_t* bytes)
{
    *bytes = sink->GetTotalRx();
}

/// A CMT association built by RudpCmtHelper, run for a while.
class CmtRun
{
  public:
    /// One path: round-trip time and loss rate, 10 Mbit/s.
    struct Path
    {
        Time rtt;
        double loss;
    };

    CmtRun(const std::vector<Path>& paths, uint32_t rbuf)
    {
        for (const auto& path : paths)
        {
            m_helper.AddPath(DataRate("10Mbps"), path.rtt / 2, path.loss);
        }
        m_helper.SetSenderAttribute("SegmentSize", UintegerValue(MSS));
        m_helper.SetReceiverAttribute("RcvBufSize", UintegerValue(rbuf));
    }

    ~CmtRun()
    {
        Simulator::Destroy();
    }

    RudpCmtHelper& Helper()
    {
        return m_helper;
    }

    /// Installs, runs for \p duration and returns the goodput after \p warmup (bytes/s).
    double Run(Time duration, Time warmup = Seconds(0))
    {
        Install();
        uint64_t atWarmup = 0;
        Simulator::Schedule(warmup, &NoteDeliveredBytes, Receiver(), &atWarmup);
        Sender()->SetStopTime(duration);
        Receiver()->SetStopTime(duration);
        Simulator::Stop(duration);
        Simulator::Run();
        return (Receiver()->GetStats().deliveredBytes - atWarmup) /
               (duration - warmup).GetSeconds();
    }

    void Install()
    {
        if (m_installed)
        {
            return;
        }
        m_installed = true;
        m_helper.Install();
        m_helper.AssignStreams(3);
        Receiver()->TraceConnectWithoutContext("BufferOccupancy",
                                               MakeCallback(&CmtRun::Occupancy, this));
        for (uint32_t i = 0; i < Sender()->GetPaths().size(); ++i)
        {
            m_helper.GetPathDevices(i).Get(0)->TraceConnectWithoutContext(
                "PhyRxEnd",
                MakeCallback(&CmtRun::SackArrived, this));
        }
    }

    Ptr<RudpCmtSender> Sender() const
    {
        return m_helper.GetSender();
    }

    Ptr<RudpCmtReceiver> Receiver() const
    {
        return m_helper.GetReceiver();
    }

    /// \return the largest buffer occupancy the trace reported
    uint32_t TracedMaxOccupancy() const
    {
        return m_maxOccupancy;
    }

    /// \return SACK packets that reached the sender
    uint64_t Sacks() const
    {
        return m_sacks;
    }

  private:
    void Occupancy(uint32_t, uint32_t bytes)
    {
        m_maxOccupancy = std::max(m_maxOccupancy, bytes);
    }

    void SackArrived(Ptr<const Packet>)
    {
        ++m_sacks;
    }

    RudpCmtHelper m_helper;
    bool m_installed{false};
    uint32_t m_maxOccupancy{0};
    uint64_t m_sacks{0};
};

} // namespace

/// n = 1 against single-path RUDP with Reno-style congestion control.
class RudpCmtSinglePathTest : public TestCase
{
  public:
    RudpCmtSinglePathTest()
        : TestCase("one CMT path matches single-path RUDP Reno on the same path within 25 %")
    {
    }

  private:
    static double SinglePathRudp()
    {
        // The same path and the same habits: MSS, SACK, RFC 6298, and the same
        // growth: SCTP counts acknowledged bytes (RFC 4960 7.2.2), one MSS a
        // round trip whatever the SACKs, where Reno counts ACKs, half as many
        // with delayed ACKs (b = 2: the CMT path was then sqrt(2) = 1.40 x
        // faster). Reno here acknowledges every segment (b = 1).
        Config::SetDefault("ns3::RudpSocket::WindowPolicy", StringValue("ns3::RudpReno"));
        Config::SetDefault("ns3::RudpSocket::WindowSize", UintegerValue(65535));
        Config::SetDefault("ns3::RudpSocket::SegmentSize", UintegerValue(MSS));
        Config::SetDefault("ns3::RudpSocket::Sack", BooleanValue(true));
        Config::SetDefault("ns3::RudpSocket::RtoMode", StringValue("Adaptive"));
        Config::SetDefault("ns3::RudpSocket::DelAckCount", UintegerValue(1));
        Config::SetDefault("ns3::RudpSocket::InitialSlowStartThreshold", UintegerValue(1u << 30));
        Config::SetDefault("ns3::RudpSocket::RcvBufSize", UintegerValue(1u << 26));
        Config::SetDefault("ns3::RudpSocket::SndBufSize", UintegerValue(1u << 24));
        NodeContainer nodes(2);
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
        link.SetChannelAttribute("Delay", StringValue("60ms"));
        NetDeviceContainer devices = link.Install(nodes);
        Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
        loss->SetAttribute("ErrorRate", DoubleValue(0.01));
        loss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        loss->AssignStreams(3);
        devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
        InternetStackHelper().Install(nodes);
        RudpStackHelper().Install(nodes);
        Ipv4InterfaceContainer interfaces =
            Ipv4AddressHelper("10.1.1.0", "255.255.255.0").Assign(devices);
        ApplicationContainer sinkApp =
            PacketSinkHelper("ns3::RudpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9))
                .Install(nodes.Get(1));
        BulkSendHelper("ns3::RudpSocketFactory", InetSocketAddress(interfaces.GetAddress(1), 9))
            .Install(nodes.Get(0));
        Ptr<PacketSink> sink = DynamicCast<PacketSink>(sinkApp.Get(0));
        uint64_t atWarmup = 0;
        Simulator::Schedule(Seconds(10), &NoteSinkBytes, sink, &atWarmup);
        Simulator::Stop(Seconds(100));
        Simulator::Run();
        const double goodput = (sink->GetTotalRx() - atWarmup) / 90.0;
        Simulator::Destroy();
        Config::Reset();
        return goodput;
    }

    void DoRun() override
    {
        const double single = SinglePathRudp();
        CmtRun cmt({{MilliSeconds(120), 0.01}}, 1u << 28);
        const double multipath = cmt.Run(Seconds(100), Seconds(10));
        NS_TEST_ASSERT_MSG_GT(single, 50000, "single-path RUDP runs");
        NS_TEST_ASSERT_MSG_EQ_TOL(multipath / single, 1.0, 0.25, "CMT n = 1 vs RUDP Reno");
    }
};

/// Every delivered byte is right, and the buffer never holds more than its size.
class RudpCmtDeliveryTest : public TestCase
{
  public:
    explicit RudpCmtDeliveryTest(uint32_t rbuf)
        : TestCase("unequal RTTs and loss: in-order, byte-identical delivery; the " +
                   std::to_string(rbuf) + "-byte buffer bound holds"),
          m_rbuf(rbuf)
    {
    }

  private:
    void DoRun() override
    {
        CmtRun cmt({{MilliSeconds(30), 0.02}, {MilliSeconds(100), 0.02}, {MilliSeconds(250), 0.02}},
                   m_rbuf);
        cmt.Run(Seconds(30));
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "every byte as sent");
        NS_TEST_ASSERT_MSG_GT(cmt.Receiver()->GetStats().deliveredBytes, 100000, "data flowed");
        NS_TEST_ASSERT_MSG_GT(cmt.Sender()->GetStats().retransmissions, 0, "losses were repaired");
        NS_TEST_ASSERT_MSG_GT(cmt.TracedMaxOccupancy(), 0, "the occupancy trace fired");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(cmt.TracedMaxOccupancy(), m_rbuf, "never above the bound");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->GetStats().droppedForSpace,
                              0,
                              "the sender kept to rwnd");
    }

    uint32_t m_rbuf;
};

/// A small buffer blocks unequal paths, not equal short ones.
class RudpCmtBlockingTest : public TestCase
{
  public:
    RudpCmtBlockingTest()
        : TestCase("16 KB buffer: unequal RTTs block it well below 2^28; equal short RTTs fill "
                   "both paths")
    {
    }

  private:
    static std::pair<double, double> Goodput(Time rtt0, Time rtt1, uint32_t rbuf)
    {
        CmtRun cmt({{rtt0, 0.0}, {rtt1, 0.0}}, rbuf);
        const double goodput = cmt.Run(Seconds(20), Seconds(5));
        return {goodput, cmt.Sender()->GetStats().receiveWindowLimitedTime.GetSeconds()};
    }

    void DoRun() override
    {
        const double capacity = 2 * 10e6 / 8 * MSS / (MSS + 46 + 2); // payload share of 2 paths
        auto [bigUnequal, bigBlocked] = Goodput(MilliSeconds(4), MilliSeconds(200), 1u << 28);
        auto [smallUnequal, smallBlocked] = Goodput(MilliSeconds(4), MilliSeconds(200), 16384);
        NS_TEST_ASSERT_MSG_LT(smallUnequal, 0.25 * bigUnequal, "blocked well below");
        NS_TEST_ASSERT_MSG_GT(smallBlocked, 10, "the sender was blocked by rwnd most of the time");
        NS_TEST_ASSERT_MSG_LT(bigBlocked, 1, "not with 2^28 bytes");
        auto [bigEqual, unused1] = Goodput(MilliSeconds(4), MilliSeconds(4), 1u << 28);
        auto [smallEqual, unused2] = Goodput(MilliSeconds(4), MilliSeconds(4), 16384);
        NS_TEST_ASSERT_MSG_GT(bigEqual, 0.8 * capacity, "2^28: near the paths' capacity");
        NS_TEST_ASSERT_MSG_GT(smallEqual, 0.8 * capacity, "16 KB: near it too");
    }
};

/// SFR: reordering across paths is not loss.
class RudpCmtSfrTest : public TestCase
{
  public:
    RudpCmtSfrTest()
        : TestCase("SFR avoids the spurious fast retransmits that cross-path reordering causes")
    {
    }

  private:
    static uint64_t FastRetransmits(bool sfr)
    {
        CmtRun cmt({{MilliSeconds(20), 0.0}, {MilliSeconds(200), 0.0}}, 1u << 28);
        cmt.Helper().SetSenderAttribute("Sfr", BooleanValue(sfr));
        cmt.Run(Seconds(20));
        return cmt.Sender()->GetStats().fastRetransmits;
    }

    void DoRun() override
    {
        // No random loss: what SFR still retransmits are the links' queue
        // overflows as the windows outgrow them.
        const uint64_t with = FastRetransmits(true);
        const uint64_t without = FastRetransmits(false);
        NS_TEST_ASSERT_MSG_GT(without, 4 * with, "SFR: several times fewer fast retransmits");
        NS_TEST_ASSERT_MSG_GT(without, with + 100, "a hundred spurious ones without it");
    }
};

/// CUC: a path's window grows while another path's loss holds the cumulative ACK.
class RudpCmtCucTest : public TestCase
{
  public:
    RudpCmtCucTest()
        : TestCase("CUC lets a path's window grow while a loss on another path holds the "
                   "cumulative ACK")
    {
    }

  private:
    /// The second path's window growth while the first recovers from one loss.
    static uint32_t GrowthDuringRecovery(bool cuc)
    {
        CmtRun cmt({{MilliSeconds(100), 0.0}, {MilliSeconds(100), 0.0}}, 1u << 28);
        cmt.Helper().SetSenderAttribute("Cuc", BooleanValue(cuc));
        cmt.Install();
        // Lose the 40th data packet that reaches the receiver on path 0.
        Ptr<ReceiveListErrorModel> drop = CreateObject<ReceiveListErrorModel>();
        drop->SetList({40});
        cmt.Helper().GetPathDevices(0).Get(1)->SetAttribute("ReceiveErrorModel",
                                                            PointerValue(drop));
        Ptr<RudpSenderState> first = cmt.Sender()->GetPaths()[0]->GetState();
        Ptr<RudpSenderState> second = cmt.Sender()->GetPaths()[1]->GetState();
        uint32_t atLoss = 0;
        uint32_t atRecovery = 0;
        GrowthProbe probe{second, &atLoss, &atRecovery};
        first->TraceConnectWithoutContext("CongState", MakeCallback(&GrowthProbe::State, &probe));
        cmt.Run(Seconds(10));
        return atRecovery - atLoss;
    }

    /// Samples the second path's cwnd when the first enters and leaves recovery.
    struct GrowthProbe
    {
        Ptr<RudpSenderState> second;
        uint32_t* atLoss;
        uint32_t* atRecovery;

        void State(RudpSenderState::CongState, RudpSenderState::CongState state)
        {
            if (state == RudpSenderState::FAST_RECOVERY && *atLoss == 0)
            {
                *atLoss = second->m_cWnd;
            }
            else if (*atLoss > 0 && *atRecovery == 0)
            {
                *atRecovery = second->m_cWnd;
            }
        }
    };

    void DoRun() override
    {
        const uint32_t with = GrowthDuringRecovery(true);
        const uint32_t without = GrowthDuringRecovery(false);
        NS_TEST_ASSERT_MSG_GT(with, 0, "the other path's window grew with CUC");
        NS_TEST_ASSERT_MSG_EQ(without, 0, "and stood still without it");
    }
};

/// DAC: delayed ACKs survive reordering without more retransmissions.
class RudpCmtDacTest : public TestCase
{
  public:
    RudpCmtDacTest()
        : TestCase("DAC keeps delaying ACKs through reordering: fewer SACKs, no more fast "
                   "retransmits")
    {
    }

  private:
    static std::pair<uint64_t, uint64_t> Run(bool dac)
    {
        CmtRun cmt({{MilliSeconds(20), 0.01}, {MilliSeconds(200), 0.01}}, 1u << 28);
        cmt.Helper().SetSenderAttribute("Dac", BooleanValue(dac));
        cmt.Helper().SetReceiverAttribute("Dac", BooleanValue(dac));
        cmt.Run(Seconds(30));
        const uint64_t segments = cmt.Receiver()->GetStats().deliveredBytes / MSS;
        return {cmt.Sacks() * 1000 / segments, cmt.Sender()->GetStats().fastRetransmits};
    }

    void DoRun() override
    {
        auto [sacksWith, fastWith] = Run(true);
        auto [sacksWithout, fastWithout] = Run(false);
        NS_TEST_ASSERT_MSG_LT(sacksWith, 0.7 * sacksWithout, "SACKs per 1000 segments");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(fastWith, fastWithout * 1.2 + 5, "fast retransmits");
    }
};

/// A path that dies does not stall the association, whatever the retransmission policy.
class RudpCmtPathFailureTest : public TestCase
{
  public:
    /// \param policy the RtxPolicy
    explicit RudpCmtPathFailureTest(std::string policy)
        : TestCase("a path that goes down (error rate 1) is abandoned; the others carry the data "
                   "(" +
                   policy + ")"),
          m_policy(std::move(policy))
    {
    }

  private:
    /// Takes path 1 down.
    static void Cut(Ptr<RateErrorModel> loss)
    {
        loss->SetAttribute("ErrorRate", DoubleValue(1.0));
    }

    void DoRun() override
    {
        CmtRun cmt({{MilliSeconds(50), 0.0}, {MilliSeconds(50), 0.0}, {MilliSeconds(50), 0.0}},
                   1u << 28);
        cmt.Helper().SetSenderAttribute("MaxBytes", UintegerValue(20000000));
        cmt.Helper().SetSenderAttribute("RtxPolicy", StringValue(m_policy));
        cmt.Install();
        Simulator::Schedule(Seconds(3), &RudpCmtPathFailureTest::Cut, cmt.Helper().GetLossModel(1));
        cmt.Run(Seconds(120));
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->IsComplete(), true, "all 20 MB acknowledged");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "intact");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetPaths()[1]->GetStatus(),
                              RudpCmtPath::FAILED,
                              "the dead path was marked failed");
        NS_TEST_ASSERT_MSG_GT(cmt.Sender()->GetStats().timeouts, 0, "found by its timer");
    }

    std::string m_policy;
};

/// The receive buffer against the segment size (RFC 4960, section 6).
class RudpCmtSmallBufferTest : public TestCase
{
  public:
    /**
     * \param rbuf the receiver's buffer (the segment size is 1400)
     * \param announced whether the sender is told the buffer before the first
     *        SACK (RudpCmtHelper does it, as SCTP's INIT would)
     */
    RudpCmtSmallBufferTest(uint32_t rbuf, bool announced)
        : TestCase(
              "two paths, " + std::to_string(rbuf) + "-byte buffer, 1400-byte segments" +
              (announced ? "" : ", buffer not announced") +
              (rbuf < MSS ? ": a reported failure in bounded time" : ": every byte delivered")),
          m_rbuf(rbuf),
          m_announced(announced)
    {
    }

  private:
    void Failed(const std::string& reason)
    {
        m_failures.push_back(reason);
        m_failedAt = Simulator::Now();
    }

    void DoRun() override
    {
        CmtRun cmt({{MilliSeconds(120), 0.01}, {MilliSeconds(120), 0.01}}, m_rbuf);
        cmt.Helper().SetSenderAttribute("MaxBytes", UintegerValue(300000));
        cmt.Install();
        if (!m_announced)
        {
            cmt.Sender()->SetAttribute("InitialPeerWindow", UintegerValue(0));
        }
        cmt.Sender()->TraceConnectWithoutContext(
            "Failure",
            MakeCallback(&RudpCmtSmallBufferTest::Failed, this));
        cmt.Run(Seconds(120));
        if (m_rbuf < MSS)
        {
            NS_TEST_ASSERT_MSG_EQ(m_failures.size(), 1, "the Failure trace fired once");
            NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetFailure().empty(), false, "GetFailure says why");
            NS_TEST_ASSERT_MSG_NE(cmt.Sender()->GetFailure().find("RcvBufSize"),
                                  std::string::npos,
                                  "naming the attribute: " << cmt.Sender()->GetFailure());
            NS_TEST_ASSERT_MSG_LT(m_failedAt, Seconds(1), "at once, or at the first SACK");
            NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->IsComplete(), false, "not complete");
            NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().timeouts, 0, "no timer kept running");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(m_failures.empty(), true, "no failure");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->IsComplete(), true, "all acknowledged");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->GetStats().deliveredBytes, 300000, "all delivered");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "intact");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(cmt.TracedMaxOccupancy(), m_rbuf, "within the buffer");
    }

    uint32_t m_rbuf;
    bool m_announced;
    std::vector<std::string> m_failures;
    Time m_failedAt;
};

/**
 * RudpCmtHelper's path queues: ns-3's default root queue disc, where the
 * first slow start on a lossless path outruns the queue and loses segments,
 * or ns-2's link (the device's DropTail queue alone, a million packets
 * long), where nothing but the loss model drops.
 */
class RudpCmtPathQueueTest : public TestCase
{
  public:
    /// \param queue the paths' queues
    explicit RudpCmtPathQueueTest(RudpCmtHelper::PathQueue queue)
        : TestCase(queue == RudpCmtHelper::PathQueue::NS2
                       ? "ns-2's links: a DropTail queue alone, which the first slow start "
                         "does not overflow"
                       : "ns-3's default queue disc on the paths, which the first slow start "
                         "overflows"),
          m_queue(queue)
    {
    }

  private:
    void DoRun() override
    {
        CmtRun cmt({{MilliSeconds(120), 0.0}}, 1u << 28);
        cmt.Helper().SetPathQueue(m_queue);
        cmt.Run(Seconds(20));
        const bool ns2 = m_queue == RudpCmtHelper::PathQueue::NS2;
        const NetDeviceContainer devices = cmt.Helper().GetPathDevices(0);
        for (uint32_t i = 0; i < devices.GetN(); ++i)
        {
            Ptr<TrafficControlLayer> tc =
                devices.Get(i)->GetNode()->GetObject<TrafficControlLayer>();
            const bool withoutQueueDisc = !tc->GetRootQueueDiscOnDevice(devices.Get(i));
            NS_TEST_ASSERT_MSG_EQ(withoutQueueDisc,
                                  ns2,
                                  "a root queue disc on device " << i << " only with ns-3's");
            PointerValue txQueue;
            devices.Get(i)->GetAttribute("TxQueue", txQueue);
            const uint32_t limit = ns2 ? RudpCmtHelper::NS2_QUEUE_PACKETS : 100;
            NS_TEST_ASSERT_MSG_EQ(txQueue.Get<QueueBase>()->GetMaxSize(),
                                  QueueSize(QueueSizeUnit::PACKETS, limit),
                                  "device " << i << "'s queue");
        }
        const auto stats = cmt.Sender()->GetStats();
        NS_TEST_ASSERT_MSG_GT(cmt.Receiver()->GetStats().deliveredBytes, 10000000, "delivered");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "intact");
        if (ns2)
        {
            NS_TEST_ASSERT_MSG_EQ(stats.retransmissions, 0, "nothing lost on a lossless path");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT(stats.retransmissions, 0, "the queue disc dropped");
        }
    }

    RudpCmtHelper::PathQueue m_queue;
};

/// The Checksum attribute of the association.
class RudpCmtChecksumTest : public TestCase
{
  public:
    /// \param mixed the sender sends Crc32c to an Internet16 receiver (else both Crc32c)
    explicit RudpCmtChecksumTest(bool mixed)
        : TestCase(mixed ? "CMT: a Crc32c sender and an Internet16 receiver: checksum errors, "
                           "nothing delivered"
                         : "CMT with Crc32c on both ends: every byte delivered"),
          m_mixed(mixed)
    {
    }

  private:
    void DoRun() override
    {
        CmtRun cmt({{MilliSeconds(40), 0.01}, {MilliSeconds(80), 0.01}}, 65536);
        cmt.Helper().SetSenderAttribute("MaxBytes", UintegerValue(1000000));
        cmt.Helper().SetSenderAttribute("Checksum", StringValue("Crc32c"));
        if (!m_mixed)
        {
            cmt.Helper().SetReceiverAttribute("Checksum", StringValue("Crc32c"));
        }
        cmt.Run(Seconds(60));
        if (m_mixed)
        {
            NS_TEST_ASSERT_MSG_GT(cmt.Receiver()->GetStats().checksumErrors, 0, "checksum errors");
            NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->GetStats().deliveredBytes,
                                  0,
                                  "nothing delivered");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->IsComplete(), true, "all acknowledged");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "intact");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->GetStats().checksumErrors, 0, "no checksum error");
    }

    bool m_mixed;
};

/**
 * A wrong byte the checksum misses is caught by the receiver's check of
 * every byte against the sender's content: the transfer reports failure.
 */
class RudpCmtUndetectedCorruptionTest : public TestCase
{
  public:
    /// \param ns2Defaults with RudpCmtHelper::SetNs2Defaults (rudp-cmt --ns2-defaults)
    explicit RudpCmtUndetectedCorruptionTest(bool ns2Defaults)
        : TestCase(std::string("CMT: a payload error the checksum misses is reported (content "
                               "not intact)") +
                   (ns2Defaults ? ", ns-2 defaults" : "")),
          m_ns2Defaults(ns2Defaults)
    {
    }

  private:
    void DoRun() override
    {
        if (m_ns2Defaults)
        {
            RudpCmtHelper::SetNs2Defaults();
        }
        CmtRun cmt({{MilliSeconds(40), 0.0}, {MilliSeconds(80), 0.0}}, 65536);
        cmt.Helper().SetSenderAttribute("MaxBytes", UintegerValue(200000));
        cmt.Install();
        Ptr<rudptest::WordSwapErrorModel> swap = CreateObject<rudptest::WordSwapErrorModel>();
        swap->SetPppHeader(true);
        cmt.Helper().GetPathDevices(1).Get(1)->SetAttribute("ReceiveErrorModel",
                                                            PointerValue(swap));
        cmt.Run(Seconds(20));
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(swap->Altered(), 1, "one segment altered");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->GetStats().checksumErrors,
                              0,
                              "the checksum missed it");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->IsComplete(), true, "every byte arrived");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(),
                              false,
                              "the wrong byte is reported");
    }

    bool m_ns2Defaults;
};

/// Every retransmission policy repairs losses.
class RudpCmtRtxPolicyTest : public TestCase
{
  public:
    explicit RudpCmtRtxPolicyTest(std::string policy)
        : TestCase("retransmission policy " + policy + " repairs losses on unequal paths"),
          m_policy(std::move(policy))
    {
    }

  private:
    void DoRun() override
    {
        CmtRun cmt({{MilliSeconds(40), 0.03}, {MilliSeconds(160), 0.01}}, 65536);
        cmt.Helper().SetSenderAttribute("RtxPolicy", StringValue(m_policy));
        cmt.Helper().SetSenderAttribute("MaxBytes", UintegerValue(3000000));
        cmt.Run(Seconds(200));
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->IsComplete(), true, "all acknowledged");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "intact");
        NS_TEST_ASSERT_MSG_GT(cmt.Sender()->GetStats().retransmissions, 0, "losses were repaired");
    }

    std::string m_policy;
};

/// The applications and the socket offer their engines' attributes and trace sources.
class RudpCmtForwardingTest : public TestCase
{
  public:
    RudpCmtForwardingTest()
        : TestCase("RudpCmtSender, RudpCmtReceiver and RudpCmtSocket offer their engines' "
                   "attributes (deprecated names too for the applications) and traces")
    {
    }

  private:
    /// Every attribute and trace source of \p engine is one of \p owner's, alike.
    void CheckOffered(TypeId owner, TypeId engine, const std::set<std::string>& withheld)
    {
        for (uint32_t i = 0; i < engine.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = engine.GetAttribute(i);
            TypeId::AttributeInformation offered;
            const bool expected = withheld.count(info.name) == 0 &&
                                  (owner != RudpCmtSocket::GetTypeId() ||
                                   info.supportLevel == TypeId::SupportLevel::SUPPORTED);
            NS_TEST_ASSERT_MSG_EQ(RudpForwarding::FindAttribute(owner, info.name, offered),
                                  expected,
                                  owner.GetName() << " offers " << info.name);
            if (expected)
            {
                NS_TEST_ASSERT_MSG_EQ(offered.checker->GetValueTypeName(),
                                      info.checker->GetValueTypeName(),
                                      info.name);
                NS_TEST_ASSERT_MSG_EQ(static_cast<int>(offered.supportLevel),
                                      static_cast<int>(info.supportLevel),
                                      info.name);
            }
        }
        for (uint32_t i = 0; i < engine.GetTraceSourceN(); ++i)
        {
            const std::string name = engine.GetTraceSource(i).name;
            NS_TEST_ASSERT_MSG_NE(owner.LookupTraceSourceByName(name),
                                  nullptr,
                                  owner.GetName() << " offers trace " << name);
        }
    }

    void DoRun() override
    {
        CheckOffered(RudpCmtSender::GetTypeId(), RudpCmtSendEngine::GetTypeId(), {});
        CheckOffered(RudpCmtReceiver::GetTypeId(), RudpCmtReceiveEngine::GetTypeId(), {});
        const std::set<std::string> bySocket{"InitialPeerWindow", "ModelAssumptions", "PathList"};
        CheckOffered(RudpCmtSocket::GetTypeId(), RudpCmtSendEngine::GetTypeId(), bySocket);
        CheckOffered(RudpCmtSocket::GetTypeId(), RudpCmtReceiveEngine::GetTypeId(), bySocket);

        // Set on the application, the engine has it; and back.
        Ptr<RudpCmtSender> sender = CreateObject<RudpCmtSender>();
        BooleanValue sfr;
        sender->SetAttribute("Sfr", BooleanValue(false));
        sender->GetEngine()->GetAttribute("Sfr", sfr);
        NS_TEST_ASSERT_MSG_EQ(sfr.Get(), false, "Sfr set on the application reaches its engine");
        sender->GetEngine()->SetAttribute("MaxBurst", UintegerValue(3));
        UintegerValue burst;
        sender->GetAttribute("MaxBurst", burst);
        NS_TEST_ASSERT_MSG_EQ(burst.Get(), 3, "the application reads its engine's MaxBurst");
        // A deprecated name sets the attribute it names.
        sender->SetAttribute("DupThreshold", UintegerValue(5));
        UintegerValue threshold;
        sender->GetEngine()->GetAttribute("ReTxThreshold", threshold);
        NS_TEST_ASSERT_MSG_EQ(threshold.Get(), 5, "DupThreshold sets ReTxThreshold");
        // A factory's attributes (RudpCmtHelper's) and a default reach the engine.
        ObjectFactory factory("ns3::RudpCmtReceiver");
        factory.Set("RcvBufSize", UintegerValue(20000));
        Config::SetDefault("ns3::RudpCmtReceiver::DelAckCount", UintegerValue(1));
        Ptr<RudpCmtReceiver> receiver = factory.Create<RudpCmtReceiver>();
        Config::SetDefault("ns3::RudpCmtReceiver::DelAckCount", UintegerValue(2));
        UintegerValue capacity;
        UintegerValue delAckCount;
        receiver->GetEngine()->GetAttribute("RcvBufSize", capacity);
        receiver->GetEngine()->GetAttribute("DelAckCount", delAckCount);
        NS_TEST_ASSERT_MSG_EQ(capacity.Get(), 20000, "the factory's RcvBufSize");
        NS_TEST_ASSERT_MSG_EQ(delAckCount.Get(), 1, "the default DelAckCount");
        NS_TEST_ASSERT_MSG_EQ(receiver->GetEngine()->GetCapacity(), 20000, "capacity");

        // A trace source of the application is its engine's.
        CmtRun cmt({{MilliSeconds(40), 0.0}, {MilliSeconds(80), 0.0}}, 65536);
        cmt.Helper().SetSenderAttribute("MaxBytes", UintegerValue(100000));
        uint32_t sent = 0;
        uint32_t occupancyChanges = 0;
        cmt.Install();
        NS_TEST_ASSERT_MSG_EQ(
            cmt.Sender()->TraceConnectWithoutContext("Tx", MakeBoundCallback(&CountSegment, &sent)),
            true,
            "Tx connected through the application");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->TraceConnectWithoutContext(
                                  "BufferOccupancy",
                                  MakeBoundCallback(&CountChange, &occupancyChanges)),
                              true,
                              "BufferOccupancy connected through the application");
        cmt.Run(Seconds(30));
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->IsComplete(), true, "all acknowledged");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(sent, 100000 / MSS, "every segment traced");
        NS_TEST_ASSERT_MSG_GT(occupancyChanges, 0, "the occupancy traced");
    }

    static void CountSegment(uint32_t* count, Ptr<const Packet>, const RudpHeader&, uint32_t)
    {
        ++*count;
    }

    static void CountChange(uint32_t* count, uint32_t, uint32_t)
    {
        ++*count;
    }
};

/// \ingroup rudp-test
/// Concurrent multipath transfer test suite.
class RudpCmtTestSuite : public TestSuite
{
  public:
    RudpCmtTestSuite()
        : TestSuite("rudp-cmt")
    {
        AddTestCase(new RudpCmtSinglePathTest);
        AddTestCase(new RudpCmtDeliveryTest(16384));
        AddTestCase(new RudpCmtDeliveryTest(1u << 28));
        AddTestCase(new RudpCmtBlockingTest);
        AddTestCase(new RudpCmtSfrTest);
        AddTestCase(new RudpCmtCucTest);
        AddTestCase(new RudpCmtDacTest);
        for (const std::string policy : {"RTX-SAME", "RTX-ASAP", "RTX-CWND", "RTX-SSTHRESH"})
        {
            AddTestCase(new RudpCmtPathFailureTest(policy));
        }
        for (bool announced : {true, false})
        {
            for (uint32_t rbuf : {1000u, 1400u, 2000u})
            {
                AddTestCase(new RudpCmtSmallBufferTest(rbuf, announced));
            }
        }
        AddTestCase(new RudpCmtPathQueueTest(RudpCmtHelper::PathQueue::NS3));
        AddTestCase(new RudpCmtPathQueueTest(RudpCmtHelper::PathQueue::NS2));
        AddTestCase(new RudpCmtChecksumTest(false));
        AddTestCase(new RudpCmtChecksumTest(true));
        AddTestCase(new RudpCmtUndetectedCorruptionTest(false));
        AddTestCase(new RudpCmtUndetectedCorruptionTest(true));
        for (const std::string policy : {"RTX-SAME", "RTX-ASAP", "RTX-CWND", "RTX-SSTHRESH"})
        {
            AddTestCase(new RudpCmtRtxPolicyTest(policy));
        }
        AddTestCase(new RudpCmtForwardingTest);
    }
};

/// Static instance registering the suite.
static RudpCmtTestSuite g_rudpCmtTestSuite;
