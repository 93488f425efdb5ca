/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-options.h"

#include "rudp-command-line.h"
#include "rudp-json.h"
#include "rudp-parameter-check.h"
#include "rudp-scenario-record.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/rudp-cmt-coupling.h"
#include "ns3/rudp-cmt-helper.h"
#include "ns3/rudp-cmt-sender.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <functional>
#include <utility>

namespace ns3
{

/**
 * One row of the table: how an option is declared, the sender's and
 * receiver's attributes it sets, and its members of the record.
 */
class RudpCmtOptions::Option
{
  public:
    /// Declares the option: its help, range or choices, and default.
    using Declaration = std::function<void(RudpCommandLine&)>;
    /// The value the option gives its attributes; null to leave them as they are.
    using Value = std::function<Ptr<AttributeValue>()>;
    /// Writes the option's members of the record, given the installed sender.
    using Record = std::function<void(RudpJson&, const RudpCmtSender&)>;

    /**
     * \param name the option's name
     * \param declaration how it is declared
     */
    Option(std::string name, Declaration declaration)
        : m_name(std::move(name)),
          m_declaration(std::move(declaration))
    {
    }

    /**
     * \brief The option sets \p attributes (full names), which the command
     * line then refuses; those of the sender and the receiver get \p value.
     * \param attributes the attributes
     * \param value their value (null: set otherwise, see Configure)
     * \return this row
     */
    Option& Sets(std::vector<std::string> attributes, Value value = nullptr)
    {
        m_attributes = std::move(attributes);
        m_value = std::move(value);
        return *this;
    }

    /**
     * \param record writes the option's members of the record
     * \return this row
     */
    Option& Writes(Record record)
    {
        m_record = std::move(record);
        return *this;
    }

    /**
     * \brief The option follows the record's --output in --PrintHelp (where
     * it was added).
     * \return this row
     */
    Option& AfterOutput()
    {
        m_afterOutput = true;
        return *this;
    }

    /// \return true if the option follows --output
    bool IsAfterOutput() const
    {
        return m_afterOutput;
    }

    /// \param cmd the command line: declares the option, and refuses its attributes
    void Declare(RudpCommandLine& cmd) const
    {
        m_declaration(cmd);
        if (!m_attributes.empty())
        {
            cmd.SetsAttributes(m_name, m_attributes);
        }
    }

    /// \param cmt the helper: sets the sender's and receiver's attributes
    void Apply(RudpCmtHelper& cmt) const
    {
        const Ptr<AttributeValue> value = m_value ? m_value() : Ptr<AttributeValue>();
        if (!value)
        {
            return;
        }
        for (const std::string& attribute : m_attributes)
        {
            if (attribute.rfind(SENDER, 0) == 0)
            {
                cmt.SetSenderAttribute(attribute.substr(SENDER.size()), *value);
            }
            else if (attribute.rfind(RECEIVER, 0) == 0)
            {
                cmt.SetReceiverAttribute(attribute.substr(RECEIVER.size()), *value);
            }
        }
    }

    /**
     * \param json the record
     * \param sender the installed sender
     */
    void Write(RudpJson& json, const RudpCmtSender& sender) const
    {
        if (m_record)
        {
            m_record(json, sender);
        }
    }

    /// The prefix of the sender's attributes.
    static const std::string SENDER;
    /// The prefix of the receiver's attributes.
    static const std::string RECEIVER;

  private:
    std::string m_name;                    ///< the option's name
    Declaration m_declaration;             ///< Declare
    std::vector<std::string> m_attributes; ///< Sets
    Value m_value;                         ///< Sets
    Record m_record;                       ///< Writes
    bool m_afterOutput{false};             ///< AfterOutput
};

const std::string RudpCmtOptions::Option::SENDER = "ns3::RudpCmtSender::";
const std::string RudpCmtOptions::Option::RECEIVER = "ns3::RudpCmtReceiver::";

namespace
{

/// A choice's values: the option's, and the attribute's.
using Choices = std::vector<std::pair<std::string, std::string>>;

/// --checksum's values and RudpCmtSender::Checksum's.
const Choices CHECKSUMS{{"internet", "Internet16"}, {"crc32c", "Crc32c"}};
/// --scheduler's values and RudpCmtSender::Scheduler's.
const Choices SCHEDULERS{{"round-robin", "RoundRobin"},
                         {"lowest-rtt-first", "LowestRttFirst"},
                         {"buffer-aware", "BufferAware"},
                         {"blest", "Blest"}};
/// --buffer-splitting's values and RudpCmtSender::BufferSplitting's.
const Choices SPLITTINGS{{"none", "None"},
                         {"sender", "SenderSide"},
                         {"receiver", "ReceiverSide"},
                         {"both", "BothSides"}};
/// --queue's values (RudpCmtHelper::PathQueue).
const std::vector<std::string> QUEUES{"default", "ns2"};
/// --rtx-policy's values, RudpCmtSender::RtxPolicy's.
const std::vector<std::string> RTX_POLICIES{"RTX-SAME",
                                            "RTX-ASAP",
                                            "RTX-CWND",
                                            "RTX-SSTHRESH",
                                            "RTX-LOSSRATE"};

/// \return the option's values of \p choices
std::vector<std::string>
Names(const Choices& choices)
{
    std::vector<std::string> names;
    for (const auto& [name, attribute] : choices)
    {
        names.push_back(name);
    }
    return names;
}

/**
 * \param name the option's name
 * \param help its description
 * \param value the variable it sets; its value is the default
 * \param limits what RudpCommandLine::AddValue takes after the variable:
 *        a range, choices, or a form and a checker
 * \return a row declaring the option
 */
template <typename T, typename... Limits>
RudpCmtOptions::Option
Declared(const std::string& name, const std::string& help, T& value, Limits... limits)
{
    return RudpCmtOptions::Option(name, [name, help, &value, limits...](RudpCommandLine& cmd) {
        cmd.AddValue(name, help, value, limits...);
    });
}

/// \return the value of \p member as an attribute value of type \p V
template <typename V, typename T>
RudpCmtOptions::Option::Value
As(const T& member)
{
    return [&member]() -> Ptr<AttributeValue> { return Create<V>(member); };
}

/// \return the attribute's value of the choice \p member made among \p choices
RudpCmtOptions::Option::Value
Mapped(const Choices& choices, const std::string& member)
{
    return [&choices, &member]() -> Ptr<AttributeValue> {
        for (const auto& [name, attribute] : choices)
        {
            if (name == member)
            {
                return Create<StringValue>(attribute);
            }
        }
        return nullptr;
    };
}

/// \return a writer of \p member as the record's \p key
template <typename T>
RudpCmtOptions::Option::Record
Member(const std::string& key, const T& member)
{
    return [key, &member](RudpJson& json, const RudpCmtSender&) { json.Set(key, member); };
}

/// \return a writer of the time \p member in seconds as the record's \p key
RudpCmtOptions::Option::Record
InSeconds(const std::string& key, const Time& member)
{
    return [key, &member](RudpJson& json, const RudpCmtSender&) {
        json.Set(key, member.GetSeconds());
    };
}

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

} // namespace

RudpCmtOptions::RudpCmtOptions()
    : m_table(Table())
{
}

RudpCmtOptions::~RudpCmtOptions() = default;

std::vector<RudpCmtOptions::Option>
RudpCmtOptions::Table()
{
    using Sender = const RudpCmtSender&;
    const std::string& S = Option::SENDER;
    const std::string& R = Option::RECEIVER;
    const RudpCommandLine::Checker rtts = [this](const std::string& text) {
        return CheckRtts(text);
    };
    const RudpCommandLine::Checker losses = [this](const std::string& text) {
        return CheckLosses(text);
    };
    // In the record's order; --PrintHelp's is the same but for --checksum.
    return {
        Declared("paths", "Number of disjoint paths", m_paths, 1u, 8u)
            .Writes(Member("paths", m_paths)),
        Declared("rtt",
                 "Round-trip time of every path, or a list per path (e.g. 50ms,200ms)",
                 m_rtt,
                 std::string("times in [2us, 10s], comma-separated"),
                 rtts)
            .Writes([this](RudpJson& json, Sender) {
                json.Set("rtt", m_rtt).Set("rtt_s", m_rtts.front().GetSeconds());
            }),
        Declared("loss",
                 "Data loss probability of every path, or a list per path",
                 m_loss,
                 std::string("numbers in [0, 1], comma-separated"),
                 losses)
            .Sets({"ns3::RateErrorModel::ErrorRate"}) // by the helper's paths (Configure)
            .Writes([this](RudpJson& json, Sender) { json.Set("loss", m_losses.front()); }),
        Declared("rate", "Data rate of every path", m_rate, DataRate("1kbps"), DataRate("100Gbps"))
            .Writes([this](RudpJson& json, Sender) {
                json.Set("rate_bps", static_cast<uint64_t>(m_rate.GetBitRate()));
            }),
        Declared("queue",
                 "Queue of every path's devices: default (ns-3's root queue disc, "
                 "FqCoDelQueueDisc, over the device's queue) or ns2 (the links of the ns-2 "
                 "cross-check: the device's DropTail queue alone, 1000000 packets)",
                 m_queue,
                 QUEUES)
            .Writes(Member("queue", m_queue)),
        // Sequence numbers compare modulo 2^32: a window must stay below 2^31 (as TCP's 2^30).
        Declared("rbuf",
                 "Receive buffer shared by all paths in bytes (seed: 16384 or 2^28; at most "
                 "2^30 so that sequence numbers compare correctly)",
                 m_rbuf,
                 1u,
                 1u << 30)
            .Sets({R + "RcvBufSize"}, As<UintegerValue>(m_rbuf))
            .Writes(Member("rbuf", m_rbuf)),
        Declared("checksum",
                 "Chunk checksum: internet (RFC 1071's 16-bit sum) or crc32c (SCTP's CRC-32c, "
                 "RFC 4960 appendix B)",
                 m_checksum,
                 Names(CHECKSUMS))
            .Sets({S + "Checksum", R + "Checksum"}, Mapped(CHECKSUMS, m_checksum))
            .Writes(Member("checksum", m_checksum))
            .AfterOutput(),
        Declared("mss",
                 "Data chunk payload in bytes (seed: 1468, SCTP's; the links' MTU grows to "
                 "carry it with IPv4, UDP and RUDP headers)",
                 m_mss,
                 100u,
                 1472u)
            .Sets({S + "SegmentSize"}, As<UintegerValue>(m_mss))
            .Writes(Member("mss", m_mss)),
        Declared("alpha",
                 "Additive increase per path (MSS per window), as RudpCmtSender::Alpha",
                 m_alpha,
                 0.0,
                 100.0,
                 RudpText::OPEN_LOW)
            .Sets({S + "Alpha"}, As<DoubleValue>(m_alpha))
            .Writes(Member("alpha", m_alpha)),
        Declared("beta",
                 "Multiplicative decrease per path, as RudpCmtSender::Beta",
                 m_beta,
                 0.0,
                 1.0,
                 RudpText::OPEN)
            .Sets({S + "Beta"}, As<DoubleValue>(m_beta))
            .Writes(Member("beta", m_beta)),
        Declared("fast-retransmit",
                 "Fast recovery on a detected loss (seed: both families)",
                 m_fastRetransmit)
            .Sets({S + "FastRetransmit"}, As<BooleanValue>(m_fastRetransmit))
            .Writes(Member("fast_retransmit", m_fastRetransmit)),
        Declared("sfr", "Split Fast Retransmit", m_sfr)
            .Sets({S + "Sfr"}, As<BooleanValue>(m_sfr))
            .Writes(Member("sfr", m_sfr)),
        Declared("cuc", "Cwnd Update for CMT", m_cuc)
            .Sets({S + "Cuc"}, As<BooleanValue>(m_cuc))
            .Writes(Member("cuc", m_cuc)),
        Declared("dac", "Delayed ACK for CMT (sender and receiver)", m_dac)
            .Sets({S + "Dac", R + "Dac"}, As<BooleanValue>(m_dac))
            .Writes(Member("dac", m_dac)),
        Declared("rtx-policy",
                 "Retransmission policy (default RTX-SSTHRESH; RTX-SAME with the ns-2 defaults)",
                 m_rtxPolicy,
                 RTX_POLICIES)
            .Sets({S + "RtxPolicy"},
                  [this]() -> Ptr<AttributeValue> {
                      if (m_rtxPolicy.empty())
                      {
                          return nullptr; // the sender's default
                      }
                      return Create<StringValue>(m_rtxPolicy);
                  })
            .Writes([](RudpJson& json, Sender sender) {
                StringValue policy; // the one in force
                sender.GetAttribute("RtxPolicy", policy);
                json.Set("rtx_policy", policy.Get());
            }),
        Declared("coupling",
                 "Coupled congestion control: uncoupled (CMT's own, each path with alpha "
                 "and beta), lia (RFC 6356), olia (Khalili et al.), balia (Peng et al.) or rpv2 "
                 "(CMT/RPv2)",
                 m_coupling,
                 RudpCmtCoupling::GetShortNames())
            .Sets({S + "Coupling"},
                  [this]() -> Ptr<AttributeValue> {
                      return Create<TypeIdValue>(RudpCmtCoupling::LookupByShortName(m_coupling));
                  })
            .Writes(Member("coupling", m_coupling)),
        Declared("ns2-defaults",
                 "The defaults of ns-2.31's SCTP-CMT, the simulator seed 002 used "
                 "(RudpCmtHelper::SetNs2Defaults: PathMaxRetrans 5, ReTxThreshold 4, RTX-SAME, "
                 "MaxBurst 4, ...); given options and attributes override them",
                 m_ns2Defaults)
            .Writes(Member("ns2_defaults", m_ns2Defaults)),
        Declared("model-assumptions",
                 "Simulate under the analytic model's own assumptions (RudpCmtSender::"
                 "ModelAssumptions): each loss known one RTT after its send, retransmissions "
                 "never lost, hence no timeouts",
                 m_modelAssumptions)
            .Sets({S + "ModelAssumptions"}, As<BooleanValue>(m_modelAssumptions))
            .Writes(Member("model_assumptions", m_modelAssumptions)),
        Declared("scheduler",
                 "Path scheduler: round-robin (CMT's), lowest-rtt-first, buffer-aware (a "
                 "slow path's share within what the receive buffer holds at the RTT ratio), or "
                 "blest (wait for the fastest path when it would fill the receive buffer during "
                 "a slower path's RTT; Ferlin et al. 2016)",
                 m_scheduler,
                 Names(SCHEDULERS))
            .Sets({S + "Scheduler"}, Mapped(SCHEDULERS, m_scheduler))
            .Writes(Member("scheduler", m_scheduler)),
        Declared("buffer-splitting",
                 "Buffer splitting: each path at most 1/n of the sender's buffer, of the "
                 "receiver's window, or both (Dreibholz et al. 2010)",
                 m_splitting,
                 Names(SPLITTINGS))
            .Sets({S + "BufferSplitting"}, Mapped(SPLITTINGS, m_splitting))
            .Writes(Member("buffer_splitting", m_splitting)),
        Declared("rescheduling",
                 "Chunk rescheduling: resend the segment that blocks the receive buffer on the "
                 "fastest path",
                 m_rescheduling)
            .Sets({S + "ChunkRescheduling"}, As<BooleanValue>(m_rescheduling))
            .Writes(Member("rescheduling", m_rescheduling)),
        Declared("duration",
                 "Simulated time of the transfer",
                 m_duration,
                 MilliSeconds(1),
                 Seconds(1e6))
            .Writes(InSeconds("duration_s", m_duration)),
        Declared("warmup",
                 "Time not counted in the goodput (slow start), less than duration",
                 m_warmup,
                 Seconds(0),
                 Seconds(1e6))
            .Writes(InSeconds("warmup_s", m_warmup)),
    };
}

std::string
RudpCmtOptions::CheckRtts(const std::string& text)
{
    // A path's one-way delay is RTT/2, at least ns-3's 1 us step of a
    // point-to-point channel here; 10 s is far beyond any seed's RTT.
    return RudpText::CheckList(text, m_rtts, [](const std::string& item, Time& time) {
        return RudpRange<Time>{MicroSeconds(2), Seconds(10)}.Check(item, time);
    });
}

std::string
RudpCmtOptions::CheckLosses(const std::string& text)
{
    return RudpText::CheckList(text, m_losses, [](const std::string& item, double& p) {
        return RudpRange<double>{0.0, 1.0}.Check(item, p);
    });
}

void
RudpCmtOptions::AddOptions(RudpCommandLine& cmd, RudpScenarioRecord& record)
{
    for (const Option& option : m_table)
    {
        if (!option.IsAfterOutput())
        {
            option.Declare(cmd);
        }
    }
    record.AddOption(cmd);
    for (const Option& option : m_table)
    {
        if (option.IsAfterOutput())
        {
            option.Declare(cmd);
        }
    }
    cmd.BeforeAttributes([this]() {
        if (m_ns2Defaults)
        {
            RudpCmtHelper::SetNs2Defaults();
        }
    });
}

void
RudpCmtOptions::ResolveOrFail()
{
    if (m_rtts.empty())
    {
        CheckRtts(m_rtt); // the default
    }
    if (m_losses.empty())
    {
        CheckLosses(m_loss);
    }
    PerPath("rtt", m_rtts, m_paths);
    PerPath("loss", m_losses, m_paths);
    if (m_rbuf < m_mss)
    {
        // RFC 4960 section 6: a receiver must take a whole packet; SCTP never
        // cuts a chunk to fit the window, so a smaller buffer takes nothing.
        RudpParameterCheck::Fail(
            "rbuf",
            std::to_string(m_rbuf) + " bytes cannot hold one --mss=" + std::to_string(m_mss) +
                " chunk; allowed: [" + std::to_string(m_mss) + ", 1073741824]");
    }
    if (m_warmup >= m_duration)
    {
        RudpParameterCheck::Fail("warmup",
                                 RudpText::FormatTime(m_warmup) +
                                     " leaves nothing to measure; allowed: less than --duration=" +
                                     RudpText::FormatTime(m_duration));
    }
}

void
RudpCmtOptions::Configure(RudpCmtHelper& cmt) const
{
    for (uint32_t i = 0; i < m_paths; ++i)
    {
        cmt.AddPath(m_rate, m_rtts[i] / 2, m_losses[i]);
    }
    cmt.SetPathQueue(m_queue == "ns2" ? RudpCmtHelper::PathQueue::NS2
                                      : RudpCmtHelper::PathQueue::NS3);
    for (const Option& option : m_table)
    {
        option.Apply(cmt);
    }
}

void
RudpCmtOptions::AddToJson(RudpJson& json, const RudpCmtSender& sender) const
{
    for (const Option& option : m_table)
    {
        option.Write(json, sender);
    }
    json.Set("rng_run", static_cast<uint64_t>(RngSeedManager::GetRun()));
}

std::string
RudpCmtOptions::Describe() const
{
    return std::to_string(m_paths) + " paths, rtt " + m_rtt + ", loss " + m_loss + ", rbuf " +
           std::to_string(m_rbuf) + " bytes";
}

uint32_t
RudpCmtOptions::GetPaths() const
{
    return m_paths;
}

Time
RudpCmtOptions::GetRtt(uint32_t path) const
{
    return m_rtts.at(path);
}

double
RudpCmtOptions::GetLoss(uint32_t path) const
{
    return m_losses.at(path);
}

Time
RudpCmtOptions::GetDuration() const
{
    return m_duration;
}

Time
RudpCmtOptions::GetWarmup() const
{
    return m_warmup;
}

bool
RudpCmtOptions::GetModelAssumptions() const
{
    return m_modelAssumptions;
}

} // namespace ns3
