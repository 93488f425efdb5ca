/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/rudp-module.h"
#include "ns3/tcp-linux-reno.h"
#include "ns3/test.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * Seed 003's dumbbell (RudpDumbbellHelper), its sizing rules
 * (RudpDumbbellSizing) and its measurements (RudpFlowMetrics,
 * RudpGoodputMeter).
 */

using namespace ns3;

/// The sizing rules, value by value.
class RudpDumbbellSizingTest : public TestCase
{
  public:
    RudpDumbbellSizingTest()
        : TestCase("Sizing: BDP, wire bytes, default queue, buffers and initial ssthresh")
    {
    }

  private:
    void DoRun() override
    {
        using S = RudpDumbbellSizing;
        NS_TEST_EXPECT_MSG_EQ(S::BdpBytes(DataRate("100Mbps"), MilliSeconds(50)),
                              625000,
                              "100 Mbit/s x 50 ms");
        NS_TEST_EXPECT_MSG_EQ(S::BdpBytes(DataRate("10Mbps"), MilliSeconds(200)),
                              250000,
                              "10 Mbit/s x 200 ms");
        NS_TEST_EXPECT_MSG_EQ(S::WireBytes(1448, RudpDumbbellHelper::TCP),
                              1502,
                              "TCP with timestamps, IPv4, PPP");
        NS_TEST_EXPECT_MSG_EQ(S::WireBytes(1454, RudpDumbbellHelper::RUDP),
                              1502,
                              "RUDP, UDP, IPv4, PPP: the same 1500-byte MTU");
        NS_TEST_EXPECT_MSG_EQ(S::DefaultQueueSize(QueueSizeUnit::BYTES, 625000),
                              625000,
                              "bfifo: one BDP");
        NS_TEST_EXPECT_MSG_EQ(S::DefaultQueueSize(QueueSizeUnit::PACKETS, 625000),
                              1000,
                              "pfifo: 1000 packets");
        NS_TEST_EXPECT_MSG_EQ(S::QueueBytes(30000, QueueSizeUnit::BYTES, 1502), 30000, "bytes");
        NS_TEST_EXPECT_MSG_EQ(S::QueueBytes(50, QueueSizeUnit::PACKETS, 1502),
                              75100,
                              "packets of full size");
        NS_TEST_EXPECT_MSG_EQ(S::DefaultBuffer(625000, 625000), 2500000, "twice BDP plus queue");
        NS_TEST_EXPECT_MSG_EQ(S::DefaultBuffer(1000, 2000), 131072, "at least 128 KiB");
        NS_TEST_EXPECT_MSG_EQ(S::InitialSsThresh(625000, 625000, 2, 1448),
                              625000,
                              "the path's capacity shared by two flows");
        NS_TEST_EXPECT_MSG_EQ(S::InitialSsThresh(1000, 0, 4, 1448), 2896, "at least two segments");
        // 4 (50 ms + 625000 B at 100 Mbit/s = 50 ms) = 400 ms, raised to 1 s;
        // 4 (200 ms + 1502000 B at 10 Mbit/s = 1.2016 s) = 5.6064 s.
        NS_TEST_EXPECT_MSG_EQ(S::LossDelay(DataRate("100Mbps"), MilliSeconds(50), 625000),
                              Seconds(1),
                              "at least 1 s");
        NS_TEST_EXPECT_MSG_EQ(S::LossDelay(DataRate("10Mbps"), MilliSeconds(200), 1502000),
                              MicroSeconds(5606400),
                              "four times the RTT plus a full queue's delay");
    }
};

/// Jain's fairness index.
class RudpJainIndexTest : public TestCase
{
  public:
    RudpJainIndexTest()
        : TestCase("Jain's index: 1 for equal shares, 1 over n for one taker, 0 for nothing")
    {
    }

  private:
    void DoRun() override
    {
        using M = RudpFlowMetrics;
        NS_TEST_EXPECT_MSG_EQ_TOL(M::JainIndex({5, 5, 5, 5}), 1.0, 1e-12, "equal");
        NS_TEST_EXPECT_MSG_EQ_TOL(M::JainIndex({8, 0, 0, 0}), 0.25, 1e-12, "one of four");
        NS_TEST_EXPECT_MSG_EQ_TOL(M::JainIndex({1, 2}), 9.0 / 10.0, 1e-12, "(1+2)^2 / 2(1+4)");
        NS_TEST_EXPECT_MSG_EQ_TOL(M::JainIndex({1e9, 2e9}), 0.9, 1e-12, "scale-free");
        NS_TEST_EXPECT_MSG_EQ(M::JainIndex({0, 0}), 0.0, "nothing delivered");
        NS_TEST_EXPECT_MSG_EQ(M::JainIndex({}), 0.0, "no flow");
    }
};

namespace
{

/// Records the smallest RTT sample of a socket.
void
MinRtt(Time* least, Time /* oldValue */, Time sample)
{
    if (sample.IsStrictlyPositive())
    {
        *least = std::min(*least, sample);
    }
}

/// Connects MinRtt to the socket of \p source.
void
WatchRtt(Ptr<BulkSendApplication> source, Time* least)
{
    source->GetSocket()->TraceConnectWithoutContext("RTT", MakeBoundCallback(&MinRtt, least));
}

/// Counts a drop.
void
CountDrop(uint64_t* drops, Ptr<const Packet> /* packet */)
{
    ++*drops;
}

/// Checks, during a run, what ReceivedBytes counts beyond the sink's reads.
struct HeldCheck
{
    Ptr<PacketSink> sink; ///< the RUDP flow's sink
    uint64_t mismatch{0}; ///< checks where the count was not sink + rx buffer
    uint64_t heldMost{0}; ///< most bytes held ahead of a gap, over the checks
    uint64_t checks{0};   ///< checks made
};

/// One check every millisecond.
void
CheckHeld(HeldCheck* check)
{
    uint64_t held = 0;
    for (const Ptr<Socket>& socket : check->sink->GetAcceptedSockets())
    {
        held += DynamicCast<RudpSocket>(socket)->GetRxBuffer()->Occupancy();
    }
    const uint64_t counted = RudpFlowMetrics::ReceivedBytes(check->sink);
    check->mismatch += counted != check->sink->GetTotalRx() + held ? 1 : 0;
    check->heldMost = std::max(check->heldMost, held);
    ++check->checks;
    Simulator::Schedule(MilliSeconds(1), &CheckHeld, check);
}

} // namespace

/// The topology: per-flow RTTs, TCP and RUDP side by side, the FIFO, the loss.
class RudpDumbbellTopologyTest : public TestCase
{
  public:
    RudpDumbbellTopologyTest()
        : TestCase("Dumbbell: each flow sees its own RTT, TCP and RUDP flows share the FIFO "
                   "bottleneck, random loss drops data, ReceivedBytes counts held bytes")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RudpSocket::Sack", BooleanValue(true));
        Config::SetDefault("ns3::RudpSocket::RtoMode", StringValue("Adaptive"));
        Config::SetDefault("ns3::RudpSocket::WindowSize", UintegerValue(65535));
        RudpDumbbellHelper dumbbell;
        dumbbell.SetBottleneck(DataRate("10Mbps"), MilliSeconds(2));
        dumbbell.SetQueue(QueueSize("40p"));
        dumbbell.SetLoss(0.005);
        dumbbell.SetSourceAttribute("MaxBytes", UintegerValue(0));
        const std::vector<Time> rtts{MilliSeconds(40), MilliSeconds(100), MilliSeconds(60)};
        const std::vector<Time> starts{Seconds(0), Seconds(0.5), Seconds(1)};
        dumbbell.AddFlow(RudpDumbbellHelper::TCP,
                         TcpLinuxReno::GetTypeId(),
                         rtts[0],
                         starts[0],
                         Seconds(10));
        dumbbell.AddFlow(RudpDumbbellHelper::RUDP,
                         TcpLinuxReno::GetTypeId(),
                         rtts[1],
                         starts[1],
                         Seconds(10));
        dumbbell.AddFlow(RudpDumbbellHelper::RUDP,
                         RudpReno::GetTypeId(),
                         rtts[2],
                         starts[2],
                         Seconds(10));
        dumbbell.Install();
        dumbbell.AssignStreams(1);
        NS_TEST_ASSERT_MSG_EQ(dumbbell.GetNFlows(), 3, "three flows");
        NS_TEST_EXPECT_MSG_EQ(dumbbell.GetAccessDelay(1), MilliSeconds(24), "(100/2 - 2) / 2 ms");
        QueueSizeValue limit;
        dumbbell.GetBottleneckQueueDiscs().Get(0)->GetAttribute("MaxSize", limit);
        NS_TEST_EXPECT_MSG_EQ(limit.Get(), QueueSize("40p"), "the FIFO's limit");

        std::vector<Time> least(3, Seconds(100));
        for (uint32_t k = 0; k < 3; ++k)
        {
            Simulator::Schedule(starts[k] + TimeStep(1),
                                &WatchRtt,
                                dumbbell.GetSource(k),
                                &least[k]);
        }
        uint64_t drops = 0;
        dumbbell.GetBottleneckDevices().Get(1)->TraceConnectWithoutContext(
            "PhyRxDrop",
            MakeBoundCallback(&CountDrop, &drops));
        HeldCheck held;
        held.sink = dumbbell.GetSink(1);
        Simulator::Schedule(Seconds(1), &CheckHeld, &held);
        Simulator::Stop(Seconds(10));
        Simulator::Run();

        for (uint32_t k = 0; k < 3; ++k)
        {
            NS_TEST_EXPECT_MSG_GT(dumbbell.GetSink(k)->GetTotalRx(), 100000, "flow " << k);
            // At least the propagation RTT; the least sample adds only
            // serialization (1.2 ms of a full packet at 10 Mbit/s, less on the
            // access links and for the ACK).
            NS_TEST_EXPECT_MSG_GT_OR_EQ(least[k], rtts[k], "flow " << k << "'s RTT");
            NS_TEST_EXPECT_MSG_LT(least[k], rtts[k] + MilliSeconds(3), "flow " << k << "'s RTT");
        }
        NS_TEST_EXPECT_MSG_NE(DynamicCast<TcpSocketBase>(dumbbell.GetSource(0)->GetSocket()),
                              nullptr,
                              "flow 0 runs TCP");
        const Ptr<RudpSocket> rudp = DynamicCast<RudpSocket>(dumbbell.GetSource(1)->GetSocket());
        NS_TEST_ASSERT_MSG_NE(rudp, nullptr, "flow 1 runs RUDP");
        NS_TEST_EXPECT_MSG_EQ(rudp->GetWindowPolicy()->GetName(), "TcpLinuxReno", "its algorithm");
        NS_TEST_EXPECT_MSG_GT(drops, 0, "random loss");
        NS_TEST_EXPECT_MSG_GT(held.checks, 1000, "checked through the run");
        NS_TEST_EXPECT_MSG_EQ(held.mismatch, 0, "the sink's bytes plus the socket's");
        NS_TEST_EXPECT_MSG_GT(held.heldMost, 0, "bytes held ahead of a gap are counted");
        Simulator::Destroy();
        Config::Reset();
    }
};

namespace
{

/// Notes the bytes that reached a sink's receiver so far.
void
ReadReceived(Ptr<PacketSink> sink, uint64_t* bytes)
{
    *bytes = RudpFlowMetrics::ReceivedBytes(sink);
}

} // namespace

/// The goodput meter: bytes from start + warm-up to the end, over that interval.
class RudpGoodputMeterTest : public TestCase
{
  public:
    RudpGoodputMeterTest()
        : TestCase("Goodput meter: counts the bytes received after start + warm-up, over the "
                   "measured interval, within what the bottleneck carries")
    {
    }

  private:
    void DoRun() override
    {
        RudpDumbbellHelper dumbbell;
        const DataRate rate("10Mbps");
        dumbbell.SetBottleneck(rate, MilliSeconds(1));
        dumbbell.SetQueue(QueueSize("100p"));
        dumbbell.SetSourceAttribute("MaxBytes", UintegerValue(0));
        const Time stop = Seconds(3);
        dumbbell.AddFlow(RudpDumbbellHelper::TCP,
                         TcpLinuxReno::GetTypeId(),
                         MilliSeconds(20),
                         Seconds(0),
                         stop);
        dumbbell.AddFlow(RudpDumbbellHelper::TCP,
                         TcpLinuxReno::GetTypeId(),
                         MilliSeconds(20),
                         Seconds(0.5),
                         stop);
        dumbbell.Install();
        const Time warmup = Seconds(1);
        std::vector<Ptr<RudpGoodputMeter>> meters;
        std::vector<uint64_t> atOpen(2, 0);
        for (uint32_t k = 0; k < 2; ++k)
        {
            const Time start = k == 0 ? Seconds(0) : Seconds(0.5);
            meters.push_back(Create<RudpGoodputMeter>(dumbbell.GetSink(k), start, warmup, stop));
            // Right after the meter's own reading, in the same instant.
            Simulator::Schedule(start + warmup, &ReadReceived, dumbbell.GetSink(k), &atOpen[k]);
        }
        NS_TEST_EXPECT_MSG_EQ(meters[0]->GetBytes(), 0, "nothing before the interval opens");
        NS_TEST_EXPECT_MSG_EQ(meters[0]->GetMeasuredSeconds(), 2.0, "3 s - 0 s - 1 s");
        NS_TEST_EXPECT_MSG_EQ(meters[1]->GetMeasuredSeconds(), 1.5, "3 s - 0.5 s - 1 s");
        Simulator::Stop(stop);
        Simulator::Run();

        uint64_t carried = 0;
        for (uint32_t k = 0; k < 2; ++k)
        {
            const Ptr<PacketSink> sink = dumbbell.GetSink(k);
            const uint64_t bytes = meters[k]->GetBytes();
            NS_TEST_EXPECT_MSG_GT(atOpen[k], 0, "flow " << k << " got bytes in its warm-up");
            NS_TEST_EXPECT_MSG_EQ(bytes,
                                  RudpFlowMetrics::ReceivedBytes(sink) - atOpen[k],
                                  "flow " << k << ": from start + warm-up to the end");
            NS_TEST_EXPECT_MSG_EQ(meters[k]->GetTotalBytes(), sink->GetTotalRx(), "flow " << k);
            NS_TEST_EXPECT_MSG_EQ_TOL(meters[k]->GetThroughput(),
                                      bytes * 8.0 / meters[k]->GetMeasuredSeconds(),
                                      1e-6,
                                      "flow " << k << ": bytes over the interval");
            carried += bytes;
        }
        // The bottleneck carries at most 10 Mbit/s of 1502-byte packets with
        // 1448 bytes of payload; the flows share it from 1.5 s, flow 0 has
        // it alone from 1 s. Arrivals at a receiver trail the bottleneck by
        // a fixed delay, so 2 s of measurement hold at most 2 s of its
        // capacity (and one packet in flight).
        const double capacity = rate.GetBitRate() / 8.0 * 1448 / 1502;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(meters[0]->GetBytes(), capacity * 2 + 1448, "flow 0");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(meters[1]->GetBytes(), capacity * 1.5 + 1448, "flow 1");
        NS_TEST_EXPECT_MSG_GT(carried, capacity * 1.2, "the flows keep the bottleneck busy");
        Simulator::Destroy();
    }
};

/// \ingroup rudp-test
/// Dumbbell helper test suite.
class RudpDumbbellTestSuite : public TestSuite
{
  public:
    RudpDumbbellTestSuite()
        : TestSuite("rudp-dumbbell")
    {
        AddTestCase(new RudpDumbbellSizingTest);
        AddTestCase(new RudpJainIndexTest);
        AddTestCase(new RudpDumbbellTopologyTest);
        AddTestCase(new RudpGoodputMeterTest);
    }
};

/// Static instance registering the suite.
static RudpDumbbellTestSuite g_rudpDumbbellTestSuite;
