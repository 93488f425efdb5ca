/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_WINDOW_POLICY_H
#define RUDP_WINDOW_POLICY_H

#include "rudp-sender-state.h"

#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup rudp-window
 * \brief How much a RUDP sender may have in flight, and when a duplicate ACK
 * or a timeout calls for a retransmission: the protocol variant.
 *
 * RudpSocket is the one sender engine (buffers, segmentation, cumulative and
 * selective ACKs, the retransmission timer); the variant is this small policy
 * behind it, as TcpCongestionOps is behind TcpSocketBase. Which segments are
 * retransmitted is the engine's business: all sent and unacknowledged ones
 * (Go-Back-N, the seed's behaviour), or only the holes when selective repeat
 * is on.
 */
class RudpWindowPolicy : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \return the variant's name, e.g. "Reno"
    virtual std::string GetName() const = 0;

    /**
     * \brief Sets the initial window state; called once when the connection opens.
     * \param tcb the sender state (segment size and limits already set)
     */
    virtual void Init(Ptr<RudpSenderState> tcb) = 0;

    /**
     * \param tcb the sender state
     * \return bytes the sender may have in flight, before the receiver's window
     */
    virtual uint32_t GetSendWindow(Ptr<const RudpSenderState> tcb) const = 0;

    /**
     * \brief A cumulative ACK acknowledged new data.
     * \param tcb the sender state, may be changed
     * \param segmentsAcked segments newly acknowledged (at least 1)
     */
    virtual void OnNewAck(Ptr<RudpSenderState> tcb, uint32_t segmentsAcked) = 0;

    /**
     * \brief A duplicate ACK arrived while data was outstanding.
     * \param tcb the sender state, may be changed
     * \param count duplicates of this ACK so far (1 for the first)
     * \return true if the engine must retransmit now
     */
    virtual bool OnDupAck(Ptr<RudpSenderState> tcb, uint32_t count) = 0;

    /**
     * \brief The retransmission timer expired; the engine retransmits afterwards.
     * \param tcb the sender state, may be changed
     */
    virtual void OnTimeout(Ptr<RudpSenderState> tcb) = 0;

    /**
     * \return true if a corrupted segment arriving while data is outstanding
     *         calls for a retransmission (rdt3.0's reaction to a bad checksum)
     */
    virtual bool RetransmitOnCorruption() const;
};

} // namespace ns3

#endif /* RUDP_WINDOW_POLICY_H */
