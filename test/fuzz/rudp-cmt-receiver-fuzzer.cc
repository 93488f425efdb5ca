/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-fuzz
 * Fuzz target: a RudpCmtReceiver fed arbitrary datagrams on up to four
 * paths (source ports), then the simulator run for a bounded simulated
 * time. No input may crash, assert or hang it.
 *
 * Input: two configuration bytes, then datagram records (rudp-fuzz-common.h;
 * relative sequence numbers count from the association's next expected byte,
 * whichever path the receiver last answered).
 *
 * \verbatim
   config 0   bits 0-1 RcvBufSize: 2800, 16384, 131072, 2^28 bytes
              bit 2    DelAckCount 2 (else 1)
              bit 3    Dac
              bit 4    DelAckTimeout 0 instead of 200 ms
              bit 5    Checksum Crc32c (where the module has the attribute),
                       fixed-up records carry one
   config 1   unused (kept for the common layout)
 \endverbatim
 *
 * Checked during each run: at most MAX_EVENTS simulator events (no
 * datagram storm). After it: the buffer never held more than its capacity,
 * and no more bytes were delivered than datagrams carried.
 */

#include "rudp-fuzz-common.h"

using namespace ns3;
using namespace ns3::rudpfuzz;

namespace
{

const uint16_t PORT = 5000;
const uint32_t CAPACITIES[] = {2800, 16384, 131072, 1u << 28};
/// Simulated time a run may take after the last datagram (a delayed SACK).
const Time SETTLE = Seconds(1);

void
Run(const uint8_t* data, size_t size)
{
    FuzzReader reader(data, size);
    const uint8_t config0 = reader.U8();
    reader.U8();
    const std::vector<Datagram> records = ReadDatagrams(reader);

    FuzzNetwork network;
    Ptr<RudpCmtReceiver> receiver = CreateObject<RudpCmtReceiver>();
    receiver->SetAttribute("Port", UintegerValue(PORT));
    receiver->SetAttribute("RcvBufSize", UintegerValue(CAPACITIES[config0 & 3]));
    receiver->SetAttribute("DelAckCount", UintegerValue(config0 & 0x04 ? 2 : 1));
    receiver->SetAttribute("Dac", BooleanValue(config0 & 0x08));
    receiver->SetAttribute("DelAckTimeout",
                           TimeValue(config0 & 0x10 ? Time(0) : MilliSeconds(200)));
    // The attribute came with issue 12; a module without it ignores the bit.
    const bool crc32c = config0 & 0x20;
    network.SetCrc32c(
        receiver->SetAttributeFailSafe("Checksum", StringValue(crc32c ? "Crc32c" : "Internet16")) &&
        crc32c);
    network.Target()->AddApplication(receiver);
    receiver->SetStartTime(Seconds(0));

    const Time last = network.Schedule(records,
                                       MilliSeconds(1),
                                       {40000, 40001, 40002, 40003},
                                       PORT,
                                       true,
                                       RudpCmtSendEngine::FIRST_SEQUENCE,
                                       SequenceNumber32(0));
    Simulator::Stop(last + SETTLE);
    Simulator::Run();

    if (receiver->GetStats().maxOccupancy > receiver->GetEngine()->GetCapacity())
    {
        Violation("the CMT receive buffer held more than its capacity");
    }
    uint64_t carried = 0;
    for (const auto& record : records)
    {
        carried += record.bytes.size();
    }
    if (receiver->GetStats().deliveredBytes > carried)
    {
        Violation("the CMT receiver delivered more bytes than arrived");
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
