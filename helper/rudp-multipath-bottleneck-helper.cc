/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-multipath-bottleneck-helper.h"

#include "rudp-stack-helper.h"

#include "ns3/abort.h"
#include "ns3/bulk-send-helper.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/log.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/red-queue-disc.h"
#include "ns3/string.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-recovery-ops.h"
#include "ns3/tcp-rfc5681-reno.h"
#include "ns3/tcp-socket.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpMultipathBottleneckHelper");

const Time RudpMultipathBottleneckHelper::ACCESS_DELAY = MilliSeconds(2);

namespace
{

const uint16_t ASSOCIATION_PORT = 9000;
const uint16_t TCP_PORT = 9001;
const Ipv4Mask MASK("255.255.255.0");

/// \return the network 10.\p second.\p third.0
Ipv4Address
Network(uint32_t second, uint32_t third)
{
    return Ipv4Address((10u << 24) | (second << 16) | (third << 8));
}

} // namespace

bool
RudpMultipathBottleneckHelper::ParseQueue(const std::string& queue, Queue& kind)
{
    for (const Queue candidate : {DEFAULT_QUEUE, PFIFO_FAST, FIFO, RED})
    {
        if (QueueName(candidate) == queue)
        {
            kind = candidate;
            return true;
        }
    }
    return false;
}

std::string
RudpMultipathBottleneckHelper::QueueName(Queue queue)
{
    switch (queue)
    {
    case DEFAULT_QUEUE:
        return "default";
    case PFIFO_FAST:
        return "pfifo-fast";
    case FIFO:
        return "fifo";
    case RED:
        return "red";
    }
    return "";
}

void
RudpMultipathBottleneckHelper::SetStandardDefaults()
{
    Config::SetDefault("ns3::RudpCmtSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpNewReno::GetTypeId()));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1u << 22));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1u << 22));
}

void
RudpMultipathBottleneckHelper::SetRfcTcp()
{
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpRfc5681Reno::GetTypeId()));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(TcpClassicRecovery::GetTypeId()));
}

RudpMultipathBottleneckHelper::RudpMultipathBottleneckHelper() = default;

uint32_t
RudpMultipathBottleneckHelper::AddBottleneck(DataRate rate,
                                             Time delay,
                                             Queue queue,
                                             uint32_t packets)
{
    NS_ABORT_MSG_IF((queue == FIFO || queue == PFIFO_FAST) && packets == 0,
                    "RudpMultipathBottleneckHelper: a FIFO of no packets");
    Bottleneck bottleneck;
    bottleneck.rate = rate;
    bottleneck.delay = delay;
    bottleneck.queue = queue;
    bottleneck.packets = packets;
    m_bottlenecks.push_back(bottleneck);
    return m_bottlenecks.size() - 1;
}

uint32_t
RudpMultipathBottleneckHelper::AddPath(uint32_t bottleneck, Time extraDelay)
{
    NS_ABORT_MSG_UNLESS(bottleneck < m_bottlenecks.size(),
                        "RudpMultipathBottleneckHelper: no bottleneck " << bottleneck);
    NS_ABORT_MSG_IF(m_paths.size() >= 250, "RudpMultipathBottleneckHelper: at most 250 paths");
    m_paths.push_back({bottleneck, extraDelay});
    return m_paths.size() - 1;
}

void
RudpMultipathBottleneckHelper::AddTcpFlows(uint32_t bottleneck, uint32_t flows)
{
    NS_ABORT_MSG_UNLESS(bottleneck < m_bottlenecks.size(),
                        "RudpMultipathBottleneckHelper: no bottleneck " << bottleneck);
    m_bottlenecks[bottleneck].tcpFlows += flows;
}

void
RudpMultipathBottleneckHelper::SetStart(Time start, Time jitter)
{
    m_start = start;
    m_jitter = jitter;
}

NetDeviceContainer
RudpMultipathBottleneckHelper::Access(Ptr<Node> a, Ptr<Node> b, Time extra)
{
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    link.SetChannelAttribute("Delay", TimeValue(ACCESS_DELAY + extra));
    // A burst waits in the sender's device rather than being dropped there:
    // only the bottlenecks queue and drop.
    link.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("100000p"));
    return link.Install(a, b);
}

void
RudpMultipathBottleneckHelper::SetAccessJitter(Time jitter)
{
    NS_ABORT_MSG_IF(jitter.IsStrictlyNegative(),
                    "RudpMultipathBottleneckHelper: a negative access jitter");
    m_accessJitter = jitter;
}

NetDeviceContainer
RudpMultipathBottleneckHelper::SenderAccess(Ptr<Node> sender, Ptr<Node> router, Time extra)
{
    NetDeviceContainer devices = Access(sender, router, extra);
    if (m_accessJitter.IsZero())
    {
        return devices;
    }
    // PointToPointHelper has no channel type to set: its devices move to a
    // RudpJitterChannel of the same delay (the first channel stays unused).
    Ptr<RudpJitterChannel> channel =
        CreateObjectWithAttributes<RudpJitterChannel>("Delay",
                                                      TimeValue(ACCESS_DELAY + extra),
                                                      "Jitter",
                                                      TimeValue(m_accessJitter));
    for (uint32_t d = 0; d < devices.GetN(); ++d)
    {
        DynamicCast<PointToPointNetDevice>(devices.Get(d))->Attach(channel);
    }
    m_jitterChannels.push_back(channel);
    return devices;
}

int64_t
RudpMultipathBottleneckHelper::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_UNLESS(m_source, "RudpMultipathBottleneckHelper::AssignStreams: Install first");
    int64_t assigned = 0;
    m_startJitter->SetStream(stream + assigned++);
    m_source->SetStartTime(NextStart());
    for (const Ptr<BulkSendApplication>& flow : m_tcpSources)
    {
        flow->SetStartTime(NextStart());
    }
    for (const Ptr<RudpJitterChannel>& channel : m_jitterChannels)
    {
        assigned += channel->AssignStreams(stream + assigned);
    }
    NodeContainer hosts(m_client, m_server);
    NodeContainer all = hosts;
    for (const Bottleneck& bottleneck : m_bottlenecks)
    {
        all.Add(bottleneck.routerA);
        all.Add(bottleneck.routerB);
        if (bottleneck.tcpSource)
        {
            all.Add(bottleneck.tcpSource);
            all.Add(bottleneck.tcpSink);
        }
        if (Ptr<RedQueueDisc> red = DynamicCast<RedQueueDisc>(bottleneck.queueDisc))
        {
            assigned += red->AssignStreams(stream + assigned);
        }
    }
    assigned += InternetStackHelper().AssignStreams(all, stream + assigned);
    assigned += RudpStackHelper().AssignStreams(hosts, stream + assigned);
    return assigned;
}

Time
RudpMultipathBottleneckHelper::NextStart()
{
    return m_start + Seconds(m_startJitter->GetValue(0, m_jitter.GetSeconds()));
}

void
RudpMultipathBottleneckHelper::Install()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_paths.empty(), "RudpMultipathBottleneckHelper: no path to install");
    NS_ABORT_MSG_IF(m_bottlenecks.size() > 250,
                    "RudpMultipathBottleneckHelper: too many bottlenecks");
    m_startJitter = CreateObject<UniformRandomVariable>();
    m_client = CreateObject<Node>();
    m_server = CreateObject<Node>();
    InternetStackHelper internet;
    internet.Install(NodeContainer(m_client, m_server));
    RudpStackHelper().Install(NodeContainer(m_client, m_server));
    for (uint32_t b = 0; b < m_bottlenecks.size(); ++b)
    {
        InstallBottleneck(b);
    }
    for (uint32_t p = 0; p < m_paths.size(); ++p)
    {
        InstallPath(p);
    }
    for (uint32_t b = 0; b < m_bottlenecks.size(); ++b)
    {
        InstallTcpHosts(b);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    PacketSinkHelper sink("ns3::RudpCmtSocketFactory",
                          InetSocketAddress(Ipv4Address::GetAny(), ASSOCIATION_PORT));
    m_sink = DynamicCast<PacketSink>(sink.Install(m_server).Get(0));
    BulkSendHelper bulk("ns3::RudpCmtSocketFactory",
                        InetSocketAddress(m_serverAddresses[0], ASSOCIATION_PORT));
    m_source = DynamicCast<BulkSendApplication>(bulk.Install(m_client).Get(0));
    m_source->SetStartTime(NextStart());
    for (uint32_t b = 0; b < m_bottlenecks.size(); ++b)
    {
        InstallTcpFlows(b);
    }
}

void
RudpMultipathBottleneckHelper::InstallBottleneck(uint32_t b)
{
    Bottleneck& bottleneck = m_bottlenecks[b];
    bottleneck.routerA = CreateObject<Node>();
    bottleneck.routerB = CreateObject<Node>();
    InternetStackHelper().Install(NodeContainer(bottleneck.routerA, bottleneck.routerB));
    PointToPointHelper link;
    link.SetDeviceAttribute("DataRate", DataRateValue(bottleneck.rate));
    link.SetChannelAttribute("Delay", TimeValue(bottleneck.delay));
    if (bottleneck.queue == FIFO || bottleneck.queue == RED)
    {
        // The queue disc is the queue: a fuller device queue would hold the
        // packets first (the queue disc sees a backlog only once it is full).
        link.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
    }
    bottleneck.devices = link.Install(bottleneck.routerA, bottleneck.routerB);
    InstallQueue(bottleneck);
    Ipv4AddressHelper(Network(9, b), MASK).Assign(bottleneck.devices);
    bottleneck.queueDisc =
        bottleneck.routerA->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(
            bottleneck.devices.Get(0));
}

void
RudpMultipathBottleneckHelper::InstallQueue(Bottleneck& bottleneck)
{
    if (bottleneck.queue == DEFAULT_QUEUE)
    {
        return; // Ipv4AddressHelper::Assign installs ns-3's default
    }
    TrafficControlHelper queue;
    const QueueSizeValue limit(QueueSize(QueueSizeUnit::PACKETS, bottleneck.packets));
    switch (bottleneck.queue)
    {
    case PFIFO_FAST:
        queue.SetRootQueueDisc("ns3::PfifoFastQueueDisc", "MaxSize", limit);
        break;
    case FIFO:
        queue.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", limit);
        break;
    case RED:
        queue.SetRootQueueDisc("ns3::RedQueueDisc");
        break;
    case DEFAULT_QUEUE:
        break;
    }
    queue.Install(bottleneck.devices);
}

void
RudpMultipathBottleneckHelper::InstallPath(uint32_t p)
{
    const Path& path = m_paths[p];
    const Bottleneck& bottleneck = m_bottlenecks[path.bottleneck];
    NetDeviceContainer clientSide = SenderAccess(m_client, bottleneck.routerA, path.extraDelay);
    NetDeviceContainer serverSide = Access(bottleneck.routerB, m_server, path.extraDelay);
    const Ipv4InterfaceContainer client = Ipv4AddressHelper(Network(1, p), MASK).Assign(clientSide);
    const Ipv4InterfaceContainer server = Ipv4AddressHelper(Network(2, p), MASK).Assign(serverSide);
    TrafficControlHelper none;
    none.Uninstall(clientSide);
    none.Uninstall(serverSide);
    m_serverAddresses.push_back(server.GetAddress(1));
    // Each path on its own interfaces, whatever the routers' shortest paths.
    Ipv4StaticRoutingHelper routing;
    Ptr<Ipv4> clientIp = m_client->GetObject<Ipv4>();
    Ptr<Ipv4> serverIp = m_server->GetObject<Ipv4>();
    routing.GetStaticRouting(clientIp)->AddNetworkRouteTo(
        Network(2, p),
        MASK,
        client.GetAddress(1),
        clientIp->GetInterfaceForAddress(client.GetAddress(0)));
    routing.GetStaticRouting(serverIp)->AddNetworkRouteTo(
        Network(1, p),
        MASK,
        server.GetAddress(0),
        serverIp->GetInterfaceForAddress(server.GetAddress(1)));
}

void
RudpMultipathBottleneckHelper::InstallTcpHosts(uint32_t b)
{
    Bottleneck& bottleneck = m_bottlenecks[b];
    if (bottleneck.tcpFlows == 0)
    {
        return;
    }
    bottleneck.tcpSource = CreateObject<Node>();
    bottleneck.tcpSink = CreateObject<Node>();
    InternetStackHelper().Install(NodeContainer(bottleneck.tcpSource, bottleneck.tcpSink));
    NetDeviceContainer sourceSide =
        SenderAccess(bottleneck.tcpSource, bottleneck.routerA, Seconds(0));
    NetDeviceContainer sinkSide = Access(bottleneck.routerB, bottleneck.tcpSink, Seconds(0));
    Ipv4AddressHelper(Network(3, b), MASK).Assign(sourceSide);
    bottleneck.tcpSinkAddress =
        Ipv4AddressHelper(Network(4, b), MASK).Assign(sinkSide).GetAddress(1);
    TrafficControlHelper none;
    none.Uninstall(sourceSide);
    none.Uninstall(sinkSide);
}

void
RudpMultipathBottleneckHelper::InstallTcpFlows(uint32_t b)
{
    const Bottleneck& bottleneck = m_bottlenecks[b];
    for (uint32_t k = 0; k < bottleneck.tcpFlows; ++k)
    {
        const auto port = static_cast<uint16_t>(TCP_PORT + m_tcpSinks.size());
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), port));
        m_tcpSinks.push_back(
            DynamicCast<PacketSink>(sinkHelper.Install(bottleneck.tcpSink).Get(0)));
        BulkSendHelper bulk("ns3::TcpSocketFactory",
                            InetSocketAddress(bottleneck.tcpSinkAddress, port));
        Ptr<BulkSendApplication> flow =
            DynamicCast<BulkSendApplication>(bulk.Install(bottleneck.tcpSource).Get(0));
        flow->SetStartTime(NextStart());
        m_tcpSources.push_back(flow);
        m_tcpBottleneck.push_back(b);
    }
}

Ptr<BulkSendApplication>
RudpMultipathBottleneckHelper::GetAssociationSource() const
{
    return m_source;
}

Ptr<PacketSink>
RudpMultipathBottleneckHelper::GetAssociationSink() const
{
    return m_sink;
}

uint32_t
RudpMultipathBottleneckHelper::GetNTcpFlows() const
{
    return m_tcpSources.size();
}

Ptr<BulkSendApplication>
RudpMultipathBottleneckHelper::GetTcpSource(uint32_t flow) const
{
    return m_tcpSources.at(flow);
}

Ptr<PacketSink>
RudpMultipathBottleneckHelper::GetTcpSink(uint32_t flow) const
{
    return m_tcpSinks.at(flow);
}

uint32_t
RudpMultipathBottleneckHelper::GetTcpBottleneck(uint32_t flow) const
{
    return m_tcpBottleneck.at(flow);
}

Ptr<QueueDisc>
RudpMultipathBottleneckHelper::GetQueueDisc(uint32_t bottleneck) const
{
    return m_bottlenecks.at(bottleneck).queueDisc;
}

NetDeviceContainer
RudpMultipathBottleneckHelper::GetBottleneckDevices(uint32_t bottleneck) const
{
    return m_bottlenecks.at(bottleneck).devices;
}

Time
RudpMultipathBottleneckHelper::GetPathRtt(uint32_t path) const
{
    const Path& spec = m_paths.at(path);
    return 2 * (2 * (ACCESS_DELAY + spec.extraDelay) + m_bottlenecks[spec.bottleneck].delay);
}

double
RudpMultipathBottleneckHelper::GetBdpPackets(uint32_t bottleneck) const
{
    const Bottleneck& spec = m_bottlenecks.at(bottleneck);
    const Time rtt = 2 * (2 * ACCESS_DELAY + spec.delay);
    return spec.rate.GetBitRate() * rtt.GetSeconds() / 8 / 1500;
}

Ptr<Node>
RudpMultipathBottleneckHelper::GetClient() const
{
    return m_client;
}

} // namespace ns3
