/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_STOP_AND_WAIT_H
#define RUDP_STOP_AND_WAIT_H

#include "rudp-window-policy.h"

namespace ns3
{

/**
 * \ingroup rudp-window
 * \brief Stop-and-wait (rdt3.0, seed 000 variant 1): one segment outstanding;
 * a timeout, a duplicate ACK or a corrupted segment retransmits it.
 */
class RudpStopAndWait : public RudpWindowPolicy
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
    bool RetransmitOnCorruption() const override;
};

} // namespace ns3

#endif /* RUDP_STOP_AND_WAIT_H */
