/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_SCOREBOARD_H
#define RUDP_CMT_SCOREBOARD_H

#include "rudp-header.h"
#include "rudp-tx-buffer.h"

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/sequence-number.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \brief The send scoreboard of a CMT association: its RudpTxBuffer and
 * what multipath adds to each segment of it (the path it is on, its missing
 * reports, whether it was fast retransmitted or rescheduled).
 *
 * The CMT counterpart of what TcpTxBuffer is for TCP. The buffer and the
 * records hold the same segments in the same order, and this class alone
 * relies on it: segments are cut (NewSegment) and taken out (ApplySack's
 * cumulative ACK) only here, and every walk over them hands out both.
 *
 * ApplySack acknowledges what one SACK reports and returns its digest per
 * path (bytes newly acknowledged, the highest and lowest of them, whether a
 * gap block did, whether the path's earliest outstanding segment was among
 * them, the RTT samples Karn's rule allows), from which the sender reacts
 * per path.
 */
class RudpCmtScoreboard
{
  public:
    /// What the association keeps per segment, beside the buffer's own.
    class Record
    {
      public:
        /// \return the path of its latest transmission, or of its resend (Move changes it)
        uint32_t GetPath() const
        {
            return m_path;
        }

        uint32_t missingReports{0};    ///< SACKs that reported it missing
        bool fastRetransmitted{false}; ///< resent on missing reports already
        bool rescheduled{false};       ///< resent by ChunkRescheduling already

      private:
        friend class RudpCmtScoreboard;
        uint32_t m_path{0}; ///< the path (the scoreboard indexes segments by it)
    };

    /// What one SACK acknowledged for the first time, per path (ApplySack).
    struct SackDigest
    {
        /// \param paths the association's paths
        explicit SackDigest(uint32_t paths);

        /**
         * \brief Empties it for a SACK on \p paths paths, keeping the
         * vectors' storage (ApplySack reuses one digest).
         * \param paths the association's paths
         */
        void Reset(uint32_t paths);

        std::vector<uint32_t> bytesNew; ///< payload bytes newly acknowledged
        /// the highest segment (its first sequence number) newly acknowledged
        std::vector<std::optional<SequenceNumber32>> highestNew;
        /// the lowest segment newly acknowledged (DAC)
        std::vector<std::optional<SequenceNumber32>> lowestNew;
        std::vector<bool> gapAcked; ///< newly acknowledged by a gap block (DAC)
        /// CUC: the earliest outstanding segment sent once, or resent, was acknowledged
        std::vector<bool> earliestAcked;
        /// the earliest outstanding segment of all was acknowledged (RFC 4960 6.3.2 R3)
        std::vector<bool> oldestAcked;
        /// Karn's rule: the RTT of each acknowledged segment sent once, in order
        std::vector<std::vector<Time>> rttSamples;
        std::optional<SequenceNumber32> highestNewOfAll; ///< over all paths
        uint32_t cumulativeBytes{0}; ///< how far the cumulative ACK moved (bytes)

        /// \return the paths a gap block newly acknowledged data on
        uint32_t PathsGapAcked() const;
    };

    RudpCmtScoreboard();

    /// \return the index of a new path (0, 1, ...)
    uint32_t AddPath();

    /// \return the buffer, to read (RudpTxBuffer's accessors)
    const RudpTxBuffer& Buffer() const;

    /**
     * \brief Sets up the buffer before the first segment.
     * \param head the first sequence number
     * \param maxBytes the send buffer's size (bytes)
     */
    void Open(SequenceNumber32 head, uint32_t maxBytes);
    /// Appends application data (RudpTxBuffer::Add).
    void Add(Ptr<Packet> data);
    /**
     * \brief Cuts the next segment of unsent data.
     * \param length its payload bytes
     * \param path the path it goes on
     * \return the segment, not yet transmitted
     */
    const RudpTxBuffer::Segment& NewSegment(uint32_t length, uint32_t path);
    /**
     * \brief \p segment leaves on its record's path now: its missing reports start anew.
     * \param segment a segment of the buffer
     * \param now the time
     */
    void MarkTransmitted(const RudpTxBuffer::Segment& segment, Time now);
    /**
     * \param segment a segment of the buffer
     * \return true if it is newly marked lost (waits for a resend)
     */
    bool MarkLost(const RudpTxBuffer::Segment& segment);
    /**
     * \brief \p segment goes on \p path from now on (its resend, or its first transmission).
     * \param segment a segment of the buffer
     * \param path the path
     */
    void Move(const RudpTxBuffer::Segment& segment, uint32_t path);

    /// \return the record of \p segment, a segment of the buffer
    Record& RecordOf(const RudpTxBuffer::Segment& segment);
    /// \return the path \p segment is on
    uint32_t PathOf(const RudpTxBuffer::Segment& segment) const;
    /// \return the segment that starts at \p seq, or null
    const RudpTxBuffer::Segment* Find(SequenceNumber32 seq) const;

    /// \return bytes in flight (sent, neither SACKed nor deemed lost) on each path
    const std::vector<uint32_t>& BytesInFlight() const;
    /**
     * \param path a path, or none for every path
     * \return the earliest segment waiting for a resend on \p path, or null
     */
    const RudpTxBuffer::Segment* FirstLost(std::optional<uint32_t> path) const;
    /// \return true if a segment waits for a resend
    bool AnyLost() const;
    /**
     * \param path a path
     * \return the end of the highest segment outstanding on \p path (sent,
     *         not SACKed; ns-2's GetHighestOutstandingTsn), or the
     *         cumulative ACK point
     */
    SequenceNumber32 HighestOutstandingEnd(uint32_t path) const;

    /**
     * \brief Acknowledges what \p sack reports: its gap blocks, then its
     * cumulative ACK, which takes segments out of the buffer.
     * \param sack the SACK
     * \param now the time
     * \return what it newly acknowledged, per path; valid until the next
     *         ApplySack (the scoreboard keeps one digest, so that a SACK
     *         allocates nothing)
     */
    const SackDigest& ApplySack(const RudpHeader& sack, Time now);

    /**
     * \brief Calls \p visit(segment, record) for every segment, in sequence order.
     * \param visit the visitor
     */
    template <typename Visitor>
    void ForEach(Visitor&& visit)
    {
        const std::deque<RudpTxBuffer::Segment>& segments = m_buffer->GetSegments();
        for (size_t i = 0; i < segments.size(); ++i)
        {
            visit(segments[i], m_records[i].record);
        }
    }

    /**
     * \brief Calls \p visit(segment, record) for every segment, in sequence order.
     * \param visit the visitor, given the records to read
     */
    template <typename Visitor>
    void ForEach(Visitor&& visit) const
    {
        const std::deque<RudpTxBuffer::Segment>& segments = m_buffer->GetSegments();
        for (size_t i = 0; i < segments.size(); ++i)
        {
            visit(segments[i], static_cast<const Record&>(m_records[i].record));
        }
    }

    /**
     * \brief Calls \p visit(segment, record) for every segment not SACKed
     * that starts below \p limit, in sequence order, stepping over the runs
     * of SACKed segments without a visit each.
     * \param limit the first sequence number not visited
     * \param visit the visitor
     */
    template <typename Visitor>
    void ForEachUnsackedBelow(SequenceNumber32 limit, Visitor&& visit)
    {
        const std::deque<RudpTxBuffer::Segment>& segments = m_buffer->GetSegments();
        for (size_t i = 0; i < segments.size() && segments[i].seq < limit;)
        {
            if (segments[i].sacked)
            {
                i += std::max<uint32_t>(segments[i].sackedRun, 1);
                continue;
            }
            visit(segments[i], m_records[i].record);
            ++i;
        }
    }

    /**
     * \brief Calls \p visit(segment, record) for every segment in flight
     * (sent, neither SACKed nor deemed lost) on a path \c p that starts
     * below \p limits[p], in sequence order across the paths; a path
     * without a limit is left out. From the paths' indexes: the visits are
     * as many as the segments visited, whatever else is outstanding (SFR's
     * missing reports).
     * \param limits per path, the first sequence number not visited
     * \param visit the visitor; it may mark segments lost or move them,
     *        not take them out of the buffer
     */
    template <typename Visitor>
    void ForEachInFlightBelow(const std::vector<std::optional<SequenceNumber32>>& limits,
                              Visitor&& visit)
    {
        const std::deque<RudpTxBuffer::Segment>& segments = m_buffer->GetSegments();
        for (const size_t position : InFlightBelow(limits))
        {
            visit(segments[position], m_records[position].record);
        }
    }

    /**
     * \brief Calls \p visit(segment, record) for the segments in sequence
     * order until it returns false.
     * \param visit the visitor: true to go on
     */
    template <typename Visitor>
    void ForEachWhile(Visitor&& visit)
    {
        const std::deque<RudpTxBuffer::Segment>& segments = m_buffer->GetSegments();
        for (size_t i = 0; i < segments.size(); ++i)
        {
            if (!visit(segments[i], m_records[i].record))
            {
                return;
            }
        }
    }

  private:
    /// The segments the cumulative ACK took out of the buffer lose their records.
    void ForgetAcknowledged();
    /**
     * \param block a SACK block
     * \return true if \p block was a block of the previous SACK that left
     *         every segment inside it SACKed, and still does (see m_appliedBlocks)
     */
    bool AppliedBefore(const RudpHeader::SackBlock& block);
    /// ApplySack's visit of each segment newly acknowledged: the digest, the index.
    void NoteAcked(const RudpTxBuffer::Segment& segment);

    /**
     * Segments' ends in ascending order, each once (a set's contract). A
     * path's segments are sent in order and, as a rule, acknowledged in
     * order: ends come in at the back and leave from the front, which a
     * deque does in one step, where a std::set made and freed a node for
     * each segment. Any other end is found by bisection.
     */
    class EndIndex
    {
      public:
        /// Adds \p end (nothing if it is there).
        void Insert(SequenceNumber32 end);
        /// Takes \p end out (nothing if it is not there).
        void Erase(SequenceNumber32 end);

        /// \return true if it holds no end
        bool IsEmpty() const
        {
            return m_ends.empty();
        }

        /// \return the lowest end
        SequenceNumber32 Front() const
        {
            return m_ends.front();
        }

        /// \return the first of the ends, in ascending order
        std::deque<SequenceNumber32>::const_iterator Begin() const
        {
            return m_ends.begin();
        }

        /// \return past the last end
        std::deque<SequenceNumber32>::const_iterator End() const
        {
            return m_ends.end();
        }

      private:
        std::deque<SequenceNumber32> m_ends; ///< ascending
    };

    /// A record with the segment it belongs to.
    struct Entry
    {
        SequenceNumber32 end;         ///< the segment's End(), which a partial ACK leaves alone
        Record record;                ///< the record
        uint32_t countedBytes{0};     ///< its bytes in m_inFlight
        uint32_t countedPath{0};      ///< the path it is indexed on
        EndIndex* indexedIn{nullptr}; ///< the index that holds its end
    };

    /// A path's segments by their state, each by its end (the first is the earliest).
    struct PathIndex
    {
        EndIndex firsts;  ///< in flight, sent once
        EndIndex resends; ///< in flight, sent more than once
        EndIndex lost;    ///< deemed lost, waiting for a resend
    };

    /**
     * \param limits per path, the first sequence number not wanted
     * \return the positions in the buffer of ForEachInFlightBelow's
     *         segments, in order
     */
    std::vector<size_t> InFlightBelow(
        const std::vector<std::optional<SequenceNumber32>>& limits) const;
    /// \return the entry of \p segment (the entries are in the buffer's order)
    const Entry& Find(const RudpTxBuffer::Segment& segment) const;
    /// \return the entry of \p segment
    Entry& Find(const RudpTxBuffer::Segment& segment);
    /// \return the segment whose end is \p end
    const RudpTxBuffer::Segment& SegmentEndingAt(SequenceNumber32 end) const;
    /// \return the earliest segment of \p index, or null
    const RudpTxBuffer::Segment* Earliest(const EndIndex& index) const;
    /// Indexes \p segment on its path by its state now.
    void Recount(const RudpTxBuffer::Segment& segment, Entry& entry);
    /// Takes \p entry out of its path's index (its segment is acknowledged).
    void Uncount(Entry& entry);

    Ptr<RudpTxBuffer> m_buffer;
    std::deque<Entry> m_records; ///< one per segment of m_buffer, in its order
    /// Where Find found the latest entry: consecutive segments are looked up
    /// in turn (a SACK block's, the cumulative ACK's, a new segment's
    /// transmission), so the next one is there or just after it.
    mutable size_t m_findHint{0};
    /// The digest ApplySack fills and returns, its vectors kept between SACKs.
    SackDigest m_digest{0};
    /// ApplySack's per-path pseudo-cumulative points, as the end of each
    /// path's earliest outstanding segment (ends identify segments as well
    /// as starts do, and the index holds ends)
    std::vector<std::optional<SequenceNumber32>> m_earliestEnd;
    std::vector<std::optional<SequenceNumber32>> m_earliestResendEnd; ///< the same for resends
    Time m_sackTime;           ///< the time of the SACK being applied
    bool m_inGapBlocks{false}; ///< ApplySack is applying gap blocks (not the cumulative ACK)
    /// The blocks of the previous SACK that were applied in full: each
    /// ended at or below the highest byte sent, so every segment wholly
    /// inside it is SACKed, and no segment is cut inside it later. Under
    /// CMT a SACK repeats most of its predecessor's blocks (about ten with
    /// four paths); applying one again would search the send list and
    /// change nothing, so ApplySack steps over it. Emptied when a SACKed
    /// segment is sent again (it is no longer SACKed).
    std::vector<RudpHeader::SackBlock> m_appliedBlocks;
    std::vector<RudpHeader::SackBlock> m_nextApplied; ///< this SACK's, becoming m_appliedBlocks
    size_t m_appliedCursor{0}; ///< where AppliedBefore looks first in m_appliedBlocks
    /// per path, kept by Recount; a deque: entries point into it (indexedIn), and paths
    /// are added while segments are in flight
    std::deque<PathIndex> m_index;
    std::vector<uint32_t> m_inFlight; ///< bytes in flight per path, kept by Recount
    uint32_t m_paths{0};
};

} // namespace ns3

#endif /* RUDP_CMT_SCOREBOARD_H */
