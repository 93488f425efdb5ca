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

RudpDeadline::~RudpDeadline()
{
    m_event.Cancel();
}

void
RudpDeadline::Set(Time delay)
{
    m_deadline = Simulator::Now() + delay;
    m_running = true;
    if (m_pending && m_eventTime <= m_deadline)
    {
        return;
    }
    m_event.Cancel();
    m_event = Simulator::Schedule(delay, &RudpDeadline::Fire, this);
    m_pending = true;
    m_eventTime = m_deadline;
}

void
RudpDeadline::Cancel()
{
    m_running = false;
}

bool
RudpDeadline::IsRunning() const
{
    return m_running;
}

Time
RudpDeadline::GetDeadline() const
{
    return m_deadline;
}

void
RudpDeadline::Fire()
{
    m_pending = false;
    if (!m_running)
    {
        return; // cancelled since
    }
    const Time now = Simulator::Now();
    if (now < m_deadline)
    {
        m_event = Simulator::Schedule(m_deadline - now, &RudpDeadline::Fire, this);
        m_pending = true;
        m_eventTime = m_deadline;
        return; // moved since it was scheduled
    }
    m_running = false;
    m_expired();
}

} // namespace ns3
