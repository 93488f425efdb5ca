/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-examples
 * Seed 002's experiment: bulk data over n disjoint paths at once (SCTP-CMT
 * style) into one bounded receive buffer.
 *
 *     sender ==== path 1: 10 Mbit/s, RTT/2 each way, loss p ==== receiver
 *            ==== path 2 ...
 *            ==== path n
 *
 * The goodput is the in-order bytes the receiving application got between
 * --warmup and --duration, per second. Every delivered byte is checked
 * against the sender's generated content ("delivered_in_order"). A run that
 * delivers bytes differing from the sent ones, or none at all in the measured
 * interval, fails: exit status 1, and with --output a record with "ok": false
 * and the reason. Bad parameters exit with status 2.
 *
 * --pcap=PREFIX writes each path device's pcap file; --flowmon-xml=FILE
 * installs a FlowMonitor and writes its XML (RudpTraceOptions).
 *
 * --ns2-defaults runs with the defaults of ns-2.31's SCTP-CMT, the simulator
 * seed 002 used (RudpCmtHelper::SetNs2Defaults); options and --ns3::...
 * attributes given on the command line still override them.
 *
 * --model-assumptions=1 runs it under the analytic model's own assumptions
 * (RudpCmtSender::ModelAssumptions; doc/cmt-model.rst says what it changes).
 *
 * The remedies for receive-buffer blocking (doc/cmt.rst): --scheduler
 * (round-robin, lowest-rtt-first, buffer-aware), --buffer-splitting (none,
 * sender, receiver, both) and --rescheduling (chunk rescheduling).
 *
 *     ./ns3 run "rudp-cmt --paths=3 --rtt=150ms --loss=0.01 --rbuf=16384 --duration=100s"
 *     ./ns3 run "rudp-cmt --paths=2 --rtts=50ms,200ms --rbuf=16384 --output=cmt.json"
 *     ./ns3 run "rudp-cmt --paths=4 --rtt=100ms --rbuf=16384 --scheduler=buffer-aware"
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-module.h"
#include "ns3/rudp-parameter-check.h"
#include "ns3/rudp-scenario-record.h"
#include "ns3/rudp-trace-options.h"

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// One value per path: a single value applies to every path.
template <typename T>
void
PerPath(const std::string& name, std::vector<T>& values, uint32_t paths)
{
    if (values.size() == 1)
    {
        values.assign(paths, values.front());
    }
    if (values.size() != paths)
    {
        RudpParameterCheck::Fail(
            name,
            "gives " + std::to_string(values.size()) +
                " values; allowed: one, or one per path (--paths=" + std::to_string(paths) + ")");
    }
}

/// \return the RudpCmtSender::Scheduler value of a --scheduler value
std::string
SchedulerAttribute(const std::string& option)
{
    return option == "lowest-rtt-first" ? "LowestRttFirst"
           : option == "buffer-aware"   ? "BufferAware"
                                        : "RoundRobin";
}

/// \return the RudpCmtSender::Coupling TypeId name of a --coupling value
std::string
CouplingAttribute(const std::string& option)
{
    return option == "lia"    ? "ns3::RudpLia"
           : option == "olia" ? "ns3::RudpOlia"
           : option == "rpv2" ? "ns3::RudpCmtRpv2"
                              : "ns3::RudpCmtUncoupled";
}

/// \return the RudpCmtSender::BufferSplitting value of a --buffer-splitting value
std::string
SplittingAttribute(const std::string& option)
{
    return option == "sender"     ? "SenderSide"
           : option == "receiver" ? "ReceiverSide"
           : option == "both"     ? "BothSides"
                                  : "None";
}

/// Notes the bytes delivered so far (at the end of the warm-up).
void
NoteDelivered(Ptr<RudpCmtReceiver> receiver, uint64_t* delivered)
{
    *delivered = receiver->GetStats().deliveredBytes;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t paths = 2;
    std::string rtt = "120ms";
    std::string loss = "0.01";
    DataRate rate("10Mbps");
    uint32_t rbuf = 1u << 28;
    uint32_t mss = 1468;
    double alpha = 1.0;
    double beta = 0.5;
    bool fastRetransmit = true;
    bool sfr = true;
    bool cuc = true;
    bool dac = true;
    std::string rtxPolicy; // "": RudpCmtSender's default (RTX-SAME with --ns2-defaults)
    std::string coupling = "uncoupled";
    bool ns2Defaults = false;
    bool modelAssumptions = false;
    std::string scheduler = "round-robin";
    std::string splitting = "none";
    bool rescheduling = false;
    Time duration = Seconds(100);
    Time warmup = Seconds(10);
    RudpScenarioRecord record("rudp-cmt");
    std::string checksum = "internet";
    RudpTraceOptions tracing;
    std::vector<Time> rtts;
    std::vector<double> losses;

    // A path's one-way delay is RTT/2, at least ns-3's 1 us step of a
    // point-to-point channel here; 10 s is far beyond any seed's RTT.
    const auto parseRtts = [&rtts](const std::string& text) {
        return RudpText::CheckList(text, rtts, [](const std::string& item, Time& time) {
            return RudpRange<Time>{MicroSeconds(2), Seconds(10)}.Check(item, time);
        });
    };
    const auto parseLosses = [&losses](const std::string& text) {
        return RudpText::CheckList(text, losses, [](const std::string& item, double& p) {
            return RudpRange<double>{0.0, 1.0}.Check(item, p);
        });
    };

    RudpCommandLine cmd(__FILE__);
    cmd.AddValue("paths", "Number of disjoint paths", paths, 1u, 8u);
    cmd.AddValue("rtt",
                 "Round-trip time of every path, or a list per path (e.g. 50ms,200ms)",
                 rtt,
                 "times in [2us, 10s], comma-separated",
                 parseRtts);
    cmd.AddValue("loss",
                 "Data loss probability of every path, or a list per path",
                 loss,
                 "numbers in [0, 1], comma-separated",
                 parseLosses);
    cmd.AddValue("rate", "Data rate of every path", rate, DataRate("1kbps"), DataRate("100Gbps"));
    // Sequence numbers compare modulo 2^32: a window must stay below 2^31 (as TCP's 2^30).
    cmd.AddValue("rbuf",
                 "Receive buffer shared by all paths in bytes (seed: 16384 or 2^28; at most "
                 "2^30 so that sequence numbers compare correctly)",
                 rbuf,
                 1u,
                 1u << 30);
    cmd.AddValue("mss",
                 "Data chunk payload in bytes (seed: 1468, SCTP's; the links' MTU grows to "
                 "carry it with IPv4, UDP and RUDP headers)",
                 mss,
                 100u,
                 1472u);
    cmd.AddValue("alpha",
                 "Additive increase per path (MSS per window), as RudpCmtSender::Alpha",
                 alpha,
                 0.0,
                 100.0,
                 RudpText::OPEN_LOW);
    cmd.AddValue("beta",
                 "Multiplicative decrease per path, as RudpCmtSender::Beta",
                 beta,
                 0.0,
                 1.0,
                 RudpText::OPEN);
    cmd.AddValue("fast-retransmit",
                 "Fast recovery on a detected loss (seed: both families)",
                 fastRetransmit);
    cmd.AddValue("sfr", "Split Fast Retransmit", sfr);
    cmd.AddValue("cuc", "Cwnd Update for CMT", cuc);
    cmd.AddValue("dac", "Delayed ACK for CMT (sender and receiver)", dac);
    cmd.AddValue("rtx-policy",
                 "Retransmission policy (default RTX-SSTHRESH; RTX-SAME with the ns-2 defaults)",
                 rtxPolicy,
                 {"RTX-SAME", "RTX-ASAP", "RTX-CWND", "RTX-SSTHRESH", "RTX-LOSSRATE"});
    cmd.AddValue("coupling",
                 "Coupled congestion control: uncoupled (CMT's own, each path with alpha "
                 "and beta), lia (RFC 6356), olia (Khalili et al.) or rpv2 (CMT/RPv2)",
                 coupling,
                 {"uncoupled", "lia", "olia", "rpv2"});
    cmd.AddValue("ns2-defaults",
                 "The defaults of ns-2.31's SCTP-CMT, the simulator seed 002 used "
                 "(RudpCmtHelper::SetNs2Defaults: PathMaxRetrans 5, ReTxThreshold 4, RTX-SAME, "
                 "MaxBurst 4, ...); given options and attributes override them",
                 ns2Defaults);
    cmd.AddValue("model-assumptions",
                 "Simulate under the analytic model's own assumptions (RudpCmtSender::"
                 "ModelAssumptions): each loss known one RTT after its send, retransmissions "
                 "never lost, hence no timeouts",
                 modelAssumptions);
    cmd.AddValue("scheduler",
                 "Path scheduler: round-robin (CMT's), lowest-rtt-first, or buffer-aware (a "
                 "slow path's share within what the receive buffer holds at the RTT ratio)",
                 scheduler,
                 {"round-robin", "lowest-rtt-first", "buffer-aware"});
    cmd.AddValue("buffer-splitting",
                 "Buffer splitting: each path at most 1/n of the sender's buffer, of the "
                 "receiver's window, or both (Dreibholz et al. 2010)",
                 splitting,
                 {"none", "sender", "receiver", "both"});
    cmd.AddValue("rescheduling",
                 "Chunk rescheduling: resend the segment that blocks the receive buffer on the "
                 "fastest path",
                 rescheduling);
    cmd.AddValue("duration",
                 "Simulated time of the transfer",
                 duration,
                 MilliSeconds(1),
                 Seconds(1e6));
    cmd.AddValue("warmup",
                 "Time not counted in the goodput (slow start), less than duration",
                 warmup,
                 Seconds(0),
                 Seconds(1e6));
    record.AddOption(cmd);
    // The program sets these itself: a --ns3::...=value for them would be overridden.
    const std::map<std::string, std::string> senderAttributes{
        {"mss", "SegmentSize"},
        {"alpha", "Alpha"},
        {"beta", "Beta"},
        {"fast-retransmit", "FastRetransmit"},
        {"sfr", "Sfr"},
        {"cuc", "Cuc"},
        {"rtx-policy", "RtxPolicy"},
        {"coupling", "Coupling"},
        {"model-assumptions", "ModelAssumptions"},
        {"scheduler", "Scheduler"},
        {"buffer-splitting", "BufferSplitting"},
        {"rescheduling", "ChunkRescheduling"}};
    for (const auto& [option, attribute] : senderAttributes)
    {
        cmd.SetsAttributes(option, {"ns3::RudpCmtSender::" + attribute});
    }
    cmd.AddValue("checksum",
                 "Chunk checksum: internet (RFC 1071's 16-bit sum) or crc32c (SCTP's CRC-32c, "
                 "RFC 4960 appendix B)",
                 checksum,
                 {"internet", "crc32c"});
    cmd.SetsAttributes("checksum",
                       {"ns3::RudpCmtSender::Checksum", "ns3::RudpCmtReceiver::Checksum"});
    cmd.SetsAttributes("dac", {"ns3::RudpCmtSender::Dac", "ns3::RudpCmtReceiver::Dac"});
    cmd.SetsAttributes("rbuf", {"ns3::RudpCmtReceiver::RcvBufSize"});
    cmd.SetsAttributes("loss", {"ns3::RateErrorModel::ErrorRate"});
    tracing.AddOptions(cmd);
    cmd.BeforeAttributes([&ns2Defaults]() {
        if (ns2Defaults)
        {
            RudpCmtHelper::SetNs2Defaults();
        }
    });
    cmd.Parse(argc, argv);
    if (rtts.empty())
    {
        parseRtts(rtt); // the defaults
    }
    if (losses.empty())
    {
        parseLosses(loss);
    }
    PerPath("rtt", rtts, paths);
    PerPath("loss", losses, paths);
    if (rbuf < mss)
    {
        // RFC 4960 section 6: a receiver must take a whole packet; SCTP never
        // cuts a chunk to fit the window, so a smaller buffer takes nothing.
        RudpParameterCheck::Fail("rbuf",
                                 std::to_string(rbuf) +
                                     " bytes cannot hold one --mss=" + std::to_string(mss) +
                                     " chunk; allowed: [" + std::to_string(mss) + ", 1073741824]");
    }
    if (warmup >= duration)
    {
        RudpParameterCheck::Fail("warmup",
                                 RudpText::FormatTime(warmup) +
                                     " leaves nothing to measure; allowed: less than --duration=" +
                                     RudpText::FormatTime(duration));
    }

    RudpCmtHelper cmt;
    for (uint32_t i = 0; i < paths; ++i)
    {
        cmt.AddPath(rate, rtts[i] / 2, losses[i]);
    }
    cmt.SetSenderAttribute("SegmentSize", UintegerValue(mss));
    cmt.SetSenderAttribute("Alpha", DoubleValue(alpha));
    cmt.SetSenderAttribute("Beta", DoubleValue(beta));
    cmt.SetSenderAttribute("FastRetransmit", BooleanValue(fastRetransmit));
    cmt.SetSenderAttribute("Sfr", BooleanValue(sfr));
    cmt.SetSenderAttribute("Cuc", BooleanValue(cuc));
    cmt.SetSenderAttribute("Dac", BooleanValue(dac));
    if (!rtxPolicy.empty())
    {
        cmt.SetSenderAttribute("RtxPolicy", StringValue(rtxPolicy));
    }
    cmt.SetSenderAttribute("Coupling",
                           TypeIdValue(TypeId::LookupByName(CouplingAttribute(coupling))));
    cmt.SetSenderAttribute("ModelAssumptions", BooleanValue(modelAssumptions));
    cmt.SetSenderAttribute("Scheduler", StringValue(SchedulerAttribute(scheduler)));
    cmt.SetSenderAttribute("BufferSplitting", StringValue(SplittingAttribute(splitting)));
    cmt.SetSenderAttribute("ChunkRescheduling", BooleanValue(rescheduling));
    cmt.SetReceiverAttribute("RcvBufSize", UintegerValue(rbuf));
    cmt.SetReceiverAttribute("Dac", BooleanValue(dac));
    const std::string checksumKind = checksum == "internet" ? "Internet16" : "Crc32c";
    cmt.SetSenderAttribute("Checksum", StringValue(checksumKind));
    cmt.SetReceiverAttribute("Checksum", StringValue(checksumKind));
    cmt.Install();
    cmt.AssignStreams(0);
    // The paths are point-to-point links: any PointToPointHelper reaches their devices.
    PointToPointHelper pathLinks;
    tracing.EnablePcap(pathLinks);
    tracing.InstallFlowMonitor(); // only with --flowmon-xml
    Ptr<RudpCmtSender> sender = cmt.GetSender();
    Ptr<RudpCmtReceiver> receiver = cmt.GetReceiver();
    StringValue policyName;
    sender->GetAttribute("RtxPolicy", policyName);
    rtxPolicy = policyName.Get();
    sender->SetStartTime(Seconds(0));
    sender->SetStopTime(duration);
    receiver->SetStopTime(duration);

    uint64_t deliveredAtWarmup = 0;
    Simulator::Schedule(warmup, &NoteDelivered, receiver, &deliveredAtWarmup);
    Simulator::Stop(duration);
    Simulator::Run();

    const uint64_t delivered = receiver->GetStats().deliveredBytes;
    const uint64_t measured = delivered - deliveredAtWarmup;
    const double seconds = (duration - warmup).GetSeconds();
    const double goodput = measured / seconds;
    std::string failure = sender->GetFailure();
    if (!failure.empty())
    {
        failure = "the sender gave up: " + failure;
    }
    else if (!receiver->IsContentIntact())
    {
        failure = "the receiver got bytes that differ from the sender's";
    }
    else if (measured == 0)
    {
        failure = "no byte was delivered between --warmup=" + RudpText::FormatTime(warmup) +
                  " and --duration=" + RudpText::FormatTime(duration) + " (" +
                  std::to_string(delivered) + " in all)";
    }
    const bool ok = failure.empty();

    if (ok)
    {
        std::cout << std::fixed << std::setprecision(3) << "rudp-cmt: " << paths << " paths, rtt "
                  << rtt << ", loss " << loss << ", rbuf " << rbuf << " bytes\n  goodput "
                  << goodput / 1000 << " kB/s, delivered " << delivered
                  << " bytes in order, blocked "
                  << sender->GetStats().receiveWindowLimitedTime.GetSeconds() << " s, buffer peak "
                  << receiver->GetStats().maxOccupancy << " bytes, retransmissions "
                  << sender->GetStats().retransmissions << ", timeouts "
                  << sender->GetStats().timeouts << (modelAssumptions ? " (model assumptions)" : "")
                  << std::endl;
    }
    else
    {
        std::cerr << "error: the run failed: " << failure << std::endl;
    }
    if (record.IsWanted())
    {
        std::vector<RudpJson> pathJson;
        for (const auto& path : sender->GetPaths())
        {
            RudpJson p;
            p.Set("rtt_s", rtts[path->GetIndex()].GetSeconds())
                .Set("loss", losses[path->GetIndex()])
                .Set("bytes_sent", path->GetStats().bytesSent)
                .Set("retransmissions", path->GetStats().retransmissions)
                .Set("timeouts", path->GetStats().timeouts)
                .Set("cwnd_bytes", path->GetState()->m_cWnd.Get())
                .Set("ssthresh_bytes", path->GetState()->m_ssThresh.Get())
                .Set("srtt_s", path->GetRttEstimator()->GetEstimate().GetSeconds())
                .Set("failed", path->GetStatus() == RudpCmtPath::FAILED)
                .Set("potentially_failed", path->GetStatus() == RudpCmtPath::POTENTIALLY_FAILED);
            pathJson.push_back(p);
        }
        RudpJson json;
        record.SetOutcome(json, ok, failure);
        json.Set("paths", paths)
            .Set("rtt", rtt)
            .Set("rtt_s", rtts.front().GetSeconds())
            .Set("loss", losses.front())
            .Set("rate_bps", static_cast<uint64_t>(rate.GetBitRate()))
            .Set("rbuf", rbuf)
            .Set("checksum", checksum)
            .Set("mss", mss)
            .Set("alpha", alpha)
            .Set("beta", beta)
            .Set("fast_retransmit", fastRetransmit)
            .Set("sfr", sfr)
            .Set("cuc", cuc)
            .Set("dac", dac)
            .Set("rtx_policy", rtxPolicy)
            .Set("coupling", coupling)
            .Set("ns2_defaults", ns2Defaults)
            .Set("model_assumptions", modelAssumptions)
            .Set("scheduler", scheduler)
            .Set("buffer_splitting", splitting)
            .Set("rescheduling", rescheduling)
            .Set("duration_s", duration.GetSeconds())
            .Set("warmup_s", warmup.GetSeconds())
            .Set("rng_run", static_cast<uint64_t>(RngSeedManager::GetRun()))
            .Set("throughput_Bps", goodput)
            .Set("delivered_bytes", delivered)
            .Set("measured_bytes", measured)
            .Set("delivered_in_order", receiver->IsContentIntact())
            .Set("sha256_match", receiver->IsContentIntact())
            .Set("blocked_time_s", sender->GetStats().receiveWindowLimitedTime.GetSeconds())
            .Set("max_buffer_occupancy", receiver->GetStats().maxOccupancy)
            .Set("dropped_for_space", receiver->GetStats().droppedForSpace)
            .Set("retransmissions", sender->GetStats().retransmissions)
            .Set("fast_retransmits", sender->GetStats().fastRetransmits)
            .Set("fast_retransmit_sacks", sender->GetStats().fastRetransmitSacks)
            .Set("timeouts", sender->GetStats().timeouts)
            .Set("oracle_losses", sender->GetStats().oracleLosses)
            .Set("rescheduled", sender->GetStats().rescheduledSegments)
            .Set("path_stats", pathJson);
        record.WriteOrFail(json);
    }
    tracing.WriteFlowMonitor();
    Simulator::Destroy();
    return ok ? 0 : 1;
}
