/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_HEADER_H
#define RUDP_HEADER_H

#include "ns3/attribute.h"
#include "ns3/header.h"
#include "ns3/packet.h"
#include "ns3/sequence-number.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-socket
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
 * With the CRC32C flag (0x20) set, the checksum field is 32 bits wide and
 * the fixed part is 20 bytes instead of 18:
 *
 * \verbatim
  +---------------------------------------------------------------+
  |                  Receive window (bytes)                       |
  +---------------------------------------------------------------+
  |                      Checksum (CRC-32c)                       |
  +---------------------------------------------------------------+
  |                 SACK blocks: n x (left, right) ...
 \endverbatim
 *
 * The checksum covers header and payload. Internet16 (the default, seed
 * 000's) is the RFC 1071 16-bit one's-complement sum, an odd trailing byte
 * padded with zero; Crc32c is SCTP's CRC-32c (RFC 4960 appendix B,
 * RudpCrc32c) over the segment with the checksum field zero, in network
 * byte order. Deserialize reads the layout from the flags byte. The kind is
 * not a control flag: GetFlags and SetFlags leave the CRC32C bit alone, and
 * SetChecksumKind chooses it.
 *
 * The checksum depends on the payload, which a Header does not see
 * efficiently, so the sender computes it with ComputeChecksum(payload)
 * before adding the header, and the receiver checks it with
 * IsChecksumOk(datagram, header size) before removing it; RudpSegmentCodec does both
 * steps, with the size checks, in one place for every sender and receiver
 * of the module. Both read the payload with Packet::CopyData (a memcpy;
 * virtual zero bytes are not materialised).
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
        CRC32C = 0x20, ///< wire bit only: the checksum field is a 32-bit CRC-32c (SetChecksumKind)
        /**
         * RFC 9260 8.3's HEARTBEAT: the payload is the sender's heartbeat
         * information (RudpCmtHeartbeatInfo); with ACK, the HEARTBEAT ACK
         * that echoes it byte for byte
         */
        HEARTBEAT = 0x40,
        /**
         * RFC 5061's ASCONF: the payload asks the peer to add or delete
         * addresses of the association (RudpCmtAddressChange); with ACK,
         * the ASCONF-ACK that answers it
         */
        ADDRESS_CHANGE = 0x80,
    };

    /// The checksum a segment carries.
    enum ChecksumKind
    {
        CHECKSUM_INTERNET16, ///< RFC 1071 16-bit one's-complement sum (seed 000's)
        CHECKSUM_CRC32C,     ///< CRC-32c (Castagnoli), as SCTP's (RFC 4960 appendix B)
    };

    /// A received block of sequence space, [left, right).
    struct SackBlock
    {
        SequenceNumber32 left;  ///< first sequence number of the block
        SequenceNumber32 right; ///< one past the last sequence number of the block
    };

    static constexpr uint32_t FIXED_SIZE = 18;        ///< bytes without SACK blocks (Internet16)
    static constexpr uint32_t FIXED_SIZE_CRC32C = 20; ///< the same with a CRC-32c
    static constexpr uint8_t MAX_SACK_BLOCKS = 16;    ///< most SACK blocks one header carries

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \brief Reads the header, never past the end of \p start: a buffer
     * shorter than the fixed part, or a SACK block count that does not fit
     * or exceeds MAX_SACK_BLOCKS, marks the header malformed.
     * \return bytes read: 0 if the fixed part did not fit, only the fixed
     *         part for a bad SACK block count
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    void SetSequenceNumber(SequenceNumber32 seq);
    SequenceNumber32 GetSequenceNumber() const;
    void SetAckNumber(SequenceNumber32 ack);
    SequenceNumber32 GetAckNumber() const;
    /// \param flags the control flags (a CRC32C bit in them is ignored)
    void SetFlags(uint8_t flags);
    /// \return the control flags, without the CRC32C bit
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
    /// \param blocks at most MAX_SACK_BLOCKS blocks, taken over (no copy)
    void SetSackBlocks(std::vector<SackBlock>&& blocks);
    const std::vector<SackBlock>& GetSackBlocks() const;

    /**
     * \param kind the checksum this header carries (sets or clears the
     *        CRC32C bit, and so the header's size)
     */
    void SetChecksumKind(ChecksumKind kind);
    /// \return the checksum this header carries
    ChecksumKind GetChecksumKind() const;

    /**
     * \brief Sets the checksum field for this header followed by \p payload
     * (call after every other field is set, the checksum kind included).
     * \param payload the bytes the header will precede
     */
    void ComputeChecksum(Ptr<const Packet> payload);
    /**
     * \param checksum the checksum field, as it goes on the wire (16 bits
     *        used with Internet16)
     */
    void SetChecksum(uint32_t checksum);
    /// \return the checksum field
    uint32_t GetChecksum() const;
    /**
     * \param packet the bytes that followed this header, from \p payloadOffset on
     * \param payloadOffset where the payload starts in \p packet: 0, or the
     *        header's size in a datagram as it arrived
     * \return true if the header is well formed, the payload has the length
     *         it announces, and the checksum over both is right
     */
    bool IsChecksumOk(Ptr<const Packet> packet, uint32_t payloadOffset = 0) const;
    /// \return true if Deserialize found the header malformed (short, or a bad SACK count)
    bool IsMalformed() const;

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
    /// \return the size of the fixed part with this header's checksum kind
    uint32_t FixedSize() const;
    /// Writes the wire bytes of this header to \p out (GetSerializedSize bytes).
    void Write(uint8_t* out) const;
    /**
     * \param packet the bytes that follow this header, from \p payloadOffset on
     * \param payloadOffset where the payload starts in \p packet
     * \param checksum the value to write in the checksum field
     * \return the one's-complement sum (Internet16) or the CRC-32c of this
     *         header, with \p checksum in its field, and the payload
     */
    uint64_t ChecksumOver(Ptr<const Packet> packet,
                          uint32_t payloadOffset,
                          uint32_t checksum) const;

    SequenceNumber32 m_seq{0}; ///< sequence number of the first payload byte
    SequenceNumber32 m_ack{0}; ///< next sequence number expected from the peer
    uint8_t m_flags{NONE};     ///< control flags (never the CRC32C bit)
    ChecksumKind m_checksumKind{CHECKSUM_INTERNET16}; ///< the wire's CRC32C bit
    uint16_t m_payloadLength{0};                      ///< payload bytes announced
    uint32_t m_window{0};                             ///< receive window (bytes)
    std::vector<SackBlock> m_sackBlocks;              ///< received blocks beyond the cumulative ACK
    uint32_t m_checksum{0};  ///< checksum field (16 bits used with Internet16)
    bool m_malformed{false}; ///< Deserialize found a size that cannot be right
};

/**
 * \ingroup rudp-socket
 * \brief Encode and decode of whole RUDP segments: header, checksum and
 * payload, with every check a received datagram needs, in one place for
 * RudpSocket, RudpCmtSender and RudpCmtReceiver.
 */
class RudpSegmentCodec
{
  public:
    /// What Decode found.
    enum Result
    {
        OK,              ///< a well-formed segment with a right checksum
        MALFORMED,       ///< shorter than a header, or a size field that cannot be right
        WRONG_KIND,      ///< carries the other checksum kind than the one configured
        LENGTH_MISMATCH, ///< the payload is not as long as the header says
        BAD_CHECKSUM,    ///< the checksum does not match the bytes
    };

    /**
     * \brief Completes \p header for \p payload (payload length, checksum
     * kind, checksum) and puts it in front of a copy of the payload.
     * \param header every other field already set; on return, as sent
     * \param payload the segment's payload (at most 65535 bytes; not changed)
     * \param kind the checksum to send
     * \return the datagram: header and payload
     */
    static Ptr<Packet> Encode(RudpHeader& header,
                              Ptr<const Packet> payload,
                              RudpHeader::ChecksumKind kind);

    /**
     * \brief Checks a received datagram and, if it is a good segment, removes
     * its header: the datagram is then the payload. A receiver that owns the
     * datagram (a socket's RecvFrom) saves a copy of it per segment.
     * \param datagram the UDP payload as it arrived; left so unless OK
     * \param kind the checksum the receiver expects: the other kind is an error
     * \param header set to the header read (if any could be)
     * \return OK, or why the datagram must be dropped
     */
    static Result Decode(Ptr<Packet> datagram, RudpHeader::ChecksumKind kind, RudpHeader& header);
    /**
     * \brief Checks a datagram the caller must not change (a trace's) and
     * splits a copy of it into header and payload.
     * \param datagram the UDP payload as it arrived (not changed)
     * \param kind the checksum the receiver expects: the other kind is an error
     * \param header set to the header read (if any could be)
     * \param payload set to the payload on OK, else to nullptr
     * \return OK, or why the datagram must be dropped
     */
    static Result Decode(Ptr<const Packet> datagram,
                         RudpHeader::ChecksumKind kind,
                         RudpHeader& header,
                         Ptr<Packet>& payload);

    /// \return the name of \p result, e.g. "BAD_CHECKSUM"
    static const char* ResultName(Result result);
};

/**
 * \ingroup rudp-socket
 * \return the checker of a Checksum attribute: "Internet16" or "Crc32c"
 */
Ptr<const AttributeChecker> MakeRudpChecksumKindChecker();

} // namespace ns3

#endif /* RUDP_HEADER_H */
