/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-reno.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpReno");

NS_OBJECT_ENSURE_REGISTERED(RudpReno);

TypeId
RudpReno::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpReno")
                            .SetParent<RudpWindowPolicy>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpReno>();
    return tid;
}

std::string
RudpReno::GetName() const
{
    return "Reno";
}

void
RudpReno::Init(Ptr<RudpSenderState> tcb)
{
    NS_LOG_FUNCTION(this << tcb);
    tcb->m_cWnd = tcb->m_initialCwnd * tcb->m_segmentSize;
    tcb->m_ssThresh = tcb->m_initialSsThresh;
    m_caAckCount = 0;
    tcb->m_congState = tcb->m_cWnd >= tcb->m_ssThresh ? RudpSenderState::CONGESTION_AVOIDANCE
                                                      : RudpSenderState::SLOW_START;
}

uint32_t
RudpReno::GetSendWindow(Ptr<const RudpSenderState> tcb) const
{
    return std::min<uint32_t>(tcb->m_cWnd, tcb->m_windowSegments * tcb->m_segmentSize);
}

void
RudpReno::OnNewAck(Ptr<RudpSenderState> tcb, uint32_t /* segmentsAcked */)
{
    switch (tcb->m_congState)
    {
    case RudpSenderState::SLOW_START:
        tcb->m_cWnd += tcb->m_segmentSize;
        if (tcb->m_cWnd >= tcb->m_ssThresh)
        {
            m_caAckCount = 0;
            tcb->m_congState = RudpSenderState::CONGESTION_AVOIDANCE;
        }
        break;
    case RudpSenderState::CONGESTION_AVOIDANCE:
        if (++m_caAckCount >= std::max<uint32_t>(tcb->CwndInSegments(), 1))
        {
            m_caAckCount = 0;
            tcb->m_cWnd += tcb->m_segmentSize;
        }
        break;
    case RudpSenderState::FAST_RECOVERY:
        if (tcb->m_selectiveRepeat && tcb->m_highAck < m_recover)
        {
            // With SACK, recovery lasts until everything sent before it is
            // acknowledged (RFC 6675, 5): the holes a partial ACK leaves are
            // the same loss event, not a second one to halve the window for.
            break;
        }
        tcb->m_cWnd = tcb->m_ssThresh;
        m_caAckCount = 0;
        tcb->m_congState = RudpSenderState::CONGESTION_AVOIDANCE;
        break;
    case RudpSenderState::FIXED_WINDOW:
        NS_ASSERT_MSG(false, "Reno never uses a fixed window");
        break;
    }
    NS_LOG_DEBUG("new ACK: cwnd=" << tcb->m_cWnd << " ssthresh=" << tcb->m_ssThresh << " "
                                  << RudpSenderState::CongStateName(tcb->m_congState));
}

bool
RudpReno::OnDupAck(Ptr<RudpSenderState> tcb, uint32_t count)
{
    // Inflation counts the segments that left the network by their duplicate
    // ACKs. With SACK they have left the bytes in flight already (RFC 6675's
    // pipe): inflating as well would count each of them twice, and the
    // sender would send two segments for each duplicate in fast recovery.
    // Without inflation the recovery window is ssthresh alone, which must
    // leave room for the retransmission: RFC 6675 (and RFC 5681, 3.1) keeps
    // it at least two segments. (Without SACK the seed's cwnd/2 stays, as
    // the inflated window always holds the retransmission.)
    const bool inflate = !tcb->m_selectiveRepeat;
    if (tcb->m_congState == RudpSenderState::FAST_RECOVERY)
    {
        if (inflate)
        {
            tcb->m_cWnd += tcb->m_segmentSize;
        }
        return false;
    }
    if (count != tcb->m_dupAckThreshold)
    {
        return false;
    }
    const uint32_t half = tcb->m_cWnd / 2;
    tcb->m_ssThresh = inflate ? half : std::max(half, 2 * tcb->m_segmentSize);
    tcb->m_cWnd = tcb->m_ssThresh + (inflate ? tcb->m_dupAckThreshold * tcb->m_segmentSize : 0);
    tcb->m_congState = RudpSenderState::FAST_RECOVERY;
    m_recover = tcb->m_highTxMark;
    NS_LOG_DEBUG("fast retransmit: cwnd=" << tcb->m_cWnd << " ssthresh=" << tcb->m_ssThresh);
    return true;
}

void
RudpReno::OnTimeout(Ptr<RudpSenderState> tcb)
{
    NS_LOG_FUNCTION(this << tcb);
    tcb->m_ssThresh = tcb->m_cWnd / 2;
    tcb->m_cWnd = tcb->m_segmentSize;
    m_caAckCount = 0;
    tcb->m_congState = RudpSenderState::SLOW_START;
    NS_LOG_DEBUG("timeout: cwnd=" << tcb->m_cWnd << " ssthresh=" << tcb->m_ssThresh);
}

} // namespace ns3
