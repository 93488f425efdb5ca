/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-header.h"

#include "rudp-crc32c.h"

#include "ns3/enum.h"
#include "ns3/log.h"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpHeader");

NS_OBJECT_ENSURE_REGISTERED(RudpHeader);

namespace
{
/// Bytes of one SACK block on the wire.
constexpr uint32_t SACK_BLOCK_SIZE = 8;
/// Offset of the checksum field in the header.
constexpr uint32_t CHECKSUM_OFFSET = 16;
/// Largest header on the wire.
constexpr uint32_t MAX_HEADER_SIZE =
    RudpHeader::FIXED_SIZE_CRC32C + SACK_BLOCK_SIZE * RudpHeader::MAX_SACK_BLOCKS;

/// \return a buffer of at least \p size bytes, reused by later calls of this thread
uint8_t*
DatagramBuffer(size_t size)
{
    static thread_local std::vector<uint8_t> buffer;
    if (buffer.size() < size)
    {
        buffer.resize(size);
    }
    return buffer.data();
}
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
    // The sum of the 16-bit big-endian words is 256 times the sum of their
    // first bytes plus the sum of their second bytes. Eight bytes at a time,
    // the first bytes of four words add up in the four 16-bit lanes of one
    // register and the second bytes in another; a lane holds the sum of 257
    // bytes, so the lanes are added up every 256 steps (2 KB).
    constexpr uint64_t LOW_BYTES = 0x00ff00ff00ff00ffULL;
    const auto lanes = [](uint64_t x) {
        return (x & 0xffff) + (x >> 16 & 0xffff) + (x >> 32 & 0xffff) + (x >> 48);
    };
    size_t i = 0;
    while (size - i >= 8)
    {
        const size_t end = i + std::min<size_t>((size - i) / 8, 256) * 8;
        uint64_t first = 0;
        uint64_t second = 0;
        for (; i < end; i += 8)
        {
            const uint8_t* b = data + i;
            const uint64_t x = uint64_t{b[0]} | uint64_t{b[1]} << 8 | uint64_t{b[2]} << 16 |
                               uint64_t{b[3]} << 24 | uint64_t{b[4]} << 32 | uint64_t{b[5]} << 40 |
                               uint64_t{b[6]} << 48 | uint64_t{b[7]} << 56;
            first += x & LOW_BYTES;       // bytes 0, 2, 4, 6
            second += x >> 8 & LOW_BYTES; // bytes 1, 3, 5, 7
        }
        sum += (lanes(first) << 8) + lanes(second);
    }
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
RudpHeader::FixedSize() const
{
    return m_checksumKind == CHECKSUM_CRC32C ? FIXED_SIZE_CRC32C : FIXED_SIZE;
}

uint32_t
RudpHeader::GetSerializedSize() const
{
    return FixedSize() + SACK_BLOCK_SIZE * static_cast<uint32_t>(m_sackBlocks.size());
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
    *out++ = m_flags | (m_checksumKind == CHECKSUM_CRC32C ? CRC32C : 0);
    *out++ = static_cast<uint8_t>(m_sackBlocks.size());
    put16(m_payloadLength);
    put32(m_window);
    if (m_checksumKind == CHECKSUM_CRC32C)
    {
        put32(m_checksum);
    }
    else
    {
        put16(static_cast<uint16_t>(m_checksum));
    }
    for (const auto& block : m_sackBlocks)
    {
        put32(block.left.GetValue());
        put32(block.right.GetValue());
    }
}

void
RudpHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t bytes[MAX_HEADER_SIZE];
    Write(bytes);
    start.Write(bytes, GetSerializedSize());
}

uint32_t
RudpHeader::Deserialize(Buffer::Iterator start)
{
    // Every size is checked before it is read: a short or lying datagram
    // marks the header malformed and is never read past its end.
    const uint32_t available = start.GetSize();
    *this = RudpHeader();
    if (available < FIXED_SIZE)
    {
        m_malformed = true;
        return 0;
    }
    Buffer::Iterator i = start;
    m_seq = SequenceNumber32(i.ReadNtohU32());
    m_ack = SequenceNumber32(i.ReadNtohU32());
    const uint8_t flags = i.ReadU8();
    m_flags = flags & ~CRC32C;
    m_checksumKind = (flags & CRC32C) ? CHECKSUM_CRC32C : CHECKSUM_INTERNET16;
    const uint8_t blocks = i.ReadU8();
    m_payloadLength = i.ReadNtohU16();
    m_window = i.ReadNtohU32();
    const uint32_t fixedSize = FixedSize();
    if (available < fixedSize)
    {
        m_malformed = true;
        return 0;
    }
    m_checksum = m_checksumKind == CHECKSUM_CRC32C ? i.ReadNtohU32() : i.ReadNtohU16();

    // A corrupted count must not make us read past the datagram.
    const uint32_t headerSize = fixedSize + SACK_BLOCK_SIZE * blocks;
    m_malformed = blocks > MAX_SACK_BLOCKS || headerSize > available;
    if (m_malformed)
    {
        return fixedSize;
    }
    m_sackBlocks.reserve(blocks); // one allocation, not one per doubling
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
RudpHeader::ChecksumOver(Ptr<const Packet> packet, uint32_t payloadOffset, uint32_t checksum) const
{
    uint8_t header[MAX_HEADER_SIZE];
    Write(header);
    const uint32_t headerSize = GetSerializedSize();
    const uint32_t size = packet->GetSize() - payloadOffset;
    // Packet::CopyData copies from the start: the bytes before the payload
    // (a header, a few dozen bytes) come along and are skipped.
    uint8_t* datagram = DatagramBuffer(packet->GetSize());
    packet->CopyData(datagram, packet->GetSize());
    const uint8_t* bytes = datagram + payloadOffset;
    if (m_checksumKind == CHECKSUM_CRC32C)
    {
        for (int k = 0; k < 4; ++k)
        {
            header[CHECKSUM_OFFSET + k] = static_cast<uint8_t>(checksum >> (24 - 8 * k));
        }
        const uint32_t crc = RudpCrc32c::Update(RudpCrc32c::Init(), header, headerSize);
        return RudpCrc32c::Finish(RudpCrc32c::Update(crc, bytes, size));
    }
    header[CHECKSUM_OFFSET] = static_cast<uint8_t>(checksum >> 8);
    header[CHECKSUM_OFFSET + 1] = static_cast<uint8_t>(checksum);
    // The header is an even number of bytes: the payload's words stay aligned.
    return AddToSum(bytes, size, AddToSum(header, headerSize, 0));
}

void
RudpHeader::ComputeChecksum(Ptr<const Packet> payload)
{
    NS_ASSERT_MSG(payload->GetSize() == m_payloadLength,
                  "payload of " << payload->GetSize() << " bytes, header says " << m_payloadLength);
    const uint64_t value = ChecksumOver(payload, 0, 0);
    m_checksum =
        m_checksumKind == CHECKSUM_CRC32C ? static_cast<uint32_t>(value) : FoldChecksum(value);
}

void
RudpHeader::SetChecksum(uint32_t checksum)
{
    m_checksum = checksum;
}

bool
RudpHeader::IsChecksumOk(Ptr<const Packet> packet, uint32_t payloadOffset) const
{
    if (m_malformed || packet->GetSize() < payloadOffset ||
        packet->GetSize() - payloadOffset != m_payloadLength)
    {
        return false;
    }
    if (m_checksumKind == CHECKSUM_CRC32C)
    {
        return ChecksumOver(packet, payloadOffset, 0) == m_checksum;
    }
    // With the checksum field included, a correct sum folds to all ones.
    return FoldChecksum(ChecksumOver(packet, payloadOffset, m_checksum)) == 0;
}

bool
RudpHeader::IsMalformed() const
{
    return m_malformed;
}

void
RudpHeader::SetChecksumKind(ChecksumKind kind)
{
    m_checksumKind = kind;
}

RudpHeader::ChecksumKind
RudpHeader::GetChecksumKind() const
{
    return m_checksumKind;
}

void
RudpHeader::Print(std::ostream& os) const
{
    const bool crc = m_checksumKind == CHECKSUM_CRC32C;
    os << "SEQ=" << m_seq << " ACK=" << m_ack << " [" << FlagsToString(m_flags)
       << "] LEN=" << m_payloadLength << " WIN=" << m_window << (crc ? " CRC32C=0x" : " CSUM=0x")
       << std::hex << std::setw(crc ? 8 : 4) << std::setfill('0') << m_checksum << std::dec
       << std::setfill(' ');
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
                                                            {PAIR, "PAIR"},
                                                            {CRC32C, "CRC32C"},
                                                            {HEARTBEAT, "HEARTBEAT"},
                                                            {ADDRESS_CHANGE, "ADDRESS_CHANGE"}};
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
    m_flags = flags & ~CRC32C;
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

void
RudpHeader::SetSackBlocks(std::vector<SackBlock>&& blocks)
{
    NS_ASSERT_MSG(blocks.size() <= MAX_SACK_BLOCKS,
                  blocks.size() << " SACK blocks; at most " << +MAX_SACK_BLOCKS);
    m_sackBlocks = std::move(blocks);
}

const std::vector<RudpHeader::SackBlock>&
RudpHeader::GetSackBlocks() const
{
    return m_sackBlocks;
}

uint32_t
RudpHeader::GetChecksum() const
{
    return m_checksum;
}

// ---------------------------------------------------------------------------
// RudpSegmentCodec

Ptr<Packet>
RudpSegmentCodec::Encode(RudpHeader& header,
                         Ptr<const Packet> payload,
                         RudpHeader::ChecksumKind kind)
{
    NS_ASSERT_MSG(payload->GetSize() <= 0xffff,
                  "a payload of " << payload->GetSize() << " bytes: at most 65535");
    header.SetPayloadLength(static_cast<uint16_t>(payload->GetSize()));
    header.SetChecksumKind(kind);
    header.ComputeChecksum(payload);
    Ptr<Packet> datagram = payload->Copy();
    datagram->AddHeader(header);
    return datagram;
}

namespace
{

/// Logs why Decode drops a datagram; \return \p result. Kept apart, so that
/// the common path of Decode stays as small as it was.
RudpSegmentCodec::Result
Dropped(RudpSegmentCodec::Result result, const RudpHeader& header, uint32_t size)
{
    NS_LOG_LOGIC("drops a datagram of " << size << " bytes ("
                                        << RudpSegmentCodec::ResultName(result) << "): " << header);
    return result;
}

} // namespace

RudpSegmentCodec::Result
RudpSegmentCodec::Decode(Ptr<Packet> datagram, RudpHeader::ChecksumKind kind, RudpHeader& header)
{
    // Peek, check, then drop the bytes: Packet::RemoveHeader would also
    // remove a header item from the packet's metadata, which a datagram of
    // arbitrary bytes does not have (ns-3.37 asserts on one without any item).
    datagram->PeekHeader(header); // checks every size before it reads
    if (header.IsMalformed())
    {
        return Dropped(MALFORMED, header, datagram->GetSize());
    }
    if (header.GetChecksumKind() != kind)
    {
        return Dropped(WRONG_KIND, header, datagram->GetSize());
    }
    const uint32_t headerSize = header.GetSerializedSize();
    if (datagram->GetSize() - headerSize != header.GetPayloadLength())
    {
        return Dropped(LENGTH_MISMATCH, header, datagram->GetSize());
    }
    if (!header.IsChecksumOk(datagram, headerSize))
    {
        return Dropped(BAD_CHECKSUM, header, datagram->GetSize());
    }
    datagram->RemoveAtStart(headerSize);
    return OK;
}

RudpSegmentCodec::Result
RudpSegmentCodec::Decode(Ptr<const Packet> datagram,
                         RudpHeader::ChecksumKind kind,
                         RudpHeader& header,
                         Ptr<Packet>& payload)
{
    Ptr<Packet> copy = datagram->Copy();
    const Result result = Decode(copy, kind, header);
    payload = result == OK ? copy : nullptr;
    return result;
}

const char*
RudpSegmentCodec::ResultName(Result result)
{
    switch (result)
    {
    case OK:
        return "OK";
    case MALFORMED:
        return "MALFORMED";
    case WRONG_KIND:
        return "WRONG_KIND";
    case LENGTH_MISMATCH:
        return "LENGTH_MISMATCH";
    case BAD_CHECKSUM:
        return "BAD_CHECKSUM";
    }
    return "UNKNOWN";
}

Ptr<const AttributeChecker>
MakeRudpChecksumKindChecker()
{
    return MakeEnumChecker(RudpHeader::CHECKSUM_INTERNET16,
                           "Internet16",
                           RudpHeader::CHECKSUM_CRC32C,
                           "Crc32c");
}

} // namespace ns3
