/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-dumbbell-options.h"
#include "ns3/rudp-flow-stats.h"
#include "ns3/rudp-flow-traces.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-module.h"
#include "ns3/tcp-linux-reno.h"
#include "ns3/test.h"

#include <fstream>
#include <limits>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * The scenario side of seed 003's dumbbell: RudpDumbbellOptions (its
 * options, their combinations, the sizes they resolve), RudpFlowTraces
 * (cwnd and RTT files per flow) and a bulk flow's JSON record
 * (RudpFindFlow, RudpAddBulkFlowMetrics).
 */

using namespace ns3;

namespace
{

/**
 * \brief Parses \p args into \p options, then resolves them.
 * \param options the options
 * \param args the arguments, without the program's name
 * \param [out] name the option at fault
 * \return "" or the problem
 */
std::string
Resolve(RudpDumbbellOptions& options, const std::vector<std::string>& args, std::string& name)
{
    RudpCommandLine cmd("rudp-dumbbell-options-test");
    options.AddOptions(cmd);
    std::vector<std::string> all{"program"};
    all.insert(all.end(), args.begin(), args.end());
    std::string problem;
    if (!cmd.Check(all, name, problem))
    {
        return "parse: " + problem;
    }
    return options.Resolve(name);
}

} // namespace

/// --flows, item by item.
class RudpDumbbellFlowsTest : public TestCase
{
  public:
    RudpDumbbellFlowsTest()
        : TestCase("Flows: algorithm@RTT[+start], and what is wrong with a bad one")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<RudpDumbbellOptions::Flow> flows;
        NS_TEST_ASSERT_MSG_EQ(RudpDumbbellOptions::ParseFlows("cubic@50ms,newreno@200ms+5s", flows),
                              "",
                              "two flows");
        NS_TEST_ASSERT_MSG_EQ(flows.size(), 2, "two flows");
        NS_TEST_EXPECT_MSG_EQ(flows[0].algorithm, "cubic", "first");
        NS_TEST_EXPECT_MSG_EQ(flows[0].rtt, MilliSeconds(50), "first");
        NS_TEST_EXPECT_MSG_EQ(flows[0].start, Seconds(0), "starts at 0 by default");
        NS_TEST_EXPECT_MSG_EQ(flows[1].algorithm, "newreno", "second");
        NS_TEST_EXPECT_MSG_EQ(flows[1].rtt, MilliSeconds(200), "second");
        NS_TEST_EXPECT_MSG_EQ(flows[1].start, Seconds(5), "second");
        NS_TEST_EXPECT_MSG_EQ(RudpDumbbellOptions::ParseFlows("ns3::TcpLinuxReno@10ms", flows),
                              "",
                              "a TypeId");
        NS_TEST_EXPECT_MSG_EQ(
            RudpDumbbellOptions::ParseFlows("cubic", flows),
            "'cubic' is not algorithm@RTT[+start], e.g. cubic@50ms or newreno@200ms+5s",
            "no RTT");
        NS_TEST_EXPECT_MSG_EQ(RudpDumbbellOptions::ParseFlows("foo@50ms", flows),
                              "'foo@50ms': unknown algorithm 'foo' (newreno|reno|cubic|htcp|"
                              "hybla|westwood|veno|cvtcp, the TypeId of a TcpCongestionOps, or "
                              "over RUDP rudp-reno)",
                              "unknown algorithm");
        NS_TEST_EXPECT_MSG_EQ(RudpDumbbellOptions::ParseFlows("rudp-reno@50ms", flows),
                              "",
                              "RUDP's own Reno");
        NS_TEST_EXPECT_MSG_EQ(RudpDumbbellOptions::AlgorithmTypeId("rudp-reno"),
                              RudpReno::GetTypeId(),
                              "rudp-reno is ns3::RudpReno");
        NS_TEST_EXPECT_MSG_EQ(RudpDumbbellOptions::AlgorithmTypeId("newreno"),
                              TcpLinuxReno::GetTypeId(),
                              "a short name is its TcpCongestionOps");
        NS_TEST_EXPECT_MSG_EQ(RudpDumbbellOptions::ParseFlows("cubic@20s", flows),
                              "'cubic@20s': '20s' is out of range: must be in [0s, 10s]",
                              "RTT too long");
        NS_TEST_EXPECT_MSG_NE(RudpDumbbellOptions::ParseFlows("cubic@50ms+x", flows),
                              "",
                              "a start that is no time");
        std::string many = "cubic@50ms";
        for (int i = 0; i < 100; ++i)
        {
            many += ",cubic@50ms";
        }
        NS_TEST_EXPECT_MSG_EQ(RudpDumbbellOptions::ParseFlows(many, flows),
                              "gives 101 flows; allowed: 1 to 100",
                              "too many");
    }
};

/// Resolve(): the sizes left out, and what only a combination rules out.
class RudpDumbbellResolveTest : public TestCase
{
  public:
    RudpDumbbellResolveTest()
        : TestCase("Options: sizes resolved by RudpDumbbellSizing, combinations checked")
    {
    }

  private:
    void DoRun() override
    {
        std::string name;
        {
            RudpDumbbellOptions options;
            NS_TEST_ASSERT_MSG_EQ(
                Resolve(
                    options,
                    {"--transport=rudp", "--flows=rudp-reno@50ms", "--sack=0", "--del-ack-count=1"},
                    name),
                "",
                "RUDP's own Reno, without SACK, an ACK a segment");
            NS_TEST_EXPECT_MSG_EQ(options.GetSack(), false, "--sack=0");
            NS_TEST_EXPECT_MSG_EQ(options.GetDelAckCount(), 1, "--del-ack-count=1");
        }
        {
            RudpDumbbellOptions options; // cubic@50ms, 100 Mbit/s, bfifo
            NS_TEST_ASSERT_MSG_EQ(Resolve(options, {}, name), "", "the defaults");
            NS_TEST_EXPECT_MSG_EQ(options.GetSack(), true, "SACK by default, as before");
            NS_TEST_EXPECT_MSG_EQ(options.GetDelAckCount(), 2, "two segments an ACK, as before");
            NS_TEST_EXPECT_MSG_EQ(options.GetAccessRate(), DataRate("1Gbps"), "ten times --rate");
            NS_TEST_EXPECT_MSG_EQ(options.GetMaxRtt(), MilliSeconds(50), "the largest RTT");
            NS_TEST_EXPECT_MSG_EQ(options.GetQueueSize(), 625000, "bfifo: one BDP in bytes");
            NS_TEST_EXPECT_MSG_EQ(options.GetQueueBytes(), 625000, "in bytes already");
            NS_TEST_EXPECT_MSG_EQ(options.GetBuffer(), 2500000, "twice BDP plus queue");
            NS_TEST_EXPECT_MSG_EQ(options.GetInitialSsThresh(), 1250000, "the path's capacity");
            NS_TEST_EXPECT_MSG_EQ(options.GetFirstMeasured(), Seconds(0), "no warm-up");
            const std::string json = [&options]() {
                RudpJson record;
                options.AddToJson(record);
                return record.Dump();
            }();
            NS_TEST_EXPECT_MSG_EQ(json,
                                  "{\"transport\": \"tcp\", \"rate_bps\": 100000000, "
                                  "\"access_rate_bps\": 1000000000, \"bottleneck_delay_s\": "
                                  "0.001, \"queue\": \"bfifo\", \"queue_size\": 625000, "
                                  "\"queue_unit\": \"bytes\", \"loss\": 0, \"duration_s\": 60, "
                                  "\"warmup_s\": 0, \"segment_size\": 1448, \"buffer_bytes\": "
                                  "2500000, \"initial_ssthresh_bytes\": 1250000, \"sack\": true, "
                                  "\"del_ack_count\": 2}",
                                  "the settings' record");
        }
        {
            RudpDumbbellOptions options;
            NS_TEST_ASSERT_MSG_EQ(Resolve(options,
                                          {"--queue=pfifo",
                                           "--transport=rudp",
                                           "--segment-size=1454",
                                           "--rate=10Mbps",
                                           "--flows=cubic@40ms+1s,veno@200ms+2s",
                                           "--warmup=500ms",
                                           "--initial-ssthresh=none"},
                                          name),
                                  "",
                                  "pfifo, RUDP");
            NS_TEST_EXPECT_MSG_EQ(options.GetQueueSize(), 1000, "pfifo: 1000 packets");
            NS_TEST_EXPECT_MSG_EQ(options.GetQueueBytes(), 1502000, "of 1502 bytes on the wire");
            NS_TEST_EXPECT_MSG_EQ(options.GetBuffer(), 2 * (250000 + 1502000), "buffers");
            NS_TEST_EXPECT_MSG_EQ(options.GetInitialSsThresh(),
                                  std::numeric_limits<uint32_t>::max(),
                                  "none: unlimited");
            NS_TEST_EXPECT_MSG_EQ(options.GetFirstMeasured(), Seconds(1.5), "1 s + 500 ms");
            NS_TEST_EXPECT_MSG_EQ(options.GetTransportKind(), RudpDumbbellHelper::RUDP, "RUDP");

            RudpDumbbellHelper dumbbell;
            options.Configure(dumbbell);
            NS_TEST_EXPECT_MSG_EQ(dumbbell.GetNFlows(), 2, "one flow per --flows entry");
            NS_TEST_EXPECT_MSG_EQ(dumbbell.GetRtt(1), MilliSeconds(200), "its RTT");
            TypeId::AttributeInformation info;
            NS_TEST_ASSERT_MSG_EQ(
                RudpSocket::GetTypeId().LookupAttributeByName("SegmentSize", &info),
                true,
                "RudpSocket's SegmentSize");
            NS_TEST_EXPECT_MSG_EQ(info.initialValue->SerializeToString(info.checker),
                                  "1454",
                                  "the socket default");
            Config::Reset();
        }
        {
            RudpDumbbellOptions options;
            NS_TEST_ASSERT_MSG_EQ(Resolve(options, {"--initial-ssthresh=30000"}, name),
                                  "",
                                  "bytes");
            NS_TEST_EXPECT_MSG_EQ(options.GetInitialSsThresh(), 30000, "as given");
        }
        // The combinations: option at fault and message.
        const std::vector<std::vector<std::string>> bad{
            {"--flows=cubic@1ms",
             "flows",
             "RTT 1ms must exceed twice --bottleneck-delay=1ms (the access links need a delay "
             "too)"},
            {"--flows=cubic@50ms+10s --duration=5s",
             "flows",
             "a flow starting at 10s does not start before --duration=5s"},
            {"--flows=cubic@50ms,cubic@50ms+2s --warmup=3s --duration=5s",
             "warmup",
             "a flow starting at 2s plus --warmup=3s leaves nothing to measure before "
             "--duration=5s"},
            {"--access-rate=1Mbps",
             "access-rate",
             "1Mbps is below --rate=100Mbps; allowed: at least the bottleneck's rate"},
            {"--segment-size=1454",
             "segment-size",
             "1454 is too large for TCP; allowed: at most 1448 (a 1500-byte MTU less IPv4 and TCP "
             "headers with timestamps)"},
            {"--queue-size=100",
             "queue-size",
             "100 is out of range: must be in [1500, 1000000000]"},
            {"--queue=pfifo --queue-size=2000000",
             "queue-size",
             "2000000 is out of range: must be in [1, 1000000]"},
            {"--buffer=100", "buffer", "100 is out of range: must be in [4096, 1073741823]"},
            {"--initial-ssthresh=100",
             "initial-ssthresh",
             "100 is out of range: must be in [2896, 4294967295]"},
            {"--flows=rudp-reno@50ms",
             "flows",
             "rudp-reno is RUDP's own Reno (ns3::RudpReno); allowed: with --transport=rudp, or a "
             "TcpCongestionOps"},
        };
        for (const auto& c : bad)
        {
            RudpDumbbellOptions options;
            name.clear();
            NS_TEST_EXPECT_MSG_EQ(Resolve(options, RudpText::Split(c[0], ' '), name), c[2], c[0]);
            NS_TEST_EXPECT_MSG_EQ(name, c[1], c[0]);
        }
    }
};

/// A bulk flow's record: FlowMonitor's flow found, the meter's and its numbers in order.
class RudpBulkFlowRecordTest : public TestCase
{
  public:
    RudpBulkFlowRecordTest()
        : TestCase("Bulk flow record: the data direction found, goodput then FlowMonitor's "
                   "delay, jitter and loss")
    {
    }

  private:
    void DoRun() override
    {
        RudpFlowSummary data;
        data.source = Ipv4Address("10.1.0.1");
        data.destinationPort = 5001;
        data.txPackets = 200;
        data.rxPackets = 190;
        data.lostPackets = 10;
        data.meanDelayS = 0.25;
        data.meanJitterS = 0.5;
        RudpFlowSummary acks;
        acks.source = Ipv4Address("10.101.0.2");
        acks.destinationPort = 49153;
        const std::vector<RudpFlowSummary> summaries{acks, data};
        NS_TEST_EXPECT_MSG_EQ(RudpFindFlow(summaries, Ipv4Address("10.1.0.1"), 5001).txPackets,
                              200,
                              "the data direction");
        NS_TEST_EXPECT_MSG_EQ(RudpFindFlow(summaries, Ipv4Address("10.1.0.1"), 5000).txPackets,
                              0,
                              "no such flow: an empty summary");

        const Ptr<PacketSink> sink = CreateObject<PacketSink>();
        const Ptr<RudpGoodputMeter> meter =
            Create<RudpGoodputMeter>(sink, Seconds(1), Seconds(1), Seconds(4));
        RudpJson json;
        json.Set("index", 0);
        RudpAddBulkFlowMetrics(json, *meter, data);
        NS_TEST_EXPECT_MSG_EQ(json.Dump(),
                              "{\"index\": 0, \"measured_s\": 2, \"bytes\": 0, \"total_bytes\": "
                              "0, \"throughput_bps\": 0, \"mean_delay_s\": 0.25, "
                              "\"mean_jitter_s\": 0.5, \"tx_packets\": 200, \"rx_packets\": 190, "
                              "\"lost_packets\": 10, \"loss_rate\": 0.050000000000000003}",
                              "the record's members, in order");
        RudpJson none;
        RudpAddBulkFlowMetrics(none, *meter, RudpFlowSummary());
        NS_TEST_EXPECT_MSG_NE(none.Dump().find("\"loss_rate\": 0}"),
                              std::string::npos,
                              "nothing sent: no loss");
        Simulator::Destroy();
    }
};

/// RudpFlowTraces: two files per flow, connected to the flows' sockets.
class RudpFlowTracesTest : public TestCase
{
  public:
    RudpFlowTracesTest()
        : TestCase("Flow traces: PREFIX-k-cwnd.csv and PREFIX-k-rtt.csv per flow, RTT samples "
                   "at least the propagation RTT")
    {
    }

  private:
    void DoRun() override
    {
        RudpFlowTraces none("");
        NS_TEST_EXPECT_MSG_EQ(none.IsEnabled(), false, "no prefix");
        NS_TEST_EXPECT_MSG_EQ(none.Add(Callback<Ptr<Socket>>(), Seconds(0)), "", "nothing to do");
        NS_TEST_EXPECT_MSG_EQ(none.GetN(), 0, "nothing traced");
        RudpFlowTraces unwritable("/nonexistent-rudp-directory/x");
        NS_TEST_EXPECT_MSG_EQ(unwritable.Add(Callback<Ptr<Socket>>(), Seconds(0)),
                              "cannot write '/nonexistent-rudp-directory/x-0-cwnd.csv'",
                              "a directory that does not exist");

        RudpDumbbellHelper dumbbell;
        dumbbell.SetBottleneck(DataRate("10Mbps"), MilliSeconds(1));
        dumbbell.SetSourceAttribute("MaxBytes", UintegerValue(0));
        const std::vector<Time> rtts{MilliSeconds(20), MilliSeconds(60)};
        dumbbell.AddFlow(RudpDumbbellHelper::TCP,
                         TcpLinuxReno::GetTypeId(),
                         rtts[0],
                         Seconds(0),
                         Seconds(2));
        dumbbell.AddFlow(RudpDumbbellHelper::RUDP,
                         TcpLinuxReno::GetTypeId(),
                         rtts[1],
                         Seconds(0.5),
                         Seconds(2));
        dumbbell.Install();
        const std::string prefix = CreateTempDirFilename("trace");
        RudpFlowTraces traces(prefix);
        for (uint32_t k = 0; k < 2; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(
                traces.Add(MakeCallback(&BulkSendApplication::GetSocket, dumbbell.GetSource(k)),
                           k == 0 ? Seconds(0) : Seconds(0.5)),
                "",
                "flow " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(traces.GetN(), 2, "two flows");
        NS_TEST_EXPECT_MSG_EQ(traces.GetCwndFile(1), prefix + "-1-cwnd.csv", "its name");
        NS_TEST_EXPECT_MSG_EQ(traces.GetRttFile(1), prefix + "-1-rtt.csv", "its name");
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(traces.Close(), "", "every line written");
        Simulator::Destroy();

        for (uint32_t k = 0; k < 2; ++k)
        {
            std::ifstream rtt(traces.GetRttFile(k));
            std::string line;
            std::getline(rtt, line);
            NS_TEST_EXPECT_MSG_EQ(line, "time_s,rtt_s", "flow " << k << "'s RTT header");
            uint32_t samples = 0;
            while (std::getline(rtt, line))
            {
                const double sample = std::stod(line.substr(line.find(',') + 1));
                NS_TEST_EXPECT_MSG_GT_OR_EQ(sample,
                                            rtts[k].GetSeconds() * 0.999,
                                            "flow " << k << ": " << line);
                ++samples;
            }
            NS_TEST_EXPECT_MSG_GT(samples, 10, "flow " << k << "'s RTT samples");
            std::ifstream cwnd(traces.GetCwndFile(k));
            std::getline(cwnd, line);
            NS_TEST_EXPECT_MSG_EQ(line, RudpCwndTrace::HEADER, "flow " << k << "'s cwnd header");
            uint32_t lines = 0;
            while (std::getline(cwnd, line))
            {
                ++lines;
            }
            NS_TEST_EXPECT_MSG_GT(lines, 10, "flow " << k << "'s window changes");
        }
    }
};

/// \ingroup rudp-test
/// Dumbbell options test suite.
class RudpDumbbellOptionsTestSuite : public TestSuite
{
  public:
    RudpDumbbellOptionsTestSuite()
        : TestSuite("rudp-dumbbell-options")
    {
        AddTestCase(new RudpDumbbellFlowsTest);
        AddTestCase(new RudpDumbbellResolveTest);
        AddTestCase(new RudpBulkFlowRecordTest);
        AddTestCase(new RudpFlowTracesTest);
    }
};

/// Static instance registering the suite.
static RudpDumbbellOptionsTestSuite g_rudpDumbbellOptionsTestSuite;
