/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-sender.h"

#include "rudp-file-source.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <limits>
#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtSender");

NS_OBJECT_ENSURE_REGISTERED(RudpCmtSender);

TypeId
RudpCmtSender::GetTypeId()
{
    static TypeId tid =
        OfferEngine(TypeId("ns3::RudpCmtSender")
                        .SetParent<Application>()
                        .SetGroupName("Rudp")
                        .AddConstructor<RudpCmtSender>()
                        .AddAttribute("Port",
                                      "Local UDP port (0: any free one).",
                                      UintegerValue(0),
                                      MakeUintegerAccessor(&RudpCmtSender::m_port),
                                      MakeUintegerChecker<uint16_t>())
                        .AddAttribute("MaxBytes",
                                      "Bytes to send (0: until the application stops).",
                                      UintegerValue(0),
                                      MakeUintegerAccessor(&RudpCmtSender::m_maxBytes),
                                      MakeUintegerChecker<uint64_t>())
                        .AddAttribute("ContentSeed",
                                      "Seed of the generated data (the receiver checks it).",
                                      UintegerValue(1),
                                      MakeUintegerAccessor(&RudpCmtSender::m_contentSeed),
                                      MakeUintegerChecker<uint64_t>()));
    return tid;
}

RudpCmtSender::RudpCmtSender()
{
    NS_LOG_FUNCTION(this);
}

RudpCmtSender::~RudpCmtSender() = default;

Ptr<RudpCmtPath>
RudpCmtSender::AddPath(const Address& remote)
{
    return m_engine->AddPath(remote);
}

const std::vector<Ptr<RudpCmtPath>>&
RudpCmtSender::GetPaths() const
{
    return m_engine->GetPaths();
}

bool
RudpCmtSender::IsComplete() const
{
    return m_engine->IsComplete();
}

const std::string&
RudpCmtSender::GetFailure() const
{
    return m_engine->GetFailure();
}

void
RudpCmtSender::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_engine->GetPaths().empty(), "RudpCmtSender has no path: AddPath first");
    Ptr<Socket> udp = OpenSocket(m_port, "ns3::RudpCmtSender::Port");
    m_engine->SetSource(std::make_unique<RudpFileSource>(RudpFileSource::Generated(
        "cmt",
        m_maxBytes > 0 ? m_maxBytes : std::numeric_limits<uint64_t>::max(),
        m_contentSeed)));
    m_engine->Attach(udp);
}

} // namespace ns3
