/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_SHA256_H
#define RUDP_SHA256_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup rudp-apps
 * \brief Incremental SHA-256 (OpenSSL's), to compare a sent and a received
 * file without holding either in memory.
 */
class RudpSha256
{
  public:
    /// Bytes of a SHA-256 digest.
    static constexpr size_t DIGEST_SIZE = 32;
    /// A raw SHA-256 digest.
    using Digest = std::array<uint8_t, DIGEST_SIZE>;

    RudpSha256();
    ~RudpSha256();
    RudpSha256(const RudpSha256&) = delete;
    RudpSha256& operator=(const RudpSha256&) = delete;

    /// Adds \p size bytes at \p data to the digest.
    void Update(const uint8_t* data, size_t size);
    /// \return the raw digest of everything added; ends the digest
    Digest FinishDigest();
    /// \return the digest of everything added, as 64 lowercase hex digits; ends the digest
    std::string Finish();

    /**
     * \param data bytes
     * \param size how many
     * \return \p data as lowercase hex digits, two per byte
     */
    static std::string ToHex(const uint8_t* data, size_t size);

  private:
    struct Context;
    std::unique_ptr<Context> m_context;
};

} // namespace ns3

#endif /* RUDP_SHA256_H */
