/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_DEADLINE_H
#define RUDP_DEADLINE_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup rudp
 * \brief A one-shot timer whose deadline moves often: a sender's
 * retransmission timer (RudpRtoTimer), restarted at nearly every
 * acknowledgment, and a CMT path's idle timer (RudpCmtPath), moved at every
 * send.
 *
 * Rather than cancel and insert an event at every move, Set() leaves a
 * pending event in place if it fires no later than the new deadline; when
 * it fires early it is re-armed for what remains. A deadline brought
 * forward replaces the event. Cancel() only disarms the timer: a timer
 * stopped and started again at every segment (a receiver's delayed
 * acknowledgment) reuses its event too. The callback runs only at the
 * deadline of a timer that runs.
 */
class RudpDeadline
{
  public:
    RudpDeadline() = default;
    /// Cancels the pending event, which would call a timer that is gone.
    ~RudpDeadline();
    // The pending event calls this object: it stays where it was made.
    RudpDeadline(const RudpDeadline&) = delete;
    RudpDeadline& operator=(const RudpDeadline&) = delete;

    /// \param expired what to call at the deadline
    void SetFunction(Callback<void> expired);
    /**
     * \brief Starts the timer, or moves its deadline: it expires \p delay from now.
     * \param delay the time to the deadline
     */
    void Set(Time delay);
    /// Stops the timer.
    void Cancel();
    /// \return true if the timer runs
    bool IsRunning() const;
    /// \return the deadline of the running timer (meaningless when it does not run)
    Time GetDeadline() const;

  private:
    /// The event: runs the callback at the deadline, or waits for it.
    void Fire();

    EventId m_event;          ///< the pending event, possibly early
    bool m_pending{false};    ///< m_event is scheduled and has not run
    Time m_eventTime;         ///< when the pending event runs
    bool m_running{false};    ///< the timer runs (Set and not cancelled nor expired)
    Time m_deadline;          ///< when the timer expires
    Callback<void> m_expired; ///< called at the deadline
};

} // namespace ns3

#endif /* RUDP_DEADLINE_H */
