/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CWND_TRACE_H
#define RUDP_CWND_TRACE_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/rudp-sender-state.h"
#include "ns3/simple-ref-count.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-state.h"

#include <fstream>
#include <string>

namespace ns3
{

class RudpSocket;

/**
 * \ingroup rudp-helpers
 * \brief Writes a sender's congestion window, slow-start threshold and
 * congestion state to a text file, as it changes.
 *
 * The file is CSV: a header line naming the columns, then one line per
 * simulated instant at which any of them changed, with the values after the
 * changes of that instant (a timeout changes all three at once: one line).
 *
 * \verbatim
   time_s,cwnd_bytes,ssthresh_bytes,state,timeouts
   0.17406944,1400,65535,SLOW_START,0
   0.2241004,2800,65535,SLOW_START,0
   \endverbatim
 *
 * - time_s: simulated time (s);
 * - cwnd_bytes, ssthresh_bytes: the socket's CongestionWindow and
 *   SlowStartThreshold traces (bytes);
 * - state: its CongState trace: for a RudpSocket SLOW_START,
 *   CONGESTION_AVOIDANCE, FAST_RECOVERY or FIXED_WINDOW
 *   (RudpSenderState::CongStateName); for ns-3's TCP (TcpSocketBase)
 *   CA_OPEN, CA_DISORDER, CA_CWR, CA_RECOVERY or CA_LOSS;
 * - timeouts: retransmission timeouts so far, so that a figure can mark them
 *   (a RudpSocket's Stats::timeouts; for TCP, which counts none, the entries
 *   into CA_LOSS, where only a timeout leads: back-to-back timeouts of one
 *   loss episode count once). A timeout that changes no window (of the
 *   handshake or the FIN) shows in the next line, if there is one.
 *
 * Connect the socket before its connection opens (an application makes its
 * socket when it starts: ConnectWhenCreated() waits for it); lines start at
 * the first change. The object stays alive while a socket it traces does.
 */
class RudpCwndTrace : public SimpleRefCount<RudpCwndTrace>
{
  public:
    /// The header line (without its newline).
    static const char* const HEADER;

    /**
     * \brief Opens \p path for writing (truncating it) and writes the header.
     * \param path the file
     */
    explicit RudpCwndTrace(const std::string& path);
    /// Writes the last line and closes the file, if Close() has not.
    ~RudpCwndTrace();
    RudpCwndTrace(const RudpCwndTrace&) = delete;
    RudpCwndTrace& operator=(const RudpCwndTrace&) = delete;

    /// \return true if the file is open and every write so far succeeded
    bool IsGood() const;

    /**
     * \brief Traces \p socket from now on.
     * \param socket a RudpSocket or a TcpSocketBase (anything else aborts)
     */
    void Connect(Ptr<Socket> socket);

    /**
     * \brief Traces the socket an application makes when it starts.
     *
     * At \p start (the application's start time) and then again within the
     * same instant, after the application's own start, asks \p socketOf for
     * the socket and connects it. If the application has made none in that
     * instant (it failed to start), nothing is traced.
     * \param socketOf returns the application's socket, or null before it has one
     *        (e.g. MakeCallback(&BulkSendApplication::GetSocket, app))
     * \param start the application's start time
     */
    void ConnectWhenCreated(Callback<Ptr<Socket>> socketOf, Time start);

    /**
     * \brief Writes the last line and closes the file; later changes are
     * not written.
     * \return true if every line was written
     */
    bool Close();

  private:
    /// Connects the socket of \p socketOf if it exists, else looks again in this instant.
    void TryConnect(Callback<Ptr<Socket>> socketOf, uint32_t tries);
    /// Writes the pending line if it is of an earlier instant; then a change is pending now.
    void BeginChange();
    /// Writes the pending line.
    void WriteLine();
    /// CongestionWindow trace sink.
    void CwndChanged(uint32_t oldValue, uint32_t newValue);
    /// SlowStartThreshold trace sink.
    void SsThreshChanged(uint32_t oldValue, uint32_t newValue);
    /// RudpSocket's CongState trace sink.
    void RudpStateChanged(RudpSenderState::CongState oldValue, RudpSenderState::CongState newValue);
    /// TcpSocketBase's CongState trace sink.
    void TcpStateChanged(TcpSocketState::TcpCongState_t oldValue,
                         TcpSocketState::TcpCongState_t newValue);

    std::ofstream m_file;              ///< the trace file
    bool m_closed{false};              ///< Close() was called
    const RudpSocket* m_rudp{nullptr}; ///< the RudpSocket traced (read in its own callbacks)
    uint32_t m_cwnd{0};                ///< the latest congestion window (bytes)
    uint32_t m_ssThresh{0};            ///< the latest slow-start threshold (bytes)
    std::string m_state;               ///< the latest congestion state's name
    uint64_t m_timeouts{0};            ///< retransmission timeouts so far
    bool m_pending{false};             ///< a line of m_pendingTime is still to be written
    Time m_pendingTime;                ///< the instant of the pending line
};

} // namespace ns3

#endif /* RUDP_CWND_TRACE_H */
