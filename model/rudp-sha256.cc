/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-sha256.h"

#include "ns3/abort.h"

#include <algorithm>
#include <openssl/evp.h>

namespace ns3
{

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

RudpSha256::~RudpSha256() = default;

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
