/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-file-transfer-helper.h"

#include "rudp-stack-helper.h"

#include "ns3/application.h"
#include "ns3/arp-cache.h"
#include "ns3/csma-helper.h"
#include "ns3/double.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/netem-queue-disc.h"
#include "ns3/node.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/rudp-corruption-error-model.h"
#include "ns3/rudp-file-receiver.h"
#include "ns3/rudp-file-sender.h"
#include "ns3/rudp-relay.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

namespace ns3
{

RudpApplicationHelper::RudpApplicationHelper(TypeId tid)
{
    m_factory.SetTypeId(tid);
}

void
RudpApplicationHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
RudpApplicationHelper::Install(NodeContainer nodes) const
{
    ApplicationContainer apps;
    for (auto node = nodes.Begin(); node != nodes.End(); ++node)
    {
        apps.Add(Install(*node));
    }
    return apps;
}

ApplicationContainer
RudpApplicationHelper::Install(Ptr<Node> node) const
{
    Ptr<Application> app = m_factory.Create<Application>();
    node->AddApplication(app);
    return ApplicationContainer(app);
}

RudpFileSenderHelper::RudpFileSenderHelper(const std::string& protocol, const Address& remote)
    : RudpApplicationHelper(RudpFileSender::GetTypeId())
{
    SetAttribute("Protocol", StringValue(protocol));
    SetAttribute("Remote", AddressValue(remote));
}

RudpFileReceiverHelper::RudpFileReceiverHelper(const std::string& protocol, const Address& local)
    : RudpApplicationHelper(RudpFileReceiver::GetTypeId())
{
    SetAttribute("Protocol", StringValue(protocol));
    SetAttribute("Local", AddressValue(local));
}

namespace
{

/// The seed's ports: the server's, the relay's.
const uint16_t SERVER_PORT = 2222;
const uint16_t RELAY_PORT = 3333;

/// Sets a netem disc's Loss and Duplicate (a blackout's start and end).
void
SetNetemLoss(Ptr<NetemQueueDisc> disc, double loss, double duplicate)
{
    disc->SetAttribute("Loss", DoubleValue(loss));
    disc->SetAttribute("Duplicate", DoubleValue(duplicate));
}

} // namespace

bool
RudpFileTransferHelper::Netem::IsUsed() const
{
    return reorder > 0 || duplicate > 0 || BaseDelay().IsStrictlyPositive() || ackLoss > 0 ||
           blackoutDuration.IsStrictlyPositive();
}

Time
RudpFileTransferHelper::Netem::BaseDelay() const
{
    return delay.IsStrictlyPositive() ? delay : jitter;
}

RudpFileTransferHelper::RudpFileTransferHelper() = default;

void
RudpFileTransferHelper::SetLink(Link link, DataRate rate, uint32_t mtu)
{
    m_link = link;
    m_rate = rate;
    m_mtu = mtu;
}

void
RudpFileTransferHelper::SetRouter(Router router, Time delay, double loss)
{
    m_router = router;
    m_delay = delay;
    m_loss = loss;
}

void
RudpFileTransferHelper::SetCorruption(double rate, uint32_t bitsPerPacket)
{
    m_corruption = rate;
    m_corruptionBits = bitsPerPacket;
}

void
RudpFileTransferHelper::SetNetem(const Netem& netem)
{
    m_netem = netem;
}

void
RudpFileTransferHelper::Install()
{
    NS_ABORT_MSG_IF(m_nodes.GetN() > 0, "RudpFileTransferHelper::Install: once");
    m_nodes.Create(3);
    InstallLinks();
    InternetStackHelper().Install(m_nodes);
    RudpStackHelper().Install(m_nodes);
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
    m_clientSide = addresses.Assign(m_clientLink);
    addresses.SetBase("10.1.2.0", "255.255.255.0");
    m_serverSide = addresses.Assign(m_serverLink);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    InstallErrorModel();
    if (m_netem.IsUsed())
    {
        InstallNetem();
    }
    if (m_router != NONE)
    {
        InstallRelay();
    }
}

void
RudpFileTransferHelper::InstallLinks()
{
    // The router-server link has the delay with Router NONE; a relay delays otherwise.
    const Time linkDelay = m_router == NONE ? m_delay : Seconds(0);
    Ptr<Node> client = GetClient();
    Ptr<Node> router = GetRouter();
    Ptr<Node> server = GetServer();
    if (m_link == CSMA)
    {
        CsmaHelper csma;
        csma.SetChannelAttribute("DataRate", DataRateValue(m_rate));
        if (m_mtu != 1500) // CsmaNetDevice's default: runs without an MTU stay as they were
        {
            csma.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
        }
        m_clientLink = csma.Install(NodeContainer(client, router));
        csma.SetChannelAttribute("Delay", TimeValue(linkDelay));
        m_serverLink = csma.Install(NodeContainer(router, server));
    }
    else
    {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(m_rate));
        p2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
        m_clientLink = p2p.Install(client, router);
        p2p.SetChannelAttribute("Delay", TimeValue(linkDelay));
        m_serverLink = p2p.Install(router, server);
    }
}

void
RudpFileTransferHelper::InstallErrorModel()
{
    // A device takes one error model: a run either drops or corrupts.
    m_lossModel = CreateObject<RateErrorModel>();
    m_lossModel->SetAttribute("ErrorRate", DoubleValue(m_router == NONE ? m_loss : 0.0));
    m_lossModel->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    m_corruptionModel = CreateObject<RudpCorruptionErrorModel>();
    m_corruptionModel->SetAttribute("ErrorRate", DoubleValue(m_corruption));
    m_corruptionModel->SetAttribute("BitsPerPacket", UintegerValue(m_corruptionBits));
    m_serverLink.Get(1)->SetAttribute("ReceiveErrorModel",
                                      PointerValue(m_corruption > 0
                                                       ? Ptr<ErrorModel>(m_corruptionModel)
                                                       : Ptr<ErrorModel>(m_lossModel)));
}

void
RudpFileTransferHelper::InstallNetem()
{
    // A lost ARP exchange costs what it costs in Linux (a new request with
    // the next packet), not ns-3's default 100 s of silence.
    for (auto node = m_nodes.Begin(); node != m_nodes.End(); ++node)
    {
        Ptr<Ipv4L3Protocol> ipv4 = (*node)->GetObject<Ipv4L3Protocol>();
        for (uint32_t i = 0; i < ipv4->GetNInterfaces(); ++i)
        {
            if (Ptr<ArpCache> cache = ipv4->GetInterface(i)->GetArpCache())
            {
                cache->SetAttribute("DeadTimeout", TimeValue(Seconds(0)));
            }
        }
    }
    TrafficControlHelper netem;
    netem.SetRootQueueDisc("ns3::NetemQueueDisc", "Limit", UintegerValue(m_netem.limit));
    NetDeviceContainer egress(m_serverLink.Get(0));
    egress.Add(m_clientLink.Get(1));
    netem.Uninstall(egress);
    QueueDiscContainer discs = netem.Install(egress);
    m_dataNetem = DynamicCast<NetemQueueDisc>(discs.Get(0));
    m_dataNetem->SetAttribute("Reorder", DoubleValue(m_netem.reorder));
    m_dataNetem->SetAttribute("Duplicate", DoubleValue(m_netem.duplicate));
    m_dataNetem->SetAttribute("Delay", TimeValue(m_netem.BaseDelay()));
    m_dataNetem->SetAttribute("Jitter", TimeValue(m_netem.jitter));
    m_ackNetem = DynamicCast<NetemQueueDisc>(discs.Get(1));
    m_ackNetem->SetAttribute("Loss", DoubleValue(m_netem.ackLoss));
    if (m_netem.blackoutDuration.IsStrictlyPositive())
    {
        const Time start = m_netem.blackoutStart;
        const Time end = start + m_netem.blackoutDuration;
        Simulator::Schedule(start, &SetNetemLoss, m_dataNetem, 1.0, 0.0);
        Simulator::Schedule(end, &SetNetemLoss, m_dataNetem, 0.0, m_netem.duplicate);
        Simulator::Schedule(start, &SetNetemLoss, m_ackNetem, 1.0, 0.0);
        Simulator::Schedule(end, &SetNetemLoss, m_ackNetem, m_netem.ackLoss, 0.0);
    }
}

void
RudpFileTransferHelper::InstallRelay()
{
    m_relay = CreateObject<RudpRelay>();
    m_relay->SetAttribute("Port", UintegerValue(RELAY_PORT));
    m_relay->SetAttribute("Server", AddressValue(GetServerAddress()));
    m_relay->SetAttribute("Loss", DoubleValue(m_loss));
    m_relay->SetAttribute("Delay", TimeValue(m_delay));
    m_relay->SetAttribute("Mode", StringValue(m_router == DELAY ? "Delay" : "Sleeping"));
    GetRouter()->AddApplication(m_relay);
}

int64_t
RudpFileTransferHelper::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(m_nodes.GetN() == 0, "RudpFileTransferHelper::AssignStreams: after Install");
    m_lossModel->AssignStreams(stream);
    m_corruptionModel->AssignStreams(stream + 1);
    if (m_relay)
    {
        m_relay->AssignStreams(stream + 2);
    }
    RudpStackHelper().AssignStreams(m_nodes, stream + 10);
    if (m_dataNetem)
    {
        m_dataNetem->AssignStreams(stream + 100);
        m_ackNetem->AssignStreams(stream + 110);
    }
    return 120;
}

void
RudpFileTransferHelper::EnablePcapAll(const std::string& prefix) const
{
    if (prefix.empty())
    {
        return;
    }
    if (m_link == CSMA)
    {
        CsmaHelper().EnablePcapAll(prefix);
    }
    else
    {
        PointToPointHelper().EnablePcapAll(prefix);
    }
}

NodeContainer
RudpFileTransferHelper::GetNodes() const
{
    return m_nodes;
}

Ptr<Node>
RudpFileTransferHelper::GetClient() const
{
    return m_nodes.Get(0);
}

Ptr<Node>
RudpFileTransferHelper::GetRouter() const
{
    return m_nodes.Get(1);
}

Ptr<Node>
RudpFileTransferHelper::GetServer() const
{
    return m_nodes.Get(2);
}

Ipv4Address
RudpFileTransferHelper::GetClientAddress() const
{
    return m_clientSide.GetAddress(0);
}

InetSocketAddress
RudpFileTransferHelper::GetServerAddress() const
{
    return InetSocketAddress(m_serverSide.GetAddress(1), SERVER_PORT);
}

Address
RudpFileTransferHelper::GetClientRemote() const
{
    return m_router == NONE ? Address(GetServerAddress())
                            : Address(InetSocketAddress(m_clientSide.GetAddress(1), RELAY_PORT));
}

Ptr<RudpRelay>
RudpFileTransferHelper::GetRelay() const
{
    return m_relay;
}

Ptr<NetemQueueDisc>
RudpFileTransferHelper::GetDataNetem() const
{
    return m_dataNetem;
}

Ptr<NetemQueueDisc>
RudpFileTransferHelper::GetAckNetem() const
{
    return m_ackNetem;
}

} // namespace ns3
