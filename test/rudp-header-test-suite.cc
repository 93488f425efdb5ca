/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/packet.h"
#include "ns3/rudp-header.h"
#include "ns3/test.h"

#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * Tests of the RUDP header: wire round trip and the RFC 1071 checksum.
 */

using namespace ns3;

namespace
{

/// \return the bytes of \p packet
std::vector<uint8_t>
BytesOf(Ptr<const Packet> packet)
{
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/// \return a packet with \p payload behind \p header, checksum computed
Ptr<Packet>
MakeSegment(const std::vector<uint8_t>& payload, RudpHeader header)
{
    Ptr<Packet> p = Create<Packet>(payload.data(), payload.size());
    header.ComputeChecksum(p);
    p->AddHeader(header);
    return p;
}

RudpHeader
FullHeader(uint16_t payloadLength)
{
    RudpHeader h;
    h.SetSequenceNumber(SequenceNumber32(0xfffffff0));
    h.SetAckNumber(SequenceNumber32(0x12345678));
    h.SetFlags(RudpHeader::SYN | RudpHeader::ACK | RudpHeader::SACK_PERMITTED);
    h.SetPayloadLength(payloadLength);
    h.SetWindow(1u << 28);
    h.SetSackBlocks({{SequenceNumber32(100), SequenceNumber32(200)},
                     {SequenceNumber32(0xfffffff0), SequenceNumber32(16)}});
    return h;
}

} // namespace

/// Every field survives Serialize/Deserialize, with and without payload.
class RudpHeaderRoundTripTest : public TestCase
{
  public:
    RudpHeaderRoundTripTest()
        : TestCase("every header field survives a serialize and deserialize round trip")
    {
    }

  private:
    void DoRun() override
    {
        for (uint16_t length : {0, 1, 1400})
        {
            std::vector<uint8_t> payload(length);
            for (uint16_t k = 0; k < length; ++k)
            {
                payload[k] = static_cast<uint8_t>(k * 7 + 3);
            }
            RudpHeader sent = FullHeader(length);
            Ptr<Packet> p = MakeSegment(payload, sent);
            sent.ComputeChecksum(Create<Packet>(payload.data(), payload.size()));
            NS_TEST_ASSERT_MSG_EQ(p->GetSize(), RudpHeader::FIXED_SIZE + 16 + length, "wire size");

            RudpHeader got;
            p->RemoveHeader(got);
            NS_TEST_ASSERT_MSG_EQ(got.IsChecksumOk(p), true, "checksum verifies");
            NS_TEST_ASSERT_MSG_EQ(got.GetSequenceNumber(), sent.GetSequenceNumber(), "SEQ");
            NS_TEST_ASSERT_MSG_EQ(got.GetAckNumber(), sent.GetAckNumber(), "ACK");
            NS_TEST_ASSERT_MSG_EQ(+got.GetFlags(), +sent.GetFlags(), "FLAGS");
            NS_TEST_ASSERT_MSG_EQ(got.GetPayloadLength(), length, "LEN");
            NS_TEST_ASSERT_MSG_EQ(got.GetWindow(), 1u << 28, "window");
            NS_TEST_ASSERT_MSG_EQ(got.GetSackBlocks().size(), 2, "SACK block count");
            NS_TEST_ASSERT_MSG_EQ(got.GetSackBlocks()[1].left,
                                  SequenceNumber32(0xfffffff0),
                                  "SACK");
            NS_TEST_ASSERT_MSG_EQ(got.GetSackBlocks()[1].right, SequenceNumber32(16), "SACK");
            NS_TEST_ASSERT_MSG_EQ(got.GetChecksum(), sent.GetChecksum(), "checksum field");
            NS_TEST_ASSERT_MSG_EQ((BytesOf(p) == payload), true, "payload untouched");
        }
    }
};

/// RFC 1071 vectors worked by hand, including odd lengths and carries.
class RudpChecksumVectorTest : public TestCase
{
  public:
    RudpChecksumVectorTest()
        : TestCase("Internet checksum matches RFC 1071 vectors worked by hand")
    {
    }

  private:
    static uint16_t Checksum(const std::vector<uint8_t>& bytes)
    {
        return RudpHeader::FoldChecksum(RudpHeader::AddToSum(bytes.data(), bytes.size(), 0));
    }

    void DoRun() override
    {
        // RFC 1071 section 3: 0001 + f203 + f4f5 + f6f7 = 2ddf0 -> ddf2; ~ = 220d.
        NS_TEST_ASSERT_MSG_EQ(Checksum({0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}),
                              0x220d,
                              "RFC 1071 example");
        // Odd length: the last byte is the high-order half of a zero-padded word.
        NS_TEST_ASSERT_MSG_EQ(Checksum({0x01}), 0xfeff, "one byte");
        // abcd + ef00 = 19acd -> 9ace; ~ = 6531.
        NS_TEST_ASSERT_MSG_EQ(Checksum({0xab, 0xcd, 0xef}), 0x6531, "three bytes");
        // All ones: ffff + ffff = 1fffe -> ffff; ~ = 0000.
        NS_TEST_ASSERT_MSG_EQ(Checksum({0xff, 0xff, 0xff, 0xff}), 0x0000, "all ones");
        // End-around carry: ffff + 0002 = 10001 -> 0002; ~ = fffd.
        NS_TEST_ASSERT_MSG_EQ(Checksum({0xff, 0xff, 0x00, 0x02}), 0xfffd, "wrap");
        NS_TEST_ASSERT_MSG_EQ(Checksum({}), 0xffff, "empty");
        // abcd has checksum 5432; data followed by its checksum sums to zero.
        NS_TEST_ASSERT_MSG_EQ(Checksum({0xab, 0xcd, 0x54, 0x32}), 0x0000, "self-verifying");
        // A partial sum carried across calls gives the same result.
        const uint8_t rfc[] = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
        NS_TEST_ASSERT_MSG_EQ(
            RudpHeader::FoldChecksum(
                RudpHeader::AddToSum(rfc + 4, 4, RudpHeader::AddToSum(rfc, 4, 0))),
            0x220d,
            "in two parts");
    }
};

/// Every single-bit error anywhere in header or payload is detected.
class RudpChecksumBitFlipTest : public TestCase
{
  public:
    RudpChecksumBitFlipTest()
        : TestCase("checksum detects every single-bit flip in header and odd-length payload")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<uint8_t> payload{'h', 'e', 'l', 'l', 'o', ',', ' ', 'r', 'u', 'd', 'p'};
        const std::vector<uint8_t> wire = BytesOf(MakeSegment(payload, FullHeader(payload.size())));
        uint32_t undetected = 0;
        for (size_t bit = 0; bit < wire.size() * 8; ++bit)
        {
            std::vector<uint8_t> flipped = wire;
            flipped[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
            Ptr<Packet> p = Create<Packet>(flipped.data(), flipped.size());
            RudpHeader h;
            p->RemoveHeader(h);
            undetected += h.IsChecksumOk(p) ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(undetected, 0, "single-bit flips that passed the checksum");
    }
};

/// Headers that lie about their size are rejected without reading past the datagram.
class RudpHeaderMalformedTest : public TestCase
{
  public:
    RudpHeaderMalformedTest()
        : TestCase("malformed headers are rejected, never over-read")
    {
    }

  private:
    void DoRun() override
    {
        // A payload length larger than the datagram.
        std::vector<uint8_t> wire = BytesOf(MakeSegment({1, 2, 3}, FullHeader(3)));
        wire.pop_back();
        Ptr<Packet> truncated = Create<Packet>(wire.data(), wire.size());
        RudpHeader h;
        truncated->RemoveHeader(h);
        NS_TEST_ASSERT_MSG_EQ(h.IsChecksumOk(truncated), false, "truncated payload rejected");

        // A SACK block count beyond the maximum.
        RudpHeader plain;
        plain.SetPayloadLength(0);
        std::vector<uint8_t> bytes = BytesOf(MakeSegment({}, plain));
        bytes[9] = 200;
        Ptr<Packet> bogus = Create<Packet>(bytes.data(), bytes.size());
        RudpHeader g;
        NS_TEST_ASSERT_MSG_EQ(bogus->RemoveHeader(g), RudpHeader::FIXED_SIZE, "fixed part only");
        NS_TEST_ASSERT_MSG_EQ(g.IsChecksumOk(bogus), false, "bogus SACK count rejected");
        NS_TEST_ASSERT_MSG_EQ(g.GetSackBlocks().empty(), true, "no SACK blocks read");
    }
};

/// \ingroup rudp-test
/// The RUDP header test suite.
class RudpHeaderTestSuite : public TestSuite
{
  public:
    RudpHeaderTestSuite()
        : TestSuite("rudp-header")
    {
        AddTestCase(new RudpHeaderRoundTripTest);
        AddTestCase(new RudpChecksumVectorTest);
        AddTestCase(new RudpChecksumBitFlipTest);
        AddTestCase(new RudpHeaderMalformedTest);
    }
};

/// Static instance registering the suite.
static RudpHeaderTestSuite g_rudpHeaderTestSuite;
