/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_RECEIVE_ENGINE_H
#define RUDP_CMT_RECEIVE_ENGINE_H

#include "rudp-deadline.h"
#include "rudp-header.h"
#include "rudp-rx-buffer.h"

#include "ns3/address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <memory>

namespace ns3
{

class Socket;

/**
 * \ingroup rudp-cmt
 * \brief The receiving end of a concurrent-multipath association: one
 * bounded receive buffer shared by every path, in-order delivery, SACKs.
 *
 * Segments from every path go into one RudpRxBuffer of RcvBufSize bytes;
 * its free space is the window advertised in every SACK, so segments that
 * arrive ahead of a gap — from a faster path, waiting for a slower one —
 * fill the buffer and close the window: receive-buffer blocking (the
 * sender measures it: RudpCmtSendEngine::Stats::receiveWindowLimitedTime).
 * In-order bytes wait in the buffer for Read (a RudpCmtSocket's application
 * reads them; unread, they hold the advertised window down, as TCP's do),
 * or go at once to a consumer (SetConsumer: the RudpCmtReceiver
 * application, which checks them against the sender's generated content).
 *
 * A SACK (cumulative ACK, window, up to 16 gap blocks) goes back on the path
 * the acknowledged segment came from. With DelayedAck every second segment is
 * acknowledged (or after DelAckTimeout); SCTP acknowledges at once when a
 * gap appears, CMT's DAC keeps delaying through reordering and marks a SACK
 * that answers two segments (RudpHeader::PAIR). A segment that fills (part
 * of) a gap is acknowledged at once (SackOnGapFill, RFC 4960 6.7), unless
 * that is off, as ns-2.31's DAC receiver has it.
 *
 * A HEARTBEAT (RFC 9260 8.3) is answered at once with a HEARTBEAT ACK to
 * the address it came from, echoing its information byte for byte: one
 * answer per heartbeat, never larger than it (a heartbeat whose information
 * is not RudpCmtHeartbeatInfo::SIZE bytes is dropped and counted).
 */
class RudpCmtReceiveEngine : public Object
{
  public:
    /// What the association has received so far.
    struct Stats
    {
        uint64_t deliveredBytes{0}; ///< in-order bytes delivered (read, or consumed)
        uint32_t maxOccupancy{0};   ///< the largest buffer occupancy seen (bytes)
        /// data segments dropped because the buffer had no room for them: beyond
        /// the advertised window (a probe of a closed window, or a bogus sequence number)
        uint64_t droppedForSpace{0};
        /// datagrams dropped: bad checksum, malformed, wrong length or checksum kind
        uint64_t checksumErrors{0};
        uint64_t heartbeatsAnswered{0}; ///< HEARTBEATs answered with a HEARTBEAT ACK
        /// HEARTBEATs not answered: their information is not RudpCmtHeartbeatInfo::SIZE bytes
        uint64_t heartbeatsDropped{0};
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpCmtReceiveEngine();
    ~RudpCmtReceiveEngine() override;

    /**
     * \brief Hands in-order bytes to \p consumer as soon as they are in
     * order, instead of keeping them for Read. Call before Attach.
     * \param consumer takes the bytes
     */
    void SetConsumer(Callback<void, Ptr<const Packet>> consumer);
    /**
     * \brief Starts the association: SACKs go out on \p udp, whose
     * datagrams the owner hands to ReceiveDatagram or Receive. Call once.
     * \param udp the association's UDP socket
     * \param dataReady called when in-order bytes become readable (may be null)
     */
    void Attach(Ptr<Socket> udp, Callback<void> dataReady);
    /**
     * \brief Takes a datagram from the peer: decoded, it goes to Receive;
     * one that does not decode is dropped and counted (Stats::checksumErrors).
     * \param packet the datagram
     * \param from where it came from
     */
    void ReceiveDatagram(Ptr<Packet> packet, const Address& from);
    /**
     * \brief Takes a segment from the peer (data, or a probe).
     * \param header its header (decoded, checksum checked)
     * \param payload its data
     * \param from where it came from: the SACK goes back there
     * \param local the address it came to (any if unknown): with
     *        SetRepliesFromArrival, the SACK leaves from there
     */
    void Receive(const RudpHeader& header,
                 Ptr<Packet> payload,
                 const Address& from,
                 Ipv4Address local = Ipv4Address::GetAny());
    /**
     * \brief Makes SACKs and HEARTBEAT ACKs leave from the address their
     * segment came to (a RudpPathTag, not bound: the node's routing picks
     * the route, RudpPathRouting the source), so that a multi-homed end
     * answers each path from its own address, as a TCP connection answers
     * from its own; otherwise the node's routing picks the source address,
     * the address of the interface it routes by, and a peer that tells
     * paths apart by their addresses takes one path's SACKs for another's.
     * The node needs RudpPathRouting (RudpPathRouting::Install).
     * \param fromArrival whether to
     */
    void SetRepliesFromArrival(bool fromArrival);
    /**
     * \brief Takes in-order bytes out of the buffer, and
     * announces the window at once if that reopened it
     * (RudpRxBuffer::WindowReopened).
     * \param maxSize the most bytes to take
     * \param mss the sender's segment size
     * \return the bytes, or nullptr if none is readable
     */
    Ptr<Packet> Read(uint32_t maxSize, uint32_t mss);
    /// \return in-order bytes Read can take now
    uint32_t GetRxAvailable() const;
    /// \return the sequence number of the next byte expected in order
    SequenceNumber32 GetNextRxSequence() const;
    /**
     * \brief Sends a SACK to \p to now (the association's set-up, or a
     * window that reopened); later SACKs go where data comes from.
     * \param to the peer's address on a path
     */
    void Acknowledge(const Address& to);
    /// The association is over; no delayed SACK fires.
    void Halt();

    /// \return what the association has received so far
    Stats GetStats() const;
    /// \return the buffer's capacity (bytes)
    uint32_t GetCapacity() const;

  protected:
    void DoDispose() override;

  private:
    /// Hands the in-order data to the consumer, if there is one.
    void Deliver();
    /// Sends a SACK to where the latest segment came from.
    void SendSack();
    /**
     * \brief Answers a HEARTBEAT: its information echoed to \p from.
     * \param info the heartbeat's payload
     * \param from where it came from
     */
    void AnswerHeartbeat(Ptr<const Packet> info, const Address& from, Ipv4Address local);
    /**
     * \brief Sends \p reply to \p to, from \p local if SetRepliesFromArrival.
     * \param reply a SACK or HEARTBEAT ACK
     * \param to the peer's address
     * \param local the address the segment answered came to, or any
     */
    void SendReply(Ptr<Packet> reply, const Address& to, Ipv4Address local);
    /// \param count DelAckCount: 2 delays SACKs, 1 does not
    void SetDelAckCount(uint32_t count);
    /// \return DelAckCount
    uint32_t GetDelAckCount() const;

    uint32_t m_capacity{1u << 28};           ///< RcvBufSize (bytes)
    bool m_delayedAck{true};                 ///< DelAckCount 2: a SACK every second segment
    Time m_delAckTimeout{MilliSeconds(200)}; ///< DelAckTimeout
    bool m_dac{true};                        ///< Dac
    bool m_sackOnGapFill{true};              ///< SackOnGapFill
    RudpHeader::ChecksumKind m_checksumKind{RudpHeader::CHECKSUM_INTERNET16}; ///< Checksum

    Ptr<Socket> m_socket;                         ///< the UDP socket
    Ptr<RudpRxBuffer> m_buffer;                   ///< the association's receive buffer
    Callback<void, Ptr<const Packet>> m_consumer; ///< takes in-order bytes at once (SetConsumer)
    Callback<void> m_dataReady;                   ///< in-order bytes became readable
    Address m_lastFrom;      ///< where the latest segment came from: the SACK goes back there
    Ipv4Address m_lastLocal; ///< where it came to (any if unknown)
    bool m_repliesFromArrival{false};     ///< SetRepliesFromArrival
    uint32_t m_unacked{0};                ///< segments since the last SACK
    uint32_t m_sacksSent{0};              ///< numbers the SACKs
    RudpDeadline m_delAck;                ///< the delayed SACK
    Stats m_stats;                        ///< GetStats
    TracedValue<uint32_t> m_occupancy{0}; ///< bytes held (BufferOccupancy)
    SequenceNumber32 m_highestReceived;   ///< end of the highest segment received
};

} // namespace ns3

#endif /* RUDP_CMT_RECEIVE_ENGINE_H */
