/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_OPTIONS_H
#define RUDP_CMT_OPTIONS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class RudpCmtHelper;
class RudpCmtSender;
class RudpCommandLine;
class RudpJson;
class RudpScenarioRecord;

/**
 * \ingroup rudp
 * \brief The command-line options of seed 002's experiment (rudp-cmt): the
 * paths and their impairments, the receive buffer, the CMT algorithms, the
 * remedies for receive-buffer blocking and the run's length; checked, then
 * applied to a RudpCmtHelper.
 *
 * One table (rudp-cmt-options.cc) lists each option once: how it is
 * declared (help, range or choices), the sender's and receiver's attributes
 * it sets, and its members of the run's record. The command line, the
 * attributes refused on it and set on the helper, and the record all come
 * from it.
 *
 * The program's outputs (--output, RudpTraceOptions) are the program's own.
 */
class RudpCmtOptions
{
  public:
    RudpCmtOptions();
    ~RudpCmtOptions();
    RudpCmtOptions(const RudpCmtOptions&) = delete;
    RudpCmtOptions& operator=(const RudpCmtOptions&) = delete;

    /**
     * \brief Registers the options, with the record's --output among them,
     * and refuses the attributes they set (RudpCommandLine::SetsAttributes);
     * --ns2-defaults chooses the defaults that attributes given on the
     * command line then override (RudpCmtHelper::SetNs2Defaults).
     * \param cmd the program's command line, before Parse()
     * \param record the program's record, whose --output it registers
     */
    void AddOptions(RudpCommandLine& cmd, RudpScenarioRecord& record);
    /**
     * \brief After the command line is parsed: one value per path for --rtt
     * and --loss, a receive buffer that holds a chunk, a warm-up shorter
     * than the run; ends the program with exit status 2 and the option's
     * name otherwise.
     */
    void ResolveOrFail();
    /**
     * \brief Adds the paths to \p cmt and sets its sender's and receiver's
     * attributes (before Install).
     * \param cmt the helper
     */
    void Configure(RudpCmtHelper& cmt) const;
    /**
     * \brief Adds the run's settings to its record, in the table's order,
     * then rng_run.
     * \param json the record
     * \param sender the installed sender (the retransmission policy in force)
     */
    void AddToJson(RudpJson& json, const RudpCmtSender& sender) const;

    /// \return "N paths, rtt RTT, loss LOSS, rbuf RBUF bytes", as given
    std::string Describe() const;
    /// \return --paths
    uint32_t GetPaths() const;
    /// \return the RTT of path \p path (after ResolveOrFail)
    Time GetRtt(uint32_t path) const;
    /// \return the loss rate of path \p path (after ResolveOrFail)
    double GetLoss(uint32_t path) const;
    /// \return --duration
    Time GetDuration() const;
    /// \return --warmup
    Time GetWarmup() const;
    /// \return --model-assumptions
    bool GetModelAssumptions() const;

    /// A row of the table (rudp-cmt-options.cc).
    class Option;

  private:
    /// \return the table: each option, its attributes and its members of the record
    std::vector<Option> Table();
    /**
     * \param text --rtt's value
     * \return "" if it is valid (m_rtts then holds it), else the problem
     */
    std::string CheckRtts(const std::string& text);
    /**
     * \param text --loss's value
     * \return "" if it is valid (m_losses then holds it), else the problem
     */
    std::string CheckLosses(const std::string& text);

    uint32_t m_paths{2};
    std::string m_rtt{"120ms"};
    std::string m_loss{"0.01"};
    DataRate m_rate{"10Mbps"};
    std::string m_queue{"default"};
    uint32_t m_rbuf{1u << 28};
    std::string m_checksum{"internet"};
    uint32_t m_mss{1468};
    double m_alpha{1.0};
    double m_beta{0.5};
    bool m_fastRetransmit{true};
    bool m_sfr{true};
    bool m_cuc{true};
    bool m_dac{true};
    std::string m_rtxPolicy; ///< "": the sender's default (RTX-SAME with --ns2-defaults)
    std::string m_coupling{"uncoupled"};
    bool m_ns2Defaults{false};
    bool m_modelAssumptions{false};
    std::string m_scheduler{"round-robin"};
    std::string m_splitting{"none"};
    bool m_rescheduling{false};
    Time m_duration{Seconds(100)};
    Time m_warmup{Seconds(10)};

    std::vector<Time> m_rtts;     ///< --rtt, per path (one value: every path's)
    std::vector<double> m_losses; ///< --loss, per path
    std::vector<Option> m_table;  ///< Table()
};

} // namespace ns3

#endif /* RUDP_CMT_OPTIONS_H */
