/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-helper.h"

#include "rudp-distributed.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

namespace
{

/// The model-assumptions oracle hears a packet its sender's queue disc dropped.
void
QueueDiscDropped(Ptr<RudpCmtSendEngine> sender, Ptr<const QueueDiscItem> item)
{
    sender->NotifyDataDropped(item->GetPacket());
}

} // namespace

RudpCmtHelper::RudpCmtHelper()
{
    m_senderFactory.SetTypeId(RudpCmtSender::GetTypeId());
    m_receiverFactory.SetTypeId(RudpCmtReceiver::GetTypeId());
}

void
RudpCmtHelper::AddPath(DataRate rate, Time delay, double loss)
{
    m_specs.push_back({rate, delay, loss});
}

void
RudpCmtHelper::SetSenderAttribute(const std::string& name, const AttributeValue& value)
{
    m_senderFactory.Set(name, value);
}

void
RudpCmtHelper::SetReceiverAttribute(const std::string& name, const AttributeValue& value)
{
    m_receiverFactory.Set(name, value);
}

void
RudpCmtHelper::Install()
{
    NS_ABORT_MSG_IF(m_specs.empty(), "RudpCmtHelper: AddPath at least once before Install");
    NS_ABORT_MSG_IF(RudpDistributed::IsSelected(),
                    "RudpCmtHelper: both hosts run in one process (the ModelAssumptions loss "
                    "oracle calls from the receiving device into the sender); it cannot be "
                    "split across MPI ranks: run it without ns-3's distributed simulator");
    m_hosts.Create(2);
    InternetStackHelper().Install(m_hosts);
    m_receiver = m_receiverFactory.Create<RudpCmtReceiver>();
    m_sender = m_senderFactory.Create<RudpCmtSender>();
    UintegerValue port;
    m_receiver->GetAttribute("Port", port);
    // What SCTP's INIT would tell the sender: the receiver's buffer (a_rwnd).
    UintegerValue rbuf;
    m_receiver->GetAttribute("RcvBufSize", rbuf);
    m_sender->SetAttribute("InitialPeerWindow", rbuf);
    // One data segment per packet: seed 002's 1468-byte chunk with IPv4, UDP
    // and RUDP headers exceeds Ethernet's 1500 bytes, so the links carry it.
    UintegerValue segmentSize;
    m_sender->GetAttribute("SegmentSize", segmentSize);
    const uint32_t mtu =
        std::max<uint32_t>(1500, segmentSize.Get() + 20 + 8 + RudpHeader::FIXED_SIZE_CRC32C);
    // The model-assumptions mode: retransmissions are never lost, and each
    // loss is reported to the sender (its oracle), which acts on it one RTT
    // after the send.
    BooleanValue modelAssumptions;
    m_sender->GetAttribute("ModelAssumptions", modelAssumptions);
    for (size_t i = 0; i < m_specs.size(); ++i)
    {
        PointToPointHelper link;
        link.SetDeviceAttribute("DataRate", DataRateValue(m_specs[i].rate));
        link.SetDeviceAttribute("Mtu", UintegerValue(mtu));
        link.SetChannelAttribute("Delay", TimeValue(m_specs[i].delay));
        NetDeviceContainer devices = link.Install(m_hosts);
        Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
        loss->SetAttribute("ErrorRate", DoubleValue(m_specs[i].loss));
        loss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        if (modelAssumptions.Get())
        {
            Ptr<RudpFirstTransmissionErrorModel> firstOnly =
                CreateObject<RudpFirstTransmissionErrorModel>();
            firstOnly->SetInner(loss);
            devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(firstOnly));
            const bool connected =
                devices.Get(1)->TraceConnectWithoutContext(
                    "PhyRxDrop",
                    MakeCallback(&RudpCmtSendEngine::NotifyDataDropped, m_sender->GetEngine())) &&
                devices.Get(0)->TraceConnectWithoutContext(
                    "MacTxDrop",
                    MakeCallback(&RudpCmtSendEngine::NotifyDataDropped, m_sender->GetEngine()));
            NS_ABORT_MSG_UNLESS(connected, "RudpCmtHelper: the path's devices lack drop traces");
        }
        else
        {
            devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
        }
        std::ostringstream subnet;
        subnet << "10." << i + 1 << ".1.0";
        Ipv4InterfaceContainer interfaces =
            Ipv4AddressHelper(subnet.str().c_str(), "255.255.255.0").Assign(devices);
        InstallPathQueue(devices, m_pathQueue);
        // The receiver's address on this path's subnet: a connected route
        // sends it out through this path's own interface.
        Ptr<RudpCmtPath> path = m_sender->AddPath(
            InetSocketAddress(interfaces.GetAddress(1), static_cast<uint16_t>(port.Get())));
        path->SetAttribute("LossRate", DoubleValue(m_specs[i].loss));
        // The oracle also hears the congestion losses in the sending host's
        // queue disc (installed with the addresses), where the initial slow
        // start can overflow a path.
        Ptr<TrafficControlLayer> tc = m_hosts.Get(0)->GetObject<TrafficControlLayer>();
        Ptr<QueueDisc> queueDisc = tc ? tc->GetRootQueueDiscOnDevice(devices.Get(0)) : nullptr;
        if (modelAssumptions.Get() && queueDisc)
        {
            queueDisc->TraceConnectWithoutContext(
                "Drop",
                MakeBoundCallback(&QueueDiscDropped, m_sender->GetEngine()));
        }
        m_devices.push_back(devices);
        m_lossModels.push_back(loss);
    }
    m_hosts.Get(0)->AddApplication(m_sender);
    m_hosts.Get(1)->AddApplication(m_receiver);
}

void
RudpCmtHelper::SetPathQueue(PathQueue queue)
{
    m_pathQueue = queue;
}

void
RudpCmtHelper::InstallPathQueue(const NetDeviceContainer& devices, PathQueue queue)
{
    if (queue == PathQueue::NS3)
    {
        return;
    }
    TrafficControlHelper().Uninstall(devices);
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        PointerValue txQueue;
        devices.Get(i)->GetAttribute("TxQueue", txQueue);
        txQueue.Get<QueueBase>()->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, NS2_QUEUE_PACKETS));
    }
}

void
RudpCmtHelper::SetNs2Defaults()
{
    // ns-2.31 tcl/lib/ns-default.tcl (Agent/SCTP, Agent/SCTP/CMT) and sctp/sctp.h.
    // Each is also RudpCmtSocket's default: its attributes are its engines'.
    const auto set =
        [](const std::string& engine, const std::string& name, const AttributeValue& value) {
            Config::SetDefault(engine + name, value);
            Config::SetDefault("ns3::RudpCmtSocket::" + name, value);
        };
    const std::string sender = "ns3::RudpCmtSender::";
    set(sender, "PathMaxRetrans", UintegerValue(5));   // pathMaxRetrans_
    set(sender, "ReTxThreshold", UintegerValue(4));    // fastRtxTrigger_
    set(sender, "RtxPolicy", StringValue("RTX-SAME")); // eCmtRtxPolicy_ 1
    set(sender, "MaxBurst", UintegerValue(4));         // useMaxBurst_ 1, MAX_BURST
    set(sender, "InitialSlowStartThreshold", UintegerValue(65536));
    set(sender, "InitialCwnd", UintegerValue(2)); // initialCwnd_ (MTUs)
    set(sender, "InitialRto", TimeValue(Seconds(3)));
    set(sender, "MinRto", TimeValue(Seconds(1)));
    set(sender, "MaxRto", TimeValue(Seconds(60)));
    set(sender, "Ns2Recovery", BooleanValue(true));     // FastRtx, uiRecover
    set(sender, "Sfr", BooleanValue(true));             // useCmtReordering_
    set(sender, "Cuc", BooleanValue(true));             // useCmtCwnd_
    set(sender, "Dac", BooleanValue(true));             // useCmtDelAck_
    set(sender, "CmtPf", BooleanValue(false));          // useCmtPF_
    set(sender, "CmtPfCwnd", UintegerValue(1));         // cmtPFCwnd_
    set(sender, "IdleWindowDecay", BooleanValue(true)); // CwndDegradeTimer
    const std::string receiver = "ns3::RudpCmtReceiver::";
    set(receiver, "DelAckCount", UintegerValue(2));               // useDelayedSacks_
    set(receiver, "DelAckTimeout", TimeValue(MilliSeconds(200))); // sackDelay_
    set(receiver, "Dac", BooleanValue(true));
    // sctp-cmt.cc: with DAC the receiver delays every SACK, a gap's filler too.
    set(receiver, "SackOnGapFill", BooleanValue(false));
}

int64_t
RudpCmtHelper::AssignStreams(int64_t stream)
{
    int64_t assigned = 0;
    for (auto& model : m_lossModels)
    {
        assigned += model->AssignStreams(stream + assigned);
    }
    return assigned;
}

NodeContainer
RudpCmtHelper::GetHosts() const
{
    return m_hosts;
}

Ptr<RudpCmtSender>
RudpCmtHelper::GetSender() const
{
    return m_sender;
}

Ptr<RudpCmtReceiver>
RudpCmtHelper::GetReceiver() const
{
    return m_receiver;
}

NetDeviceContainer
RudpCmtHelper::GetPathDevices(uint32_t i) const
{
    return m_devices.at(i);
}

Ptr<RateErrorModel>
RudpCmtHelper::GetLossModel(uint32_t i) const
{
    return m_lossModels.at(i);
}

} // namespace ns3
