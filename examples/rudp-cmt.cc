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
 * (round-robin, lowest-rtt-first, buffer-aware, blest), --buffer-splitting (none,
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
#include "ns3/rudp-cmt-options.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-module.h"
#include "ns3/rudp-scenario-record.h"
#include "ns3/rudp-trace-options.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// Notes the bytes delivered so far (at the end of the warm-up).
void
NoteDelivered(Ptr<RudpCmtReceiver> receiver, uint64_t* delivered)
{
    *delivered = receiver->GetStats().deliveredBytes;
}

/// \return the record's per-path members: the path's setting and what it did
std::vector<RudpJson>
PathRecords(const RudpCmtOptions& options, const RudpCmtSender& sender)
{
    std::vector<RudpJson> paths;
    for (const auto& path : sender.GetPaths())
    {
        RudpJson p;
        p.Set("rtt_s", options.GetRtt(path->GetIndex()).GetSeconds())
            .Set("loss", options.GetLoss(path->GetIndex()))
            .Set("bytes_sent", path->GetStats().bytesSent)
            .Set("retransmissions", path->GetStats().retransmissions)
            .Set("timeouts", path->GetStats().timeouts)
            .Set("cwnd_bytes", path->GetState()->m_cWnd.Get())
            .Set("ssthresh_bytes", path->GetState()->m_ssThresh.Get())
            .Set("srtt_s", path->GetRttEstimator()->GetEstimate().GetSeconds())
            .Set("failed", path->GetStatus() == RudpCmtPath::FAILED)
            .Set("potentially_failed", path->GetStatus() == RudpCmtPath::POTENTIALLY_FAILED);
        paths.push_back(p);
    }
    return paths;
}

} // namespace

int
main(int argc, char* argv[])
{
    RudpCmtOptions options;
    RudpScenarioRecord record("rudp-cmt");
    RudpTraceOptions tracing;
    RudpCommandLine cmd(__FILE__);
    options.AddOptions(cmd, record);
    tracing.AddOptions(cmd);
    cmd.Parse(argc, argv);
    options.ResolveOrFail();

    RudpCmtHelper cmt;
    options.Configure(cmt);
    cmt.Install();
    cmt.AssignStreams(0);
    // The paths are point-to-point links: any PointToPointHelper reaches their devices.
    PointToPointHelper pathLinks;
    tracing.EnablePcap(pathLinks);
    tracing.InstallFlowMonitor(); // only with --flowmon-xml
    Ptr<RudpCmtSender> sender = cmt.GetSender();
    Ptr<RudpCmtReceiver> receiver = cmt.GetReceiver();
    const Time duration = options.GetDuration();
    const Time warmup = options.GetWarmup();
    sender->SetStartTime(Seconds(0));
    sender->SetStopTime(duration);
    receiver->SetStopTime(duration);

    uint64_t deliveredAtWarmup = 0;
    Simulator::Schedule(warmup, &NoteDelivered, receiver, &deliveredAtWarmup);
    Simulator::Stop(duration);
    Simulator::Run();

    const uint64_t delivered = receiver->GetStats().deliveredBytes;
    const uint64_t measured = delivered - deliveredAtWarmup;
    const double goodput = measured / (duration - warmup).GetSeconds();
    const RudpCmtSendEngine::Stats sent = sender->GetStats();
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
        std::cout << std::fixed << std::setprecision(3) << "rudp-cmt: " << options.Describe()
                  << "\n  goodput " << goodput / 1000 << " kB/s, delivered " << delivered
                  << " bytes in order, blocked " << sent.receiveWindowLimitedTime.GetSeconds()
                  << " s, buffer peak " << receiver->GetStats().maxOccupancy
                  << " bytes, retransmissions " << sent.retransmissions << ", timeouts "
                  << sent.timeouts << (options.GetModelAssumptions() ? " (model assumptions)" : "")
                  << std::endl;
    }
    else
    {
        std::cerr << "error: the run failed: " << failure << std::endl;
    }
    if (record.IsWanted())
    {
        RudpJson json;
        record.SetOutcome(json, ok, failure);
        options.AddToJson(json, *sender);
        json.Set("throughput_Bps", goodput)
            .Set("delivered_bytes", delivered)
            .Set("measured_bytes", measured)
            .Set("delivered_in_order", receiver->IsContentIntact())
            .Set("sha256_match", receiver->IsContentIntact())
            .Set("blocked_time_s", sent.receiveWindowLimitedTime.GetSeconds())
            .Set("max_buffer_occupancy", receiver->GetStats().maxOccupancy)
            .Set("dropped_for_space", receiver->GetStats().droppedForSpace)
            .Set("retransmissions", sent.retransmissions)
            .Set("fast_retransmits", sent.fastRetransmits)
            .Set("fast_retransmit_sacks", sent.fastRetransmitSacks)
            .Set("timeouts", sent.timeouts)
            .Set("oracle_losses", sent.oracleLosses)
            .Set("rescheduled", sent.rescheduledSegments)
            .Set("path_stats", PathRecords(options, *sender));
        record.WriteOrFail(json);
    }
    tracing.WriteFlowMonitor();
    Simulator::Destroy();
    return ok ? 0 : 1;
}
