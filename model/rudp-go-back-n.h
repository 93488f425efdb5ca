/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_GO_BACK_N_H
#define RUDP_GO_BACK_N_H

#include "rudp-window-policy.h"

namespace ns3
{

/**
 * \ingroup rudp-window
 * \brief Go-Back-N sliding window (seed 000 variant 2): a fixed window of N
 * segments; a timeout, or ReTxThreshold duplicates of an ACK, resend every
 * segment sent in the window. After a resend, the duplicates that the
 * segments then in flight cause are not counted again: ReTxThreshold more
 * duplicates of the same ACK, which only a lost resend causes, resend again.
 */
class RudpGoBackN : public RudpWindowPolicy
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
    uint32_t m_nextTrigger{3}; ///< duplicates of the current ACK that trigger a resend
};

} // namespace ns3

#endif /* RUDP_GO_BACK_N_H */
