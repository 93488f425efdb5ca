/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-receiver.h"

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
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtReceiver");

NS_OBJECT_ENSURE_REGISTERED(RudpCmtReceiver);

namespace
{

/// The engine of the RudpCmtReceiver \p object.
std::vector<Ptr<Object>>
EngineOf(const ObjectBase* object, uint8_t /* which */)
{
    const auto* receiver = dynamic_cast<const RudpCmtReceiver*>(object);
    return receiver ? std::vector<Ptr<Object>>{receiver->GetEngine()} : std::vector<Ptr<Object>>{};
}

} // namespace

TypeId
RudpCmtReceiver::GetTypeId()
{
    static TypeId tid = [] {
        TypeId t =
            TypeId("ns3::RudpCmtReceiver")
                .SetParent<Application>()
                .SetGroupName("Rudp")
                .AddConstructor<RudpCmtReceiver>()
                .AddAttribute("Port",
                              "UDP port the association's segments arrive on, on every path.",
                              UintegerValue(5000),
                              MakeUintegerAccessor(&RudpCmtReceiver::m_port),
                              MakeUintegerChecker<uint16_t>(1))
                .AddAttribute("ContentSeed",
                              "Seed of the sender's generated data, to check every byte.",
                              UintegerValue(1),
                              MakeUintegerAccessor(&RudpCmtReceiver::m_contentSeed),
                              MakeUintegerChecker<uint64_t>())
                .AddAttribute("Engine",
                              "The association's receiving end (its attributes are this "
                              "application's).",
                              PointerValue(),
                              MakePointerAccessor(&RudpCmtReceiver::m_engine),
                              MakePointerChecker<RudpCmtReceiveEngine>());
        RudpForwarding::Rule rule;
        rule.resolve = &EngineOf;
        rule.targets = [](const TypeId::AttributeInformation&) -> uint8_t { return 1; };
        RudpForwarding::Add(t, RudpCmtReceiveEngine::GetTypeId(), 1, rule);
        return t;
    }();
    return tid;
}

RudpCmtReceiver::RudpCmtReceiver()
    : m_engine(CreateObject<RudpCmtReceiveEngine>())
{
    NS_LOG_FUNCTION(this);
}

RudpCmtReceiver::~RudpCmtReceiver() = default;

void
RudpCmtReceiver::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_engine->Dispose();
    m_socket = nullptr;
    Application::DoDispose();
}

Ptr<RudpCmtReceiveEngine>
RudpCmtReceiver::GetEngine() const
{
    return m_engine;
}

RudpCmtReceiveEngine::Stats
RudpCmtReceiver::GetStats() const
{
    return m_engine->GetStats();
}

bool
RudpCmtReceiver::IsContentIntact() const
{
    return m_intact;
}

void
RudpCmtReceiver::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_expected = std::make_unique<RudpFileSource>(
        RudpFileSource::Generated("cmt", std::numeric_limits<uint64_t>::max(), m_contentSeed));
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                    "ns3::RudpCmtReceiver::Port: cannot bind " << m_port);
    m_socket->SetRecvCallback(MakeCallback(&RudpCmtReceiver::HandleRead, this));
    m_engine->SetConsumer(MakeCallback(&RudpCmtReceiver::Consume, this));
    m_engine->Attach(m_socket, MakeNullCallback<void>());
}

void
RudpCmtReceiver::StopApplication()
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
RudpCmtReceiver::HandleRead(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(from))
    {
        m_engine->ReceiveDatagram(packet, from);
    }
}

void
RudpCmtReceiver::Consume(Ptr<const Packet> data)
{
    std::vector<uint8_t> received(data->GetSize());
    data->CopyData(received.data(), received.size());
    std::vector<uint8_t> expected(received.size());
    m_expected->Read(expected.data(), expected.size());
    m_intact = m_intact && received == expected;
}

} // namespace ns3
