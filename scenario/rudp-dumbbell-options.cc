/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-dumbbell-options.h"

#include "rudp-command-line.h"
#include "rudp-json.h"
#include "rudp-parameter-check.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/rudp-congestion-names.h"
#include "ns3/rudp-reno.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpDumbbellOptions");

const char* const RudpDumbbellOptions::RUDP_RENO = "rudp-reno";

RudpDumbbellOptions::RudpDumbbellOptions()
{
    ParseFlows(m_flowsText, m_flows); // the default, replaced by --flows
}

std::string
RudpDumbbellOptions::ParseFlows(const std::string& text, std::vector<Flow>& flows)
{
    flows.clear();
    for (const auto& item : RudpText::Split(text))
    {
        const size_t at = item.find('@');
        if (at == std::string::npos)
        {
            return "'" + item + "' is not algorithm@RTT[+start], e.g. cubic@50ms or " +
                   "newreno@200ms+5s";
        }
        Flow flow;
        flow.algorithm = item.substr(0, at);
        if (flow.algorithm != RUDP_RENO && !RudpCongestionNames::IsKnown(flow.algorithm))
        {
            std::string names;
            for (const auto& name : RudpCongestionNames::GetNames())
            {
                names += (names.empty() ? "" : "|") + name;
            }
            return "'" + item + "': unknown algorithm '" + flow.algorithm + "' (" + names +
                   ", the TypeId of a TcpCongestionOps, or over RUDP " + RUDP_RENO + ")";
        }
        const std::string rest = item.substr(at + 1);
        const size_t plus = rest.find('+');
        // RTT at most 10 s, far beyond the seed's 200 ms; at least twice
        // --bottleneck-delay, checked by Resolve() once it is known.
        std::string problem =
            RudpRange<Time>{Seconds(0), Seconds(10)}.Check(rest.substr(0, plus), flow.rtt);
        if (problem.empty() && plus != std::string::npos)
        {
            problem = RudpRange<Time>{Seconds(0), Seconds(100000)}.Check(rest.substr(plus + 1),
                                                                         flow.start);
        }
        if (!problem.empty())
        {
            return "'" + item + "': " + problem;
        }
        flows.push_back(flow);
    }
    return flows.size() > 100
               ? "gives " + std::to_string(flows.size()) + " flows; allowed: 1 to 100"
               : "";
}

TypeId
RudpDumbbellOptions::AlgorithmTypeId(const std::string& algorithm)
{
    return algorithm == RUDP_RENO ? RudpReno::GetTypeId() : RudpCongestionTypeId(algorithm);
}

void
RudpDumbbellOptions::AddOptions(RudpCommandLine& cmd)
{
    NS_LOG_FUNCTION(this);
    cmd.AddValue("rate",
                 "Bottleneck data rate (seed: 100Mbps high-BDP, 10Mbps lossy)",
                 m_rate,
                 DataRate("1kbps"),
                 DataRate("100Gbps"));
    cmd.AddValue("access-rate",
                 "Access links' data rate (default: ten times the bottleneck rate)",
                 m_accessRateText,
                 // No brackets: sem would read the last pair as the default.
                 "a data rate from 1kbps to 1000Gbps, not below rate",
                 [this](const std::string& text) {
                     return text.empty()
                                ? ""
                                : RudpRange<DataRate>{DataRate("1kbps"), DataRate("1000Gbps")}
                                      .Check(text, m_accessRate);
                 });
    cmd.AddValue("queue", "Bottleneck queue: bytes or packets", m_queue, {"bfifo", "pfifo"});
    cmd.AddValue("queue-size",
                 "Queue limit in the queue's unit; 0: bfifo one BDP of the largest RTT in bytes, "
                 "pfifo 1000 packets (bfifo at least one 1500-byte packet, pfifo at most 10^6)",
                 m_queueSize,
                 0,
                 1000000000);
    // The seed's lossy setting goes up to 1 %; at 50 % no window survives.
    cmd.AddValue("loss", "Random loss rate of data packets on the bottleneck", m_loss, 0.0, 0.5);
    cmd.AddValue("flows",
                 "Flows as algorithm@RTT[+start], comma-separated, e.g. "
                 "cubic@50ms,newreno@200ms+5s (algorithms: newreno, reno, cubic, htcp, hybla, "
                 "westwood, veno, cvtcp, or a TcpCongestionOps TypeId)",
                 m_flowsText,
                 "1 to 100 flows, RTT above twice bottleneck-delay and at most 10s, start "
                 "before duration",
                 [this](const std::string& text) { return ParseFlows(text, m_flows); });
    cmd.AddValue("duration",
                 "Simulated time (seed: 600s; a bare number is seconds)",
                 m_duration,
                 MilliSeconds(1),
                 Seconds(100000));
    cmd.AddValue("warmup",
                 "Time after each flow's start not measured (start + warmup before duration)",
                 m_warmup,
                 Seconds(0),
                 Seconds(100000));
    cmd.AddValue("transport",
                 "Transport (rudp: ns3::RudpSocketFactory)",
                 m_transport,
                 {"tcp", "rudp"});
    // TCP: 1500-byte MTU - IPv4 (20) - TCP with timestamps (32) = 1448;
    // RUDP: 1500 - IPv4 (20) - UDP (8) - RUDP (18) = 1454.
    cmd.AddValue("segment-size",
                 "Segment payload in bytes (TCP up to 1448, RUDP 1454: what a 1500-byte MTU "
                 "carries)",
                 m_segmentSize,
                 64u,
                 1454u);
    cmd.AddValue("bottleneck-delay",
                 "Bottleneck one-way delay",
                 m_bottleneckDelay,
                 Seconds(0),
                 Seconds(1));
    cmd.AddValue("buffer",
                 "Socket send and receive buffers in bytes (0: twice the largest BDP plus the "
                 "queue; else at least 4096, and below 2^30 as sequence numbers compare modulo "
                 "2^32)",
                 m_buffer,
                 0,
                 1073741823);
    cmd.AddValue("initial-ssthresh",
                 "Initial slow-start threshold: auto (the path's capacity, rate x largest RTT + "
                 "queue, shared by the flows), none (unlimited, ns-3's and Linux's default) or "
                 "bytes",
                 m_initialSsThreshText,
                 "auto, none, or bytes in [2 segments, 2^32-1]",
                 [](const std::string& text) {
                     uint64_t bytes = 0;
                     return text == "auto" || text == "none" || RudpText::ParseUnsigned(text, bytes)
                                ? ""
                                : "'" + text + "' is not auto, none or a decimal number of bytes";
                 });
    // Configure() sets these itself: a --ns3::...=value for them would be overridden.
    cmd.SetsAttributes("segment-size",
                       {"ns3::TcpSocket::SegmentSize", "ns3::RudpSocket::SegmentSize"});
    cmd.SetsAttributes("buffer",
                       {"ns3::TcpSocket::SndBufSize",
                        "ns3::TcpSocket::RcvBufSize",
                        "ns3::RudpSocket::SndBufSize",
                        "ns3::RudpSocket::RcvBufSize"});
    cmd.SetsAttributes("initial-ssthresh",
                       {"ns3::TcpSocket::InitialSlowStartThreshold",
                        "ns3::RudpSocket::InitialSlowStartThreshold"});
    cmd.SetsAttributes("flows",
                       {"ns3::TcpL4Protocol::SocketType",
                        "ns3::RudpSocketFactory::WindowPolicy",
                        "ns3::RudpSocket::WindowPolicy"});
    cmd.SetsAttributes("",
                       {"ns3::RudpSocket::WindowSize",
                        "ns3::RudpSocket::RtoMode",
                        "ns3::RudpSocket::InitialCwnd"});
    cmd.AddValue("sack",
                 "Selective acknowledgements (TcpSocketBase::Sack, RudpSocket::Sack; off: RUDP's "
                 "receiver discards out-of-order segments, as seed 000's did)",
                 m_sack);
    cmd.AddValue("del-ack-count",
                 "In-order segments one ACK acknowledges (TcpSocket::DelAckCount, "
                 "RudpSocket::DelAckCount)",
                 m_delAckCount,
                 1u,
                 64u);
    cmd.SetsAttributes("sack", {"ns3::TcpSocketBase::Sack", "ns3::RudpSocket::Sack"});
    cmd.SetsAttributes("del-ack-count",
                       {"ns3::TcpSocket::DelAckCount", "ns3::RudpSocket::DelAckCount"});
    cmd.SetsAttributes("queue-size", {"ns3::FifoQueueDisc::MaxSize"});
    cmd.SetsAttributes("loss", {"ns3::RateErrorModel::ErrorRate"});
}

std::string
RudpDumbbellOptions::Resolve(std::string& name)
{
    NS_LOG_FUNCTION(this);
    const bool bfifo = m_queue == "bfifo";
    if (m_accessRateText.empty())
    {
        m_accessRate = DataRate(m_rate.GetBitRate() * 10);
    }
    if (m_accessRate < m_rate)
    {
        name = "access-rate";
        return RudpText::FormatDataRate(m_accessRate) +
               " is below --rate=" + RudpText::FormatDataRate(m_rate) +
               "; allowed: at least the bottleneck's rate";
    }
    if (GetTransportKind() == RudpDumbbellHelper::TCP && m_segmentSize > 1448)
    {
        name = "segment-size";
        return std::to_string(m_segmentSize) +
               " is too large for TCP; allowed: at most 1448 (a 1500-byte MTU less IPv4 and TCP "
               "headers with timestamps)";
    }
    m_maxRtt = Seconds(0);
    m_firstMeasured = m_duration;
    for (const auto& flow : m_flows)
    {
        const std::string at = "a flow starting at " + RudpText::FormatTime(flow.start);
        if (flow.algorithm == RUDP_RENO && GetTransportKind() != RudpDumbbellHelper::RUDP)
        {
            name = "flows";
            return std::string(RUDP_RENO) +
                   " is RUDP's own Reno (ns3::RudpReno); allowed: with --transport=rudp, or a "
                   "TcpCongestionOps";
        }
        if (!(flow.rtt > m_bottleneckDelay * 2))
        {
            name = "flows";
            return "RTT " + RudpText::FormatTime(flow.rtt) +
                   " must exceed twice --bottleneck-delay=" +
                   RudpText::FormatTime(m_bottleneckDelay) + " (the access links need a delay too)";
        }
        if (flow.start >= m_duration)
        {
            name = "flows";
            return at + " does not start before --duration=" + RudpText::FormatTime(m_duration);
        }
        if (flow.start + m_warmup >= m_duration)
        {
            name = "warmup";
            return at + " plus --warmup=" + RudpText::FormatTime(m_warmup) +
                   " leaves nothing to measure before --duration=" +
                   RudpText::FormatTime(m_duration);
        }
        m_maxRtt = std::max(m_maxRtt, flow.rtt);
        m_firstMeasured = std::min(m_firstMeasured, flow.start + m_warmup);
    }

    // Sizes not given: RudpDumbbellSizing.
    const uint64_t bdpBytes = RudpDumbbellSizing::BdpBytes(m_rate, m_maxRtt);
    m_resolvedQueueSize =
        m_queueSize ? m_queueSize : RudpDumbbellSizing::DefaultQueueSize(GetQueueUnit(), bdpBytes);
    std::string problem =
        RudpRange<uint64_t>{bfifo ? 1500U : 1U, bfifo ? 1000000000U : 1000000U}.Problem(
            m_resolvedQueueSize);
    if (!problem.empty())
    {
        name = "queue-size";
        return problem;
    }
    m_queueBytes = RudpDumbbellSizing::QueueBytes(
        m_resolvedQueueSize,
        GetQueueUnit(),
        RudpDumbbellSizing::WireBytes(m_segmentSize, GetTransportKind()));
    m_resolvedBuffer =
        m_buffer ? m_buffer : RudpDumbbellSizing::DefaultBuffer(bdpBytes, m_queueBytes);
    problem = RudpRange<uint64_t>{4096, 1073741823}.Problem(m_resolvedBuffer);
    if (!problem.empty())
    {
        name = "buffer";
        return problem;
    }
    m_initialSsThresh = std::numeric_limits<uint32_t>::max();
    if (m_initialSsThreshText == "auto")
    {
        m_initialSsThresh = RudpDumbbellSizing::InitialSsThresh(bdpBytes,
                                                                m_queueBytes,
                                                                m_flows.size(),
                                                                m_segmentSize);
    }
    else if (m_initialSsThreshText != "none")
    {
        RudpText::ParseUnsigned(m_initialSsThreshText, m_initialSsThresh);
        problem =
            RudpRange<uint64_t>{2ULL * m_segmentSize, std::numeric_limits<uint32_t>::max()}.Problem(
                m_initialSsThresh);
        if (!problem.empty())
        {
            name = "initial-ssthresh";
            return problem;
        }
    }
    return "";
}

void
RudpDumbbellOptions::ResolveOrFail()
{
    std::string name;
    const std::string problem = Resolve(name);
    if (!problem.empty())
    {
        RudpParameterCheck::Fail(name, problem);
    }
}

void
RudpDumbbellOptions::Configure(RudpDumbbellHelper& dumbbell) const
{
    NS_LOG_FUNCTION(this);
    // The transports: the same settings under each one's names.
    const bool rudp = GetTransportKind() == RudpDumbbellHelper::RUDP;
    const std::string socket = rudp ? "ns3::RudpSocket::" : "ns3::TcpSocket::";
    Config::SetDefault(socket + "SegmentSize", UintegerValue(m_segmentSize));
    Config::SetDefault(socket + "SndBufSize", UintegerValue(m_resolvedBuffer));
    Config::SetDefault(socket + "RcvBufSize", UintegerValue(m_resolvedBuffer));
    Config::SetDefault(socket + "InitialSlowStartThreshold", UintegerValue(m_initialSsThresh));
    Config::SetDefault(socket + "DelAckCount", UintegerValue(m_delAckCount));
    Config::SetDefault(rudp ? "ns3::RudpSocket::Sack" : "ns3::TcpSocketBase::Sack",
                       BooleanValue(m_sack));
    if (rudp)
    {
        Config::SetDefault("ns3::RudpSocket::WindowSize", UintegerValue(65535)); // no cap
        Config::SetDefault("ns3::RudpSocket::RtoMode", StringValue("Adaptive"));
        Config::SetDefault("ns3::RudpSocket::InitialCwnd", UintegerValue(10));
    }

    dumbbell.SetBottleneck(m_rate, m_bottleneckDelay);
    dumbbell.SetAccessRate(m_accessRate);
    dumbbell.SetQueue(QueueSize(GetQueueUnit(), static_cast<uint32_t>(m_resolvedQueueSize)));
    dumbbell.SetLoss(m_loss);
    dumbbell.SetSourceAttribute("MaxBytes", UintegerValue(0));
    dumbbell.SetSourceAttribute("SendSize", UintegerValue(m_segmentSize));
    for (const auto& flow : m_flows)
    {
        if (flow.algorithm != RUDP_RENO)
        {
            RudpCongestionNames::SetDefaults(flow.algorithm); // westwood up to ns-3.37
        }
        dumbbell.AddFlow(GetTransportKind(),
                         AlgorithmTypeId(flow.algorithm),
                         flow.rtt,
                         flow.start,
                         m_duration);
    }
}

void
RudpDumbbellOptions::AddToJson(RudpJson& json) const
{
    json.Set("transport", m_transport)
        .Set("rate_bps", static_cast<uint64_t>(m_rate.GetBitRate()))
        .Set("access_rate_bps", static_cast<uint64_t>(m_accessRate.GetBitRate()))
        .Set("bottleneck_delay_s", m_bottleneckDelay.GetSeconds())
        .Set("queue", m_queue)
        .Set("queue_size", m_resolvedQueueSize)
        .Set("queue_unit", GetQueueUnit() == QueueSizeUnit::BYTES ? "bytes" : "packets")
        .Set("loss", m_loss)
        .Set("duration_s", m_duration.GetSeconds())
        .Set("warmup_s", m_warmup.GetSeconds())
        .Set("segment_size", m_segmentSize)
        .Set("buffer_bytes", m_resolvedBuffer)
        .Set("initial_ssthresh_bytes", m_initialSsThresh)
        .Set("sack", m_sack)
        .Set("del_ack_count", m_delAckCount);
}

bool
RudpDumbbellOptions::GetSack() const
{
    return m_sack;
}

uint32_t
RudpDumbbellOptions::GetDelAckCount() const
{
    return m_delAckCount;
}

DataRate
RudpDumbbellOptions::GetRate() const
{
    return m_rate;
}

DataRate
RudpDumbbellOptions::GetAccessRate() const
{
    return m_accessRate;
}

std::string
RudpDumbbellOptions::GetQueue() const
{
    return m_queue;
}

QueueSizeUnit
RudpDumbbellOptions::GetQueueUnit() const
{
    return m_queue == "bfifo" ? QueueSizeUnit::BYTES : QueueSizeUnit::PACKETS;
}

uint64_t
RudpDumbbellOptions::GetQueueSize() const
{
    return m_resolvedQueueSize;
}

uint64_t
RudpDumbbellOptions::GetQueueBytes() const
{
    return m_queueBytes;
}

double
RudpDumbbellOptions::GetLoss() const
{
    return m_loss;
}

const std::vector<RudpDumbbellOptions::Flow>&
RudpDumbbellOptions::GetFlows() const
{
    return m_flows;
}

Time
RudpDumbbellOptions::GetDuration() const
{
    return m_duration;
}

Time
RudpDumbbellOptions::GetWarmup() const
{
    return m_warmup;
}

std::string
RudpDumbbellOptions::GetTransport() const
{
    return m_transport;
}

RudpDumbbellHelper::Transport
RudpDumbbellOptions::GetTransportKind() const
{
    return m_transport == "rudp" ? RudpDumbbellHelper::RUDP : RudpDumbbellHelper::TCP;
}

uint32_t
RudpDumbbellOptions::GetSegmentSize() const
{
    return m_segmentSize;
}

Time
RudpDumbbellOptions::GetBottleneckDelay() const
{
    return m_bottleneckDelay;
}

uint64_t
RudpDumbbellOptions::GetBuffer() const
{
    return m_resolvedBuffer;
}

uint64_t
RudpDumbbellOptions::GetInitialSsThresh() const
{
    return m_initialSsThresh;
}

Time
RudpDumbbellOptions::GetMaxRtt() const
{
    return m_maxRtt;
}

Time
RudpDumbbellOptions::GetFirstMeasured() const
{
    return m_firstMeasured;
}

} // namespace ns3
