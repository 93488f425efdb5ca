/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_RTO_TIMER_H
#define RUDP_RTO_TIMER_H

#include "rudp-deadline.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rtt-estimator.h"
#include "ns3/traced-value.h"

#include <string>

namespace ns3
{

/**
 * \ingroup rudp
 * \brief A sender's retransmission timer and its timeout: RFC 6298's RTO
 * from ns-3's RttMeanDeviation, exponential backoff, and a timer that is
 * restarted lazily.
 *
 * RudpSocket owns one; so does each path of a RudpCmtPath association.
 *
 * The timeout: in FIXED mode always the initial RTO (seed 000's 2 s). In
 * ADAPTIVE mode the initial RTO until the first RTT sample, then
 * max(MinRto, SRTT + max(1 ms, 4 RTTVAR)) (RFC 6298 section 2, with 1 ms as
 * the clock granularity G); times the backoff, at most MaxRto. Backoff()
 * doubles the backoff after a timeout (section 5.5) until the timeout
 * reaches MaxRto, the one cap; ResetBackoff() undoes it (RudpSocket when
 * new data is acknowledged, a CMT path at a new RTT measurement as RFC
 * 4960 6.3.3 has it).
 *
 * The timer is restarted on nearly every acknowledgment: a RudpDeadline,
 * which moves its deadline without an event per move. The RTO trace shows
 * the timeout at each Restart() and RTT sample.
 */
class RudpRtoTimer : public Object
{
  public:
    /// How the timeout is set.
    enum Mode
    {
        FIXED,    ///< always the initial RTO, no backoff
        ADAPTIVE, ///< RFC 6298 from RTT samples, with backoff
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpRtoTimer();
    ~RudpRtoTimer() override;

    /**
     * \brief Sets the timeout's rules. Aborts, naming \p owner's MinRto and
     * MaxRto attributes, if \p minRto exceeds \p maxRto in ADAPTIVE mode.
     * \param mode FIXED or ADAPTIVE
     * \param initialRto the timeout before the first RTT sample (and always, FIXED)
     * \param minRto the least adaptive timeout
     * \param maxRto the largest adaptive timeout, backoff included
     * \param owner the TypeId name of the owner, e.g. "ns3::RudpSocket"
     */
    void Configure(Mode mode, Time initialRto, Time minRto, Time maxRto, const std::string& owner);

    /// \param expired what to call when the timer expires
    void SetExpiryCallback(Callback<void> expired);

    /// \return the RTT estimator the timeout is computed from
    Ptr<const RttEstimator> GetRttEstimator() const;

    /**
     * \brief Feeds an RTT sample to the estimator (the caller applies
     * Karn's rule) and updates the RTO trace.
     * \param rtt the sample
     */
    void Sample(Time rtt);

    /// \return the current timeout, backoff included
    Time GetRto() const;

    /// Doubles the backoff (ADAPTIVE mode), until the timeout reaches MaxRto.
    void Backoff();
    /// Sets the backoff back to 1.
    void ResetBackoff();
    /// \return the current backoff multiplier
    uint32_t GetBackoff() const;

    /// (Re)starts the timer: it expires one timeout from now.
    void Restart();
    /// Stops the timer.
    void Cancel();
    /// \return true if the timer runs
    bool IsRunning() const;

  protected:
    void DoDispose() override;

  private:
    /// \return the timeout without backoff, from the estimator's state
    Time ComputeBaseRto() const;

    Mode m_mode{FIXED};            ///< how the timeout is set
    Time m_initialRto{Seconds(1)}; ///< timeout before the first sample
    Time m_minRto{Seconds(1)};     ///< least adaptive timeout
    Time m_maxRto{Seconds(60)};    ///< largest adaptive timeout
    Ptr<RttEstimator> m_rtt;       ///< RFC 6298's SRTT and RTTVAR
    // Read at every send and acknowledgment; the estimate changes only
    // with a sample or a new configuration.
    Time m_baseRto{Seconds(1)};          ///< the timeout without backoff
    uint32_t m_backoff{1};               ///< timeout multiplier after timeouts
    RudpDeadline m_timer;                ///< expires one timeout after the latest restart
    TracedValue<Time> m_rto{Seconds(0)}; ///< the timeout at the latest restart or sample
};

} // namespace ns3

#endif /* RUDP_RTO_TIMER_H */
