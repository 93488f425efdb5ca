/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-path.h"

#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtPath");

NS_OBJECT_ENSURE_REGISTERED(RudpCmtPath);

TypeId
RudpCmtPath::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpCmtPath")
                            .SetParent<Object>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpCmtPath>()
                            .AddAttribute("LossRate",
                                          "The path's data loss rate as known to the sender "
                                          "(probability, 0..1): RTX-LOSSRATE resends on the "
                                          "active path with the lowest, as ns-2's oracle "
                                          "(set-lossrate); RudpCmtHelper sets each path's.",
                                          DoubleValue(0),
                                          MakeDoubleAccessor(&RudpCmtPath::m_lossRate),
                                          MakeDoubleChecker<double>(0, 1))
                            .AddTraceSource("RTO",
                                            "The path's retransmission timeout",
                                            MakeTraceSourceAccessor(&RudpCmtPath::m_rtoTrace),
                                            "ns3::TracedValueCallback::Time")
                            .AddTraceSource("RTT",
                                            "The path's latest RTT measurement",
                                            MakeTraceSourceAccessor(&RudpCmtPath::m_rtt),
                                            "ns3::TracedValueCallback::Time")
                            .AddTraceSource("Status",
                                            "Whether the path carries data: ACTIVE, "
                                            "POTENTIALLY_FAILED (CMT-PF), FAILED, "
                                            "UNCONFIRMED (new, not yet answered) or "
                                            "REMOVED (an address deleted)",
                                            MakeTraceSourceAccessor(&RudpCmtPath::m_status),
                                            "ns3::RudpCmtPath::StatusTracedValueCallback");
    return tid;
}

RudpCmtPath::RudpCmtPath()
    : m_rtoTimer(CreateObject<RudpRtoTimer>())
{
    NS_LOG_FUNCTION(this);
    // The path's windows are traced where a single-path socket traces them.
    Ptr<RudpSenderState> state = CreateObject<RudpSenderState>();
    AggregateObject(state);
    m_state = PeekPointer(state);
    const bool ok = m_rtoTimer->TraceConnectWithoutContext(
        "RTO",
        MakeCallback(&TracedCallback<Time, Time>::operator(), &m_rtoTrace));
    NS_ASSERT_MSG(ok, "RudpCmtPath could not connect its timer's RTO trace");
    m_rtoTimer->SetExpiryCallback(MakeCallback(&RudpCmtPath::TimerExpired, this));
    m_idleTimer.SetFunction(MakeCallback(&RudpCmtPath::IdleTimerExpired, this));
}

void
RudpCmtPath::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_rtoTimer->Dispose();
    m_idleTimer.Cancel();
    m_idleTimer.SetFunction(MakeNullCallback<void>());
    m_expired = MakeNullCallback<void, uint32_t>();
    Object::DoDispose();
}

Ptr<RudpRtoTimer>
RudpCmtPath::GetRtoTimer() const
{
    return m_rtoTimer;
}

void
RudpCmtPath::SetExpiryCallback(Callback<void, uint32_t> expired)
{
    m_expired = expired;
}

void
RudpCmtPath::TimerExpired()
{
    NS_LOG_FUNCTION(this << m_index);
    m_expired(m_index);
}

void
RudpCmtPath::SetPeer(const Address& remote, uint32_t index)
{
    m_remote = remote;
    m_remoteIpv4 = InetSocketAddress::IsMatchingType(remote)
                       ? InetSocketAddress::ConvertFrom(remote).GetIpv4()
                       : Ipv4Address();
    m_index = index;
}

const Address&
RudpCmtPath::GetRemote() const
{
    return m_remote;
}

Ipv4Address
RudpCmtPath::GetRemoteIpv4() const
{
    return m_remoteIpv4;
}

void
RudpCmtPath::SetLocal(Ipv4Address local)
{
    m_local = local;
}

Ipv4Address
RudpCmtPath::GetLocal() const
{
    return m_local;
}

void
RudpCmtPath::SetBackup(bool backup)
{
    m_backup = backup;
}

bool
RudpCmtPath::IsBackup() const
{
    return m_backup;
}

void
RudpCmtPath::SetLocalUp(bool up)
{
    m_localUp = up;
}

bool
RudpCmtPath::IsLocalUp() const
{
    return m_localUp;
}

bool
RudpCmtPath::MayRevive() const
{
    return m_localUp && m_status != REMOVED;
}

uint32_t
RudpCmtPath::GetIndex() const
{
    return m_index;
}

RudpCmtPath::Status
RudpCmtPath::GetStatus() const
{
    return m_status;
}

void
RudpCmtPath::SetStatus(Status status)
{
    m_status = status;
}

const RudpCmtPath::Stats&
RudpCmtPath::GetStats() const
{
    return m_stats;
}

void
RudpCmtPath::NoteSent(uint32_t bytes, bool resend)
{
    m_stats.bytesSent += bytes;
    m_stats.retransmissions += resend ? 1 : 0;
}

void
RudpCmtPath::NoteTimeout()
{
    ++m_stats.timeouts;
    ++m_consecutiveTimeouts;
}

void
RudpCmtPath::NoteUnanswered()
{
    ++m_consecutiveTimeouts;
}

void
RudpCmtPath::ResetTimeouts()
{
    m_consecutiveTimeouts = 0;
}

uint32_t
RudpCmtPath::GetConsecutiveTimeouts() const
{
    return m_consecutiveTimeouts;
}

Ptr<RudpSenderState>
RudpCmtPath::GetState() const
{
    return m_state;
}

Ptr<const RttEstimator>
RudpCmtPath::GetRttEstimator() const
{
    return m_rtoTimer->GetRttEstimator();
}

void
RudpCmtPath::Open(uint32_t mss, uint32_t initialCwnd, uint32_t initialSsThresh)
{
    NS_LOG_FUNCTION(this << mss << initialCwnd << initialSsThresh);
    m_state->m_segmentSize = mss;
    m_state->m_initialCwnd = initialCwnd;
    m_state->m_initialSsThresh = initialSsThresh;
    m_state->m_ssThresh = initialSsThresh;
    m_state->m_cWnd = initialCwnd * mss;
    m_state->m_congState =
        InSlowStart() ? RudpSenderState::SLOW_START : RudpSenderState::CONGESTION_AVOIDANCE;
}

bool
RudpCmtPath::FullyUtilised(uint32_t flight) const
{
    if (m_mayOvershootWindow)
    {
        return flight >= m_state->m_cWnd;
    }
    return static_cast<uint64_t>(flight) + m_state->m_segmentSize > m_state->m_cWnd;
}

void
RudpCmtPath::SetMayOvershootWindow(bool on)
{
    m_mayOvershootWindow = on;
}

void
RudpCmtPath::SampleRtt(Time rtt)
{
    m_rtoTimer->ResetBackoff();
    m_rtoTimer->Sample(rtt);
    m_state->m_lastRtt = rtt;
    m_rtt = rtt;
}

void
RudpCmtPath::SetIdleDecay(bool on)
{
    m_idleDecay = on;
    if (!on)
    {
        m_idleTimer.Cancel();
    }
}

void
RudpCmtPath::DataSent()
{
    if (!m_idleDecay)
    {
        return;
    }
    m_idleTimer.Set(m_rtoTimer->GetRto());
}

void
RudpCmtPath::StopIdleDecay()
{
    if (m_idleTimer.IsRunning() && m_idleTimer.GetDeadline() <= Simulator::Now())
    {
        DecayIdleWindow();
    }
    m_idleTimer.Cancel();
}

void
RudpCmtPath::IdleTimerExpired()
{
    // A window the decay leaves alone stays so until data goes out again
    // (DataSent restarts the timer): an idle association schedules nothing.
    if (DecayIdleWindow())
    {
        m_idleTimer.Set(m_rtoTimer->GetRto());
    }
}

bool
RudpCmtPath::DecayIdleWindow()
{
    // RFC 4960 7.2.1: "adjusted to max(cwnd/2, 4*MTU) per RTO" without data
    // sent. As ns-2's CwndDegradeTimerExpiration, a window of at most
    // 2 MSS (the initial window, or one a timeout collapsed) is left alone;
    // one between 2 and 4 MSS is raised to 4, as the formula says.
    const uint32_t mss = m_state->m_segmentSize;
    const uint32_t before = m_state->m_cWnd;
    if (before > 2 * mss)
    {
        NS_LOG_LOGIC("path " << m_index << " idle for an RTO: cwnd " << m_state->m_cWnd.Get());
        m_state->m_cWnd = std::max(m_state->m_cWnd.Get() / 2, 4 * mss);
    }
    return m_state->m_cWnd != before;
}

double
RudpCmtPath::GetLossRate() const
{
    return m_lossRate;
}

void
RudpCmtPath::Grow(uint32_t bytes, uint32_t flight, uint32_t slowStart, int64_t avoidance)
{
    NS_LOG_FUNCTION(this << bytes << flight << slowStart << avoidance);
    const uint32_t mss = m_state->m_segmentSize;
    const bool utilised = FullyUtilised(flight);
    // RFC 4960 7.2.1: slow start while cwnd is less than or equal to
    // ssthresh (so once more right after a cut to cwnd = ssthresh; ns-2 too),
    // or TCP's strictly less for LIA and OLIA (SetSlowStartAtThreshold).
    if (InSlowStart())
    {
        // RFC 4960 7.2.1: only "when the current cwnd is fully utilized".
        if (!utilised)
        {
            return;
        }
        m_state->m_cWnd += slowStart;
        if (m_state->m_cWnd > m_state->m_ssThresh)
        {
            m_state->m_congState = RudpSenderState::CONGESTION_AVOIDANCE;
        }
        return;
    }
    // SCTP's congestion avoidance: one increase once a window's worth is
    // acknowledged. RFC 4960 7.2.2: and only while the sender has cwnd or
    // more outstanding.
    m_partialBytesAcked += bytes;
    if (m_partialBytesAcked >= m_state->m_cWnd && utilised)
    {
        m_partialBytesAcked -= m_state->m_cWnd;
        const int64_t grown = static_cast<int64_t>(m_state->m_cWnd.Get()) + avoidance;
        m_state->m_cWnd = static_cast<uint32_t>(std::max<int64_t>(grown, mss));
    }
}

bool
RudpCmtPath::InSlowStart() const
{
    return m_slowStartAtThreshold ? m_state->m_cWnd <= m_state->m_ssThresh
                                  : m_state->m_cWnd < m_state->m_ssThresh;
}

void
RudpCmtPath::SetSlowStartAtThreshold(bool on)
{
    m_slowStartAtThreshold = on;
}

void
RudpCmtPath::Acknowledged(uint32_t bytes)
{
    m_bytesSinceLoss += bytes;
}

uint64_t
RudpCmtPath::GetBytesBetweenLosses() const
{
    return std::max(m_bytesBetweenLosses, m_bytesSinceLoss);
}

void
RudpCmtPath::AllAcknowledged()
{
    m_partialBytesAcked = 0;
}

void
RudpCmtPath::Reactivate(uint32_t segments)
{
    NS_LOG_FUNCTION(this << segments);
    m_state->m_cWnd = segments * m_state->m_segmentSize;
    m_partialBytesAcked = 0;
    m_state->m_congState =
        InSlowStart() ? RudpSenderState::SLOW_START : RudpSenderState::CONGESTION_AVOIDANCE;
}

void
RudpCmtPath::Reduce(double reduction)
{
    NS_LOG_FUNCTION(this << reduction);
    const uint32_t mss = m_state->m_segmentSize;
    const auto kept = static_cast<uint32_t>(std::max(0.0, 1.0 - reduction) * m_state->m_cWnd);
    m_bytesBetweenLosses = m_bytesSinceLoss;
    m_bytesSinceLoss = 0;
    m_state->m_ssThresh = std::max(kept, 2 * mss);
    m_state->m_cWnd = m_state->m_ssThresh.Get();
    m_partialBytesAcked = 0;
    m_state->m_congState = RudpSenderState::FAST_RECOVERY;
}

void
RudpCmtPath::Collapse(double reduction)
{
    NS_LOG_FUNCTION(this << reduction);
    const uint32_t mss = m_state->m_segmentSize;
    const auto kept = static_cast<uint32_t>(std::max(0.0, 1.0 - reduction) * m_state->m_cWnd);
    m_state->m_ssThresh = std::max(kept, 2 * mss);
    m_bytesBetweenLosses = m_bytesSinceLoss;
    m_bytesSinceLoss = 0;
    m_state->m_cWnd = mss;
    m_partialBytesAcked = 0;
    m_state->m_congState = RudpSenderState::SLOW_START;
}

uint32_t
RudpCmtPath::WindowFor(uint32_t inFlight, uint32_t length) const
{
    const uint32_t cwnd = m_state->m_cWnd;
    if (!m_mayOvershootWindow)
    {
        return cwnd;
    }
    // Sending only whole segments that fit would leave a window of 2.5
    // segments sending 2 under SCTP's utilisation rule, each SACK
    // acknowledging all of them, and partial_bytes_acked (7.2.2) never
    // reaching cwnd; SCTP (and ns-2's SendMuch and RtxMarkedChunks) let the
    // packet overshoot instead.
    return inFlight < cwnd ? std::max(cwnd, inFlight + length) : 0;
}

} // namespace ns3
