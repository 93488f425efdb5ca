/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CRC32C_H
#define RUDP_CRC32C_H

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup rudp-socket
 * \brief CRC-32c (Castagnoli), the checksum of SCTP (RFC 4960 appendix B,
 * RFC 3309) and iSCSI (RFC 3720 appendix B.4).
 *
 * Generator polynomial 0x1EDC6F41, processed least significant bit first
 * (reflected constant 0x82F63B78), register preset to all ones and the
 * result complemented: Compute("123456789") is 0xE3069283. Table driven,
 * eight bytes per step ("slicing by 8"), in portable C++: the result does
 * not depend on the host's byte order.
 *
 * For incremental use: start from Init(), Update() with each piece, then
 * Finish(); Compute() does all three for one buffer.
 */
class RudpCrc32c
{
  public:
    /// \return the register value before any byte
    static constexpr uint32_t Init()
    {
        return 0xffffffffu;
    }

    /**
     * \param crc the register value after the bytes before \p data
     * \param data the next bytes
     * \param size how many
     * \return the register value after them
     */
    static uint32_t Update(uint32_t crc, const uint8_t* data, size_t size);

    /// \return the CRC of everything given to Update, from the register value \p crc
    static constexpr uint32_t Finish(uint32_t crc)
    {
        return ~crc;
    }

    /**
     * \param data the bytes
     * \param size how many
     * \return their CRC-32c
     */
    static uint32_t Compute(const uint8_t* data, size_t size);
};

} // namespace ns3

#endif /* RUDP_CRC32C_H */
