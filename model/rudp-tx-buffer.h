/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_TX_BUFFER_H
#define RUDP_TX_BUFFER_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/sequence-number.h"

#include <deque>
#include <functional>
#include <optional>
#include <utility>

namespace ns3
{

/**
 * \ingroup rudp-socket
 * \brief The sender's buffer: application bytes not yet sent, and the
 * segments sent and not yet acknowledged, with their SACK/loss scoreboard.
 *
 * A segment keeps the boundaries it was first sent with, so that a
 * retransmission resends exactly the same bytes. Payloads are fragments of
 * the application's packets: no payload byte is copied to form a segment.
 */
class RudpTxBuffer : public Object
{
  public:
    /// A segment sent at least once and not yet cumulatively acknowledged.
    struct Segment
    {
        SequenceNumber32 seq; ///< first sequence number
        uint32_t length{0};   ///< payload bytes
        Ptr<Packet> payload;  ///< the payload (shared, never modified)
        Time lastTx;          ///< time of the latest (re)transmission
        uint32_t txCount{0};  ///< transmissions so far
        uint64_t txOrder{0};  ///< number of its latest transmission in the buffer
        bool sacked{false};   ///< reported received by a SACK block
        bool lost{false};     ///< deemed lost: waits for retransmission
        /// If SACKed: this segment and at least the next sackedRun - 1 are all
        /// SACKed (kept by the buffer, so that a SACK block skips a run of
        /// SACKed segments in one step)
        uint32_t sackedRun{0};

        /// \return one past the last sequence number
        SequenceNumber32 End() const
        {
            return seq + length;
        }

        /// \return true if the segment counts as in flight
        bool InFlight() const
        {
            return !sacked && !lost;
        }

        /**
         * \brief Karn's rule (RFC 6298 section 3, RFC 4960 6.3.1 C5): whether
         * acknowledging the segment now measures the RTT. Only a segment sent
         * once does, and not one acknowledged before (a SACKed segment's
         * cumulative ACK waited for a hole below it).
         * \param lostTimes whether one marked lost but not resent does:
         *        RudpSocket's does, as ns-3's TCP times a segment until it is
         *        resent; CMT's does not, as ns-2's SCTP times no chunk marked
         *        for retransmission
         * \return true if the acknowledgment is an RTT sample
         */
        bool TimesRtt(bool lostTimes) const
        {
            return txCount == 1 && !sacked && (lostTimes || !lost);
        }
    };

    /// What a cumulative ACK acknowledged.
    struct AckResult
    {
        uint32_t segments{0};    ///< segments fully acknowledged
        uint32_t bytes{0};       ///< bytes acknowledged
        std::optional<Time> rtt; ///< RTT sample from the latest segment acknowledged
                                 ///< that was sent once and not SACKed before
        uint32_t lastTxCount{0}; ///< transmissions of the last segment fully acknowledged
    };

    /// Called with a segment, as it was, before an acknowledgment changes it.
    using SegmentCallback = std::function<void(const Segment&)>;

    /**
     * When a segment may go although the windows are too small: without it,
     * a sender whose windows closed would wait for an ACK that never comes.
     */
    enum ProbeRule
    {
        /// TCP's: with nothing in flight and the receiver's window open, one
        /// segment goes whatever the windows (a resend cannot be cut to fit).
        PROBE_NOTHING_IN_FLIGHT,
        /// SCTP's (RFC 4960 6.1 rule A): with nothing else outstanding, one
        /// segment goes whatever the receiver's window, if cwnd allows it.
        PROBE_NOTHING_OUTSTANDING,
    };

    /// A segment a sender would send next, and the windows it must fit.
    struct SendRequest
    {
        uint32_t length{0};           ///< its payload bytes
        bool resend{false};           ///< a retransmission (its bytes are outstanding)
        uint32_t inFlight{0};         ///< bytes in flight under the congestion window
        uint32_t congestionWindow{0}; ///< bytes the congestion window allows in flight
        uint32_t receiverWindow{0};   ///< the receiver's advertised window (bytes)
        bool worthSending{true};      ///< false: a segment cut so small that the
                                      ///< silly window syndrome rules it out
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \param bytes capacity for unsent plus unacknowledged bytes
    void SetMaxBufferSize(uint32_t bytes);
    /// \return the capacity for unsent plus unacknowledged bytes
    uint32_t GetMaxBufferSize() const;

    /// \param seq the sequence number of the first byte the application will send
    void SetHeadSequence(SequenceNumber32 seq);
    /// \return the oldest unacknowledged sequence number (SND.UNA)
    SequenceNumber32 HeadSequence() const;
    /// \return the sequence number of the next new byte to send
    SequenceNumber32 HighTxMark() const;

    /**
     * \brief Queues application bytes.
     * \param p the bytes
     * \return false, queueing nothing, if they do not fit
     */
    bool Add(Ptr<Packet> p);
    /// \return bytes that Add can still take
    uint32_t Available() const;
    /// \return bytes queued and not yet sent
    uint32_t UnsentBytes() const;
    /// \return true if nothing is unsent or unacknowledged
    bool IsEmpty() const;

    /**
     * \brief The send gate of both engines (RudpSocket, RudpCmtSender):
     * whether \p request fits the congestion window, and the receiver's
     * window with every byte not yet known received counted -- those in
     * flight and those waiting for retransmission, so that new data never
     * takes the room a hole's filler needs -- or may go as a probe by
     * \p rule.
     * \param request the segment and the windows
     * \param rule when a segment may go anyway
     * \return true if it may be sent now
     */
    bool MayTransmit(const SendRequest& request, ProbeRule rule) const;

    /**
     * \brief Cuts the next new segment from the unsent bytes.
     * \param maxLength at most this many bytes (at least 1)
     * \return the new segment, not yet marked transmitted
     */
    const Segment& NewSegment(uint32_t maxLength);

    /**
     * \brief Records a (re)transmission of \p segment at \p now.
     * \param segment a segment of this buffer
     * \param now the current time
     */
    void MarkTransmitted(const Segment& segment, Time now);

    /**
     * \brief Drops what a cumulative ACK acknowledges.
     * \param ack the ACK number (all bytes before it were received)
     * \param now the current time, for the RTT sample
     * \param onAcked called for each whole segment acknowledged, before it goes
     * \return what was acknowledged
     */
    AckResult DiscardUpTo(SequenceNumber32 ack, Time now, const SegmentCallback& onAcked = {});

    /**
     * \brief Applies a SACK block [left, right).
     * \param now the time the SACK arrived
     * \param onSacked called for each segment it newly SACKs, before the change
     * \return true if a segment became SACKed
     */
    bool MarkSacked(SequenceNumber32 left,
                    SequenceNumber32 right,
                    Time now,
                    const SegmentCallback& onSacked = {});
    /**
     * \brief Marks one segment lost (it waits for retransmission).
     * \param segment a segment of this buffer
     * \return false if it was SACKed or lost already
     */
    bool MarkLost(const Segment& segment);
    /**
     * \brief Marks lost every segment in flight that at least \p threshold
     * later transmissions overtook: the latest transmission known received
     * (SACKed or acknowledged) came \p threshold or more transmissions after
     * it. RFC 6675's loss rule counted in transmission order rather than in
     * sequence order, so a lost retransmission is found as a first loss is.
     * A resent segment reported received sooner than the minimum RTT after
     * its latest transmission was received from an earlier one, and does
     * not count as that transmission's delivery (RFC 8985, section 6.2):
     * otherwise a late original would make every segment sent before the
     * retransmission look overtaken.
     * \param threshold the duplicate-ACK threshold (at least 1)
     * \return how many segments it marked
     */
    uint32_t MarkOvertakenLost(uint32_t threshold);
    /// Marks every un-SACKed segment lost (go back N); \return how many
    uint32_t MarkAllLost();
    /// \return the lowest segment waiting for retransmission, or nullptr
    const Segment* FirstLost() const;

    /// \return bytes of segments in flight (sent, not SACKed, not deemed lost)
    uint32_t BytesInFlight() const;
    /**
     * \return bytes sent and not yet known received (in flight or waiting to
     *         be resent): what the receiver's window must still make room for
     */
    uint32_t BytesOutstanding() const;
    /**
     * \return the segments sent and not cumulatively acknowledged, lowest
     *         first, to read: they change only through the methods above
     *         (a reference to one stays valid until it is acknowledged)
     */
    const std::deque<Segment>& GetSegments() const;

  private:
    /// \return \p segment, one of this buffer's, to change
    static Segment& Mutable(const Segment& segment);
    /// Takes \p segment out of the in-flight count if it was in it.
    void LeaveFlight(const Segment& segment);
    /// Takes \p segment off the lost list if it was on it.
    void ClearLost(Segment& segment);
    /// \return the position in m_sent of the first segment ending after \p seq
    size_t IndexAfter(SequenceNumber32 seq) const;
    /// \return the position of the first segment not SACKed at or after \p index
    size_t SkipSacked(size_t index);
    /// A transmission: its number (txOrder) and its segment's first sequence number.
    using Transmission = std::pair<uint64_t, SequenceNumber32>;
    /// \return the segment whose latest transmission \p transmission is, if
    ///         it is in flight; else nullptr
    Segment* StillInFlight(const Transmission& transmission);
    /// Drops the oldest transmissions that are no longer in flight.
    void ForgetLanded();
    /// Advances the latest transmission known received by \p segment's,
    /// unless the report may be of an earlier transmission of it.
    void NoteDelivered(const Segment& segment, Time now);

    uint32_t m_maxBufferSize{131072}; ///< capacity: unsent plus unacknowledged bytes
    SequenceNumber32 m_head{0};       ///< SND.UNA
    SequenceNumber32 m_highTx{0};     ///< next new sequence number
    std::deque<Segment> m_sent;       ///< sent, unacknowledged
    /// Transmissions in the order sent, (txOrder, first sequence number): the
    /// loss rule's index, oldest first. One may be stale (its segment since
    /// acknowledged, SACKed, lost or resent); each in-flight segment's latest
    /// is here.
    std::deque<Transmission> m_transmissions;
    std::deque<Ptr<Packet>> m_unsent; ///< application packets, oldest first
    uint32_t m_unsentOffset{0};       ///< bytes of m_unsent.front() already cut
    uint32_t m_unsentBytes{0};        ///< bytes in m_unsent not yet cut
    uint32_t m_sentBytes{0};          ///< bytes in m_sent
    uint32_t m_bytesInFlight{0};      ///< bytes of in-flight segments
    uint32_t m_lostCount{0};          ///< segments marked lost
    uint32_t m_lostBytes{0};          ///< bytes of segments marked lost
    uint64_t m_txOrder{0};            ///< transmissions so far
    uint64_t m_deliveredOrder{0};     ///< latest transmission known received
    Time m_minRtt{Time::Max()};       ///< least time from a first transmission to its report
};

inline bool
RudpTxBuffer::MayTransmit(const SendRequest& request, ProbeRule rule) const
{
    // Inline: called for every segment either engine sends.
    const uint32_t others = BytesOutstanding() - (request.resend ? request.length : 0);
    const bool congestion = request.inFlight + request.length <= request.congestionWindow;
    const bool receiver = others + request.length <= request.receiverWindow;
    switch (rule)
    {
    case PROBE_NOTHING_IN_FLIGHT:
        return (congestion && receiver && request.worthSending) ||
               (request.inFlight == 0 && request.receiverWindow > 0);
    case PROBE_NOTHING_OUTSTANDING:
        return congestion && (receiver || others == 0);
    }
    return false;
}

inline uint32_t
RudpTxBuffer::BytesOutstanding() const
{
    return m_bytesInFlight + m_lostBytes;
}

} // namespace ns3

#endif /* RUDP_TX_BUFFER_H */
