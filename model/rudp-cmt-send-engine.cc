/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-send-engine.h"

#include "rudp-cmt-model-assumptions.h"
#include "rudp-cmt-recovery.h"
#include "rudp-compat.h"
#include "rudp-path-routing.h"
#include "rudp-rx-buffer.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/object-vector.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtSendEngine");

NS_OBJECT_ENSURE_REGISTERED(RudpCmtSendEngine);

const SequenceNumber32 RudpCmtSendEngine::FIRST_SEQUENCE(1);

TypeId
RudpCmtSendEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RudpCmtSendEngine")
            .SetParent<Object>()
            .SetGroupName("Rudp")
            .AddConstructor<RudpCmtSendEngine>()
            .AddAttribute("SegmentSize",
                          "Payload bytes of a data segment, the chunk (bytes, 1..65000; seed "
                          "002: 1468).",
                          UintegerValue(1468),
                          MakeUintegerAccessor(&RudpCmtSendEngine::m_segmentSize),
                          MakeUintegerChecker<uint32_t>(1, 65000))
            .AddAttribute("Alpha",
                          "Additive increase: MSS per window acknowledged, per path "
                          "(0 < alpha <= 100; seed 002's model: 1).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RudpCmtSendEngine::m_alpha),
                          MakeDoubleChecker<double>(1e-6, 100))
            .AddAttribute("Beta",
                          "Multiplicative decrease: fraction of a path's window lost on a "
                          "loss (0 < beta < 1; seed 002's model: 0.5).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RudpCmtSendEngine::m_beta),
                          MakeDoubleChecker<double>(1e-6, 1 - 1e-6))
            .AddAttribute("Coupling",
                          "Coupled congestion control, by TypeId: ns3::RudpCmtUncoupled "
                          "(CMT's own: each path on its own, with Alpha and Beta), "
                          "ns3::RudpLia (RFC 6356), ns3::RudpOlia (Khalili et al. 2013), "
                          "ns3::RudpBalia (Peng et al. 2016) or "
                          "ns3::RudpCmtRpv2 (Dreibholz et al.'s CMT/RPv2), or any other "
                          "RudpCmtCoupling. Read when the application starts.",
                          TypeIdValue(RudpCmtUncoupled::GetTypeId()),
                          MakeTypeIdAccessor(&RudpCmtSendEngine::m_couplingType),
                          MakeTypeIdChecker())
            .AddAttribute("InitialCwnd",
                          "Initial window of each path (segments, 1..1000).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&RudpCmtSendEngine::m_initialCwnd),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("InitialSlowStartThreshold",
                          "Initial slow-start threshold of each path (bytes).",
                          UintegerValue(1u << 30),
                          MakeUintegerAccessor(&RudpCmtSendEngine::m_initialSsThresh),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("FastRetransmit",
                          "On: a path in fast recovery keeps its window until the resent "
                          "segment is acknowledged. Off: the window is cut and keeps growing "
                          "(seed 002's two model families).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RudpCmtSendEngine::m_fastRetransmit),
                          MakeBooleanChecker())
            .AddAttribute("Ns2Recovery",
                          "ns-2.35's fast recovery (sctp-cmt.cc, FastRtx and CUC): a path's "
                          "window is cut for a loss above the highest segment it had "
                          "outstanding at its last cut, once per window of data, and grows "
                          "only on SACKs that pass its pseudo-cumulative ACK, which stays on a "
                          "lost segment until its resend is acknowledged; its timer restarts "
                          "whenever the cumulative ACK passes one of its segments "
                          "(SendBufferDequeueUpTo). Off: RFC 4960 7.2.4, one cut until the "
                          "cumulative ACK passes the recovery point, with FastRetransmit no "
                          "growth before it, and the timer restarted only when the earliest "
                          "outstanding segment is acknowledged (6.3.2 R3).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RudpCmtSendEngine::m_ns2Recovery),
                          MakeBooleanChecker())
            .AddAttribute("Ns2RoundRobin",
                          "ns-2.35's round robin (sctp-cmt.cc, SendMuch): each sending "
                          "opportunity starts at the path after the one that last sent new "
                          "data. Off: the start moves one path further at every opportunity.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RudpCmtSendEngine::m_ns2RoundRobin),
                          MakeBooleanChecker())
            .AddAttribute("Sfr",
                          "Split Fast Retransmit: count missing reports per path.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RudpCmtSendEngine::m_sfr),
                          MakeBooleanChecker())
            .AddAttribute("Cuc",
                          "Cwnd Update for CMT: grow a path's window on its own pseudo-"
                          "cumulative ACK.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RudpCmtSendEngine::m_cuc),
                          MakeBooleanChecker())
            .AddAttribute("Dac",
                          "Delayed ACK for CMT: a SACK answering two segments counts two "
                          "missing reports (pair it with the receiver's Dac).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RudpCmtSendEngine::m_dac),
                          MakeBooleanChecker())
            .AddAttribute("RtxPolicy",
                          "Path of a resent segment: RTX-SAME, RTX-ASAP, RTX-CWND, RTX-SSTHRESH or "
                          "RTX-LOSSRATE (the lowest RudpCmtPath::LossRate; ns-2's names).",
                          EnumValue(RudpCmtSendEngine::RTX_SSTHRESH),
                          RUDP_MAKE_ENUM_ACCESSOR(RudpCmtSendEngine::RtxPolicy,
                                                  &RudpCmtSendEngine::m_rtxPolicy),
                          MakeEnumChecker(RudpCmtSendEngine::RTX_SAME,
                                          "RTX-SAME",
                                          RudpCmtSendEngine::RTX_ASAP,
                                          "RTX-ASAP",
                                          RudpCmtSendEngine::RTX_CWND,
                                          "RTX-CWND",
                                          RudpCmtSendEngine::RTX_SSTHRESH,
                                          "RTX-SSTHRESH",
                                          RudpCmtSendEngine::RTX_LOSSRATE,
                                          "RTX-LOSSRATE"))
            .AddAttribute("ReTxThreshold",
                          "Missing reports that mark a segment lost (1..100; SCTP: 3).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RudpCmtSendEngine::m_dupThreshold),
                          MakeUintegerChecker<uint32_t>(1, 100))
            .AddAttribute("InitialRto",
                          "RTO of a path before its first RTT sample (1 ms..3600 s).",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&RudpCmtSendEngine::m_initialRto),
                          MakeTimeChecker(MilliSeconds(1), Seconds(3600)))
            .AddAttribute("MinRto",
                          "Lower bound of a path's RTO (1 ms..3600 s).",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&RudpCmtSendEngine::m_minRto),
                          MakeTimeChecker(MilliSeconds(1), Seconds(3600)))
            .AddAttribute("MaxRto",
                          "Upper bound of a path's RTO and its backoff (1 ms..3600 s).",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&RudpCmtSendEngine::m_maxRto),
                          MakeTimeChecker(MilliSeconds(1), Seconds(3600)))
            .AddAttribute("PathMaxRetrans",
                          "RFC 4960's Path.Max.Retrans: a path whose consecutive timeouts "
                          "exceed it is failed, carries no data and is only probed until "
                          "it answers (0..100; RFC 4960 and ns-2.31: 5).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RudpCmtSendEngine::m_pathMaxRetrans),
                          MakeUintegerChecker<uint32_t>(0, 100))
            .AddAttribute("AssociationMaxRetrans",
                          "RFC 4960's Association.Max.Retrans: the association fails when "
                          "its paths time out more than this many times in a row, no SACK "
                          "between (0..1000; 0: never, for a run that a stop time ends; "
                          "RFC 4960: 10, as RudpCmtSocket sets).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RudpCmtSendEngine::m_associationMaxRetrans),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("MaxBurst",
                          "RFC 4960's Max.Burst: packets a path may send at one sending "
                          "opportunity (a SACK, a timeout), counted as ns-2 counts them "
                          "(0: no limit; 1..100; RFC 4960 and ns-2.31: 4).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RudpCmtSendEngine::m_maxBurst),
                          MakeUintegerChecker<uint32_t>(0, 100))
            .AddAttribute("IdleWindowDecay",
                          "RFC 4960 7.2.1: a path that sends no data for an RTO has its "
                          "window adjusted to max(cwnd/2, 4 MSS), once per RTO while it stays "
                          "idle (ns-2's CwndDegradeTimer; as ns-2, a window of 2 MSS or less "
                          "is left alone). Off: a window kept while the receiver's window or "
                          "the scheduler holds a path back stays as it was.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RudpCmtSendEngine::m_idleWindowDecay),
                          MakeBooleanChecker())
            .AddAttribute("CmtPf",
                          "CMT-PF (Natarajan et al.; ns-2's useCmtPF_): a path that times "
                          "out is potentially failed, carries no data and is only probed "
                          "until it answers.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RudpCmtSendEngine::m_cmtPf),
                          MakeBooleanChecker())
            .AddAttribute("CmtPfCwnd",
                          "The window of a potentially failed path once it answers its "
                          "probe (segments, 1 or 2; ns-2's cmtPFCwnd_).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RudpCmtSendEngine::m_cmtPfCwnd),
                          MakeUintegerChecker<uint32_t>(1, 2))
            .AddAttribute("SndBufSize",
                          "Send buffer of the association (bytes, SegmentSize..2^30; large, "
                          "so that in seed 002's unbounded case only the receiver's buffer "
                          "can block).",
                          UintegerValue(1u << 26),
                          MakeUintegerAccessor(&RudpCmtSendEngine::m_sndBufSize),
                          MakeUintegerChecker<uint32_t>(1, RudpRxBuffer::MAX_CAPACITY))
            .AddAttribute("InitialPeerWindow",
                          "The receiver's window before its first SACK, as SCTP's INIT "
                          "announces it (a_rwnd; bytes, 0..2^30; RudpCmtHelper sets the "
                          "receiver's RcvBufSize). 0: unknown, and one segment is sent "
                          "until the first SACK tells it (RFC 4960 6.1 rule A).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RudpCmtSendEngine::m_initialPeerWindow),
                          MakeUintegerChecker<uint32_t>(0, RudpRxBuffer::MAX_CAPACITY))
            .AddAttribute("Checksum",
                          "The checksum sent and expected: Internet16 (RFC 1071) or Crc32c "
                          "(SCTP's); a SACK with the other kind is dropped.",
                          EnumValue(RudpHeader::CHECKSUM_INTERNET16),
                          RUDP_MAKE_ENUM_ACCESSOR(RudpHeader::ChecksumKind,
                                                  &RudpCmtSendEngine::m_checksumKind),
                          MakeRudpChecksumKindChecker())
            .AddAttribute("ModelAssumptions",
                          "Simulate under seed 002's analytic model's own assumptions: a "
                          "loss is known one RTT after the segment was sent (an oracle: "
                          "NotifyDataDropped, which RudpCmtHelper connects to each path's "
                          "drops) instead of by missing reports, and a path's fast recovery "
                          "ends when the cumulative ACK passes the lost segment. The helper also "
                          "keeps retransmissions from being lost "
                          "(RudpFirstTransmissionErrorModel); timeouts, and with them slow "
                          "start after the first loss, then do not happen.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RudpCmtSendEngine::m_modelAssumptions),
                          MakeBooleanChecker())
            .AddAttribute("Scheduler",
                          "Order in which the paths' windows are filled: RoundRobin (CMT's), "
                          "LowestRttFirst (smallest smoothed RTT first), BufferAware (lowest RTT "
                          "first, and a slower path takes new data only within what the receiver's "
                          "buffer holds at the paths' RTT ratio) or Blest (lowest RTT first, and "
                          "the sender waits for the fastest path when BLEST estimates that it "
                          "would fill the receiver's buffer during a slower path's RTT; "
                          "RudpCmtScheduler, RudpCmtBlest).",
                          EnumValue(RudpCmtScheduler::ROUND_ROBIN),
                          RUDP_MAKE_ENUM_ACCESSOR(RudpCmtScheduler::Kind,
                                                  &RudpCmtSendEngine::m_schedulerKind),
                          MakeEnumChecker(RudpCmtScheduler::ROUND_ROBIN,
                                          "RoundRobin",
                                          RudpCmtScheduler::LOWEST_RTT_FIRST,
                                          "LowestRttFirst",
                                          RudpCmtScheduler::BUFFER_AWARE,
                                          "BufferAware",
                                          RudpCmtScheduler::BLEST,
                                          "Blest"))
            .AddAttribute("BlestLambda",
                          "Scheduler=Blest: lambda's start, the factor on the bytes the "
                          "fastest path is estimated to send during a slower path's RTT "
                          "(dimensionless, 0.1..10, within [BlestLambdaMin, BlestLambdaMax]; "
                          "the authors' Linux implementation: 1.2).",
                          DoubleValue(1.2),
                          MakeDoubleAccessor(&RudpCmtSendEngine::m_blestLambda),
                          MakeDoubleChecker<double>(0.1, 10))
            .AddAttribute("BlestLambdaMin",
                          "Scheduler=Blest: lambda's lower bound (0.1..10; Linux: 1.0).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&RudpCmtSendEngine::m_blestLambdaMin),
                          MakeDoubleChecker<double>(0.1, 10))
            .AddAttribute("BlestLambdaMax",
                          "Scheduler=Blest: lambda's upper bound (0.1..10; Linux: 1.3).",
                          DoubleValue(1.3),
                          MakeDoubleAccessor(&RudpCmtSendEngine::m_blestLambdaMax),
                          MakeDoubleChecker<double>(0.1, 10))
            .AddAttribute("BlestLambdaIncrease",
                          "Scheduler=Blest: lambda's step up, once per RTT of the slowest "
                          "path, when the receiver's window blocked the sender in that time "
                          "(0..1; Linux: 0.04).",
                          DoubleValue(0.04),
                          MakeDoubleAccessor(&RudpCmtSendEngine::m_blestLambdaIncrease),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("BlestLambdaDecrease",
                          "Scheduler=Blest: lambda's step down, once per RTT of the slowest "
                          "path, when the receiver's window did not block the sender in that "
                          "time (0..1; Linux: 0.01).",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&RudpCmtSendEngine::m_blestLambdaDecrease),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute(
                "BufferSplitting",
                "Buffer splitting (Dreibholz et al. 2010; INET's cmtBufferSplitVariant): a "
                "path may have queued only 1/n of the sender's buffer (SenderSide), of the "
                "receiver's advertised window (ReceiverSide), or of both (BothSides); None: "
                "no split (RudpCmtBufferSplitting).",
                EnumValue(RudpCmtBufferSplitting::NONE),
                RUDP_MAKE_ENUM_ACCESSOR(RudpCmtBufferSplitting::Variant,
                                        &RudpCmtSendEngine::m_bufferSplitting),
                MakeEnumChecker(RudpCmtBufferSplitting::NONE,
                                "None",
                                RudpCmtBufferSplitting::SENDER_SIDE,
                                "SenderSide",
                                RudpCmtBufferSplitting::RECEIVER_SIDE,
                                "ReceiverSide",
                                RudpCmtBufferSplitting::BOTH_SIDES,
                                "BothSides"))
            .AddAttribute("ChunkRescheduling",
                          "Chunk rescheduling (Dreibholz et al. 2010): when out-of-order "
                          "data fills ReschedulingThreshold of the receiver's buffer, resend "
                          "the segment at the head of the blockage on the fastest path "
                          "(RudpCmtChunkRescheduling).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RudpCmtSendEngine::m_chunkRescheduling),
                          MakeBooleanChecker())
            .AddAttribute("ReschedulingThreshold",
                          "Fraction of the receiver's buffer held out of order at which "
                          "ChunkRescheduling acts (0 < threshold <= 1; INET: 0.5).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RudpCmtSendEngine::m_reschedulingThreshold),
                          MakeDoubleChecker<double>(1e-6, 1))
            .AddAttribute("HeartbeatInterval",
                          "RFC 9260 8.3's HB.interval: an active path with nothing outstanding "
                          "that sent no data is probed with a HEARTBEAT every HeartbeatInterval "
                          "plus its RTO jittered by +-50 % (0 s..3600 s; 0: no heartbeats, as seed "
                          "002's applications have it; RFC 9260: 30 s, as RudpCmtSocket sets).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&RudpCmtSendEngine::m_heartbeatInterval),
                          MakeTimeChecker(Seconds(0), Seconds(3600)))
            .AddAttribute("PathList",
                          "The paths, in the order added.",
                          ObjectVectorValue(),
                          MakeObjectVectorAccessor(&RudpCmtSendEngine::m_paths),
                          MakeObjectVectorChecker<RudpCmtPath>())
            // Former names (TypeId::DEPRECATED), set only when configured.
            .AddAttribute("DupThreshold",
                          "Deprecated name of ReTxThreshold.",
                          EmptyAttributeValue(),
                          MakeUintegerAccessor(&RudpCmtSendEngine::m_dupThreshold),
                          MakeUintegerChecker<uint32_t>(1, 100),
                          TypeId::SupportLevel::DEPRECATED,
                          "use ReTxThreshold, as RudpSocket and TcpSocketBase name it")
            .AddAttribute("InitialSsThresh",
                          "Deprecated name of InitialSlowStartThreshold.",
                          EmptyAttributeValue(),
                          MakeUintegerAccessor(&RudpCmtSendEngine::m_initialSsThresh),
                          MakeUintegerChecker<uint32_t>(1),
                          TypeId::SupportLevel::DEPRECATED,
                          "use InitialSlowStartThreshold, as RudpSocket and TcpSocket name it")
            .AddTraceSource("ReceiveWindowLimited",
                            "Whether the receiver's window blocks a sender with data and "
                            "room in a path's window (receive-buffer blocking)",
                            MakeTraceSourceAccessor(&RudpCmtSendEngine::m_windowLimited),
                            "ns3::TracedValueCallback::Bool")
            .AddTraceSource("Tx",
                            "A data segment was sent: payload, header, path",
                            MakeTraceSourceAccessor(&RudpCmtSendEngine::m_txTrace),
                            "ns3::RudpCmtSendEngine::SegmentTracedCallback")
            .AddTraceSource("Retransmission",
                            "A data segment was sent again: payload, header, path",
                            MakeTraceSourceAccessor(&RudpCmtSendEngine::m_retxTrace),
                            "ns3::RudpCmtSendEngine::SegmentTracedCallback")
            .AddTraceSource("Failure",
                            "The association gave up: why",
                            MakeTraceSourceAccessor(&RudpCmtSendEngine::m_failureTrace),
                            "ns3::RudpCmtSendEngine::FailureTracedCallback")
            .AddTraceSource("HeartbeatRtt",
                            "A HEARTBEAT was answered: the path's index, the RTT measured",
                            MakeTraceSourceAccessor(&RudpCmtSendEngine::m_heartbeatRttTrace),
                            "ns3::RudpCmtSendEngine::HeartbeatRttTracedCallback");
    return tid;
}

RudpCmtSendEngine::RudpCmtSendEngine() = default;

RudpCmtSendEngine::~RudpCmtSendEngine() = default;

void
RudpCmtSendEngine::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& heartbeat : m_heartbeats)
    {
        heartbeat->Stop();
    }
    m_heartbeats.clear();
    for (auto& path : m_paths)
    {
        path->Dispose();
    }
    m_recovery.reset(); // it reads the paths
    m_paths.clear();
    m_socket = nullptr;
    m_source.reset();
    Object::DoDispose();
}

Ptr<RudpCmtPath>
RudpCmtSendEngine::AddPath(const Address& remote)
{
    NS_LOG_FUNCTION(this << remote);
    NS_ABORT_MSG_UNLESS(InetSocketAddress::IsMatchingType(remote),
                        "RudpCmtSendEngine::AddPath: an InetSocketAddress, please");
    Ptr<RudpCmtPath> path = CreateObject<RudpCmtPath>();
    path->SetPeer(remote, m_scoreboard.AddPath());
    path->SetExpiryCallback(MakeCallback(&RudpCmtSendEngine::OnTimeout, this));
    m_paths.push_back(path);
    m_heartbeats.push_back(std::make_unique<RudpCmtHeartbeat>());
    m_heartbeats.back()->SetCallbacks(
        path->GetIndex(),
        MakeCallback(&RudpCmtSendEngine::OnHeartbeatDue, this),
        MakeCallback(&RudpCmtSendEngine::OnHeartbeatUnanswered, this));
    return path;
}

Ptr<RudpCmtPath>
RudpCmtSendEngine::AddPath(const Address& remote, Ipv4Address local, Ptr<RudpPathRouting> routing)
{
    NS_ABORT_MSG_UNLESS(routing,
                        "RudpCmtSendEngine::AddPath: a path bound to " << local
                                                                       << " needs routing");
    m_pathRouting = routing;
    Ptr<RudpCmtPath> path = AddPath(remote);
    path->SetLocal(local);
    return path;
}

const std::vector<Ptr<RudpCmtPath>>&
RudpCmtSendEngine::GetPaths() const
{
    return m_paths;
}

RudpHeader::ChecksumKind
RudpCmtSendEngine::GetChecksumKind() const
{
    return m_checksumKind;
}

uint32_t
RudpCmtSendEngine::GetSegmentSize() const
{
    return m_segmentSize;
}

Time
RudpCmtSendEngine::GetInitialRto() const
{
    return m_initialRto;
}

Time
RudpCmtSendEngine::GetMinRto() const
{
    return m_minRto;
}

Time
RudpCmtSendEngine::GetMaxRto() const
{
    return m_maxRto;
}

uint32_t
RudpCmtSendEngine::GetAssociationMaxRetrans() const
{
    return m_associationMaxRetrans;
}

Time
RudpCmtSendEngine::GetHeartbeatInterval() const
{
    return m_heartbeatInterval;
}

int64_t
RudpCmtSendEngine::AssignStreams(int64_t stream)
{
    HeartbeatRandom()->SetStream(stream);
    return 1;
}

void
RudpCmtSendEngine::SetHeartbeatRandomVariable(Ptr<UniformRandomVariable> random)
{
    m_heartbeatRandom = random;
}

Ptr<UniformRandomVariable>
RudpCmtSendEngine::HeartbeatRandom()
{
    // Made only when needed: a random variable made at construction would
    // take an automatic stream number from those of the simulation's other
    // variables, and change their draws where heartbeats are off.
    if (!m_heartbeatRandom)
    {
        m_heartbeatRandom = CreateObject<UniformRandomVariable>();
    }
    return m_heartbeatRandom;
}

RudpCmtSendEngine::Stats
RudpCmtSendEngine::GetStats() const
{
    Stats stats = m_stats;
    stats.receiveWindowLimitedTime =
        m_windowLimitedTotal + (m_windowLimited ? Simulator::Now() - m_windowLimitedSince : Time());
    return stats;
}

bool
RudpCmtSendEngine::IsComplete() const
{
    return m_source && m_stats.bytesAcked >= m_source->GetSize();
}

const std::string&
RudpCmtSendEngine::GetFailure() const
{
    return m_failure;
}

uint32_t
RudpCmtSendEngine::LargestSegment() const
{
    return m_source ? static_cast<uint32_t>(std::min<uint64_t>(m_segmentSize, m_source->GetSize()))
                    : m_segmentSize;
}

void
RudpCmtSendEngine::StopTimers()
{
    for (auto& path : m_paths)
    {
        path->GetRtoTimer()->Cancel();
        path->SetIdleDecay(false);
        m_heartbeats[path->GetIndex()]->Stop();
    }
}

void
RudpCmtSendEngine::Fail(const std::string& reason)
{
    NS_LOG_WARN("the association gives up: " << reason);
    m_failure = reason;
    m_running = false;
    StopTimers();
    UpdateWindowLimited(m_scoreboard.BytesInFlight());
    m_failureTrace(reason);
}

void
RudpCmtSendEngine::SetSource(std::unique_ptr<RudpFileSource> source)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_socket, "RudpCmtSendEngine::SetSource: before Attach");
    m_source = std::move(source);
}

void
RudpCmtSendEngine::Attach(Ptr<Socket> udp)
{
    NS_LOG_FUNCTION(this << udp);
    NS_ABORT_MSG_IF(m_paths.empty(), "RudpCmtSendEngine has no path: AddPath first");
    NS_ABORT_MSG_IF(m_socket, "RudpCmtSendEngine::Attach: once");
    m_socket = udp;
    Begin();
}

void
RudpCmtSendEngine::Begin()
{
    m_burst.assign(m_paths.size(), 0);
    CreateRecovery();
    ObjectFactory coupling;
    coupling.SetTypeId(m_couplingType);
    m_coupling = coupling.Create<RudpCmtCoupling>();
    for (auto& path : m_paths)
    {
        OpenPathState(*path);
    }
    m_scheduler.SetKind(m_schedulerKind);
    m_scheduler.SetBufferSplitting(m_bufferSplitting);
    m_scheduler.SetSegmentSize(m_segmentSize);
    m_rescheduling.SetThreshold(m_reschedulingThreshold);
    m_scoreboard.Open(FIRST_SEQUENCE, m_sndBufSize);
    // SCTP's INIT tells the receiver's window (a_rwnd) before any data;
    // RudpCmtSocket's does, or the helper configures it. Unknown, it is taken
    // as closed: rule A still lets one segment out, and the first SACK tells
    // the window.
    m_peerWindow = m_initialPeerWindow;
    m_running = true;
    // A segment must fit in the receiver's buffer, and in ours. RFC 4960,
    // section 6: a receiver must accept one full packet, and an INIT that
    // announces less aborts the association.
    if (m_sndBufSize < LargestSegment())
    {
        std::ostringstream reason;
        reason << "the send buffer (SndBufSize " << m_sndBufSize
               << " bytes) cannot hold one segment of " << LargestSegment() << " bytes";
        Fail(reason.str());
        return;
    }
    if (m_initialPeerWindow > 0 && m_initialPeerWindow < LargestSegment())
    {
        std::ostringstream reason;
        reason << "the receiver's buffer (" << m_initialPeerWindow
               << " bytes) cannot hold one segment of " << LargestSegment()
               << " bytes: RcvBufSize must be at least SegmentSize";
        Fail(reason.str());
        return;
    }
    if (m_schedulerKind == RudpCmtScheduler::BLEST && !ConfigureBlest())
    {
        return;
    }
    for (auto& path : m_paths)
    {
        ScheduleHeartbeat(*path, Simulator::Now());
    }
    Schedule();
}

void
RudpCmtSendEngine::OpenPathState(RudpCmtPath& path)
{
    path.Open(m_segmentSize, m_initialCwnd, m_initialSsThresh);
    path.SetIdleDecay(m_idleWindowDecay);
    path.GetRtoTimer()->Configure(RudpRtoTimer::ADAPTIVE,
                                  m_initialRto,
                                  m_minRto,
                                  m_maxRto,
                                  "ns3::RudpCmtSendEngine");
    path.SetSlowStartAtThreshold(m_coupling->SlowStartAtThreshold());
    path.SetMayOvershootWindow(m_coupling->MayOvershootWindow());
}

void
RudpCmtSendEngine::OpenPath(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    NS_ABORT_MSG_UNLESS(m_running && index == m_burst.size(),
                        "RudpCmtSendEngine::OpenPath: the path added last, after Begin");
    RudpCmtPath& path = *m_paths.at(index);
    OpenPathState(path);
    m_burst.push_back(0);
    m_recovery->AddPath();
    // RFC 9260 5.4: no data until it answers.
    path.SetStatus(RudpCmtPath::UNCONFIRMED);
    SendProbe(path);
    path.GetRtoTimer()->Restart();
}

void
RudpCmtSendEngine::RemovePath(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    RudpCmtPath& path = *m_paths.at(index);
    if (!m_running || path.GetStatus() == RudpCmtPath::REMOVED)
    {
        return;
    }
    NS_LOG_INFO("path " << index << " removed: " << path.GetLocal() << " to "
                        << path.GetRemoteIpv4());
    path.SetStatus(RudpCmtPath::REMOVED);
    m_recovery->Timeout(index); // what it carried goes by the others
    RehomeFromFailedPaths();
    path.StopIdleDecay();
    path.GetRtoTimer()->Cancel();
    m_heartbeats[index]->Stop();
    Schedule();
}

bool
RudpCmtSendEngine::ConfigureBlest()
{
    if (!(m_blestLambdaMin <= m_blestLambda && m_blestLambda <= m_blestLambdaMax))
    {
        std::ostringstream reason;
        reason << "BLEST's lambda: BlestLambdaMin <= BlestLambda <= BlestLambdaMax does not hold ("
               << m_blestLambdaMin << ", " << m_blestLambda << ", " << m_blestLambdaMax << ")";
        Fail(reason.str());
        return false;
    }
    RudpCmtBlest::Lambda lambda;
    lambda.initial = m_blestLambda;
    lambda.min = m_blestLambdaMin;
    lambda.max = m_blestLambdaMax;
    lambda.increase = m_blestLambdaIncrease;
    lambda.decrease = m_blestLambdaDecrease;
    m_scheduler.SetBlestLambda(lambda);
    return true;
}

void
RudpCmtSendEngine::CreateRecovery()
{
    RudpCmtRecovery::Config config;
    config.fastRetransmit = m_fastRetransmit;
    config.sfr = m_sfr;
    config.cuc = m_cuc;
    config.dac = m_dac;
    config.reTxThreshold = m_dupThreshold;
    config.lossOracle = m_modelAssumptions;
    RudpCmtRecovery::Actions actions;
    actions.cut = [this](uint32_t path) { Cut(*m_paths[path]); };
    actions.retransmit = [this](const RudpTxBuffer::Segment& segment) {
        MarkForRetransmission(segment);
    };
    if (m_ns2Recovery)
    {
        m_recovery =
            std::make_unique<RudpCmtNs2Recovery>(config, m_scoreboard, m_paths, std::move(actions));
    }
    else
    {
        m_recovery =
            std::make_unique<RudpCmtRfcRecovery>(config, m_scoreboard, m_paths, std::move(actions));
    }
}

bool
RudpCmtSendEngine::Write(Ptr<Packet> data)
{
    NS_LOG_FUNCTION(this << data->GetSize());
    if (!m_running || m_source || data->GetSize() > GetTxAvailable())
    {
        return false;
    }
    if (data->GetSize() > 0)
    {
        m_scoreboard.Add(data);
        Schedule();
    }
    return true;
}

uint32_t
RudpCmtSendEngine::GetTxAvailable() const
{
    return m_running ? m_scoreboard.Buffer().Available() - m_admitted : 0;
}

bool
RudpCmtSendEngine::IsAllAcknowledged() const
{
    return UnsentBytes() == 0 && m_scoreboard.Buffer().BytesOutstanding() == 0;
}

void
RudpCmtSendEngine::SetAcknowledgedCallback(Callback<void> acknowledged)
{
    m_acknowledged = acknowledged;
}

void
RudpCmtSendEngine::Halt()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    UpdateWindowLimited(m_scoreboard.BytesInFlight());
    StopTimers();
}

void
RudpCmtSendEngine::Refill()
{
    if (!m_source)
    {
        return; // the application writes
    }
    // The source's bytes enter the send buffer whenever it has room for a
    // segment, in pieces of at most 64 KB, as an application writing all
    // it can. They are read from the source only when a segment is cut
    // from them (ReadAdmitted): a large buffer then costs neither memory
    // nor time for bytes that wait in it.
    const uint64_t remaining = m_source->GetRemaining();
    uint64_t unread = remaining > m_admitted ? remaining - m_admitted : 0;
    uint32_t room = m_scoreboard.Buffer().Available() - m_admitted;
    while (unread > 0 && room >= m_segmentSize)
    {
        const auto size = static_cast<uint32_t>(std::min<uint64_t>({unread, room, 65536}));
        m_admitted += size;
        unread -= size;
        room -= size;
    }
}

void
RudpCmtSendEngine::ReadAdmitted(uint32_t bytes)
{
    // Only the bytes the segment lacks: a piece of 64 KB would be allocated
    // and freed at the top of the heap, which the allocator gives back to
    // the kernel and takes again, page by page, every 44 segments.
    const uint32_t unsent = m_scoreboard.Buffer().UnsentBytes();
    if (unsent < bytes && m_admitted > 0)
    {
        const uint32_t size = std::min(m_admitted, bytes - unsent);
        m_sourceBytes.resize(size);
        m_source->Read(m_sourceBytes.data(), size);
        m_scoreboard.Add(Create<Packet>(m_sourceBytes.data(), size));
        m_admitted -= size;
    }
}

uint32_t
RudpCmtSendEngine::UnsentBytes() const
{
    return m_scoreboard.Buffer().UnsentBytes() + m_admitted;
}

void
RudpCmtSendEngine::Schedule()
{
    if (!m_running)
    {
        return;
    }
    Refill();
    BeginRound();
    // Members, not locals, so that a round allocates nothing; nothing a
    // round calls runs another round.
    std::vector<uint32_t>& inFlight = m_roundInFlight;
    inFlight = m_scoreboard.BytesInFlight();
    std::vector<uint32_t>& order = m_order;
    m_scheduler.Order(m_nextPath, order);
    if (m_scoreboard.AnyLost())
    {
        for (const uint32_t index : order)
        {
            FillPath(*m_paths[index], inFlight[index], true);
        }
    }
    std::optional<uint32_t> lastNewData; // the last path that sent new data
    for (const uint32_t index : order)
    {
        const SequenceNumber32 highest = m_scoreboard.Buffer().HighTxMark();
        FillPath(*m_paths[index], inFlight[index], false);
        if (m_scoreboard.Buffer().HighTxMark() > highest)
        {
            lastNewData = index;
        }
    }
    if (!m_ns2RoundRobin)
    {
        m_nextPath = (m_nextPath + 1) % m_paths.size();
    }
    else if (lastNewData)
    {
        // ns-2's SendMuch: the next round starts after the path that last
        // sent new data (spNodeLastSentTo), not one further each time.
        m_nextPath = (*lastNewData + 1) % m_paths.size();
    }
    std::fill(m_burst.begin(), m_burst.end(), 0); // the opportunity is over
    UpdateWindowLimited(inFlight);
}

void
RudpCmtSendEngine::PathViews(RudpCmtBuffers& buffers, std::vector<RudpCmtPathView>& views) const
{
    views.assign(m_paths.size(), RudpCmtPathView());
    // Built on every round: the paths' state only for a remedy that reads it.
    const bool read = m_scheduler.ReadsPaths() || m_chunkRescheduling;
    for (const auto& path : m_paths)
    {
        RudpCmtPathView& view = views[path->GetIndex()];
        view.index = path->GetIndex();
        if (!read)
        {
            continue;
        }
        view.active = CarriesData(*path);
        view.inFastRecovery = m_recovery->InFastRecovery(path->GetIndex());
        view.srtt = path->GetRttEstimator()->GetEstimate();
        view.cwnd = path->GetState()->m_cWnd;
    }
    buffers.peerWindow = m_peerWindow;
    buffers.sendBuffer = m_sndBufSize;
    buffers.heldByPeer = 0;
    buffers.windowLimited = m_windowLimited;
    if (m_scheduler.LimitsPaths() || m_chunkRescheduling)
    {
        m_scoreboard.ForEach([&views, &buffers](const RudpTxBuffer::Segment& segment,
                                                const RudpCmtScoreboard::Record& record) {
            if (segment.txCount == 0 && !segment.lost)
            {
                return;
            }
            views[record.GetPath()].queued += segment.length;
            buffers.heldByPeer += segment.sacked ? segment.length : 0;
        });
    }
}

void
RudpCmtSendEngine::BeginRound()
{
    RudpCmtBuffers buffers;
    PathViews(buffers, m_pathViews);
    if (m_chunkRescheduling && RescheduleHead(m_pathViews, buffers))
    {
        PathViews(buffers, m_pathViews); // a segment changed paths, a window shrank
    }
    m_scheduler.Begin(m_pathViews, buffers);
    RouteResends();
}

void
RudpCmtSendEngine::RouteResends()
{
    if (!m_scheduler.RoutesResends() || !m_scoreboard.AnyLost())
    {
        return;
    }
    m_scoreboard.ForEach([this](const RudpTxBuffer::Segment& segment,
                                RudpCmtScoreboard::Record& record) {
        if (segment.lost)
        {
            m_scoreboard.Move(segment, m_scheduler.ResendPath(record.GetPath(), segment.length));
        }
    });
}

bool
RudpCmtSendEngine::RescheduleHead(const std::vector<RudpCmtPathView>& paths,
                                  const RudpCmtBuffers& buffers)
{
    const std::deque<RudpTxBuffer::Segment>& segments = m_scoreboard.Buffer().GetSegments();
    if (segments.empty() || !m_rescheduling.Blocked(buffers))
    {
        return false;
    }
    // The head of the blockage: the first segment not cumulatively
    // acknowledged, if it is still in flight (a lost one waits for its
    // resend already) and has not been moved before.
    const RudpTxBuffer::Segment& head = segments.front();
    RudpCmtScoreboard::Record& record = m_scoreboard.RecordOf(head);
    if (head.txCount == 0 || !head.InFlight() || record.rescheduled)
    {
        return false;
    }
    const std::optional<uint32_t> target =
        m_rescheduling.Target(paths, record.GetPath(), Simulator::Now() - head.lastTx);
    if (!target)
    {
        return false;
    }
    RudpCmtPath& from = *m_paths[record.GetPath()];
    NS_LOG_LOGIC("segment " << head.seq << " blocks the receiver's buffer: moved from path "
                            << from.GetIndex() << " to path " << *target);
    m_scoreboard.MarkLost(head);
    m_scoreboard.Move(head, *target);
    record.rescheduled = true;
    RetimeAfterMove(from);
    ++m_stats.rescheduledSegments;
    m_recovery->Rescheduled(head, from.GetIndex());
    return true;
}

uint32_t
RudpCmtSendEngine::CouplingView(uint32_t index)
{
    // Filled anew each time, its storage kept: it is built on every SACK.
    std::vector<RudpCmtCoupling::Path>& view = m_couplingView;
    view.clear();
    if (!m_coupling->ReadsPaths())
    {
        return 0; // the coupling looks at no path
    }
    uint32_t position = 0;
    for (const auto& path : m_paths)
    {
        if (path->GetStatus() != RudpCmtPath::ACTIVE && path->GetIndex() != index)
        {
            continue;
        }
        if (path->GetIndex() == index)
        {
            position = view.size();
        }
        RudpCmtCoupling::Path seen;
        seen.cwnd = path->GetState()->m_cWnd;
        // Before its first sample a path's RTT is taken to be its RTO.
        seen.rtt = path->GetRttEstimator()->GetNSamples() > 0
                       ? path->GetRttEstimator()->GetEstimate()
                       : path->GetRtoTimer()->GetRto();
        seen.bytesBetweenLosses = path->GetBytesBetweenLosses();
        view.push_back(seen);
    }
    return position;
}

void
RudpCmtSendEngine::GrowWindow(RudpCmtPath& path, uint32_t bytes, uint32_t flight)
{
    const uint32_t position = CouplingView(path.GetIndex());
    const std::vector<RudpCmtCoupling::Path>& view = m_couplingView;
    const uint32_t mss = path.GetState()->m_segmentSize;
    path.Grow(bytes,
              flight,
              m_coupling->SlowStartIncrease(view, position, bytes, mss),
              m_coupling->AvoidanceIncrease(view, position, mss, m_alpha));
}

void
RudpCmtSendEngine::Cut(RudpCmtPath& path)
{
    const uint32_t position = CouplingView(path.GetIndex());
    const std::vector<RudpCmtCoupling::Path>& view = m_couplingView;
    path.Reduce(m_coupling->LossReduction(view, position, m_beta));
}

void
RudpCmtSendEngine::RetimeAfterMove(RudpCmtPath& path)
{
    NS_LOG_FUNCTION(this << path.GetIndex());
    if (m_scoreboard.BytesInFlight()[path.GetIndex()] == 0)
    {
        path.GetRtoTimer()->Cancel();
    }
    else
    {
        path.GetRtoTimer()->Restart();
    }
}

uint32_t
RudpCmtSendEngine::FillPath(RudpCmtPath& path, uint32_t& inFlight, bool resendsOnly)
{
    if (!CarriesData(path))
    {
        return 0;
    }
    const RudpTxBuffer& buffer = m_scoreboard.Buffer();
    uint32_t sent = 0;
    while (m_maxBurst == 0 || m_burst[path.GetIndex()] < m_maxBurst)
    {
        // Resends first: those the policy gave this path, or any with RTX-ASAP.
        const RudpTxBuffer::Segment* resend = m_scoreboard.FirstLost(
            m_rtxPolicy == RTX_ASAP ? std::nullopt : std::optional<uint32_t>(path.GetIndex()));
        if (!resend && resendsOnly)
        {
            break;
        }
        RudpTxBuffer::SendRequest request;
        request.length = resend ? resend->length : std::min(m_segmentSize, UnsentBytes());
        request.resend = resend != nullptr;
        request.inFlight = inFlight;
        request.congestionWindow = path.WindowFor(inFlight, request.length);
        request.receiverWindow = m_peerWindow;
        // The receiver's window, shared by all paths, must keep room for the
        // segments waiting to be resent; one segment may probe a closed
        // window when nothing is outstanding.
        if (request.length == 0 ||
            !buffer.MayTransmit(request, RudpTxBuffer::PROBE_NOTHING_OUTSTANDING))
        {
            break;
        }
        if (!resend && !m_scheduler.Allows(path.GetIndex(), request.length))
        {
            break; // the scheduler or buffer splitting holds new data back
        }
        if (!resend)
        {
            ReadAdmitted(request.length);
            resend = &m_scoreboard.NewSegment(request.length, path.GetIndex()); // sent below
        }
        SendSegment(path, *resend);
        m_scheduler.Sent(path.GetIndex(), request.length, request.resend);
        inFlight += request.length;
        sent += request.length;
    }
    return sent;
}

void
RudpCmtSendEngine::SendSegment(RudpCmtPath& path, const RudpTxBuffer::Segment& segment)
{
    NS_LOG_FUNCTION(this << path.GetIndex() << segment.seq << segment.length);
    const bool resend = segment.txCount > 0;
    m_scoreboard.Move(segment, path.GetIndex());
    m_scoreboard.MarkTransmitted(segment, Simulator::Now());
    path.NoteSent(segment.length, resend);
    ++m_burst[path.GetIndex()];

    RudpHeader header;
    header.SetSequenceNumber(segment.seq);
    Ptr<Packet> packet = RudpSegmentCodec::Encode(header, segment.payload, m_checksumKind);
    if (m_modelAssumptions)
    {
        packet->AddPacketTag(RudpCmtTransmissionTag(segment.seq, segment.txCount));
    }
    if (resend)
    {
        ++m_stats.retransmissions;
        m_retxTrace(segment.payload, header, path.GetIndex());
    }
    m_txTrace(segment.payload, header, path.GetIndex());
    Transmit(path, packet);
    if (!path.GetRtoTimer()->IsRunning())
    {
        path.GetRtoTimer()->Restart();
    }
    path.DataSent();
    m_heartbeats[path.GetIndex()]->DataSent();
}

void
RudpCmtSendEngine::SendProbe(RudpCmtPath& path)
{
    if (m_heartbeatInterval.IsStrictlyPositive())
    {
        SendHeartbeat(path, Time());
        return;
    }
    // A header alone: the receiver answers any segment with a SACK on the
    // path it came from, which proves the path alive.
    RudpHeader header;
    header.SetSequenceNumber(m_scoreboard.Buffer().HighTxMark());
    Transmit(path, RudpSegmentCodec::Encode(header, Create<Packet>(), m_checksumKind));
}

bool
RudpCmtSendEngine::CarriesData(const RudpCmtPath& path) const
{
    if (path.GetStatus() != RudpCmtPath::ACTIVE)
    {
        return false;
    }
    if (!path.IsBackup())
    {
        return true;
    }
    return std::none_of(m_paths.begin(), m_paths.end(), [](const Ptr<RudpCmtPath>& other) {
        return !other->IsBackup() && other->GetStatus() == RudpCmtPath::ACTIVE;
    });
}

bool
RudpCmtSendEngine::TransmitControl(Ptr<Packet> packet, uint32_t attempt)
{
    std::vector<Ptr<RudpCmtPath>> turn;
    for (const Ptr<RudpCmtPath>& path : m_paths)
    {
        if (path->GetStatus() == RudpCmtPath::ACTIVE)
        {
            turn.push_back(path);
        }
    }
    if (turn.empty())
    {
        // None active: any path but one whose address was deleted.
        std::copy_if(
            m_paths.begin(),
            m_paths.end(),
            std::back_inserter(turn),
            [](const Ptr<RudpCmtPath>& path) { return path->GetStatus() != RudpCmtPath::REMOVED; });
    }
    if (turn.empty())
    {
        return false;
    }
    Transmit(*turn[attempt % turn.size()], packet);
    return true;
}

void
RudpCmtSendEngine::Transmit(RudpCmtPath& path, Ptr<Packet> packet)
{
    const Ipv4Address local = path.GetLocal();
    if (local != Ipv4Address::GetAny())
    {
        // Without a route from its address the node's routing would send it
        // by another interface, from another address: lost instead, as on a
        // link that is down.
        if (!m_pathRouting->RouteFrom(local, path.GetRemoteIpv4()))
        {
            NS_LOG_LOGIC("path " << path.GetIndex() << ": no route from " << local);
            return;
        }
        packet->AddPacketTag(RudpPathTag(local));
    }
    m_socket->SendTo(packet, 0, path.GetRemote());
}

void
RudpCmtSendEngine::SendHeartbeat(RudpCmtPath& path, Time answerWithin)
{
    NS_LOG_FUNCTION(this << path.GetIndex() << answerWithin);
    RudpCmtHeartbeatInfo info;
    info.path = path.GetIndex();
    info.sent = Simulator::Now();
    // 64 random bits: two 32-bit draws.
    const Ptr<UniformRandomVariable> random = HeartbeatRandom();
    info.nonce = static_cast<uint64_t>(random->GetInteger(0, UINT32_MAX)) << 32 |
                 random->GetInteger(0, UINT32_MAX);
    RudpHeader header;
    header.SetFlags(RudpHeader::HEARTBEAT);
    Transmit(path, RudpSegmentCodec::Encode(header, info.Encode(), m_checksumKind));
    m_heartbeats[path.GetIndex()]->Sent(info, answerWithin);
    ++m_stats.heartbeatsSent;
}

void
RudpCmtSendEngine::ScheduleHeartbeat(RudpCmtPath& path, Time from)
{
    if (!m_heartbeatInterval.IsStrictlyPositive() || !m_running ||
        path.GetStatus() != RudpCmtPath::ACTIVE)
    {
        return;
    }
    // RFC 9260 8.3: HB.interval plus the path's RTO, jittered by +-50 % of the RTO.
    const Time rto = path.GetRtoTimer()->GetRto();
    const Time due = from + m_heartbeatInterval + rto * HeartbeatRandom()->GetValue(0.5, 1.5);
    m_heartbeats[path.GetIndex()]->ScheduleNext(std::max(due - Simulator::Now(), Time()));
}

void
RudpCmtSendEngine::OnHeartbeatDue(uint32_t index)
{
    RudpCmtPath& path = *m_paths[index];
    if (!m_running || path.GetStatus() != RudpCmtPath::ACTIVE)
    {
        return; // a failed path is probed on its retransmission timer
    }
    if (m_heartbeats[index]->DataSentSinceScheduled() || m_scoreboard.BytesInFlight()[index] > 0)
    {
        ScheduleHeartbeat(path, Simulator::Now()); // not idle: data probes it
        return;
    }
    SendHeartbeat(path, path.GetRtoTimer()->GetRto());
}

void
RudpCmtSendEngine::OnHeartbeatUnanswered(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    RudpCmtPath& path = *m_paths[index];
    if (!m_running)
    {
        return;
    }
    ++m_stats.heartbeatsUnanswered;
    // RFC 9260 8.3: the path's and the association's error counters, and
    // the RTO backed off as after a timeout.
    path.NoteUnanswered();
    if (m_associationMaxRetrans > 0 && ++m_consecutiveTimeouts > m_associationMaxRetrans)
    {
        std::ostringstream reason;
        reason << "no path answered in " << m_consecutiveTimeouts
               << " timeouts and unanswered heartbeats in a row (AssociationMaxRetrans "
               << m_associationMaxRetrans << ")";
        Fail(reason.str());
        return;
    }
    path.GetRtoTimer()->Backoff();
    MarkUnresponsive(path);
    if (path.GetStatus() == RudpCmtPath::ACTIVE)
    {
        ScheduleHeartbeat(path, m_heartbeats[index]->GetLastSent());
        return;
    }
    // Failed while idle: probed on its retransmission timer from now on, as
    // a path that failed carrying data.
    RehomeFromFailedPaths();
    path.GetRtoTimer()->Cancel();
    path.GetRtoTimer()->Restart();
    Schedule();
}

void
RudpCmtSendEngine::ReceiveHeartbeatAck(const RudpHeader& header, Ptr<const Packet> payload)
{
    if (!m_running || !m_socket || !header.HasFlags(RudpHeader::HEARTBEAT | RudpHeader::ACK))
    {
        return;
    }
    RudpCmtHeartbeatInfo info;
    if (!RudpCmtHeartbeatInfo::Decode(payload, info) || info.path >= m_paths.size() ||
        !m_heartbeats[info.path]->Accept(info))
    {
        NS_LOG_LOGIC("drops a HEARTBEAT ACK that echoes no heartbeat of ours");
        ++m_stats.heartbeatAcksDropped;
        return;
    }
    RudpCmtPath& path = *m_paths[info.path];
    const Time rtt = Simulator::Now() - info.sent;
    NS_LOG_LOGIC("path " << info.path << " answered a heartbeat in " << rtt.As(Time::MS));
    ++m_stats.heartbeatsAnswered;
    // RFC 9260 8.3: an RTT measurement; the path's and the association's
    // error counts cleared; the path active again.
    path.SampleRtt(rtt);
    m_heartbeatRttTrace(info.path, rtt);
    path.ResetTimeouts();
    m_consecutiveTimeouts = 0;
    if (path.GetStatus() != RudpCmtPath::ACTIVE)
    {
        // Not while its address is down: the answer to a heartbeat sent
        // before may reach that address by another interface.
        if (path.MayRevive())
        {
            Revive(path);
            Schedule();
        }
    }
    else if (!m_heartbeats[info.path]->IsAwaitingAnswer())
    {
        ScheduleHeartbeat(path, info.sent);
    }
}

void
RudpCmtSendEngine::ReceiveDatagram(Ptr<Packet> packet, const Address& from)
{
    RudpHeader header;
    if (RudpSegmentCodec::Decode(packet, m_checksumKind, header) != RudpSegmentCodec::OK)
    {
        return;
    }
    if (header.HasFlags(RudpHeader::HEARTBEAT))
    {
        ReceiveHeartbeatAck(header, packet); // the payload now
        return;
    }
    Receive(header, from, Ipv4Address::GetAny());
}

void
RudpCmtSendEngine::Receive(const RudpHeader& header, const Address& from, Ipv4Address local)
{
    if (!header.HasFlags(RudpHeader::ACK) || header.HasFlags(RudpHeader::HEARTBEAT) ||
        !m_failure.empty() || !m_socket || !InetSocketAddress::IsMatchingType(from))
    {
        return;
    }
    const Ipv4Address source = InetSocketAddress::ConvertFrom(from).GetIpv4();
    for (const auto& path : m_paths)
    {
        if (path->GetRemoteIpv4() == source &&
            (path->GetLocal() == Ipv4Address::GetAny() || path->GetLocal() == local))
        {
            ProcessSack(header, path->GetIndex());
            return;
        }
    }
}

void
RudpCmtSendEngine::Revive(RudpCmtPath& path)
{
    // It answered a probe: it carries data again, and takes what waits on
    // paths still failed (all of them may have been). CMT-PF gives it the
    // window ns-2 gives a path whose heartbeat is acknowledged.
    NS_LOG_INFO("path " << path.GetIndex() << " answered: active again");
    if (path.GetStatus() == RudpCmtPath::POTENTIALLY_FAILED)
    {
        path.Reactivate(m_cmtPfCwnd);
    }
    path.SetStatus(RudpCmtPath::ACTIVE);
    path.ResetTimeouts();
    path.GetRtoTimer()->ResetBackoff();
    path.GetRtoTimer()->Cancel();
    RehomeFromFailedPaths();
    ScheduleHeartbeat(path, Simulator::Now());
}

bool
RudpCmtSendEngine::AdmitSack(const RudpHeader& header, uint32_t arrivalPath)
{
    if (header.GetAckNumber() > m_scoreboard.Buffer().HighTxMark())
    {
        return false;
    }
    // A SACK overtaken by a later one on a faster path carries a stale
    // window, and nothing the later one did not say; but it proves its path
    // alive (a probe's answer on a slow path is overtaken as a rule).
    RudpCmtPath& arrival = *m_paths[arrivalPath];
    // A path whose address is gone may still hear SACKs to that address by
    // another interface: they prove nothing of it.
    const bool revives = arrival.GetStatus() != RudpCmtPath::ACTIVE && arrival.MayRevive();
    if (m_sacksSeen && header.GetSequenceNumber() <= m_lastSack)
    {
        if (revives)
        {
            Revive(arrival);
            Schedule();
        }
        return false;
    }
    const bool firstSack = !m_sacksSeen;
    m_sacksSeen = true;
    m_lastSack = header.GetSequenceNumber();
    m_peerWindow = header.GetWindow();
    if (firstSack && m_initialPeerWindow == 0 && header.GetSackBlocks().empty() &&
        m_peerWindow < LargestSegment())
    {
        // The first SACK tells the window, as SCTP's INIT would have:
        // RudpCmtReceiveEngine delivers in-order data at once, so with no gap
        // blocks it holds nothing, and this window is its whole buffer.
        std::ostringstream reason;
        reason << "the receiver's buffer (" << m_peerWindow << " bytes) cannot hold one segment of "
               << LargestSegment() << " bytes: RcvBufSize must be at least SegmentSize";
        Fail(reason.str());
        return false;
    }
    if (revives)
    {
        Revive(arrival);
    }
    return true;
}

void
RudpCmtSendEngine::ProcessSack(const RudpHeader& header, uint32_t arrivalPath)
{
    if (!AdmitSack(header, arrivalPath))
    {
        return;
    }
    // Kept in members, so that a SACK allocates nothing.
    m_flightBefore = m_scoreboard.BytesInFlight(); // RFC 4960 7.2.1/7.2.2
    m_recovery->BeginSack(header);
    const RudpCmtScoreboard::SackDigest& acked = m_scoreboard.ApplySack(header, Simulator::Now());
    m_stats.bytesAcked += acked.cumulativeBytes;
    m_consecutiveTimeouts = 0;
    for (auto& path : m_paths)
    {
        for (const Time& rtt : acked.rttSamples[path->GetIndex()])
        {
            path->SampleRtt(rtt); // only a new measurement sets the RTO anew (ns-2's RttUpdate)
        }
    }
    m_flightAfter = m_scoreboard.BytesInFlight();
    for (auto& path : m_paths)
    {
        AcknowledgeOnPath(*path, acked, header.GetAckNumber());
    }
    const uint32_t marked =
        m_recovery->CountMissingReports(acked, header.HasFlags(RudpHeader::PAIR) ? 2 : 1);
    if (marked > 0)
    {
        m_stats.fastRetransmits += marked;
        ++m_stats.fastRetransmitSacks;
    }
    if (IsComplete())
    {
        StopTimers();
        m_running = false;
        UpdateWindowLimited(m_flightAfter);
        return;
    }
    if (marked > 0)
    {
        SendFastRetransmission();
    }
    Schedule();
    if (acked.cumulativeBytes > 0 && !m_acknowledged.IsNull())
    {
        m_acknowledged(); // last: the socket's application may write more from here
    }
}

void
RudpCmtSendEngine::AcknowledgeOnPath(RudpCmtPath& path,
                                     const RudpCmtScoreboard::SackDigest& acked,
                                     SequenceNumber32 cum)
{
    const uint32_t index = path.GetIndex();
    m_recovery->Exit(index, cum);
    if (m_recovery->RestartsTimer(index) && m_flightAfter[index] > 0)
    {
        path.GetRtoTimer()->Restart();
    }
    if (acked.bytesNew[index] == 0)
    {
        return;
    }
    path.ResetTimeouts();
    path.Acknowledged(acked.bytesNew[index]);
    if (m_recovery->Grows(index, acked))
    {
        GrowWindow(path, acked.bytesNew[index], m_flightBefore[index]);
    }
    if (m_flightAfter[index] == 0)
    {
        path.GetRtoTimer()->Cancel();
        path.AllAcknowledged();
    }
    else if (acked.oldestAcked[index])
    {
        // RFC 4960 6.3.2 R3: only the earliest outstanding segment's
        // acknowledgment restarts the timer, or a lost resend would never
        // time out while later data keeps being acknowledged.
        path.GetRtoTimer()->Restart();
    }
}

void
RudpCmtSendEngine::SendFastRetransmission()
{
    if (m_scheduler.RoutesResends())
    {
        // The scheduler decides where a resend goes before it leaves at once.
        RudpCmtBuffers buffers;
        PathViews(buffers, m_pathViews);
        m_scheduler.Begin(m_pathViews, buffers);
        RouteResends();
    }
    // The earliest segment marked whose path is active: one packet.
    const RudpTxBuffer::Segment* earliest = nullptr;
    for (const auto& path : m_paths)
    {
        const RudpTxBuffer::Segment* lost =
            CarriesData(*path) ? m_scoreboard.FirstLost(path->GetIndex()) : nullptr;
        earliest = lost && (!earliest || lost->seq < earliest->seq) ? lost : earliest;
    }
    if (!earliest)
    {
        return;
    }
    // Only the receiver's window binds it: the segment's bytes are kept
    // there while it waits (RudpTxBuffer::BytesOutstanding).
    RudpCmtPath& path = *m_paths[m_scoreboard.PathOf(*earliest)];
    RudpTxBuffer::SendRequest request;
    request.length = earliest->length;
    request.resend = true;
    request.inFlight = 0;
    request.congestionWindow = earliest->length;
    request.receiverWindow = m_peerWindow;
    if (m_scoreboard.Buffer().MayTransmit(request, RudpTxBuffer::PROBE_NOTHING_OUTSTANDING))
    {
        NS_LOG_LOGIC("fast retransmission of " << earliest->seq << " on path " << path.GetIndex()
                                               << ", whatever its cwnd");
        SendSegment(path, *earliest);
    }
}

void
RudpCmtSendEngine::MarkForRetransmission(const RudpTxBuffer::Segment& segment)
{
    if (!m_scoreboard.MarkLost(segment))
    {
        return;
    }
    RudpCmtScoreboard::Record& record = m_scoreboard.RecordOf(segment);
    const uint32_t original = record.GetPath();
    m_scoreboard.Move(segment, RetransmissionPath(original));
    if (record.GetPath() != original)
    {
        m_recovery->Left(original);
    }
}

void
RudpCmtSendEngine::RehomeFromFailedPaths()
{
    m_scoreboard.ForEach(
        [this](const RudpTxBuffer::Segment& segment, RudpCmtScoreboard::Record& record) {
            if (segment.lost && !CarriesData(*m_paths[record.GetPath()]))
            {
                m_recovery->Left(record.GetPath());
                m_scoreboard.Move(segment, RetransmissionPath(record.GetPath()));
            }
        });
}

uint32_t
RudpCmtSendEngine::RetransmissionPath(uint32_t original) const
{
    auto better = [this](uint32_t a, uint32_t b) {
        const Ptr<const RudpSenderState> x = m_paths[a]->GetState();
        const Ptr<const RudpSenderState> y = m_paths[b]->GetState();
        if (m_rtxPolicy == RTX_SSTHRESH && x->m_ssThresh != y->m_ssThresh)
        {
            return x->m_ssThresh > y->m_ssThresh;
        }
        if (m_rtxPolicy == RTX_LOSSRATE && m_paths[a]->GetLossRate() != m_paths[b]->GetLossRate())
        {
            return m_paths[a]->GetLossRate() < m_paths[b]->GetLossRate();
        }
        return x->m_cWnd > y->m_cWnd;
    };
    const bool originalUsable = CarriesData(*m_paths[original]);
    if ((m_rtxPolicy == RTX_SAME || m_rtxPolicy == RTX_ASAP) && originalUsable)
    {
        return original;
    }
    std::optional<uint32_t> best;
    for (const auto& path : m_paths)
    {
        if (CarriesData(*path) && (!best || better(path->GetIndex(), *best)))
        {
            best = path->GetIndex();
        }
    }
    return best.value_or(original);
}

void
RudpCmtSendEngine::OnTimeout(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    RudpCmtPath& path = *m_paths[index];
    if (!m_running ||
        (m_scoreboard.BytesInFlight()[index] == 0 && path.GetStatus() == RudpCmtPath::ACTIVE))
    {
        return;
    }
    if (path.GetStatus() == RudpCmtPath::UNCONFIRMED)
    {
        // Not the association's error (RFC 9260 8.3): an address may be
        // announced that does not answer.
        path.GetRtoTimer()->Backoff();
        SendProbe(path);
        path.GetRtoTimer()->Cancel();
        path.GetRtoTimer()->Restart();
        return;
    }
    ++m_stats.timeouts;
    path.NoteTimeout();
    if (m_associationMaxRetrans > 0 && ++m_consecutiveTimeouts > m_associationMaxRetrans)
    {
        std::ostringstream reason;
        reason << "no path answered in " << m_consecutiveTimeouts
               << " timeouts in a row (AssociationMaxRetrans " << m_associationMaxRetrans << ")";
        Fail(reason.str());
        return;
    }
    path.GetRtoTimer()->Backoff();
    path.StopIdleDecay();
    const uint32_t position = CouplingView(path.GetIndex());
    const std::vector<RudpCmtCoupling::Path>& view = m_couplingView;
    path.Collapse(m_coupling->TimeoutReduction(view, position));
    MarkUnresponsive(path);
    m_recovery->Timeout(index); // once the status says where its segments go
    if (path.GetStatus() != RudpCmtPath::ACTIVE)
    {
        // Segments pinned to it (RTX-SAME, or marked lost at an earlier
        // timeout) would never be served again.
        RehomeFromFailedPaths();
        SendProbe(path);
    }
    path.GetRtoTimer()->Cancel();
    path.GetRtoTimer()->Restart();
    Schedule();
}

void
RudpCmtSendEngine::LocalAddressDown(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    RudpCmtPath& path = *m_paths.at(index);
    if (!m_running || path.GetStatus() == RudpCmtPath::REMOVED)
    {
        return;
    }
    NS_LOG_INFO("path " << index << " lost its local address " << path.GetLocal());
    path.SetLocalUp(false);
    if (path.GetStatus() != RudpCmtPath::UNCONFIRMED)
    {
        path.SetStatus(RudpCmtPath::FAILED);
    }
    m_recovery->Timeout(index); // what it carried left with the interface
    RehomeFromFailedPaths();
    path.StopIdleDecay();
    path.GetRtoTimer()->Cancel(); // nothing to probe it with: its address is gone
    Schedule();
}

void
RudpCmtSendEngine::LocalAddressUp(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    RudpCmtPath& path = *m_paths.at(index);
    path.SetLocalUp(true);
    if (!m_running || path.GetStatus() == RudpCmtPath::ACTIVE ||
        path.GetStatus() == RudpCmtPath::REMOVED)
    {
        return;
    }
    // Its SACK revives it (AdmitSack); unanswered, its timer probes again.
    path.GetRtoTimer()->ResetBackoff();
    SendProbe(path);
    path.GetRtoTimer()->Cancel();
    path.GetRtoTimer()->Restart();
}

void
RudpCmtSendEngine::MarkUnresponsive(RudpCmtPath& path)
{
    if (path.GetConsecutiveTimeouts() > m_pathMaxRetrans)
    {
        NS_LOG_INFO("path " << path.GetIndex() << " failed after " << path.GetConsecutiveTimeouts()
                            << " timeouts or unanswered heartbeats");
        path.SetStatus(RudpCmtPath::FAILED);
    }
    else if (m_cmtPf && path.GetConsecutiveTimeouts() == 1)
    {
        NS_LOG_INFO("path " << path.GetIndex() << " is potentially failed (CMT-PF)");
        path.SetStatus(RudpCmtPath::POTENTIALLY_FAILED);
    }
}

void
RudpCmtSendEngine::UpdateWindowLimited(const std::vector<uint32_t>& inFlight)
{
    bool roomOnAPath = false;
    for (const auto& path : m_paths)
    {
        // Whether the path's window admits a segment (FillPath).
        const uint32_t flight = inFlight[path->GetIndex()];
        const bool admits = path->WindowFor(flight, m_segmentSize) >= flight + m_segmentSize;
        roomOnAPath = roomOnAPath || (CarriesData(*path) && admits);
    }
    const bool dataWaiting = UnsentBytes() > 0 || m_scoreboard.AnyLost();
    const uint32_t outstanding = m_scoreboard.Buffer().BytesOutstanding();
    const bool limited = m_running && dataWaiting && roomOnAPath && outstanding > 0 &&
                         outstanding + m_segmentSize > m_peerWindow;
    if (limited && !m_windowLimited)
    {
        m_windowLimitedSince = Simulator::Now();
    }
    else if (!limited && m_windowLimited)
    {
        m_windowLimitedTotal += Simulator::Now() - m_windowLimitedSince;
    }
    m_windowLimited = limited;
}

void
RudpCmtSendEngine::NotifyDataDropped(Ptr<const Packet> packet)
{
    RudpCmtTransmissionTag tag;
    if (!m_modelAssumptions || !m_running || !packet->PeekPacketTag(tag))
    {
        return;
    }
    NS_LOG_FUNCTION(this << tag.GetSequence() << tag.GetTransmission());
    const RudpTxBuffer::Segment* dropped = m_scoreboard.Find(tag.GetSequence());
    if (!dropped || dropped->txCount != tag.GetTransmission())
    {
        return;
    }
    // The model: the loss is known one RTT after the segment was sent.
    // The RTT is the sender's own estimate of the path's (before its
    // first sample: twice the time the packet took to where it was lost).
    const RudpCmtPath& path = *m_paths[m_scoreboard.PathOf(*dropped)];
    const Time now = Simulator::Now();
    Time rtt = path.GetRttEstimator()->GetEstimate();
    if (path.GetRttEstimator()->GetNSamples() == 0)
    {
        rtt = 2 * (now - dropped->lastTx);
    }
    const Time known = std::max(dropped->lastTx + rtt, now);
    ++m_stats.oracleLosses;
    Simulator::Schedule(known - now,
                        &RudpCmtSendEngine::OracleDetect,
                        this,
                        dropped->seq,
                        dropped->txCount);
}

void
RudpCmtSendEngine::OracleDetect(SequenceNumber32 seq, uint32_t transmission)
{
    NS_LOG_FUNCTION(this << seq << transmission);
    const RudpTxBuffer::Segment* segment = m_running ? m_scoreboard.Find(seq) : nullptr;
    if (!segment)
    {
        return;
    }
    const uint32_t original = m_scoreboard.PathOf(*segment);
    if (!m_recovery->OracleLoss(*segment, transmission))
    {
        return;
    }
    ++m_stats.fastRetransmits;
    ++m_stats.fastRetransmitSacks; // the model's losses come one at a time
    if (m_scoreboard.PathOf(*segment) != original)
    {
        RetimeAfterMove(*m_paths[original]);
    }
    Schedule();
}

} // namespace ns3
