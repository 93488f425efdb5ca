/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-sender-state.h"

#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RudpSenderState);

TypeId
RudpSenderState::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpSenderState")
                            .SetParent<Object>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpSenderState>()
                            .AddTraceSource("CongestionWindow",
                                            "The congestion window (bytes)",
                                            MakeTraceSourceAccessor(&RudpSenderState::m_cWnd),
                                            "ns3::TracedValueCallback::Uint32")
                            .AddTraceSource("SlowStartThreshold",
                                            "The slow-start threshold (bytes)",
                                            MakeTraceSourceAccessor(&RudpSenderState::m_ssThresh),
                                            "ns3::TracedValueCallback::Uint32")
                            .AddTraceSource("CongState",
                                            "The congestion-control state",
                                            MakeTraceSourceAccessor(&RudpSenderState::m_congState),
                                            "ns3::RudpSenderState::CongStateTracedValueCallback");
    return tid;
}

const char*
RudpSenderState::CongStateName(CongState state)
{
    switch (state)
    {
    case SLOW_START:
        return "SLOW_START";
    case CONGESTION_AVOIDANCE:
        return "CONGESTION_AVOIDANCE";
    case FAST_RECOVERY:
        return "FAST_RECOVERY";
    case FIXED_WINDOW:
        return "FIXED_WINDOW";
    }
    return "?";
}

uint32_t
RudpSenderState::CwndInSegments() const
{
    return m_cWnd / m_segmentSize;
}

} // namespace ns3
