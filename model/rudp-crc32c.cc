/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-crc32c.h"

#include <array>

namespace ns3
{

namespace
{

/// The reflected generator polynomial of CRC-32c (0x1EDC6F41 bit-reversed).
constexpr uint32_t POLYNOMIAL = 0x82f63b78u;

/// Eight tables of 256 entries: table[k][b] advances byte b through 8 (k + 1) zero bits.
using Tables = std::array<std::array<uint32_t, 256>, 8>;

/// \return the tables, computed at compile time
constexpr Tables
MakeTables()
{
    Tables tables{};
    for (uint32_t b = 0; b < 256; ++b)
    {
        uint32_t crc = b;
        for (int bit = 0; bit < 8; ++bit)
        {
            crc = (crc & 1) ? (crc >> 1) ^ POLYNOMIAL : crc >> 1;
        }
        tables[0][b] = crc;
    }
    for (uint32_t b = 0; b < 256; ++b)
    {
        for (size_t k = 1; k < 8; ++k)
        {
            const uint32_t previous = tables[k - 1][b];
            tables[k][b] = (previous >> 8) ^ tables[0][previous & 0xff];
        }
    }
    return tables;
}

constexpr Tables TABLES = MakeTables();

} // namespace

uint32_t
RudpCrc32c::Update(uint32_t crc, const uint8_t* data, size_t size)
{
    const auto& t = TABLES;
    // Eight bytes at a time, assembled least significant byte first as the
    // reflected register expects, whatever the host's byte order.
    while (size >= 8)
    {
        const uint32_t low =
            crc ^ (static_cast<uint32_t>(data[0]) | static_cast<uint32_t>(data[1]) << 8 |
                   static_cast<uint32_t>(data[2]) << 16 | static_cast<uint32_t>(data[3]) << 24);
        crc = t[7][low & 0xff] ^ t[6][(low >> 8) & 0xff] ^ t[5][(low >> 16) & 0xff] ^
              t[4][low >> 24] ^ t[3][data[4]] ^ t[2][data[5]] ^ t[1][data[6]] ^ t[0][data[7]];
        data += 8;
        size -= 8;
    }
    while (size-- > 0)
    {
        crc = (crc >> 8) ^ t[0][(crc ^ *data++) & 0xff];
    }
    return crc;
}

uint32_t
RudpCrc32c::Compute(const uint8_t* data, size_t size)
{
    return Finish(Update(Init(), data, size));
}

} // namespace ns3
