/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-examples
 * netem's correlated random loss (tc's "loss P% C%"), measured on the real
 * NetemQueueDisc: for each loss probability and each correlation, a stream
 * of packets goes through a queue disc with Loss and LossCorrelation set,
 * and one CSV line tells how many were lost, the effective loss rate and
 * the mean length of the runs of consecutive losses.
 *
 *     ./ns3 run "rudp-netem-correlation --loss=0.01,0.1 --correlation=0,0.5,0.9"
 *
 * A correlation of 0 is what NetemQueueDisc did before it had
 * LossCorrelation (every draw independent): what a testbed script's "loss
 * 1% 25%" became here. bench/netem_correlation.py draws the figure of
 * doc/netem.rst from this output. The queue disc runs on its own, with no
 * device and no delay, so each packet is sent or lost at once; it simulates
 * no network, so there are no tracing options.
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-module.h"

#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/// Parses a comma-separated list of probabilities in [0, 1]: "" or the problem.
std::string
ParseProbabilities(const std::string& text, std::vector<double>& values)
{
    values.clear();
    std::stringstream list(text);
    std::string item;
    while (std::getline(list, item, ','))
    {
        double value = 0;
        if (!RudpText::ParseReal(item, value) || value < 0 || value > 1)
        {
            return "\"" + item + "\" is not a probability in [0, 1]";
        }
        values.push_back(value);
    }
    return values.empty() ? "needs at least one value" : "";
}

/// What one queue disc did to a stream of packets.
struct Outcome
{
    uint64_t lost{0};  ///< packets lost
    uint64_t runs{0};  ///< runs of consecutive losses
    double meanRun{0}; ///< their mean length (0 without a loss)
};

/// Sends \p packets packets through a NetemQueueDisc with random loss \p loss, correlated \p rho.
Outcome
Measure(double loss, double rho, uint64_t packets, int64_t stream)
{
    Ptr<NetemQueueDisc> disc = CreateObject<NetemQueueDisc>();
    disc->SetAttribute("Loss", DoubleValue(loss));
    disc->SetAttribute("LossCorrelation", DoubleValue(rho));
    disc->AssignStreams(stream);
    disc->SetSendCallback([](Ptr<QueueDiscItem>) {});
    disc->Initialize();
    Outcome outcome;
    bool inRun = false;
    for (uint64_t i = 0; i < packets; ++i)
    {
        const uint64_t before = disc->GetCounts().lost;
        Ipv4Header header;
        header.SetPayloadSize(20);
        disc->Enqueue(Create<Ipv4QueueDiscItem>(Create<Packet>(20),
                                                Mac48Address::GetBroadcast(),
                                                0x0800,
                                                header));
        disc->Run();
        const bool lost = disc->GetCounts().lost > before;
        if (lost && !inRun)
        {
            ++outcome.runs;
        }
        inRun = lost;
    }
    outcome.lost = disc->GetCounts().lost;
    outcome.meanRun = outcome.runs > 0 ? double(outcome.lost) / outcome.runs : 0.0;
    disc->Dispose();
    return outcome;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string lossText = "0.01,0.05,0.2";
    std::string correlationText = "0,0.1,0.25,0.5,0.75,0.9";
    uint64_t packets = 200000;
    uint64_t stream = 1;
    std::vector<double> losses;
    std::vector<double> correlations;
    RudpCommandLine cmd(__FILE__);
    cmd.Usage("Measures netem's correlated random loss on NetemQueueDisc: one CSV line per "
              "loss probability and correlation (effective loss rate, mean loss-run length). "
              "It simulates no network, so it has no tracing options (pcap, FlowMonitor XML).");
    cmd.AddValue("loss",
                 "Loss probabilities (netem's loss random PERCENT), comma-separated",
                 lossText,
                 "probabilities in [0, 1], comma-separated",
                 [&losses](const std::string& text) { return ParseProbabilities(text, losses); });
    cmd.AddValue("correlation",
                 "Correlations (netem's loss ... CORRELATION), comma-separated",
                 correlationText,
                 "probabilities in [0, 1], comma-separated",
                 [&correlations](const std::string& text) {
                     return ParseProbabilities(text, correlations);
                 });
    cmd.AddValue("packets", "Packets per loss and correlation", packets, 1, 100000000);
    cmd.AddValue("stream",
                 "First random stream of the queue disc (it uses 7)",
                 stream,
                 0,
                 std::numeric_limits<int64_t>::max() / 2);
    cmd.Parse(argc, argv);
    ParseProbabilities(lossText, losses);
    ParseProbabilities(correlationText, correlations);

    std::cout << "loss,correlation,packets,lost,rate,runs,mean_run" << std::endl;
    for (double loss : losses)
    {
        for (double rho : correlations)
        {
            const Outcome o = Measure(loss, rho, packets, static_cast<int64_t>(stream));
            std::cout << loss << "," << rho << "," << packets << "," << o.lost << ","
                      << std::setprecision(8) << double(o.lost) / packets << "," << o.runs << ","
                      << o.meanRun << std::setprecision(6) << std::endl;
        }
    }
    Simulator::Destroy();
    return 0;
}
