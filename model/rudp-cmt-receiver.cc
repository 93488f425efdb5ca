/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-receiver.h"

#include "rudp-file-source.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <cstring>
#include <limits>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtReceiver");

NS_OBJECT_ENSURE_REGISTERED(RudpCmtReceiver);

TypeId
RudpCmtReceiver::GetTypeId()
{
    static TypeId tid = OfferEngine(
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
                          MakeUintegerChecker<uint64_t>()));
    return tid;
}

RudpCmtReceiver::RudpCmtReceiver()
{
    NS_LOG_FUNCTION(this);
}

RudpCmtReceiver::~RudpCmtReceiver() = default;

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
    Ptr<Socket> udp = OpenSocket(m_port, "ns3::RudpCmtReceiver::Port");
    m_engine->SetConsumer(MakeCallback(&RudpCmtReceiver::Consume, this));
    m_engine->Attach(udp, MakeNullCallback<void>());
}

void
RudpCmtReceiver::Consume(Ptr<const Packet> data)
{
    const uint32_t size = data->GetSize();
    if (size == 0)
    {
        return;
    }
    m_received.resize(size);
    m_expectedBytes.resize(size);
    data->CopyData(m_received.data(), size);
    m_expected->Read(m_expectedBytes.data(), size);
    m_intact = m_intact && std::memcmp(m_received.data(), m_expectedBytes.data(), size) == 0;
}

} // namespace ns3
