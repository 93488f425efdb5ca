/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cwnd-trace.h"

#include "rudp-text.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rudp-socket.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-base.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCwndTrace");

namespace
{

/// How often ConnectWhenCreated looks again within the start instant.
const uint32_t MAX_TRIES = 100;

} // namespace

const char* const RudpCwndTrace::HEADER = "time_s,cwnd_bytes,ssthresh_bytes,state,timeouts";

RudpCwndTrace::RudpCwndTrace(const std::string& path)
    : m_file(path, std::ios::out | std::ios::trunc)
{
    NS_LOG_FUNCTION(this << path);
    m_file << HEADER << '\n';
}

RudpCwndTrace::~RudpCwndTrace()
{
    NS_LOG_FUNCTION(this);
    Close();
}

bool
RudpCwndTrace::IsGood() const
{
    return m_file.is_open() && m_file.good();
}

void
RudpCwndTrace::Connect(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    // The callbacks hold this object: it lives as long as the socket's traces.
    const Ptr<RudpCwndTrace> self(this);
    bool connected = false;
    if (const Ptr<RudpSocket> rudp = DynamicCast<RudpSocket>(socket))
    {
        m_rudp = PeekPointer(rudp);
        const Ptr<const RudpSenderState> state = rudp->GetSenderState();
        m_cwnd = state->m_cWnd;
        m_ssThresh = state->m_ssThresh;
        m_state = RudpSenderState::CongStateName(state->m_congState);
        m_timeouts = rudp->GetStats().timeouts;
        connected = socket->TraceConnectWithoutContext(
            "CongState",
            MakeCallback(&RudpCwndTrace::RudpStateChanged, self));
    }
    else if (DynamicCast<TcpSocketBase>(socket))
    {
        // TCP's values are set when its connection opens; its first state is CA_OPEN.
        m_rudp = nullptr;
        m_cwnd = 0;
        m_ssThresh = 0;
        m_state = TcpSocketState::TcpCongStateName[TcpSocketState::CA_OPEN];
        m_timeouts = 0;
        connected =
            socket->TraceConnectWithoutContext("CongState",
                                               MakeCallback(&RudpCwndTrace::TcpStateChanged, self));
    }
    NS_ABORT_MSG_UNLESS(
        connected &&
            socket->TraceConnectWithoutContext("CongestionWindow",
                                               MakeCallback(&RudpCwndTrace::CwndChanged, self)) &&
            socket->TraceConnectWithoutContext("SlowStartThreshold",
                                               MakeCallback(&RudpCwndTrace::SsThreshChanged, self)),
        "RudpCwndTrace: " << socket->GetInstanceTypeId().GetName()
                          << " is neither a RudpSocket nor a TcpSocketBase");
}

void
RudpCwndTrace::ConnectWhenCreated(Callback<Ptr<Socket>> socketOf, Time start)
{
    NS_LOG_FUNCTION(this << start);
    // The application's start is scheduled when its node is initialised, in
    // the simulation: after this event of the same instant. TryConnect then
    // looks again at the end of the instant's events.
    Simulator::Schedule(start - Simulator::Now(),
                        &RudpCwndTrace::TryConnect,
                        Ptr<RudpCwndTrace>(this),
                        socketOf,
                        0u);
}

void
RudpCwndTrace::TryConnect(Callback<Ptr<Socket>> socketOf, uint32_t tries)
{
    NS_LOG_FUNCTION(this << tries);
    if (m_closed)
    {
        return;
    }
    const Ptr<Socket> socket = socketOf();
    if (socket)
    {
        Connect(socket);
    }
    else if (tries < MAX_TRIES)
    {
        Simulator::ScheduleNow(&RudpCwndTrace::TryConnect,
                               Ptr<RudpCwndTrace>(this),
                               socketOf,
                               tries + 1);
    }
    else
    {
        NS_LOG_WARN("the application made no socket at its start: nothing to trace");
    }
}

bool
RudpCwndTrace::Close()
{
    NS_LOG_FUNCTION(this);
    if (!m_closed)
    {
        m_closed = true;
        if (m_pending)
        {
            WriteLine();
        }
        m_file.close();
    }
    return !m_file.fail();
}

void
RudpCwndTrace::BeginChange()
{
    if (m_pending && Simulator::Now() != m_pendingTime)
    {
        WriteLine();
    }
    m_pending = true;
    m_pendingTime = Simulator::Now();
    if (m_rudp)
    {
        // A timeout counts itself before it changes the window.
        m_timeouts = m_rudp->GetStats().timeouts;
    }
}

void
RudpCwndTrace::WriteLine()
{
    m_file << RudpText::FormatReal(m_pendingTime.GetSeconds()) << ',' << m_cwnd << ',' << m_ssThresh
           << ',' << m_state << ',' << m_timeouts << '\n';
    m_pending = false;
}

void
RudpCwndTrace::CwndChanged(uint32_t /* oldValue */, uint32_t newValue)
{
    if (!m_closed)
    {
        BeginChange();
        m_cwnd = newValue;
    }
}

void
RudpCwndTrace::SsThreshChanged(uint32_t /* oldValue */, uint32_t newValue)
{
    if (!m_closed)
    {
        BeginChange();
        m_ssThresh = newValue;
    }
}

void
RudpCwndTrace::RudpStateChanged(RudpSenderState::CongState /* oldValue */,
                                RudpSenderState::CongState newValue)
{
    if (!m_closed)
    {
        BeginChange();
        m_state = RudpSenderState::CongStateName(newValue);
    }
}

void
RudpCwndTrace::TcpStateChanged(TcpSocketState::TcpCongState_t /* oldValue */,
                               TcpSocketState::TcpCongState_t newValue)
{
    if (!m_closed)
    {
        BeginChange();
        m_state = TcpSocketState::TcpCongStateName[newValue];
        if (newValue == TcpSocketState::CA_LOSS)
        {
            ++m_timeouts;
        }
    }
}

} // namespace ns3
