/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-dumbbell-helper.h"

#include "rudp-distributed.h"
#include "rudp-stack-helper.h"

#include "ns3/abort.h"
#include "ns3/bulk-send-helper.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/log.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/rudp-socket-factory.h"
#include "ns3/string.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpDumbbellHelper");

RudpDumbbellHelper::RudpDumbbellHelper()
{
    m_sourceFactory.SetTypeId(BulkSendApplication::GetTypeId());
}

void
RudpDumbbellHelper::SetBottleneck(DataRate rate, Time delay)
{
    m_rate = rate;
    m_delay = delay;
}

void
RudpDumbbellHelper::SetAccessRate(DataRate rate)
{
    m_accessRate = rate;
}

void
RudpDumbbellHelper::SetQueue(QueueSize limit)
{
    m_queue = limit;
}

void
RudpDumbbellHelper::SetLoss(double rate)
{
    m_loss = rate;
}

void
RudpDumbbellHelper::SetSourceAttribute(const std::string& name, const AttributeValue& value)
{
    m_sourceFactory.Set(name, value);
}

void
RudpDumbbellHelper::SetRanks(uint32_t ranks)
{
    NS_ABORT_MSG_UNLESS(ranks >= 1, "RudpDumbbellHelper: at least one rank");
    m_ranks = ranks;
}

uint32_t
RudpDumbbellHelper::AddFlow(Transport transport, TypeId algorithm, Time rtt, Time start, Time stop)
{
    NS_ABORT_MSG_UNLESS(rtt > m_delay * 2,
                        "RudpDumbbellHelper: a flow's RTT must exceed twice the bottleneck's "
                        "delay (its access links need a delay too); set the bottleneck first");
    m_specs.push_back({transport, algorithm, rtt, start, stop});
    return m_specs.size() - 1;
}

void
RudpDumbbellHelper::Install()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_specs.empty(), "RudpDumbbellHelper: no flow to install");
    const size_t n = m_specs.size();
    const bool rudp = std::any_of(m_specs.begin(), m_specs.end(), [](const FlowSpec& spec) {
        return spec.transport == RUDP;
    });
    // Without the distributed simulator every node would run in this
    // process, and another rank's nodes would have no applications.
    NS_ABORT_MSG_IF(m_ranks > 1 && !RudpDistributed::IsSelected(),
                    "RudpDumbbellHelper: "
                        << m_ranks
                        << " ranks need ns-3's distributed simulator "
                           "(SimulatorImplementationType, MpiInterface::Enable)");
    // Created in the same order whatever the ranks: the same node ids.
    for (size_t k = 0; k < n; ++k)
    {
        m_senders.Create(1, GetSenderRank(k, m_ranks));
    }
    for (size_t k = 0; k < n; ++k)
    {
        m_receivers.Create(1, GetReceiverRank(k, m_ranks));
    }
    m_routers.Create(1, 0);
    m_routers.Create(1, m_ranks > 1 ? 1 : 0);
    InternetStackHelper internet;
    internet.Install(m_senders);
    internet.Install(m_receivers);
    internet.Install(m_routers);
    if (rudp)
    {
        RudpStackHelper rudpStack;
        rudpStack.Install(m_senders);
        rudpStack.Install(m_receivers);
    }

    // The bottleneck: the queue disc holds the queue (the device queue one packet).
    PointToPointHelper bottleneckLink;
    bottleneckLink.SetDeviceAttribute("DataRate", DataRateValue(m_rate));
    bottleneckLink.SetChannelAttribute("Delay", TimeValue(m_delay));
    bottleneckLink.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
    m_bottleneck = bottleneckLink.Install(m_routers.Get(0), m_routers.Get(1));
    TrafficControlHelper fifo;
    fifo.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(m_queue));
    m_queueDiscs = fifo.Install(m_bottleneck);
    m_lossModel = CreateObject<RateErrorModel>();
    m_lossModel->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    m_lossModel->SetRate(m_loss);
    m_bottleneck.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(m_lossModel));
    Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
    addresses.Assign(m_bottleneck);

    const DataRate accessRate =
        m_accessRate.GetBitRate() > 0 ? m_accessRate : DataRate(m_rate.GetBitRate() * 10);
    TrafficControlHelper noQueueDisc;
    for (size_t k = 0; k < n; ++k)
    {
        const FlowSpec& spec = m_specs[k];
        const Ptr<Node> sender = m_senders.Get(k);
        const Ptr<Node> receiver = m_receivers.Get(k);
        PointToPointHelper accessLink;
        accessLink.SetDeviceAttribute("DataRate", DataRateValue(accessRate));
        accessLink.SetChannelAttribute("Delay", TimeValue(GetAccessDelay(k)));
        // A sender's burst (a slow start, Hybla's large steps) waits in its NIC
        // rather than being dropped there: the bottleneck alone decides losses.
        accessLink.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("100000p"));
        NetDeviceContainer left = accessLink.Install(sender, m_routers.Get(0));
        NetDeviceContainer right = accessLink.Install(m_routers.Get(1), receiver);
        std::ostringstream leftNet;
        std::ostringstream rightNet;
        leftNet << "10." << 1 + k / 250 << "." << k % 250 << ".0";
        rightNet << "10." << 101 + k / 250 << "." << k % 250 << ".0";
        m_senderAddresses.push_back(
            Ipv4AddressHelper(leftNet.str().c_str(), "255.255.255.0").Assign(left).GetAddress(0));
        const Ipv4Address receiverAddress =
            Ipv4AddressHelper(rightNet.str().c_str(), "255.255.255.0").Assign(right).GetAddress(1);
        // Access links keep only their device queue: no default FqCoDel that
        // would act on bursts.
        noQueueDisc.Uninstall(left);
        noQueueDisc.Uninstall(right);

        std::string factory = "ns3::TcpSocketFactory";
        if (spec.transport == RUDP)
        {
            factory = "ns3::RudpSocketFactory";
            sender->GetObject<RudpSocketFactory>()->SetAttribute("WindowPolicy",
                                                                 TypeIdValue(spec.algorithm));
        }
        else
        {
            sender->GetObject<TcpL4Protocol>()->SetAttribute("SocketType",
                                                             TypeIdValue(spec.algorithm));
        }
        // Another rank runs the applications of its own nodes.
        Ptr<PacketSink> sink;
        if (IsLocal(receiver))
        {
            PacketSinkHelper sinkHelper(factory,
                                        InetSocketAddress(Ipv4Address::GetAny(), GetPort(k)));
            ApplicationContainer sinkApp = sinkHelper.Install(receiver);
            sinkApp.Start(Seconds(0));
            sink = DynamicCast<PacketSink>(sinkApp.Get(0));
        }
        m_sinks.push_back(sink);
        Ptr<BulkSendApplication> source;
        if (IsLocal(sender))
        {
            source = m_sourceFactory.Create<BulkSendApplication>();
            source->SetAttribute("Protocol", TypeIdValue(TypeId::LookupByName(factory)));
            source->SetAttribute("Remote",
                                 AddressValue(InetSocketAddress(receiverAddress, GetPort(k))));
            sender->AddApplication(source);
            source->SetStartTime(spec.start);
            source->SetStopTime(spec.stop);
        }
        m_sources.push_back(source);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
}

int64_t
RudpDumbbellHelper::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_UNLESS(m_lossModel, "RudpDumbbellHelper::AssignStreams: Install first");
    int64_t assigned = m_lossModel->AssignStreams(stream);
    if (m_senders.Get(0)->GetObject<RudpSocketFactory>())
    {
        RudpStackHelper rudpStack;
        assigned += rudpStack.AssignStreams(m_senders, stream + assigned);
        assigned += rudpStack.AssignStreams(m_receivers, stream + assigned);
    }
    return assigned;
}

uint32_t
RudpDumbbellHelper::GetNFlows() const
{
    return m_specs.size();
}

uint32_t
RudpDumbbellHelper::GetRanks() const
{
    return m_ranks;
}

uint32_t
RudpDumbbellHelper::GetSenderRank(uint32_t k, uint32_t ranks)
{
    // The left side's ranks: 0, 2, 4, ... (with the left router on 0).
    const uint32_t left = (ranks + 1) / 2;
    return 2 * (k % left);
}

uint32_t
RudpDumbbellHelper::GetReceiverRank(uint32_t k, uint32_t ranks)
{
    // The right side's ranks: 1, 3, 5, ... (with the right router on 1); one rank holds both sides.
    if (ranks == 1)
    {
        return 0;
    }
    const uint32_t right = ranks / 2;
    return 2 * (k % right) + 1;
}

bool
RudpDumbbellHelper::IsLocal(Ptr<Node> node) const
{
    return m_ranks == 1 || RudpDistributed::IsLocal(node);
}

NodeContainer
RudpDumbbellHelper::GetSenders() const
{
    return m_senders;
}

NodeContainer
RudpDumbbellHelper::GetReceivers() const
{
    return m_receivers;
}

NodeContainer
RudpDumbbellHelper::GetRouters() const
{
    return m_routers;
}

NetDeviceContainer
RudpDumbbellHelper::GetBottleneckDevices() const
{
    return m_bottleneck;
}

QueueDiscContainer
RudpDumbbellHelper::GetBottleneckQueueDiscs() const
{
    return m_queueDiscs;
}

Ptr<RateErrorModel>
RudpDumbbellHelper::GetLossModel() const
{
    return m_lossModel;
}

Ipv4Address
RudpDumbbellHelper::GetSenderAddress(uint32_t k) const
{
    return m_senderAddresses.at(k);
}

uint16_t
RudpDumbbellHelper::GetPort(uint32_t k) const
{
    return static_cast<uint16_t>(5000 + k);
}

Ptr<BulkSendApplication>
RudpDumbbellHelper::GetSource(uint32_t k) const
{
    return m_sources.at(k);
}

Ptr<PacketSink>
RudpDumbbellHelper::GetSink(uint32_t k) const
{
    return m_sinks.at(k);
}

Time
RudpDumbbellHelper::GetRtt(uint32_t k) const
{
    return m_specs.at(k).rtt;
}

Time
RudpDumbbellHelper::GetAccessDelay(uint32_t k) const
{
    // rtt = 2 (access + bottleneck + access)
    return Seconds((m_specs.at(k).rtt.GetSeconds() / 2 - m_delay.GetSeconds()) / 2);
}

uint64_t
RudpDumbbellSizing::BdpBytes(DataRate rate, Time rtt)
{
    return static_cast<uint64_t>(rate.GetBitRate() * rtt.GetSeconds() / 8);
}

uint64_t
RudpDumbbellSizing::WireBytes(uint32_t segmentSize, RudpDumbbellHelper::Transport transport)
{
    // TCP with timestamps 32 bytes; RUDP 18 and UDP 8; IPv4 20; PPP 2.
    return segmentSize + (transport == RudpDumbbellHelper::RUDP ? 18 + 8 + 20 + 2 : 32 + 20 + 2);
}

uint64_t
RudpDumbbellSizing::DefaultQueueSize(QueueSizeUnit unit, uint64_t bdpBytes)
{
    return unit == QueueSizeUnit::BYTES ? bdpBytes : 1000;
}

uint64_t
RudpDumbbellSizing::QueueBytes(uint64_t limit, QueueSizeUnit unit, uint64_t wireBytes)
{
    return unit == QueueSizeUnit::BYTES ? limit : limit * wireBytes;
}

uint64_t
RudpDumbbellSizing::DefaultBuffer(uint64_t bdpBytes, uint64_t queueBytes)
{
    return std::max<uint64_t>(131072, 2 * (bdpBytes + queueBytes));
}

uint64_t
RudpDumbbellSizing::InitialSsThresh(uint64_t bdpBytes,
                                    uint64_t queueBytes,
                                    size_t flows,
                                    uint32_t segmentSize)
{
    return std::max<uint64_t>((bdpBytes + queueBytes) / flows, 2 * segmentSize);
}

Time
RudpDumbbellSizing::LossDelay(DataRate rate, Time maxRtt, uint64_t queueBytes)
{
    const double queueDelay = queueBytes * 8.0 / rate.GetBitRate();
    return Seconds(std::max(1.0, 4 * (maxRtt.GetSeconds() + queueDelay)));
}

} // namespace ns3
