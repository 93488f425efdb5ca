/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp
 * Seed 002's experiment: bulk data over n disjoint paths at once (SCTP-CMT
 * style) into one bounded receive buffer.
 *
 *     sender ==== path 1: 10 Mbit/s, RTT/2 each way, loss p ==== receiver
 *            ==== path 2 ...
 *            ==== path n
 *
 * The goodput is the in-order bytes the receiving application got between
 * --warmup and --duration, per second. Every delivered byte is checked
 * against the sender's generated content ("delivered_in_order").
 *
 *     ./ns3 run "rudp-cmt --paths=3 --rtt=150ms --loss=0.01 --rbuf=16384 --duration=100s"
 *     ./ns3 run "rudp-cmt --paths=2 --rtts=50ms,200ms --rbuf=16384 --output=cmt.json"
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-module.h"

#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

/// Splits "a,b,c" into its parts.
std::vector<std::string>
Split(const std::string& list)
{
    std::vector<std::string> parts;
    std::stringstream stream(list);
    std::string part;
    while (std::getline(stream, part, ','))
    {
        parts.push_back(part);
    }
    return parts;
}

/// Parses a per-path list of times (or one time for every path).
std::vector<Time>
ParseTimes(const std::string& name, const std::string& list, uint32_t paths)
{
    std::vector<Time> times;
    for (const auto& part : Split(list))
    {
        TimeValue value;
        if (!value.DeserializeFromString(part, MakeTimeChecker()))
        {
            RudpParameterCheck::Fail(name, "not a time: '" + part + "'");
        }
        RudpParameterCheck::Range(name, value.Get(), MicroSeconds(2), Seconds(10));
        times.push_back(value.Get());
    }
    if (times.size() == 1)
    {
        times.assign(paths, times.front());
    }
    if (times.size() != paths)
    {
        RudpParameterCheck::Fail(name,
                                 "needs one value or one per path (" + std::to_string(paths) + ")");
    }
    return times;
}

/// Parses a per-path list of loss rates (or one for every path).
std::vector<double>
ParseLosses(const std::string& list, uint32_t paths)
{
    std::vector<double> losses;
    for (const auto& part : Split(list))
    {
        char* end = nullptr;
        const double loss = std::strtod(part.c_str(), &end);
        if (end == part.c_str() || *end != '\0')
        {
            RudpParameterCheck::Fail("loss", "not a number: '" + part + "'");
        }
        RudpParameterCheck::Range("loss", loss, 0.0, 1.0);
        losses.push_back(loss);
    }
    if (losses.size() == 1)
    {
        losses.assign(paths, losses.front());
    }
    if (losses.size() != paths)
    {
        RudpParameterCheck::Fail("loss",
                                 "needs one value or one per path (" + std::to_string(paths) + ")");
    }
    return losses;
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
    std::string rtxPolicy = "RTX-SSTHRESH";
    Time duration = Seconds(100);
    Time warmup = Seconds(10);
    std::string output;

    CommandLine cmd(__FILE__);
    cmd.AddValue("paths", "Number of disjoint paths, 1..8", paths);
    cmd.AddValue("rtt", "Round-trip time of every path, or a list per path (e.g. 50ms,200ms)", rtt);
    cmd.AddValue("loss", "Data loss rate of every path, or a list per path, 0..1", loss);
    cmd.AddValue("rate", "Data rate of every path", rate);
    cmd.AddValue("rbuf", "Receive buffer shared by all paths (bytes; seed: 16384 or 2^28)", rbuf);
    cmd.AddValue("mss", "Data chunk payload (bytes, 100..1472; seed: 1468)", mss);
    cmd.AddValue("alpha", "Additive increase per path (MSS per window), 0..100", alpha);
    cmd.AddValue("beta", "Multiplicative decrease per path, 0..1", beta);
    cmd.AddValue("fast-retransmit",
                 "Fast recovery on a detected loss (seed: both families)",
                 fastRetransmit);
    cmd.AddValue("sfr", "Split Fast Retransmit", sfr);
    cmd.AddValue("cuc", "Cwnd Update for CMT", cuc);
    cmd.AddValue("dac", "Delayed ACK for CMT (sender and receiver)", dac);
    cmd.AddValue("rtx-policy", "RTX-SAME|RTX-ASAP|RTX-CWND|RTX-SSTHRESH", rtxPolicy);
    cmd.AddValue("duration", "Simulated time of the transfer", duration);
    cmd.AddValue("warmup", "Time not counted in the goodput (slow start)", warmup);
    cmd.AddValue("output", "Write the metrics as JSON to this file", output);
    cmd.Parse(argc, argv);

    RudpParameterCheck::Range<uint32_t>("paths", paths, 1, 8);
    const std::vector<Time> rtts = ParseTimes("rtt", rtt, paths);
    const std::vector<double> losses = ParseLosses(loss, paths);
    RudpParameterCheck::Range<uint64_t>("rate", rate.GetBitRate(), 1000, 100000000000ULL);
    RudpParameterCheck::Range<uint32_t>("rbuf", rbuf, 1, 0xffffffff);
    RudpParameterCheck::Range<uint32_t>("mss", mss, 100, 1472);
    RudpParameterCheck::Range("alpha", alpha, 1e-6, 100.0);
    RudpParameterCheck::Range("beta", beta, 1e-6, 1 - 1e-6);
    RudpParameterCheck::OneOf("rtx-policy",
                              rtxPolicy,
                              {"RTX-SAME", "RTX-ASAP", "RTX-CWND", "RTX-SSTHRESH"});
    RudpParameterCheck::Range("duration", duration, MilliSeconds(1), Seconds(1e6));
    RudpParameterCheck::Range("warmup", warmup, Seconds(0), duration - MilliSeconds(1));

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
    cmt.SetSenderAttribute("RtxPolicy", StringValue(rtxPolicy));
    cmt.SetReceiverAttribute("RcvBufSize", UintegerValue(rbuf));
    cmt.SetReceiverAttribute("Dac", BooleanValue(dac));
    cmt.Install();
    cmt.AssignStreams(0);
    Ptr<RudpCmtSender> sender = cmt.GetSender();
    Ptr<RudpCmtReceiver> receiver = cmt.GetReceiver();
    sender->SetStartTime(Seconds(0));
    sender->SetStopTime(duration);
    receiver->SetStopTime(duration);

    uint64_t deliveredAtWarmup = 0;
    Simulator::Schedule(warmup, [&]() { deliveredAtWarmup = receiver->GetDeliveredBytes(); });
    Simulator::Stop(duration);
    Simulator::Run();

    const uint64_t delivered = receiver->GetDeliveredBytes();
    const double seconds = (duration - warmup).GetSeconds();
    const double goodput = (delivered - deliveredAtWarmup) / seconds;
    if (!receiver->IsContentIntact())
    {
        std::cerr << "error: the receiver got bytes that differ from the sender's" << std::endl;
        Simulator::Destroy();
        return 1;
    }

    std::cout << std::fixed << std::setprecision(3) << "rudp-cmt: " << paths << " paths, rtt "
              << rtt << ", loss " << loss << ", rbuf " << rbuf << " bytes\n  goodput "
              << goodput / 1000 << " kB/s, delivered " << delivered << " bytes in order, blocked "
              << sender->GetReceiveWindowLimitedTime().GetSeconds() << " s, buffer peak "
              << receiver->GetMaxOccupancy() << " bytes, retransmissions "
              << sender->GetRetransmissions() << ", timeouts " << sender->GetTimeouts()
              << std::endl;

    if (!output.empty())
    {
        std::vector<RudpJson> pathJson;
        for (const auto& path : sender->GetPaths())
        {
            RudpJson p;
            p.Set("rtt_s", rtts[path->index].GetSeconds())
                .Set("loss", losses[path->index])
                .Set("bytes_sent", path->bytesSent)
                .Set("retransmissions", path->retransmissions)
                .Set("timeouts", path->timeouts)
                .Set("cwnd_bytes", path->GetState()->m_cWnd.Get())
                .Set("ssthresh_bytes", path->GetState()->m_ssThresh.Get())
                .Set("srtt_s", path->GetRttEstimator()->GetEstimate().GetSeconds())
                .Set("failed", path->status == RudpCmtPath::FAILED);
            pathJson.push_back(p);
        }
        RudpJson json;
        json.Set("scenario", "rudp-cmt")
            .Set("paths", paths)
            .Set("rtt", rtt)
            .Set("rtt_s", rtts.front().GetSeconds())
            .Set("loss", losses.front())
            .Set("rate_bps", static_cast<uint64_t>(rate.GetBitRate()))
            .Set("rbuf", rbuf)
            .Set("mss", mss)
            .Set("alpha", alpha)
            .Set("beta", beta)
            .Set("fast_retransmit", fastRetransmit)
            .Set("sfr", sfr)
            .Set("cuc", cuc)
            .Set("dac", dac)
            .Set("rtx_policy", rtxPolicy)
            .Set("duration_s", duration.GetSeconds())
            .Set("warmup_s", warmup.GetSeconds())
            .Set("rng_run", static_cast<uint64_t>(RngSeedManager::GetRun()))
            .Set("throughput_Bps", goodput)
            .Set("delivered_bytes", delivered)
            .Set("delivered_in_order", receiver->IsContentIntact())
            .Set("sha256_match", receiver->IsContentIntact())
            .Set("blocked_time_s", sender->GetReceiveWindowLimitedTime().GetSeconds())
            .Set("max_buffer_occupancy", receiver->GetMaxOccupancy())
            .Set("dropped_for_space", receiver->GetDroppedForSpace())
            .Set("retransmissions", sender->GetRetransmissions())
            .Set("fast_retransmits", sender->GetFastRetransmits())
            .Set("timeouts", sender->GetTimeouts())
            .Set("path_stats", pathJson);
        if (!json.Write(output))
        {
            RudpParameterCheck::Fail("output", "cannot write '" + output + "'");
        }
    }
    Simulator::Destroy();
    return 0;
}
