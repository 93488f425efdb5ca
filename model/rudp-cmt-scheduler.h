/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_SCHEDULER_H
#define RUDP_CMT_SCHEDULER_H

#include "ns3/nstime.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \brief What the CMT sender's scheduling remedies see of one path at the
 * start of a scheduling round.
 */
struct RudpCmtPathView
{
    uint32_t index{0};          ///< the path's position in the association
    bool active{true};          ///< it carries data (not FAILED)
    bool inFastRecovery{false}; ///< a loss on it is being repaired
    Time srtt;                  ///< its smoothed RTT estimate
    uint32_t cwnd{0};           ///< its congestion window (bytes)
    uint32_t queued{0};         ///< bytes last sent on it, or waiting to be resent on it,
                                ///< and not yet cumulatively acknowledged
};

/**
 * \ingroup rudp-cmt
 * \brief What the receiver's and the sender's buffers hold, as the CMT
 * sender knows them at the start of a scheduling round.
 */
struct RudpCmtBuffers
{
    uint32_t peerWindow{0}; ///< the receiver's advertised window, a_rwnd (bytes)
    uint32_t heldByPeer{0}; ///< bytes acknowledged by gap blocks only: out of order in
                            ///< the receiver's buffer, waiting for a hole to be filled
    uint32_t sendBuffer{0}; ///< the sender's buffer (SndBufSize, bytes)
    /// the receiver's window blocked the sender when the round began (BLEST's lambda)
    bool windowLimited{false};

    /**
     * \return the receiver's buffer as the sender can estimate it: the free
     *         window plus what the gap blocks say it holds (the receiving
     *         application reads in-order data at once)
     */
    uint32_t PeerBuffer() const
    {
        return peerWindow + heldByPeer;
    }
};

/**
 * \ingroup rudp-cmt
 * \brief Buffer splitting (Dreibholz, Becke, Adhari, Rathgeb, PFLDNeT 2010),
 * as OMNeT++ INET's SCTP offers it (cmtBufferSplitVariant): a path may have
 * queued -- sent and not yet cumulatively acknowledged -- only its 1/n share
 * of a buffer, so that a slow or lossy path cannot take the whole buffer.
 *
 * - SENDER_SIDE splits the sender's buffer (SndBufSize): a first
 *   transmission on a path goes only if the path's queued bytes plus the
 *   segment stay within SndBufSize / n.
 * - RECEIVER_SIDE splits the receiver's advertised window: the path's queued
 *   bytes may reach a_rwnd / n, where a_rwnd is the window of the latest
 *   SACK (SCTP's peerRwnd plus the bytes outstanding); as in INET, one
 *   segment may go beyond the share.
 * - BOTH_SIDES applies both.
 *
 * Only first transmissions are split; a retransmission is never held back
 * by a share. Both sides are enforced by the sender (the receiver needs no
 * change): "receiver-side" names the buffer that is split.
 */
class RudpCmtBufferSplitting
{
  public:
    /// Which buffers are split.
    enum Variant
    {
        NONE,          ///< no splitting
        SENDER_SIDE,   ///< the sender's buffer
        RECEIVER_SIDE, ///< the receiver's advertised window
        BOTH_SIDES,    ///< both
    };

    /**
     * \brief Sets the variant.
     * \param variant which buffers are split
     */
    void SetVariant(Variant variant);
    /// \return which buffers are split
    Variant GetVariant() const;

    /**
     * \param queued bytes the path has queued (sent, not cumulatively acknowledged)
     * \param length payload bytes of the first transmission it would make
     * \param paths number of paths of the association
     * \param buffers the buffers
     * \return true if the path's shares allow the segment
     */
    bool Allows(uint32_t queued,
                uint32_t length,
                uint32_t paths,
                const RudpCmtBuffers& buffers) const;

  private:
    Variant m_variant{NONE}; ///< which buffers are split
};

/**
 * \ingroup rudp-cmt
 * \brief BLEST's blocking estimate (Ferlin, Alay, Mehani, Boreli, "BLEST:
 * Blocking Estimation-based MPTCP Scheduler for Heterogeneous Networks",
 * IFIP Networking 2016), in bytes for the CMT sender.
 *
 * Before new data goes on a slower path s, BLEST asks how much the fastest
 * path f would send while the segment travels on s. With rtts = srtt_s /
 * srtt_f (a real number, at least 1), and f's window growing by one segment
 * of MSS bytes per round trip as in congestion avoidance, f sends
 *
 *     X = rtts * (cwnd_f + MSS * (rtts - 1) / 2)   bytes
 *
 * (the paper's MSS_f * (CWND_f + (rtts - 1)/2) * rtts, its window counted
 * in segments, here in bytes). All of it must fit in the receiver's buffer
 * beside what s holds: the segment waits for s, and with it every later
 * byte. The slow path is refused -- the sender waits for the fast one --
 * when
 *
 *     lambda * X > B - (queued_s + length)
 *
 * B the receiver's buffer as the sender sees it (RudpCmtBuffers::PeerBuffer,
 * the paper's send window |MPTCP_SW|), queued_s what s has sent and not had
 * cumulatively acknowledged (the paper's inflight_s segments) and length
 * the segment's bytes (its "+ 1").
 *
 * lambda corrects the estimate. It starts at Lambda::initial; once per
 * smoothed RTT of the slowest active path it grows by Lambda::increase if
 * the receiver's window blocked the sender at the start of some scheduling
 * round since the last update (the estimate let too much onto the slow
 * path), and shrinks by Lambda::decrease otherwise, within [Lambda::min,
 * Lambda::max]. The paper leaves the steps open; the defaults are those of
 * the authors' Linux implementation (mptcp_blest.c: 1.2 in [1.0, 1.3], +0.04
 * after a blocked period, -0.01 after a free one), whose "blocked" is the
 * meta socket's send-window test failing, as the ReceiveWindowLimited state
 * here.
 */
class RudpCmtBlest
{
  public:
    /// lambda's start, bounds and steps (dimensionless factors).
    struct Lambda
    {
        double initial{1.2};   ///< lambda before the first update
        double min{1.0};       ///< its lower bound
        double max{1.3};       ///< its upper bound
        double increase{0.04}; ///< its step after a period in which the window blocked
        double decrease{0.01}; ///< its step after a period in which it did not
    };

    /**
     * \brief Sets lambda's start, bounds and steps, and lambda to its start.
     * \param lambda the parameters; min <= initial <= max
     */
    void SetLambda(const Lambda& lambda);
    /// \return lambda's current value
    double GetLambda() const;

    /**
     * \brief A scheduling round begins: notes whether the receiver's window
     * blocked the sender, and updates lambda once per \p period.
     * \param windowLimited whether the window blocked the sender
     * \param now the time
     * \param period the time between updates (the slowest path's smoothed RTT)
     */
    void BeginRound(bool windowLimited, Time now, Time period);

    /**
     * \param fast the fastest path
     * \param slow a slower path
     * \param segmentSize the MSS (bytes): the fast window's growth per round trip
     * \return X: the bytes the fast path is estimated to send during one
     *         smoothed RTT of the slow one, lambda not applied
     */
    static double FastBytes(const RudpCmtPathView& fast,
                            const RudpCmtPathView& slow,
                            uint32_t segmentSize);

    /**
     * \param fast the fastest path
     * \param slow a slower path
     * \param length bytes the slow path would send beyond what it has queued
     * \param segmentSize the MSS (bytes)
     * \param buffer the receiver's buffer B (bytes)
     * \return true if the sender should wait for the fast path rather than
     *         send on the slow one: lambda X > B - (queued_s + length)
     */
    bool Waits(const RudpCmtPathView& fast,
               const RudpCmtPathView& slow,
               uint32_t length,
               uint32_t segmentSize,
               uint32_t buffer) const;

  private:
    Lambda m_parameters;              ///< lambda's start, bounds and steps
    double m_lambda{1.2};             ///< lambda now
    bool m_blocked{false};            ///< the window blocked the sender since the last update
    std::optional<Time> m_lastUpdate; ///< when lambda was last updated (at first: the first round)
};

/**
 * \ingroup rudp-cmt
 * \brief The CMT sender's path scheduler: in which order the paths' windows
 * are filled in a scheduling round, and how much new data a path may take.
 *
 * - ROUND_ROBIN (the default, CMT's as Iyengar et al. describe it): each
 *   round starts one path further; no path is limited beyond its windows.
 * - LOWEST_RTT_FIRST: the path with the smallest smoothed RTT is filled
 *   first, then the next (ties by index); a simple baseline, as Linux
 *   MPTCP's default scheduler.
 * - BUFFER_AWARE: lowest RTT first, and a slower path takes new data only
 *   within what the receiver's buffer can hold at the paths' RTT ratio.
 *   While one of its segments is on its way, every faster path j turns its
 *   window srtt_i / srtt_j times, and all those later segments wait in the
 *   receiver's buffer behind it. Path i may therefore have at most
 *   B - sum_j min(cwnd_j, B) srtt_i / srtt_j bytes queued, B the receiver's
 *   buffer: none when the faster paths can fill the buffer by themselves.
 *   The idea is BLEST's, as a share of the buffer per path (BLEST itself
 *   is the kind below); the fastest path is limited only by its windows. A resend waiting
 *   on a path without a share goes on the fastest path (ResendPath).
 * - BLEST: lowest RTT first, and new data goes on a slower path only if
 *   BLEST's estimate (RudpCmtBlest) says the fastest path's sending during
 *   that path's RTT still fits in the receiver's buffer beside it; otherwise
 *   the sender waits for the fastest path. A resend waiting on a slower path
 *   goes on the fastest one when the estimate says so (ResendPath).
 *
 * Buffer splitting (RudpCmtBufferSplitting), with any of them, further
 * limits each path's share. The sender calls Begin at the start of a round,
 * Order for the paths' order, Allows before a first transmission on a path
 * and Sent after every transmission.
 */
class RudpCmtScheduler
{
  public:
    /// The schedulers.
    enum Kind
    {
        ROUND_ROBIN,      ///< each round starts one path further
        LOWEST_RTT_FIRST, ///< fill the paths in the order of their smoothed RTTs
        BUFFER_AWARE,     ///< lowest RTT first, a slow path's share within the buffer
        BLEST,            ///< lowest RTT first, a slow path only if BLEST's estimate allows
    };

    /**
     * \brief Sets the scheduler.
     * \param kind which one
     */
    void SetKind(Kind kind);
    /// \return which scheduler it is
    Kind GetKind() const;
    /**
     * \brief Sets the buffer splitting applied beside the scheduler.
     * \param variant which buffers are split
     */
    void SetBufferSplitting(RudpCmtBufferSplitting::Variant variant);
    /// \return the buffer splitting applied beside the scheduler
    RudpCmtBufferSplitting::Variant GetBufferSplitting() const;
    /**
     * \brief Sets BLEST's lambda (RudpCmtBlest::SetLambda).
     * \param lambda its start, bounds and steps
     */
    void SetBlestLambda(const RudpCmtBlest::Lambda& lambda);
    /// \return BLEST's estimate and its lambda
    const RudpCmtBlest& GetBlest() const;
    /**
     * \brief Sets the segment size BLEST's estimate grows the fast window by.
     * \param segmentSize the MSS (bytes)
     */
    void SetSegmentSize(uint32_t segmentSize);
    /// \return true if Allows can refuse a first transmission (needs the queued bytes)
    bool LimitsPaths() const;
    /// \return true if ResendPath may move a resend to another path (BUFFER_AWARE, BLEST)
    bool RoutesResends() const;
    /**
     * \return false if Order, Allows and ResendPath read nothing of the
     *         paths Begin gives but their number and queued bytes (round
     *         robin without buffer splitting)
     */
    bool ReadsPaths() const;

    /**
     * \brief Starts a scheduling round.
     * \param paths the paths as they are now
     * \param buffers the buffers as they are now
     */
    void Begin(const std::vector<RudpCmtPathView>& paths, const RudpCmtBuffers& buffers);
    /**
     * \param roundRobinStart the path a round-robin round starts with
     * \return the paths' indexes in the order their windows are filled
     */
    std::vector<uint32_t> Order(uint32_t roundRobinStart) const;
    /**
     * \brief Order, into a vector the caller keeps (no allocation once it has room).
     * \param roundRobinStart the path round robin starts with
     * \param[out] order the paths' indexes, in the order they are filled
     */
    void Order(uint32_t roundRobinStart, std::vector<uint32_t>& order) const;
    /**
     * \param index a path
     * \param length payload bytes of a first transmission on it
     * \return true if the scheduler and the buffer splitting let the path
     *         take it (its windows aside, which the sender checks)
     */
    bool Allows(uint32_t index, uint32_t length) const;
    /**
     * \brief Where a resend waiting on path \p assigned goes: BUFFER_AWARE
     * moves it to the fastest active path when \p assigned has no share of
     * the buffer (its limit is below the segment); BLEST when its estimate
     * says to wait for the fastest path (the resend counted in \p
     * assigned's queued bytes already). A hole's filler sent on
     * a path the buffer cannot afford keeps the whole buffer blocked for
     * that path's RTT; a retransmission policy (RTX-SSTHRESH, RTX-CWND)
     * picks such a path when it is slow and idle, its windows unused since.
     * \param assigned the path the retransmission policy chose
     * \param length its payload bytes
     * \return the path the resend goes on
     */
    uint32_t ResendPath(uint32_t assigned, uint32_t length) const;
    /**
     * \brief A segment was sent on a path in this round.
     * \param index the path
     * \param length its payload bytes
     * \param resend whether it was a retransmission (already queued on some path)
     */
    void Sent(uint32_t index, uint32_t length, bool resend);

    /**
     * \param index a path
     * \return the bytes the scheduler lets path \p index have queued; no
     *         limit but the windows for ROUND_ROBIN, LOWEST_RTT_FIRST and
     *         BUFFER_AWARE's fastest path
     */
    std::optional<uint32_t> QueueLimit(uint32_t index) const;

  private:
    /// \return true if path \p a is faster than path \p b (smaller srtt, then index)
    bool Faster(const RudpCmtPathView& a, const RudpCmtPathView& b) const;
    /// \return the fastest active path in this round, if any
    std::optional<uint32_t> Fastest() const;
    /**
     * \param index a path
     * \param length bytes it would send beyond what it has queued
     * \return true if BLEST waits for the fastest path rather than send on \p index
     */
    bool BlestWaits(uint32_t index, uint32_t length) const;

    Kind m_kind{ROUND_ROBIN};             ///< the scheduler
    RudpCmtBufferSplitting m_splitting;   ///< the shares of the buffers
    std::vector<RudpCmtPathView> m_paths; ///< the paths in this round
    RudpCmtBuffers m_buffers;             ///< the buffers in this round
    RudpCmtBlest m_blest;                 ///< BLEST's estimate and lambda
    uint32_t m_segmentSize{1400};         ///< the MSS (bytes), for BLEST's estimate
};

/**
 * \ingroup rudp-cmt
 * \brief Chunk rescheduling (Dreibholz et al., PFLDNeT 2010; INET's
 * cmtChunkReschedulingVariant, on the receiver's side): when out-of-order
 * data fills the receiver's buffer, the segment at the head of the
 * blockage -- the first not cumulatively acknowledged, still in flight --
 * is sent again at once on the fastest path, instead of waiting for three
 * missing reports or a timeout.
 *
 * The buffer blocks when the bytes it holds out of order reach Threshold of
 * the buffer (INET's cmtChunkReschedulingThreshold, 0.5). The fastest path
 * is the active one with the smallest smoothed RTT not in fast recovery. A
 * segment is moved once; it is moved to the path it was sent on only after
 * two of that path's smoothed RTTs. The sender then treats the path it left
 * as having lost it (INET's cmtMovedChunksReduceCwnd): its window is
 * reduced, as on a fast retransmit, unless it is in fast recovery already.
 */
class RudpCmtChunkRescheduling
{
  public:
    /**
     * \brief Sets the blocking threshold.
     * \param threshold fraction of the receiver's buffer held out of order, (0, 1]
     */
    void SetThreshold(double threshold);
    /// \return the blocking threshold
    double GetThreshold() const;

    /**
     * \param buffers the buffers
     * \return true if out-of-order data blocks the receiver's buffer
     */
    bool Blocked(const RudpCmtBuffers& buffers) const;

    /**
     * \param paths the paths
     * \param headPath the path the head segment was last sent on
     * \param sinceHeadSent time since the head segment was last sent
     * \return the path the head segment is to be resent on, if any
     */
    std::optional<uint32_t> Target(const std::vector<RudpCmtPathView>& paths,
                                   uint32_t headPath,
                                   Time sinceHeadSent) const;

  private:
    double m_threshold{0.5}; ///< fraction of the buffer held out of order that blocks
};

} // namespace ns3

#endif /* RUDP_CMT_SCHEDULER_H */
