/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-deadline.h"

#include "ns3/simulator.h"

namespace ns3
{

void
RudpDeadline::SetFunction(Callback<void> expired)
{
    m_expired = expired;
}

void
RudpDeadline::Set(Time delay)
{
    m_deadline = Simulator::Now() + delay;
    if (!m_event.IsExpired() && Simulator::GetDelayLeft(m_event) <= delay)
    {
        return;
    }
    m_event.Cancel();
    m_event = Simulator::Schedule(delay, &RudpDeadline::Fire, this);
}

void
RudpDeadline::Cancel()
{
    m_event.Cancel();
}

bool
RudpDeadline::IsRunning() const
{
    return !m_event.IsExpired();
}

Time
RudpDeadline::GetDeadline() const
{
    return m_deadline;
}

void
RudpDeadline::Fire()
{
    const Time now = Simulator::Now();
    if (now < m_deadline)
    {
        m_event = Simulator::Schedule(m_deadline - now, &RudpDeadline::Fire, this);
        return; // moved since it was scheduled
    }
    m_expired();
}

} // namespace ns3
