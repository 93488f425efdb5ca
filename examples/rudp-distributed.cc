/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-examples
 * One simulation split across MPI processes: bulk transfers of --bytes each
 * through seed 003's dumbbell (RudpDumbbellHelper, the options of
 * rudp-cc-comparison: --flows=algorithm@RTT[+start],..., --rate, --loss,
 * --transport=tcp|rudp, ...), cut at its bottleneck by ns-3's distributed
 * simulator (src/mpi) when run as
 *
 *     mpiexec -n 2 ns3.48-rudp-distributed-default --ranks=2 --transport=rudp \
 *         --flows=newreno@40ms,cubic@40ms --loss=0.01 --bytes=3000000
 *
 * in an ns-3 tree configured with --enable-mpi. The left router and the
 * senders run on the even ranks, the right router and the receivers on the
 * odd ones; --synchronizer chooses DistributedSimulatorImpl (granted time
 * windows, the default) or NullMessageSimulatorImpl. With --ranks=1 (the
 * default) it is one process, in any build.
 *
 * Each flow's completion is the time its receiver got its last byte,
 * printed in nanoseconds by rank 0: the same to the nanosecond whatever the
 * ranks and the synchronizer, which is what the MPI example-as-test suites
 * (test/rudp-mpi-test-suite.cc) compare against one reference. The JSON
 * record (--output) has the dumbbell's settings, "ranks" (and
 * "synchronizer"), each flow's received_bytes and completion_s, and
 * "wall_s", the one field that changes from run to run.
 *
 * A flow that does not deliver --bytes within --duration fails the run
 * (exit status 1, "ok": false in the record); bad parameters exit with 2.
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-dumbbell-options.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-module.h"
#include "ns3/rudp-ranks.h"
#include "ns3/rudp-scenario-record.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

/// Notes when a flow's receiver has had all its bytes.
class CompletionMeter : public SimpleRefCount<CompletionMeter>
{
  public:
    /**
     * \param sink the flow's PacketSink
     * \param bytes the flow's size
     */
    CompletionMeter(Ptr<PacketSink> sink, uint64_t bytes)
        : m_sink(sink),
          m_bytes(bytes)
    {
        sink->TraceConnectWithoutContext("Rx", MakeCallback(&CompletionMeter::Received, this));
    }

    /// \return the bytes the receiver got
    uint64_t GetReceived() const
    {
        return m_sink->GetTotalRx();
    }

    /// \return when it had all of them (zero if it has not)
    Time GetCompletion() const
    {
        return m_completion;
    }

  private:
    void Received(Ptr<const Packet> /* packet */, const Address& /* from */)
    {
        if (m_completion.IsZero() && m_sink->GetTotalRx() >= m_bytes)
        {
            m_completion = Simulator::Now();
        }
    }

    Ptr<PacketSink> m_sink; ///< the flow's receiver
    uint64_t m_bytes;       ///< the flow's size
    Time m_completion;      ///< when the last byte arrived
};

/// \return the name under which flow \p k's \p what is shared between ranks
std::string
FlowKey(size_t k, const std::string& what)
{
    return "flow." + std::to_string(k) + "." + what;
}

} // namespace

int
main(int argc, char* argv[])
{
    RudpRanks ranks;             // --ranks, --synchronizer (first: it ends MPI last)
    RudpDumbbellOptions options; // --flows, --rate, --loss, --transport, --duration, ...
    RudpScenarioRecord record("rudp-distributed");
    uint64_t bytes = 1000000;

    RudpCommandLine cmd(__FILE__);
    cmd.Usage("Bulk transfers through a dumbbell split across MPI ranks at its bottleneck "
              "(mpiexec -n N PROGRAM --ranks=N)");
    options.AddOptions(cmd);
    cmd.AddValue("bytes", "Bytes each flow sends", bytes, 1, 1000000000000);
    ranks.AddOptions(cmd);
    record.AddOption(cmd);
    cmd.Parse(argc, argv);
    options.ResolveOrFail();
    ranks.EnableOrFail(argc, argv);
    const auto started = std::chrono::steady_clock::now();

    const std::vector<RudpDumbbellOptions::Flow>& flows = options.GetFlows();
    RudpDumbbellHelper dumbbell;
    options.Configure(dumbbell);
    dumbbell.SetSourceAttribute("MaxBytes", UintegerValue(bytes));
    dumbbell.SetRanks(ranks.GetRanks());
    dumbbell.Install();
    dumbbell.AssignStreams(10);
    std::vector<Ptr<CompletionMeter>> meters(flows.size());
    for (size_t k = 0; k < flows.size(); ++k)
    {
        if (dumbbell.GetSink(k)) // this rank simulates the receiver
        {
            meters[k] = Create<CompletionMeter>(dumbbell.GetSink(k), bytes);
        }
    }

    Simulator::Stop(options.GetDuration());
    Simulator::Run();

    RudpRankValues local;
    for (size_t k = 0; k < flows.size(); ++k)
    {
        if (meters[k])
        {
            local.Set(FlowKey(k, "received"), meters[k]->GetReceived());
            local.Set(FlowKey(k, "completion_ns"),
                      static_cast<uint64_t>(meters[k]->GetCompletion().GetNanoSeconds()));
        }
    }
    const RudpRankValues measured = ranks.Share(local);
    Simulator::Destroy();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    std::string failure;
    uint64_t last = 0;
    std::vector<RudpJson> flowJson;
    std::ostringstream lines;
    for (size_t k = 0; k < flows.size(); ++k)
    {
        const uint64_t received = measured.GetUint(FlowKey(k, "received"));
        const uint64_t completion = measured.GetUint(FlowKey(k, "completion_ns"));
        const std::string name = "flow " + std::to_string(k) + " (" + flows[k].algorithm + " @ " +
                                 RudpText::FormatTime(flows[k].rtt) + ")";
        if (received < bytes && failure.empty())
        {
            failure = name + " delivered " + std::to_string(received) + " of " +
                      std::to_string(bytes) +
                      " bytes within --duration=" + RudpText::FormatTime(options.GetDuration());
        }
        last = std::max(last, completion);
        lines << "rudp-distributed: " << name << ": " << received << " bytes, the last at "
              << completion << " ns\n";
        RudpJson json;
        json.Set("index", static_cast<uint32_t>(k))
            .Set("algorithm", flows[k].algorithm)
            .Set("rtt_s", flows[k].rtt.GetSeconds())
            .Set("start_s", flows[k].start.GetSeconds())
            .Set("received_bytes", received)
            .Set("completion_s", NanoSeconds(completion).GetSeconds());
        flowJson.push_back(json);
    }
    const bool ok = failure.empty();
    if (!ranks.IsRoot())
    {
        return ok ? 0 : 1; // rank 0 prints and writes what every rank computed
    }

    // No rank count and no wall time: the same lines for one process and any split.
    std::cout << "rudp-distributed: " << flows.size() << " flow(s) of " << bytes << " bytes over "
              << options.GetTransport() << ", bottleneck " << options.GetRate().GetBitRate() / 1e6
              << " Mbit/s, loss " << options.GetLoss() << "\n"
              << lines.str();
    if (ok)
    {
        std::cout << "rudp-distributed: every byte delivered, the last at " << last << " ns"
                  << std::endl;
    }
    else
    {
        std::cerr << "error: " << failure << std::endl;
    }

    if (record.IsWanted())
    {
        RudpJson json;
        record.SetOutcome(json, ok, failure);
        options.AddToJson(json); // transport ... del_ack_count
        ranks.AddToJson(json);   // ranks, synchronizer
        json.Set("bytes", bytes)
            .Set("rng_run", static_cast<uint64_t>(RngSeedManager::GetRun()))
            .Set("flows", flowJson)
            .Set("last_completion_s", NanoSeconds(last).GetSeconds())
            .Set("wall_s", wall);
        record.WriteOrFail(json);
    }
    return ok ? 0 : 1;
}
