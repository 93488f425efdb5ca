/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_CVTCP_H
#define TCP_CVTCP_H

#include "ns3/nstime.h"
#include "ns3/tcp-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup rudp-window
 * \ingroup congestionOps
 * \brief CVTCP: Cubic's window growth with Veno's loss classification
 * (seed 003, section 2).
 *
 * CVTCP was designed in seed 003 for paths that are either long and fast
 * (where Cubic does well) or lossy (where Veno does well). It keeps four
 * pieces from its parents:
 *
 * - **Slow start** as Reno's (Linux's tcp_slow_start): cwnd grows by one
 *   segment per segment acknowledged until it reaches ssthresh; what is left
 *   of the ACK goes to congestion avoidance.
 * - **Network state**, as Veno estimates it on every ACK:
 *   \f$diff = cwnd - cwnd \cdot BaseRTT / RTT\f$ (segments), where BaseRTT
 *   is the smallest RTT sample of the connection and RTT the smallest sample
 *   since the previous ACK (Linux's tcp_veno). \f$diff < \gamma\f$ (Gamma)
 *   is the non-congestive state: a loss now is taken as random; otherwise as
 *   congestion. Until three RTT samples have arrived, diff keeps its
 *   initial 0 (non-congestive), as in Veno.
 * - **Congestion avoidance** on Cubic's curve
 *   \f$W_{cubic}(t) = C (t - K)^3 + W_{max}\f$, with t the time since the
 *   epoch began (the first ACK in congestion avoidance after a loss) plus
 *   BaseRTT, as Linux's Cubic aims one RTT ahead, and
 *   \f$K = \sqrt[3]{(W_{max} - cwnd_0) / C}\f$ for the cwnd_0 at which the
 *   epoch starts (K = 0 and the plateau at cwnd_0 instead of W_max if
 *   cwnd_0 >= W_max). Cubic's count is
 *   \f$cnt_{cubic} = cwnd / (W_{cubic} - cwnd)\f$ ACKs per one-segment
 *   increase when the target is above cwnd, \f$100 \cdot cwnd\f$ otherwise,
 *   at most 20 before the first loss and at least 2 (at most 1.5x per RTT),
 *   as in Linux's bictcp_update. CVTCP's count is
 *   \f$\min(cnt_{cubic}, cwnd)\f$ in the non-congestive state (so at least
 *   Reno's one segment per RTT) and \f$cnt_{cubic}\f$ in the congestive one.
 *   cwnd grows by one segment each time count segments have been
 *   acknowledged (Linux's tcp_cong_avoid_ai).
 * - **Multiplicative decrease** as Veno's: ssthresh = max(RandomLossBeta x
 *   cwnd, 2 segments) after a random loss (Veno: 4/5), max(Beta x cwnd, 2
 *   segments) after a congestion loss (Veno: 1/2). W_max, the plateau of the
 *   next epoch, is the cwnd at the loss; after a congestion loss below the
 *   previous W_max, with FastConvergence, \f$cwnd (1 + Beta) / 2\f$ (Cubic's
 *   fast convergence, which releases bandwidth to a newcomer; a random loss
 *   says nothing about newcomers and leaves W_max = cwnd). A retransmission
 *   timeout (CA_LOSS) forgets W_max, as Cubic does.
 *
 * Windows are in segments; cwnd and ssthresh in TcpSocketState stay in
 * bytes. Seed 003 gives no value for C, Gamma or the decrease factors; the
 * defaults are the parents': C = 0.4 (Cubic, RFC 8312), Gamma = 3 segments
 * (Veno's beta), Beta = 1/2 and RandomLossBeta = 4/5 (Veno).
 *
 * References: seed 003 (Luo and Li, "Linux内核中拥塞控制算法的比较分析",
 * 2015), S. Ha, I. Rhee and L. Xu, "CUBIC: a new TCP-friendly high-speed TCP
 * variant" (2008), C. P. Fu and S. C. Liew, "TCP Veno: TCP enhancement for
 * transmission over wireless access networks" (2003).
 */
class TcpCvtcp : public TcpCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TcpCvtcp();

    /**
     * \brief Copy constructor: attributes and the connection's state.
     * \param sock the object to copy
     */
    TcpCvtcp(const TcpCvtcp& sock);

    ~TcpCvtcp() override;

    std::string GetName() const override;

    /**
     * \brief Takes an RTT sample for Veno's estimate: BaseRTT (all samples)
     * and the smallest sample since the previous ACK. Zero samples are ignored.
     * \param tcb internal congestion state
     * \param segmentsAcked count of segments acked
     * \param rtt last RTT
     */
    void PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt) override;

    /**
     * \brief Updates diff, then grows cwnd: Reno's slow start below ssthresh,
     * Cubic's curve with the count of the network state above.
     * \param tcb internal congestion state (cwnd may change)
     * \param segmentsAcked count of segments acked
     */
    void IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked) override;

    /**
     * \brief Veno's multiplicative decrease by the network state at the loss;
     * sets W_max and ends the Cubic epoch.
     * \param tcb internal congestion state (cwnd is read, not changed)
     * \param bytesInFlight bytes in flight (not used: the decrease is of cwnd,
     * as in Linux's Cubic and Veno)
     * \return the slow start threshold, bytes (at least two segments)
     */
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;

    /**
     * \brief CA_LOSS (a retransmission timeout) forgets W_max and the epoch,
     * as Cubic does; the RTT estimates stay.
     * \param tcb internal congestion state
     * \param newState the state TCP is going to
     */
    void CongestionStateSet(Ptr<TcpSocketState> tcb,
                            const TcpSocketState::TcpCongState_t newState) override;

    Ptr<TcpCongestionOps> Fork() override;

    /**
     * \brief Veno's estimate of the segments queued at the bottleneck, as of
     * the latest ACK.
     * \return diff = cwnd - cwnd BaseRTT / RTT, segments
     */
    double GetDiff() const;

    /**
     * \return true if a loss now would be taken as random (diff < Gamma)
     */
    bool IsNonCongestive() const;

  private:
    /**
     * \brief Cubic's count for the current cwnd and time.
     * \param tcb internal congestion state
     * \return segments to be acknowledged per one-segment increase (>= 2)
     */
    uint32_t CubicCount(Ptr<const TcpSocketState> tcb);

    /// Forgets W_max and the epoch (a retransmission timeout).
    void CubicReset();

    // Attributes
    double m_c{0.4};              //!< Cubic's scaling constant C, segments/s^3
    double m_gamma{3};            //!< diff threshold gamma, segments
    double m_beta{0.5};           //!< decrease factor after a congestion loss
    double m_randomLossBeta{0.8}; //!< decrease factor after a random loss
    bool m_fastConvergence{true}; //!< Cubic's fast convergence after congestion losses

    // Veno's estimate
    Time m_baseRtt{Time::Max()}; //!< smallest RTT sample of the connection
    Time m_minRtt{Time::Max()};  //!< smallest RTT sample since the previous ACK
    uint32_t m_cntRtt{0};        //!< RTT samples taken
    double m_diff{0};            //!< cwnd - cwnd BaseRTT / RTT, segments

    // Cubic's epoch
    double m_lastMaxCwnd{0};        //!< W_max, segments (0: no loss yet)
    double m_originPoint{0};        //!< the curve's plateau this epoch, segments
    double m_k{0};                  //!< K, s
    Time m_epochStart{Time::Min()}; //!< start of the epoch (Time::Min(): none)
    uint32_t m_cWndCnt{0};          //!< segments acknowledged towards the next increase
};

} // namespace ns3

#endif /* TCP_CVTCP_H */
