/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_MODEL_ASSUMPTIONS_H
#define RUDP_CMT_MODEL_ASSUMPTIONS_H

#include "ns3/error-model.h"
#include "ns3/sequence-number.h"
#include "ns3/tag.h"

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \brief Marks a CMT data packet with its segment and transmission number,
 * for RudpCmtSender's ModelAssumptions mode.
 *
 * A packet tag: it travels with the packet to the receiving device, whose
 * error model (RudpFirstTransmissionErrorModel) reads it to spare
 * retransmissions, and whose PhyRxDrop trace hands a dropped packet back
 * to RudpCmtSender::NotifyDataDropped, the mode's loss oracle. The sender
 * adds it only in that mode; nothing else reads it.
 */
class RudpCmtTransmissionTag : public Tag
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RudpCmtTransmissionTag();
    /**
     * \param sequence the segment's first sequence number
     * \param transmission 1 for its first transmission, 2 for its first resend, ...
     */
    RudpCmtTransmissionTag(SequenceNumber32 sequence, uint32_t transmission);

    /// \return the segment's first sequence number
    SequenceNumber32 GetSequence() const;
    /// \return 1 for a first transmission, more for a retransmission
    uint32_t GetTransmission() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_sequence{0};     ///< the segment's first sequence number (its value)
    uint32_t m_transmission{0}; ///< the transmission number, 1 for the first
};

/**
 * \ingroup rudp-cmt
 * \brief An ErrorModel that never drops a retransmission: a packet carrying
 * a RudpCmtTransmissionTag with a transmission number above 1 passes, any
 * other packet is dropped when the inner model says so.
 *
 * It is the "retransmissions are never lost" assumption of seed 002's
 * analytic model, for RudpCmtSender's ModelAssumptions mode; RudpCmtHelper
 * installs it around each path's RateErrorModel in that mode (the inner
 * model keeps its rate and random stream, RudpCmtHelper::GetLossModel
 * returns it). Packets without the tag are the inner model's to judge.
 */
class RudpFirstTransmissionErrorModel : public ErrorModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpFirstTransmissionErrorModel();

    /// \param inner the model that decides for first transmissions
    void SetInner(Ptr<ErrorModel> inner);
    /// \return the model that decides for first transmissions
    Ptr<ErrorModel> GetInner() const;
    /// \return retransmissions this model let through without asking the inner one
    uint64_t GetSparedRetransmissions() const;

  protected:
    void DoDispose() override;

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    Ptr<ErrorModel> m_inner; ///< decides for everything but retransmissions
    uint64_t m_spared{0};    ///< retransmissions let through
};

} // namespace ns3

#endif /* RUDP_CMT_MODEL_ASSUMPTIONS_H */
