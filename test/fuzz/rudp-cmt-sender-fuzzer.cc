/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-fuzz
 * Fuzz target: a RudpCmtSender on up to four paths (to a multihomed peer:
 * path i to 10.1.1.(10 + i), port 40000 + i) fed arbitrary datagrams as its
 * peer's SACKs, from those addresses (a record's source beyond the paths
 * comes from an address the sender does not know), then the simulator
 * run for a bounded simulated time. No input may crash, assert or hang it,
 * nor make its scoreboard (RudpCmtScoreboard) lose step with its buffer.
 *
 * Input: two configuration bytes, then datagram records (rudp-fuzz-common.h;
 * relative ACK numbers count from the end of what the sender last sent on
 * any path, relative SEQ numbers from 0; gap blocks are absolute, and the
 * association's data starts at RudpCmtSendEngine::FIRST_SEQUENCE, 1).
 *
 * \verbatim
   config 0   bits 0-1 paths - 1
              bit 2    ns-2's rules (Ns2Recovery, Ns2RoundRobin)
              bit 3    Dac off
              bit 4    Sfr off
              bit 5    Checksum Crc32c, fixed-up records carry one
              bit 6    CmtPf
              bit 7    BufferAware scheduler (Blest if config 1's bits 0-2 are 5-7),
                       chunk rescheduling, BothSides splitting
   config 1   bits 0-2 RtxPolicy: SAME, ASAP, CWND, SSTHRESH, LOSSRATE (mod 5)
              bit 3    MaxBurst 4
              bits 4-5 MaxBytes: 20 000, 100 000, 400 000, 1 000 000
              bit 6    InitialPeerWindow 16384 (else learnt from the first SACK)
              bit 7    IdleWindowDecay off
 \endverbatim
 *
 * Checked during each run: at most MAX_EVENTS simulator events (no
 * datagram storm). After it: no more bytes acknowledged than MaxBytes, nor
 * than the paths sent.
 */

#include "rudp-fuzz-common.h"

using namespace ns3;
using namespace ns3::rudpfuzz;

namespace
{

const uint16_t PORT = 5000;
const uint16_t PEER_PORTS[] = {40000, 40001, 40002, 40003};
const uint64_t MAX_BYTES[] = {20000, 100000, 400000, 1000000};
const char* const RTX_POLICIES[] = {"RTX-SAME",
                                    "RTX-ASAP",
                                    "RTX-CWND",
                                    "RTX-SSTHRESH",
                                    "RTX-LOSSRATE"};
/// Simulated time a run may take after the last datagram (an RTO and its resend).
const Time SETTLE = Seconds(3);

void
Run(const uint8_t* data, size_t size)
{
    FuzzReader reader(data, size);
    const uint8_t config0 = reader.U8();
    const uint8_t config1 = reader.U8();
    const std::vector<Datagram> records = ReadDatagrams(reader);

    FuzzNetwork network;
    Ptr<RudpCmtSender> sender = CreateObject<RudpCmtSender>();
    sender->SetAttribute("Port", UintegerValue(PORT));
    sender->SetAttribute("SegmentSize", UintegerValue(1000));
    sender->SetAttribute("MaxBytes", UintegerValue(MAX_BYTES[(config1 >> 4) & 3]));
    sender->SetAttribute("Ns2Recovery", BooleanValue(config0 & 0x04));
    sender->SetAttribute("Ns2RoundRobin", BooleanValue(config0 & 0x04));
    sender->SetAttribute("Dac", BooleanValue(!(config0 & 0x08)));
    sender->SetAttribute("Sfr", BooleanValue(!(config0 & 0x10)));
    sender->SetAttribute("CmtPf", BooleanValue(config0 & 0x40));
    if (config0 & 0x80)
    {
        // RtxPolicy's values 5-7 repeat 0-2: with them, BLEST.
        sender->SetAttribute("Scheduler",
                             StringValue((config1 & 7) >= 5 ? "Blest" : "BufferAware"));
        sender->SetAttribute("BufferSplitting", StringValue("BothSides"));
        sender->SetAttribute("ChunkRescheduling", BooleanValue(true));
    }
    sender->SetAttribute("RtxPolicy", StringValue(RTX_POLICIES[(config1 & 7) % 5]));
    sender->SetAttribute("MaxBurst", UintegerValue(config1 & 0x08 ? 4 : 0));
    sender->SetAttribute("InitialPeerWindow", UintegerValue(config1 & 0x40 ? 16384 : 0));
    sender->SetAttribute("IdleWindowDecay", BooleanValue(!(config1 & 0x80)));
    const bool crc32c = config0 & 0x20;
    network.SetCrc32c(
        sender->SetAttributeFailSafe("Checksum", StringValue(crc32c ? "Crc32c" : "Internet16")) &&
        crc32c);
    // A multihomed peer: path i leads to 10.1.1.(10 + i), the address its SACKs come from
    // (the sender's data to it goes nowhere; the wire's sniffer still sees it).
    const uint32_t paths = (config0 & 3) + 1;
    for (uint32_t i = 0; i < 4; ++i)
    {
        const Ipv4Address address(network.PeerAddress().Get() + 9 + i);
        network.SetSourceAddress(PEER_PORTS[i], address);
        if (i < paths)
        {
            sender->AddPath(InetSocketAddress(address, PEER_PORTS[i]));
        }
    }
    network.Target()->AddApplication(sender);
    sender->SetStartTime(Seconds(0));

    const Time last = network.Schedule(records,
                                       MilliSeconds(1),
                                       {PEER_PORTS, PEER_PORTS + 4},
                                       PORT,
                                       true,
                                       SequenceNumber32(0),
                                       RudpCmtSendEngine::FIRST_SEQUENCE);
    Simulator::Stop(last + SETTLE);
    Simulator::Run();

    uint64_t sent = 0;
    for (const auto& path : sender->GetPaths())
    {
        sent += path->GetStats().bytesSent;
    }
    if (sender->GetStats().bytesAcked > MAX_BYTES[(config1 >> 4) & 3])
    {
        Violation("the CMT sender counted more bytes acknowledged than it had to send");
    }
    if (sender->GetStats().bytesAcked > sent)
    {
        Violation("the CMT sender counted more bytes acknowledged than its paths sent");
    }
    Simulator::Destroy();
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Run(data, size);
    return 0;
}
