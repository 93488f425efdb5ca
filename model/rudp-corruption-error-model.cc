/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-corruption-error-model.h"

#include "rudp-compat.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCorruptionErrorModel");

NS_OBJECT_ENSURE_REGISTERED(RudpCorruptionErrorModel);

TypeId
RudpCorruptionErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RudpCorruptionErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("Rudp")
            .AddConstructor<RudpCorruptionErrorModel>()
            .AddAttribute("ErrorUnit",
                          "What ErrorRate is a rate of: PerPacket, PerByte or PerBit.",
                          EnumValue(RudpCorruptionErrorModel::PER_PACKET),
                          RUDP_MAKE_ENUM_ACCESSOR(RudpCorruptionErrorModel::ErrorUnit,
                                                  &RudpCorruptionErrorModel::m_unit),
                          MakeEnumChecker(RudpCorruptionErrorModel::PER_PACKET,
                                          "PerPacket",
                                          RudpCorruptionErrorModel::PER_BYTE,
                                          "PerByte",
                                          RudpCorruptionErrorModel::PER_BIT,
                                          "PerBit"))
            .AddAttribute("ErrorRate",
                          "Probability that a unit is corrupted (0..1).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&RudpCorruptionErrorModel::m_rate),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("HeaderBytes",
                          "Leading bytes never corrupted (bytes; default: Ethernet 14 + "
                          "IPv4 20 + UDP 8).",
                          UintegerValue(42),
                          MakeUintegerAccessor(&RudpCorruptionErrorModel::m_headerBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TrailerBytes",
                          "Trailing bytes never corrupted (bytes; default: the CSMA FCS 4).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RudpCorruptionErrorModel::m_trailerBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("BitsPerPacket",
                          "Distinct bits flipped in a corrupted packet with ErrorUnit PerPacket "
                          "(bits, 1..64; the other units flip one bit per corrupted byte or bit).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RudpCorruptionErrorModel::m_bitsPerPacket),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddTraceSource("Corrupt",
                            "A packet was corrupted: the packet and how many bits were flipped",
                            MakeTraceSourceAccessor(&RudpCorruptionErrorModel::m_corruptTrace),
                            "ns3::RudpCorruptionErrorModel::CorruptTracedCallback");
    return tid;
}

RudpCorruptionErrorModel::RudpCorruptionErrorModel()
    : m_random(CreateObject<UniformRandomVariable>())
{
}

int64_t
RudpCorruptionErrorModel::AssignStreams(int64_t stream)
{
    m_random->SetStream(stream);
    return 1;
}

uint64_t
RudpCorruptionErrorModel::GetCorruptedPackets() const
{
    return m_corrupted;
}

void
RudpCorruptionErrorModel::FlipBits(Ptr<Packet> packet, const std::vector<uint32_t>& bits)
{
    if (bits.empty())
    {
        return; // the packet stays as it is, headers and all
    }
    const uint32_t size = packet->GetSize();
    std::vector<uint8_t> bytes(size);
    packet->CopyData(bytes.data(), size);
    for (const uint32_t bit : bits)
    {
        NS_ABORT_MSG_UNLESS(bit / 8 < size,
                            "bit " << bit << " is beyond a " << size << "-byte packet");
        bytes[bit / 8] ^= static_cast<uint8_t>(0x80 >> (bit % 8));
    }
    // Replace the bytes in place: the device goes on with this very packet,
    // and its packet tags (FlowMonitor's among them) stay.
    packet->RemoveAtEnd(size);
    packet->AddAtEnd(Create<Packet>(bytes.data(), size));
}

bool
RudpCorruptionErrorModel::CarriesIcmpv4(Ptr<const Packet> p) const
{
    // HeaderBytes protects the link header, the IPv4 header (20 bytes without
    // options) and 8 more (UDP's header, or ICMP's), so an IPv4 header starts
    // 28 bytes before the first bit that may flip.
    const uint32_t ipv4Bytes = 20;
    const uint32_t afterIpv4 = 8;
    if (m_headerBytes < ipv4Bytes + afterIpv4)
    {
        return false;
    }
    const uint32_t start = m_headerBytes - ipv4Bytes - afterIpv4;
    std::vector<uint8_t> head(start + ipv4Bytes);
    if (p->CopyData(head.data(), head.size()) < head.size())
    {
        return false;
    }
    const uint8_t versionAndLength = head[start];
    const uint8_t protocol = head[start + 9];
    return versionAndLength == 0x45 && protocol == 1;
}

std::vector<uint32_t>
RudpCorruptionErrorModel::FlipRandomBits(Ptr<Packet> packet,
                                         uint32_t firstBit,
                                         uint64_t span,
                                         uint32_t count,
                                         Ptr<UniformRandomVariable> random)
{
    NS_LOG_FUNCTION(packet << firstBit << span << count << random);
    NS_ABORT_MSG_IF(span > (uint64_t{1} << 32), "a span of " << span << " bits is too large");
    const uint64_t k = std::min<uint64_t>(count, span);
    // Floyd: for j = span - k .. span - 1 take t in [0, j]; keep t if new,
    // else j (new for sure). Each k-subset comes out with equal probability.
    std::set<uint64_t> chosen;
    for (uint64_t j = span - k; j < span; ++j)
    {
        const uint64_t t = random->GetInteger(0, static_cast<uint32_t>(j));
        chosen.insert(chosen.count(t) ? j : t);
    }
    std::vector<uint32_t> bits;
    bits.reserve(chosen.size());
    for (const uint64_t bit : chosen)
    {
        bits.push_back(static_cast<uint32_t>(firstBit + bit));
    }
    FlipBits(packet, bits);
    return bits;
}

uint64_t
RudpCorruptionErrorModel::NextGap()
{
    if (m_rate >= 1.0)
    {
        return 0;
    }
    // Geometric: trials before the next error.
    const double u = 1.0 - m_random->GetValue(); // (0, 1]
    return static_cast<uint64_t>(std::floor(std::log(u) / std::log1p(-m_rate)));
}

bool
RudpCorruptionErrorModel::DoCorrupt(Ptr<Packet> p)
{
    const uint32_t size = p->GetSize();
    if (m_rate <= 0 || size <= m_headerBytes + m_trailerBytes || CarriesIcmpv4(p))
    {
        return false;
    }
    const uint32_t firstBit = m_headerBytes * 8;
    const uint64_t span = static_cast<uint64_t>(size - m_headerBytes - m_trailerBytes) * 8;

    std::vector<uint32_t> bits;
    switch (m_unit)
    {
    case PER_PACKET:
        if (m_random->GetValue() < m_rate)
        {
            bits = FlipRandomBits(p, firstBit, span, m_bitsPerPacket, m_random);
        }
        break;
    case PER_BYTE:
        for (uint64_t byte = NextGap(); byte < span / 8; byte += 1 + NextGap())
        {
            bits.push_back(firstBit + byte * 8 + m_random->GetInteger(0, 7));
        }
        FlipBits(p, bits);
        break;
    case PER_BIT:
        for (uint64_t bit = NextGap(); bit < span; bit += 1 + NextGap())
        {
            bits.push_back(firstBit + bit);
        }
        FlipBits(p, bits);
        break;
    }
    if (bits.empty())
    {
        return false;
    }
    ++m_corrupted;
    NS_LOG_LOGIC("flipped " << bits.size() << " bits of a " << size << "-byte packet");
    m_corruptTrace(p, bits.size());
    return false; // delivered, with its errors
}

void
RudpCorruptionErrorModel::DoReset()
{
}

} // namespace ns3
