/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-rfc5681-reno.h"

#include "ns3/log.h"
#include "ns3/tcp-socket-state.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpRfc5681Reno");

NS_OBJECT_ENSURE_REGISTERED(TcpRfc5681Reno);

TypeId
TcpRfc5681Reno::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TcpRfc5681Reno")
                            .SetParent<TcpNewReno>()
                            .AddConstructor<TcpRfc5681Reno>()
                            .SetGroupName("Rudp");
    return tid;
}

TcpRfc5681Reno::TcpRfc5681Reno()
    : TcpNewReno()
{
    NS_LOG_FUNCTION(this);
}

TcpRfc5681Reno::TcpRfc5681Reno(const TcpRfc5681Reno& sock)
    : TcpNewReno(sock)
{
    NS_LOG_FUNCTION(this);
}

TcpRfc5681Reno::~TcpRfc5681Reno()
{
    NS_LOG_FUNCTION(this);
}

std::string
TcpRfc5681Reno::GetName() const
{
    return "TcpRfc5681Reno";
}

uint32_t
TcpRfc5681Reno::GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight)
{
    NS_LOG_FUNCTION(this << tcb << bytesInFlight);
    const SequenceNumber32 high = tcb->m_highTxMark;
    const uint32_t outstanding =
        high > tcb->m_lastAckedSeq ? static_cast<uint32_t>(high - tcb->m_lastAckedSeq) : 0;
    const uint32_t flightSize = std::min(outstanding, tcb->m_cWnd.Get());
    const uint32_t ssThresh = std::max(flightSize / 2, 2 * tcb->m_segmentSize);
    NS_LOG_LOGIC("FlightSize " << flightSize << " (pipe " << bytesInFlight << "): ssthresh "
                               << ssThresh);
    return ssThresh;
}

Ptr<TcpCongestionOps>
TcpRfc5681Reno::Fork()
{
    return CopyObject<TcpRfc5681Reno>(this);
}

} // namespace ns3
