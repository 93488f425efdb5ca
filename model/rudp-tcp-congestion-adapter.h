/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_TCP_CONGESTION_ADAPTER_H
#define RUDP_TCP_CONGESTION_ADAPTER_H

#include "rudp-window-policy.h"

#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-socket-state.h"

namespace ns3
{

/**
 * \ingroup rudp-window
 * \brief Any ns-3 TcpCongestionOps (TcpCubic, TcpVeno, TcpCvtcp, ...) as a
 * RUDP window policy.
 *
 * It keeps a TcpSocketState for the algorithm and drives it with the calls
 * TcpSocketBase makes: PktsAcked on every new ACK (one segment for a partial
 * ACK in recovery) and on every duplicate ACK, and IncreaseWindow outside
 * fast recovery; GetSsThresh and CA_RECOVERY on the ReTxThreshold-th
 * duplicate ACK, until an ACK covers everything sent before it (RFC 6582's
 * recovery point: partial ACKs keep it in recovery, one reduction per
 * window); CA_LOSS with a one-segment window on a timeout, and GetSsThresh
 * then only if no reduction was made in this window already: not in fast
 * recovery, nor in the loss state unless an ACK advanced since the last
 * timeout (RFC 5681 section 3.1, Linux's tcp_enter_loss).
 * Without selective repeat the window is inflated by one segment per
 * duplicate ACK and deflated on partial ACKs as NewReno does; with it the
 * SACKed segments leave the flight instead (RFC 6675's pipe), as in
 * TcpSocketBase with SACK. The resulting windows are copied to the
 * RUDP sender state, whose traces report them; the window is capped at
 * WindowSize segments as for seed 000's Reno. Algorithms that replace the
 * whole control loop (HasCongControl(), e.g. BBR) need TCP's rate sampling
 * and are refused.
 */
class RudpTcpCongestionAdapter : public RudpWindowPolicy
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \param algorithm the congestion control to drive
    void SetCongestionOps(Ptr<TcpCongestionOps> algorithm);
    /// \return the congestion control it drives
    Ptr<TcpCongestionOps> GetCongestionOps() const;
    /// \return the TCP state the algorithm reads and changes
    Ptr<const TcpSocketState> GetTcpState() const;

    std::string GetName() const override;
    void Init(Ptr<RudpSenderState> tcb) override;
    uint32_t GetSendWindow(Ptr<const RudpSenderState> tcb) const override;
    void OnNewAck(Ptr<RudpSenderState> tcb, uint32_t segmentsAcked) override;
    bool OnDupAck(Ptr<RudpSenderState> tcb, uint32_t count) override;
    void OnTimeout(Ptr<RudpSenderState> tcb) override;

  private:
    /// Gives the algorithm the engine's latest RTT and flight size.
    void Refresh(Ptr<const RudpSenderState> tcb);
    /// Moves the algorithm to \p state, telling it as TcpSocketBase does.
    void SetCongState(TcpSocketState::TcpCongState_t state);
    /// Copies the algorithm's windows and state to the RUDP sender state.
    void Publish(Ptr<RudpSenderState> tcb) const;

    Ptr<TcpCongestionOps> m_algorithm;
    Ptr<TcpSocketState> m_state{CreateObject<TcpSocketState>()};
    SequenceNumber32 m_recover{0};     ///< the recovery point: highest sequence sent at the loss
    SequenceNumber32 m_timeoutHead{0}; ///< the first unacknowledged sequence at the last timeout
};

} // namespace ns3

#endif /* RUDP_TCP_CONGESTION_ADAPTER_H */
