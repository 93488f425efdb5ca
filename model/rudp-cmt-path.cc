/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-path.h"

#include "ns3/log.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtPath");

NS_OBJECT_ENSURE_REGISTERED(RudpCmtPath);

TypeId
RudpCmtPath::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpCmtPath")
                            .SetParent<Object>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpCmtPath>()
                            .AddTraceSource("RTO",
                                            "The path's retransmission timeout",
                                            MakeTraceSourceAccessor(&RudpCmtPath::m_rtoTrace),
                                            "ns3::TracedValueCallback::Time");
    return tid;
}

RudpCmtPath::RudpCmtPath()
    : m_rtoTimer(CreateObject<RudpRtoTimer>())
{
    NS_LOG_FUNCTION(this);
    // The path's windows are traced where a single-path socket traces them.
    Ptr<RudpSenderState> state = CreateObject<RudpSenderState>();
    AggregateObject(state);
    m_state = PeekPointer(state);
    const bool ok = m_rtoTimer->TraceConnectWithoutContext(
        "RTO",
        MakeCallback(&TracedCallback<Time, Time>::operator(), &m_rtoTrace));
    NS_ASSERT_MSG(ok, "RudpCmtPath could not connect its timer's RTO trace");
    m_rtoTimer->SetExpiryCallback(MakeCallback(&RudpCmtPath::TimerExpired, this));
}

void
RudpCmtPath::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_rtoTimer->Dispose();
    m_expired = MakeNullCallback<void, uint32_t>();
    Object::DoDispose();
}

Ptr<RudpRtoTimer>
RudpCmtPath::GetRtoTimer() const
{
    return m_rtoTimer;
}

void
RudpCmtPath::SetExpiryCallback(Callback<void, uint32_t> expired)
{
    m_expired = expired;
}

void
RudpCmtPath::TimerExpired()
{
    NS_LOG_FUNCTION(this << index);
    m_expired(index);
}

Ptr<RudpSenderState>
RudpCmtPath::GetState() const
{
    return m_state;
}

Ptr<const RttEstimator>
RudpCmtPath::GetRttEstimator() const
{
    return m_rtoTimer->GetRttEstimator();
}

void
RudpCmtPath::Open(uint32_t mss, uint32_t initialCwnd, uint32_t initialSsThresh)
{
    NS_LOG_FUNCTION(this << mss << initialCwnd << initialSsThresh);
    m_state->m_segmentSize = mss;
    m_state->m_initialCwnd = initialCwnd;
    m_state->m_initialSsThresh = initialSsThresh;
    m_state->m_ssThresh = initialSsThresh;
    m_state->m_cWnd = initialCwnd * mss;
    m_state->m_congState = m_state->m_cWnd < m_state->m_ssThresh
                               ? RudpSenderState::SLOW_START
                               : RudpSenderState::CONGESTION_AVOIDANCE;
}

void
RudpCmtPath::Grow(uint32_t bytes, double alpha)
{
    NS_LOG_FUNCTION(this << bytes << alpha);
    const uint32_t mss = m_state->m_segmentSize;
    if (m_state->m_cWnd < m_state->m_ssThresh)
    {
        m_state->m_cWnd += std::min(bytes, mss);
        if (m_state->m_cWnd >= m_state->m_ssThresh)
        {
            m_state->m_congState = RudpSenderState::CONGESTION_AVOIDANCE;
        }
        return;
    }
    // SCTP's congestion avoidance: alpha MSS once a window's worth is acknowledged.
    m_partialBytesAcked += bytes;
    if (m_partialBytesAcked >= m_state->m_cWnd)
    {
        m_partialBytesAcked -= m_state->m_cWnd;
        m_state->m_cWnd += static_cast<uint32_t>(std::lround(alpha * mss));
    }
}

void
RudpCmtPath::Reduce(double beta)
{
    NS_LOG_FUNCTION(this << beta);
    const uint32_t mss = m_state->m_segmentSize;
    const auto kept = static_cast<uint32_t>((1.0 - beta) * m_state->m_cWnd);
    m_state->m_ssThresh = std::max(kept, 2 * mss);
    m_state->m_cWnd = m_state->m_ssThresh.Get();
    m_partialBytesAcked = 0;
    m_state->m_congState = RudpSenderState::FAST_RECOVERY;
}

void
RudpCmtPath::Collapse()
{
    NS_LOG_FUNCTION(this);
    const uint32_t mss = m_state->m_segmentSize;
    m_state->m_ssThresh = std::max(m_state->m_cWnd.Get() / 2, 2 * mss);
    m_state->m_cWnd = mss;
    m_partialBytesAcked = 0;
    m_state->m_congState = RudpSenderState::SLOW_START;
}

uint32_t
RudpCmtPath::Room(uint32_t inFlight) const
{
    const uint32_t cwnd = m_state->m_cWnd;
    return cwnd > inFlight ? cwnd - inFlight : 0;
}

} // namespace ns3
