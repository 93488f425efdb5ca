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

/// The largest number of paths (SetPaths): a host's interfaces, as RudpFullMesh's MaxPaths.
const uint32_t MAX_PATHS = 8;

/// Sets a netem disc's Loss and Duplicate (a blackout's start and end).
void
SetNetemLoss(Ptr<NetemQueueDisc> disc, double loss, double duplicate)
{
    disc->SetAttribute("Loss", DoubleValue(loss));
    disc->SetAttribute("Duplicate", DoubleValue(duplicate));
}

/**
 * One path's netem discs through its blackouts: every datagram lost from the
 * first blackout's start to the last one's end when they overlap (the
 * path's own and the one of every path), the path's impairments back after.
 */
class BlackoutSwitch : public SimpleRefCount<BlackoutSwitch>
{
  public:
    /**
     * \param data the disc towards the server
     * \param ack the disc towards the client
     * \param netem the impairments to restore
     */
    BlackoutSwitch(Ptr<NetemQueueDisc> data,
                   Ptr<NetemQueueDisc> ack,
                   const RudpFileTransferHelper::Netem& netem)
        : m_data(data),
          m_ack(ack),
          m_duplicate(netem.duplicate),
          m_ackLoss(netem.ackLoss)
    {
    }

    /// Schedules a blackout from \p start, lasting \p duration.
    void Schedule(Time start, Time duration)
    {
        Simulator::Schedule(start, &BlackoutSwitch::Begin, Ptr<BlackoutSwitch>(this));
        Simulator::Schedule(start + duration, &BlackoutSwitch::End, Ptr<BlackoutSwitch>(this));
    }

  private:
    /// A blackout starts: everything lost, duplicates none.
    void Begin()
    {
        if (m_dark++ == 0)
        {
            SetNetemLoss(m_data, 1.0, 0.0);
            SetNetemLoss(m_ack, 1.0, 0.0);
        }
    }

    /// A blackout ends: the path's impairments back once none is under way.
    void End()
    {
        if (--m_dark == 0)
        {
            SetNetemLoss(m_data, 0.0, m_duplicate);
            SetNetemLoss(m_ack, m_ackLoss, 0.0);
        }
    }

    Ptr<NetemQueueDisc> m_data; ///< towards the server
    Ptr<NetemQueueDisc> m_ack;  ///< towards the client
    double m_duplicate;         ///< the data disc's Duplicate, restored
    double m_ackLoss;           ///< the ACK disc's Loss, restored
    uint32_t m_dark{0};         ///< blackouts under way
};

} // namespace

bool
RudpFileTransferHelper::Netem::IsUsed() const
{
    return reorder > 0 || duplicate > 0 || BaseDelay().IsStrictlyPositive() || ackLoss > 0 ||
           blackoutDuration.IsStrictlyPositive() || !pathBlackouts.empty();
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
RudpFileTransferHelper::SetPaths(uint32_t paths)
{
    NS_ABORT_MSG_UNLESS(paths >= 1 && paths <= MAX_PATHS,
                        "RudpFileTransferHelper::SetPaths: 1 to " << MAX_PATHS << " paths");
    m_nPaths = paths;
}

void
RudpFileTransferHelper::Install()
{
    NS_ABORT_MSG_IF(m_nodes.GetN() > 0, "RudpFileTransferHelper::Install: once");
    NS_ABORT_MSG_IF(m_nPaths > 1 && m_router != NONE,
                    "RudpFileTransferHelper: several paths need Router NONE (the relay is one "
                    "path's)");
    for (const PathBlackout& blackout : m_netem.pathBlackouts)
    {
        NS_ABORT_MSG_UNLESS(blackout.path < m_nPaths,
                            "RudpFileTransferHelper: a blackout of path " << blackout.path << " of "
                                                                          << m_nPaths);
    }
    m_nodes.Create(3);
    m_nodes.Create(m_nPaths - 1); // the other paths' routers
    m_paths.resize(m_nPaths);
    for (uint32_t p = 0; p < m_nPaths; ++p)
    {
        m_paths[p].router = m_nodes.Get(p == 0 ? 1 : 2 + p);
        InstallLinks(m_paths[p]);
    }
    InternetStackHelper().Install(m_nodes);
    RudpStackHelper().Install(m_nodes);
    for (uint32_t p = 0; p < m_nPaths; ++p)
    {
        const std::string subnet = "10." + std::to_string(p + 1) + ".";
        Ipv4AddressHelper addresses((subnet + "1.0").c_str(), "255.255.255.0");
        m_paths[p].clientSide = addresses.Assign(m_paths[p].clientLink);
        addresses.SetBase((subnet + "2.0").c_str(), "255.255.255.0");
        m_paths[p].serverSide = addresses.Assign(m_paths[p].serverLink);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    for (Path& path : m_paths)
    {
        InstallErrorModel(path);
    }
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
RudpFileTransferHelper::InstallLinks(Path& path) const
{
    // The router-server link has the delay with Router NONE; a relay delays otherwise.
    const Time linkDelay = m_router == NONE ? m_delay : Seconds(0);
    Ptr<Node> client = GetClient();
    Ptr<Node> server = GetServer();
    if (m_link == CSMA)
    {
        CsmaHelper csma;
        csma.SetChannelAttribute("DataRate", DataRateValue(m_rate));
        if (m_mtu != 1500) // CsmaNetDevice's default: runs without an MTU stay as they were
        {
            csma.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
        }
        path.clientLink = csma.Install(NodeContainer(client, path.router));
        csma.SetChannelAttribute("Delay", TimeValue(linkDelay));
        path.serverLink = csma.Install(NodeContainer(path.router, server));
    }
    else
    {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(m_rate));
        p2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
        path.clientLink = p2p.Install(client, path.router);
        p2p.SetChannelAttribute("Delay", TimeValue(linkDelay));
        path.serverLink = p2p.Install(path.router, server);
    }
}

void
RudpFileTransferHelper::InstallErrorModel(Path& path) const
{
    // A device takes one error model: a run either drops or corrupts.
    path.lossModel = CreateObject<RateErrorModel>();
    path.lossModel->SetAttribute("ErrorRate", DoubleValue(m_router == NONE ? m_loss : 0.0));
    path.lossModel->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    path.corruptionModel = CreateObject<RudpCorruptionErrorModel>();
    path.corruptionModel->SetAttribute("ErrorRate", DoubleValue(m_corruption));
    path.corruptionModel->SetAttribute("BitsPerPacket", UintegerValue(m_corruptionBits));
    path.serverLink.Get(1)->SetAttribute("ReceiveErrorModel",
                                         PointerValue(m_corruption > 0
                                                          ? Ptr<ErrorModel>(path.corruptionModel)
                                                          : Ptr<ErrorModel>(path.lossModel)));
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
    std::vector<Ptr<BlackoutSwitch>> switches;
    for (Path& path : m_paths)
    {
        TrafficControlHelper netem;
        netem.SetRootQueueDisc("ns3::NetemQueueDisc", "Limit", UintegerValue(m_netem.limit));
        NetDeviceContainer egress(path.serverLink.Get(0));
        egress.Add(path.clientLink.Get(1));
        netem.Uninstall(egress);
        QueueDiscContainer discs = netem.Install(egress);
        path.dataNetem = DynamicCast<NetemQueueDisc>(discs.Get(0));
        path.dataNetem->SetAttribute("Reorder", DoubleValue(m_netem.reorder));
        path.dataNetem->SetAttribute("Duplicate", DoubleValue(m_netem.duplicate));
        path.dataNetem->SetAttribute("Delay", TimeValue(m_netem.BaseDelay()));
        path.dataNetem->SetAttribute("Jitter", TimeValue(m_netem.jitter));
        path.ackNetem = DynamicCast<NetemQueueDisc>(discs.Get(1));
        path.ackNetem->SetAttribute("Loss", DoubleValue(m_netem.ackLoss));
        switches.push_back(Create<BlackoutSwitch>(path.dataNetem, path.ackNetem, m_netem));
        if (m_netem.blackoutDuration.IsStrictlyPositive())
        {
            switches.back()->Schedule(m_netem.blackoutStart, m_netem.blackoutDuration);
        }
    }
    for (const PathBlackout& blackout : m_netem.pathBlackouts)
    {
        if (blackout.duration.IsStrictlyPositive())
        {
            switches[blackout.path]->Schedule(blackout.start, blackout.duration);
        }
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
    const int64_t perPath = 120;
    for (uint32_t p = 0; p < m_nPaths; ++p)
    {
        const int64_t first = stream + perPath * p;
        m_paths[p].lossModel->AssignStreams(first);
        m_paths[p].corruptionModel->AssignStreams(first + 1);
        if (m_paths[p].dataNetem)
        {
            m_paths[p].dataNetem->AssignStreams(first + 100);
            m_paths[p].ackNetem->AssignStreams(first + 110);
        }
    }
    if (m_relay)
    {
        m_relay->AssignStreams(stream + 2);
    }
    RudpStackHelper().AssignStreams(m_nodes, stream + 10);
    return perPath * m_nPaths;
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

uint32_t
RudpFileTransferHelper::GetNPaths() const
{
    return m_nPaths;
}

Ipv4Address
RudpFileTransferHelper::GetClientAddress() const
{
    return GetClientAddress(0);
}

Ipv4Address
RudpFileTransferHelper::GetClientAddress(uint32_t path) const
{
    return m_paths.at(path).clientSide.GetAddress(0);
}

Ipv4Address
RudpFileTransferHelper::GetServerAddress(uint32_t path) const
{
    return m_paths.at(path).serverSide.GetAddress(1);
}

InetSocketAddress
RudpFileTransferHelper::GetServerAddress() const
{
    return InetSocketAddress(GetServerAddress(0), SERVER_PORT);
}

Address
RudpFileTransferHelper::GetClientRemote() const
{
    return m_router == NONE
               ? Address(GetServerAddress())
               : Address(InetSocketAddress(m_paths.front().clientSide.GetAddress(1), RELAY_PORT));
}

Ptr<RudpRelay>
RudpFileTransferHelper::GetRelay() const
{
    return m_relay;
}

Ptr<NetemQueueDisc>
RudpFileTransferHelper::GetDataNetem(uint32_t path) const
{
    return m_paths.at(path).dataNetem;
}

Ptr<NetemQueueDisc>
RudpFileTransferHelper::GetAckNetem(uint32_t path) const
{
    return m_paths.at(path).ackNetem;
}

} // namespace ns3
