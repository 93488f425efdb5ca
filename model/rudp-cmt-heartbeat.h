/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_HEARTBEAT_H
#define RUDP_CMT_HEARTBEAT_H

#include "rudp-deadline.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <cstdint>
#include <deque>

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \brief What a HEARTBEAT carries (RFC 9260 8.3's Heartbeat Info: the
 * sender-specific information and a 64-bit random nonce), and its peer
 * echoes byte for byte in the HEARTBEAT ACK.
 *
 * Wire layout of the payload, network byte order, SIZE bytes:
 * \verbatim
  +---------------------------------------------------------------+
  |                 Path index (the sender's)                     |
  +---------------------------------------------------------------+
  |            Time sent (nanoseconds, 64 bits, signed)           |
  |                                                               |
  +---------------------------------------------------------------+
  |                       Nonce (64 bits)                         |
  |                                                               |
  +---------------------------------------------------------------+
 \endverbatim
 * Only its sender reads it; the peer echoes it unread.
 */
struct RudpCmtHeartbeatInfo
{
    static constexpr uint32_t SIZE = 20; ///< payload bytes of a HEARTBEAT and its ACK

    uint32_t path{0};  ///< the index of the path it was sent on
    Time sent;         ///< when it was sent (the RTT is measured from it)
    uint64_t nonce{0}; ///< random: only an answer to this heartbeat knows it

    /// \return the payload: SIZE bytes
    Ptr<Packet> Encode() const;
    /**
     * \param payload a HEARTBEAT's or HEARTBEAT ACK's payload
     * \param[out] info what it says
     * \return false if it is not SIZE bytes long
     */
    static bool Decode(Ptr<const Packet> payload, RudpCmtHeartbeatInfo& info);
    /// \return true if every field is equal
    bool operator==(const RudpCmtHeartbeatInfo& other) const;
};

/**
 * \ingroup rudp-cmt
 * \brief One path's heartbeats (RFC 9260 8.3): when the next is due, which
 * are unanswered, and how long the latest may take to be answered.
 *
 * Two deadlines in turn on one timer: "due" (the path was idle long enough:
 * the owner sends a heartbeat, or reschedules it if the path carried data
 * meanwhile, DataSentSinceScheduled) and "unanswered" (the heartbeat sent
 * was not answered within the RTO it was given). The last MAX_OUTSTANDING
 * heartbeats sent are remembered, so that a late answer still counts; an
 * answer is accepted once.
 */
class RudpCmtHeartbeat
{
  public:
    /// The most heartbeats remembered unanswered on a path (the oldest is forgotten).
    static constexpr uint32_t MAX_OUTSTANDING = 4;

    /**
     * \param path the path's index, which the callbacks are given
     * \param due called when a heartbeat is due
     * \param unanswered called when the heartbeat sent with an answer
     *        deadline (Sent) was not answered by then
     */
    void SetCallbacks(uint32_t path,
                      Callback<void, uint32_t> due,
                      Callback<void, uint32_t> unanswered);
    /// \param delay when the next heartbeat is due, from now
    void ScheduleNext(Time delay);
    /**
     * \brief A heartbeat went out.
     * \param info what it carries
     * \param answerWithin its answer deadline from now (0: none, the
     *        timer is left as it is: a probe of a failed path, which its
     *        retransmission timer paces)
     */
    void Sent(const RudpCmtHeartbeatInfo& info, Time answerWithin);
    /**
     * \brief An answer arrived.
     * \param info what it echoes
     * \return true if it echoes a heartbeat sent and unanswered, which is
     *         no longer (false: forged, stale, or answered already)
     */
    bool Accept(const RudpCmtHeartbeatInfo& info);
    /// \return true while the heartbeat with a deadline waits for its answer
    bool IsAwaitingAnswer() const;
    /// \return when the latest heartbeat went out (0 if none did)
    Time GetLastSent() const;
    /// Data went out on the path: it is not idle.
    void DataSent();
    /// \return true if data went out since the latest ScheduleNext
    bool DataSentSinceScheduled() const;
    /// No heartbeat is due or awaited any more; the unanswered ones are forgotten.
    void Stop();

  private:
    /// The timer expired: due, or unanswered.
    void Expired();

    RudpDeadline m_timer;                          ///< the next due time, or the answer deadline
    bool m_awaiting{false};                        ///< the timer is an answer deadline
    bool m_dataSent{false};                        ///< DataSentSinceScheduled
    Time m_lastSent;                               ///< GetLastSent
    std::deque<RudpCmtHeartbeatInfo> m_unanswered; ///< the latest sent, oldest first
    uint32_t m_path{0};                            ///< SetCallbacks
    Callback<void, uint32_t> m_due;                ///< SetCallbacks
    Callback<void, uint32_t> m_unansweredCallback; ///< SetCallbacks
};

} // namespace ns3

#endif /* RUDP_CMT_HEARTBEAT_H */
