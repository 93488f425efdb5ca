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
Fixup(const Datagram& datagram, SequenceNumber32 seqBase, SequenceNumber32 ackBase, bool crc32c)
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
        // The checksum the target expects: flag 0x20 (byte 8) asks for a
        // CRC-32c where the module has it.
        bytes[8] = static_cast<uint8_t>(crc32c ? bytes[8] | 0x20 : bytes[8] & ~0x20);
        // Only a header that parses has fields to fix (byte 9: SACK blocks).
        const uint32_t blocks = bytes[9];
        if (blocks > RudpHeader::MAX_SACK_BLOCKS ||
            RudpHeader::FIXED_SIZE + 8 * blocks + (crc32c ? 2 : 0) > bytes.size())
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

FuzzWire::FuzzWire(Time delay)
    : m_delay(delay)
{
}

void
FuzzWire::Attach(Ptr<Node> node, Ipv4Address address)
{
    m_addresses[node->GetId()] = address;
    Ptr<FuzzUdpSocketFactory> factory = CreateObject<FuzzUdpSocketFactory>();
    factory->SetWire(this);
    node->AggregateObject(factory);
}

void
FuzzWire::SetSniffer(Sniffer sniffer)
{
    m_sniffer = sniffer;
}

Ipv4Address
FuzzWire::AddressOf(Ptr<const Node> node) const
{
    auto it = m_addresses.find(node->GetId());
    return it != m_addresses.end() ? it->second : Ipv4Address::GetAny();
}

uint16_t
FuzzWire::Bind(FuzzUdpSocket* socket, Ptr<const Node> node, uint16_t port)
{
    if (port == 0)
    {
        // The next free ephemeral port, as UDP allocates them.
        for (uint32_t tries = 0; tries < 16384; ++tries)
        {
            const uint16_t candidate = m_nextEphemeral;
            m_nextEphemeral = m_nextEphemeral == 65535 ? 49152 : m_nextEphemeral + 1;
            if (m_bound.find({node->GetId(), candidate}) == m_bound.end())
            {
                port = candidate;
                break;
            }
        }
        if (port == 0)
        {
            return 0;
        }
    }
    if (!m_bound.emplace(std::make_pair(node->GetId(), port), socket).second)
    {
        return 0;
    }
    return port;
}

void
FuzzWire::Unbind(Ptr<const Node> node, uint16_t port)
{
    m_bound.erase({node->GetId(), port});
}

void
FuzzWire::Send(Ptr<Packet> packet, const InetSocketAddress& from, const InetSocketAddress& to)
{
    if (Simulator::GetEventCount() > MAX_EVENTS)
    {
        Violation("more than " + std::to_string(MAX_EVENTS) +
                  " simulator events in one run: datagrams keep breeding datagrams");
    }
    if (!m_sniffer.IsNull())
    {
        m_sniffer(from, to, packet);
    }
    Simulator::Schedule(m_delay, &FuzzWire::Deliver, Ptr<FuzzWire>(this), packet->Copy(), from, to);
}

void
FuzzWire::Deliver(Ptr<Packet> packet, InetSocketAddress from, InetSocketAddress to)
{
    for (const auto& [node, address] : m_addresses)
    {
        if (address == to.GetIpv4())
        {
            auto socket = m_bound.find({node, to.GetPort()});
            if (socket != m_bound.end())
            {
                socket->second->Receive(packet, from); // else: dropped, as by ICMP
            }
            return;
        }
    }
}

NS_OBJECT_ENSURE_REGISTERED(FuzzUdpSocket);

TypeId
FuzzUdpSocket::GetTypeId()
{
    static TypeId tid = TypeId("ns3::rudpfuzz::FuzzUdpSocket")
                            .SetParent<Socket>()
                            .SetGroupName("Rudp")
                            .AddConstructor<FuzzUdpSocket>();
    return tid;
}

FuzzUdpSocket::FuzzUdpSocket() = default;

FuzzUdpSocket::~FuzzUdpSocket()
{
    Close();
}

void
FuzzUdpSocket::Setup(Ptr<FuzzWire> wire, Ptr<Node> node)
{
    m_wire = wire;
    m_node = node;
}

void
FuzzUdpSocket::DoDispose()
{
    Close();
    m_wire = nullptr;
    m_node = nullptr;
    Socket::DoDispose();
}

void
FuzzUdpSocket::Receive(Ptr<Packet> packet, const InetSocketAddress& from)
{
    if (m_closed)
    {
        return;
    }
    m_queued += packet->GetSize();
    m_queue.emplace_back(packet, from);
    NotifyDataRecv();
}

Socket::SocketErrno
FuzzUdpSocket::GetErrno() const
{
    return m_errno;
}

Socket::SocketType
FuzzUdpSocket::GetSocketType() const
{
    return NS3_SOCK_DGRAM;
}

Ptr<Node>
FuzzUdpSocket::GetNode() const
{
    return m_node;
}

int
FuzzUdpSocket::Bind(const Address& address)
{
    if (!InetSocketAddress::IsMatchingType(address) || m_port != 0 || m_closed || !m_wire)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    m_port = m_wire->Bind(this, m_node, InetSocketAddress::ConvertFrom(address).GetPort());
    if (m_port == 0)
    {
        m_errno = ERROR_ADDRINUSE;
        return -1;
    }
    return 0;
}

int
FuzzUdpSocket::Bind()
{
    return Bind(InetSocketAddress(Ipv4Address::GetAny(), 0));
}

int
FuzzUdpSocket::Bind6()
{
    m_errno = ERROR_AFNOSUPPORT;
    return -1;
}

int
FuzzUdpSocket::Close()
{
    if (m_port != 0 && m_wire && m_node)
    {
        m_wire->Unbind(m_node, m_port);
    }
    m_port = 0;
    m_closed = true;
    m_queue.clear();
    m_queued = 0;
    return 0;
}

int
FuzzUdpSocket::ShutdownSend()
{
    return 0;
}

int
FuzzUdpSocket::ShutdownRecv()
{
    return 0;
}

int
FuzzUdpSocket::Connect(const Address& address)
{
    m_peer = address;
    return 0;
}

int
FuzzUdpSocket::Listen()
{
    m_errno = ERROR_OPNOTSUPP;
    return -1;
}

uint32_t
FuzzUdpSocket::GetTxAvailable() const
{
    return 65507;
}

int
FuzzUdpSocket::Send(Ptr<Packet> p, uint32_t flags)
{
    return SendTo(p, flags, m_peer);
}

int
FuzzUdpSocket::SendTo(Ptr<Packet> p, uint32_t /* flags */, const Address& toAddress)
{
    if (m_closed || !InetSocketAddress::IsMatchingType(toAddress))
    {
        m_errno = m_closed ? ERROR_SHUTDOWN : ERROR_AFNOSUPPORT;
        return -1;
    }
    if (m_port == 0 && Bind() != 0)
    {
        return -1;
    }
    m_wire->Send(p,
                 InetSocketAddress(m_wire->AddressOf(m_node), m_port),
                 InetSocketAddress::ConvertFrom(toAddress));
    return static_cast<int>(p->GetSize());
}

uint32_t
FuzzUdpSocket::GetRxAvailable() const
{
    return m_queued;
}

Ptr<Packet>
FuzzUdpSocket::Recv(uint32_t maxSize, uint32_t flags)
{
    Address from;
    return RecvFrom(maxSize, flags, from);
}

Ptr<Packet>
FuzzUdpSocket::RecvFrom(uint32_t /* maxSize */, uint32_t /* flags */, Address& fromAddress)
{
    if (m_queue.empty())
    {
        return nullptr;
    }
    auto [packet, from] = m_queue.front();
    m_queue.pop_front();
    m_queued -= packet->GetSize();
    fromAddress = from;
    return packet;
}

int
FuzzUdpSocket::GetSockName(Address& address) const
{
    address = InetSocketAddress(m_wire ? m_wire->AddressOf(m_node) : Ipv4Address::GetAny(), m_port);
    return 0;
}

int
FuzzUdpSocket::GetPeerName(Address& address) const
{
    if (m_peer.IsInvalid())
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    address = m_peer;
    return 0;
}

bool
FuzzUdpSocket::SetAllowBroadcast(bool allowBroadcast)
{
    return !allowBroadcast;
}

bool
FuzzUdpSocket::GetAllowBroadcast() const
{
    return false;
}

NS_OBJECT_ENSURE_REGISTERED(FuzzUdpSocketFactory);

TypeId
FuzzUdpSocketFactory::GetTypeId()
{
    static TypeId tid = TypeId("ns3::rudpfuzz::FuzzUdpSocketFactory")
                            .SetParent<UdpSocketFactory>()
                            .SetGroupName("Rudp");
    return tid;
}

void
FuzzUdpSocketFactory::SetWire(Ptr<FuzzWire> wire)
{
    m_wire = wire;
}

Ptr<Socket>
FuzzUdpSocketFactory::CreateSocket()
{
    Ptr<FuzzUdpSocket> socket = CreateObject<FuzzUdpSocket>();
    socket->Setup(m_wire, GetObject<Node>());
    return socket;
}

void
FuzzUdpSocketFactory::DoDispose()
{
    m_wire = nullptr;
    UdpSocketFactory::DoDispose();
}

FuzzNetwork::FuzzNetwork()
    : m_wire(Create<FuzzWire>(MilliSeconds(1))),
      m_nodes(2)
{
    m_wire->Attach(m_nodes.Get(0), Ipv4Address("10.1.1.1"));
    m_wire->Attach(m_nodes.Get(1), Ipv4Address("10.1.1.2"));
    m_wire->SetSniffer(MakeCallback(&FuzzNetwork::Sniff, this));
    RudpStackHelper().Install(m_nodes);
    RudpStackHelper().AssignStreams(m_nodes, 0); // the same ISNs in every run
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
    return m_wire->AddressOf(Peer());
}

Ipv4Address
FuzzNetwork::TargetAddress() const
{
    return m_wire->AddressOf(Target());
}

Ptr<FuzzWire>
FuzzNetwork::Wire() const
{
    return m_wire;
}

void
FuzzNetwork::SetCrc32c(bool crc32c)
{
    m_crc32c = crc32c;
}

void
FuzzNetwork::Inject(const std::vector<uint8_t>& bytes, uint16_t sourcePort, uint16_t targetPort)
{
    const auto it = m_sourceAddresses.find(sourcePort);
    m_wire->Send(
        Create<Packet>(bytes.data(), bytes.size()),
        InetSocketAddress(it != m_sourceAddresses.end() ? it->second : PeerAddress(), sourcePort),
        InetSocketAddress(TargetAddress(), targetPort));
}

void
FuzzNetwork::SetSourceAddress(uint16_t sourcePort, Ipv4Address address)
{
    m_sourceAddresses[sourcePort] = address;
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
    std::vector<uint8_t>& bytes = record.bytes;
    const uint8_t heartbeatAck = RudpHeader::HEARTBEAT | RudpHeader::ACK;
    if (record.relative && bytes.size() >= RudpHeader::FIXED_SIZE &&
        (bytes[8] & heartbeatAck) == heartbeatAck)
    {
        // A genuine answer: the header as the record has it (as long as the
        // target reads it), the information of the heartbeat it answers.
        const std::vector<uint8_t>& echo =
            sharedSequence ? m_lastHeartbeat : m_heartbeats[sourcePort];
        const size_t header =
            (m_crc32c ? RudpHeader::FIXED_SIZE_CRC32C : RudpHeader::FIXED_SIZE) + 8 * bytes[9];
        if (!echo.empty() && header <= bytes.size())
        {
            bytes.resize(header);
            bytes.insert(bytes.end(), echo.begin(), echo.end());
        }
    }
    const uint8_t addressChange = RudpHeader::ADDRESS_CHANGE | RudpHeader::ACK;
    if (record.relative && bytes.size() >= RudpHeader::FIXED_SIZE &&
        (bytes[8] & addressChange) == RudpHeader::ADDRESS_CHANGE)
    {
        // A genuine request: tagged with the target's key.
        const std::vector<uint8_t>& key = sharedSequence ? m_lastKey : m_keys[sourcePort];
        const size_t header =
            (m_crc32c ? RudpHeader::FIXED_SIZE_CRC32C : RudpHeader::FIXED_SIZE) + 8 * bytes[9];
        if (!key.empty() && header + key.size() <= bytes.size())
        {
            std::copy(key.begin(), key.end(), bytes.begin() + header);
        }
    }
    Inject(Fixup(record, base.nextExpected, base.nextSequence, m_crc32c), sourcePort, targetPort);
}

void
FuzzNetwork::SetObserver(FuzzWire::Sniffer observer)
{
    m_observer = observer;
}

void
FuzzNetwork::Sniff(const InetSocketAddress& from,
                   const InetSocketAddress& to,
                   Ptr<const Packet> packet)
{
    if (!m_observer.IsNull())
    {
        m_observer(from, to, packet);
    }
    if (from.GetIpv4() != TargetAddress() || packet->GetSize() < RudpHeader::FIXED_SIZE)
    {
        return;
    }
    Ptr<Packet> copy = packet->Copy();
    RudpHeader header;
    copy->RemoveHeader(header);
    if (header.HasFlags(RudpHeader::HEARTBEAT))
    {
        // No sequence numbers: kept for the answers that echo it (Send).
        if (!header.HasFlags(RudpHeader::ACK) && !header.IsMalformed())
        {
            m_lastHeartbeat.resize(copy->GetSize());
            copy->CopyData(m_lastHeartbeat.data(), m_lastHeartbeat.size());
            m_heartbeats[to.GetPort()] = m_lastHeartbeat;
        }
        return;
    }
    if (header.HasFlags(RudpHeader::SYN) && copy->GetSize() >= 8)
    {
        // A multipath INIT or INIT-ACK opens with the association key (RudpCmtInit).
        m_lastKey.resize(8);
        copy->CopyData(m_lastKey.data(), m_lastKey.size());
        m_keys[to.GetPort()] = m_lastKey;
    }
    const uint32_t consumed = copy->GetSize() + (header.HasFlags(RudpHeader::SYN) ? 1 : 0) +
                              (header.HasFlags(RudpHeader::FIN) ? 1 : 0);
    m_last = {header.GetAckNumber(), header.GetSequenceNumber() + consumed};
    m_anySent = true;
    m_sent[to.GetPort()] = m_last;
}

void
ResendBudget::Watch(Ptr<RudpSocket> sender)
{
    m_sender = sender;
    sender->TraceConnectWithoutContext("Tx", MakeCallback(&ResendBudget::Sent, this));
}

uint64_t
ResendBudget::MaxOutstanding() const
{
    return m_maxOutstanding;
}

void
ResendBudget::Sent(Ptr<const Packet> /* packet */,
                   const RudpHeader& /* header */,
                   Ptr<const RudpSocket> socket)
{
    m_maxOutstanding =
        std::max<uint64_t>(m_maxOutstanding, socket->GetTxBuffer()->GetSegments().size());
}

void
ResendBudget::Check(uint64_t datagrams) const
{
    if (!m_sender)
    {
        return;
    }
    const RudpSocket::Stats& stats = m_sender->GetStats();
    const uint64_t causes = datagrams + stats.timeouts + stats.windowProbes + 1;
    if (stats.retransmissions > std::max<uint64_t>(m_maxOutstanding, 1) * causes)
    {
        Violation(std::to_string(stats.retransmissions) + " resent segments (at most " +
                  std::to_string(m_maxOutstanding) + " outstanding) for " +
                  std::to_string(datagrams) + " datagrams, " + std::to_string(stats.timeouts) +
                  " timeouts and " + std::to_string(stats.windowProbes) + " window probes");
    }
}

void
Violation(const std::string& what)
{
    std::fprintf(stderr, "rudp fuzz target: invariant broken: %s\n", what.c_str());
    std::abort();
}

} // namespace rudpfuzz
} // namespace ns3
