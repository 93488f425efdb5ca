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
RudpStopAndWait::OnDupAck(Ptr<RudpSenderState> tcb, uint32_t /* count */)
{
    // A segment sent k times draws k ACKs: the k - 1 after the first are
    // echoes, not news about the segment sent since. Resending on them too
    // would send every later segment twice for good (RFC 1123 4.2.3.1, the
    // "Sorcerer's Apprentice").
    if (tcb->m_ackEchoes > 0)
    {
        --tcb->m_ackEchoes;
        return false;
    }
    // Otherwise an ACK for the previous segment means this one was lost or
    // corrupted (seed 000: the receiver answers a bad segment with its last ACK).
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
