/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-tcp-congestion-adapter.h"

#include "rudp-compat.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpTcpCongestionAdapter");

NS_OBJECT_ENSURE_REGISTERED(RudpTcpCongestionAdapter);

TypeId
RudpTcpCongestionAdapter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpTcpCongestionAdapter")
                            .SetParent<RudpWindowPolicy>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpTcpCongestionAdapter>();
    return tid;
}

void
RudpTcpCongestionAdapter::SetCongestionOps(Ptr<TcpCongestionOps> algorithm)
{
    NS_LOG_FUNCTION(this << algorithm);
    NS_ABORT_MSG_IF(algorithm->HasCongControl(),
                    "RudpTcpCongestionAdapter: " << algorithm->GetName()
                                                 << " replaces TCP's control loop (CongControl) "
                                                    "and needs TCP's rate sampling, which RUDP "
                                                    "does not have");
    m_algorithm = algorithm;
}

Ptr<TcpCongestionOps>
RudpTcpCongestionAdapter::GetCongestionOps() const
{
    return m_algorithm;
}

Ptr<const TcpSocketState>
RudpTcpCongestionAdapter::GetTcpState() const
{
    return m_state;
}

std::string
RudpTcpCongestionAdapter::GetName() const
{
    return m_algorithm ? m_algorithm->GetName() : "TcpCongestionOps";
}

void
RudpTcpCongestionAdapter::Init(Ptr<RudpSenderState> tcb)
{
    NS_LOG_FUNCTION(this << tcb);
    NS_ABORT_MSG_UNLESS(m_algorithm, "RudpTcpCongestionAdapter without a congestion control");
    m_state->m_segmentSize = tcb->m_segmentSize;
    m_state->m_initialCWnd = tcb->m_initialCwnd;
    m_state->m_initialSsThresh = tcb->m_initialSsThresh;
    m_state->m_cWnd = tcb->m_initialCwnd * tcb->m_segmentSize;
    m_state->m_cWndInfl = m_state->m_cWnd;
    m_state->m_ssThresh = tcb->m_initialSsThresh;
    m_state->m_congState = TcpSocketState::CA_OPEN;
    m_algorithm->Init(m_state);
    Publish(tcb);
}

uint32_t
RudpTcpCongestionAdapter::GetSendWindow(Ptr<const RudpSenderState> tcb) const
{
    return std::min<uint32_t>(m_state->m_cWnd, tcb->m_windowSegments * tcb->m_segmentSize);
}

void
RudpTcpCongestionAdapter::OnNewAck(Ptr<RudpSenderState> tcb, uint32_t segmentsAcked)
{
    NS_LOG_FUNCTION(this << tcb << segmentsAcked);
    Refresh(tcb);
    const bool recovered = tcb->m_highAck >= m_recover;
    // As TcpSocketBase: a partial ACK in recovery reports one more segment
    // delivered, the others were reported by the duplicate ACKs before it.
    const bool partial = m_state->m_congState == TcpSocketState::CA_RECOVERY && !recovered;
    m_algorithm->PktsAcked(m_state, partial ? 1 : segmentsAcked, tcb->m_lastRtt);
    switch (m_state->m_congState.Get())
    {
    case TcpSocketState::CA_RECOVERY:
        if (recovered)
        {
            // Full ACK: leave recovery with the reduced window (RFC 6582).
            m_state->m_cWnd = m_state->m_ssThresh.Get();
            SetCongState(TcpSocketState::CA_OPEN);
        }
        else if (!tcb->m_selectiveRepeat)
        {
            // Partial ACK: deflate by what it acknowledged, add back one segment.
            const uint32_t acked = segmentsAcked * m_state->m_segmentSize;
            m_state->m_cWnd = std::max(m_state->m_cWnd.Get(), acked + m_state->m_segmentSize) -
                              acked + m_state->m_segmentSize;
        }
        break;
    case TcpSocketState::CA_LOSS:
        if (recovered)
        {
            SetCongState(TcpSocketState::CA_OPEN);
        }
        m_algorithm->IncreaseWindow(m_state, segmentsAcked);
        break;
    default:
        m_algorithm->IncreaseWindow(m_state, segmentsAcked);
        break;
    }
    Publish(tcb);
}

bool
RudpTcpCongestionAdapter::OnDupAck(Ptr<RudpSenderState> tcb, uint32_t count)
{
    NS_LOG_FUNCTION(this << tcb << count);
    Refresh(tcb);
    // A duplicate ACK means a segment left the network (TcpSocketBase).
    m_algorithm->PktsAcked(m_state, 1, tcb->m_lastRtt);
    const TcpSocketState::TcpCongState_t state = m_state->m_congState;
    if (state == TcpSocketState::CA_RECOVERY)
    {
        if (!tcb->m_selectiveRepeat)
        {
            // NewReno's inflation: each duplicate ACK means a segment left the
            // network. With SACKs it has left the flight already.
            m_state->m_cWnd += m_state->m_segmentSize;
            Publish(tcb);
        }
        return false;
    }
    if (state == TcpSocketState::CA_LOSS || count != tcb->m_dupAckThreshold)
    {
        // After a timeout every segment is being resent: no second reduction.
        return false;
    }
    m_recover = tcb->m_highTxMark;
    m_state->m_ssThresh = m_algorithm->GetSsThresh(m_state, m_state->m_bytesInFlight);
    m_state->m_cWnd =
        m_state->m_ssThresh +
        (tcb->m_selectiveRepeat ? 0 : tcb->m_dupAckThreshold * m_state->m_segmentSize);
    SetCongState(TcpSocketState::CA_RECOVERY);
    Publish(tcb);
    return true;
}

void
RudpTcpCongestionAdapter::OnTimeout(Ptr<RudpSenderState> tcb)
{
    NS_LOG_FUNCTION(this << tcb);
    Refresh(tcb);
    // ssthresh is set once per loss episode (RFC 5681 section 3.1: only when
    // the segment "has not yet been resent by way of the retransmission
    // timer"; Linux's tcp_enter_loss: only if no reduction was made inside
    // this window). In fast recovery the reduction was made; in the loss
    // state it was, unless an ACK has advanced the head since the last
    // timeout (Linux's icsk_retransmits is then 0 again).
    const TcpSocketState::TcpCongState_t state = m_state->m_congState;
    const bool reduced = state == TcpSocketState::CA_RECOVERY ||
                         (state == TcpSocketState::CA_LOSS && tcb->m_highAck == m_timeoutHead);
    if (!reduced)
    {
        m_state->m_ssThresh = m_algorithm->GetSsThresh(m_state, m_state->m_bytesInFlight);
    }
    else
    {
        NS_LOG_LOGIC("timeout in " << TcpSocketState::TcpCongStateName[state]
                                   << ": ssthresh kept at " << m_state->m_ssThresh);
    }
    m_recover = tcb->m_highTxMark;
    m_timeoutHead = tcb->m_highAck;
    m_state->m_cWnd = m_state->m_segmentSize;
    SetCongState(TcpSocketState::CA_LOSS);
    Publish(tcb);
}

void
RudpTcpCongestionAdapter::Refresh(Ptr<const RudpSenderState> tcb)
{
    m_state->m_bytesInFlight = tcb->m_bytesInFlight;
    m_state->m_lastRtt = tcb->m_lastRtt;
    m_state->m_minRtt = tcb->m_minRtt;
    // A bulk sender keeps its window full: the algorithm may grow it.
    rudpcompat::SetCwndLimited(*m_state, true);
}

void
RudpTcpCongestionAdapter::SetCongState(TcpSocketState::TcpCongState_t state)
{
    NS_LOG_FUNCTION(this << TcpSocketState::TcpCongStateName[state]);
    m_algorithm->CongestionStateSet(m_state, state);
    m_state->m_congState = state;
}

void
RudpTcpCongestionAdapter::Publish(Ptr<RudpSenderState> tcb) const
{
    // ssthresh first, as the algorithms set it: a trace of both sees the
    // window before a reduction next to the threshold it led to.
    NS_LOG_DEBUG(m_algorithm->GetName()
                 << ": cwnd " << m_state->m_cWnd << " ssthresh " << m_state->m_ssThresh << " "
                 << TcpSocketState::TcpCongStateName[m_state->m_congState]);
    tcb->m_ssThresh = m_state->m_ssThresh;
    tcb->m_cWnd = m_state->m_cWnd;
    switch (m_state->m_congState.Get())
    {
    case TcpSocketState::CA_RECOVERY:
        tcb->m_congState = RudpSenderState::FAST_RECOVERY;
        break;
    default:
        tcb->m_congState = m_state->m_cWnd < m_state->m_ssThresh
                               ? RudpSenderState::SLOW_START
                               : RudpSenderState::CONGESTION_AVOIDANCE;
        break;
    }
}

} // namespace ns3
