/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-sha256.h"

#include "ns3/abort.h"

#include <algorithm>

// RUDP_HAVE_OPENSSL is defined by the build (CMakeLists.txt, wscript) when it
// found OpenSSL's libcrypto; without it, RudpSha256Portable computes the digest.
#ifdef RUDP_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

namespace ns3
{

// ---------------------------------------------------------------------------
// RudpSha256Portable: FIPS 180-4, sections 4.1.2, 4.2.2, 5.1.1, 5.3.3 and 6.2.

namespace
{

/// The constants K(0)..K(63) (FIPS 180-4, 4.2.2): the first 32 bits of the
/// fractional parts of the cube roots of the first 64 primes.
constexpr uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

/// The initial hash value H(0) (FIPS 180-4, 5.3.3): the first 32 bits of the
/// fractional parts of the square roots of the first 8 primes.
constexpr std::array<uint32_t, 8> H0 = {0x6a09e667,
                                        0xbb67ae85,
                                        0x3c6ef372,
                                        0xa54ff53a,
                                        0x510e527f,
                                        0x9b05688c,
                                        0x1f83d9ab,
                                        0x5be0cd19};

/// ROTR^n(x), a right rotation of a 32-bit word (0 < n < 32).
constexpr uint32_t
Rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

} // namespace

RudpSha256Portable::RudpSha256Portable()
    : m_hash(H0),
      m_block{}
{
}

void
RudpSha256Portable::Compress()
{
    // The message schedule W(0)..W(63) (6.2.2 step 1): big-endian words.
    uint32_t w[64];
    for (int t = 0; t < 16; ++t)
    {
        w[t] = static_cast<uint32_t>(m_block[4 * t]) << 24 |
               static_cast<uint32_t>(m_block[4 * t + 1]) << 16 |
               static_cast<uint32_t>(m_block[4 * t + 2]) << 8 |
               static_cast<uint32_t>(m_block[4 * t + 3]);
    }
    for (int t = 16; t < 64; ++t)
    {
        const uint32_t s0 = Rotr(w[t - 15], 7) ^ Rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        const uint32_t s1 = Rotr(w[t - 2], 17) ^ Rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = s1 + w[t - 7] + s0 + w[t - 16];
    }
    // The working variables (steps 2-3).
    uint32_t a = m_hash[0];
    uint32_t b = m_hash[1];
    uint32_t c = m_hash[2];
    uint32_t d = m_hash[3];
    uint32_t e = m_hash[4];
    uint32_t f = m_hash[5];
    uint32_t g = m_hash[6];
    uint32_t h = m_hash[7];
    for (int t = 0; t < 64; ++t)
    {
        const uint32_t sigma1 = Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25);
        const uint32_t ch = (e & f) ^ (~e & g);
        const uint32_t t1 = h + sigma1 + ch + K[t] + w[t];
        const uint32_t sigma0 = Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22);
        const uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        const uint32_t t2 = sigma0 + maj;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    // The next intermediate hash value (step 4).
    m_hash[0] += a;
    m_hash[1] += b;
    m_hash[2] += c;
    m_hash[3] += d;
    m_hash[4] += e;
    m_hash[5] += f;
    m_hash[6] += g;
    m_hash[7] += h;
}

void
RudpSha256Portable::Update(const uint8_t* data, size_t size)
{
    NS_ABORT_MSG_IF(m_finished, "SHA-256 updated after Finish");
    m_messageBytes += size;
    while (size > 0)
    {
        const size_t take = std::min(size, m_block.size() - m_blockBytes);
        std::copy(data, data + take, m_block.begin() + m_blockBytes);
        m_blockBytes += take;
        data += take;
        size -= take;
        if (m_blockBytes == m_block.size())
        {
            Compress();
            m_blockBytes = 0;
        }
    }
}

RudpSha256::Digest
RudpSha256Portable::Finish()
{
    NS_ABORT_MSG_IF(m_finished, "SHA-256 finished twice");
    // Padding (5.1.1): a 1 bit, zeros up to 56 bytes into a block, then the
    // message length in bits as a 64-bit big-endian number.
    const uint64_t bits = m_messageBytes * 8;
    const uint8_t one = 0x80;
    Update(&one, 1);
    const uint8_t zero = 0;
    while (m_blockBytes != 56)
    {
        Update(&zero, 1);
    }
    uint8_t length[8];
    for (int i = 0; i < 8; ++i)
    {
        length[i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
    }
    Update(length, sizeof(length));
    m_finished = true;
    RudpSha256::Digest digest;
    for (size_t i = 0; i < m_hash.size(); ++i)
    {
        for (size_t k = 0; k < 4; ++k)
        {
            digest[4 * i + k] = static_cast<uint8_t>(m_hash[i] >> (24 - 8 * k));
        }
    }
    return digest;
}

// ---------------------------------------------------------------------------
// RudpSha256: OpenSSL's EVP interface, or RudpSha256Portable.

#ifdef RUDP_HAVE_OPENSSL

struct RudpSha256::Context
{
    EVP_MD_CTX* ctx{EVP_MD_CTX_new()};
    bool finished{false};

    ~Context()
    {
        EVP_MD_CTX_free(ctx);
    }
};

RudpSha256::RudpSha256()
    : m_context(std::make_unique<Context>())
{
    NS_ABORT_MSG_UNLESS(m_context->ctx && EVP_DigestInit_ex(m_context->ctx, EVP_sha256(), nullptr),
                        "OpenSSL could not start a SHA-256 digest");
}

void
RudpSha256::Update(const uint8_t* data, size_t size)
{
    NS_ABORT_MSG_IF(m_context->finished, "SHA-256 updated after Finish");
    EVP_DigestUpdate(m_context->ctx, data, size);
}

RudpSha256::Digest
RudpSha256::FinishDigest()
{
    NS_ABORT_MSG_IF(m_context->finished, "SHA-256 finished twice");
    m_context->finished = true;
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    NS_ABORT_MSG_UNLESS(EVP_DigestFinal_ex(m_context->ctx, digest, &length) &&
                            length == DIGEST_SIZE,
                        "OpenSSL could not finish a SHA-256 digest");
    Digest out;
    std::copy(digest, digest + DIGEST_SIZE, out.begin());
    return out;
}

const char*
RudpSha256::GetBackend()
{
    return "openssl";
}

#else // RUDP_HAVE_OPENSSL

struct RudpSha256::Context
{
    RudpSha256Portable sha;
};

RudpSha256::RudpSha256()
    : m_context(std::make_unique<Context>())
{
}

void
RudpSha256::Update(const uint8_t* data, size_t size)
{
    m_context->sha.Update(data, size);
}

RudpSha256::Digest
RudpSha256::FinishDigest()
{
    return m_context->sha.Finish();
}

const char*
RudpSha256::GetBackend()
{
    return "portable";
}

#endif // RUDP_HAVE_OPENSSL

RudpSha256::~RudpSha256() = default;

std::string
RudpSha256::Finish()
{
    const Digest digest = FinishDigest();
    return ToHex(digest.data(), digest.size());
}

std::string
RudpSha256::ToHex(const uint8_t* data, size_t size)
{
    static const char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(2 * size);
    for (size_t i = 0; i < size; ++i)
    {
        out += hex[data[i] >> 4];
        out += hex[data[i] & 0xf];
    }
    return out;
}

} // namespace ns3
