/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-fuzz-common.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace ns3
{
namespace rudpfuzz
{

FuzzReader::FuzzReader(const uint8_t* data, size_t size)
    : m_data(data),
      m_size(size)
{
}

uint8_t
FuzzReader::U8()
{
    return m_pos < m_size ? m_data[m_pos++] : 0;
}

uint16_t
FuzzReader::U16()
{
    const uint16_t high = U8();
    return static_cast<uint16_t>(high << 8 | U8());
}

std::vector<uint8_t>
FuzzReader::Bytes(size_t n)
{
    n = std::min(n, Remaining());
    std::vector<uint8_t> bytes(m_data + m_pos, m_data + m_pos + n);
    m_pos += n;
    return bytes;
}

size_t
FuzzReader::Remaining() const
{
    return m_size - m_pos;
}

std::vector<Datagram>
ReadDatagrams(FuzzReader& reader)
{
    std::vector<Datagram> records;
    while (reader.Remaining() > 0 && records.size() < MAX_DATAGRAMS)
    {
        const uint8_t control = reader.U8();
        Datagram record;
        record.fixChecksum = control & 0x01;
        record.relative = control & 0x02;
        record.source = (control >> 2) & 0x03;
        record.gap = control >> 4;
        record.bytes = reader.Bytes(reader.U16());
        records.push_back(std::move(record));
    }
    return records;
}

void
WriteDatagram(std::vector<uint8_t>& out, const Datagram& datagram)
{
    out.push_back(static_cast<uint8_t>((datagram.fixChecksum ? 0x01 : 0) |
                                       (datagram.relative ? 0x02 : 0) |
                                       (datagram.source & 0x03) << 2 | (datagram.gap & 0x0f) << 4));
    out.push_back(static_cast<uint8_t>(datagram.bytes.size() >> 8));
    out.push_back(static_cast<uint8_t>(datagram.bytes.size()));
    out.insert(out.end(), datagram.bytes.begin(), datagram.bytes.end());
}

Time
GapTime(uint8_t gap)
{
    return gap == 0 ? Time(0) : MicroSeconds(250) * static_cast<int64_t>(1u << (gap - 1));
}

namespace
{

uint32_t
Get32(const std::vector<uint8_t>& bytes, size_t at)
{
    return static_cast<uint32_t>(bytes[at]) << 24 | static_cast<uint32_t>(bytes[at + 1]) << 16 |
           static_cast<uint32_t>(bytes[at + 2]) << 8 | bytes[at + 3];
}

void
Put32(std::vector<uint8_t>& bytes, size_t at, uint32_t value)
{
    for (size_t i = 0; i < 4; ++i)
    {
        bytes[at + i] = static_cast<uint8_t>(value >> (24 - 8 * i));
    }
}

} // namespace

std::vector<uint8_t>
Fixup(const Datagram& datagram, SequenceNumber32 seqBase, SequenceNumber32 ackBase)
{
    std::vector<uint8_t> bytes = datagram.bytes;
    if (bytes.size() < RudpHeader::FIXED_SIZE)
    {
        return bytes;
    }
    if (datagram.relative)
    {
        Put32(bytes, 0, seqBase.GetValue() + Get32(bytes, 0));
        Put32(bytes, 4, ackBase.GetValue() + Get32(bytes, 4));
    }
    if (datagram.fixChecksum)
    {
        // Only a header that parses has fields to fix (byte 9: SACK blocks).
        const uint32_t blocks = bytes[9];
        if (blocks > RudpHeader::MAX_SACK_BLOCKS ||
            RudpHeader::FIXED_SIZE + 8 * blocks > bytes.size())
        {
            return bytes;
        }
        Ptr<Packet> packet = Create<Packet>(bytes.data(), bytes.size());
        RudpHeader header;
        packet->RemoveHeader(header);
        if (packet->GetSize() > 0xffff)
        {
            return bytes;
        }
        header.SetPayloadLength(static_cast<uint16_t>(packet->GetSize()));
        header.ComputeChecksum(packet);
        packet->AddHeader(header);
        bytes.resize(packet->GetSize());
        packet->CopyData(bytes.data(), bytes.size());
    }
    return bytes;
}

FuzzNetwork::FuzzNetwork()
    : m_nodes(2)
{
    Ptr<SimpleChannel> channel = CreateObject<SimpleChannel>();
    channel->SetAttribute("Delay", TimeValue(MilliSeconds(1)));
    NetDeviceContainer devices;
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<SimpleNetDevice> device = CreateObject<SimpleNetDevice>();
        device->SetAddress(Mac48Address::Allocate());
        device->SetAttribute("DataRate", DataRateValue(DataRate("100Mbps")));
        device->SetChannel(channel);
        m_nodes.Get(i)->AddDevice(device);
        devices.Add(device);
    }
    InternetStackHelper internet;
    internet.SetIpv6StackInstall(false); // IPv4 only: half the set-up of each run
    internet.Install(m_nodes);
    RudpStackHelper().Install(m_nodes);
    RudpStackHelper().AssignStreams(m_nodes, 0); // the same ISNs in every run
    Ipv4AddressGenerator::Reset();
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    m_interfaces = addresses.Assign(devices);
    NeighborCacheHelper().PopulateNeighborCache(m_interfaces);
    Target()->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
        "Tx",
        MakeCallback(&FuzzNetwork::TargetTx, this));
}

Ptr<Node>
FuzzNetwork::Peer() const
{
    return m_nodes.Get(0);
}

Ptr<Node>
FuzzNetwork::Target() const
{
    return m_nodes.Get(1);
}

Ipv4Address
FuzzNetwork::PeerAddress() const
{
    return m_interfaces.GetAddress(0);
}

Ipv4Address
FuzzNetwork::TargetAddress() const
{
    return m_interfaces.GetAddress(1);
}

void
FuzzNetwork::Inject(std::vector<uint8_t> bytes, uint16_t sourcePort, uint16_t targetPort)
{
    Ptr<Packet> packet = Create<Packet>(bytes.data(), bytes.size());
    Peer()->GetObject<UdpL4Protocol>()->Send(packet,
                                             PeerAddress(),
                                             TargetAddress(),
                                             sourcePort,
                                             targetPort);
}

Time
FuzzNetwork::Schedule(const std::vector<Datagram>& records,
                      Time start,
                      const std::vector<uint16_t>& ports,
                      uint16_t targetPort,
                      bool sharedSequence,
                      SequenceNumber32 seqBase,
                      SequenceNumber32 ackBase)
{
    m_initial = {seqBase, ackBase};
    Time at = start;
    for (const auto& record : records)
    {
        at += GapTime(record.gap);
        Simulator::Schedule(at,
                            &FuzzNetwork::Send,
                            this,
                            record,
                            ports[record.source % ports.size()],
                            targetPort,
                            sharedSequence);
    }
    return at;
}

void
FuzzNetwork::Send(Datagram record, uint16_t sourcePort, uint16_t targetPort, bool sharedSequence)
{
    Sent base = m_initial;
    if (sharedSequence && m_anySent)
    {
        base = m_last;
    }
    else if (!sharedSequence)
    {
        auto it = m_sent.find(sourcePort);
        base = it != m_sent.end() ? it->second : base;
    }
    Inject(Fixup(record, base.nextExpected, base.nextSequence), sourcePort, targetPort);
}

void
FuzzNetwork::TargetTx(Ptr<const Packet> packet, Ptr<Ipv4> /* ipv4 */, uint32_t /* interface */)
{
    Ptr<Packet> copy = packet->Copy();
    Ipv4Header ip;
    copy->RemoveHeader(ip);
    if (ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER ||
        copy->GetSize() < UdpHeader().GetSerializedSize() + RudpHeader::FIXED_SIZE)
    {
        return;
    }
    UdpHeader udp;
    copy->RemoveHeader(udp);
    RudpHeader header;
    copy->RemoveHeader(header);
    const uint32_t consumed = copy->GetSize() + (header.HasFlags(RudpHeader::SYN) ? 1 : 0) +
                              (header.HasFlags(RudpHeader::FIN) ? 1 : 0);
    m_last = {header.GetAckNumber(), header.GetSequenceNumber() + consumed};
    m_anySent = true;
    m_sent[udp.GetDestinationPort()] = m_last;
}

void
Violation(const std::string& what)
{
    std::fprintf(stderr, "rudp fuzz target: invariant broken: %s\n", what.c_str());
    std::abort();
}

} // namespace rudpfuzz
} // namespace ns3
