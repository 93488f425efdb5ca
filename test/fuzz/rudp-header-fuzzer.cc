/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-fuzz
 * Fuzz target: RudpHeader deserialisation and checksum verification of
 * arbitrary bytes, as a socket receives a UDP payload.
 *
 * Properties checked on every input:
 * - RemoveHeader and IsChecksumOk never crash, assert or read out of bounds
 *   (callers pass at least RudpHeader::FIXED_SIZE bytes, as RudpSocket and
 *   the CMT endpoints do);
 * - round trip: a header that deserialises well formed reserialises to
 *   exactly the bytes it was read from;
 * - a segment the checksum accepts has the payload length its header
 *   announces, and recomputing its checksum gives the same field (up to
 *   the two one's-complement zeros, 0x0000 and 0xffff);
 * - Print works on whatever was read.
 */

#include "rudp-fuzz-common.h"

#include <cstring>
#include <sstream>

using namespace ns3;
using rudpfuzz::Violation;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < RudpHeader::FIXED_SIZE || size > 65535)
    {
        return -1; // not a RUDP segment in a UDP datagram: callers drop it unread
    }
    Ptr<Packet> packet = Create<Packet>(data, size);
    RudpHeader header;
    const uint32_t consumed = packet->RemoveHeader(header);
    if (consumed > size)
    {
        Violation("RemoveHeader consumed more bytes than the datagram has");
    }
    const bool ok = header.IsChecksumOk(packet);
    std::ostringstream printed;
    header.Print(printed);

    // A header is well formed when its SACK count (byte 9) is allowed, every
    // block it announces was read, and it is as long as it says.
    const uint32_t blocks = data[9];
    const bool wellFormed = blocks <= RudpHeader::MAX_SACK_BLOCKS &&
                            header.GetSackBlocks().size() == blocks &&
                            consumed == header.GetSerializedSize();
    if (!wellFormed)
    {
        if (ok)
        {
            Violation("the checksum accepted a malformed header");
        }
        return 0;
    }

    // Round trip: the same bytes back.
    Ptr<Packet> again = Create<Packet>();
    again->AddHeader(header);
    std::vector<uint8_t> bytes(again->GetSize());
    again->CopyData(bytes.data(), bytes.size());
    if (bytes.size() != consumed || std::memcmp(bytes.data(), data, consumed) != 0)
    {
        Violation("a well-formed header does not reserialise to the bytes it was read from");
    }

    if (ok)
    {
        if (packet->GetSize() != header.GetPayloadLength())
        {
            Violation("the checksum accepted a payload of a length other than announced");
        }
        RudpHeader recomputed = header;
        recomputed.ComputeChecksum(packet);
        // 16 bits (Internet) or, where the module has it, 32 (CRC-32c).
        const auto a = header.GetChecksum();
        const auto b = recomputed.GetChecksum();
        if (a != b && !((a == 0 || a == 0xffff) && (b == 0 || b == 0xffff)))
        {
            Violation("an accepted checksum differs from the recomputed one");
        }
    }
    return 0;
}
