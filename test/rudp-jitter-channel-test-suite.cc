/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/data-rate.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/rudp-jitter-channel.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * RudpJitterChannel: each packet takes the channel's Delay plus at most
 * Jitter, in the order it was sent; with no Jitter, a PointToPointChannel.
 */

using namespace ns3;

namespace
{

/// What one direction of a link received: each packet's uid and arrival.
struct Arrivals
{
    std::vector<uint64_t> uids; ///< in arrival order
    std::vector<Time> times;    ///< the same order

    /// Records a packet a device received.
    bool Received(Ptr<NetDevice>, Ptr<const Packet> packet, uint16_t, const Address&)
    {
        uids.push_back(packet->GetUid());
        times.push_back(Simulator::Now());
        return true;
    }
};

/**
 * \brief Sends \p count packets of 1000 bytes back to back from one end of
 * a 100 Mbit/s RudpJitterChannel to the other.
 * \param delay the channel's Delay
 * \param jitter its Jitter
 * \param count packets
 * \param [out] sent each packet's uid and when its transmission ended
 * \return what the far end received
 */
Arrivals
SendBurst(Time delay, Time jitter, uint32_t count, std::vector<std::pair<uint64_t, Time>>& sent)
{
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    Ptr<RudpJitterChannel> channel =
        CreateObjectWithAttributes<RudpJitterChannel>("Delay",
                                                      TimeValue(delay),
                                                      "Jitter",
                                                      TimeValue(jitter));
    std::vector<Ptr<PointToPointNetDevice>> devices;
    for (const Ptr<Node>& node : {a, b})
    {
        Ptr<PointToPointNetDevice> device = CreateObject<PointToPointNetDevice>();
        device->SetAddress(Mac48Address::Allocate());
        device->SetDataRate(DataRate("100Mbps"));
        Ptr<DropTailQueue<Packet>> queue = CreateObject<DropTailQueue<Packet>>();
        queue->SetMaxSize(QueueSize("10000p"));
        device->SetQueue(queue);
        node->AddDevice(device);
        device->Attach(channel);
        devices.push_back(device);
    }
    Arrivals arrivals;
    devices[1]->SetReceiveCallback(MakeCallback(&Arrivals::Received, &arrivals));
    const Time txTime = DataRate("100Mbps").CalculateBytesTxTime(1000 + 2); // PPP's header
    for (uint32_t k = 0; k < count; ++k)
    {
        Ptr<Packet> packet = Create<Packet>(1000);
        sent.emplace_back(packet->GetUid(), (k + 1) * txTime);
        devices[0]->Send(packet, devices[1]->GetAddress(), 0x0800);
    }
    Simulator::Run();
    Simulator::Destroy();
    return arrivals;
}

/// Jitter 0: every packet arrives its transmission time plus Delay after it started.
class RudpJitterChannelNoJitterTestCase : public TestCase
{
  public:
    RudpJitterChannelNoJitterTestCase()
        : TestCase("no jitter: a point-to-point channel's arrivals")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::pair<uint64_t, Time>> sent;
        const Arrivals arrivals = SendBurst(MilliSeconds(2), Seconds(0), 50, sent);
        NS_TEST_ASSERT_MSG_EQ(arrivals.uids.size(), sent.size(), "every packet arrives");
        for (uint32_t k = 0; k < sent.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(arrivals.uids[k], sent[k].first, "in order");
            const Time due = sent[k].second + MilliSeconds(2);
            NS_TEST_EXPECT_MSG_EQ(arrivals.times[k].GetTimeStep(), due.GetTimeStep(), "on time");
        }
    }
};

/**
 * Jitter of ten packets' times: every packet late by at most Jitter, in
 * order, and not all late by the same (the delays are drawn).
 */
class RudpJitterChannelOrderTestCase : public TestCase
{
  public:
    RudpJitterChannelOrderTestCase()
        : TestCase("jitter: each packet within Delay + Jitter, none overtaken, delays drawn")
    {
    }

  private:
    void DoRun() override
    {
        const Time delay = MilliSeconds(2);
        const Time jitter = MicroSeconds(800); // ten packets' times at 100 Mbit/s
        std::vector<std::pair<uint64_t, Time>> sent;
        const Arrivals arrivals = SendBurst(delay, jitter, 500, sent);
        NS_TEST_ASSERT_MSG_EQ(arrivals.uids.size(), sent.size(), "every packet arrives");
        Time least = Time::Max();
        Time most = Seconds(0);
        for (uint32_t k = 0; k < sent.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(arrivals.uids[k], sent[k].first, "no packet overtaken");
            const Time late = arrivals.times[k] - sent[k].second - delay;
            NS_TEST_ASSERT_MSG_GT_OR_EQ(late, Seconds(0), "never before Delay");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(late, jitter, "at most Jitter late");
            least = std::min(least, late);
            most = std::max(most, late);
        }
        NS_TEST_EXPECT_MSG_GT(most - least, jitter / 2, "the extra delays spread over Jitter");
    }
};

/// The suite.
class RudpJitterChannelTestSuite : public TestSuite
{
  public:
    RudpJitterChannelTestSuite()
        : TestSuite("rudp-jitter-channel")
    {
        AddTestCase(new RudpJitterChannelNoJitterTestCase);
        AddTestCase(new RudpJitterChannelOrderTestCase);
    }
};

/// The suite's one instance.
static RudpJitterChannelTestSuite g_rudpJitterChannelTestSuite;

} // namespace
