/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-sender.h"

#include "rudp-file-source.h"
#include "rudp-forwarding.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <limits>
#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtSender");

NS_OBJECT_ENSURE_REGISTERED(RudpCmtSender);

namespace
{

/// The engine of the RudpCmtSender \p object.
std::vector<Ptr<Object>>
EngineOf(const ObjectBase* object, uint8_t /* which */)
{
    const auto* sender = dynamic_cast<const RudpCmtSender*>(object);
    return sender ? std::vector<Ptr<Object>>{sender->GetEngine()} : std::vector<Ptr<Object>>{};
}

} // namespace

TypeId
RudpCmtSender::GetTypeId()
{
    static TypeId tid = [] {
        TypeId t = TypeId("ns3::RudpCmtSender")
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
                                     MakeUintegerChecker<uint64_t>())
                       .AddAttribute("Engine",
                                     "The association's sending end (its attributes are "
                                     "this application's).",
                                     PointerValue(),
                                     MakePointerAccessor(&RudpCmtSender::m_engine),
                                     MakePointerChecker<RudpCmtSendEngine>());
        RudpForwarding::Rule rule;
        rule.resolve = &EngineOf;
        rule.targets = [](const TypeId::AttributeInformation&) -> uint8_t { return 1; };
        RudpForwarding::Add(t, RudpCmtSendEngine::GetTypeId(), 1, rule);
        return t;
    }();
    return tid;
}

RudpCmtSender::RudpCmtSender()
    : m_engine(CreateObject<RudpCmtSendEngine>())
{
    NS_LOG_FUNCTION(this);
}

RudpCmtSender::~RudpCmtSender() = default;

void
RudpCmtSender::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_engine->Dispose();
    m_socket = nullptr;
    Application::DoDispose();
}

Ptr<RudpCmtSendEngine>
RudpCmtSender::GetEngine() const
{
    return m_engine;
}

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

RudpCmtSendEngine::Stats
RudpCmtSender::GetStats() const
{
    return m_engine->GetStats();
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
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                    "ns3::RudpCmtSender::Port: cannot bind " << m_port);
    m_socket->SetRecvCallback(MakeCallback(&RudpCmtSender::HandleRead, this));
    m_engine->SetSource(std::make_unique<RudpFileSource>(RudpFileSource::Generated(
        "cmt",
        m_maxBytes > 0 ? m_maxBytes : std::numeric_limits<uint64_t>::max(),
        m_contentSeed)));
    m_engine->Attach(m_socket);
}

void
RudpCmtSender::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_engine->Halt();
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
    }
}

void
RudpCmtSender::HandleRead(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(from))
    {
        m_engine->ReceiveDatagram(packet, from);
    }
}

} // namespace ns3
