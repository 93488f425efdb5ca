/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_RECEIVER_H
#define RUDP_CMT_RECEIVER_H

#include "rudp-file-source.h"
#include "rudp-header.h"
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
 * that answers two segments (RudpHeader::PAIR). A segment that fills (part
 * of) a gap is acknowledged at once (SackOnGapFill, RFC 4960 6.7), unless
 * that is off, as ns-2.31's DAC receiver has it.
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

    /**
     * \brief Serves one direction of a RudpCmtSocket's association instead
     * of running as an application: the socket reads \p udp and hands the
     * data segments to Receive; in-order bytes wait in the buffer for Read
     * (unread, they hold the advertised window down, as TCP's do) instead of
     * being checked against generated content. Call once, instead of
     * starting the application.
     * \param udp the association's UDP socket, for the SACKs
     * \param dataReady called when in-order bytes become readable
     */
    void Attach(Ptr<Socket> udp, Callback<void> dataReady);
    /**
     * \brief Takes a segment from the peer (data, or a probe).
     * \param header its header (decoded, checksum checked)
     * \param payload its data
     * \param from where it came from: the SACK goes back there
     */
    void Receive(const RudpHeader& header, Ptr<Packet> payload, const Address& from);
    /**
     * \brief Attached: takes in-order bytes out of the buffer, and
     * announces the window at once if that reopened it
     * (RudpRxBuffer::WindowReopened).
     * \param maxSize the most bytes to take
     * \param mss the sender's segment size
     * \return the bytes, or nullptr if none is readable
     */
    Ptr<Packet> Read(uint32_t maxSize, uint32_t mss);
    /// \return in-order bytes Read can take now
    uint32_t GetRxAvailable() const;
    /// \return the sequence number of the next byte expected in order
    SequenceNumber32 GetNextRxSequence() const;
    /**
     * \brief Sends a SACK to \p to now (the association's set-up, or a
     * window that reopened); later SACKs go where data comes from.
     * \param to the peer's address on a path
     */
    void Acknowledge(const Address& to);
    /// Attached: the association is over; no delayed SACK fires.
    void Halt();

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
    /// Opens the buffer and takes m_socket (application or attached).
    void Begin(Ptr<Socket> udp);
    /// Takes every datagram waiting on \p socket.
    void HandleRead(Ptr<Socket> socket);
    /// Hands the in-order data to the application (checks it against ContentSeed).
    void Deliver();
    /// Sends a SACK to where the latest segment came from.
    void SendSack();
    /// \param count DelAckCount: 2 delays SACKs, 1 does not
    void SetDelAckCount(uint32_t count);
    /// \return DelAckCount
    uint32_t GetDelAckCount() const;

    uint16_t m_port{5000};                   ///< Port
    uint32_t m_capacity{1u << 28};           ///< RcvBufSize (bytes)
    bool m_delayedAck{true};                 ///< DelAckCount 2: a SACK every second segment
    Time m_delAckTimeout{MilliSeconds(200)}; ///< DelAckTimeout
    bool m_dac{true};                        ///< Dac
    bool m_sackOnGapFill{true};              ///< SackOnGapFill
    uint64_t m_contentSeed{1};               ///< ContentSeed
    RudpHeader::ChecksumKind m_checksumKind{RudpHeader::CHECKSUM_INTERNET16}; ///< Checksum

    Ptr<Socket> m_socket;                       ///< the UDP socket
    Ptr<RudpRxBuffer> m_buffer;                 ///< the association's receive buffer
    std::unique_ptr<RudpFileSource> m_expected; ///< the data expected, to check it (application)
    Callback<void> m_dataReady;                 ///< attached: in-order bytes became readable
    Address m_lastFrom;            ///< where the latest segment came from: the SACK goes back there
    uint32_t m_unacked{0};         ///< segments since the last SACK
    uint32_t m_sacksSent{0};       ///< numbers the SACKs
    EventId m_delAckEvent;         ///< the delayed SACK
    uint64_t m_delivered{0};       ///< bytes delivered in order
    bool m_intact{true};           ///< every delivered byte was as expected
    uint64_t m_droppedForSpace{0}; ///< segments dropped for want of buffer
    uint64_t m_checksumErrors{0};  ///< datagrams dropped: bad checksum or header
    TracedValue<uint32_t> m_occupancy{0}; ///< bytes held (BufferOccupancy)
    uint32_t m_maxOccupancy{0};           ///< the most bytes held
    SequenceNumber32 m_highestReceived;   ///< end of the highest segment received
};

} // namespace ns3

#endif /* RUDP_CMT_RECEIVER_H */
