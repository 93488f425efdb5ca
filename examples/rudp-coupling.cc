/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-cmt
 * RFC 6356's goal 2, "do no harm": a multipath association (RudpCmtSocket,
 * BulkSend to PacketSink over ns3::RudpCmtSocketFactory) whose --paths all
 * cross one bottleneck, beside --tcp-flows TCP flows that grow as RFC
 * 6356's "standard TCP" (RudpMultipathBottleneckHelper: ns-3's TcpNewReno,
 * or with --tcp=rfc5681-reno the standards-track SACK TCP; 1448-byte
 * segments, every segment acknowledged, buffers that never limit them).
 *
 *   client ==path 0, path 1, ...== A ==== bottleneck (--rate, --delay, --queue) ==== B == server
 *   TCP source ------------------- A                                                  B -- TCP sink
 *
 * The base RTT is 48 ms over the default 20 ms bottleneck (2 ms access
 * links); --extra-delay lengthens every path after the first (one way, on
 * each of its two access links). The program prints the association's
 * goodput and each TCP flow's from --warmup to --duration, and their ratio
 * (the association's over the TCP flows' mean): about 1 is RFC 6356's goal.
 * --trace=FILE writes every path's and TCP flow's window, slow-start
 * threshold, RTT samples, resends and the bottleneck's drops (TSV: time_s,
 * flow, event, value); --output=FILE the record (JSON).
 *
 *   ./ns3 run "rudp-coupling --coupling=lia --queue=fifo --queue-packets=40 --duration=300"
 *
 * Bad parameters exit with status 2.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-module.h"
#include "ns3/rudp-multipath-bottleneck-helper.h"
#include "ns3/rudp-parameter-check.h"
#include "ns3/rudp-scenario-record.h"
#include "ns3/traffic-control-module.h"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>

using namespace ns3;

namespace
{

/// Writes the traces of one run: one line per event.
class EventTrace
{
  public:
    /// \param file the file to write ("" for none)
    explicit EventTrace(const std::string& file)
    {
        if (!file.empty())
        {
            m_out.open(file);
            m_out << "time_s\tflow\tevent\tvalue\n";
        }
    }

    /// \return whether it writes
    bool IsEnabled() const
    {
        return m_out.is_open();
    }

    /// Writes an event of \p flow.
    void Write(const std::string& flow, const char* event, double value)
    {
        m_out << Simulator::Now().GetSeconds() << '\t' << flow << '\t' << event << '\t' << value
              << '\n';
    }

    /// \return whether every line was written
    bool Close()
    {
        if (!m_out.is_open())
        {
            return true;
        }
        m_out.close();
        return !m_out.fail();
    }

    static void PathWindow(EventTrace* trace, uint32_t path, uint32_t, uint32_t cwnd)
    {
        trace->Write("p" + std::to_string(path), "cwnd", cwnd);
    }

    static void PathThreshold(EventTrace* trace, uint32_t path, uint32_t, uint32_t ssthresh)
    {
        trace->Write("p" + std::to_string(path), "ssthresh", ssthresh);
    }

    static void PathRtt(EventTrace* trace, uint32_t path, Time, Time rtt)
    {
        trace->Write("p" + std::to_string(path), "rtt", rtt.GetSeconds());
    }

    static void PathResend(EventTrace* trace, Ptr<const Packet>, const RudpHeader&, uint32_t path)
    {
        trace->Write("p" + std::to_string(path), "resend", 1);
    }

    static void TcpWindow(EventTrace* trace, std::string flow, uint32_t, uint32_t cwnd)
    {
        trace->Write(flow, "cwnd", cwnd);
    }

    static void TcpThreshold(EventTrace* trace, std::string flow, uint32_t, uint32_t ssthresh)
    {
        trace->Write(flow, "ssthresh", ssthresh);
    }

    static void TcpRtt(EventTrace* trace, std::string flow, Time, Time rtt)
    {
        trace->Write(flow, "rtt", rtt.GetSeconds());
    }

    static void TcpResend(EventTrace* trace,
                          std::string flow,
                          TcpSocketState::TcpCongState_t oldState,
                          TcpSocketState::TcpCongState_t newState)
    {
        if (newState != oldState &&
            (newState == TcpSocketState::CA_RECOVERY || newState == TcpSocketState::CA_LOSS))
        {
            trace->Write(flow, newState == TcpSocketState::CA_LOSS ? "timeout" : "recovery", 1);
        }
    }

    /// Names the flow a dropped packet belongs to, by its source address and port.
    static void Drop(EventTrace* trace, Ptr<const QueueDiscItem> item)
    {
        Ptr<const Ipv4QueueDiscItem> ip = DynamicCast<const Ipv4QueueDiscItem>(item);
        if (!ip)
        {
            return;
        }
        const uint32_t source = ip->GetHeader().GetSource().Get();
        const uint32_t network = (source >> 16) & 0xff;
        const uint32_t index = (source >> 8) & 0xff;
        std::string flow = "other";
        if (network == 1)
        {
            flow = "p" + std::to_string(index);
        }
        else if (network == 3)
        {
            TcpHeader tcp;
            if (item->GetPacket()->PeekHeader(tcp) > 0)
            {
                flow = "tcp" + std::to_string(tcp.GetDestinationPort() - 9001);
            }
        }
        trace->Write(flow, "drop", 1);
    }

  private:
    std::ofstream m_out; ///< the file
};

/// Connects the association's traces (its socket exists once BulkSend started).
void
TraceAssociation(EventTrace* trace, Ptr<BulkSendApplication> source)
{
    Ptr<Socket> socket = source->GetSocket();
    socket->TraceConnectWithoutContext("PathCongestionWindow",
                                       MakeBoundCallback(&EventTrace::PathWindow, trace));
    socket->TraceConnectWithoutContext("PathSlowStartThreshold",
                                       MakeBoundCallback(&EventTrace::PathThreshold, trace));
    socket->TraceConnectWithoutContext("PathRtt", MakeBoundCallback(&EventTrace::PathRtt, trace));
    socket->TraceConnectWithoutContext("Retransmission",
                                       MakeBoundCallback(&EventTrace::PathResend, trace));
}

/// Connects a TCP flow's traces (its socket exists once BulkSend started).
void
TraceTcp(EventTrace* trace, Ptr<BulkSendApplication> source, std::string flow)
{
    Ptr<Socket> socket = source->GetSocket();
    socket->TraceConnect("CongestionWindow",
                         flow,
                         MakeBoundCallback(&EventTrace::TcpWindow, trace));
    socket->TraceConnect("SlowStartThreshold",
                         flow,
                         MakeBoundCallback(&EventTrace::TcpThreshold, trace));
    socket->TraceConnect("RTT", flow, MakeBoundCallback(&EventTrace::TcpRtt, trace));
    socket->TraceConnect("CongState", flow, MakeBoundCallback(&EventTrace::TcpResend, trace));
}

/// Notes what a sink had received when the measurement starts.
void
NoteStart(Ptr<PacketSink> sink, uint64_t* start)
{
    *start = sink->GetTotalRx();
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string coupling = "lia";
    uint32_t paths = 2;
    uint32_t tcpFlows = 1;
    std::string tcpVariant = "newreno";
    std::string queue = "default";
    uint32_t queuePackets = 0;
    DataRate rate("10Mbps");
    Time delay = MilliSeconds(20);
    Time extraDelay = Seconds(0);
    Time duration = Seconds(100);
    Time warmup = Seconds(20);
    Time jitter = MilliSeconds(500);
    Time accessJitter = MicroSeconds(1200); // a 1500-byte packet at the default 10 Mbit/s
    std::string traceFile;
    RudpScenarioRecord record("rudp-coupling");

    RudpCommandLine cmd(__FILE__);
    cmd.Usage("A multipath association whose paths share one bottleneck with TCP NewReno "
              "flows (RFC 6356's goal 2): the goodput of each and their ratio.");
    cmd.AddValue("coupling",
                 "Coupled congestion control: uncoupled (CMT's), lia (RFC 6356), olia "
                 "(Khalili et al.), balia (Peng et al.) or rpv2 (CMT/RPv2)",
                 coupling,
                 RudpCmtCoupling::GetShortNames());
    cmd.AddValue("paths", "Paths of the association, all through the bottleneck", paths, 1u, 8u);
    cmd.AddValue("tcp-flows", "TCP flows through the bottleneck", tcpFlows, 0u, 32u);
    cmd.AddValue("tcp",
                 "The TCP flows' congestion control and recovery: newreno (ns-3's TcpNewReno, "
                 "ssthresh half its SACK pipe, with ns-3's recovery, PRR), rfc5681-reno "
                 "(TcpRfc5681Reno, ssthresh half its FlightSize as RFC 5681 says, with RFC "
                 "6675's recovery, TcpClassicRecovery) or linux-reno (ns-3's TcpLinuxReno with "
                 "PRR)",
                 tcpVariant,
                 {"newreno", "rfc5681-reno", "linux-reno"});
    cmd.AddValue("queue",
                 "The bottleneck's queue: default (what ns-3 installs: FqCoDel over the "
                 "device's 100 packets), pfifo-fast (over the device's 100 packets), fifo "
                 "(drop-tail) or red (RED's defaults), the last two over a device queue of one",
                 queue,
                 {"default", "pfifo-fast", "fifo", "red"});
    cmd.AddValue("queue-packets",
                 "Limit of the pfifo-fast or fifo queue disc (packets; 0: pfifo-fast's 1000, "
                 "fifo one BDP at the base RTT)",
                 queuePackets,
                 0u,
                 100000u);
    cmd.AddValue("rate", "The bottleneck's rate", rate, DataRate("100kbps"), DataRate("10Gbps"));
    cmd.AddValue("delay", "The bottleneck's one-way delay", delay, Seconds(0), Seconds(1));
    cmd.AddValue("extra-delay",
                 "One-way delay added to each access link of every path after the first",
                 extraDelay,
                 Seconds(0),
                 Seconds(1));
    cmd.AddValue("duration", "Simulated time", duration, Seconds(1), Seconds(100000));
    cmd.AddValue("warmup",
                 "Time before the measurement starts",
                 warmup,
                 Seconds(0),
                 Seconds(100000));
    cmd.AddValue("start-jitter",
                 "The flows start at 1 s plus a random time below this (RngRun)",
                 jitter,
                 Seconds(0),
                 Seconds(100));
    cmd.AddValue("access-jitter",
                 "Each packet on a sender's access link takes up to this much longer, in "
                 "order (RudpJitterChannel), so that a drop-tail queue drops by the senders "
                 "and not by their phase: about one packet's time at the bottleneck",
                 accessJitter,
                 Seconds(0),
                 Seconds(1));
    cmd.AddValue("trace",
                 "Write every path's and TCP flow's window, ssthresh, RTT, resends and the "
                 "bottleneck's drops to this file (TSV)",
                 traceFile,
                 "a file name",
                 RudpCommandLine::WritableFile());
    record.AddOption(cmd);
    // Before parsing, so that --ns3::... attributes override them.
    RudpMultipathBottleneckHelper::SetStandardDefaults();
    cmd.SetsAttributes("coupling", {"ns3::RudpCmtSocket::Coupling"});
    cmd.SetsAttributes("tcp",
                       {"ns3::TcpL4Protocol::SocketType", "ns3::TcpL4Protocol::RecoveryType"});
    cmd.Parse(argc, argv);
    if (warmup >= duration)
    {
        RudpParameterCheck::Fail("warmup", "must be less than --duration");
    }

    Config::SetDefault("ns3::RudpCmtSocket::Coupling",
                       TypeIdValue(RudpCmtCoupling::LookupByShortName(coupling)));
    if (tcpVariant == "rfc5681-reno")
    {
        RudpMultipathBottleneckHelper::SetRfcTcp();
    }
    else if (tcpVariant == "linux-reno")
    {
        Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                           TypeIdValue(TcpLinuxReno::GetTypeId()));
    }

    RudpMultipathBottleneckHelper::Queue kind;
    RudpMultipathBottleneckHelper::ParseQueue(queue, kind);
    RudpMultipathBottleneckHelper network;
    const Time baseRtt = 2 * (2 * RudpMultipathBottleneckHelper::ACCESS_DELAY + delay);
    const double bdp = rate.GetBitRate() * baseRtt.GetSeconds() / 8 / 1500;
    if (queuePackets == 0)
    {
        queuePackets = kind == RudpMultipathBottleneckHelper::FIFO
                           ? std::max<uint32_t>(1, static_cast<uint32_t>(std::lround(bdp)))
                           : 1000;
    }
    network.AddBottleneck(rate, delay, kind, queuePackets);
    for (uint32_t p = 0; p < paths; ++p)
    {
        network.AddPath(0, p == 0 ? Seconds(0) : extraDelay);
    }
    network.AddTcpFlows(0, tcpFlows);
    network.SetStart(Seconds(1), jitter);
    network.SetAccessJitter(accessJitter);
    network.Install();
    network.AssignStreams(1); // rudp-cmt-goals' runs are this program's

    EventTrace trace(traceFile);
    const Time traced = Seconds(1) + jitter + NanoSeconds(1); // every socket exists
    if (trace.IsEnabled())
    {
        Simulator::Schedule(traced, &TraceAssociation, &trace, network.GetAssociationSource());
        for (uint32_t k = 0; k < network.GetNTcpFlows(); ++k)
        {
            Simulator::Schedule(traced,
                                &TraceTcp,
                                &trace,
                                network.GetTcpSource(k),
                                "tcp" + std::to_string(k));
        }
        network.GetQueueDisc(0)->TraceConnectWithoutContext(
            "Drop",
            MakeBoundCallback(&EventTrace::Drop, &trace));
    }
    const Time measured = Seconds(1) + jitter + warmup;
    uint64_t associationStart = 0;
    std::vector<uint64_t> tcpStart(network.GetNTcpFlows(), 0);
    Simulator::Schedule(measured, &NoteStart, network.GetAssociationSink(), &associationStart);
    for (uint32_t k = 0; k < network.GetNTcpFlows(); ++k)
    {
        Simulator::Schedule(measured, &NoteStart, network.GetTcpSink(k), &tcpStart[k]);
    }
    const Time end = Seconds(1) + jitter + duration;
    Simulator::Stop(end);
    Simulator::Run();

    const double seconds = (end - measured).GetSeconds();
    const double association =
        (network.GetAssociationSink()->GetTotalRx() - associationStart) * 8 / seconds / 1e6;
    std::vector<double> tcp;
    double tcpSum = 0;
    for (uint32_t k = 0; k < network.GetNTcpFlows(); ++k)
    {
        tcp.push_back((network.GetTcpSink(k)->GetTotalRx() - tcpStart[k]) * 8 / seconds / 1e6);
        tcpSum += tcp.back();
    }
    const double tcpMean = tcp.empty() ? 0.0 : tcpSum / tcp.size();
    const double ratio = tcpMean > 0 ? association / tcpMean : 0.0;
    const Ptr<QueueDisc> queueDisc = network.GetQueueDisc(0);
    const std::string queueDiscType = queueDisc ? queueDisc->GetInstanceTypeId().GetName() : "none";
    const uint64_t drops = queueDisc ? queueDisc->GetStats().nTotalDroppedPackets : 0;

    std::vector<RudpJson> pathJson;
    Ptr<RudpCmtSocket> socket =
        DynamicCast<RudpCmtSocket>(network.GetAssociationSource()->GetSocket());
    std::cout << std::fixed << std::setprecision(3) << "rudp-coupling: " << coupling << ", "
              << paths << " path(s), " << tcpFlows << " TCP flow(s), " << queue << " ("
              << queueDiscType << ", " << queuePackets << " packets, BDP " << bdp << "), "
              << rate.GetBitRate() / 1e6 << " Mbit/s, run " << RngSeedManager::GetRun() << "\n";
    std::cout << "  association " << association << " Mbit/s\n";
    if (socket)
    {
        for (const Ptr<RudpCmtPath>& path : socket->GetSender()->GetPaths())
        {
            const RudpCmtPath::Stats& stats = path->GetStats();
            std::cout << "    path " << path->GetIndex() << ": " << stats.bytesSent
                      << " bytes sent, " << stats.retransmissions << " resent, " << stats.timeouts
                      << " timeouts\n";
            RudpJson json;
            json.Set("index", path->GetIndex())
                .Set("bytes_sent", stats.bytesSent)
                .Set("retransmissions", stats.retransmissions)
                .Set("timeouts", stats.timeouts);
            pathJson.push_back(json);
        }
    }
    for (uint32_t k = 0; k < tcp.size(); ++k)
    {
        std::cout << "  tcp " << k << ": " << tcp[k] << " Mbit/s\n";
    }
    std::cout << "  against a TCP flow: " << ratio << ", queue drops " << drops << std::endl;
    const bool traceWritten = trace.Close();
    Simulator::Destroy();
    if (!traceWritten)
    {
        RudpParameterCheck::Fail("trace", "could not write " + traceFile);
    }
    const bool ok = tcpFlows == 0 || tcpMean > 0;
    const std::string failure = ok ? "" : "the TCP flows delivered nothing";
    if (record.IsWanted())
    {
        RudpJson json;
        record.SetOutcome(json, ok, failure);
        json.Set("coupling", coupling)
            .Set("paths", paths)
            .Set("tcp_flows", tcpFlows)
            .Set("tcp", tcpVariant)
            .Set("queue", queue)
            .Set("queue_disc", queueDiscType)
            .Set("queue_packets", queuePackets)
            .Set("bdp_packets", bdp)
            .Set("rate_bps", static_cast<uint64_t>(rate.GetBitRate()))
            .Set("delay_s", delay.GetSeconds())
            .Set("extra_delay_s", extraDelay.GetSeconds())
            .Set("duration_s", duration.GetSeconds())
            .Set("warmup_s", warmup.GetSeconds())
            .Set("rng_run", static_cast<uint64_t>(RngSeedManager::GetRun()))
            .Set("association_mbps", association)
            .Set("tcp_mbps", tcp)
            .Set("tcp_mean_mbps", tcpMean)
            .Set("ratio", ratio)
            .Set("queue_drops", drops)
            .Set("path_stats", pathJson);
        record.WriteOrFail(json);
    }
    if (!ok)
    {
        std::cerr << "error: " << failure << std::endl;
    }
    return ok ? 0 : 1;
}
