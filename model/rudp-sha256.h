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
 * \brief Incremental SHA-256, to compare a sent and a received file without
 * holding either in memory.
 *
 * The digest comes from OpenSSL's libcrypto when the module was built with
 * it (the build finds it by itself), else from RudpSha256Portable, the
 * module's own implementation of FIPS 180-4. Both give the same digests;
 * GetBackend() says which one this build uses.
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

    /// \return the implementation this build uses: "openssl" or "portable"
    static const char* GetBackend();

  private:
    struct Context;
    std::unique_ptr<Context> m_context;
};

/**
 * \ingroup rudp-apps
 * \brief SHA-256 as FIPS 180-4 (section 6.2) specifies it, in portable C++:
 * RudpSha256's digest when the module is built without OpenSSL, and always
 * compiled, so that its tests run in every build.
 */
class RudpSha256Portable
{
  public:
    RudpSha256Portable();

    /// Adds \p size bytes at \p data to the message.
    void Update(const uint8_t* data, size_t size);
    /// \return the digest of the message; ends it (a later Update or Finish aborts)
    RudpSha256::Digest Finish();

  private:
    /// Processes the 64-byte block in m_block.
    void Compress();

    std::array<uint32_t, 8> m_hash;  ///< H(i), the intermediate hash value
    std::array<uint8_t, 64> m_block; ///< the block being filled
    size_t m_blockBytes{0};          ///< bytes of m_block filled
    uint64_t m_messageBytes{0};      ///< bytes added so far
    bool m_finished{false};          ///< Finish was called
};

} // namespace ns3

#endif /* RUDP_SHA256_H */
