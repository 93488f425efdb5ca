/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-receive-engine.h"

#include "rudp-cmt-heartbeat.h"
#include "rudp-cmt-send-engine.h"
#include "rudp-compat.h"
#include "rudp-path-routing.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <limits>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtReceiveEngine");

NS_OBJECT_ENSURE_REGISTERED(RudpCmtReceiveEngine);

TypeId
RudpCmtReceiveEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RudpCmtReceiveEngine")
            .SetParent<Object>()
            .SetGroupName("Rudp")
            .AddConstructor<RudpCmtReceiveEngine>()
            .AddAttribute("RcvBufSize",
                          "The receive buffer shared by all paths (bytes, 1..2^30; seed "
                          "002: 16 KB bounded, 2^28 unbounded). It must hold one of the "
                          "sender's segments, or the sender reports a failure.",
                          UintegerValue(1u << 28),
                          MakeUintegerAccessor(&RudpCmtReceiveEngine::m_capacity),
                          MakeUintegerChecker<uint32_t>(1, RudpRxBuffer::MAX_CAPACITY))
            .AddAttribute("DelAckCount",
                          "In-order segments acknowledged by one SACK: 2 (SCTP's default, "
                          "every second segment) or 1 (every segment), as RudpSocket's and "
                          "TcpSocket's DelAckCount.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&RudpCmtReceiveEngine::SetDelAckCount,
                                               &RudpCmtReceiveEngine::GetDelAckCount),
                          MakeUintegerChecker<uint32_t>(1, 2))
            .AddAttribute("DelAckTimeout",
                          "Longest wait of a delayed SACK (0..10 s).",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&RudpCmtReceiveEngine::m_delAckTimeout),
                          MakeTimeChecker(Seconds(0), Seconds(10)))
            .AddAttribute("Dac",
                          "Delayed ACK for CMT: keep delaying through reordering and mark "
                          "SACKs that answer two segments.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RudpCmtReceiveEngine::m_dac),
                          MakeBooleanChecker())
            .AddAttribute("SackOnGapFill",
                          "Acknowledge at once a segment that fills (part of) a gap, DAC "
                          "or not (RFC 4960 6.7, as TCP's RFC 5681 4.2); ns-2.31's DAC "
                          "receiver delays it.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RudpCmtReceiveEngine::m_sackOnGapFill),
                          MakeBooleanChecker())
            .AddAttribute("Checksum",
                          "The checksum expected and sent: Internet16 (RFC 1071) or Crc32c "
                          "(SCTP's); a segment with the other kind is dropped.",
                          EnumValue(RudpHeader::CHECKSUM_INTERNET16),
                          RUDP_MAKE_ENUM_ACCESSOR(RudpHeader::ChecksumKind,
                                                  &RudpCmtReceiveEngine::m_checksumKind),
                          MakeRudpChecksumKindChecker())
            // Former name (TypeId::DEPRECATED), set only when configured.
            .AddAttribute("DelayedAck",
                          "Deprecated: DelAckCount 2 (true) or 1 (false).",
                          EmptyAttributeValue(),
                          MakeBooleanAccessor(&RudpCmtReceiveEngine::m_delayedAck),
                          MakeBooleanChecker(),
                          TypeId::SupportLevel::DEPRECATED,
                          "use DelAckCount (2: delayed, 1: every segment), as RudpSocket names it")
            .AddTraceSource("BufferOccupancy",
                            "Bytes in the receive buffer: unread plus out of order",
                            MakeTraceSourceAccessor(&RudpCmtReceiveEngine::m_occupancy),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

RudpCmtReceiveEngine::RudpCmtReceiveEngine()
    : m_buffer(CreateObject<RudpRxBuffer>())
{
    m_buffer->SetTrackRecent(false); // SACKs list the blocks lowest first (GetSackBlocks)
    m_delAck.SetFunction(MakeCallback(&RudpCmtReceiveEngine::SendSack, this));
}

RudpCmtReceiveEngine::~RudpCmtReceiveEngine() = default;

void
RudpCmtReceiveEngine::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_socket = nullptr;
    m_consumer = MakeNullCallback<void, Ptr<const Packet>>();
    m_dataReady = MakeNullCallback<void>();
    Object::DoDispose();
}

void
RudpCmtReceiveEngine::SetDelAckCount(uint32_t count)
{
    m_delayedAck = count > 1;
}

uint32_t
RudpCmtReceiveEngine::GetDelAckCount() const
{
    return m_delayedAck ? 2 : 1;
}

RudpCmtReceiveEngine::Stats
RudpCmtReceiveEngine::GetStats() const
{
    return m_stats;
}

uint32_t
RudpCmtReceiveEngine::GetCapacity() const
{
    return m_capacity;
}

void
RudpCmtReceiveEngine::SetConsumer(Callback<void, Ptr<const Packet>> consumer)
{
    m_consumer = consumer;
}

void
RudpCmtReceiveEngine::Attach(Ptr<Socket> udp, Callback<void> dataReady)
{
    NS_LOG_FUNCTION(this << udp);
    NS_ABORT_MSG_IF(m_socket, "RudpCmtReceiveEngine::Attach: once");
    m_dataReady = dataReady;
    m_buffer->SetCapacity(m_capacity);
    m_buffer->SetNextRxSequence(RudpCmtSendEngine::FIRST_SEQUENCE);
    m_highestReceived = RudpCmtSendEngine::FIRST_SEQUENCE;
    m_socket = udp;
}

void
RudpCmtReceiveEngine::Halt()
{
    NS_LOG_FUNCTION(this);
    m_delAck.Cancel();
    m_socket = nullptr;
}

Ptr<Packet>
RudpCmtReceiveEngine::Read(uint32_t maxSize, uint32_t mss)
{
    const uint32_t freeBefore = m_buffer->FreeSpace();
    Ptr<Packet> data = m_buffer->Extract(maxSize);
    if (data)
    {
        m_stats.deliveredBytes += data->GetSize();
        m_occupancy = m_buffer->Occupancy();
        if (m_buffer->WindowReopened(freeBefore, mss))
        {
            SendSack(); // on the path of the latest segment; a no-op once halted
        }
    }
    return data;
}

uint32_t
RudpCmtReceiveEngine::GetRxAvailable() const
{
    return m_buffer->Available();
}

SequenceNumber32
RudpCmtReceiveEngine::GetNextRxSequence() const
{
    return m_buffer->NextRxSequence();
}

void
RudpCmtReceiveEngine::Acknowledge(const Address& to)
{
    m_lastFrom = to;
    m_lastLocal = Ipv4Address::GetAny();
    SendSack();
}

void
RudpCmtReceiveEngine::SetRepliesFromArrival(bool fromArrival)
{
    m_repliesFromArrival = fromArrival;
}

void
RudpCmtReceiveEngine::SendReply(Ptr<Packet> reply, const Address& to, Ipv4Address local)
{
    if (m_repliesFromArrival && local != Ipv4Address::GetAny())
    {
        reply->AddPacketTag(RudpPathTag(local, false));
    }
    m_socket->SendTo(reply, 0, to);
}

void
RudpCmtReceiveEngine::ReceiveDatagram(Ptr<Packet> packet, const Address& from)
{
    NS_LOG_FUNCTION(this << packet);
    RudpHeader header;
    const RudpSegmentCodec::Result decoded =
        RudpSegmentCodec::Decode(packet, m_checksumKind, header);
    if (decoded != RudpSegmentCodec::OK)
    {
        NS_LOG_LOGIC("drops a datagram: " << RudpSegmentCodec::ResultName(decoded));
        ++m_stats.checksumErrors;
        return;
    }
    Receive(header, packet, from); // the payload now
}

void
RudpCmtReceiveEngine::Receive(const RudpHeader& header,
                              Ptr<Packet> packet,
                              const Address& from,
                              Ipv4Address local)
{
    if (!m_socket)
    {
        return;
    }
    if (header.HasFlags(RudpHeader::HEARTBEAT))
    {
        if (!header.HasFlags(RudpHeader::ACK))
        {
            AnswerHeartbeat(packet, from, local); // not data: SACKs still go where data comes from
        }
        return;
    }
    m_lastFrom = from;
    m_lastLocal = local;
    if (packet->GetSize() == 0)
    {
        SendSack(); // a probe: answer on its path
        return;
    }
    const bool hadGap = m_buffer->HasGap();
    const SequenceNumber32 seq = header.GetSequenceNumber();
    const SequenceNumber32 end = seq + packet->GetSize();
    const RudpRxBuffer::AddResult result = m_buffer->Add(packet, seq, true);
    const bool accepted = result == RudpRxBuffer::IN_ORDER || result == RudpRxBuffer::OUT_OF_ORDER;
    // A new segment below the highest one received fills (part of) a gap.
    const bool fillsGap = hadGap && accepted && end <= m_highestReceived;
    if (accepted && end > m_highestReceived)
    {
        m_highestReceived = end;
    }
    if (result == RudpRxBuffer::NO_SPACE || result == RudpRxBuffer::OUT_OF_WINDOW)
    {
        ++m_stats.droppedForSpace;
    }
    Deliver();
    ++m_unacked;
    // SCTP acknowledges at once when a gap opens or closes; DAC keeps
    // delaying through reordering, which is ordinary under CMT.
    const bool reordering = !m_dac && (hadGap || m_buffer->HasGap());
    if (!m_delayedAck || m_unacked >= 2 || reordering || result == RudpRxBuffer::DUPLICATE ||
        (m_sackOnGapFill && fillsGap))
    {
        SendSack();
    }
    else if (!m_delAck.IsRunning())
    {
        m_delAck.Set(m_delAckTimeout);
    }
    if (result == RudpRxBuffer::IN_ORDER && !m_dataReady.IsNull())
    {
        m_dataReady(); // last: the socket's application may read from here
    }
}

void
RudpCmtReceiveEngine::Deliver()
{
    NS_LOG_FUNCTION(this);
    // Without a consumer the bytes wait for the socket's application to Read them.
    while (!m_consumer.IsNull())
    {
        Ptr<Packet> data = m_buffer->Extract(std::numeric_limits<uint32_t>::max());
        if (!data)
        {
            break;
        }
        m_stats.deliveredBytes += data->GetSize();
        m_consumer(data);
    }
    m_occupancy = m_buffer->Occupancy();
    m_stats.maxOccupancy = std::max(m_stats.maxOccupancy, m_occupancy.Get());
}

void
RudpCmtReceiveEngine::AnswerHeartbeat(Ptr<const Packet> info,
                                      const Address& from,
                                      Ipv4Address local)
{
    NS_LOG_FUNCTION(this << from << local);
    if (info->GetSize() != RudpCmtHeartbeatInfo::SIZE)
    {
        ++m_stats.heartbeatsDropped;
        return;
    }
    RudpHeader header;
    header.SetFlags(RudpHeader::HEARTBEAT | RudpHeader::ACK);
    SendReply(RudpSegmentCodec::Encode(header, info, m_checksumKind), from, local);
    ++m_stats.heartbeatsAnswered;
}

void
RudpCmtReceiveEngine::SendSack()
{
    NS_LOG_FUNCTION(this);
    m_delAck.Cancel();
    if (m_lastFrom.IsInvalid() || !m_socket)
    {
        return;
    }
    RudpHeader header;
    // SACKs overtake each other on paths of different delays: numbered, the
    // sender can tell a stale window from a new one.
    header.SetSequenceNumber(SequenceNumber32(m_sacksSent++));
    header.SetAckNumber(m_buffer->NextRxSequence());
    header.SetFlags(RudpHeader::ACK | (m_dac && m_unacked >= 2 ? RudpHeader::PAIR : 0));
    header.SetWindow(m_buffer->FreeSpace());
    header.SetSackBlocks(m_buffer->GetSackBlocks(RudpHeader::MAX_SACK_BLOCKS));
    SendReply(RudpSegmentCodec::Encode(header, Create<Packet>(), m_checksumKind),
              m_lastFrom,
              m_lastLocal);
    m_unacked = 0;
}

} // namespace ns3
