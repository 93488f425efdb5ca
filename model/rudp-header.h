/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_HEADER_H
#define RUDP_HEADER_H

#include "ns3/header.h"
#include "ns3/packet.h"
#include "ns3/sequence-number.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rudp
 * \brief Header of a reliable-UDP segment (seed 000's message format).
 *
 * Carried as the payload of a UDP datagram; the source and destination ports
 * are UDP's. Wire layout, all fields in network byte order:
 *
 * \verbatim
   0                   1                   2                   3
   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
  +---------------------------------------------------------------+
  |                        Sequence number                        |
  +---------------------------------------------------------------+
  |                     Acknowledgment number                     |
  +---------------+---------------+-------------------------------+
  |     Flags     |  SACK blocks  |        Payload length         |
  +---------------+---------------+-------------------------------+
  |                  Receive window (bytes)                       |
  +-------------------------------+-------------------------------+
  |           Checksum            |  SACK blocks: n x (left, right)
  +-------------------------------+ ...
 \endverbatim
 *
 * The checksum is the RFC 1071 16-bit one's-complement sum over header and
 * payload (an odd trailing byte padded with zero). It depends on the payload,
 * which a Header does not see efficiently, so the sender computes it with
 * ComputeChecksum(payload) before adding the header, and the receiver checks
 * it with IsChecksumOk(payload) after removing it. Both read the payload with
 * Packet::CopyData (a memcpy; virtual zero bytes are not materialised).
 */
class RudpHeader : public Header
{
  public:
    /// Flag bits. SYN and FIN each consume one sequence number.
    enum Flag : uint8_t
    {
        NONE = 0,
        SYN = 0x01,
        ACK = 0x02,
        FIN = 0x04,
        SACK_PERMITTED = 0x08, ///< on SYN and SYN|ACK: the sender accepts SACK blocks
        PAIR = 0x10,           ///< this ACK answers two data segments (delayed ACK; CMT's DAC)
    };

    /// A received block of sequence space, [left, right).
    struct SackBlock
    {
        SequenceNumber32 left;  ///< first sequence number of the block
        SequenceNumber32 right; ///< one past the last sequence number of the block
    };

    static constexpr uint32_t FIXED_SIZE = 18;     ///< bytes without SACK blocks
    static constexpr uint8_t MAX_SACK_BLOCKS = 16; ///< most SACK blocks one header carries

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /// Reads the header; a size field that cannot be right marks it malformed.
    uint32_t Deserialize(Buffer::Iterator start) override;

    void SetSequenceNumber(SequenceNumber32 seq);
    SequenceNumber32 GetSequenceNumber() const;
    void SetAckNumber(SequenceNumber32 ack);
    SequenceNumber32 GetAckNumber() const;
    void SetFlags(uint8_t flags);
    uint8_t GetFlags() const;
    /// \return true if every bit of \p flags is set
    bool HasFlags(uint8_t flags) const;
    /// \param length payload bytes that follow this header in the packet
    void SetPayloadLength(uint16_t length);
    uint16_t GetPayloadLength() const;
    /// \param window bytes the sender of this header can still buffer
    void SetWindow(uint32_t window);
    uint32_t GetWindow() const;
    /// \param blocks at most MAX_SACK_BLOCKS blocks
    void SetSackBlocks(const std::vector<SackBlock>& blocks);
    const std::vector<SackBlock>& GetSackBlocks() const;

    /**
     * \brief Sets the checksum field for this header followed by \p payload
     * (call after every other field is set).
     * \param payload the bytes the header will precede
     */
    void ComputeChecksum(Ptr<const Packet> payload);
    /// \param checksum the checksum field, as it goes on the wire
    void SetChecksum(uint16_t checksum);
    /// \return the checksum field
    uint16_t GetChecksum() const;
    /**
     * \param payload the bytes that followed this header
     * \return true if the header is well formed, \p payload has the length
     *         it announces, and the checksum over both is right
     */
    bool IsChecksumOk(Ptr<const Packet> payload) const;

    /// \return a string like "SYN|ACK" for \p flags
    static std::string FlagsToString(uint8_t flags);

    /**
     * \brief RFC 1071: adds \p size bytes as 16-bit big-endian words (an odd
     * last byte padded with zero) to a one's-complement partial sum.
     * \param data the bytes
     * \param size how many
     * \param sum the partial sum so far (0 to start)
     * \return the new partial sum, not yet folded
     */
    static uint64_t AddToSum(const uint8_t* data, size_t size, uint64_t sum);
    /**
     * \brief RFC 1071: folds a partial sum to 16 bits and complements it.
     * \return the checksum as it goes on the wire, in network byte order
     */
    static uint16_t FoldChecksum(uint64_t sum);

  private:
    /// Writes the wire bytes of this header to \p out (GetSerializedSize bytes).
    void Write(uint8_t* out) const;
    /// \return the one's-complement sum of this header and \p payload
    uint64_t SumWith(Ptr<const Packet> payload) const;

    SequenceNumber32 m_seq{0};
    SequenceNumber32 m_ack{0};
    uint8_t m_flags{NONE};
    uint16_t m_payloadLength{0};
    uint32_t m_window{0};
    std::vector<SackBlock> m_sackBlocks;
    uint16_t m_checksum{0};
    bool m_malformed{false};
};

} // namespace ns3

#endif /* RUDP_HEADER_H */
