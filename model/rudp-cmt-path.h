/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_PATH_H
#define RUDP_CMT_PATH_H

#include "rudp-deadline.h"
#include "rudp-rto-timer.h"
#include "rudp-sender-state.h"

#include "ns3/address.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rtt-estimator.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \brief One path of a concurrent-multipath (CMT) association, as the
 * sender sees it: where it leads, and its own congestion window, slow-start
 * threshold, RTT estimate and retransmission timer.
 *
 * Its window follows SCTP's rules with the seed's additive increase alpha
 * and multiplicative decrease beta: slow start up to ssthresh (one MSS per
 * MSS acknowledged), then alpha MSS per window of acknowledged bytes; on a
 * loss ssthresh = max((1 - beta) cwnd, 2 MSS) and cwnd = ssthresh; on a
 * timeout cwnd = 1 MSS; after an RTO without data sent, max(cwnd/2, 4 MSS)
 * (RFC 4960 7.2.1, SetIdleDecay). A window equal to ssthresh is in slow
 * start as SCTP's, or in congestion avoidance as TCP's
 * (SetSlowStartAtThreshold); a packet may take the path past its window as
 * SCTP's, or must fit in it as TCP's (SetMayOvershootWindow). The windows
 * and the state are a RudpSenderState (aggregated:
 * PathList/[i]/$ns3::RudpSenderState/CongestionWindow), the retransmission
 * timer a RudpRtoTimer, whose timeout the path traces as RTO, as a
 * single-path RudpSocket does.
 */
class RudpCmtPath : public Object
{
  public:
    /// Whether the sender uses the path.
    enum Status
    {
        ACTIVE, ///< carries new data
        FAILED, ///< too many consecutive timeouts: only probed until it answers
        /**
         * CMT-PF (RudpCmtSender::CmtPf): one timeout made it suspect; it
         * carries no data, only probes, until it answers (ns-2's
         * SCTP_DEST_STATUS_POSSIBLY_FAILED)
         */
        POTENTIALLY_FAILED,
        /**
         * Opened after the association began (an address the peer or this
         * end added): probed, carries no data until it answers (RFC 9260
         * 5.4's path confirmation), and its probes' timeouts are not the
         * association's errors
         */
        UNCONFIRMED,
        /// One of its addresses was deleted: never used, probed or revived again
        REMOVED,
    };

    /**
     * \brief TracedValue callback signature for Status.
     * \param [in] oldValue the previous status
     * \param [in] newValue the new status
     */
    typedef void (*StatusTracedValueCallback)(Status oldValue, Status newValue);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpCmtPath();

    /// \return the windows and congestion state (traced)
    Ptr<RudpSenderState> GetState() const;
    /// \return the path's retransmission timer (its RTT estimator and RTO)
    Ptr<RudpRtoTimer> GetRtoTimer() const;
    /// \return the path's RTT estimator
    Ptr<const RttEstimator> GetRttEstimator() const;
    /**
     * \brief Sets what the path's timer calls when it expires.
     * \param expired called with the path's index
     */
    void SetExpiryCallback(Callback<void, uint32_t> expired);

    /**
     * \brief Sets the window parameters and opens the window.
     * \param mss segment payload bytes
     * \param initialCwnd initial window (segments)
     * \param initialSsThresh initial slow-start threshold (bytes)
     */
    void Open(uint32_t mss, uint32_t initialCwnd, uint32_t initialSsThresh);

    /**
     * \brief New bytes sent on this path were acknowledged.
     *
     * The window grows only if it was fully utilised (RFC 4960 7.2.1 and
     * 7.2.2, ns-2's AdjustCwnd): cwnd or more was in flight (\p flight).
     * By how much, the association's coupling says (RudpCmtCoupling).
     * \param bytes bytes acknowledged
     * \param flight bytes in flight on the path before this acknowledgment
     * \param slowStart bytes the window gains in slow start
     * \param avoidance bytes it gains (or loses) per window acknowledged in
     *        congestion avoidance; it keeps at least one MSS
     */
    void Grow(uint32_t bytes, uint32_t flight, uint32_t slowStart, int64_t avoidance);
    /// \return true while cwnd < ssthresh, or cwnd <= ssthresh (SetSlowStartAtThreshold)
    bool InSlowStart() const;
    /**
     * \brief Whether a window equal to ssthresh is still in slow start.
     *
     * SCTP's rule (RFC 4960 and RFC 9260, 7.2.1: slow start while cwnd <=
     * ssthresh; ns-2 too), the default, grows a window just cut to ssthresh
     * by one more MSS before congestion avoidance. TCP's (RFC 5681: slow
     * start while cwnd < ssthresh, either at equality) goes straight to
     * congestion avoidance, which RFC 6356's coupled increase governs.
     * \param on true for SCTP's rule, false for TCP's
     */
    void SetSlowStartAtThreshold(bool on);
    /// \param bytes bytes sent on the path newly acknowledged (OLIA's count of them)
    void Acknowledged(uint32_t bytes);
    /// \return OLIA's l: the larger of the bytes acknowledged between the last two losses
    ///         and since the last one
    uint64_t GetBytesBetweenLosses() const;
    /**
     * \brief A new RTT measurement of the path (RFC 4960 6.3.1 C2/C3): it
     * sets the RTO anew, undoing the timeouts' doubling (6.3.3 E2), and is
     * traced as RTT.
     * \param rtt the measurement
     */
    void SampleRtt(Time rtt);
    /// All data sent on the path was acknowledged: partial_bytes_acked = 0 (RFC 4960 7.2.2).
    void AllAcknowledged();
    /**
     * \brief A CMT-PF path answered its probe: it is active again with a
     * window of \p segments MSS (ns-2's cmtPFCwnd_).
     * \param segments the window, in segments (1 or 2)
     */
    void Reactivate(uint32_t segments);
    /**
     * \param flight bytes in flight on the path
     * \return true if the window is used (RFC 4960 7.2.1 and 7.2.2): cwnd
     * or more in flight where a packet may overshoot it, else no room
     * left for another segment (SetMayOvershootWindow)
     */
    bool FullyUtilised(uint32_t flight) const;
    /**
     * \brief Which packets the window admits: with SCTP's rule (RFC 4960
     * and 9260 6.1 B, ns-2's; the default) any packet while less than cwnd
     * is outstanding, so that the path may overshoot cwnd by less than one
     * packet; with TCP's (RFC 5681), only packets that fit in cwnd.
     * \param on true for SCTP's rule
     */
    void SetMayOvershootWindow(bool on);
    /**
     * \brief Whether a path that sends no data for an RTO sees its window
     * decay (RFC 4960 7.2.1, RudpCmtSender::IdleWindowDecay); off also
     * stops a decay under way (the sender stops it when it is done).
     * \param on true to decay idle windows
     */
    void SetIdleDecay(bool on);
    /**
     * \brief Data (new or resent) went out on the path: the idle decay waits
     * one RTO (its current value) from now.
     */
    void DataSent();
    /**
     * \brief The path's T3-rtx timer expired: the idle decay stops until
     * the next send (ns-2's CwndDegradeTimer is cancelled then). A decay due
     * at this very instant is applied first, as ns-2.35's trace shows.
     */
    void StopIdleDecay();
    /// \return the known loss rate of the path (LossRate, RTX-LOSSRATE's oracle)
    double GetLossRate() const;
    /**
     * \brief A loss detected by missing reports: ssthresh = cwnd less
     * \p reduction of it (at least 2 MSS), cwnd = ssthresh.
     * \param reduction the fraction taken (the coupling's; uncoupled, beta)
     */
    void Reduce(double reduction);
    /**
     * \brief A retransmission timeout on this path: ssthresh = cwnd less
     * \p reduction of it (at least 2 MSS), cwnd = 1 MSS.
     * \param reduction the fraction taken (RFC 4960 6.3.3: half)
     */
    void Collapse(double reduction = 0.5);

    /**
     * \param inFlight bytes in flight on the path
     * \param length bytes of the next packet
     * \return the window that packet is held to (a send request's
     * congestionWindow): cwnd, or under SCTP's rule, while less than cwnd
     * is outstanding, at least inFlight + length (SetMayOvershootWindow)
     */
    uint32_t WindowFor(uint32_t inFlight, uint32_t length) const;

    /// What the path has carried.
    struct Stats
    {
        uint64_t bytesSent{0};       ///< payload bytes sent on the path, resends included
        uint64_t retransmissions{0}; ///< segments resent on the path
        uint64_t timeouts{0};        ///< expiries of its timer
    };

    /**
     * \brief Names the path: set once, when the sender adds it.
     * \param remote the peer's address on this path (with port)
     * \param index its position in the association
     */
    void SetPeer(const Address& remote, uint32_t index);
    /// \return the peer's address on this path (with port)
    const Address& GetRemote() const;
    /// \return the peer's IPv4 address on this path (what a SACK's source is matched with)
    Ipv4Address GetRemoteIpv4() const;
    /**
     * \brief Binds the path to a local address: it leaves by that address's
     * interface (RudpPathRouting), and SACKs to that address are its own.
     * Set once, when the sender adds it.
     * \param local the address; any (the default): the node's routing picks
     */
    void SetLocal(Ipv4Address local);
    /// \return the local address it is bound to, or any
    Ipv4Address GetLocal() const;
    /**
     * \brief Makes it a backup path (MPTCP's backup flag): it carries data
     * only while no other path is active.
     * \param backup whether it is one
     */
    void SetBackup(bool backup);
    /// \return whether it is a backup path
    bool IsBackup() const;
    /**
     * \brief Whether its local address is usable: its interface and the
     * interface's link are up. A path whose address is not is not revived
     * by a SACK (one that reached its address by another interface).
     * \param up whether it is
     */
    void SetLocalUp(bool up);
    /// \return whether its local address is usable (true unless SetLocalUp said otherwise)
    bool IsLocalUp() const;
    /**
     * \return whether an answer (a SACK, a HEARTBEAT ACK) may make it active
     *         again: its local address is up and it was not removed
     */
    bool MayRevive() const;
    /// \return its position in the association
    uint32_t GetIndex() const;
    /// \return whether it carries new data
    Status GetStatus() const;
    /// \param status whether it carries new data (traced as Status)
    void SetStatus(Status status);
    /// \return what the path has carried
    const Stats& GetStats() const;
    /**
     * \brief Counts a segment sent on the path.
     * \param bytes its payload
     * \param resend whether it was sent before
     */
    void NoteSent(uint32_t bytes, bool resend);
    /// Counts an expiry of its timer, one more in a row (GetConsecutiveTimeouts).
    void NoteTimeout();
    /// Counts a HEARTBEAT unanswered within the RTO, one more in a row (GetConsecutiveTimeouts).
    void NoteUnanswered();
    /// The path answered (data newly acknowledged on it, or a probe's SACK): no timeouts in a row.
    void ResetTimeouts();
    /// \return its timer's expiries and unanswered heartbeats since it last answered
    ///         (RFC 9260's error count)
    uint32_t GetConsecutiveTimeouts() const;

  protected:
    void DoDispose() override;

  private:
    /// The timer expired: tells the sender which path's it was.
    void TimerExpired();
    /// No data went out for an RTO: decays the window, and waits another.
    void IdleTimerExpired();
    /**
     * RFC 4960 7.2.1's adjustment of an idle path's window.
     * \return true if it changed the window
     */
    bool DecayIdleWindow();

    /**
     * The path's windows, aggregated to the path. A plain pointer: a Ptr to
     * an object of one's own aggregate keeps the whole aggregate alive for
     * ever (its reference count never reaches zero), and the aggregate owns
     * the state anyway.
     */
    Address m_remote;                           ///< the peer's address on this path
    Ipv4Address m_remoteIpv4;                   ///< its IPv4 address, converted once
    Ipv4Address m_local{Ipv4Address::GetAny()}; ///< SetLocal (any: the routing picks)
    bool m_backup{false};                       ///< SetBackup
    bool m_localUp{true};                       ///< SetLocalUp
    uint32_t m_index{0};                        ///< position in the association
    TracedValue<Status> m_status{ACTIVE};       ///< whether it carries new data (Status)
    Stats m_stats;                              ///< GetStats
    uint32_t m_consecutiveTimeouts{0};          ///< GetConsecutiveTimeouts
    RudpSenderState* m_state;
    Ptr<RudpRtoTimer> m_rtoTimer;          ///< this path's T3-rtx timer and RTO
    Callback<void, uint32_t> m_expired;    ///< the sender's timeout handler
    TracedCallback<Time, Time> m_rtoTrace; ///< the RTO trace, forwarded from the timer
    TracedValue<Time> m_rtt{Seconds(0)};   ///< the latest RTT measurement (RTT)
    uint32_t m_partialBytesAcked{0};       ///< SCTP's partial_bytes_acked
    uint64_t m_bytesSinceLoss{0};          ///< acknowledged since the last loss (OLIA's l2)
    uint64_t m_bytesBetweenLosses{0};      ///< between the last two losses (OLIA's l1)
    double m_lossRate{0};                  ///< LossRate: RTX-LOSSRATE's oracle
    bool m_idleDecay{false};               ///< RudpCmtSender::IdleWindowDecay
    bool m_slowStartAtThreshold{true};     ///< SetSlowStartAtThreshold
    bool m_mayOvershootWindow{true};       ///< SetMayOvershootWindow
    RudpDeadline m_idleTimer;              ///< an RTO after the latest send
};

} // namespace ns3

#endif /* RUDP_CMT_PATH_H */
