/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-sha256.h"

#include "ns3/abort.h"

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

std::string
RudpSha256::Finish()
{
    NS_ABORT_MSG_IF(m_context->finished, "SHA-256 finished twice");
    m_context->finished = true;
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(m_context->ctx, digest, &length);
    static const char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < length; ++i)
    {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0xf];
    }
    return out;
}

} // namespace ns3
