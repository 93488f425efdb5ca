/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-jitter-channel.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpJitterChannel");

NS_OBJECT_ENSURE_REGISTERED(RudpJitterChannel);

TypeId
RudpJitterChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RudpJitterChannel")
            .SetParent<PointToPointChannel>()
            .SetGroupName("Rudp")
            .AddConstructor<RudpJitterChannel>()
            .AddAttribute("Jitter",
                          "The largest random delay added to each packet's Delay, drawn "
                          "uniformly per packet; packets keep the order they were sent in "
                          "(0 s..1 s; 0: none)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&RudpJitterChannel::m_jitter),
                          MakeTimeChecker(Seconds(0), Seconds(1)));
    return tid;
}

RudpJitterChannel::RudpJitterChannel()
    : m_draw(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

int64_t
RudpJitterChannel::AssignStreams(int64_t stream)
{
    m_draw->SetStream(stream);
    return 1;
}

bool
RudpJitterChannel::TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime)
{
    NS_LOG_FUNCTION(this << p << src << txTime);
    if (m_jitter.IsZero())
    {
        return PointToPointChannel::TransmitStart(p, src, txTime);
    }
    NS_ASSERT(IsInitialized());
    const uint32_t wire = src == GetSource(0) ? 0 : 1;
    const Time drawn =
        txTime + GetDelay() + NanoSeconds(m_draw->GetInteger(0, m_jitter.GetNanoSeconds()));
    const Time arrival = std::max(Simulator::Now() + drawn, m_lastArrival[wire]);
    m_lastArrival[wire] = arrival;
    Ptr<PointToPointNetDevice> destination = GetDestination(wire);
    Simulator::ScheduleWithContext(destination->GetNode()->GetId(),
                                   arrival - Simulator::Now(),
                                   &PointToPointNetDevice::Receive,
                                   destination,
                                   p->Copy());
    return true;
}

} // namespace ns3
