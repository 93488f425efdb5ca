/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-header.h"

#include "ns3/log.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpHeader");

NS_OBJECT_ENSURE_REGISTERED(RudpHeader);

namespace
{
/// Bytes of one SACK block on the wire.
constexpr uint32_t SACK_BLOCK_SIZE = 8;
} // namespace

TypeId
RudpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpHeader>();
    return tid;
}

TypeId
RudpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint64_t
RudpHeader::AddToSum(const uint8_t* data, size_t size, uint64_t sum)
{
    // A wide accumulator: the carries are folded once, at the end.
    size_t i = 0;
    for (; i + 1 < size; i += 2)
    {
        sum += static_cast<uint32_t>(data[i] << 8 | data[i + 1]);
    }
    if (i < size)
    {
        sum += static_cast<uint32_t>(data[i] << 8);
    }
    return sum;
}

uint16_t
RudpHeader::FoldChecksum(uint64_t sum)
{
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}

uint32_t
RudpHeader::GetSerializedSize() const
{
    return FIXED_SIZE + SACK_BLOCK_SIZE * static_cast<uint32_t>(m_sackBlocks.size());
}

void
RudpHeader::Write(uint8_t* out) const
{
    auto put16 = [&out](uint16_t v) {
        *out++ = static_cast<uint8_t>(v >> 8);
        *out++ = static_cast<uint8_t>(v);
    };
    auto put32 = [&put16](uint32_t v) {
        put16(static_cast<uint16_t>(v >> 16));
        put16(static_cast<uint16_t>(v));
    };
    put32(m_seq.GetValue());
    put32(m_ack.GetValue());
    *out++ = m_flags;
    *out++ = static_cast<uint8_t>(m_sackBlocks.size());
    put16(m_payloadLength);
    put32(m_window);
    put16(m_checksum);
    for (const auto& block : m_sackBlocks)
    {
        put32(block.left.GetValue());
        put32(block.right.GetValue());
    }
}

void
RudpHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t bytes[FIXED_SIZE + SACK_BLOCK_SIZE * MAX_SACK_BLOCKS];
    Write(bytes);
    start.Write(bytes, GetSerializedSize());
}

uint32_t
RudpHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_seq = SequenceNumber32(i.ReadNtohU32());
    m_ack = SequenceNumber32(i.ReadNtohU32());
    m_flags = i.ReadU8();
    const uint8_t blocks = i.ReadU8();
    m_payloadLength = i.ReadNtohU16();
    m_window = i.ReadNtohU32();
    m_checksum = i.ReadNtohU16();
    m_sackBlocks.clear();

    // A corrupted count must not make us read past the datagram.
    const uint32_t headerSize = FIXED_SIZE + SACK_BLOCK_SIZE * blocks;
    m_malformed = blocks > MAX_SACK_BLOCKS || headerSize > start.GetSize();
    if (m_malformed)
    {
        return FIXED_SIZE;
    }
    for (uint8_t b = 0; b < blocks; ++b)
    {
        SackBlock block;
        block.left = SequenceNumber32(i.ReadNtohU32());
        block.right = SequenceNumber32(i.ReadNtohU32());
        m_sackBlocks.push_back(block);
    }
    return headerSize;
}

uint64_t
RudpHeader::SumWith(Ptr<const Packet> payload) const
{
    uint8_t header[FIXED_SIZE + SACK_BLOCK_SIZE * MAX_SACK_BLOCKS];
    Write(header);
    uint64_t sum = AddToSum(header, GetSerializedSize(), 0);
    // The header is an even number of bytes: the payload's words stay aligned.
    static uint8_t bytes[65536];
    const uint32_t size = std::min<uint32_t>(payload->GetSize(), sizeof(bytes));
    payload->CopyData(bytes, size);
    return AddToSum(bytes, size, sum);
}

void
RudpHeader::ComputeChecksum(Ptr<const Packet> payload)
{
    NS_ASSERT_MSG(payload->GetSize() == m_payloadLength,
                  "payload of " << payload->GetSize() << " bytes, header says " << m_payloadLength);
    m_checksum = 0;
    m_checksum = FoldChecksum(SumWith(payload));
}

void
RudpHeader::SetChecksum(uint16_t checksum)
{
    m_checksum = checksum;
}

bool
RudpHeader::IsChecksumOk(Ptr<const Packet> payload) const
{
    // With the checksum field included, a correct sum folds to all ones.
    return !m_malformed && payload->GetSize() == m_payloadLength &&
           FoldChecksum(SumWith(payload)) == 0;
}

void
RudpHeader::Print(std::ostream& os) const
{
    os << "SEQ=" << m_seq << " ACK=" << m_ack << " [" << FlagsToString(m_flags)
       << "] LEN=" << m_payloadLength << " WIN=" << m_window << " CSUM=0x" << std::hex
       << std::setw(4) << std::setfill('0') << m_checksum << std::dec << std::setfill(' ');
    for (const auto& block : m_sackBlocks)
    {
        os << " SACK[" << block.left << "," << block.right << ")";
    }
    if (m_malformed)
    {
        os << " (malformed)";
    }
}

std::string
RudpHeader::FlagsToString(uint8_t flags)
{
    // Seed 000 writes SYN|ACK and FIN|ACK.
    static const std::pair<uint8_t, const char*> names[] = {{SYN, "SYN"},
                                                            {FIN, "FIN"},
                                                            {ACK, "ACK"},
                                                            {SACK_PERMITTED, "SACK_PERMITTED"},
                                                            {PAIR, "PAIR"}};
    std::ostringstream os;
    for (const auto& [bit, name] : names)
    {
        if (flags & bit)
        {
            os << (os.tellp() > 0 ? "|" : "") << name;
        }
    }
    return os.str();
}

void
RudpHeader::SetSequenceNumber(SequenceNumber32 seq)
{
    m_seq = seq;
}

SequenceNumber32
RudpHeader::GetSequenceNumber() const
{
    return m_seq;
}

void
RudpHeader::SetAckNumber(SequenceNumber32 ack)
{
    m_ack = ack;
}

SequenceNumber32
RudpHeader::GetAckNumber() const
{
    return m_ack;
}

void
RudpHeader::SetFlags(uint8_t flags)
{
    m_flags = flags;
}

uint8_t
RudpHeader::GetFlags() const
{
    return m_flags;
}

bool
RudpHeader::HasFlags(uint8_t flags) const
{
    return (m_flags & flags) == flags;
}

void
RudpHeader::SetPayloadLength(uint16_t length)
{
    m_payloadLength = length;
}

uint16_t
RudpHeader::GetPayloadLength() const
{
    return m_payloadLength;
}

void
RudpHeader::SetWindow(uint32_t window)
{
    m_window = window;
}

uint32_t
RudpHeader::GetWindow() const
{
    return m_window;
}

void
RudpHeader::SetSackBlocks(const std::vector<SackBlock>& blocks)
{
    NS_ASSERT_MSG(blocks.size() <= MAX_SACK_BLOCKS,
                  blocks.size() << " SACK blocks; at most " << +MAX_SACK_BLOCKS);
    m_sackBlocks = blocks;
}

const std::vector<RudpHeader::SackBlock>&
RudpHeader::GetSackBlocks() const
{
    return m_sackBlocks;
}

uint16_t
RudpHeader::GetChecksum() const
{
    return m_checksum;
}

} // namespace ns3
