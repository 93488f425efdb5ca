/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-socket.h"

#include "rudp-cmt-path.h"
#include "rudp-cmt-receive-engine.h"
#include "rudp-cmt-send-engine.h"
#include "rudp-cmt-socket-factory.h"
#include "rudp-forwarding.h"
#include "rudp-path-routing.h"
#include "rudp-rx-buffer.h"

#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtSocket");

NS_OBJECT_ENSURE_REGISTERED(RudpCmtSocket);

namespace
{

/// Which of the socket's engines an attribute or trace source belongs to.
enum Engines : uint8_t
{
    SENDER = 1,
    RECEIVER = 2,
};

/// The engines named by \p engines on \p socket (the sender first).
std::vector<Ptr<Object>>
EnginesOf(const ObjectBase* object, uint8_t engines)
{
    const auto* socket = dynamic_cast<const RudpCmtSocket*>(object);
    std::vector<Ptr<Object>> targets;
    if (socket && (engines & SENDER))
    {
        targets.emplace_back(socket->GetSender());
    }
    if (socket && (engines & RECEIVER))
    {
        targets.emplace_back(socket->GetReceiver());
    }
    return targets;
}

/// The engines' attributes the socket does not offer: it sets them itself.
bool
IsSetBySocket(const std::string& name)
{
    static const std::set<std::string> own{
        "InitialPeerWindow", // announced in the INIT
        "ModelAssumptions",  // seed 002's loss oracle, for RudpCmtHelper's links only
        "PathList",          // paths come from the set-up: Sender/PathList
    };
    return own.count(name) > 0;
}

/// The socket's defaults where they differ from the engines' (for any topology, not seed 002's).
const AttributeValue*
SocketDefault(const std::string& name)
{
    // A segment, its header (with a CRC-32c) and UDP/IP fill a 1500-byte MTU.
    static const UintegerValue segmentSize(1452);
    // RFC 9260's Association.Max.Retrans: a dead association ends.
    static const UintegerValue associationMaxRetrans(10);
    // RFC 9260's HB.interval: idle paths are watched as the RFC has it.
    static const TimeValue heartbeatInterval(Seconds(30));
    if (name == "HeartbeatInterval")
    {
        return &heartbeatInterval;
    }
    if (name == "SegmentSize")
    {
        return &segmentSize;
    }
    if (name == "AssociationMaxRetrans")
    {
        return &associationMaxRetrans;
    }
    return nullptr;
}

/// How the socket offers the attributes of its engine \p which.
RudpForwarding::Rule
SocketRule(uint8_t which)
{
    RudpForwarding::Rule rule;
    rule.resolve = &EnginesOf;
    rule.targets = [which](const TypeId::AttributeInformation& info) -> uint8_t {
        TypeId::AttributeInformation other;
        if (info.supportLevel != TypeId::SupportLevel::SUPPORTED || IsSetBySocket(info.name))
        {
            return 0; // a new API: no deprecated names
        }
        // On both engines (Checksum, Dac): the sender's entry sets both.
        const bool both =
            which == SENDER &&
            RudpCmtReceiveEngine::GetTypeId().LookupAttributeByName(info.name, &other);
        return both ? SENDER | RECEIVER : which;
    };
    rule.initial = &SocketDefault;
    return rule;
}

} // namespace

TypeId
RudpCmtSocket::GetTypeId()
{
    static TypeId tid = [] {
        TypeId t =
            TypeId("ns3::RudpCmtSocket")
                .SetParent<Socket>()
                .SetGroupName("Rudp")
                .AddConstructor<RudpCmtSocket>()
                .AddAttribute("MaxInitRetransmits",
                              "INITs sent again before the connection fails "
                              "(RFC 9260's Max.Init.Retransmits; 0..100).",
                              UintegerValue(8),
                              MakeUintegerAccessor(&RudpCmtSocket::m_maxInitRetransmits),
                              MakeUintegerChecker<uint32_t>(0, 100))
                .AddAttribute("Linger",
                              "How long an association that sent its SHUTDOWN COMPLETE "
                              "still answers a repeated SHUTDOWN-ACK, whose COMPLETE was "
                              "lost (0 s..1 h).",
                              TimeValue(Seconds(3)),
                              MakeTimeAccessor(&RudpCmtSocket::m_linger),
                              MakeTimeChecker(Seconds(0), Seconds(3600)))
                .AddAttribute("PathManager",
                              "Which paths the association has: ns3::RudpSctpPaths (a path "
                              "per peer address, the routing picks the interface) or "
                              "ns3::RudpFullMesh (a path from each local address to each "
                              "peer address, each by its own interface).",
                              TypeIdValue(RudpSctpPaths::GetTypeId()),
                              MakeTypeIdAccessor(&RudpCmtSocket::m_pathManagerType),
                              MakeTypeIdChecker())
                .AddAttribute("Sender",
                              "The engine that sends this end's data (paths: Sender/PathList).",
                              PointerValue(),
                              MakePointerAccessor(&RudpCmtSocket::m_sender),
                              MakePointerChecker<RudpCmtSendEngine>())
                .AddAttribute("Receiver",
                              "The engine that receives the peer's data.",
                              PointerValue(),
                              MakePointerAccessor(&RudpCmtSocket::m_receiver),
                              MakePointerChecker<RudpCmtReceiveEngine>())
                .AddTraceSource("State",
                                "The association's state",
                                MakeTraceSourceAccessor(&RudpCmtSocket::m_state),
                                "ns3::RudpCmtSocket::StateTracedValueCallback")
                .AddTraceSource("CongestionWindow",
                                "The paths' congestion windows together (bytes)",
                                MakeTraceSourceAccessor(&RudpCmtSocket::m_cwnd),
                                "ns3::TracedValueCallback::Uint32")
                .AddTraceSource("PathCongestionWindow",
                                "A path's congestion window (path index, old, new; bytes)",
                                MakeTraceSourceAccessor(&RudpCmtSocket::m_pathCwndTrace),
                                "ns3::RudpCmtSocket::PathUint32TracedCallback")
                .AddTraceSource("PathSlowStartThreshold",
                                "A path's slow-start threshold (path index, old, new; bytes)",
                                MakeTraceSourceAccessor(&RudpCmtSocket::m_pathSsThreshTrace),
                                "ns3::RudpCmtSocket::PathUint32TracedCallback")
                .AddTraceSource("PathRtt",
                                "A path's latest RTT measurement (path index, old, new)",
                                MakeTraceSourceAccessor(&RudpCmtSocket::m_pathRttTrace),
                                "ns3::RudpCmtSocket::PathTimeTracedCallback")
                .AddTraceSource("PathStatus",
                                "A path's RudpCmtPath::Status (path index, old, new): 0 "
                                "active, 1 failed, 2 potentially failed, 3 unconfirmed, "
                                "4 removed",
                                MakeTraceSourceAccessor(&RudpCmtSocket::m_pathStatusTrace),
                                "ns3::RudpCmtSocket::PathUint32TracedCallback")
                .AddTraceSource("AddressChange",
                                "An address change applied or refused: the peer's (true) or "
                                "this end's, ADD (1) or DELETE (2), the address, DONE (1) or "
                                "REFUSED (2)",
                                MakeTraceSourceAccessor(&RudpCmtSocket::m_addressChangeTrace),
                                "ns3::RudpCmtSocket::AddressChangeTracedCallback")
                .AddTraceSource("AssociationFailure",
                                "The association gave up (the reason)",
                                MakeTraceSourceAccessor(&RudpCmtSocket::m_failureTrace),
                                "ns3::RudpCmtSendEngine::FailureTracedCallback");
        RudpForwarding::Add(t, RudpCmtSendEngine::GetTypeId(), SENDER, SocketRule(SENDER));
        RudpForwarding::Add(t, RudpCmtReceiveEngine::GetTypeId(), RECEIVER, SocketRule(RECEIVER));
        return t;
    }();
    return tid;
}

RudpCmtSocket::RudpCmtSocket()
    : m_sender(CreateObject<RudpCmtSendEngine>()),
      m_receiver(CreateObject<RudpCmtReceiveEngine>()),
      m_controlTimer(CreateObject<RudpRtoTimer>())
{
    NS_LOG_FUNCTION(this);
    m_controlTimer->SetExpiryCallback(MakeCallback(&RudpCmtSocket::OnControlTimeout, this));
    m_announcer.SetCallbacks(MakeCallback(&RudpCmtSocket::SendAddressChange, this),
                             MakeCallback(&RudpCmtSocket::OnAddressChangeUnanswered, this));
}

RudpCmtSocket::RudpCmtSocket(const RudpCmtSocket& listener)
    : Socket(listener),
      RudpDatagramSink(listener),
      m_node(listener.m_node),
      m_sender(CreateObject<RudpCmtSendEngine>()),
      m_receiver(CreateObject<RudpCmtReceiveEngine>()),
      m_endpoint(listener.m_endpoint),
      m_boundAddress(listener.m_boundAddress),
      m_pathManagerType(listener.m_pathManagerType),
      m_controlTimer(CreateObject<RudpRtoTimer>()),
      m_maxInitRetransmits(listener.m_maxInitRetransmits),
      m_linger(listener.m_linger)
{
    NS_LOG_FUNCTION(this);
    m_controlTimer->SetExpiryCallback(MakeCallback(&RudpCmtSocket::OnControlTimeout, this));
    m_announcer.SetCallbacks(MakeCallback(&RudpCmtSocket::SendAddressChange, this),
                             MakeCallback(&RudpCmtSocket::OnAddressChangeUnanswered, this));
    RudpForwarding::CopyForwarded(GetTypeId(), listener, *this);
    SetHeartbeatRandomVariable(listener.m_heartbeatRandom);
}

RudpCmtSocket::~RudpCmtSocket() = default;

void
RudpCmtSocket::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_controlTimer->Dispose();
    m_announcer.Stop();
    m_lingerEvent.Cancel();
    StopWatchingInterfaces();
    Detach();
    m_sender->Dispose();
    m_receiver->Dispose();
    m_node = nullptr;
    Socket::DoDispose();
}

void
RudpCmtSocket::SetNode(Ptr<Node> node)
{
    m_node = node;
}

Ptr<RudpCmtSendEngine>
RudpCmtSocket::GetSender() const
{
    return m_sender;
}

Ptr<RudpCmtReceiveEngine>
RudpCmtSocket::GetReceiver() const
{
    return m_receiver;
}

int64_t
RudpCmtSocket::AssignStreams(int64_t stream)
{
    if (!m_heartbeatRandom)
    {
        SetHeartbeatRandomVariable(CreateObject<UniformRandomVariable>());
    }
    m_heartbeatRandom->SetStream(stream);
    return 1;
}

void
RudpCmtSocket::SetHeartbeatRandomVariable(Ptr<UniformRandomVariable> random)
{
    m_heartbeatRandom = random;
    m_sender->SetHeartbeatRandomVariable(random);
}

RudpCmtSocket::State
RudpCmtSocket::GetState() const
{
    return m_state;
}

const std::vector<Ipv4Address>&
RudpCmtSocket::GetPeerAddresses() const
{
    return m_peerAddresses;
}

const std::string&
RudpCmtSocket::GetFailure() const
{
    return m_failure;
}

uint64_t
RudpCmtSocket::GetDroppedDatagrams() const
{
    return m_dropped;
}

const char*
RudpCmtSocket::StateName(State state)
{
    static const char* names[] = {"CLOSED",
                                  "LISTEN",
                                  "COOKIE_WAIT",
                                  "COOKIE_ECHOED",
                                  "ESTABLISHED",
                                  "SHUTDOWN_PENDING",
                                  "SHUTDOWN_SENT",
                                  "SHUTDOWN_RECEIVED",
                                  "SHUTDOWN_ACK_SENT"};
    return names[state];
}

std::vector<Ipv4Address>
RudpCmtSocket::GetLocalAddresses() const
{
    return NodeAddresses(true);
}

const std::vector<Ipv4Address>&
RudpCmtSocket::GetAnnouncedAddresses() const
{
    return m_announced;
}

std::vector<Ipv4Address>
RudpCmtSocket::NodeAddresses(bool upOnly) const
{
    if (m_boundAddress != Ipv4Address::GetAny())
    {
        return {m_boundAddress};
    }
    std::vector<Ipv4Address> addresses;
    Ptr<Ipv4> ipv4 = m_node ? m_node->GetObject<Ipv4>() : nullptr;
    for (uint32_t i = 0; ipv4 && i < ipv4->GetNInterfaces(); ++i)
    {
        for (uint32_t j = 0; (ipv4->IsUp(i) || !upOnly) && j < ipv4->GetNAddresses(i); ++j)
        {
            const Ipv4Address local = ipv4->GetAddress(i, j).GetLocal();
            if (!local.IsLocalhost() && addresses.size() < MAX_ADDRESSES &&
                std::find(addresses.begin(), addresses.end(), local) == addresses.end())
            {
                addresses.push_back(local);
            }
        }
    }
    return addresses;
}

/**
 * \ingroup rudp-cmt
 * Hands RudpPathRouting's InterfaceChange to the socket.
 */
struct RudpCmtSocketInterfaceWatch
{
    /// \copydoc RudpPathRouting::InterfaceChangeCallback
    static void Changed(RudpCmtSocket* socket,
                        uint32_t interface,
                        Ipv4Address /* address */,
                        RudpPathRouting::Change change)
    {
        switch (change)
        {
        case RudpPathRouting::INTERFACE_UP:
        case RudpPathRouting::LINK_UP:
            socket->InterfaceChanged(interface, true);
            break;
        case RudpPathRouting::INTERFACE_DOWN:
        case RudpPathRouting::LINK_DOWN:
            socket->InterfaceChanged(interface, false);
            break;
        default:
            break; // addresses: announced below
        }
        socket->AddressesChanged();
    }
};

// ---------------------------------------------------------------------------
// Socket API

Socket::SocketErrno
RudpCmtSocket::GetErrno() const
{
    return m_errno;
}

Socket::SocketType
RudpCmtSocket::GetSocketType() const
{
    return NS3_SOCK_STREAM;
}

Ptr<Node>
RudpCmtSocket::GetNode() const
{
    return m_node;
}

int
RudpCmtSocket::Bind()
{
    return Bind(InetSocketAddress(Ipv4Address::GetAny(), 0));
}

int
RudpCmtSocket::Bind6()
{
    m_errno = ERROR_AFNOSUPPORT; // the association's addresses are IPv4 ones
    return -1;
}

int
RudpCmtSocket::Bind(const Address& address)
{
    NS_LOG_FUNCTION(this << address);
    if (m_endpoint || !InetSocketAddress::IsMatchingType(address))
    {
        m_errno = m_endpoint ? ERROR_INVAL : ERROR_AFNOSUPPORT;
        return -1;
    }
    NS_ABORT_MSG_UNLESS(m_node, "RudpCmtSocket has no node: create it with RudpCmtSocketFactory");
    // Bound to any address, the UDP socket takes the datagrams of every
    // path, and the routing picks each path's source address.
    const InetSocketAddress inet = InetSocketAddress::ConvertFrom(address);
    Ptr<Socket> udp = Socket::CreateSocket(m_node, UdpSocketFactory::GetTypeId());
    if (udp->Bind(InetSocketAddress(Ipv4Address::GetAny(), inet.GetPort())) != 0)
    {
        m_errno = udp->GetErrno();
        return -1;
    }
    m_boundAddress = inet.GetIpv4();
    m_endpoint = Create<RudpEndpoint>(udp);
    return 0;
}

int
RudpCmtSocket::Connect(const Address& address)
{
    NS_LOG_FUNCTION(this << address);
    if (m_state != CLOSED || m_engineOpen)
    {
        m_errno = ERROR_ISCONN;
        return -1;
    }
    if (!InetSocketAddress::IsMatchingType(address))
    {
        m_errno = ERROR_AFNOSUPPORT;
        return -1;
    }
    if (!m_endpoint && Bind() != 0)
    {
        return -1;
    }
    if (GetLocalAddresses().empty())
    {
        m_errno = ERROR_ADDRNOTAVAIL;
        return -1;
    }
    const InetSocketAddress peer = InetSocketAddress::ConvertFrom(address);
    m_peerAddresses = {peer.GetIpv4()};
    m_peerPort = peer.GetPort();
    m_endpoint->Register(PrimaryPeer(), Ptr<RudpCmtSocket>(this));
    m_localKey = AssociationKey();
    m_announced = GetLocalAddresses();
    SetState(COOKIE_WAIT);
    m_controlRetries = 0;
    SendInit(RudpHeader::SYN);
    ArmControlTimer();
    return 0;
}

int
RudpCmtSocket::Listen()
{
    NS_LOG_FUNCTION(this);
    if (m_state != CLOSED || !m_endpoint)
    {
        m_errno = m_endpoint ? ERROR_INVAL : ERROR_NOTCONN;
        return -1;
    }
    m_endpoint->SetListener(Ptr<RudpCmtSocket>(this));
    SetState(LISTEN);
    return 0;
}

int
RudpCmtSocket::Close()
{
    NS_LOG_FUNCTION(this << StateName(m_state));
    switch (m_state)
    {
    case CLOSED:
    case LISTEN:
    case COOKIE_WAIT:
        Terminate();
        return 0;
    case COOKIE_ECHOED:
    case ESTABLISHED:
        m_closeRequested = true;
        SetState(SHUTDOWN_PENDING);
        MaybeShutdown();
        return 0;
    default:
        m_closeRequested = true;
        return 0; // already shutting down
    }
}

int
RudpCmtSocket::ShutdownSend()
{
    NS_LOG_FUNCTION(this);
    // SCTP has no half-closed association: shutting down sending is the
    // graceful shutdown of both directions (RFC 9260 9.2).
    return m_state == LISTEN || m_state == CLOSED ? 0 : Close();
}

int
RudpCmtSocket::ShutdownRecv()
{
    m_shutdownRecv = true;
    return 0;
}

uint32_t
RudpCmtSocket::GetTxAvailable() const
{
    return m_state == ESTABLISHED && !m_closeRequested ? m_sender->GetTxAvailable() : 0;
}

int
RudpCmtSocket::Send(Ptr<Packet> p, uint32_t /* flags */)
{
    NS_LOG_FUNCTION(this << p->GetSize());
    if (m_closeRequested || m_state >= SHUTDOWN_PENDING)
    {
        m_errno = ERROR_SHUTDOWN;
        return -1;
    }
    if (m_state != ESTABLISHED)
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    if (!m_sender->Write(p))
    {
        m_errno = ERROR_MSGSIZE;
        return -1;
    }
    return p->GetSize();
}

int
RudpCmtSocket::SendTo(Ptr<Packet> p, uint32_t flags, const Address& /* toAddress */)
{
    return Send(p, flags); // an association: the address is the peer's
}

uint32_t
RudpCmtSocket::GetRxAvailable() const
{
    return m_engineOpen ? m_receiver->GetRxAvailable() : 0;
}

Ptr<Packet>
RudpCmtSocket::Recv(uint32_t maxSize, uint32_t /* flags */)
{
    if (!m_engineOpen)
    {
        return nullptr;
    }
    // The peer's segments are as large as ours (both ends' SegmentSize).
    return m_receiver->Read(maxSize, m_sender->GetSegmentSize());
}

Ptr<Packet>
RudpCmtSocket::RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress)
{
    Ptr<Packet> p = Recv(maxSize, flags);
    if (p)
    {
        fromAddress = PrimaryPeer();
    }
    return p;
}

int
RudpCmtSocket::GetSockName(Address& address) const
{
    if (!m_endpoint)
    {
        address = InetSocketAddress(Ipv4Address::GetZero(), 0);
        return 0;
    }
    return m_endpoint->GetUdpSocket()->GetSockName(address);
}

int
RudpCmtSocket::GetPeerName(Address& address) const
{
    if (m_peerAddresses.empty() || m_state == CLOSED || m_state == LISTEN)
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    address = PrimaryPeer();
    return 0;
}

bool
RudpCmtSocket::SetAllowBroadcast(bool allowBroadcast)
{
    return !allowBroadcast; // an association has one peer
}

bool
RudpCmtSocket::GetAllowBroadcast() const
{
    return false;
}

// ---------------------------------------------------------------------------
// The association

void
RudpCmtSocket::SetState(State state)
{
    NS_LOG_INFO(this << " " << StateName(m_state) << " -> " << StateName(state));
    m_state = state;
}

Address
RudpCmtSocket::PrimaryPeer() const
{
    return InetSocketAddress(m_peerAddresses.front(), m_peerPort);
}

Ptr<Packet>
RudpCmtSocket::EncodeControl(uint8_t flags, SequenceNumber32 seq, Ptr<Packet> payload) const
{
    RudpHeader header;
    header.SetSequenceNumber(seq);
    header.SetFlags(flags);
    header.SetWindow(m_receiver->GetCapacity());
    return RudpSegmentCodec::Encode(header, payload, m_sender->GetChecksumKind());
}

void
RudpCmtSocket::SendControl(uint8_t flags, SequenceNumber32 seq, Ptr<Packet> payload)
{
    m_endpoint->SendTo(EncodeControl(flags, seq, payload), PrimaryPeer());
}

void
RudpCmtSocket::SendShutdown()
{
    Ptr<Packet> shutdown = EncodeControl(RudpHeader::FIN,
                                         RudpCmtSendEngine::FIRST_SEQUENCE +
                                             static_cast<uint32_t>(m_sender->GetStats().bytesAcked),
                                         Create<Packet>());
    // Sent again, on the other paths in turn (RFC 9260 6.4.1): a primary
    // path that failed must not keep the association from closing (it did:
    // every SHUTDOWN went to the primary address, and the association gave
    // up although its data had all arrived by another path).
    if (m_controlRetries == 0 || !m_sender->TransmitControl(shutdown, m_controlRetries))
    {
        m_endpoint->SendTo(shutdown, PrimaryPeer());
    }
}

void
RudpCmtSocket::SendShutdownAck(bool resend)
{
    Ptr<Packet> ack = EncodeControl(RudpHeader::FIN | RudpHeader::ACK,
                                    SequenceNumber32(SHUTDOWN_ACK_SEQUENCE),
                                    Create<Packet>());
    if (!resend || !m_sender->TransmitControl(ack, m_controlRetries))
    {
        m_endpoint->SendTo(ack, m_shutdownFrom.IsInvalid() ? PrimaryPeer() : m_shutdownFrom);
    }
}

void
RudpCmtSocket::SendShutdownComplete(const Address& to)
{
    m_endpoint->SendTo(EncodeControl(RudpHeader::FIN | RudpHeader::ACK,
                                     SequenceNumber32(SHUTDOWN_COMPLETE_SEQUENCE),
                                     Create<Packet>()),
                       to);
}

void
RudpCmtSocket::SendInit(uint8_t flags)
{
    // Resent as first sent: the peer keeps the INIT it answered.
    RudpCmtInit init;
    init.key = m_localKey;
    init.addresses = m_announced;
    SendControl(flags, SequenceNumber32(0), init.Encode());
}

uint64_t
RudpCmtSocket::AssociationKey()
{
    // Derived, not drawn: a key drawn from a random variable made here would
    // move the stream of every random variable made after it in a run
    // without AssignStreams, and so change its results. SplitMix64's
    // finaliser over the run, the node, the ends and the time: a different
    // key per association and run.
    const auto mix = [](uint64_t x) {
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    };
    Address local;
    m_endpoint->GetUdpSocket()->GetSockName(local);
    uint64_t key = mix(RngSeedManager::GetSeed() ^ mix(RngSeedManager::GetRun()));
    key = mix(key ^ m_node->GetId());
    key = mix(key ^ InetSocketAddress::ConvertFrom(local).GetPort());
    key = mix(key ^ (uint64_t{m_peerAddresses.front().Get()} << 16 | m_peerPort));
    return mix(key ^ static_cast<uint64_t>(Simulator::Now().GetNanoSeconds()));
}

void
RudpCmtSocket::ArmControlTimer()
{
    if (m_controlRetries == 0)
    {
        // A new exchange: the engine's initial RTO, without a backoff (RFC 9260 6.3.1 C1).
        m_controlTimer->Configure(RudpRtoTimer::ADAPTIVE,
                                  m_sender->GetInitialRto(),
                                  m_sender->GetMinRto(),
                                  m_sender->GetMaxRto(),
                                  "ns3::RudpCmtSocket");
        m_controlTimer->ResetBackoff();
    }
    m_controlTimer->Cancel();
    m_controlTimer->Restart();
}

void
RudpCmtSocket::OnControlTimeout()
{
    NS_LOG_FUNCTION(this << StateName(m_state) << m_controlRetries);
    const bool shutdown = m_state == SHUTDOWN_SENT || m_state == SHUTDOWN_ACK_SENT;
    const uint32_t limit = shutdown ? m_sender->GetAssociationMaxRetrans() : m_maxInitRetransmits;
    if (m_controlRetries >= limit && m_state == SHUTDOWN_ACK_SENT)
    {
        // RFC 9260 9.2: the association ends. Every byte of both ends was
        // acknowledged and the application was told of the peer's close.
        NS_LOG_WARN("no SHUTDOWN COMPLETE after " << m_controlRetries + 1 << " SHUTDOWN-ACKs");
        Terminate();
        return;
    }
    if (m_controlRetries >= limit)
    {
        Abort(std::string("no answer to ") + (m_state == SHUTDOWN_SENT ? "SHUTDOWN" : "INIT") +
              " after " + std::to_string(m_controlRetries + 1) + " tries");
        return;
    }
    ++m_controlRetries;
    m_controlTimer->Backoff(); // RFC 9260 6.3.3 E2, up to MaxRto
    switch (m_state)
    {
    case COOKIE_WAIT:
        SendInit(RudpHeader::SYN);
        break;
    case COOKIE_ECHOED:
        SendInit(RudpHeader::SYN | RudpHeader::ACK);
        break;
    case SHUTDOWN_SENT:
        SendShutdown();
        break;
    case SHUTDOWN_ACK_SENT:
        SendShutdownAck(true);
        break;
    default:
        return;
    }
    ArmControlTimer();
}

void
RudpCmtSocket::ReceiveDatagram(Ptr<Packet> packet, const Address& from, Ipv4Address local)
{
    NS_LOG_FUNCTION(this << packet->GetSize() << from);
    Ptr<RudpCmtSocket> self = this; // a callback below may close and detach us
    RudpHeader header;
    const RudpSegmentCodec::Result decoded =
        RudpSegmentCodec::Decode(packet, m_sender->GetChecksumKind(), header);
    if (decoded != RudpSegmentCodec::OK || !InetSocketAddress::IsMatchingType(from))
    {
        NS_LOG_LOGIC("drops a datagram: " << RudpSegmentCodec::ResultName(decoded));
        ++m_dropped;
        return;
    }
    const Ptr<Packet> payload = packet; // Decode took the header off
    const uint8_t flags = header.GetFlags() & (RudpHeader::SYN | RudpHeader::ACK | RudpHeader::FIN |
                                               RudpHeader::HEARTBEAT);
    switch (m_state)
    {
    case LISTEN:
        if (flags == RudpHeader::SYN)
        {
            Accept(header, payload, from);
        }
        return;
    case COOKIE_WAIT:
        if (flags == (RudpHeader::SYN | RudpHeader::ACK))
        {
            RudpCmtInit init;
            if (!RudpCmtInit::Decode(payload, init))
            {
                ++m_dropped;
                return;
            }
            m_peerKey = init.key;
            m_peerAddresses = init.addresses;
            // The address connected to stays the primary path's.
            const Ipv4Address primary = InetSocketAddress::ConvertFrom(from).GetIpv4();
            m_peerAddresses.erase(
                std::remove(m_peerAddresses.begin(), m_peerAddresses.end(), primary),
                m_peerAddresses.end());
            m_peerAddresses.insert(m_peerAddresses.begin(), primary);
            m_controlTimer->Cancel();
            Establish(header.GetWindow());
            if (m_state != ESTABLISHED)
            {
                return; // the engines refused the peer's window
            }
            m_receiver->Acknowledge(PrimaryPeer()); // SCTP's COOKIE-ECHO
            NotifyConnectionSucceeded();
        }
        return;
    case COOKIE_ECHOED:
        if (flags == RudpHeader::SYN)
        {
            SendInit(RudpHeader::SYN | RudpHeader::ACK); // the INIT-ACK was lost
            return;
        }
        m_controlTimer->Cancel();
        Establish(m_peerWindow);
        if (m_state != ESTABLISHED)
        {
            return;
        }
        NotifyNewConnectionCreated(this, PrimaryPeer());
        Dispatch(header, payload, from, local);
        return;
    case CLOSED:
        if (flags == (RudpHeader::FIN | RudpHeader::ACK) &&
            header.GetSequenceNumber() == SequenceNumber32(SHUTDOWN_ACK_SEQUENCE) &&
            !m_lingerEvent.IsExpired())
        {
            SendShutdownComplete(from); // the peer's resend: our COMPLETE was lost
        }
        return;
    default:
        Dispatch(header, payload, from, local);
    }
}

void
RudpCmtSocket::Accept(const RudpHeader& header, Ptr<Packet> payload, const Address& from)
{
    RudpCmtInit init;
    if (!RudpCmtInit::Decode(payload, init))
    {
        ++m_dropped;
        return;
    }
    if (!NotifyConnectionRequest(from))
    {
        return;
    }
    // The new association takes the listener's attributes and application
    // callbacks, as a TCP listener's fork does.
    Ptr<RudpCmtSocket> child = CopyObject<RudpCmtSocket>(this);
    const InetSocketAddress source = InetSocketAddress::ConvertFrom(from);
    child->m_peerPort = source.GetPort();
    child->m_peerAddresses = {source.GetIpv4()};
    for (const Ipv4Address& address : init.addresses)
    {
        if (address != source.GetIpv4())
        {
            child->m_peerAddresses.push_back(address);
        }
    }
    child->m_peerWindow = header.GetWindow();
    child->m_peerKey = init.key;
    child->m_localKey = child->AssociationKey();
    child->m_announced = child->GetLocalAddresses();
    for (const Ipv4Address& address : child->m_peerAddresses)
    {
        m_endpoint->Register(InetSocketAddress(address, child->m_peerPort), child);
    }
    if (Ptr<RudpCmtSocketFactory> factory = m_node->GetObject<RudpCmtSocketFactory>())
    {
        factory->AddSocket(child);
    }
    child->SetState(COOKIE_ECHOED);
    child->SendInit(RudpHeader::SYN | RudpHeader::ACK);
    child->ArmControlTimer();
}

void
RudpCmtSocket::Establish(uint32_t window)
{
    NS_LOG_FUNCTION(this << window);
    for (const Ipv4Address& address : m_peerAddresses)
    {
        m_endpoint->Register(InetSocketAddress(address, m_peerPort), Ptr<RudpCmtSocket>(this));
    }
    ObjectFactory factory(m_pathManagerType.GetName());
    m_pathManager = factory.Create<RudpCmtPathManager>();
    for (const RudpCmtPathEnds& ends : m_pathManager->Paths(PathLocals(), m_peerAddresses))
    {
        if (ends.local != Ipv4Address::GetAny() && !PathRouting()->RouteFrom(ends.local, ends.peer))
        {
            NS_LOG_WARN("no path from " << ends.local << " to " << ends.peer << ": no route");
            continue;
        }
        AddPath(ends);
    }
    m_engineOpen = true;
    SetState(ESTABLISHED);
    WatchInterfaces();
    // The peer's a_rwnd is any 32-bit number; no receive buffer here is
    // larger than RudpRxBuffer::MAX_CAPACITY (sequence numbers compare
    // within 2^31), and a larger one would change nothing.
    m_sender->SetAttribute("InitialPeerWindow",
                           UintegerValue(std::min(window, RudpRxBuffer::MAX_CAPACITY)));
    m_sender->SetAcknowledgedCallback(MakeCallback(&RudpCmtSocket::OnAcknowledged, this));
    m_sender->TraceConnectWithoutContext("Failure",
                                         MakeCallback(&RudpCmtSocket::OnSenderFailure, this));
    m_receiver->Attach(m_endpoint->GetUdpSocket(), MakeCallback(&RudpCmtSocket::OnDataReady, this));
    // A multi-homed end answers each path from the address the path's data
    // came to, as the peer tells its paths apart by their addresses.
    m_receiver->SetRepliesFromArrival(GetLocalAddresses().size() > 1 &&
                                      RudpPathRouting::Install(m_node));
    m_sender->Attach(m_endpoint->GetUdpSocket());
    if (m_state != ESTABLISHED)
    {
        return; // the engines refused the peer's window
    }
    // RFC 5061 5.1 A5: a request unanswered as often as the association's
    // data may be before it fails.
    const uint32_t retries = m_sender->GetAssociationMaxRetrans();
    m_announcer.Start(m_peerKey,
                      m_sender->GetInitialRto(),
                      m_sender->GetMaxRto(),
                      retries > 0 ? retries : UINT32_MAX);
    AddressesChanged(); // since the INIT
}

void
RudpCmtSocket::WatchInterfaces()
{
    const auto& paths = m_sender->GetPaths();
    const bool bound = std::any_of(paths.begin(), paths.end(), [](const Ptr<RudpCmtPath>& path) {
        return path->GetLocal() != Ipv4Address::GetAny();
    });
    // Bound paths follow their interfaces; an association on every address
    // follows the addresses, to announce them (a node whose routing is no
    // list cannot tell it: its association keeps the addresses it began with).
    m_watchedRouting =
        bound ? PathRouting()
              : (m_boundAddress == Ipv4Address::GetAny() ? RudpPathRouting::Install(m_node)
                                                         : nullptr);
    if (m_watchedRouting)
    {
        m_watchedRouting->TraceConnectWithoutContext(
            "InterfaceChange",
            MakeBoundCallback(&RudpCmtSocketInterfaceWatch::Changed, this));
    }
}

std::vector<Ipv4Address>
RudpCmtSocket::PathLocals() const
{
    std::vector<Ipv4Address> locals = GetLocalAddresses();
    locals.erase(std::remove_if(locals.begin(),
                                locals.end(),
                                [this](Ipv4Address local) {
                                    return std::find(m_announced.begin(),
                                                     m_announced.end(),
                                                     local) == m_announced.end();
                                }),
                 locals.end());
    return locals;
}

void
RudpCmtSocket::UpdatePaths()
{
    if (!m_engineOpen || !m_pathManager)
    {
        return;
    }
    for (const RudpCmtPathEnds& ends : m_pathManager->Paths(PathLocals(), m_peerAddresses))
    {
        const auto& paths = m_sender->GetPaths();
        if (paths.size() >= MAX_PATHS)
        {
            return;
        }
        if (std::any_of(paths.begin(), paths.end(), [&ends](const Ptr<RudpCmtPath>& path) {
                return path->GetStatus() != RudpCmtPath::REMOVED &&
                       path->GetRemoteIpv4() == ends.peer && path->GetLocal() == ends.local;
            }))
        {
            continue;
        }
        if (ends.local != Ipv4Address::GetAny() && !PathRouting()->RouteFrom(ends.local, ends.peer))
        {
            continue; // not yet: an interface change calls again
        }
        AddPath(ends);
        m_sender->OpenPath(m_sender->GetPaths().size() - 1);
    }
}

void
RudpCmtSocket::AddressesChanged()
{
    // RFC 5061 4.1: while data may still flow both ways or this way.
    const bool transferring =
        m_state == ESTABLISHED || m_state == SHUTDOWN_PENDING || m_state == SHUTDOWN_RECEIVED;
    if (!m_engineOpen || !transferring || m_boundAddress != Ipv4Address::GetAny())
    {
        return;
    }
    const auto announced = [this](Ipv4Address address) {
        return std::find(m_announced.begin(), m_announced.end(), address) != m_announced.end();
    };
    for (const Ipv4Address& address : GetLocalAddresses())
    {
        if (!announced(address) && !m_announcer.IsPending(address))
        {
            m_announcer.Announce(RudpCmtAddressChange::ADD, address);
        }
    }
    const std::vector<Ipv4Address> present = NodeAddresses(false);
    for (const Ipv4Address& address : std::vector<Ipv4Address>(m_announced))
    {
        if (std::find(present.begin(), present.end(), address) != present.end())
        {
            continue; // down, perhaps, but the node's: it may come back
        }
        for (const auto& path : m_sender->GetPaths())
        {
            if (path->GetLocal() == address)
            {
                m_sender->RemovePath(path->GetIndex());
            }
        }
        if (!m_announcer.IsPending(address))
        {
            m_announcer.Announce(RudpCmtAddressChange::DELETE, address);
        }
    }
    UpdatePaths();
}

void
RudpCmtSocket::SendAddressChange(Ptr<Packet> payload)
{
    Ptr<Packet> packet = EncodeControl(RudpHeader::ADDRESS_CHANGE, SequenceNumber32(0), payload);
    // From an address the peer knows (it takes datagrams from no other), by
    // a path that works.
    for (const auto& path : m_sender->GetPaths())
    {
        const Ipv4Address local = path->GetLocal();
        if (path->GetStatus() != RudpCmtPath::ACTIVE)
        {
            continue;
        }
        if (local == Ipv4Address::GetAny())
        {
            m_endpoint->SendTo(packet, path->GetRemote());
            return;
        }
        if (std::find(m_announced.begin(), m_announced.end(), local) != m_announced.end() &&
            PathRouting()->RouteFrom(local, path->GetRemoteIpv4()))
        {
            packet->AddPacketTag(RudpPathTag(local));
            m_endpoint->SendTo(packet, path->GetRemote());
            return;
        }
    }
    m_endpoint->SendTo(packet, PrimaryPeer());
}

void
RudpCmtSocket::OnAddressChangeUnanswered(uint32_t tries)
{
    Abort("no answer to ADDRESS_CHANGE after " + std::to_string(tries) + " tries");
}

void
RudpCmtSocket::ReceiveAddressChange(const RudpHeader& header,
                                    Ptr<Packet> payload,
                                    const Address& from)
{
    RudpCmtAddressChange change;
    if (!RudpCmtAddressChange::Decode(payload, change))
    {
        ++m_dropped;
        return;
    }
    if (header.HasFlags(RudpHeader::ACK))
    {
        std::vector<RudpCmtAddressChange::Parameter> answered;
        if (!m_announcer.Acknowledge(change, m_localKey, answered))
        {
            ++m_dropped;
            return;
        }
        for (const RudpCmtAddressChange::Parameter& parameter : answered)
        {
            auto known = std::find(m_announced.begin(), m_announced.end(), parameter.address);
            if (parameter.result == RudpCmtAddressChange::DONE)
            {
                if (parameter.type == RudpCmtAddressChange::ADD && known == m_announced.end())
                {
                    m_announced.push_back(parameter.address);
                }
                else if (parameter.type == RudpCmtAddressChange::DELETE &&
                         known != m_announced.end())
                {
                    m_announced.erase(known);
                }
            }
            m_addressChangeTrace(false, parameter.type, parameter.address, parameter.result);
        }
        AddressesChanged(); // what changed while the request was outstanding; the new paths
        return;
    }
    switch (m_addressRequests.Admit(change, m_localKey))
    {
    case RudpCmtAddressRequests::DROP:
        ++m_dropped;
        return;
    case RudpCmtAddressRequests::REPEAT:
        m_endpoint->SendTo(EncodeControl(RudpHeader::ADDRESS_CHANGE | RudpHeader::ACK,
                                         SequenceNumber32(0),
                                         m_addressRequests.GetLastAnswer()->Copy()),
                           from);
        return;
    case RudpCmtAddressRequests::APPLY:
        break;
    }
    RudpCmtAddressChange answer = change;
    answer.tag = m_peerKey;
    const Ipv4Address source = InetSocketAddress::ConvertFrom(from).GetIpv4();
    for (RudpCmtAddressChange::Parameter& parameter : answer.parameters)
    {
        parameter.result = ApplyPeerChange(parameter, source);
        m_addressChangeTrace(true, parameter.type, parameter.address, parameter.result);
    }
    UpdatePaths();
    Ptr<Packet> encoded = answer.Encode();
    m_addressRequests.Answered(encoded, answer.serial);
    m_endpoint->SendTo(EncodeControl(RudpHeader::ADDRESS_CHANGE | RudpHeader::ACK,
                                     SequenceNumber32(0),
                                     encoded->Copy()),
                       from);
}

RudpCmtAddressChange::Result
RudpCmtSocket::ApplyPeerChange(const RudpCmtAddressChange::Parameter& parameter, Ipv4Address source)
{
    auto known = std::find(m_peerAddresses.begin(), m_peerAddresses.end(), parameter.address);
    const InetSocketAddress peer(parameter.address, m_peerPort);
    if (parameter.type == RudpCmtAddressChange::ADD)
    {
        if (known != m_peerAddresses.end())
        {
            return RudpCmtAddressChange::DONE;
        }
        // Not another association's peer (it would take its datagrams), and
        // no more than an INIT may list.
        if (m_peerAddresses.size() > MAX_ADDRESSES || m_endpoint->IsRegistered(peer))
        {
            return RudpCmtAddressChange::REFUSED;
        }
        m_peerAddresses.push_back(parameter.address);
        m_endpoint->Register(peer, Ptr<RudpCmtSocket>(this));
        return RudpCmtAddressChange::DONE;
    }
    // RFC 5061 5.2: not the last address, nor the one the request came from.
    if (known == m_peerAddresses.end() || parameter.address == source ||
        m_peerAddresses.size() == 1)
    {
        return RudpCmtAddressChange::REFUSED;
    }
    m_peerAddresses.erase(known);
    m_endpoint->Remove(Ptr<Socket>(this), peer);
    for (const auto& path : m_sender->GetPaths())
    {
        if (path->GetRemoteIpv4() == parameter.address)
        {
            m_sender->RemovePath(path->GetIndex());
        }
    }
    return RudpCmtAddressChange::DONE;
}

Ptr<RudpPathRouting>
RudpCmtSocket::PathRouting() const
{
    Ptr<RudpPathRouting> routing = RudpPathRouting::Install(m_node);
    NS_ABORT_MSG_UNLESS(routing,
                        "RudpCmtSocket: node " << m_node->GetId() << "'s paths are bound to its "
                                               << "addresses (" << m_pathManagerType.GetName()
                                               << "), which needs an Ipv4ListRouting "
                                                  "(InternetStackHelper's)");
    return routing;
}

void
RudpCmtSocket::AddPath(const RudpCmtPathEnds& ends)
{
    const InetSocketAddress remote(ends.peer, m_peerPort);
    Ptr<RudpCmtPath> path;
    if (ends.local == Ipv4Address::GetAny())
    {
        path = m_sender->AddPath(remote);
    }
    else
    {
        path = m_sender->AddPath(remote, ends.local, PathRouting());
        Ptr<RudpCmtSocketFactory> factory = m_node->GetObject<RudpCmtSocketFactory>();
        path->SetBackup(factory && factory->IsBackup(ends.local));
    }
    const uint32_t index = path->GetIndex();
    Ptr<RudpSenderState> state = path->GetState();
    state->TraceConnectWithoutContext("CongestionWindow",
                                      MakeBoundCallback(&RudpCmtSocket::PathCwnd, this, index));
    state->TraceConnectWithoutContext("SlowStartThreshold",
                                      MakeBoundCallback(&RudpCmtSocket::PathSsThresh, this, index));
    path->TraceConnectWithoutContext("RTT",
                                     MakeBoundCallback(&RudpCmtSocket::PathRtt, this, index));
    path->TraceConnectWithoutContext("Status",
                                     MakeBoundCallback(&RudpCmtSocket::PathStatus, this, index));
}

void
RudpCmtSocket::InterfaceChanged(uint32_t interface, bool up)
{
    NS_LOG_FUNCTION(this << interface << up);
    Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
    // Up means the interface and its device's link both.
    up = up && ipv4->IsUp(interface) && ipv4->GetNetDevice(interface)->IsLinkUp();
    for (const auto& path : m_sender->GetPaths())
    {
        const Ipv4Address local = path->GetLocal();
        if (local == Ipv4Address::GetAny() ||
            ipv4->GetInterfaceForAddress(local) != static_cast<int32_t>(interface))
        {
            continue;
        }
        if (up)
        {
            m_sender->LocalAddressUp(path->GetIndex());
        }
        else
        {
            m_sender->LocalAddressDown(path->GetIndex());
        }
    }
}

void
RudpCmtSocket::StopWatchingInterfaces()
{
    if (m_watchedRouting)
    {
        m_watchedRouting->TraceDisconnectWithoutContext(
            "InterfaceChange",
            MakeBoundCallback(&RudpCmtSocketInterfaceWatch::Changed, this));
        m_watchedRouting = nullptr;
    }
}

void
RudpCmtSocket::PathCwnd(RudpCmtSocket* socket, uint32_t path, uint32_t oldValue, uint32_t newValue)
{
    socket->m_cwnd = socket->m_cwnd - oldValue + newValue;
    socket->m_pathCwndTrace(path, oldValue, newValue);
}

void
RudpCmtSocket::PathSsThresh(RudpCmtSocket* socket,
                            uint32_t path,
                            uint32_t oldValue,
                            uint32_t newValue)
{
    socket->m_pathSsThreshTrace(path, oldValue, newValue);
}

void
RudpCmtSocket::PathRtt(RudpCmtSocket* socket, uint32_t path, Time oldValue, Time newValue)
{
    socket->m_pathRttTrace(path, oldValue, newValue);
}

void
RudpCmtSocket::PathStatus(RudpCmtSocket* socket,
                          uint32_t path,
                          RudpCmtPath::Status oldValue,
                          RudpCmtPath::Status newValue)
{
    socket->m_pathStatusTrace(path, oldValue, newValue);
}

void
RudpCmtSocket::Dispatch(const RudpHeader& header,
                        Ptr<Packet> payload,
                        const Address& from,
                        Ipv4Address local)
{
    if (header.HasFlags(RudpHeader::ADDRESS_CHANGE))
    {
        ReceiveAddressChange(header, payload, from);
        return;
    }
    if (header.HasFlags(RudpHeader::HEARTBEAT))
    {
        // A HEARTBEAT is the receiver's to answer, its ACK the sender's to check.
        if (header.HasFlags(RudpHeader::ACK))
        {
            m_sender->ReceiveHeartbeatAck(header, payload);
        }
        else
        {
            m_receiver->Receive(header, payload, from, local);
        }
        return;
    }
    const uint8_t flags = header.GetFlags() & (RudpHeader::SYN | RudpHeader::ACK | RudpHeader::FIN);
    if (flags & RudpHeader::SYN)
    {
        // A repeated INIT (our INIT-ACK was lost) or INIT-ACK (our echo was).
        if (flags == RudpHeader::SYN && m_state == ESTABLISHED)
        {
            SendInit(RudpHeader::SYN | RudpHeader::ACK);
        }
        else if (flags == (RudpHeader::SYN | RudpHeader::ACK))
        {
            m_receiver->Acknowledge(PrimaryPeer());
        }
        return;
    }
    if (flags == RudpHeader::FIN)
    {
        ReceiveShutdown(header, from);
        return;
    }
    if (flags == (RudpHeader::FIN | RudpHeader::ACK))
    {
        ReceiveShutdownAck(header, from);
        return;
    }
    if (flags == RudpHeader::ACK)
    {
        m_sender->Receive(header, from, local);
    }
    else if (flags == 0 && m_state != SHUTDOWN_ACK_SENT)
    {
        m_receiver->Receive(header, payload, from, local);
    }
}

void
RudpCmtSocket::ReceiveShutdown(const RudpHeader& header, const Address& from)
{
    m_shutdownFrom = from;
    if (m_state == SHUTDOWN_ACK_SENT)
    {
        SendShutdownAck(false);
        return;
    }
    // Only once every byte before it arrived: until then the peer resends it.
    if (header.GetSequenceNumber() != m_receiver->GetNextRxSequence() ||
        m_state == SHUTDOWN_RECEIVED)
    {
        return;
    }
    const bool closedHere = m_closeRequested;
    SetState(SHUTDOWN_RECEIVED);
    m_closeRequested = true;
    m_controlTimer->Cancel();
    if (!closedHere)
    {
        NotifyNormalClose(); // the peer closed, as a TCP FIN tells
    }
    MaybeShutdown();
}

void
RudpCmtSocket::MaybeShutdown()
{
    if (!m_sender->IsAllAcknowledged() && m_engineOpen)
    {
        return; // RFC 9260 9.2: the data outstanding first
    }
    if (m_state == SHUTDOWN_PENDING)
    {
        SetState(SHUTDOWN_SENT);
        m_controlRetries = 0;
        SendShutdown();
        ArmControlTimer();
    }
    else if (m_state == SHUTDOWN_RECEIVED)
    {
        SendShutdownAck(false);
        SetState(SHUTDOWN_ACK_SENT);
        m_sender->Halt();
        m_receiver->Halt();
        // T2-shutdown (RFC 9260 9.2): SHUTDOWN-ACK is resent until SHUTDOWN
        // COMPLETE answers it. Before, this end answered only the SHUTDOWNs
        // that came within a linger of 3 s; under heavy loss both ways every
        // answer could be lost, and the peer reported a failure although the
        // whole file had arrived.
        m_controlRetries = 0;
        ArmControlTimer();
    }
}

void
RudpCmtSocket::ReceiveShutdownAck(const RudpHeader& header, const Address& from)
{
    if (header.GetSequenceNumber() == SequenceNumber32(SHUTDOWN_COMPLETE_SEQUENCE))
    {
        if (m_state == SHUTDOWN_ACK_SENT)
        {
            Terminate();
        }
        return;
    }
    // A SHUTDOWN-ACK: to our SHUTDOWN, or, in SHUTDOWN_ACK_SENT, to ours
    // that crossed the peer's. Either way SHUTDOWN COMPLETE ends it (RFC 9260 9.2).
    if (m_state != SHUTDOWN_SENT && m_state != SHUTDOWN_ACK_SENT)
    {
        return;
    }
    const bool ours = m_state == SHUTDOWN_SENT;
    SendShutdownComplete(from);
    TerminateLingering();
    if (ours)
    {
        NotifyNormalClose();
    }
}

void
RudpCmtSocket::OnAcknowledged()
{
    if (m_state == SHUTDOWN_PENDING || m_state == SHUTDOWN_RECEIVED)
    {
        MaybeShutdown();
        return;
    }
    if (m_state == ESTABLISHED)
    {
        const uint32_t available = GetTxAvailable();
        if (available > 0)
        {
            NotifySend(available);
        }
    }
}

void
RudpCmtSocket::OnDataReady()
{
    if (!m_shutdownRecv)
    {
        NotifyDataRecv();
    }
}

void
RudpCmtSocket::OnSenderFailure(const std::string& reason)
{
    Abort(reason);
}

void
RudpCmtSocket::Abort(const std::string& reason)
{
    NS_LOG_WARN("the association gives up: " << reason);
    const State failedIn = m_state;
    m_failure = reason;
    Terminate();
    m_failureTrace(reason);
    if (failedIn == COOKIE_WAIT)
    {
        m_errno = ERROR_NOTERROR;
        NotifyConnectionFailed();
    }
    else if (failedIn != COOKIE_ECHOED)
    {
        NotifyErrorClose();
    }
}

void
RudpCmtSocket::Terminate()
{
    EndAssociation();
    Detach();
}

void
RudpCmtSocket::TerminateLingering()
{
    EndAssociation();
    m_lingerEvent = Simulator::Schedule(m_linger, &RudpCmtSocket::Detach, this);
}

void
RudpCmtSocket::EndAssociation()
{
    StopWatchingInterfaces();
    m_announcer.Stop();
    m_controlTimer->Cancel();
    m_lingerEvent.Cancel();
    if (m_engineOpen)
    {
        m_sender->Halt();
        m_receiver->Halt();
    }
    SetState(CLOSED);
}

void
RudpCmtSocket::Detach()
{
    if (!m_endpoint)
    {
        return;
    }
    Ptr<RudpEndpoint> endpoint = m_endpoint;
    m_endpoint = nullptr;
    Ptr<Socket> self(this);
    endpoint->Remove(self, Address());
    for (const Ipv4Address& address : m_peerAddresses)
    {
        endpoint->Remove(self, InetSocketAddress(address, m_peerPort));
    }
}

} // namespace ns3
