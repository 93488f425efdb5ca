/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_RECEIVER_H
#define RUDP_CMT_RECEIVER_H

#include "rudp-file-source.h"
#include "rudp-rx-buffer.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/traced-value.h"

#include <memory>

namespace ns3
{

class Socket;

/**
 * \ingroup rudp-cmt
 * \brief The receiving end of a concurrent-multipath association: one
 * bounded receive buffer shared by every path, in-order delivery, SACKs.
 *
 * Segments from every path go into one RudpRxBuffer of RcvBufSize bytes;
 * its free space is the window advertised in every SACK, so segments that
 * arrive ahead of a gap — from a faster path, waiting for a slower one —
 * fill the buffer and close the window: receive-buffer blocking (the
 * sender measures it: RudpCmtSender::GetReceiveWindowLimitedTime). The
 * application reads in-order bytes as soon as they are there, and checks
 * each against the sender's generated content.
 *
 * A SACK (cumulative ACK, window, up to 16 gap blocks) goes back on the path
 * the acknowledged segment came from. With DelayedAck every second segment is
 * acknowledged (or after DelAckTimeout); SCTP acknowledges at once when a
 * gap appears, CMT's DAC keeps delaying through reordering and marks a SACK
 * that answers two segments (RudpHeader::PAIR).
 */
class RudpCmtReceiver : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpCmtReceiver();
    ~RudpCmtReceiver() override;

    /// \return in-order bytes delivered to the application
    uint64_t GetDeliveredBytes() const;
    /// \return false if a delivered byte differed from the sender's content
    bool IsContentIntact() const;
    /// \return the largest buffer occupancy seen (bytes)
    uint32_t GetMaxOccupancy() const;
    /// \return the buffer's capacity (bytes)
    uint32_t GetCapacity() const;
    /**
     * \return data segments dropped because the buffer had no room for
     *         them: beyond the advertised window (a probe of a closed
     *         window, or a bogus sequence number)
     */
    uint64_t GetDroppedForSpace() const;
    /// \return datagrams dropped: bad checksum, malformed, wrong length or checksum kind
    uint64_t GetChecksumErrors() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void HandleRead(Ptr<Socket> socket);
    void Deliver();
    void SendSack();

    uint16_t m_port{5000};
    uint32_t m_capacity{1u << 28};
    bool m_delayedAck{true};
    Time m_delAckTimeout{MilliSeconds(200)};
    bool m_dac{true};
    uint64_t m_contentSeed{1};
    RudpHeader::ChecksumKind m_checksumKind{RudpHeader::CHECKSUM_INTERNET16};

    Ptr<Socket> m_socket;
    Ptr<RudpRxBuffer> m_buffer;
    std::unique_ptr<RudpFileSource> m_expected;
    Address m_lastFrom;      ///< where the latest segment came from: the SACK goes back there
    uint32_t m_unacked{0};   ///< segments since the last SACK
    uint32_t m_sacksSent{0}; ///< numbers the SACKs
    EventId m_delAckEvent;
    uint64_t m_delivered{0};
    bool m_intact{true};
    uint64_t m_droppedForSpace{0};
    uint64_t m_checksumErrors{0};
    TracedValue<uint32_t> m_occupancy{0};
    uint32_t m_maxOccupancy{0};
};

} // namespace ns3

#endif /* RUDP_CMT_RECEIVER_H */
