/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_FLOW_TRACES_H
#define RUDP_FLOW_TRACES_H

#include "rudp-cwnd-trace.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/ptr.h"
#include "ns3/socket.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-helpers
 * \brief The congestion-window and RTT traces of a program's bulk flows
 * (rudp-cc-comparison's --cwnd-trace=PREFIX), two CSV files per flow.
 *
 * Flow k (counted from 0 in the order of Add()) gets
 * - PREFIX-k-cwnd.csv: its congestion window, slow-start threshold,
 *   congestion state and timeouts, one line per change (RudpCwndTrace);
 * - PREFIX-k-rtt.csv: "time_s,rtt_s", one line per RTT sample of its
 *   socket's RTT trace (TcpSocketBase's and RudpSocket's), in the stream's
 *   default format (six significant digits).
 *
 * Both are connected just after the flow's start, once its application has
 * made its socket.
 */
class RudpFlowTraces
{
  public:
    /// \param prefix the files' prefix; "" traces nothing
    explicit RudpFlowTraces(const std::string& prefix);
    RudpFlowTraces(const RudpFlowTraces&) = delete;
    RudpFlowTraces& operator=(const RudpFlowTraces&) = delete;

    /// \return true if a prefix was given
    bool IsEnabled() const;

    /**
     * \brief Opens the next flow's files and connects them, one time step
     * after \p start, to the socket \p socketOf then returns. Without a
     * prefix it does nothing.
     * \param socketOf returns the flow's sending socket, e.g.
     *        MakeCallback(&BulkSendApplication::GetSocket, app)
     * \param start the sending application's start time
     * \return "" or the problem: "cannot write 'FILE'"
     */
    std::string Add(Callback<Ptr<Socket>> socketOf, Time start);
    /**
     * \brief Counts the next flow without tracing it here: another MPI rank
     * simulates its sender and writes its files, which keep their names
     * (GetCwndFile, GetRttFile).
     */
    void AddElsewhere();

    /// \return the number of flows traced
    uint32_t GetN() const;
    /// \return flow \p k's congestion-window file
    std::string GetCwndFile(uint32_t k) const;
    /// \return flow \p k's RTT file
    std::string GetRttFile(uint32_t k) const;

    /**
     * \brief Writes the last lines and closes the congestion-window files;
     * flushes the RTT files.
     * \return "" or the problem: "cannot write 'FILE'", for the first file
     *         a write failed on
     */
    std::string Close();

  private:
    /// One flow's traces.
    struct Flow
    {
        std::string prefix;           ///< PREFIX-k
        Ptr<RudpCwndTrace> cwnd;      ///< PREFIX-k-cwnd.csv (null: written elsewhere)
        Ptr<OutputStreamWrapper> rtt; ///< PREFIX-k-rtt.csv (null: written elsewhere)
    };

    /// Connects \p cwnd and \p rtt to the socket \p socketOf returns (it must have one).
    static void Connect(Callback<Ptr<Socket>> socketOf,
                        Ptr<RudpCwndTrace> cwnd,
                        Ptr<OutputStreamWrapper> rtt);
    /// RTT trace sink: writes "time_s,rtt_s".
    static void RttChanged(Ptr<OutputStreamWrapper> stream, Time oldValue, Time newValue);

    std::string m_prefix;      ///< the files' prefix
    std::vector<Flow> m_flows; ///< in the order of Add()
};

} // namespace ns3

#endif /* RUDP_FLOW_TRACES_H */
