/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-fuzz
 * Fuzz target: a RudpCmtSocket fed arbitrary datagrams by a multihomed
 * peer whose four ports send from four addresses (port 40000 + i from
 * 10.1.1.(10 + i)), then the simulator run for a bounded simulated time.
 * As a server (a PacketSink listening on the target's address) each source
 * is a client of its own: INITs with address lists, data, SACKs,
 * SHUTDOWNs. As a client (a BulkSend of MaxBytes connecting to the peer's
 * port 40000) the records are the server's answers: INIT-ACKs with address
 * lists, SACKs of its data, SHUTDOWN-ACKs. Either way they may be
 * HEARTBEATs (the target answers them) and HEARTBEAT ACKs: genuine ones
 * (relative records echo the target's latest heartbeat to that source),
 * forged, replayed or malformed ones; and address changes (ADDRESS_CHANGE,
 * RFC 5061's ASCONF: genuine ones, relative records tagged with the
 * target's key, and forged ones under any other tag), which add and delete
 * peer addresses and so open and remove paths. No input may crash, assert
 * or hang it (at most MAX_EVENTS simulator events), nor make it count more
 * bytes acknowledged than the application wrote, nor more peer addresses
 * than an INIT lists and the one it came from, nor more paths than
 * MAX_PATHS, nor give two associations one peer address and port (an
 * address added must not take another association's datagrams), nor
 * accept more HEARTBEAT ACKs than it sent heartbeats, nor answer more
 * HEARTBEATs or address changes than the records carried, or with more
 * than a heartbeat's information or the change asked.
 *
 * Input: two configuration bytes, then datagram records (rudp-fuzz-common.h;
 * relative numbers count from what the target last sent to that source, as
 * one association over its paths: SEQ from 0, ACK from the end of its data;
 * gap blocks are absolute, from RudpCmtSendEngine::FIRST_SEQUENCE, 1).
 *
 * \verbatim
   config 0   bit 0    the target is the client (BulkSend), else the server (PacketSink)
              bit 1    CmtPf
              bit 2    Checksum Crc32c, fixed-up records carry one
              bit 3    SackOnGapFill off
              bits 4-5 MaxBytes: 20 000, 100 000, 400 000, 1 000 000
              bit 6    RcvBufSize 4096 (else 2^20)
              bit 7    MaxInitRetransmits 1, AssociationMaxRetrans 2
   config 1   bits 0-1 and 5  Coupling, (4 bit 5 + bits 0-1) mod 5: uncoupled, LIA, OLIA,
                       CMT/RPv2, Balia
              bit 2    RtxPolicy RTX-SAME (else RTX-SSTHRESH)
              bit 3    PathMaxRetrans 0
              bit 4    HeartbeatInterval 100 ms (else the socket's 30 s)
 \endverbatim
 */

#include "rudp-fuzz-common.h"

#include "ns3/applications-module.h"

#include <algorithm>
#include <iterator>
#include <set>

using namespace ns3;
using namespace ns3::rudpfuzz;

namespace
{

const uint16_t PORT = 5000;
const uint16_t PEER_PORTS[] = {40000, 40001, 40002, 40003};
const uint64_t MAX_BYTES[] = {20000, 100000, 400000, 1000000};
const char* const COUPLINGS[] = {"ns3::RudpCmtUncoupled",
                                 "ns3::RudpLia",
                                 "ns3::RudpOlia",
                                 "ns3::RudpCmtRpv2",
                                 "ns3::RudpBalia"};
/// Simulated time a run may take after the last datagram (set-up retries and RTOs).
const Time SETTLE = Seconds(5);

/// Sets the attributes \p config0 and \p config1 name as the sockets' defaults.
void
Configure(uint8_t config0, uint8_t config1)
{
    const std::string socket = "ns3::RudpCmtSocket::";
    Config::SetDefault(socket + "SegmentSize", UintegerValue(1000));
    Config::SetDefault(socket + "InitialRto", TimeValue(MilliSeconds(200)));
    Config::SetDefault(socket + "MinRto", TimeValue(MilliSeconds(200)));
    Config::SetDefault(socket + "MaxRto", TimeValue(Seconds(1)));
    Config::SetDefault(socket + "Linger", TimeValue(Seconds(1)));
    Config::SetDefault(socket + "CmtPf", BooleanValue(config0 & 0x02));
    Config::SetDefault(socket + "Checksum", StringValue(config0 & 0x04 ? "Crc32c" : "Internet16"));
    Config::SetDefault(socket + "SackOnGapFill", BooleanValue(!(config0 & 0x08)));
    Config::SetDefault(socket + "RcvBufSize", UintegerValue(config0 & 0x40 ? 4096 : 1 << 20));
    Config::SetDefault(socket + "MaxInitRetransmits", UintegerValue(config0 & 0x80 ? 1 : 3));
    Config::SetDefault(socket + "AssociationMaxRetrans", UintegerValue(config0 & 0x80 ? 2 : 4));
    Config::SetDefault(
        socket + "Coupling",
        TypeIdValue(TypeId::LookupByName(
            COUPLINGS[((config1 & 3) | (config1 >> 3 & 4)) % std::size(COUPLINGS)])));
    Config::SetDefault(socket + "RtxPolicy",
                       StringValue(config1 & 0x04 ? "RTX-SAME" : "RTX-SSTHRESH"));
    Config::SetDefault(socket + "PathMaxRetrans", UintegerValue(config1 & 0x08 ? 0 : 1));
    if (config1 & 0x10)
    {
        Config::SetDefault(socket + "HeartbeatInterval", TimeValue(MilliSeconds(100)));
    }
}

/// What the target sent that answers a HEARTBEAT or an address change.
struct Answers
{
    uint32_t count{0};                ///< HEARTBEAT ACKs sent
    uint32_t largest{0};              ///< the largest one's payload (bytes)
    uint32_t addressChangeCount{0};   ///< ADDRESS_CHANGE ACKs sent
    uint32_t addressChangeLargest{0}; ///< the largest one's payload (bytes)
};

/// Counts the target's HEARTBEAT ACKs and ADDRESS_CHANGE ACKs on the wire.
void
CountAnswers(Answers* answers,
             Ipv4Address target,
             const InetSocketAddress& from,
             const InetSocketAddress& /* to */,
             Ptr<const Packet> packet)
{
    RudpHeader header;
    if (from.GetIpv4() != target || packet->PeekHeader(header) == 0 || header.IsMalformed())
    {
        return;
    }
    const uint32_t payload = packet->GetSize() - header.GetSerializedSize();
    if (header.HasFlags(RudpHeader::HEARTBEAT | RudpHeader::ACK))
    {
        ++answers->count;
        answers->largest = std::max(answers->largest, payload);
    }
    if (header.HasFlags(RudpHeader::ADDRESS_CHANGE | RudpHeader::ACK))
    {
        ++answers->addressChangeCount;
        answers->addressChangeLargest = std::max(answers->addressChangeLargest, payload);
    }
}

void
Run(const uint8_t* data, size_t size)
{
    FuzzReader reader(data, size);
    const uint8_t config0 = reader.U8();
    const uint8_t config1 = reader.U8();
    const std::vector<Datagram> records = ReadDatagrams(reader);
    Configure(config0, config1);

    FuzzNetwork network;
    network.SetCrc32c(config0 & 0x04);
    for (uint32_t i = 0; i < 4; ++i)
    {
        network.SetSourceAddress(PEER_PORTS[i], Ipv4Address(network.PeerAddress().Get() + 9 + i));
    }
    RudpStackHelper().Install(network.Target());
    const bool client = config0 & 0x01;
    const uint64_t maxBytes = MAX_BYTES[(config0 >> 4) & 3];
    Ptr<BulkSendApplication> bulk;
    Ptr<PacketSink> sink;
    if (client)
    {
        // The fuzz network has no Ipv4: the socket announces the address it is bound to.
        BulkSendHelper helper(
            "ns3::RudpCmtSocketFactory",
            InetSocketAddress(Ipv4Address(network.PeerAddress().Get() + 9), PEER_PORTS[0]));
        helper.SetAttribute("MaxBytes", UintegerValue(maxBytes));
        helper.SetAttribute("Local",
                            AddressValue(InetSocketAddress(network.TargetAddress(), PORT)));
        bulk = DynamicCast<BulkSendApplication>(helper.Install(network.Target()).Get(0));
    }
    else
    {
        PacketSinkHelper helper("ns3::RudpCmtSocketFactory",
                                InetSocketAddress(network.TargetAddress(), PORT));
        sink = DynamicCast<PacketSink>(helper.Install(network.Target()).Get(0));
    }

    // A client sends its INIT at once: the records may answer it.
    const Time last = network.Schedule(records,
                                       MilliSeconds(1),
                                       {PEER_PORTS, PEER_PORTS + 4},
                                       PORT,
                                       true,
                                       SequenceNumber32(0),
                                       RudpCmtSendEngine::FIRST_SEQUENCE);
    uint32_t heartbeatRecords = 0;
    uint32_t addressChangeRecords = 0;
    size_t largestRecord = 0;
    for (const auto& record : records)
    {
        const bool heartbeat =
            record.bytes.size() > 8 &&
            (record.bytes[8] & (RudpHeader::HEARTBEAT | RudpHeader::ACK)) == RudpHeader::HEARTBEAT;
        heartbeatRecords += heartbeat ? 1 : 0;
        const bool addressChange =
            record.bytes.size() > 8 &&
            (record.bytes[8] & (RudpHeader::ADDRESS_CHANGE | RudpHeader::ACK)) ==
                RudpHeader::ADDRESS_CHANGE;
        addressChangeRecords += addressChange ? 1 : 0;
        largestRecord = std::max(largestRecord, record.bytes.size());
    }
    Answers answers;
    network.SetObserver(MakeBoundCallback(&CountAnswers, &answers, network.TargetAddress()));
    Simulator::Stop(last + SETTLE);
    Simulator::Run();

    ObjectVectorValue sockets;
    network.Target()->GetObject<RudpCmtSocketFactory>()->GetAttribute("SocketList", sockets);
    std::set<std::pair<Ipv4Address, uint16_t>> peers; // every association's, with its peer's port
    for (uint32_t i = 0; i < sockets.GetN(); ++i)
    {
        Ptr<RudpCmtSocket> socket = DynamicCast<RudpCmtSocket>(sockets.Get(i));
        Address primary;
        if (socket->GetState() != RudpCmtSocket::CLOSED && socket->GetPeerName(primary) == 0)
        {
            const uint16_t port = InetSocketAddress::ConvertFrom(primary).GetPort();
            for (const Ipv4Address& address : socket->GetPeerAddresses())
            {
                if (!peers.emplace(address, port).second)
                {
                    Violation("two associations share a peer address and port");
                }
            }
        }
        if (socket->GetSender()->GetPaths().size() > RudpCmtSocket::MAX_PATHS)
        {
            Violation("an association opened more than MAX_PATHS paths");
        }
        Ptr<RudpCmtSendEngine> sender = socket->GetSender();
        uint64_t sent = 0;
        for (const auto& path : sender->GetPaths())
        {
            sent += path->GetStats().bytesSent;
        }
        if (sender->GetStats().bytesAcked > sent)
        {
            Violation("an association counted more bytes acknowledged than its paths sent");
        }
        if (sender->GetStats().bytesAcked > maxBytes)
        {
            Violation("an association counted more bytes acknowledged than it had to send");
        }
        if (sender->GetStats().heartbeatsAnswered > sender->GetStats().heartbeatsSent)
        {
            Violation("an association accepted more HEARTBEAT ACKs than it sent heartbeats");
        }
        // The addresses an INIT lists, and the one it came from (or was sent to).
        if (socket->GetPeerAddresses().size() > RudpCmtSocket::MAX_ADDRESSES + 1)
        {
            Violation("an association has more paths than its peer announced");
        }
    }
    if (answers.count > heartbeatRecords)
    {
        Violation("the target answered more HEARTBEATs than the records carried");
    }
    if (answers.largest > RudpCmtHeartbeatInfo::SIZE)
    {
        Violation("a HEARTBEAT ACK larger than a heartbeat's information (amplification)");
    }
    if (answers.addressChangeCount > addressChangeRecords)
    {
        Violation("the target answered more address changes than the records carried");
    }
    if (answers.addressChangeLargest > largestRecord)
    {
        Violation("an ADDRESS_CHANGE ACK larger than any request (amplification)");
    }
    if (sink && sink->GetTotalRx() > 64 * 65535)
    {
        Violation("the server delivered more bytes than the records carried");
    }
    Simulator::Destroy();
    Config::Reset();
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Run(data, size);
    return 0;
}
