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
    tcb->m_cWnd = GetSendWindow(tcb);
    tcb->m_congState = RudpSenderState::FIXED_WINDOW;
}

uint32_t
RudpGoBackN::GetSendWindow(Ptr<const RudpSenderState> tcb) const
{
    return tcb->m_windowSegments * tcb->m_segmentSize;
}

void
RudpGoBackN::OnNewAck(Ptr<RudpSenderState> /* tcb */, uint32_t /* segmentsAcked */)
{
}

bool
RudpGoBackN::OnDupAck(Ptr<RudpSenderState> tcb, uint32_t count)
{
    // Once per ACK value. Read literally, the seed resends the window on every
    // third identical ACK; in simulation the duplicates that each resent
    // window provokes then trigger more resends without end (a storm).
    return count == tcb->m_dupAckThreshold;
}

void
RudpGoBackN::OnTimeout(Ptr<RudpSenderState> /* tcb */)
{
}

} // namespace ns3
