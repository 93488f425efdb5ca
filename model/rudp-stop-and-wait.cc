/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-stop-and-wait.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RudpStopAndWait);

TypeId
RudpStopAndWait::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpStopAndWait")
                            .SetParent<RudpWindowPolicy>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpStopAndWait>();
    return tid;
}

std::string
RudpStopAndWait::GetName() const
{
    return "StopAndWait";
}

void
RudpStopAndWait::Init(Ptr<RudpSenderState> tcb)
{
    tcb->m_cWnd = tcb->m_segmentSize;
    tcb->m_congState = RudpSenderState::FIXED_WINDOW;
}

uint32_t
RudpStopAndWait::GetSendWindow(Ptr<const RudpSenderState> tcb) const
{
    return tcb->m_segmentSize;
}

void
RudpStopAndWait::OnNewAck(Ptr<RudpSenderState> /* tcb */, uint32_t /* segmentsAcked */)
{
}

bool
RudpStopAndWait::OnDupAck(Ptr<RudpSenderState> /* tcb */, uint32_t /* count */)
{
    // An ACK for the previous segment means this one was lost or corrupted.
    return true;
}

void
RudpStopAndWait::OnTimeout(Ptr<RudpSenderState> /* tcb */)
{
}

bool
RudpStopAndWait::RetransmitOnCorruption() const
{
    return true;
}

} // namespace ns3
