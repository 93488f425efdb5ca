/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_RENO_H
#define RUDP_RENO_H

#include "rudp-window-policy.h"

namespace ns3
{

/**
 * \ingroup rudp-window
 * \brief Reno congestion control exactly as seed 000's state machine (variant 3).
 *
 * - Slow start: each new ACK adds one MSS; cwnd >= ssthresh moves to
 *   congestion avoidance.
 * - Congestion avoidance: one MSS per cwnd (in segments) new ACKs.
 * - The ReTxThreshold-th duplicate ACK (slow start or congestion
 *   avoidance): ssthresh = cwnd/2, cwnd = ssthresh + ReTxThreshold MSS,
 *   fast recovery, retransmit.
 * - Fast recovery: each further duplicate ACK adds one MSS; a new ACK sets
 *   cwnd = ssthresh and returns to congestion avoidance.
 * - Timeout from any state: ssthresh = cwnd/2, cwnd = 1 MSS, slow start.
 *
 * With SACK (beyond the seed) loss recovery is RFC 6675's (section 5): the
 * duplicates' segments leave the bytes in flight (its pipe), so fast
 * recovery does not inflate the window as well: the ReTxThreshold-th
 * duplicate ACK sets ssthresh = max(cwnd/2, 2 MSS) and cwnd = ssthresh,
 * further duplicates leave it, and recovery ends only with the ACK of
 * everything sent before it, so one loss event halves the window once.
 *
 * New ACKs are counted per ACK segment, as in the seed, not per segment
 * acknowledged. The send window is min(cwnd, WindowSize segments): the seed
 * ran Reno with the same N = 30 as its Go-Back-N.
 */
class RudpReno : public RudpWindowPolicy
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    void Init(Ptr<RudpSenderState> tcb) override;
    uint32_t GetSendWindow(Ptr<const RudpSenderState> tcb) const override;
    void OnNewAck(Ptr<RudpSenderState> tcb, uint32_t segmentsAcked) override;
    bool OnDupAck(Ptr<RudpSenderState> tcb, uint32_t count) override;
    void OnTimeout(Ptr<RudpSenderState> tcb) override;

  private:
    uint32_t m_caAckCount{0};      ///< new ACKs counted towards the next CA increase
    SequenceNumber32 m_recover{0}; ///< with SACK, the recovery point: next sequence at the loss
};

} // namespace ns3

#endif /* RUDP_RENO_H */
