/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_DUMBBELL_OPTIONS_H
#define RUDP_DUMBBELL_OPTIONS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/rudp-dumbbell-helper.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class RudpCommandLine;
class RudpJson;

/**
 * \ingroup rudp-helpers
 * \brief The command-line options of a program that runs bulk flows over
 * RudpDumbbellHelper's dumbbell (rudp-cc-comparison), what only their
 * combination rules out, and the sizes RudpDumbbellSizing gives the ones
 * left out.
 *
 * The options: --rate, --access-rate, --queue (bfifo|pfifo), --queue-size,
 * --loss, --flows (algorithm@RTT[+start], comma-separated), --duration,
 * --warmup, --transport (tcp|rudp), --segment-size, --bottleneck-delay,
 * --buffer, --initial-ssthresh, --sack and --del-ack-count. Over RUDP a flow's
 * algorithm may also be rudp-reno: seed 000's Reno (ns3::RudpReno) rather
 * than a TcpCongestionOps. Each is checked on its own by
 * RudpCommandLine; Resolve() then checks their combinations (an RTT above
 * twice the bottleneck's delay, every flow measured for some time before
 * the end, an access rate not below the bottleneck's, a TCP segment within
 * a 1500-byte MTU) and resolves the sizes given as 0 or auto.
 *
 * \code
 *   RudpDumbbellOptions options;
 *   RudpCommandLine cmd(__FILE__);
 *   options.AddOptions(cmd);
 *   cmd.Parse(argc, argv);
 *   options.ResolveOrFail();
 *   RudpDumbbellHelper dumbbell;
 *   options.Configure(dumbbell);
 *   dumbbell.Install();
 * \endcode
 */
class RudpDumbbellOptions
{
  public:
    /// One flow of --flows.
    struct Flow
    {
        std::string algorithm; ///< short name (RudpCongestionNames) or TypeId name
        Time rtt;              ///< propagation RTT
        Time start;            ///< start time
    };

    RudpDumbbellOptions();
    RudpDumbbellOptions(const RudpDumbbellOptions&) = delete;
    RudpDumbbellOptions& operator=(const RudpDumbbellOptions&) = delete;

    /**
     * \brief Registers the options, and refuses the attributes they set
     * (RudpCommandLine::SetsAttributes).
     * \param cmd the program's command line, before Parse()
     */
    void AddOptions(RudpCommandLine& cmd);

    /**
     * \brief After the command line is parsed: checks what only a
     * combination of options rules out and resolves the sizes.
     * \param [out] name the option at fault
     * \return "" if the options are valid, else the problem
     */
    std::string Resolve(std::string& name);
    /// Resolve(), or ends the program: "error: --<name>: <problem>", exit status 2.
    void ResolveOrFail();

    /**
     * \brief Sets the transport's socket defaults (segment size, buffers,
     * initial ssthresh, SACK (--sack) and the segments one ACK acknowledges
     * (--del-ack-count); for RUDP an uncapped window, adaptive RTO and an
     * initial window of ten) and
     * configures \p dumbbell: its bottleneck, access rate, queue, loss,
     * BulkSendApplications and one flow per --flows entry. Call it after
     * Resolve().
     * \param dumbbell the helper, before Install()
     */
    void Configure(RudpDumbbellHelper& dumbbell) const;

    /**
     * \brief Adds the run's settings to its JSON record, after Resolve():
     * transport, rate_bps, access_rate_bps, bottleneck_delay_s, queue,
     * queue_size, queue_unit ("bytes" or "packets"), loss, duration_s,
     * warmup_s, segment_size, buffer_bytes, initial_ssthresh_bytes, sack,
     * del_ack_count.
     * \param json the record
     */
    void AddToJson(RudpJson& json) const;

    /**
     * \brief Parses --flows.
     * \param text algorithm@RTT[+start], comma-separated
     * \param [out] flows the flows
     * \return "" or the problem
     */
    static std::string ParseFlows(const std::string& text, std::vector<Flow>& flows);

    /**
     * \brief The TypeId a flow's algorithm names.
     * \param algorithm a short name (RudpCongestionNames), a TcpCongestionOps
     *        TypeId name, or rudp-reno (ns3::RudpReno, RUDP only)
     * \return its TypeId
     */
    static TypeId AlgorithmTypeId(const std::string& algorithm);

    /// The algorithm name of seed 000's Reno (ns3::RudpReno), which only RUDP runs.
    static const char* const RUDP_RENO;

    /// \return --rate
    DataRate GetRate() const;
    /// \return --access-rate (after Resolve(), ten times --rate if not given)
    DataRate GetAccessRate() const;
    /// \return --queue: "bfifo" or "pfifo"
    std::string GetQueue() const;
    /// \return the queue's unit: bytes for bfifo, packets for pfifo
    QueueSizeUnit GetQueueUnit() const;
    /// \return the queue limit in its unit (after Resolve(), the default if not given)
    uint64_t GetQueueSize() const;
    /// \return the queue limit in bytes (after Resolve())
    uint64_t GetQueueBytes() const;
    /// \return --loss
    double GetLoss() const;
    /// \return the flows of --flows
    const std::vector<Flow>& GetFlows() const;
    /// \return --duration
    Time GetDuration() const;
    /// \return --warmup
    Time GetWarmup() const;
    /// \return --transport: "tcp" or "rudp"
    std::string GetTransport() const;
    /// \return --transport as the dumbbell's transport
    RudpDumbbellHelper::Transport GetTransportKind() const;
    /// \return --segment-size (bytes)
    uint32_t GetSegmentSize() const;
    /// \return --bottleneck-delay
    Time GetBottleneckDelay() const;
    /// \return the socket buffers in bytes (after Resolve(), the default if not given)
    uint64_t GetBuffer() const;
    /// \return the initial slow-start threshold in bytes (after Resolve())
    uint64_t GetInitialSsThresh() const;
    /// \return --sack
    bool GetSack() const;
    /// \return --del-ack-count
    uint32_t GetDelAckCount() const;
    /// \return the largest RTT of the flows (after Resolve())
    Time GetMaxRtt() const;
    /// \return when the first flow's measurement starts: its start plus --warmup (after Resolve())
    Time GetFirstMeasured() const;

  private:
    DataRate m_rate{"100Mbps"};                ///< --rate
    std::string m_accessRateText;              ///< --access-rate as given ("" : default)
    DataRate m_accessRate;                     ///< --access-rate
    std::string m_queue{"bfifo"};              ///< --queue
    uint64_t m_queueSize{0};                   ///< --queue-size (0: default)
    double m_loss{0};                          ///< --loss
    std::string m_flowsText{"cubic@50ms"};     ///< --flows as given
    std::vector<Flow> m_flows;                 ///< --flows
    Time m_duration{Seconds(60)};              ///< --duration
    Time m_warmup{Seconds(0)};                 ///< --warmup
    std::string m_transport{"tcp"};            ///< --transport
    uint32_t m_segmentSize{1448};              ///< --segment-size
    Time m_bottleneckDelay{MilliSeconds(1)};   ///< --bottleneck-delay
    uint64_t m_buffer{0};                      ///< --buffer (0: default)
    std::string m_initialSsThreshText{"auto"}; ///< --initial-ssthresh as given
    bool m_sack{true};                         ///< --sack
    uint32_t m_delAckCount{2};                 ///< --del-ack-count
    uint64_t m_resolvedQueueSize{0};           ///< the queue limit, resolved
    uint64_t m_queueBytes{0};                  ///< the queue limit in bytes
    uint64_t m_resolvedBuffer{0};              ///< the socket buffers, resolved
    uint64_t m_initialSsThresh{0};             ///< the initial ssthresh, resolved
    Time m_maxRtt;                             ///< the largest RTT
    Time m_firstMeasured;                      ///< the earliest start plus warm-up
};

} // namespace ns3

#endif /* RUDP_DUMBBELL_OPTIONS_H */
