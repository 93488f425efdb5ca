/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-relay.h"

#include "rudp-compat.h"

#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpRelay");

NS_OBJECT_ENSURE_REGISTERED(RudpRelay);

TypeId
RudpRelay::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RudpRelay")
            .SetParent<Application>()
            .SetGroupName("Rudp")
            .AddConstructor<RudpRelay>()
            .AddAttribute("Port",
                          "UDP port the relay listens on (the seed's router: 3333).",
                          UintegerValue(3333),
                          MakeUintegerAccessor(&RudpRelay::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Server",
                          "The server's address and port; everything else is the client.",
                          AddressValue(),
                          MakeAddressAccessor(&RudpRelay::m_server),
                          MakeAddressChecker())
            .AddAttribute("Loss",
                          "Probability that a client-to-server datagram is dropped (0..1).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&RudpRelay::m_loss),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Delay",
                          "Delay of a client-to-server datagram (0..3600 s).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&RudpRelay::m_delay),
                          MakeTimeChecker(Seconds(0), Seconds(3600)))
            .AddAttribute(
                "Mode",
                "Delay: each datagram delayed independently. Sleeping: one at a "
                "time, Delay each, as the seed's single-threaded router.",
                EnumValue(RudpRelay::DELAY),
                RUDP_MAKE_ENUM_ACCESSOR(RudpRelay::Mode, &RudpRelay::m_mode),
                MakeEnumChecker(RudpRelay::DELAY, "Delay", RudpRelay::SLEEPING, "Sleeping"))
            .AddAttribute("ReceiveBuffer",
                          "Receive buffer of the relay's UDP socket, where datagrams wait "
                          "while it sleeps (bytes, 1..2^31-1; default: Windows' 8 KiB "
                          "SO_RCVBUF, where the seed's router ran).",
                          UintegerValue(8192),
                          MakeUintegerAccessor(&RudpRelay::m_receiveBuffer),
                          MakeUintegerChecker<uint32_t>(1, 0x7fffffff))
            .AddTraceSource("Drop",
                            "A client datagram dropped on purpose",
                            MakeTraceSourceAccessor(&RudpRelay::m_dropTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

RudpRelay::RudpRelay()
    : m_random(CreateObject<UniformRandomVariable>())
{
}

RudpRelay::~RudpRelay() = default;

int64_t
RudpRelay::AssignStreams(int64_t stream)
{
    m_random->SetStream(stream);
    return 1;
}

uint64_t
RudpRelay::GetForwardedToServer() const
{
    return m_forwarded;
}

uint64_t
RudpRelay::GetDropped() const
{
    return m_dropped;
}

uint64_t
RudpRelay::GetOverflowDropped() const
{
    return m_overflowDropped;
}

void
RudpRelay::Overflow(Ptr<const Packet> /* packet */)
{
    ++m_overflowDropped;
}

Time
RudpRelay::GetMeanResidence() const
{
    return m_forwarded > 0 ? m_residenceSum / static_cast<int64_t>(m_forwarded) : Seconds(0);
}

void
RudpRelay::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_socket = nullptr;
    Application::DoDispose();
}

void
RudpRelay::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_UNLESS(InetSocketAddress::IsMatchingType(m_server),
                        "ns3::RudpRelay::Server must be an InetSocketAddress");
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_socket->SetAttribute("RcvBufSize", UintegerValue(m_receiveBuffer));
    NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                    "ns3::RudpRelay::Port: cannot bind port " << m_port);
    m_socket->SetRecvCallback(MakeCallback(&RudpRelay::HandleRead, this));
    m_socket->TraceConnectWithoutContext("Drop", MakeCallback(&RudpRelay::Overflow, this));
}

void
RudpRelay::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_wakeUp.Cancel();
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
    }
}

void
RudpRelay::HandleRead(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    // While asleep the relay reads nothing: datagrams pile up in the
    // socket's buffer, and overflow it, as they did in the seed's router.
    Address from;
    while (!m_sleeping)
    {
        Ptr<Packet> packet = socket->RecvFrom(from);
        if (!packet || !Relay(packet, from))
        {
            return;
        }
    }
}

bool
RudpRelay::Relay(Ptr<Packet> packet, const Address& from)
{
    NS_LOG_FUNCTION(this << packet->GetSize() << from);
    // What goes on is a new datagram with the same bytes, as from a real
    // relay: the tags of the one that arrived (FlowMonitor's among them)
    // must not follow it.
    packet->RemoveAllByteTags();
    packet->RemoveAllPacketTags();
    if (from == m_server)
    {
        if (!m_client.IsInvalid())
        {
            m_socket->SendTo(packet, 0, m_client);
        }
        return true;
    }
    m_client = from;
    if (m_random->GetValue() < m_loss)
    {
        ++m_dropped;
        m_dropTrace(packet);
        return true;
    }
    const Time arrival = Simulator::Now();
    if (m_mode == DELAY)
    {
        Simulator::Schedule(m_delay, &RudpRelay::Forward, this, packet, m_server, arrival);
        return true;
    }
    m_sleeping = true;
    m_wakeUp = Simulator::Schedule(m_delay, &RudpRelay::WakeUp, this, packet, m_server, arrival);
    return false;
}

void
RudpRelay::Forward(Ptr<Packet> packet, Address to, Time arrival)
{
    NS_LOG_FUNCTION(this << packet->GetSize() << to << arrival);
    ++m_forwarded;
    m_residenceSum += Simulator::Now() - arrival;
    m_socket->SendTo(packet, 0, to);
}

void
RudpRelay::WakeUp(Ptr<Packet> packet, Address to, Time arrival)
{
    NS_LOG_FUNCTION(this << packet->GetSize() << to << arrival);
    m_sleeping = false;
    Forward(packet, to, arrival);
    HandleRead(m_socket);
}

} // namespace ns3
