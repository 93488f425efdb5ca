/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-fuzz
 * Writes the seed corpus of the fuzz targets: valid segments of every kind
 * (SYN, SYN|SACK_PERMITTED, SYN|ACK, ACK, data, ACK with SACK blocks,
 * FIN|ACK, a CMT SACK with PAIR, HEARTBEAT and HEARTBEAT ACK), built with
 * RudpHeader as the sockets build them, and, for the network targets,
 * inputs that send them at the
 * right moments of a connection (rudp-fuzz-common.h's record format),
 * and for rudp-connection, forged segments in a live connection
 * (rudp-connection-fuzzer.cc's record format).
 *
 *     build/bin/rudp-fuzz-make-corpus test/fuzz/corpus
 *
 * writes DIR/rudp-header/, DIR/rudp-socket/, DIR/rudp-cmt-receiver/,
 * DIR/rudp-cmt-sender/, DIR/rudp-connection/ and DIR/rudp-cmt-socket/.
 * The output is the same on every run (`make fuzz-corpus`).
 */

#include "rudp-fuzz-common.h"

#include <filesystem>
#include <fstream>
#include <iostream>

using namespace ns3;
using namespace ns3::rudpfuzz;

namespace
{

/// \return a segment's wire bytes, checksum computed
std::vector<uint8_t>
Segment(uint32_t seq,
        uint32_t ack,
        uint8_t flags,
        uint32_t payload,
        const std::vector<std::pair<uint32_t, uint32_t>>& sack = {},
        uint32_t window = 131072)
{
    std::vector<uint8_t> data(payload);
    for (uint32_t i = 0; i < payload; ++i)
    {
        data[i] = static_cast<uint8_t>(i * 7 + 1);
    }
    Ptr<Packet> packet = Create<Packet>(data.data(), data.size());
    RudpHeader header;
    header.SetSequenceNumber(SequenceNumber32(seq));
    header.SetAckNumber(SequenceNumber32(ack));
    header.SetFlags(flags);
    header.SetPayloadLength(static_cast<uint16_t>(payload));
    header.SetWindow(window);
    std::vector<RudpHeader::SackBlock> blocks;
    for (const auto& [left, right] : sack)
    {
        blocks.push_back({SequenceNumber32(left), SequenceNumber32(right)});
    }
    header.SetSackBlocks(blocks);
    header.ComputeChecksum(packet);
    packet->AddHeader(header);
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/**
 * \return a RudpCmtSocket INIT or INIT-ACK: \p flags, the window, and as its
 * payload an association key and \p addresses
 */
std::vector<uint8_t>
Init(uint8_t flags, const std::vector<Ipv4Address>& addresses, uint32_t window = 65536)
{
    // Written here, not by RudpCmtInit::Encode: a list may be too long.
    std::vector<uint8_t> list(8 + 4 * addresses.size());
    for (uint32_t i = 0; i < 8; ++i)
    {
        list[i] = static_cast<uint8_t>(0xa1 + i); // the peer's key
    }
    for (size_t i = 0; i < addresses.size(); ++i)
    {
        addresses[i].Serialize(&list[8 + 4 * i]);
    }
    Ptr<Packet> payload = Create<Packet>(list.data(), list.size());
    RudpHeader header;
    header.SetFlags(flags);
    header.SetWindow(window);
    Ptr<Packet> packet = RudpSegmentCodec::Encode(header, payload, RudpHeader::CHECKSUM_INTERNET16);
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/**
 * \return a HEARTBEAT (\p flags HEARTBEAT) or HEARTBEAT ACK (HEARTBEAT|ACK)
 * carrying \p info (RudpCmtHeartbeatInfo's bytes, or any others)
 */
std::vector<uint8_t>
Heartbeat(uint8_t flags, const std::vector<uint8_t>& info)
{
    RudpHeader header;
    header.SetFlags(flags);
    Ptr<Packet> packet = RudpSegmentCodec::Encode(header,
                                                  Create<Packet>(info.data(), info.size()),
                                                  RudpHeader::CHECKSUM_INTERNET16);
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/**
 * \return an ADDRESS_CHANGE (\p flags ADDRESS_CHANGE, or with ACK its answer)
 * under \p tag (a relative record's is replaced by the target's key), serial
 * number \p serial, asking \p parameters
 */
std::vector<uint8_t>
AddressChange(uint8_t flags,
              uint64_t tag,
              uint32_t serial,
              const std::vector<RudpCmtAddressChange::Parameter>& parameters)
{
    RudpCmtAddressChange change;
    change.tag = tag;
    change.serial = serial;
    change.parameters = parameters;
    RudpHeader header;
    header.SetFlags(flags);
    Ptr<Packet> packet =
        RudpSegmentCodec::Encode(header, change.Encode(), RudpHeader::CHECKSUM_INTERNET16);
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/// \return RudpCmtHeartbeatInfo's bytes for path \p path, sent at \p sent, with \p nonce
std::vector<uint8_t>
HeartbeatInfo(uint32_t path, Time sent, uint64_t nonce)
{
    RudpCmtHeartbeatInfo info;
    info.path = path;
    info.sent = sent;
    info.nonce = nonce;
    Ptr<Packet> packet = info.Encode();
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    return bytes;
}

void
Write(const std::filesystem::path& file, const std::vector<uint8_t>& bytes)
{
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out)
    {
        std::cerr << "error: cannot write " << file << std::endl;
        std::exit(1);
    }
}

/// A network target's input: configuration bytes, then records.
std::vector<uint8_t>
Input(uint8_t config0, uint8_t config1, const std::vector<Datagram>& records)
{
    std::vector<uint8_t> out{config0, config1};
    for (const auto& record : records)
    {
        WriteDatagram(out, record);
    }
    return out;
}

/// A record with both fix-ups (relative numbers, checksum) from \p source;
/// the default gap, 4 ms, is two round trips of the fuzz network.
Datagram
Relative(const std::vector<uint8_t>& bytes, uint8_t source = 0, uint8_t gap = 5)
{
    Datagram record;
    record.fixChecksum = true;
    record.relative = true;
    record.source = source;
    record.gap = gap;
    record.bytes = bytes;
    return record;
}

/// A record sent as it is.
Datagram
Raw(const std::vector<uint8_t>& bytes, uint8_t source = 0, uint8_t gap = 5)
{
    Datagram record;
    record.source = source;
    record.gap = gap;
    record.bytes = bytes;
    return record;
}

/**
 * A rudp-connection record: \p control (gap, corrupt bit), to the server
 * (\p toServer) or to the client, the rest as the target reads it.
 */
std::vector<uint8_t>
Forgery(uint8_t control,
        bool toServer,
        uint8_t flags,
        int16_t seq,
        int16_t ack,
        uint16_t window = 65535,
        uint8_t length = 0,
        const std::vector<std::pair<int16_t, uint16_t>>& sack = {})
{
    std::vector<uint8_t> out{
        static_cast<uint8_t>((control & 0x2f) | (toServer ? 0 : 0x10) | (sack.size() & 3) << 6),
        flags};
    for (const uint16_t field : {static_cast<uint16_t>(seq), static_cast<uint16_t>(ack), window})
    {
        out.push_back(static_cast<uint8_t>(field >> 8));
        out.push_back(static_cast<uint8_t>(field));
    }
    out.push_back(length);
    for (const auto& [left, size] : sack)
    {
        for (const uint16_t field : {static_cast<uint16_t>(left), size})
        {
            out.push_back(static_cast<uint8_t>(field >> 8));
            out.push_back(static_cast<uint8_t>(field));
        }
    }
    return out;
}

/// A rudp-connection input: configuration bytes, then records.
std::vector<uint8_t>
Forged(uint8_t config0, uint8_t config1, const std::vector<std::vector<uint8_t>>& records)
{
    std::vector<uint8_t> out{config0, config1};
    for (const auto& record : records)
    {
        out.insert(out.end(), record.begin(), record.end());
    }
    return out;
}

} // namespace

int
main(int argc, char** argv)
{
    if (argc != 2)
    {
        std::cerr << "usage: " << argv[0] << " DIR" << std::endl;
        return 2;
    }
    const std::filesystem::path dir(argv[1]);
    for (const char* target : {"rudp-header",
                               "rudp-socket",
                               "rudp-cmt-receiver",
                               "rudp-cmt-sender",
                               "rudp-connection",
                               "rudp-cmt-socket"})
    {
        std::filesystem::create_directories(dir / target);
    }
    using H = RudpHeader;

    // Segments of every kind, as absolute wire bytes.
    const auto syn = Segment(1000, 0, H::SYN, 0);
    const auto synSack = Segment(1000, 0, H::SYN | H::SACK_PERMITTED, 0);
    const auto synAck = Segment(5000, 1001, H::SYN | H::ACK | H::SACK_PERMITTED, 0);
    const auto ack = Segment(1001, 5001, H::ACK, 0);
    const auto data = Segment(1001, 5001, H::ACK, 1400);
    const auto sackAck = Segment(5001, 2401, H::ACK, 0, {{3801, 5201}, {6601, 8001}});
    const auto fullSack = [] {
        std::vector<std::pair<uint32_t, uint32_t>> blocks;
        for (uint32_t i = 0; i < H::MAX_SACK_BLOCKS; ++i)
        {
            blocks.emplace_back(10000 + 2000 * i, 11000 + 2000 * i);
        }
        return Segment(5001, 2401, H::ACK, 0, blocks);
    }();
    const auto fin = Segment(2401, 5001, H::FIN | H::ACK, 0);
    const auto cmtSack = Segment(7, 2801, H::ACK | H::PAIR, 0, {{4201, 5601}}, 16384);

    const std::filesystem::path header = dir / "rudp-header";
    Write(header / "syn", syn);
    Write(header / "syn-sack-permitted", synSack);
    Write(header / "syn-ack", synAck);
    Write(header / "ack", ack);
    Write(header / "data", data);
    Write(header / "ack-sack-2", sackAck);
    Write(header / "ack-sack-16", fullSack);
    Write(header / "fin-ack", fin);
    Write(header / "cmt-sack-pair", cmtSack);

    // Relative forms: SEQ counts from what the target expects next, ACK from
    // the target's next sequence number.
    const auto rSyn = Segment(0, 0, H::SYN, 0);
    const auto rSynSack = Segment(0, 0, H::SYN | H::SACK_PERMITTED, 0);
    const auto rAck = Segment(0, 0, H::ACK, 0);
    const auto rData = Segment(0, 0, H::ACK, 1400);
    const auto rDataAhead = Segment(2800, 0, H::ACK, 1400);
    const auto rDataSmall = Segment(0, 0, H::ACK, 200);
    const auto rDupAck = Segment(0, static_cast<uint32_t>(-1400), H::ACK, 0);
    const auto rSackAck = Segment(0, 0, H::ACK, 0, {{2800, 4200}});
    const auto rFin = Segment(0, 0, H::FIN | H::ACK, 0);
    const auto rSynAck = Segment(0, 0, H::SYN | H::ACK | H::SACK_PERMITTED, 0);

    const std::filesystem::path socket = dir / "rudp-socket";
    // A listener: a handshake, data, FIN from one peer; SYNs from others.
    Write(socket / "listener-handshake",
          Input(0x00, 0x00, {Relative(rSyn), Relative(rAck), Relative(rData), Relative(rFin)}));
    Write(socket / "listener-sack-handshake",
          Input(0x04 | 0x10,
                0x00,
                {Relative(rSynSack),
                 Relative(rAck),
                 Relative(rDataAhead),
                 Relative(rData),
                 Relative(rData),
                 Relative(rFin)}));
    Write(socket / "listener-two-peers",
          Input(0x08,
                0x00,
                {Relative(rSyn, 0),
                 Relative(rSyn, 1),
                 Relative(rAck, 1),
                 Relative(rAck, 0),
                 Raw(syn, 2),
                 Raw(fin, 3)}));
    Write(socket / "listener-stale", Input(0x10, 0x00, {Raw(data), Raw(sackAck), Raw(synAck)}));
    // The server of a live transfer: segments that join the client's.
    Write(socket / "server-transfer", Input(0x01 | 0x10, 0x02, {}));
    Write(socket / "server-sack-transfer", Input(0x01 | 0x04 | 0x10, 0x02 | 0x04, {}));
    Write(socket / "server-data-ahead",
          Input(0x01 | 0x04 | 0x10,
                0x03 | 0x04,
                {Relative(rDataAhead, 0, 2), Relative(rData, 0, 0), Relative(rFin, 0, 4)}));
    Write(socket / "server-duplicate-syn",
          Input(0x01 | 0x08, 0x02, {Relative(rSyn, 0, 1), Raw(syn, 1, 1), Relative(rAck, 0, 3)}));
    Write(
        socket / "server-no-read",
        Input(0x03 | 0x80 | 0x10, 0x03 | 0x08, {Relative(rDataSmall, 0, 6), Relative(rFin, 0, 9)}));
    // The client of a live transfer: ACKs, duplicate ACKs, SACKs, FIN.
    Write(socket / "client-transfer", Input(0x02 | 0x10, 0x03, {}));
    Write(socket / "client-gbn-transfer", Input(0x02 | 0x08 | 0x40, 0x02 | 0x08, {}));
    Write(socket / "client-dup-acks",
          Input(0x02 | 0x10,
                0x03,
                {Relative(rDupAck, 0, 3),
                 Relative(rDupAck, 0, 0),
                 Relative(rDupAck, 0, 0),
                 Relative(rAck, 0, 2)}));
    Write(socket / "client-sack",
          Input(0x02 | 0x04 | 0x10,
                0x03 | 0x04,
                {Relative(rSackAck, 0, 3), Relative(rSackAck, 0, 1), Relative(rFin, 0, 12)}));
    Write(socket / "client-syn-ack-again",
          Input(0x02 | 0x20, 0x01, {Relative(rSynAck, 0, 1), Raw(synAck, 0, 2)}));

    const std::filesystem::path cmt = dir / "rudp-cmt-receiver";
    // Data on two paths, in order, with a gap, duplicated, and a probe.
    Write(cmt / "in-order",
          Input(0x01 | 0x04 | 0x08,
                0x00,
                {Relative(rData, 0), Relative(rData, 1), Relative(rData, 0)}));
    Write(cmt / "gap-then-fill",
          Input(0x00 | 0x04,
                0x00,
                {Relative(rDataAhead, 0), Relative(rData, 1), Relative(rData, 1)}));
    Write(cmt / "duplicate-and-probe",
          Input(0x02,
                0x00,
                {Relative(rData, 0), Raw(data, 0), Relative(Segment(0, 0, H::ACK, 0), 2)}));
    Write(cmt / "overflow",
          Input(0x00 | 0x10,
                0x00,
                {Relative(rDataAhead, 0, 0),
                 Relative(Segment(4200, 0, H::ACK, 1400), 1, 0),
                 Relative(rData, 2, 0),
                 Relative(rData, 3, 0)}));
    Write(cmt / "raw-segments", Input(0x03, 0x00, {Raw(data, 0), Raw(fin, 1), Raw(cmtSack, 2)}));

    // SACKs to a CMT sender of 1000-byte segments from 1: each SACK's SEQ
    // must grow (an older one is stale). Relative: SEQ counts from 0, the
    // ACK from the end of what the sender last sent; gap blocks are absolute.
    const std::filesystem::path sender = dir / "rudp-cmt-sender";
    auto sackAll = [](uint32_t n, uint8_t source, uint32_t window = 65536) {
        return Relative(Segment(n, 0, H::ACK, 0, {}, window), source, 4);
    };
    std::vector<Datagram> ackEverything;
    for (uint32_t n = 1; n <= 24; ++n)
    {
        ackEverything.push_back(sackAll(n, 0));
    }
    Write(sender / "ack-everything", Input(0x00, 0x00, ackEverything));
    std::vector<Datagram> ackEverythingFourPaths;
    for (uint32_t n = 1; n <= 24; ++n)
    {
        ackEverythingFourPaths.push_back(sackAll(n, n % 4));
    }
    Write(sender / "ack-everything-four-paths", Input(0x03, 0x10, ackEverythingFourPaths));
    std::vector<Datagram> holeAtOne; // segment 1 lost, 2..k+1 arrive
    for (uint32_t k = 1; k <= 8; ++k)
    {
        holeAtOne.push_back(Raw(Segment(k, 1, H::ACK, 0, {{1001, 1001 + 1000 * k}}), 0, 2));
    }
    holeAtOne.push_back(Raw(Segment(9, 9001, H::ACK | H::PAIR, 0), 0, 3));
    Write(sender / "hole-one-path", Input(0x08, 0x03, holeAtOne));
    Write(sender / "ns2-rules-then-silence",
          Input(0x01 | 0x04 | 0x40,
                0x08 | 0x40,
                {Raw(Segment(1, 1, H::ACK, 0, {{2001, 4001}}), 0, 2),
                 Raw(Segment(2, 1, H::ACK, 0, {{2001, 4001}, {5001, 6001}}), 1, 2),
                 Raw(Segment(3, 2001, H::ACK, 0, {{3001, 4001}}), 1, 2)}));
    Write(sender / "buffer-aware-zero-window",
          Input(0x01 | 0x80,
                0x02 | 0x10,
                {sackAll(1, 0, 0), sackAll(2, 1, 0), sackAll(3, 0, 16384), sackAll(4, 1)}));
    Write(sender / "blest-zero-window",
          Input(0x01 | 0x80,
                0x05 | 0x10,
                {sackAll(1, 0, 0), sackAll(2, 1, 0), sackAll(3, 0, 16384), sackAll(4, 1)}));
    Write(sender / "partial-beyond-and-stale",
          Input(0x02 | 0x20,
                0x01 | 0x80,
                {Raw(Segment(5, 1501, H::ACK, 0), 0, 2),
                 Relative(Segment(6, 100000, H::ACK, 0), 1, 2),
                 Raw(Segment(4, 3001, H::ACK, 0), 2, 2),
                 Relative(Segment(7, static_cast<uint32_t>(-500), H::ACK, 0, {{1, 2}}), 2, 2)}));

    // Forged segments in a live connection: config 0 0x01 (the server
    // reads) | variant << 1 | 0x08 Sack ...; config 1: sizes, 0x10 200-byte
    // segments. Offsets count from what the forged side last sent.
    const std::filesystem::path connection = dir / "rudp-connection";
    const uint8_t reno = 2 << 1;
    Write(connection / "transfer", Forged(0x01 | reno, 0x02, {}));
    Write(connection / "both-ways-sack", Forged(0x01 | reno | 0x08, 0x02 | 0x0c | 0x10, {}));
    Write(connection / "gbn-small-buffers", Forged(0x01 | 1 << 1 | 0x40, 0x02 | 0x10, {}));
    Write(connection / "stop-and-wait-crc32c", Forged(0x01 | 0x80 | 0x20, 0x01 | 0x08, {}));
    Write(connection / "never-reads", Forged(reno | 0x40, 0x02 | 0x10, {}));
    const auto dupAck = Forgery(0x04, false, H::ACK, 0, 0);
    Write(connection / "dup-acks-to-client",
          Forged(0x01 | reno, 0x02 | 0x10, {dupAck, dupAck, dupAck}));
    Write(connection / "sack-to-client",
          Forged(0x01 | reno | 0x08,
                 0x02 | 0x10,
                 {Forgery(0x04, false, H::ACK, 0, 0, 65535, 0, {{400, 200}}), dupAck, dupAck}));
    Write(
        connection / "data-ahead-to-server",
        Forged(0x01 | reno | 0x08, 0x02 | 0x10, {Forgery(0x02, true, H::ACK, 400, 0, 65535, 25)}));
    Write(connection / "fin-to-server",
          Forged(0x01 | reno, 0x02 | 0x10, {Forgery(0x03, true, H::FIN | H::ACK, 0, 0)}));
    Write(connection / "syn-ack-to-client",
          Forged(0x01 | reno,
                 0x02,
                 {Forgery(0x03, false, H::SYN | H::ACK | H::SACK_PERMITTED, -1, 0)}));
    Write(connection / "zero-window-to-client",
          Forged(0x01 | reno | 0x20, 0x02 | 0x10, {Forgery(0x03, false, H::ACK, 0, 0, 0)}));
    Write(connection / "ack-beyond-to-client",
          Forged(0x01 | reno, 0x02 | 0x10, {Forgery(0x03, false, H::ACK, 0, 30000)}));
    Write(connection / "corrupt-to-server",
          Forged(0x01 | 0x20, 0x01, {Forgery(0x03 | 0x20, true, H::ACK, 0, 0, 65535, 25)}));

    // A multipath socket. The peer's port 40000 + i sends from 10.1.1.(10 + i).
    const std::filesystem::path multipath = dir / "rudp-cmt-socket";
    const Ipv4Address peer0("10.1.1.10");
    const Ipv4Address peer1("10.1.1.11");
    // As a server: a client's INIT, 3 segments of data, its SHUTDOWN.
    Write(multipath / "server-init-data-shutdown",
          Input(0x00,
                0x00,
                {Raw(Init(H::SYN, {peer0, peer1}), 0, 1),
                 Raw(Segment(1, 0, 0, 1000), 0, 3),
                 Raw(Segment(2001, 0, 0, 1000), 0, 1),
                 Raw(Segment(1001, 0, 0, 1000), 0, 1),
                 Raw(Segment(3001, 0, H::FIN, 0), 0, 4)}));
    // Bad address lists: ragged, broadcast, one too many; then a good INIT again.
    std::vector<Ipv4Address> tooMany;
    for (uint32_t i = 0; i <= RudpCmtSocket::MAX_ADDRESSES; ++i)
    {
        tooMany.emplace_back(0x0a020000 + i);
    }
    Write(multipath / "server-bad-address-lists",
          Input(0x02 | 0x40,
                0x01,
                {Raw(Segment(0, 0, H::SYN, 6), 1, 1),
                 Raw(Init(H::SYN, {Ipv4Address("255.255.255.255")}), 2, 1),
                 Raw(Init(H::SYN, tooMany), 3, 1),
                 Raw(Init(H::SYN, {peer0}), 0, 1),
                 Raw(Init(H::SYN, {peer0}), 0, 6),
                 Raw(Segment(1, 0, 0, 1000), 0, 2)}));
    // As a client: the server's INIT-ACK with two addresses, SACKs of everything, SHUTDOWN-ACK.
    std::vector<Datagram> clientRun{Raw(Init(H::SYN | H::ACK, {peer0, peer1}), 0, 1)};
    for (uint32_t n = 0; n < 20; ++n)
    {
        clientRun.push_back(Relative(Segment(n + 1, 0, H::ACK, 0, {}, 65536), 0, 4));
    }
    clientRun.push_back(Raw(Segment(0, 0, H::FIN | H::ACK, 0), 0, 5));
    Write(multipath / "client-init-ack-sacks", Input(0x01, 0x02, clientRun));
    // As a client: an INIT-ACK with no address, a window below a segment, then silence.
    Write(multipath / "client-bad-init-ack",
          Input(0x01 | 0x80,
                0x0c,
                {Raw(Init(H::SYN | H::ACK, {}), 0, 1),
                 Raw(Init(H::SYN | H::ACK, {peer0}, 100), 0, 1)}));
    // Heartbeats (config 1 bit 4: every 100 ms). As a server: the peer's
    // HEARTBEAT (answered) and a malformed one (not), then answers to the
    // target's: genuine ones (relative records echo its latest heartbeat),
    // a replay, a forgery, a short and a long one.
    const uint8_t hb = H::HEARTBEAT;
    const uint8_t hbAck = H::HEARTBEAT | H::ACK;
    const std::vector<uint8_t> echo(RudpCmtHeartbeatInfo::SIZE); // replaced by the fix-up
    const std::vector<uint8_t> forged = HeartbeatInfo(1, MilliSeconds(300), 42);
    Write(multipath / "server-heartbeats",
          Input(0x00,
                0x10,
                {Raw(Init(H::SYN, {peer0, peer1}), 0, 1),
                 Raw(Segment(1, 0, 0, 1000), 0, 3),
                 Raw(Heartbeat(hb, HeartbeatInfo(0, MilliSeconds(5), 7)), 0, 1),
                 Raw(Heartbeat(hb, {1, 2, 3, 4, 5, 6, 7}), 1, 1),
                 Relative(Heartbeat(hbAck, echo), 0, 10),
                 Relative(Heartbeat(hbAck, echo), 1, 11),
                 Relative(Heartbeat(hbAck, echo), 1, 0),
                 Raw(Heartbeat(hbAck, forged), 1, 1),
                 Raw(Heartbeat(hbAck, {forged.begin(), forged.begin() + 5}), 0, 1),
                 Raw(Heartbeat(hbAck, std::vector<uint8_t>(40, 0x5a)), 0, 1),
                 Relative(Heartbeat(hbAck, echo), 0, 11),
                 Raw(Segment(1001, 0, H::FIN, 0), 0, 4)}));
    // As a client, PathMaxRetrans 0: its data acknowledged, then idle paths
    // kept alive by genuine answers, one replayed, then silence (a path
    // fails, then the association).
    std::vector<Datagram> idleClient{Raw(Init(H::SYN | H::ACK, {peer0, peer1}), 0, 1)};
    for (uint32_t n = 0; n < 20; ++n)
    {
        idleClient.push_back(Relative(Segment(n + 1, 0, H::ACK, 0, {}, 65536), 0, 4));
    }
    for (uint32_t n = 0; n < 6; ++n)
    {
        idleClient.push_back(Relative(Heartbeat(hbAck, echo), n % 2, 11));
    }
    idleClient.push_back(Relative(Heartbeat(hbAck, echo), 0, 0));
    idleClient.push_back(Raw(Heartbeat(hbAck, forged), 1, 12));
    Write(multipath / "client-idle-heartbeats", Input(0x01, 0x18, idleClient));
    // Address changes. As a server: a client's INIT and data, then its
    // requests: ADD 10.1.1.20 (genuine: the relative record carries the
    // target's key), the same again (its answer lost), a forgery under
    // another tag, ADD of the address of another source, DELETE of the
    // source (refused) and of 10.1.1.20, one out of order, a malformed one;
    // data and SHUTDOWN.
    using P = RudpCmtAddressChange;
    const uint8_t ac = H::ADDRESS_CHANGE;
    const Ipv4Address added("10.1.1.20");
    Write(multipath / "server-address-changes",
          Input(0x00,
                0x10,
                {Raw(Init(H::SYN, {peer0}), 0, 1),
                 Raw(Segment(1, 0, 0, 1000), 0, 3),
                 Relative(AddressChange(ac, 0, 1, {{P::ADD, P::REQUESTED, added}}), 0, 1),
                 Relative(AddressChange(ac, 0, 1, {{P::ADD, P::REQUESTED, added}}), 0, 4),
                 Raw(AddressChange(ac, 42, 2, {{P::DELETE, P::REQUESTED, peer0}}), 0, 1),
                 Relative(AddressChange(ac, 0, 2, {{P::ADD, P::REQUESTED, peer1}}), 0, 1),
                 Relative(AddressChange(
                              ac,
                              0,
                              3,
                              {{P::DELETE, P::REQUESTED, peer0}, {P::DELETE, P::REQUESTED, added}}),
                          0,
                          4),
                 Relative(AddressChange(ac, 0, 9, {{P::ADD, P::REQUESTED, added}}), 0, 1),
                 Raw(Heartbeat(ac, {1, 2, 3}), 0, 1),
                 Raw(AddressChange(ac | H::ACK, 0, 1, {{P::ADD, P::DONE, added}}), 0, 1),
                 Raw(Segment(1001, 0, 0, 1000), 0, 4),
                 Raw(Segment(2001, 0, H::FIN, 0), 0, 4)}));
    Simulator::Destroy();
    std::cout << "corpus written to " << dir << std::endl;
    return 0;
}
