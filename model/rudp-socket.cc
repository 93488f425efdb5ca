/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-socket.h"

#include "rudp-compat.h"
#include "rudp-endpoint.h"
#include "rudp-go-back-n.h"
#include "rudp-reno.h"
#include "rudp-socket-factory.h"
#include "rudp-stop-and-wait.h"
#include "rudp-tcp-congestion-adapter.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpSocket");

NS_OBJECT_ENSURE_REGISTERED(RudpSocket);

namespace
{

/**
 * \brief Makes the window policy that \p tid names, the one rule behind
 * RudpSocket's and RudpSocketFactory's WindowPolicy attributes: a
 * RudpWindowPolicy (RudpStopAndWait, RudpGoBackN, RudpReno, or one of your
 * own) as itself; any ns-3 TcpCongestionOps (TcpCubic, TcpVeno, TcpCvtcp,
 * ...) wrapped in a RudpTcpCongestionAdapter. Each is created with its
 * attributes' defaults. Aborts, naming \p attribute, for any other TypeId
 * and for a TcpCongestionOps that replaces TCP's control loop
 * (HasCongControl(), e.g. BBR).
 * \param tid a RudpWindowPolicy or TcpCongestionOps TypeId with a constructor
 * \param attribute the attribute that named it, for the abort message
 * \return the policy, not yet initialised
 */
Ptr<RudpWindowPolicy>
CreateWindowPolicy(TypeId tid, const std::string& attribute)
{
    NS_ABORT_MSG_UNLESS(tid.HasConstructor(),
                        attribute << ": " << tid.GetName()
                                  << " has no constructor: name a RudpWindowPolicy or a "
                                     "TcpCongestionOps");
    // Cast the instance rather than test the TypeId: up to ns-3.42, TcpCubic
    // is registered with the wrong parent, TcpSocketBase (ns-3.43 commit
    // 192dd4d25 fixed it).
    const Ptr<Object> object = ObjectFactory(tid.GetName()).Create();
    if (const Ptr<RudpWindowPolicy> policy = DynamicCast<RudpWindowPolicy>(object))
    {
        return policy;
    }
    const Ptr<TcpCongestionOps> ops = DynamicCast<TcpCongestionOps>(object);
    NS_ABORT_MSG_UNLESS(ops,
                        attribute << ": " << tid.GetName()
                                  << " is neither a RudpWindowPolicy nor a TcpCongestionOps");
    NS_ABORT_MSG_IF(ops->HasCongControl(),
                    attribute << ": " << ops->GetName()
                              << " replaces TCP's control loop (CongControl) and needs TCP's "
                                 "rate sampling, which RUDP does not have");
    Ptr<RudpTcpCongestionAdapter> adapter = CreateObject<RudpTcpCongestionAdapter>();
    adapter->SetCongestionOps(ops);
    return adapter;
}

} // namespace

TypeId
RudpSocket::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RudpSocket")
            .SetParent<Socket>()
            .SetGroupName("Rudp")
            .AddConstructor<RudpSocket>()
            .AddAttribute(
                "WindowPolicy",
                "The window policy, by TypeId: ns3::RudpStopAndWait, ns3::RudpGoBackN, "
                "ns3::RudpReno (seed 000's variants), any other RudpWindowPolicy, or any "
                "ns3::TcpCongestionOps (e.g. ns3::TcpCubic), which the socket runs through a "
                "RudpTcpCongestionAdapter. Read when the connection opens; a node's "
                "RudpSocketFactory::WindowPolicy, if set, overrides it. Variant and "
                "CongestionOps are aliases of it.",
                TypeIdValue(RudpReno::GetTypeId()),
                MakeTypeIdAccessor(&RudpSocket::m_windowPolicy),
                MakeTypeIdChecker())
            // Aliases of WindowPolicy (TypeId::DEPRECATED), set only when
            // configured: declared after it, a configured alias is applied last.
            .AddAttribute("Variant",
                          "Alias of WindowPolicy in seed 000's names: StopAndWait "
                          "(ns3::RudpStopAndWait), GoBackN (ns3::RudpGoBackN), Reno "
                          "(ns3::RudpReno) or TcpCongestionOps (ns3::TcpNewReno, unless the "
                          "socket runs a TcpCongestionOps already). Reads TcpCongestionOps for "
                          "any other policy.",
                          EmptyAttributeValue(),
                          RUDP_MAKE_ENUM_ACCESSOR2(RudpSocket::Variant,
                                                   &RudpSocket::SetVariant,
                                                   &RudpSocket::GetVariant),
                          MakeEnumChecker(RudpSocket::STOP_AND_WAIT,
                                          "StopAndWait",
                                          RudpSocket::GO_BACK_N,
                                          "GoBackN",
                                          RudpSocket::RENO,
                                          "Reno",
                                          RudpSocket::TCP_CONGESTION_OPS,
                                          "TcpCongestionOps"),
                          TypeId::SupportLevel::DEPRECATED,
                          "use WindowPolicy (ns3::RudpStopAndWait, ns3::RudpGoBackN, "
                          "ns3::RudpReno or a TcpCongestionOps such as ns3::TcpNewReno)")
            .AddAttribute(
                "CongestionOps",
                "Alias of WindowPolicy for a TcpCongestionOps TypeId (e.g. "
                "ns3::TcpCubic).",
                EmptyAttributeValue(),
                MakeTypeIdAccessor(&RudpSocket::SetCongestionOps, &RudpSocket::GetCongestionOps),
                MakeTypeIdChecker(),
                TypeId::SupportLevel::DEPRECATED,
                "use WindowPolicy, which takes the TcpCongestionOps TypeId itself")
            .AddAttribute("WindowSize",
                          "Window N in segments (1..65535; seed 000: 30): Go-Back-N's fixed "
                          "window, and a cap on what Reno and a TcpCongestionOps may have in "
                          "flight. A TcpCongestionOps's own window (the CongestionWindow "
                          "trace) still grows past it, but no more than N segments are sent "
                          "per round trip: raise it (e.g. to 65535) to let Cubic and the "
                          "others use a large bandwidth-delay product.",
                          UintegerValue(30),
                          MakeUintegerAccessor(&RudpSocket::m_windowSegments),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("SegmentSize",
                          "Payload bytes of a full segment, the MSS (bytes, 1..65000).",
                          UintegerValue(1400),
                          MakeUintegerAccessor(&RudpSocket::m_segmentSize),
                          MakeUintegerChecker<uint32_t>(1, 65000))
            .AddAttribute("InitialCwnd",
                          "Initial congestion window of Reno and of a TcpCongestionOps "
                          "(segments, 1..65535; seed: 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RudpSocket::m_initialCwnd),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("InitialSlowStartThreshold",
                          "Initial slow-start threshold of Reno and of a TcpCongestionOps "
                          "(bytes, 1..2^32-1).",
                          UintegerValue(65535),
                          MakeUintegerAccessor(&RudpSocket::m_initialSsThresh),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("InitialRto",
                          "The retransmission timeout in Fixed mode, and the initial one in "
                          "Adaptive mode (1 ms..3600 s; seed 000: 2 s).",
                          TimeValue(Seconds(2)),
                          MakeTimeAccessor(&RudpSocket::m_initialRto),
                          MakeTimeChecker(MilliSeconds(1), Seconds(3600)))
            .AddAttribute("MinRto",
                          "Lower bound of the adaptive RTO (1 ms..3600 s; RFC 6298: 1 s).",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&RudpSocket::m_minRto),
                          MakeTimeChecker(MilliSeconds(1), Seconds(3600)))
            .AddAttribute("MaxRto",
                          "Upper bound of the adaptive RTO and its backoff (1 ms..3600 s).",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&RudpSocket::m_maxRto),
                          MakeTimeChecker(MilliSeconds(1), Seconds(3600)))
            .AddAttribute("RtoMode",
                          "Fixed: the RTO is always InitialRto (seed 000). Adaptive: RFC 6298 from "
                          "RTT samples (Karn's rule), doubled on each timeout.",
                          EnumValue(RudpSocket::FIXED_RTO),
                          RUDP_MAKE_ENUM_ACCESSOR(RudpSocket::RtoMode, &RudpSocket::m_rtoMode),
                          MakeEnumChecker(RudpSocket::FIXED_RTO,
                                          "Fixed",
                                          RudpSocket::ADAPTIVE_RTO,
                                          "Adaptive"))
            .AddAttribute("ReTxThreshold",
                          "Duplicate ACKs that trigger a retransmission in Go-Back-N, Reno "
                          "and a TcpCongestionOps (1..1000; seed: 3); with Sack, "
                          "also the later transmissions that make a segment lost. "
                          "Stop-and-wait reacts to every one.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RudpSocket::m_dupAckThreshold),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("DelAckCount",
                          "In-order segments acknowledged by one ACK (1..64; seed: 1, every "
                          "segment; ns-3's TCP: 2).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RudpSocket::m_delAckCount),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("DelAckTimeout",
                          "Longest wait of a delayed ACK (0..10 s).",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&RudpSocket::m_delAckTimeout),
                          MakeTimeChecker(Seconds(0), Seconds(10)))
            .AddAttribute("Sack",
                          "Buffer out-of-order segments, report them in SACK blocks and "
                          "retransmit only the holes (both ends must enable it). Off: the "
                          "seed's Go-Back-N receiver, which discards them.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RudpSocket::m_selectiveRepeat),
                          MakeBooleanChecker())
            .AddAttribute("SndBufSize",
                          "Send buffer: unsent plus unacknowledged bytes (1..2^30: windows "
                          "must stay below half the 32-bit sequence space, as TCP's).",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&RudpSocket::m_sndBufSize),
                          MakeUintegerChecker<uint32_t>(1, RudpRxBuffer::MAX_CAPACITY))
            .AddAttribute("RcvBufSize",
                          "Receive buffer: unread plus out-of-order bytes; its free space is "
                          "the advertised window (bytes, 1..2^30). Below SegmentSize the "
                          "sender cuts its segments to the window.",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&RudpSocket::m_rcvBufSize),
                          MakeUintegerChecker<uint32_t>(1, RudpRxBuffer::MAX_CAPACITY))
            .AddAttribute(
                "Checksum",
                "The checksum sent: Internet16 (RFC 1071 16-bit sum, seed 000's; "
                "misses about 1 in 32 two-bit errors) or Crc32c (SCTP's CRC-32c, "
                "4 more header bytes; every error of up to 3 bits). A segment with "
                "the other kind is dropped as a checksum error.",
                EnumValue(RudpHeader::CHECKSUM_INTERNET16),
                RUDP_MAKE_ENUM_ACCESSOR(RudpHeader::ChecksumKind, &RudpSocket::m_checksumKind),
                MakeRudpChecksumKindChecker())
            .AddAttribute("ConnCount",
                          "Retransmissions of a SYN or SYN|ACK before the connection fails "
                          "(0..1000).",
                          UintegerValue(10),
                          MakeUintegerAccessor(&RudpSocket::m_connectRetries),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("DataRetries",
                          "Consecutive timeouts of data or FIN without progress before the "
                          "connection fails (0..1000).",
                          UintegerValue(20),
                          MakeUintegerAccessor(&RudpSocket::m_dataRetries),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("TimeWait",
                          "TIME_WAIT of the side that closes first, in smoothed RTTs "
                          "(0..1000; seed 000: 2).",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&RudpSocket::m_timeWaitRtts),
                          MakeDoubleChecker<double>(0, 1000))
            // Former names (TypeId::DEPRECATED): they change the attribute
            // named now only when set, so that their own default never
            // overrides a value given under the new name.
            .AddAttribute("DupAckThreshold",
                          "Deprecated name of ReTxThreshold.",
                          EmptyAttributeValue(),
                          MakeUintegerAccessor(&RudpSocket::m_dupAckThreshold),
                          MakeUintegerChecker<uint32_t>(1, 1000),
                          TypeId::SupportLevel::DEPRECATED,
                          "use ReTxThreshold, as TcpSocketBase names it")
            .AddAttribute("InitialSsThresh",
                          "Deprecated name of InitialSlowStartThreshold.",
                          EmptyAttributeValue(),
                          MakeUintegerAccessor(&RudpSocket::m_initialSsThresh),
                          MakeUintegerChecker<uint32_t>(1),
                          TypeId::SupportLevel::DEPRECATED,
                          "use InitialSlowStartThreshold, as TcpSocket names it")
            .AddAttribute("SelectiveRepeat",
                          "Deprecated name of Sack.",
                          EmptyAttributeValue(),
                          MakeBooleanAccessor(&RudpSocket::m_selectiveRepeat),
                          MakeBooleanChecker(),
                          TypeId::SupportLevel::DEPRECATED,
                          "use Sack, as TcpSocketBase names it")
            .AddAttribute("ConnectRetries",
                          "Deprecated name of ConnCount.",
                          EmptyAttributeValue(),
                          MakeUintegerAccessor(&RudpSocket::m_connectRetries),
                          MakeUintegerChecker<uint32_t>(0, 1000),
                          TypeId::SupportLevel::DEPRECATED,
                          "use ConnCount, as TcpSocket names it")
            .AddAttribute("Rto",
                          "Deprecated name of InitialRto.",
                          EmptyAttributeValue(),
                          MakeTimeAccessor(&RudpSocket::m_initialRto),
                          MakeTimeChecker(MilliSeconds(1), Seconds(3600)),
                          TypeId::SupportLevel::DEPRECATED,
                          "use InitialRto, as RudpCmtSender names it")
            .AddTraceSource("CongestionWindow",
                            "The congestion window (bytes)",
                            MakeTraceSourceAccessor(&RudpSocket::m_cWndTrace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("SlowStartThreshold",
                            "The slow-start threshold (bytes)",
                            MakeTraceSourceAccessor(&RudpSocket::m_ssThreshTrace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("CongState",
                            "The congestion-control state",
                            MakeTraceSourceAccessor(&RudpSocket::m_congStateTrace),
                            "ns3::RudpSenderState::CongStateTracedValueCallback")
            .AddTraceSource("RTT",
                            "The latest RTT sample",
                            MakeTraceSourceAccessor(&RudpSocket::m_lastRtt),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("RTO",
                            "The retransmission timeout",
                            MakeTraceSourceAccessor(&RudpSocket::m_rtoTrace),
                            "ns3::TracedValueCallback::Time")
            .AddTraceSource("State",
                            "The connection state",
                            MakeTraceSourceAccessor(&RudpSocket::m_state),
                            "ns3::RudpSocket::StateTracedValueCallback")
            .AddTraceSource("BytesInFlight",
                            "Bytes sent and neither acknowledged nor deemed lost",
                            MakeTraceSourceAccessor(&RudpSocket::m_bytesInFlight),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Tx",
                            "A segment was sent",
                            MakeTraceSourceAccessor(&RudpSocket::m_txTrace),
                            "ns3::RudpSocket::SegmentTracedCallback")
            .AddTraceSource("Rx",
                            "A segment with a good checksum was received",
                            MakeTraceSourceAccessor(&RudpSocket::m_rxTrace),
                            "ns3::RudpSocket::SegmentTracedCallback")
            .AddTraceSource("Retransmission",
                            "A data segment was sent again",
                            MakeTraceSourceAccessor(&RudpSocket::m_retxTrace),
                            "ns3::RudpSocket::SegmentTracedCallback")
            .AddTraceSource("ChecksumError",
                            "A datagram was dropped: bad checksum, malformed header, wrong "
                            "length or the other checksum kind",
                            MakeTraceSourceAccessor(&RudpSocket::m_checksumErrorTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Failure",
                            "The connection gave up after its retry limit",
                            MakeTraceSourceAccessor(&RudpSocket::m_failureTrace),
                            "ns3::RudpSocket::FailureTracedCallback");
    return tid;
}

RudpSocket::RudpSocket()
    : m_isnRng(CreateObject<UniformRandomVariable>()),
      m_rtoTimer(CreateObject<RudpRtoTimer>()),
      m_tcb(CreateObject<RudpSenderState>()),
      m_txBuffer(CreateObject<RudpTxBuffer>()),
      m_rxBuffer(CreateObject<RudpRxBuffer>())
{
    NS_LOG_FUNCTION(this);
    m_delAck.SetFunction(MakeCallback(&RudpSocket::SendAck, this));
    ConnectInternalTraces();
}

RudpSocket::RudpSocket(const RudpSocket& listener)
    : Socket(listener),
      RudpSocketConfig(listener),
      m_node(listener.m_node),
      m_endpoint(listener.m_endpoint),
      m_isnRng(listener.m_isnRng),
      m_rtoTimer(CreateObject<RudpRtoTimer>()),
      m_tcb(CreateObject<RudpSenderState>()),
      m_txBuffer(CreateObject<RudpTxBuffer>()),
      m_rxBuffer(CreateObject<RudpRxBuffer>())
{
    NS_LOG_FUNCTION(this);
    m_delAck.SetFunction(MakeCallback(&RudpSocket::SendAck, this));
    ConnectInternalTraces();
}

void
RudpSocket::ConnectInternalTraces()
{
    // As TcpSocketBase forwards its TcpSocketState's: the windows live in the
    // sender state the policy changes, the RTO in the timer.
    bool ok = m_tcb->TraceConnectWithoutContext(
        "CongestionWindow",
        MakeCallback(&TracedCallback<uint32_t, uint32_t>::operator(), &m_cWndTrace));
    ok = ok && m_tcb->TraceConnectWithoutContext(
                   "SlowStartThreshold",
                   MakeCallback(&TracedCallback<uint32_t, uint32_t>::operator(), &m_ssThreshTrace));
    ok =
        ok &&
        m_tcb->TraceConnectWithoutContext(
            "CongState",
            MakeCallback(
                &TracedCallback<RudpSenderState::CongState, RudpSenderState::CongState>::operator(),
                &m_congStateTrace));
    ok = ok && m_rtoTimer->TraceConnectWithoutContext(
                   "RTO",
                   MakeCallback(&TracedCallback<Time, Time>::operator(), &m_rtoTrace));
    NS_ASSERT_MSG(ok, "RudpSocket could not connect its sender state's or timer's traces");
    m_rtoTimer->SetExpiryCallback(MakeCallback(&RudpSocket::OnRetransmitTimeout, this));
}

RudpSocket::~RudpSocket()
{
    NS_LOG_FUNCTION(this);
}

void
RudpSocket::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_rtoTimer->Dispose();
    m_timeWaitEvent.Cancel();
    m_delAck.Cancel();
    Detach();
    m_node = nullptr;
    Socket::DoDispose();
}

void
RudpSocket::SetNode(Ptr<Node> node)
{
    m_node = node;
}

RudpSocket::State
RudpSocket::GetState() const
{
    return m_state;
}

const RudpSocket::Stats&
RudpSocket::GetStats() const
{
    return m_stats;
}

Time
RudpSocket::GetRto() const
{
    return m_rtoTimer->GetRto();
}

Ptr<const RudpSenderState>
RudpSocket::GetSenderState() const
{
    return m_tcb;
}

Ptr<const RudpWindowPolicy>
RudpSocket::GetWindowPolicy() const
{
    return m_policy;
}

void
RudpSocket::NotifyConstructionCompleted()
{
    NS_LOG_FUNCTION(this);
    ConfigureRtoTimer();
    Socket::NotifyConstructionCompleted();
}

void
RudpSocket::SetVariant(Variant variant)
{
    NS_LOG_FUNCTION(this << variant);
    switch (variant)
    {
    case STOP_AND_WAIT:
        m_windowPolicy = RudpStopAndWait::GetTypeId();
        break;
    case GO_BACK_N:
        m_windowPolicy = RudpGoBackN::GetTypeId();
        break;
    case RENO:
        m_windowPolicy = RudpReno::GetTypeId();
        break;
    case TCP_CONGESTION_OPS:
        m_windowPolicy = GetCongestionOps();
        break;
    }
}

RudpSocket::Variant
RudpSocket::GetVariant() const
{
    if (m_windowPolicy == RudpStopAndWait::GetTypeId())
    {
        return STOP_AND_WAIT;
    }
    if (m_windowPolicy == RudpGoBackN::GetTypeId())
    {
        return GO_BACK_N;
    }
    if (m_windowPolicy == RudpReno::GetTypeId())
    {
        return RENO;
    }
    return TCP_CONGESTION_OPS;
}

void
RudpSocket::SetCongestionOps(TypeId algorithm)
{
    NS_LOG_FUNCTION(this << algorithm.GetName());
    m_windowPolicy = algorithm;
}

TypeId
RudpSocket::GetCongestionOps() const
{
    return m_windowPolicy.IsChildOf(RudpWindowPolicy::GetTypeId()) ? TcpNewReno::GetTypeId()
                                                                   : m_windowPolicy;
}

const char*
RudpSocket::StateName(State state)
{
    static const char* names[] = {"CLOSED",
                                  "LISTEN",
                                  "SYN_SENT",
                                  "SYN_RCVD",
                                  "ESTABLISHED",
                                  "CLOSE_WAIT",
                                  "LAST_ACK",
                                  "FIN_WAIT_1",
                                  "FIN_WAIT_2",
                                  "CLOSING",
                                  "TIME_WAIT"};
    return names[state];
}

int64_t
RudpSocket::AssignStreams(int64_t stream)
{
    m_isnRng->SetStream(stream);
    return 1;
}

void
RudpSocket::SetIsnRandomVariable(Ptr<UniformRandomVariable> isn)
{
    m_isnRng = isn;
}

// ---------------------------------------------------------------------------
// Socket API

Socket::SocketErrno
RudpSocket::GetErrno() const
{
    return m_errno;
}

Socket::SocketType
RudpSocket::GetSocketType() const
{
    return NS3_SOCK_STREAM;
}

Ptr<Node>
RudpSocket::GetNode() const
{
    return m_node;
}

int
RudpSocket::Bind()
{
    return BindTo(InetSocketAddress(Ipv4Address::GetAny(), 0));
}

int
RudpSocket::Bind6()
{
    return BindTo(Inet6SocketAddress(Ipv6Address::GetAny(), 0));
}

int
RudpSocket::Bind(const Address& address)
{
    return BindTo(address);
}

int
RudpSocket::BindTo(const Address& address)
{
    NS_LOG_FUNCTION(this << address);
    if (m_endpoint)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    if (!InetSocketAddress::IsMatchingType(address) && !Inet6SocketAddress::IsMatchingType(address))
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    NS_ABORT_MSG_UNLESS(m_node, "RudpSocket has no node: create it with RudpSocketFactory");
    Ptr<Socket> udp = Socket::CreateSocket(m_node, UdpSocketFactory::GetTypeId());
    if (udp->Bind(address) != 0)
    {
        m_errno = udp->GetErrno();
        return -1;
    }
    m_endpoint = Create<RudpEndpoint>(udp);
    return 0;
}

int
RudpSocket::Connect(const Address& address)
{
    NS_LOG_FUNCTION(this << address);
    if (m_state != CLOSED)
    {
        m_errno = ERROR_ISCONN;
        return -1;
    }
    if (!InetSocketAddress::IsMatchingType(address) && !Inet6SocketAddress::IsMatchingType(address))
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    if (!m_endpoint)
    {
        int bound = Inet6SocketAddress::IsMatchingType(address) ? Bind6() : Bind();
        if (bound != 0)
        {
            return bound;
        }
    }
    m_peer = address;
    m_endpoint->Register(m_peer, Ptr<RudpSocket>(this));
    m_txBuffer->SetMaxBufferSize(m_sndBufSize);
    ConfigureRtoTimer();
    m_iss = SequenceNumber32(m_isnRng->GetInteger(0, UINT32_MAX));
    m_retries = 0;
    m_synSentTime = Simulator::Now();
    SetState(SYN_SENT);
    SendControl(RudpHeader::SYN | (m_selectiveRepeat ? RudpHeader::SACK_PERMITTED : 0), m_iss);
    RestartRetransmitTimer();
    return 0;
}

int
RudpSocket::Listen()
{
    NS_LOG_FUNCTION(this);
    if (m_state != CLOSED || !m_endpoint)
    {
        m_errno = m_endpoint ? ERROR_INVAL : ERROR_NOTCONN;
        return -1;
    }
    m_endpoint->SetListener(Ptr<RudpSocket>(this));
    SetState(LISTEN);
    return 0;
}

int
RudpSocket::Close()
{
    NS_LOG_FUNCTION(this << StateName(m_state));
    switch (m_state)
    {
    case SYN_SENT:
        if (!m_txBuffer->IsEmpty())
        {
            // As ns-3's TCP: queued data is sent before the FIN.
            m_closeRequested = true;
            return 0;
        }
        [[fallthrough]];
    case LISTEN:
    case CLOSED:
        m_rtoTimer->Cancel();
        SetState(CLOSED);
        Detach();
        return 0;
    case SYN_RCVD:
    case ESTABLISHED:
    case CLOSE_WAIT:
        m_closeRequested = true;
        MaybeSendFin();
        return 0;
    default:
        return 0; // already closing
    }
}

int
RudpSocket::ShutdownSend()
{
    NS_LOG_FUNCTION(this);
    if (m_state == LISTEN || m_state == CLOSED)
    {
        return 0; // a listener has nothing to send
    }
    return Close();
}

int
RudpSocket::ShutdownRecv()
{
    NS_LOG_FUNCTION(this);
    m_shutdownRecv = true;
    return 0;
}

uint32_t
RudpSocket::GetTxAvailable() const
{
    return m_closeRequested ? 0 : m_txBuffer->Available();
}

int
RudpSocket::Send(Ptr<Packet> p, uint32_t /* flags */)
{
    NS_LOG_FUNCTION(this << p->GetSize());
    if (m_closeRequested)
    {
        m_errno = ERROR_SHUTDOWN;
        return -1;
    }
    if (m_state != SYN_SENT && m_state != SYN_RCVD && m_state != ESTABLISHED &&
        m_state != CLOSE_WAIT)
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    if (!m_txBuffer->Add(p))
    {
        m_errno = ERROR_MSGSIZE;
        return -1;
    }
    SendPendingData();
    return p->GetSize();
}

int
RudpSocket::SendTo(Ptr<Packet> p, uint32_t flags, const Address& /* toAddress */)
{
    return Send(p, flags); // a connected stream: the address is the peer's
}

uint32_t
RudpSocket::GetRxAvailable() const
{
    return m_rxBuffer->Available();
}

Ptr<const RudpRxBuffer>
RudpSocket::GetRxBuffer() const
{
    return m_rxBuffer;
}

Ptr<const RudpTxBuffer>
RudpSocket::GetTxBuffer() const
{
    return m_txBuffer;
}

Ptr<Packet>
RudpSocket::Recv(uint32_t maxSize, uint32_t /* flags */)
{
    const uint32_t freeBefore = m_rxBuffer->FreeSpace();
    Ptr<Packet> p = m_rxBuffer->Extract(maxSize);
    if (p && m_rxBuffer->WindowReopened(freeBefore, m_segmentSize) &&
        (m_state == ESTABLISHED || m_state == FIN_WAIT_1 || m_state == FIN_WAIT_2))
    {
        SendAck(); // the window reopened: tell the sender
    }
    return p;
}

Ptr<Packet>
RudpSocket::RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress)
{
    Ptr<Packet> p = Recv(maxSize, flags);
    if (p)
    {
        fromAddress = m_peer;
    }
    return p;
}

int
RudpSocket::GetSockName(Address& address) const
{
    if (!m_endpoint)
    {
        address = InetSocketAddress(Ipv4Address::GetZero(), 0);
        return 0;
    }
    return m_endpoint->GetUdpSocket()->GetSockName(address);
}

int
RudpSocket::GetPeerName(Address& address) const
{
    if (m_state == CLOSED || m_state == LISTEN)
    {
        m_errno = ERROR_NOTCONN;
        return -1;
    }
    address = m_peer;
    return 0;
}

bool
RudpSocket::SetAllowBroadcast(bool allowBroadcast)
{
    return !allowBroadcast; // a connection has one peer
}

bool
RudpSocket::GetAllowBroadcast() const
{
    return false;
}

// ---------------------------------------------------------------------------
// Connection management

void
RudpSocket::SetState(State state)
{
    NS_LOG_INFO(this << " " << StateName(m_state) << " -> " << StateName(state));
    m_state = state;
}

void
RudpSocket::OpenConnection()
{
    ConfigureRtoTimer();
    m_tcb->m_segmentSize = m_segmentSize;
    m_tcb->m_windowSegments = m_windowSegments;
    m_tcb->m_initialCwnd = m_initialCwnd;
    m_tcb->m_initialSsThresh = m_initialSsThresh;
    m_tcb->m_dupAckThreshold = m_dupAckThreshold;
    m_tcb->m_selectiveRepeat = m_sackEnabled;
    m_policy = CreateWindowPolicy(m_windowPolicy, "ns3::RudpSocket::WindowPolicy");
    m_policy->Init(m_tcb);
    m_txBuffer->SetMaxBufferSize(m_sndBufSize);
    m_txBuffer->SetHeadSequence(m_iss + 1);
    m_rxBuffer->SetCapacity(m_rcvBufSize);
    m_rxBuffer->SetNextRxSequence(m_irs + 1);
}

Ptr<RudpSocket>
RudpSocket::Fork(const RudpHeader& syn, const Address& from)
{
    Ptr<RudpSocket> child = CopyObject<RudpSocket>(this);
    child->m_peer = from;
    child->m_irs = syn.GetSequenceNumber();
    child->m_iss = SequenceNumber32(m_isnRng->GetInteger(0, UINT32_MAX));
    child->m_sackEnabled = m_selectiveRepeat && syn.HasFlags(RudpHeader::SACK_PERMITTED);
    child->m_rWnd = syn.GetWindow();
    child->m_maxRWnd = child->m_rWnd;
    child->m_sndWl1 = syn.GetSequenceNumber();
    child->m_sndWl2 = child->m_iss;
    child->m_txBuffer->SetMaxBufferSize(m_sndBufSize);
    child->m_rxBuffer->SetNextRxSequence(child->m_irs + 1);
    child->ConfigureRtoTimer();
    return child;
}

void
RudpSocket::ReceiveDatagram(Ptr<Packet> packet,
                            const Address& from,
                            Ipv4Address /* local: one path */)
{
    NS_LOG_FUNCTION(this << packet->GetSize() << from);
    Ptr<RudpSocket> self = this; // a callback below may close and detach us
    RudpHeader header;
    const RudpSegmentCodec::Result result =
        RudpSegmentCodec::Decode(packet, m_checksumKind, header); // packet: the payload if OK
    if (result != RudpSegmentCodec::OK)
    {
        NS_LOG_LOGIC("drops a datagram: " << RudpSegmentCodec::ResultName(result));
        OnChecksumError(packet); // the datagram as it arrived
        return;
    }
    ++m_stats.segmentsReceived;
    m_heardSinceTimeout = true;
    m_rxTrace(packet, header, this);
    NS_LOG_LOGIC(StateName(m_state) << " rx " << header);

    switch (m_state)
    {
    case LISTEN:
        ProcessListen(header, from);
        break;
    case SYN_SENT:
        ProcessSynSent(header);
        break;
    case SYN_RCVD:
        ProcessSynRcvd(header, packet);
        break;
    case ESTABLISHED:
    case CLOSE_WAIT:
    case LAST_ACK:
    case FIN_WAIT_1:
    case FIN_WAIT_2:
    case CLOSING:
    case TIME_WAIT:
        ProcessConnected(header, packet);
        break;
    case CLOSED:
        break;
    }
}

void
RudpSocket::ProcessListen(const RudpHeader& header, const Address& from)
{
    if ((header.GetFlags() & ~RudpHeader::SACK_PERMITTED) != RudpHeader::SYN)
    {
        NS_LOG_LOGIC("listener ignores a segment that is not a SYN");
        return;
    }
    if (!NotifyConnectionRequest(from))
    {
        return;
    }
    Ptr<RudpSocket> child = Fork(header, from);
    m_endpoint->Register(from, child);
    if (Ptr<RudpSocketFactory> factory = m_node->GetObject<RudpSocketFactory>())
    {
        factory->AddSocket(child);
    }
    child->m_synSentTime = Simulator::Now();
    child->SetState(SYN_RCVD);
    child->SendControl(RudpHeader::SYN | RudpHeader::ACK |
                           (child->m_sackEnabled ? RudpHeader::SACK_PERMITTED : 0),
                       child->m_iss);
    child->RestartRetransmitTimer();
}

void
RudpSocket::ProcessSynSent(const RudpHeader& header)
{
    if (!header.HasFlags(RudpHeader::SYN | RudpHeader::ACK) || header.GetAckNumber() != m_iss + 1)
    {
        NS_LOG_LOGIC("SYN_SENT ignores " << header);
        return;
    }
    m_irs = header.GetSequenceNumber();
    m_sackEnabled = m_selectiveRepeat && header.HasFlags(RudpHeader::SACK_PERMITTED);
    m_rWnd = header.GetWindow();
    m_maxRWnd = m_rWnd;
    m_sndWl1 = header.GetSequenceNumber();
    m_sndWl2 = header.GetAckNumber();
    if (m_retries == 0)
    {
        TakeRttSample(Simulator::Now() - m_synSentTime);
    }
    m_rtoTimer->Cancel();
    m_retries = 0;
    m_rtoTimer->ResetBackoff();
    OpenConnection();
    SetState(ESTABLISHED);
    SendControl(RudpHeader::ACK, m_iss + 1);
    NotifyConnectionSucceeded();
    SendPendingData();
    MaybeSendFin();
}

void
RudpSocket::ProcessSynRcvd(const RudpHeader& header, Ptr<Packet> payload)
{
    if (header.HasFlags(RudpHeader::SYN))
    {
        // Our SYN|ACK was lost: the peer repeats its SYN.
        SendControl(RudpHeader::SYN | RudpHeader::ACK |
                        (m_sackEnabled ? RudpHeader::SACK_PERMITTED : 0),
                    m_iss);
        return;
    }
    const bool acksSynAck = header.HasFlags(RudpHeader::ACK) && header.GetAckNumber() == m_iss + 1;
    // The handshake's last ACK may be lost; the peer's first data segment,
    // which only a peer that got our SYN|ACK sends, completes it as well.
    const bool firstData = header.GetSequenceNumber() == m_irs + 1 && payload->GetSize() > 0;
    if (!acksSynAck && !firstData)
    {
        NS_LOG_LOGIC("SYN_RCVD ignores " << header);
        return;
    }
    if (m_retries == 0)
    {
        TakeRttSample(Simulator::Now() - m_synSentTime);
    }
    m_rtoTimer->Cancel();
    m_retries = 0;
    m_rtoTimer->ResetBackoff();
    OpenConnection();
    SetState(ESTABLISHED);
    NotifyNewConnectionCreated(this, m_peer);
    if (payload->GetSize() > 0 || header.HasFlags(RudpHeader::FIN))
    {
        ProcessConnected(header, payload);
    }
    else if (m_closeRequested)
    {
        MaybeSendFin();
    }
    else
    {
        SendPendingData();
    }
}

void
RudpSocket::ProcessConnected(const RudpHeader& header, Ptr<Packet> payload)
{
    if (header.HasFlags(RudpHeader::SYN))
    {
        // Our handshake ACK was lost and the peer repeats its SYN|ACK.
        if (header.HasFlags(RudpHeader::ACK) && header.GetAckNumber() == m_iss + 1)
        {
            SendControl(RudpHeader::ACK, m_iss + 1);
        }
        return;
    }
    if (header.HasFlags(RudpHeader::ACK))
    {
        const bool pureAck = payload->GetSize() == 0 && header.GetFlags() == RudpHeader::ACK;
        ProcessAck(header, pureAck);
    }
    if (payload->GetSize() > 0)
    {
        ProcessData(header, payload);
    }
    if (header.HasFlags(RudpHeader::FIN))
    {
        ProcessFin(header);
    }
}

void
RudpSocket::ProcessFin(const RudpHeader& header)
{
    const SequenceNumber32 finSeq = header.GetSequenceNumber() + header.GetPayloadLength();
    if (finSeq != m_rxBuffer->NextRxSequence())
    {
        if (finSeq + 1 == m_rxBuffer->NextRxSequence())
        {
            SendAck(); // a repeated FIN: our ACK of it was lost
            if (m_state == TIME_WAIT)
            {
                EnterTimeWait();
            }
        }
        return; // data before the FIN is missing: the peer will repeat it
    }
    if (!m_rxBuffer->AcceptFin())
    {
        // Data waits beyond the FIN: one of them is bogus. Taking the FIN
        // could truncate the stream silently; the peer repeats a real one.
        ++m_stats.rejectedFins;
        SendAck();
        return;
    }
    SendAck();
    switch (m_state)
    {
    case ESTABLISHED:
        SetState(CLOSE_WAIT);
        if (!m_closeNotified)
        {
            m_closeNotified = true;
            NotifyNormalClose();
        }
        break;
    case FIN_WAIT_1:
        SetState(CLOSING);
        break;
    case FIN_WAIT_2:
        EnterTimeWait();
        break;
    default:
        break;
    }
}

void
RudpSocket::MaybeSendFin()
{
    if (!m_closeRequested || m_finSent || !m_txBuffer->IsEmpty())
    {
        return;
    }
    if (m_state != ESTABLISHED && m_state != CLOSE_WAIT)
    {
        return;
    }
    // Seed 000: the FIN follows once every data byte is acknowledged.
    m_finSeq = m_txBuffer->HighTxMark();
    m_finSent = true;
    m_retries = 0;
    SetState(m_state == ESTABLISHED ? FIN_WAIT_1 : LAST_ACK);
    SendControl(RudpHeader::FIN | RudpHeader::ACK, m_finSeq);
    RestartRetransmitTimer();
}

void
RudpSocket::EnterTimeWait()
{
    SetState(TIME_WAIT);
    m_rtoTimer->Cancel();
    m_timeWaitEvent.Cancel();
    const Ptr<const RttEstimator> estimator = m_rtoTimer->GetRttEstimator();
    const Time rtt = estimator->GetNSamples() > 0 ? estimator->GetEstimate() : m_initialRto;
    m_timeWaitEvent = Simulator::Schedule(rtt * m_timeWaitRtts, &RudpSocket::CloseAndNotify, this);
}

void
RudpSocket::CloseAndNotify()
{
    NS_LOG_FUNCTION(this);
    m_rtoTimer->Cancel();
    m_timeWaitEvent.Cancel();
    SetState(CLOSED);
    Detach();
    if (!m_closeNotified)
    {
        m_closeNotified = true;
        NotifyNormalClose();
    }
}

void
RudpSocket::Fail(const std::string& reason)
{
    NS_LOG_WARN(this << " gives up (" << reason << ") in " << StateName(m_state));
    const State failedIn = m_state;
    m_rtoTimer->Cancel();
    m_timeWaitEvent.Cancel();
    m_errno = ERROR_NOTCONN;
    SetState(CLOSED);
    Detach();
    m_failureTrace(reason);
    if (failedIn == SYN_SENT)
    {
        NotifyConnectionFailed();
    }
    else if (failedIn != SYN_RCVD && !m_closeNotified)
    {
        m_closeNotified = true;
        NotifyErrorClose();
    }
}

void
RudpSocket::Detach()
{
    if (!m_endpoint)
    {
        return;
    }
    Ptr<RudpEndpoint> endpoint = m_endpoint;
    m_endpoint = nullptr;
    endpoint->Remove(this, m_peer);
}

// ---------------------------------------------------------------------------
// Sender

bool
RudpSocket::HasDataOutstanding() const
{
    return !m_txBuffer->GetSegments().empty();
}

void
RudpSocket::ProcessAck(const RudpHeader& header, bool pureAck)
{
    const SequenceNumber32 ack = header.GetAckNumber();
    const SequenceNumber32 highest = m_finSent ? m_finSeq + 1 : m_txBuffer->HighTxMark();
    if (ack > highest)
    {
        NS_LOG_LOGIC("ignores an ACK of unsent data: " << ack << " > " << highest);
        return;
    }
    const uint32_t previousWindow = m_rWnd;
    const bool windowTaken = UpdateWindow(header);
    bool sackedMore = false;
    if (m_sackEnabled)
    {
        for (const auto& block : header.GetSackBlocks())
        {
            sackedMore =
                m_txBuffer->MarkSacked(block.left, block.right, Simulator::Now()) || sackedMore;
        }
    }
    // RFC 5681's duplicate ACK carries an unchanged window: an ACK that only
    // opens the window (the peer's application read) and reports nothing
    // new is a window update, no sign of loss. Nor is an ACK that
    // advertises a closed window: the peer had no room for what it answers
    // (the zero-window probe), and counting its answers as duplicates would
    // call a fast retransmit and inflate the window once per probe, or make
    // a stop-and-wait sender resend at each answer (4.4BSD counts no
    // duplicate ACKs while it probes either).
    const bool windowUpdate = windowTaken && m_rWnd > previousWindow && !sackedMore;
    const bool closedWindow = header.GetWindow() == 0;

    const SequenceNumber32 dataAck = std::min(ack, m_txBuffer->HighTxMark());
    if (dataAck > m_txBuffer->HeadSequence())
    {
        RudpTxBuffer::AckResult acked = m_txBuffer->DiscardUpTo(dataAck, Simulator::Now());
        m_dupAcks = 0;
        if (acked.segments > 0)
        {
            m_tcb->m_ackEchoes = acked.lastTxCount > 1 ? acked.lastTxCount - 1 : 0;
        }
        // else an ACK into the middle of a segment (the peer took bytes the
        // sender never sent it, from a forged segment): the copies of the last
        // segment acknowledged still draw their echoes, which must not pass
        // for duplicate ACKs.
        m_retries = 0;
        m_rtoTimer->ResetBackoff();
        if (acked.rtt)
        {
            TakeRttSample(*acked.rtt);
        }
        PublishSenderState();
        m_policy->OnNewAck(m_tcb, std::max<uint32_t>(acked.segments, 1));
        if (m_sackEnabled && m_tcb->m_congState == RudpSenderState::FAST_RECOVERY)
        {
            // Still recovering after a new ACK: it was partial (RFC 6582), the
            // window had more losses. (Without SACKs all was resent already.)
            Recover(false);
        }
        if (m_txBuffer->Available() > 0 && !m_closeRequested)
        {
            NotifySend(GetTxAvailable());
        }
        RestartRetransmitTimer();
    }
    else if (pureAck && dataAck == m_txBuffer->HeadSequence() && HasDataOutstanding() &&
             !windowUpdate && !closedWindow)
    {
        ++m_dupAcks;
        PublishSenderState();
        if (m_policy->OnDupAck(m_tcb, m_dupAcks))
        {
            ++m_stats.fastRetransmits;
            Recover(false);
        }
        else if (m_sackEnabled && m_tcb->m_congState == RudpSenderState::FAST_RECOVERY)
        {
            m_txBuffer->MarkOvertakenLost(m_tcb->m_dupAckThreshold);
        }
    }

    if (m_finSent && ack == m_finSeq + 1)
    {
        m_rtoTimer->Cancel();
        switch (m_state)
        {
        case FIN_WAIT_1:
            SetState(FIN_WAIT_2);
            break;
        case CLOSING:
            EnterTimeWait();
            return;
        case LAST_ACK:
            CloseAndNotify();
            return;
        default:
            break;
        }
    }
    m_bytesInFlight = m_txBuffer->BytesInFlight();
    MaybeSendFin();
    SendPendingData();
}

bool
RudpSocket::UpdateWindow(const RudpHeader& header)
{
    // RFC 793: a window is taken from a segment no older than the one that
    // set the current one, so that a reordered ACK cannot bring back a
    // stale window. And, as Linux (tcp_may_update_window), from every ACK
    // of new data, which no stale segment carries: else one segment with a
    // SEQ ahead of the peer's (forged, in the receive window) would become
    // SND.WL1, and its window, say 1 byte, would outlive every real one.
    const SequenceNumber32 seq = header.GetSequenceNumber();
    const SequenceNumber32 ack = header.GetAckNumber();
    const bool acksNewData = ack > m_txBuffer->HeadSequence();
    if (!acksNewData && (seq < m_sndWl1 || (seq == m_sndWl1 && ack < m_sndWl2)))
    {
        NS_LOG_LOGIC("keeps the window of a newer segment: " << header);
        return false;
    }
    // Nor from a segment beyond all the room this end ever offered: no peer
    // sent it (RFC 793 would not accept it at all). Taken, its SEQ would
    // become SND.WL1, and every real window after it would look older.
    if (seq > m_rxBuffer->NextRxSequence() + m_rcvBufSize)
    {
        NS_LOG_LOGIC("ignores the window of a segment beyond the receive buffer: " << header);
        return false;
    }
    m_sndWl1 = seq;
    m_sndWl2 = ack;
    m_rWnd = header.GetWindow();
    m_maxRWnd = std::max(m_maxRWnd, m_rWnd);
    return true;
}

uint32_t
RudpSocket::SwsThreshold() const
{
    // RFC 1122 4.2.3.4: at least half the largest window the peer offered.
    return std::min(m_segmentSize, std::max(1u, m_maxRWnd / 2));
}

void
RudpSocket::Recover(bool timeout)
{
    // Without selective repeat the receiver kept nothing after the gap, and
    // a timeout means the ACK clock stopped: go back N, resend every segment
    // not known received. Otherwise resend what SACKs show overtaken, else
    // the segment at the ACK point if it was never resent (a resent one is
    // found lost by being overtaken).
    uint32_t marked = 0;
    if (timeout || !m_sackEnabled)
    {
        marked = m_txBuffer->MarkAllLost();
    }
    else
    {
        marked = m_txBuffer->MarkOvertakenLost(m_tcb->m_dupAckThreshold);
        const RudpTxBuffer::Segment& front = m_txBuffer->GetSegments().front();
        if (marked == 0 && front.txCount == 1)
        {
            marked = m_txBuffer->MarkLost(front) ? 1 : 0;
        }
    }
    NS_LOG_LOGIC((timeout ? "timeout" : "fast retransmit")
                 << ": " << marked << " segments to resend");
    m_bytesInFlight = m_txBuffer->BytesInFlight();
    SendPendingData();
}

void
RudpSocket::SendPendingData()
{
    if (m_state != ESTABLISHED && m_state != CLOSE_WAIT)
    {
        return;
    }
    while (true)
    {
        const RudpTxBuffer::Segment* lost = m_txBuffer->FirstLost();
        RudpTxBuffer::SendRequest request;
        request.resend = lost != nullptr;
        request.inFlight = m_txBuffer->BytesInFlight();
        request.congestionWindow = m_policy->GetSendWindow(m_tcb);
        request.receiverWindow = m_rWnd;
        if (lost)
        {
            request.length = lost->length; // a resend keeps its boundaries
        }
        else if (m_txBuffer->UnsentBytes() > 0)
        {
            // A new segment is cut to the window when the window is smaller
            // than a segment, as TCP sends min(window, MSS): a receive buffer
            // smaller than a segment still gets data. To avoid the silly
            // window syndrome a cut segment goes only if it is worth it, or
            // if nothing is in flight to bring a larger window.
            const uint32_t full = std::min(m_segmentSize, m_txBuffer->UnsentBytes());
            const uint32_t outstanding = m_txBuffer->BytesOutstanding();
            const uint32_t room = m_rWnd > outstanding ? m_rWnd - outstanding : 0;
            const uint32_t cut = std::min(full, room);
            request.length = cut > 0 ? cut : full;
            request.worthSending = cut == full || cut >= SwsThreshold() || request.inFlight == 0;
        }
        else
        {
            break;
        }
        if (!m_txBuffer->MayTransmit(request, RudpTxBuffer::PROBE_NOTHING_IN_FLIGHT))
        {
            break;
        }
        const RudpTxBuffer::Segment& segment =
            lost ? *lost : m_txBuffer->NewSegment(request.length);
        const bool retransmission = segment.txCount > 0;
        m_txBuffer->MarkTransmitted(segment, Simulator::Now());
        m_bytesInFlight = m_txBuffer->BytesInFlight();

        const uint8_t flags = m_rxBuffer->NextRxSequence() != m_irs + 1 ? RudpHeader::ACK : 0;
        const RudpHeader header = SendSegment(segment.payload, flags, segment.seq);
        if (retransmission)
        {
            ++m_stats.retransmissions;
            m_retxTrace(segment.payload, header, this);
        }
        else
        {
            m_stats.dataBytesSent += segment.length;
        }
    }
    if (!m_rtoTimer->IsRunning() && (HasDataOutstanding() || m_txBuffer->UnsentBytes() > 0))
    {
        RestartRetransmitTimer();
    }
}

void
RudpSocket::RestartRetransmitTimer()
{
    const bool handshake = m_state == SYN_SENT || m_state == SYN_RCVD;
    const bool finPending =
        m_finSent && (m_state == FIN_WAIT_1 || m_state == CLOSING || m_state == LAST_ACK);
    const bool dataPending = HasDataOutstanding() || m_txBuffer->UnsentBytes() > 0;
    if (!handshake && !finPending && !dataPending)
    {
        m_rtoTimer->Cancel();
        return;
    }
    m_rtoTimer->Restart();
}

void
RudpSocket::ConfigureRtoTimer()
{
    m_rtoTimer->Configure(m_rtoMode == ADAPTIVE_RTO ? RudpRtoTimer::ADAPTIVE : RudpRtoTimer::FIXED,
                          m_initialRto,
                          m_minRto,
                          m_maxRto,
                          "ns3::RudpSocket");
}

void
RudpSocket::OnRetransmitTimeout()
{
    NS_LOG_FUNCTION(this << StateName(m_state));
    Ptr<RudpSocket> self = this;
    const bool handshake = m_state == SYN_SENT || m_state == SYN_RCVD;
    const uint32_t limit = handshake ? m_connectRetries : m_dataRetries;
    // The peer's window is closed: probe it. While the peer keeps answering
    // it is alive, and the wait is no failed attempt.
    const bool probe = !handshake && !m_finSent && m_rWnd == 0;
    const bool peerAlive = probe && m_heardSinceTimeout;
    m_heardSinceTimeout = false;
    if (!peerAlive)
    {
        if (m_retries >= limit)
        {
            Fail(handshake ? "connect" : (m_finSent ? "close" : "data"));
            return;
        }
        ++m_retries;
    }
    // Successive probes wait longer and longer, as RFC 1122 (4.2.2.17) asks
    // and ns-3's TCP does (up to MaxRto; a Fixed RTO does not grow).
    ++(probe ? m_stats.windowProbes : m_stats.timeouts);
    m_rtoTimer->Backoff();

    if (m_state == SYN_SENT)
    {
        SendControl(RudpHeader::SYN | (m_selectiveRepeat ? RudpHeader::SACK_PERMITTED : 0), m_iss);
    }
    else if (m_state == SYN_RCVD)
    {
        SendControl(RudpHeader::SYN | RudpHeader::ACK |
                        (m_sackEnabled ? RudpHeader::SACK_PERMITTED : 0),
                    m_iss);
    }
    else if (m_finSent)
    {
        SendControl(RudpHeader::FIN | RudpHeader::ACK, m_finSeq);
    }
    else if (probe)
    {
        // Let one segment out, no larger than the peer's buffer has been (a
        // probe larger than that could never be taken); its ACK resets the window.
        m_rWnd = std::min(m_segmentSize, std::max(1u, m_maxRWnd));
        Recover(true);
    }
    else
    {
        PublishSenderState();
        m_policy->OnTimeout(m_tcb);
        m_dupAcks = 0;
        Recover(true);
    }
    m_rtoTimer->Cancel();
    RestartRetransmitTimer();
}

void
RudpSocket::PublishSenderState()
{
    m_tcb->m_bytesInFlight = m_txBuffer->BytesInFlight();
    m_tcb->m_highTxMark = m_txBuffer->HighTxMark();
    m_tcb->m_highAck = m_txBuffer->HeadSequence();
}

void
RudpSocket::TakeRttSample(Time sample)
{
    m_lastRtt = sample;
    m_tcb->m_lastRtt = sample;
    m_tcb->m_minRtt = std::min(m_tcb->m_minRtt, sample);
    m_rtoTimer->Sample(sample);
}

// ---------------------------------------------------------------------------
// Receiver

void
RudpSocket::ProcessData(const RudpHeader& header, Ptr<Packet> payload)
{
    if (m_shutdownRecv)
    {
        SendAck();
        return;
    }
    const bool hadGap = m_rxBuffer->HasGap();
    switch (m_rxBuffer->Add(payload, header.GetSequenceNumber(), m_sackEnabled))
    {
    case RudpRxBuffer::IN_ORDER:
        NotifyDataRecv(); // first, so that the ACK advertises what the application read
        // Delayed ACKs (off by default: the seed acknowledges every segment);
        // a segment that fills a gap is acknowledged at once.
        if (++m_delAckPending >= m_delAckCount || hadGap)
        {
            SendAck();
        }
        else if (!m_delAck.IsRunning())
        {
            m_delAck.Set(m_delAckTimeout);
        }
        return;
    case RudpRxBuffer::OUT_OF_ORDER:
        ++m_stats.outOfOrderSegments;
        break;
    case RudpRxBuffer::DUPLICATE:
        ++m_stats.duplicateSegments;
        break;
    case RudpRxBuffer::NO_SPACE:
    case RudpRxBuffer::OUT_OF_WINDOW:
        ++m_stats.outOfWindowSegments; // a probe of a closed window, or bogus
        break;
    }
    SendAck(); // a duplicate ACK tells the sender what is missing
}

void
RudpSocket::OnChecksumError(Ptr<const Packet> packet)
{
    ++m_stats.checksumErrors;
    m_checksumErrorTrace(packet);
    if (m_state != ESTABLISHED && m_state != CLOSE_WAIT && m_state != FIN_WAIT_1 &&
        m_state != FIN_WAIT_2)
    {
        return; // the handshake and close recover by timeout
    }
    // Seed 000: a bad checksum is answered by repeating one's last segment.
    if (m_rxBuffer->NextRxSequence() != m_irs + 1)
    {
        SendAck(); // as a receiver: the last ACK
    }
    if (HasDataOutstanding() && m_policy->RetransmitOnCorruption())
    {
        Recover(false); // as a stop-and-wait sender: the outstanding segment
    }
}

// ---------------------------------------------------------------------------
// Segments

void
RudpSocket::SendControl(uint8_t flags, SequenceNumber32 seq)
{
    SendSegment(Create<Packet>(), flags, seq);
}

void
RudpSocket::SendAck()
{
    const SequenceNumber32 seq = m_finSent ? m_finSeq + 1 : m_txBuffer->HighTxMark();
    SendSegment(Create<Packet>(), RudpHeader::ACK, seq);
}

RudpHeader
RudpSocket::SendSegment(Ptr<const Packet> payload, uint8_t flags, SequenceNumber32 seq)
{
    RudpHeader header;
    header.SetSequenceNumber(seq);
    const bool synchronised = m_state != SYN_SENT;
    header.SetAckNumber(synchronised ? m_rxBuffer->NextRxSequence() : SequenceNumber32(0));
    header.SetFlags(flags);
    header.SetPayloadLength(static_cast<uint16_t>(payload->GetSize()));
    header.SetChecksumKind(m_checksumKind);
    header.SetWindow(m_state == SYN_SENT || m_state == SYN_RCVD ? m_rcvBufSize
                                                                : m_rxBuffer->FreeSpace());
    if (m_sackEnabled && m_rxBuffer->HasGap())
    {
        header.SetSackBlocks(m_rxBuffer->GetRecentSackBlocks(SACK_BLOCKS));
    }
    if (!m_endpoint)
    {
        return header;
    }
    if (flags & RudpHeader::ACK)
    {
        m_delAckPending = 0;
        m_delAck.Cancel();
    }
    Ptr<Packet> datagram = RudpSegmentCodec::Encode(header, payload, m_checksumKind);
    m_txTrace(payload, header, this);
    ++m_stats.segmentsSent;
    NS_LOG_LOGIC(StateName(m_state) << " tx " << header);
    m_endpoint->SendTo(datagram, m_peer);
    return header;
}

} // namespace ns3
