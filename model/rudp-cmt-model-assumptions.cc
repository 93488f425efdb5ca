/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-model-assumptions.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtModelAssumptions");

NS_OBJECT_ENSURE_REGISTERED(RudpCmtTransmissionTag);
NS_OBJECT_ENSURE_REGISTERED(RudpFirstTransmissionErrorModel);

TypeId
RudpCmtTransmissionTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpCmtTransmissionTag")
                            .SetParent<Tag>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpCmtTransmissionTag>();
    return tid;
}

TypeId
RudpCmtTransmissionTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

RudpCmtTransmissionTag::RudpCmtTransmissionTag() = default;

RudpCmtTransmissionTag::RudpCmtTransmissionTag(SequenceNumber32 sequence, uint32_t transmission)
    : m_sequence(sequence.GetValue()),
      m_transmission(transmission)
{
}

SequenceNumber32
RudpCmtTransmissionTag::GetSequence() const
{
    return SequenceNumber32(m_sequence);
}

uint32_t
RudpCmtTransmissionTag::GetTransmission() const
{
    return m_transmission;
}

uint32_t
RudpCmtTransmissionTag::GetSerializedSize() const
{
    return 8;
}

void
RudpCmtTransmissionTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU32(m_sequence);
    buffer.WriteU32(m_transmission);
}

void
RudpCmtTransmissionTag::Deserialize(TagBuffer buffer)
{
    m_sequence = buffer.ReadU32();
    m_transmission = buffer.ReadU32();
}

void
RudpCmtTransmissionTag::Print(std::ostream& os) const
{
    os << "seq=" << m_sequence << " transmission=" << m_transmission;
}

TypeId
RudpFirstTransmissionErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RudpFirstTransmissionErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("Rudp")
            .AddConstructor<RudpFirstTransmissionErrorModel>()
            .AddAttribute("Inner",
                          "The error model that decides for first transmissions (and for "
                          "packets without a RudpCmtTransmissionTag); none: nothing is dropped.",
                          PointerValue(),
                          MakePointerAccessor(&RudpFirstTransmissionErrorModel::SetInner,
                                              &RudpFirstTransmissionErrorModel::GetInner),
                          MakePointerChecker<ErrorModel>());
    return tid;
}

RudpFirstTransmissionErrorModel::RudpFirstTransmissionErrorModel()
{
    NS_LOG_FUNCTION(this);
}

void
RudpFirstTransmissionErrorModel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_inner = nullptr;
    ErrorModel::DoDispose();
}

void
RudpFirstTransmissionErrorModel::SetInner(Ptr<ErrorModel> inner)
{
    NS_LOG_FUNCTION(this << inner);
    m_inner = inner;
}

Ptr<ErrorModel>
RudpFirstTransmissionErrorModel::GetInner() const
{
    return m_inner;
}

uint64_t
RudpFirstTransmissionErrorModel::GetSparedRetransmissions() const
{
    return m_spared;
}

bool
RudpFirstTransmissionErrorModel::DoCorrupt(Ptr<Packet> p)
{
    RudpCmtTransmissionTag tag;
    if (p->PeekPacketTag(tag) && tag.GetTransmission() > 1)
    {
        NS_LOG_LOGIC("spares the retransmission of " << tag.GetSequence());
        ++m_spared;
        return false;
    }
    return m_inner && m_inner->IsCorrupt(p);
}

void
RudpFirstTransmissionErrorModel::DoReset()
{
    if (m_inner)
    {
        m_inner->Reset();
    }
}

} // namespace ns3
