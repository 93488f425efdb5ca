/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_RECOVERY_H
#define RUDP_CMT_RECOVERY_H

#include "rudp-cmt-path.h"
#include "rudp-cmt-scoreboard.h"
#include "rudp-header.h"
#include "rudp-tx-buffer.h"

#include "ns3/ptr.h"
#include "ns3/sequence-number.h"

#include <functional>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \brief Loss recovery of a CMT association, path by path: what the CMT
 * counterpart of TcpRecoveryOps and TcpSocketBase::EnterRecovery do for TCP.
 *
 * It keeps each path's recovery record (whether it is in fast recovery, and
 * until what the cumulative ACK must reach) and applies the rules around it:
 * - a loss enters recovery (Enter, the one place): the path's window is
 *   cut, and with FastRetransmit the path stays in fast recovery until the
 *   cumulative ACK reaches the exit point (RFC 4960 7.2.4), else it goes on
 *   in congestion avoidance (the seed's two model families);
 * - losses are found by missing reports, with SFR and DAC
 *   (CountMissingReports), or by the ModelAssumptions oracle (OracleLoss);
 *   chunk rescheduling takes the path a segment left to have lost it
 *   (Rescheduled);
 * - whether a SACK lets a path's window grow (Grows: CUC, or the cumulative
 *   ACK without it);
 * - a timeout ends a path's fast recovery and deems its segments lost
 *   (Timeout).
 *
 * RudpCmtSendEngine owns one, as it owns its RudpCmtScoreboard, and tells it
 * what happens in the order it happens; the engine's Ns2Recovery attribute
 * chooses the variant: RudpCmtRfcRecovery (RFC 4960 with the CMT
 * algorithms) or RudpCmtNs2Recovery (ns-2.35's sctp-cmt.cc). It acts on the
 * engine through two functions (Actions): the window cut, which the
 * association's coupling sizes, and the marking of a segment for
 * retransmission, whose path the retransmission policy picks.
 */
class RudpCmtRecovery
{
  public:
    /// The association's settings that recovery follows (RudpCmtSendEngine's attributes).
    struct Config
    {
        /// FastRetransmit: a path in fast recovery keeps its window until the exit point
        bool fastRetransmit{true};
        bool sfr{true};            ///< Sfr: missing reports counted per path
        bool cuc{true};            ///< Cuc: a path's window grows on its own pseudo-cumulative ACK
        bool dac{true};            ///< Dac: a SACK answering two segments reports twice
        uint32_t reTxThreshold{3}; ///< ReTxThreshold: missing reports that mark a segment lost
        bool lossOracle{false};    ///< ModelAssumptions: losses come from the oracle alone
    };

    /// What recovery does to the rest of the association.
    struct Actions
    {
        /// Cuts the window of the path with this index (RudpCmtPath::Reduce, by the coupling)
        std::function<void(uint32_t)> cut;
        /// Marks a segment for retransmission on the path the retransmission policy picks
        std::function<void(const RudpTxBuffer::Segment&)> retransmit;
    };

    /**
     * \param config the settings
     * \param scoreboard the association's scoreboard (outlives this)
     * \param paths the association's paths, by index (outlive this)
     * \param actions what a loss does to the association
     */
    RudpCmtRecovery(const Config& config,
                    RudpCmtScoreboard& scoreboard,
                    const std::vector<Ptr<RudpCmtPath>>& paths,
                    Actions actions);
    virtual ~RudpCmtRecovery();

    RudpCmtRecovery(const RudpCmtRecovery&) = delete;
    RudpCmtRecovery& operator=(const RudpCmtRecovery&) = delete;

    /// A path was added to the association (RudpCmtSendEngine::OpenPath): the last of the paths.
    virtual void AddPath();

    /**
     * \param path a path's index
     * \return true while the path is in fast recovery
     */
    bool InFastRecovery(uint32_t path) const;

    /**
     * \brief A SACK arrived: called before the scoreboard applies it, with
     * the scoreboard as it was.
     * \param sack the SACK
     */
    virtual void BeginSack(const RudpHeader& sack);
    /**
     * \brief The SACK's cumulative ACK is \p cum: a path's fast recovery
     * ends, and it goes on in congestion avoidance, once it reaches the exit point.
     * \param path a path's index
     * \param cum the cumulative ACK
     */
    void Exit(uint32_t path, SequenceNumber32 cum);
    /**
     * \param path a path's index
     * \return true if the SACK restarts the path's T3-rtx timer besides RFC 4960 6.3.2 R3
     */
    virtual bool RestartsTimer(uint32_t path) const;
    /**
     * \brief Whether the SACK lets the window of a path that had bytes newly
     * acknowledged grow: with CUC if the path's pseudo-cumulative ACK
     * advanced, without it if the cumulative ACK did; and not while fast
     * recovery holds the window.
     * \param path a path's index
     * \param acked the SACK's digest
     * \return true if the window may grow
     */
    bool Grows(uint32_t path, const RudpCmtScoreboard::SackDigest& acked) const;
    /**
     * \brief Counts the missing reports the SACK makes (SFR, DAC) and acts on
     * the segments they prove lost: each is entered (Enter, by the variant's
     * rule) and marked for retransmission. Nothing under the loss oracle.
     * \param acked the SACK's digest
     * \param pairs the segments the SACK answers (DAC: 1 or 2)
     * \return the segments marked for fast retransmission
     */
    uint32_t CountMissingReports(const RudpCmtScoreboard::SackDigest& acked, uint32_t pairs);

    /**
     * \brief ModelAssumptions: \p segment is known lost now, one RTT after
     * its transmission number \p transmission. As on the ReTxThreshold-th
     * missing report, except that fast recovery ends when the cumulative ACK
     * passes the segment: the model freezes the lossy path for the one RTT
     * of its retransmission.
     * \param segment a segment of the scoreboard
     * \param transmission its transmission that was dropped
     * \return true if it was marked for retransmission; false if it was
     *         repaired otherwise meanwhile
     */
    bool OracleLoss(const RudpTxBuffer::Segment& segment, uint32_t transmission);
    /**
     * \brief Chunk rescheduling moved \p segment, in flight on \p from, to
     * another path: \p from is taken to have lost it (INET's
     * cmtMovedChunksReduceCwnd), once per recovery, and the segment is not
     * fast retransmitted again (a lost copy is repaired by the timer).
     * \param segment the segment
     * \param from the index of the path it left
     */
    void Rescheduled(const RudpTxBuffer::Segment& segment, uint32_t from);
    /**
     * \brief A segment waiting for its resend left a path for another.
     * \param path the index of the path it left
     */
    virtual void Left(uint32_t path);
    /**
     * \brief The path's T3-rtx timer expired: its fast recovery ends, and
     * every segment in flight on it is marked for retransmission (RFC 4960
     * 6.3.3 E3). Call once the path's status says where resends may go.
     * \param path a path's index
     */
    void Timeout(uint32_t path);

  protected:
    /// What recovery keeps per path.
    struct Record
    {
        bool inFastRecovery{false}; ///< a fast retransmit is pending acknowledgment
        SequenceNumber32 exit;      ///< fast recovery ends when this is acknowledged
    };

    /**
     * \brief A loss on \p path: its window is cut, then either fast recovery
     * until the cumulative ACK reaches \p exit, or (no \p exit) congestion
     * avoidance at once.
     * \param path a path's index
     * \param exit where fast recovery ends, or none
     */
    void Enter(uint32_t path, std::optional<SequenceNumber32> exit);
    /**
     * \brief A loss on \p path that does not end a recovery under way: the
     * path enters recovery if it is not in fast recovery, until \p exit with
     * FastRetransmit.
     * \param path a path's index
     * \param exit where fast recovery would end
     */
    void EnterOnce(uint32_t path, SequenceNumber32 exit);

    /**
     * \brief Missing reports proved \p segment lost (it is then marked for
     * retransmission): enters recovery on its path, by the variant's rule.
     * \param segment the segment
     * \param path the index of its path
     */
    virtual void Reported(const RudpTxBuffer::Segment& segment, uint32_t path) = 0;
    /**
     * \param path a path's index
     * \param acked the SACK's digest
     * \return CUC: whether the path's pseudo-cumulative ACK advanced
     */
    virtual bool PseudoCumulativeAdvanced(uint32_t path,
                                          const RudpCmtScoreboard::SackDigest& acked) const = 0;
    /**
     * \param path a path's index
     * \return true if fast recovery holds the path's window
     */
    virtual bool HoldsWindow(uint32_t path) const = 0;

    const Config m_config;                        ///< the settings
    RudpCmtScoreboard& m_scoreboard;              ///< the association's segments
    const std::vector<Ptr<RudpCmtPath>>& m_paths; ///< the association's paths
    std::vector<Record> m_records;                ///< per path
    Actions m_actions;                            ///< what a loss does to the association
};

/**
 * \ingroup rudp-cmt
 * \brief RFC 4960's fast recovery with the CMT algorithms (Iyengar, Amer and
 * Stewart 2006): a path enters recovery on a loss when it is not in fast
 * recovery, until the cumulative ACK passes the highest segment sent then
 * (7.2.4); CUC's pseudo-cumulative ACK is the path's earliest outstanding
 * segment (RudpCmtScoreboard::SackDigest::earliestAcked); with
 * FastRetransmit the window does not grow during fast recovery.
 */
class RudpCmtRfcRecovery : public RudpCmtRecovery
{
  public:
    using RudpCmtRecovery::RudpCmtRecovery;

  private:
    void Reported(const RudpTxBuffer::Segment& segment, uint32_t path) override;
    bool PseudoCumulativeAdvanced(uint32_t path,
                                  const RudpCmtScoreboard::SackDigest& acked) const override;
    bool HoldsWindow(uint32_t path) const override;
};

/**
 * \ingroup rudp-cmt
 * \brief ns-2.35's fast recovery and CUC (sctp-cmt.cc's FastRtx,
 * ProcessGapAckBlocks and SendBufferDequeueUpTo; RudpCmtSendEngine's
 * Ns2Recovery): a path's window is cut for a loss above the highest segment
 * it had outstanding at its last cut (uiRecover), once per window of data,
 * and not held during fast recovery; it grows only on SACKs that pass its
 * pseudo-cumulative ACK, which stays on a lost segment until its resend is
 * acknowledged; its timer restarts whenever the cumulative ACK passes one of
 * its segments.
 */
class RudpCmtNs2Recovery : public RudpCmtRecovery
{
  public:
    /**
     * \param config the settings
     * \param scoreboard the association's scoreboard (outlives this)
     * \param paths the association's paths, by index (outlive this)
     * \param actions what a loss does to the association
     */
    RudpCmtNs2Recovery(const Config& config,
                       RudpCmtScoreboard& scoreboard,
                       const std::vector<Ptr<RudpCmtPath>>& paths,
                       Actions actions);

    /**
     * \brief Which paths' pseudo-cumulative ACKs the SACK advances, and whose
     * timers ns-2 restarts, from the scoreboard before the SACK changes it.
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
     *
     * It walks the send list a second time (RudpCmtScoreboard::ApplySack
     * walks it once): it needs the segments as they were before the SACK,
     * the cumulative ACK's before the gap blocks', and the segments between
     * the blocks that no block touches, none of which the scoreboard's walk
     * sees.
     * \param sack the SACK
     */
    void BeginSack(const RudpHeader& sack) override;
    void AddPath() override;
    bool RestartsTimer(uint32_t path) const override;
    void Left(uint32_t path) override;

  private:
    void Reported(const RudpTxBuffer::Segment& segment, uint32_t path) override;
    bool PseudoCumulativeAdvanced(uint32_t path,
                                  const RudpCmtScoreboard::SackDigest& acked) const override;
    bool HoldsWindow(uint32_t path) const override;

    /// ns-2's CUC state of a path.
    struct PseudoCumulative
    {
        /// the expected pseudo-cumulative ACK of the path's first transmissions,
        /// found once and kept until acknowledged (uiExpectedPseudoCum)
        std::optional<SequenceNumber32> first;
        /// the same for resends (uiExpectedRtxPseudoCum)
        std::optional<SequenceNumber32> resend;
        bool findFirst{true};     ///< look for a new first (eFindExpectedPseudoCum)
        bool findResend{true};    ///< look for a new resend (eFindExpectedRtxPseudoCum)
        bool advanced{false};     ///< the latest SACK advanced one of them
        bool restartTimer{false}; ///< the latest SACK restarts the path's timer
    };

    std::vector<PseudoCumulative> m_pseudoCumulative; ///< per path
};

} // namespace ns3

#endif /* RUDP_CMT_RECOVERY_H */
