/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_RX_BUFFER_H
#define RUDP_RX_BUFFER_H

#include "rudp-header.h"

#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/sequence-number.h"

#include <deque>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-socket
 * \brief The receiver's bounded buffer: in-order bytes the application has
 * not read yet, and segments that arrived ahead of a gap.
 *
 * Both count against one capacity, as in SCTP: the advertised window is the
 * free space, so out-of-order data waiting for a retransmission closes the
 * window (receive-buffer blocking).
 *
 * Only data inside the window is kept: between RCV.NXT and RCV.NXT plus the
 * capacity less the unread in-order bytes, the right edge of every window
 * this buffer has advertised (it never moves left). Anything beyond it is
 * refused (OUT_OF_WINDOW), so that no sequence number can be held more than
 * the capacity (below 2^31) ahead of RCV.NXT and the wrap-around comparisons
 * that order the buffer stay consistent.
 */
class RudpRxBuffer : public Object
{
  public:
    /// What Add did with a segment.
    enum AddResult
    {
        IN_ORDER,      ///< accepted at the next expected sequence number
        OUT_OF_ORDER,  ///< ahead of a gap: buffered if allowed, else discarded
        DUPLICATE,     ///< every byte was already received
        NO_SPACE,      ///< does not fit in the free space: discarded (a safeguard: a
                       ///< segment inside the window always fits)
        OUT_OF_WINDOW, ///< reaches beyond the advertised window's right edge: discarded
    };

    /// Largest capacity: sequence numbers in the window must compare correctly.
    static constexpr uint32_t MAX_CAPACITY = 1u << 30;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \param bytes capacity shared by in-order and out-of-order bytes (1..MAX_CAPACITY)
    void SetCapacity(uint32_t bytes);
    uint32_t GetCapacity() const;

    /// \param seq the next sequence number expected (RCV.NXT)
    void SetNextRxSequence(SequenceNumber32 seq);
    /// \return the next sequence number expected (RCV.NXT)
    SequenceNumber32 NextRxSequence() const;
    /**
     * \brief Advances RCV.NXT past a FIN (which carries no bytes) that
     * arrived at RCV.NXT.
     * \return false, changing nothing, if data waits beyond the FIN: the
     *         peer's stream cannot both end there and go on
     */
    bool AcceptFin();

    /**
     * \brief Offers a segment's payload.
     * \param payload the bytes
     * \param seq the sequence number of the first byte
     * \param keepOutOfOrder buffer segments ahead of a gap (selective repeat)
     * \return what happened to it
     */
    AddResult Add(Ptr<Packet> payload, SequenceNumber32 seq, bool keepOutOfOrder);

    /// \return in-order bytes the application can read
    uint32_t Available() const;
    /// \return bytes held, in order and out of order
    uint32_t Occupancy() const;
    /// \return capacity minus occupancy: the window to advertise
    uint32_t FreeSpace() const;
    /**
     * \brief Receiver SWS avoidance (RFC 1122 4.2.3.3, RFC 9260 6.2): a read
     * reopened the window enough to announce it at once, by min(MSS, half
     * the buffer).
     * \param freeBefore FreeSpace() before the read
     * \param mss the peer's segment size
     * \return true if the window crossed that step
     */
    bool WindowReopened(uint32_t freeBefore, uint32_t mss) const;
    /// \return true if segments wait behind a gap
    bool HasGap() const;
    /**
     * \return the window's right edge: one past the last sequence number
     *         the buffer accepts
     */
    SequenceNumber32 WindowEnd() const;

    /**
     * \brief Removes up to \p maxSize in-order bytes: at most one received
     * segment's worth, so a reader calls it until it returns nullptr.
     * \return the bytes, or nullptr if none are available
     */
    Ptr<Packet> Extract(uint32_t maxSize);

    /**
     * \param maxBlocks at most this many blocks
     * \return the received blocks beyond the gap, lowest first (SCTP's gap
     *         ack blocks)
     */
    std::vector<RudpHeader::SackBlock> GetSackBlocks(uint32_t maxBlocks) const;

    /**
     * \param maxBlocks at most this many blocks (at most MAX_SACK_BLOCKS)
     * \return the received blocks beyond the gap in RFC 2018's order: first
     *         the one holding the latest arrival, then the others by how
     *         recently they grew, so that a sender that sees a few blocks per
     *         ACK still learns of every arrival
     */
    std::vector<RudpHeader::SackBlock> GetRecentSackBlocks(uint32_t maxBlocks) const;

    /**
     * \brief Whether the buffer keeps the order its blocks grew in, which
     * only GetRecentSackBlocks needs (the default: it does). A receiver
     * that lists its blocks lowest first (GetSackBlocks, SCTP's) turns it
     * off before the first segment: the order costs a look-up per block on
     * every segment that arrives out of order.
     * \param track false: GetRecentSackBlocks may not be called
     */
    void SetTrackRecent(bool track);

  private:
    /// Records that [seq, end) arrived ahead of the gap.
    void AddBlock(SequenceNumber32 seq, SequenceNumber32 end);
    /// \return the block holding \p seq, or the end of m_blocks
    std::map<SequenceNumber32, SequenceNumber32>::const_iterator FindBlock(
        SequenceNumber32 seq) const;

    uint32_t m_capacity{131072};
    SequenceNumber32 m_nextRx{0};
    std::deque<Ptr<Packet>> m_inOrder;                     ///< unread, oldest first
    uint32_t m_inOrderBytes{0};                            ///< bytes in m_inOrder
    std::map<SequenceNumber32, Ptr<Packet>> m_outOfOrder;  ///< by first sequence number
    uint32_t m_outOfOrderBytes{0};                         ///< bytes in m_outOfOrder
    std::map<SequenceNumber32, SequenceNumber32> m_blocks; ///< contiguous runs of
                                                           ///< m_outOfOrder: left -> right
    std::deque<SequenceNumber32> m_recent; ///< latest arrivals, one per block, newest first
    bool m_trackRecent{true};              ///< m_recent is kept (SetTrackRecent)
};

} // namespace ns3

#endif /* RUDP_RX_BUFFER_H */
