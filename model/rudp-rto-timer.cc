/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-rto-timer.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpRtoTimer");

NS_OBJECT_ENSURE_REGISTERED(RudpRtoTimer);

TypeId
RudpRtoTimer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpRtoTimer")
                            .SetParent<Object>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpRtoTimer>()
                            .AddTraceSource("RTO",
                                            "The retransmission timeout",
                                            MakeTraceSourceAccessor(&RudpRtoTimer::m_rto),
                                            "ns3::TracedValueCallback::Time");
    return tid;
}

RudpRtoTimer::RudpRtoTimer()
    : m_rtt(CreateObject<RttMeanDeviation>())
{
    NS_LOG_FUNCTION(this);
}

RudpRtoTimer::~RudpRtoTimer()
{
    NS_LOG_FUNCTION(this);
}

void
RudpRtoTimer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_timer.Cancel();
    m_timer.SetFunction(MakeNullCallback<void>());
    Object::DoDispose();
}

void
RudpRtoTimer::Configure(Mode mode,
                        Time initialRto,
                        Time minRto,
                        Time maxRto,
                        const std::string& owner)
{
    NS_LOG_FUNCTION(this << mode << initialRto << minRto << maxRto << owner);
    NS_ABORT_MSG_IF(mode == ADAPTIVE && minRto > maxRto,
                    owner << "::MinRto (" << minRto.As(Time::S) << ") must not exceed MaxRto ("
                          << maxRto.As(Time::S) << ")");
    m_mode = mode;
    m_initialRto = initialRto;
    m_minRto = minRto;
    m_maxRto = maxRto;
    m_baseRto = ComputeBaseRto();
}

void
RudpRtoTimer::SetExpiryCallback(Callback<void> expired)
{
    m_timer.SetFunction(expired);
}

Ptr<const RttEstimator>
RudpRtoTimer::GetRttEstimator() const
{
    return m_rtt;
}

void
RudpRtoTimer::Sample(Time rtt)
{
    m_rtt->Measurement(rtt);
    m_baseRto = ComputeBaseRto();
    m_rto = GetRto();
}

Time
RudpRtoTimer::ComputeBaseRto() const
{
    if (m_mode == FIXED || m_rtt->GetNSamples() == 0)
    {
        return m_initialRto;
    }
    return std::max(m_minRto,
                    m_rtt->GetEstimate() + std::max(MilliSeconds(1), m_rtt->GetVariation() * 4));
}

Time
RudpRtoTimer::GetRto() const
{
    if (m_mode == FIXED)
    {
        return m_initialRto;
    }
    return std::min(m_baseRto * m_backoff, m_maxRto);
}

void
RudpRtoTimer::Backoff()
{
    // Doubling further once the timeout is at MaxRto changes nothing; it
    // would only overflow in the end.
    if (m_mode == ADAPTIVE && m_baseRto * m_backoff < m_maxRto)
    {
        m_backoff *= 2;
    }
    NS_LOG_LOGIC("backoff " << m_backoff);
}

void
RudpRtoTimer::ResetBackoff()
{
    m_backoff = 1;
}

uint32_t
RudpRtoTimer::GetBackoff() const
{
    return m_backoff;
}

void
RudpRtoTimer::Restart()
{
    m_rto = GetRto();
    m_timer.Set(m_rto);
}

void
RudpRtoTimer::Cancel()
{
    m_timer.Cancel();
}

bool
RudpRtoTimer::IsRunning() const
{
    return m_timer.IsRunning();
}

} // namespace ns3
