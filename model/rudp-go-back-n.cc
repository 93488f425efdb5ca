/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-go-back-n.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RudpGoBackN);

TypeId
RudpGoBackN::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpGoBackN")
                            .SetParent<RudpWindowPolicy>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpGoBackN>();
    return tid;
}

std::string
RudpGoBackN::GetName() const
{
    return "GoBackN";
}

void
RudpGoBackN::Init(Ptr<RudpSenderState> tcb)
{
    m_nextTrigger = tcb->m_dupAckThreshold;
    tcb->m_cWnd = GetSendWindow(tcb);
    tcb->m_congState = RudpSenderState::FIXED_WINDOW;
}

uint32_t
RudpGoBackN::GetSendWindow(Ptr<const RudpSenderState> tcb) const
{
    return tcb->m_windowSegments * tcb->m_segmentSize;
}

void
RudpGoBackN::OnNewAck(Ptr<RudpSenderState> tcb, uint32_t /* segmentsAcked */)
{
    m_nextTrigger = tcb->m_dupAckThreshold;
}

bool
RudpGoBackN::OnDupAck(Ptr<RudpSenderState> tcb, uint32_t count)
{
    // The seed resends the window on every ReTxThreshold identical ACKs.
    // Read literally, the duplicates that the segments in flight when it
    // resent still provoke would trigger more resends without end (a storm):
    // let as many pass as were in flight, then ReTxThreshold more, which
    // only a lost resend can cause.
    if (count < m_nextTrigger)
    {
        return false;
    }
    m_nextTrigger = count + tcb->m_bytesInFlight / tcb->m_segmentSize + tcb->m_dupAckThreshold;
    return true;
}

void
RudpGoBackN::OnTimeout(Ptr<RudpSenderState> /* tcb */)
{
}

} // namespace ns3
