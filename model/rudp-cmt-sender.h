/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_SENDER_H
#define RUDP_CMT_SENDER_H

#include "rudp-cmt-coupling.h"
#include "rudp-cmt-path.h"
#include "rudp-cmt-scheduler.h"
#include "rudp-cmt-scoreboard.h"
#include "rudp-file-source.h"
#include "rudp-header.h"
#include "rudp-tx-buffer.h"

#include "ns3/application.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class Socket;

/**
 * \ingroup rudp-cmt
 * \brief The sending end of a concurrent-multipath (SCTP-CMT style)
 * association: bulk data over every path at once, in one sequence space.
 *
 * Built from the RUDP pieces: RudpHeader segments (SACK blocks as SCTP's
 * gap blocks), one RudpTxBuffer for the association (each segment remembers
 * its path), and one RudpCmtPath per path with its own window, RTT
 * estimator and retransmission timer. The paths are configured with
 * AddPath on both ends, as SCTP's INIT would exchange them; there is no
 * handshake. The data is generated from ContentSeed (RudpFileSource), so the
 * receiver can check every byte.
 *
 * Scheduling: each path's window is filled in turn, round robin, within the
 * receiver's advertised window. The remedies for receive-buffer blocking are
 * options, each a small class of its own that Schedule and FillPath consult:
 * Scheduler (RudpCmtScheduler: round robin, lowest RTT first, or buffer
 * aware), BufferSplitting (RudpCmtBufferSplitting) and ChunkRescheduling
 * (RudpCmtChunkRescheduling).
 *
 * Loss detection counts missing reports per segment; the DupThreshold-th
 * triggers a retransmission and a window reduction on the segment's path.
 * The CMT algorithms of Iyengar, Amer and Stewart (2006), each switchable:
 * - SFR (split fast retransmit): a SACK counts a segment missing only if a
 *   later segment sent on the same path was newly acknowledged, so reordering
 *   across paths does not trigger spurious retransmissions;
 * - CUC (cwnd update for CMT): a path's window grows when the earliest
 *   outstanding segment sent on that path is acknowledged, even when the
 *   association's cumulative ACK is stuck behind another path;
 * - DAC (delayed ACK for CMT): with the receiver delaying ACKs through
 *   reordering, a SACK that answers two segments counts two missing reports
 *   for a segment below every segment it newly acknowledges on that path,
 *   one otherwise, and one if it newly acknowledges data on several paths
 *   (ns-2's rule).
 * Retransmission policies choose the path of a resend: RTX-SAME (the same
 * path), RTX-ASAP (the first path with room), RTX-CWND (the largest cwnd),
 * RTX-SSTHRESH (the largest ssthresh), RTX-LOSSRATE (the lowest known loss
 * rate, RudpCmtPath's LossRate). A fast retransmission is sent at once,
 * whatever the path's cwnd (RFC 4960 7.2.4 (3)); MaxBurst limits the
 * packets a path sends at one opportunity (RFC 4960 6.1); with CmtPf a path
 * that times out is "potentially failed" and only probed until it answers
 * (CMT-PF, Natarajan et al.). RudpCmtHelper::SetNs2Defaults sets what
 * ns-2.31's SCTP-CMT used. With FastRetransmit off a detected
 * loss reduces the window and the window keeps growing; with it on, the path
 * enters fast recovery and its window stays put until the resent segment is
 * acknowledged (the seed's two model families).
 */
class RudpCmtSender : public Application
{
  public:
    /// Where a resent segment goes.
    enum RtxPolicy
    {
        RTX_SAME,     ///< the path it was sent on
        RTX_ASAP,     ///< the first path with room in its window
        RTX_CWND,     ///< the active path with the largest cwnd
        RTX_SSTHRESH, ///< the active path with the largest ssthresh
        RTX_LOSSRATE, ///< the active path with the lowest known loss rate
    };

    /**
     * \brief Callback signature of the Tx and Retransmission traces.
     * \param [in] packet the segment's payload
     * \param [in] header the segment's header
     * \param [in] path the index of the path it was sent on
     */
    typedef void (*SegmentTracedCallback)(Ptr<const Packet> packet,
                                          const RudpHeader& header,
                                          uint32_t path);

    /**
     * \brief Callback signature of the Failure trace.
     * \param [in] reason why the association gave up
     */
    typedef void (*FailureTracedCallback)(const std::string& reason);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpCmtSender();
    ~RudpCmtSender() override;

    /**
     * \brief Adds a path: the receiver's address (and port) on it. The node
     * must route that address out through the path's own interface.
     * \return the path
     */
    Ptr<RudpCmtPath> AddPath(const Address& remote);
    /// \return the paths, in the order added
    const std::vector<Ptr<RudpCmtPath>>& GetPaths() const;

    /**
     * \brief Serves one direction of a RudpCmtSocket's association instead
     * of running as an application: sends the bytes given to Write (not
     * generated content) on \p udp, which the socket reads, handing the
     * SACKs to Receive. Call once, after AddPath, instead of starting the
     * application.
     * \param udp the association's UDP socket
     */
    void Attach(Ptr<Socket> udp);
    /**
     * \brief Takes a datagram from the peer: a SACK is processed, anything
     * else ignored.
     * \param header its header (decoded, checksum checked)
     * \param from where it came from: the path it arrived on
     */
    void Receive(const RudpHeader& header, const Address& from);
    /**
     * \brief Attached: queues application bytes for sending.
     * \param data the bytes
     * \return false (nothing queued) if the send buffer has no room for them all
     */
    bool Write(Ptr<Packet> data);
    /// \return bytes Write can take now
    uint32_t GetTxAvailable() const;
    /// \return true if every byte queued has been acknowledged
    bool IsAllAcknowledged() const;
    /**
     * \param acknowledged called whenever the cumulative acknowledgment
     *        advances (room in the send buffer, or all acknowledged)
     */
    void SetAcknowledgedCallback(Callback<void> acknowledged);
    /// Attached: the association is over; no timer fires, nothing more is sent.
    void Halt();

    /// \return the checksum its segments carry (Checksum)
    RudpHeader::ChecksumKind GetChecksumKind() const;
    /// \return the most payload bytes a segment carries (SegmentSize)
    uint32_t GetSegmentSize() const;
    /// \return payload bytes cumulatively acknowledged
    uint64_t GetBytesAcked() const;
    /// \return segments resent (fast and on timeout)
    uint64_t GetRetransmissions() const;
    /// \return fast retransmissions triggered by missing reports (segments)
    uint64_t GetFastRetransmits() const;
    /**
     * \return SACKs that marked at least one segment for fast retransmission
     *         (ns-2's frCount_ counts these, where one SACK can mark several)
     */
    uint64_t GetFastRetransmitSacks() const;
    /// \return expiries of the paths' timers
    uint64_t GetTimeouts() const;
    /// \return segments resent on another path by ChunkRescheduling
    uint64_t GetRescheduledSegments() const;
    /**
     * \return time the sender had data and room in a path's window but the
     *         receiver's window was full: receive-buffer blocking
     */
    Time GetReceiveWindowLimitedTime() const;
    /// \return true once MaxBytes have all been acknowledged
    bool IsComplete() const;
    /**
     * \return why the association gave up ("" while it has not): a receive
     *         buffer that cannot hold one segment, or a send buffer smaller
     *         than one segment
     */
    const std::string& GetFailure() const;

    /**
     * \brief The loss oracle of the ModelAssumptions mode: a data packet of
     * this sender was dropped on its way (connect a path's PhyRxDrop, or any
     * trace of dropped packets, here; RudpCmtHelper does). The sender acts
     * on the loss one RTT of the path after the segment was sent, as seed
     * 002's model assumes a loss is known; nothing happens outside the mode
     * or for a packet without a RudpCmtTransmissionTag.
     * \param packet the dropped packet (its tag names the segment)
     */
    void NotifyDataDropped(Ptr<const Packet> packet);
    /// \return losses the ModelAssumptions oracle reported (first transmissions)
    uint64_t GetOracleLosses() const;

    /// The first sequence number of the association's data (both ends use it).
    static const SequenceNumber32 FIRST_SEQUENCE;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /// Opens the paths and starts sending on m_socket (application or attached).
    void Begin();
    void HandleRead(Ptr<Socket> socket);
    /// The association is done (complete, failed or stopped): no path's timer fires again.
    void StopTimers();
    /**
     * Fills the paths' windows in turn (the scheduler): first every path's
     * resends, then new data (RFC 4960 6.1 C; ns-2 resends in
     * RtxMarkedChunks before SendMuch sends new data).
     */
    void Schedule();
    /**
     * \brief Sends what \p path may send now.
     * \param path the path
     * \param inFlight bytes in flight on it, updated with what it sends
     * \param resendsOnly send only segments waiting to be resent
     * \return bytes sent
     */
    uint32_t FillPath(RudpCmtPath& path, uint32_t& inFlight, bool resendsOnly);
    /// Keeps the send buffer full of generated data.
    void Refill();
    /**
     * \brief Starts a scheduling round of the remedies for receive-buffer
     * blocking: chunk rescheduling, the scheduler's view of the paths, and
     * (BufferAware) the resends moved off paths without a share.
     */
    void BeginRound();
    /// BufferAware: moves each resend waiting on a path without a share of the buffer to the
    /// fastest path.
    void RouteResends();
    /// \return the paths and buffers as the remedies see them now
    std::vector<RudpCmtPathView> PathViews(RudpCmtBuffers& buffers) const;
    /**
     * \brief Chunk rescheduling: when out-of-order data blocks the
     * receiver's buffer, moves the segment at the head of the blockage to
     * the fastest path (RudpCmtChunkRescheduling).
     * \param paths the paths now
     * \param buffers the buffers now
     * \return true if a segment was moved
     */
    bool RescheduleHead(const std::vector<RudpCmtPathView>& paths, const RudpCmtBuffers& buffers);
    /**
     * \brief A segment outstanding on \p path was moved to another path:
     * the path's T3 timer stops if nothing is outstanding on it any more
     * (RFC 4960 6.3.2 R2), else restarts for its earliest outstanding
     * segment (R3), as if the moved one had been acknowledged; left running
     * it would expire on data sent on the path later.
     * \param path the path the segment left
     */
    void RetimeAfterMove(RudpCmtPath& path);
    /**
     * \brief Fills m_couplingView with the paths as the coupling sees them:
     * the active ones, and \p index.
     * \param index a path
     * \return where path \p index is in m_couplingView
     */
    uint32_t CouplingView(uint32_t index);
    /**
     * \brief \p bytes sent on \p path were newly acknowledged: its window
     * grows as the coupling says (RudpCmtPath::Grow).
     * \param path the path
     * \param bytes the bytes
     * \param flight bytes in flight on it before the acknowledgment
     */
    void GrowWindow(RudpCmtPath& path, uint32_t bytes, uint32_t flight);
    /// A loss on \p path: its window is cut as the coupling says (RudpCmtPath::Reduce).
    void Cut(RudpCmtPath& path);
    void ProcessSack(const RudpHeader& header, uint32_t arrivalPath);
    /// A potentially failed or failed \p path answered: it carries data again.
    void Revive(RudpCmtPath& path);
    /**
     * \brief Counts missing reports and marks what they prove lost.
     * \param acked what the SACK newly acknowledged, per path
     * \param pairs the segments the SACK answers (DAC: 1 or 2)
     * \return true if a segment was marked for fast retransmission
     */
    bool CountMissingReports(const RudpCmtScoreboard::SackDigest& acked, uint32_t pairs);
    /**
     * \brief Sends the earliest segment marked for retransmission at once on
     * its path, whatever the path's cwnd: one packet (RFC 4960 7.2.4 (3)).
     */
    void SendFastRetransmission();

    /// What a SACK does under ns-2.35's rules (Ns2PseudoCumulativeAcks), per path.
    struct Ns2SackEffects
    {
        std::vector<bool> advanced;     ///< its pseudo-cumulative ACK advanced
        std::vector<bool> restartTimer; ///< ns-2 restarts its timer
    };

    /**
     * \brief ns-2.35's CUC (Ns2Recovery): which paths' pseudo-cumulative
     * ACKs this SACK advances, before it changes the buffer.
     *
     * As sctp-cmt.cc's SendBufferDequeueUpTo and ProcessGapAckBlocks: a path
     * with a segment newly acknowledged by the cumulative ACK advances, and
     * looks for a new pseudo-cumulative ACK; otherwise, walking the segments
     * up to the first beyond the last gap block, the first not yet SACKed of
     * the path (sent once, or resent) becomes the expected one, and the path
     * advances when a gap block newly acknowledges it. A lost segment, marked
     * or resent, stays the expected one until it is acknowledged: the window
     * does not grow for the resend's round trip.
     *
     * Also as SendBufferDequeueUpTo: every segment the cumulative ACK passes,
     * SACKed before or not, stops its path's timer -- unless the path's
     * expected resend pseudo-cumulative ACK lies beyond it and its timer is
     * not running or its expected pseudo-cumulative ACK does too -- and
     * ProcessSackChunk starts it again if the path still has data
     * outstanding. The resend one is kept, stale, once acknowledged, so in
     * effect the timer restarts whenever the cumulative ACK passes a segment
     * of the path, where RFC 4960 6.3.2 R3 restarts it only when the
     * earliest outstanding one is acknowledged.
     * \param header the SACK
     * \return per path, whether its pseudo-cumulative ACK advanced, and
     * whether ns-2 restarts its timer
     */
    Ns2SackEffects Ns2PseudoCumulativeAcks(const RudpHeader& header);
    /// Marks \p segment for retransmission on the path the policy picks.
    void MarkForRetransmission(const RudpTxBuffer::Segment& segment);
    /// \return the path a retransmission goes on, from the policy
    uint32_t RetransmissionPath(uint32_t original) const;
    /**
     * \brief Moves every segment waiting for retransmission on a FAILED
     * path to the path the policy picks among the active ones, whatever
     * the policy: a failed path carries nothing but probes.
     */
    void RehomeFromFailedPaths();
    /// \return the most payload bytes one segment can carry now (what is left, or a segment)
    uint32_t LargestSegment() const;
    /// Stops the association and reports \p reason (Failure trace, GetFailure).
    void Fail(const std::string& reason);
    /// Sends \p segment (new or resent) on \p path.
    void SendSegment(RudpCmtPath& path, const RudpTxBuffer::Segment& segment);
    /// Sends a header alone on a failed \p path: its SACK proves the path alive.
    void SendProbe(RudpCmtPath& path);
    /// The retransmission timer of path \p index expired.
    void OnTimeout(uint32_t index);
    /**
     * \brief Updates the ReceiveWindowLimited trace and time.
     * \param inFlight bytes in flight on each path
     */
    void UpdateWindowLimited(const std::vector<uint32_t>& inFlight);
    /**
     * \brief ModelAssumptions: one RTT after its transmission, the segment
     * starting at \p seq is known lost, as if by missing reports.
     * \param seq the segment's first sequence number
     * \param transmission its transmission number that was dropped
     */
    void OracleDetect(SequenceNumber32 seq, uint32_t transmission);

    // Attributes
    uint16_t m_port{0};
    uint32_t m_segmentSize{1468};
    uint64_t m_maxBytes{0};
    uint64_t m_contentSeed{1};
    double m_alpha{1.0};
    TypeId m_couplingType;                             ///< Coupling: the coupled congestion control
    Ptr<RudpCmtCoupling> m_coupling;                   ///< made from m_couplingType at start
    std::vector<RudpCmtCoupling::Path> m_couplingView; ///< CouplingView's paths
    double m_beta{0.5};
    uint32_t m_initialCwnd{2};
    uint32_t m_initialSsThresh{1u << 30};
    bool m_fastRetransmit{true};
    bool m_ns2RoundRobin{false}; ///< Ns2RoundRobin: start after the path that last sent new data
    bool m_ns2Recovery{false};   ///< Ns2Recovery: ns-2.35's cut once per window and CUC
    bool m_sfr{true};
    bool m_cuc{true};
    bool m_dac{true};
    RtxPolicy m_rtxPolicy{RTX_SSTHRESH};
    uint32_t m_dupThreshold{3};
    Time m_initialRto{Seconds(1)};
    Time m_minRto{Seconds(1)};
    Time m_maxRto{Seconds(60)};
    uint32_t m_pathMaxRetrans{1};
    uint32_t m_associationMaxRetrans{0}; ///< AssociationMaxRetrans (0: never give up)
    uint32_t m_maxBurst{0};
    bool m_idleWindowDecay{true}; ///< IdleWindowDecay: RFC 4960 7.2.1's decay of an idle window
    bool m_cmtPf{false};
    uint32_t m_cmtPfCwnd{1};
    uint32_t m_sndBufSize{1u << 26};
    uint32_t m_initialPeerWindow{0};
    RudpHeader::ChecksumKind m_checksumKind{RudpHeader::CHECKSUM_INTERNET16};
    bool m_modelAssumptions{false}; ///< ModelAssumptions: the loss oracle, no missing reports
    RudpCmtScheduler::Kind m_schedulerKind{RudpCmtScheduler::ROUND_ROBIN};
    RudpCmtBufferSplitting::Variant m_bufferSplitting{RudpCmtBufferSplitting::NONE};
    bool m_chunkRescheduling{false};
    double m_reschedulingThreshold{0.5};

    // State
    Ptr<Socket> m_socket;
    std::vector<Ptr<RudpCmtPath>> m_paths;
    RudpCmtScoreboard m_scoreboard; ///< the segments sent and their paths
    std::unique_ptr<RudpFileSource> m_source;
    uint32_t m_peerWindow{0};
    bool m_sacksSeen{false};
    SequenceNumber32 m_lastSack{0}; ///< number of the newest SACK processed
    uint32_t m_nextPath{0};
    std::vector<uint32_t> m_burst; ///< packets each path sent at this opportunity (MaxBurst)
    uint64_t m_bytesAcked{0};
    uint64_t m_retransmissions{0};
    uint64_t m_fastRetransmits{0};
    uint64_t m_fastRetransmitSacks{0};
    uint64_t m_timeouts{0};
    uint64_t m_oracleLosses{0}; ///< drops the ModelAssumptions oracle reported
    uint64_t m_rescheduled{0};
    uint32_t m_consecutiveTimeouts{0};       ///< timeouts of any path since the latest SACK
    Callback<void> m_acknowledged;           ///< SetAcknowledgedCallback
    RudpCmtScheduler m_scheduler;            ///< the path order and new-data limits
    RudpCmtChunkRescheduling m_rescheduling; ///< when and where the head segment moves
    TracedValue<bool> m_windowLimited{false};
    Time m_windowLimitedSince;
    Time m_windowLimitedTotal;
    bool m_running{false};
    std::string m_failure; ///< why the association gave up, "" while it has not

    TracedCallback<Ptr<const Packet>, const RudpHeader&, uint32_t> m_txTrace;
    TracedCallback<Ptr<const Packet>, const RudpHeader&, uint32_t> m_retxTrace;
    TracedCallback<const std::string&> m_failureTrace;
};

} // namespace ns3

#endif /* RUDP_CMT_SENDER_H */
