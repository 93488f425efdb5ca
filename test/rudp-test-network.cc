/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-test-network.h"

#include "../model/rudp-compat.h"

namespace ns3
{
namespace rudptest
{

TestNetwork::TestNetwork(Time delay, DataRate rate)
    : m_nodes(2)
{
    Ptr<SimpleChannel> channel = CreateObject<SimpleChannel>();
    channel->SetAttribute("Delay", TimeValue(delay));
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<SimpleNetDevice> device = CreateObject<SimpleNetDevice>();
        device->SetAddress(Mac48Address::Allocate());
        device->SetAttribute("DataRate", DataRateValue(rate));
        device->SetChannel(channel);
        m_nodes.Get(i)->AddDevice(device);
        m_devices.Add(device);
    }
    InternetStackHelper internet;
    internet.Install(m_nodes);
    RudpStackHelper().Install(m_nodes);
    Ipv4AddressGenerator::Reset(); // one network per simulation
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    m_interfaces = addresses.Assign(m_devices);
#if RUDP_HAVE_NEIGHBOR_CACHE_HELPER
    NeighborCacheHelper().PopulateNeighborCache(m_interfaces);
#else
    // ns-3.35: what NeighborCacheHelper does, by hand (no ARP in the tests).
    for (uint32_t i = 0; i < m_interfaces.GetN(); ++i)
    {
        const std::pair<Ptr<Ipv4>, uint32_t> own = m_interfaces.Get(i);
        Ptr<ArpCache> cache =
            own.first->GetObject<Ipv4L3Protocol>()->GetInterface(own.second)->GetArpCache();
        for (uint32_t j = 0; j < m_interfaces.GetN(); ++j)
        {
            if (j != i)
            {
                ArpCache::Entry* entry = cache->Add(m_interfaces.GetAddress(j));
                entry->SetMacAddress(m_devices.Get(j)->GetAddress());
                entry->MarkPermanent();
            }
        }
    }
#endif
}

Ptr<Node>
TestNetwork::Client() const
{
    return m_nodes.Get(0);
}

Ptr<Node>
TestNetwork::Server() const
{
    return m_nodes.Get(1);
}

InetSocketAddress
TestNetwork::ServerAddress(uint16_t port) const
{
    return InetSocketAddress(m_interfaces.GetAddress(1), port);
}

void
TestNetwork::DropAtServer(const std::list<uint32_t>& indices)
{
    Ptr<ReceiveListErrorModel> model = CreateObject<ReceiveListErrorModel>();
    model->SetList(indices);
    SetServerErrorModel(model);
}

void
TestNetwork::DropAtClient(const std::list<uint32_t>& indices)
{
    Ptr<ReceiveListErrorModel> model = CreateObject<ReceiveListErrorModel>();
    model->SetList(indices);
    SetClientErrorModel(model);
}

void
TestNetwork::SetServerErrorModel(Ptr<ErrorModel> model)
{
    m_devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(model));
}

void
TestNetwork::SetClientErrorModel(Ptr<ErrorModel> model)
{
    m_devices.Get(0)->SetAttribute("ReceiveErrorModel", PointerValue(model));
}

void
TestNetwork::AssignStreams(int64_t stream)
{
    RudpStackHelper().AssignStreams(m_nodes, stream);
}

Ptr<RudpSocket>
TestNetwork::CreateSocket(Ptr<Node> node)
{
    return DynamicCast<RudpSocket>(Socket::CreateSocket(node, RudpSocketFactory::GetTypeId()));
}

void
SegmentLog::Watch(Ptr<Node> node, const std::string& side)
{
    node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
        "Tx",
        MakeCallback(&SegmentLog::Record, this).Bind(side));
}

void
SegmentLog::Record(std::string side, Ptr<const Packet> packet, Ptr<Ipv4>, uint32_t)
{
    Ptr<Packet> copy = packet->Copy();
    Ipv4Header ip;
    copy->RemoveHeader(ip);
    if (ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER)
    {
        return;
    }
    UdpHeader udp;
    copy->RemoveHeader(udp);
    RudpHeader header;
    // Peek: RemoveHeader also edits packet metadata, which ns-3.37 asserts on
    // for a (short, hand-made) datagram without items.
    const uint32_t headerSize = copy->PeekHeader(header);
    m_segments.push_back({Simulator::Now(), side, header, copy->GetSize() - headerSize});
}

const std::vector<SegmentRecord>&
SegmentLog::Segments() const
{
    return m_segments;
}

std::vector<std::string>
SegmentLog::Summary() const
{
    std::vector<std::string> lines;
    for (const auto& s : m_segments)
    {
        std::string line = s.side + " ";
        if (s.length > 0)
        {
            line += "DATA " + std::to_string(s.length);
        }
        else
        {
            line += RudpHeader::FlagsToString(s.header.GetFlags() & ~RudpHeader::SACK_PERMITTED);
        }
        lines.push_back(line);
    }
    return lines;
}

AcceptingServer::AcceptingServer(Ptr<Node> node, uint16_t port)
    : m_listener(TestNetwork::CreateSocket(node))
{
    m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&AcceptingServer::Accept, this));
}

Ptr<RudpSocket>
AcceptingServer::Connection() const
{
    return m_connection;
}

uint64_t
AcceptingServer::BytesRead() const
{
    return m_bytes;
}

bool
AcceptingServer::PeerClosed() const
{
    return m_closed;
}

void
AcceptingServer::Accept(Ptr<Socket> socket, const Address& /* from */)
{
    m_connection = DynamicCast<RudpSocket>(socket);
    socket->SetRecvCallback(MakeCallback(&AcceptingServer::Read, this));
    socket->SetCloseCallbacks(MakeCallback(&AcceptingServer::Closed, this),
                              MakeCallback(&AcceptingServer::Errored, this));
}

void
AcceptingServer::Read(Ptr<Socket> socket)
{
    while (Ptr<Packet> p = socket->Recv())
    {
        m_bytes += p->GetSize();
    }
}

void
AcceptingServer::Closed(Ptr<Socket> socket)
{
    m_closed = true;
    socket->Close(); // as seed 000's server: answer the FIN with ours
}

void
AcceptingServer::Errored(Ptr<Socket> /* socket */)
{
}

NS_OBJECT_ENSURE_REGISTERED(WordSwapErrorModel);

TypeId
WordSwapErrorModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::rudptest::WordSwapErrorModel")
                            .SetParent<ErrorModel>()
                            .SetGroupName("Rudp")
                            .AddConstructor<WordSwapErrorModel>();
    return tid;
}

void
WordSwapErrorModel::SetPppHeader(bool ppp)
{
    m_ppp = ppp;
}

uint32_t
WordSwapErrorModel::Altered() const
{
    return m_altered;
}

bool
WordSwapErrorModel::DoCorrupt(Ptr<Packet> p)
{
    if (m_altered > 0)
    {
        return false;
    }
    Ptr<Packet> copy = p->Copy();
    if (m_ppp)
    {
        PppHeader ppp;
        copy->RemoveHeader(ppp);
    }
    Ipv4Header ip;
    copy->RemoveHeader(ip);
    if (ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER)
    {
        return false;
    }
    UdpHeader udp;
    copy->RemoveHeader(udp);
    RudpHeader header;
    // Peek: RemoveHeader also edits packet metadata, which ns-3.37 asserts
    // on for a datagram without items.
    const uint32_t payload = copy->GetSize() - copy->PeekHeader(header);
    if (payload < 64 || header.GetPayloadLength() != payload || ++m_dataSegments < 3)
    {
        return false; // the third data segment: payload bytes only
    }
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    // The payload starts at an even offset of the RUDP segment: its
    // 16-bit words are the checksum's words.
    for (size_t i = bytes.size() - payload; i + 4 <= bytes.size(); i += 2)
    {
        if (bytes[i] != bytes[i + 2] || bytes[i + 1] != bytes[i + 3])
        {
            std::swap(bytes[i], bytes[i + 2]);
            std::swap(bytes[i + 1], bytes[i + 3]);
            p->RemoveAtEnd(p->GetSize());
            p->AddAtEnd(Create<Packet>(bytes.data(), bytes.size()));
            ++m_altered;
            break;
        }
    }
    return false; // delivered, altered
}

void
WordSwapErrorModel::DoReset()
{
}

std::string
Join(const std::vector<std::string>& lines)
{
    std::string out;
    for (const auto& line : lines)
    {
        out += (out.empty() ? "" : ", ") + line;
    }
    return out;
}

} // namespace rudptest
} // namespace ns3
