/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-cvtcp.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-state.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpCvtcp");

NS_OBJECT_ENSURE_REGISTERED(TcpCvtcp);

namespace
{

/// Linux's bictcp_update: at most this count before the first loss (grow >= 5 % per RTT).
const uint32_t CNT_CLAMP = 20;

} // namespace

TypeId
TcpCvtcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TcpCvtcp")
            .SetParent<TcpCongestionOps>()
            .AddConstructor<TcpCvtcp>()
            .SetGroupName("Rudp")
            .AddAttribute("C",
                          "Cubic's scaling constant C of W(t) = C (t - K)^3 + W_max, "
                          "segments/s^3 (0.001..1000; Cubic: 0.4).",
                          DoubleValue(0.4),
                          MakeDoubleAccessor(&TcpCvtcp::m_c),
                          MakeDoubleChecker<double>(0.001, 1000.0))
            .AddAttribute("Gamma",
                          "Threshold gamma of Veno's diff = cwnd - cwnd BaseRTT / RTT, "
                          "segments: diff < Gamma is the non-congestive state, in which a loss "
                          "is taken as random (0..1000; Veno's beta: 3).",
                          DoubleValue(3.0),
                          MakeDoubleAccessor(&TcpCvtcp::m_gamma),
                          MakeDoubleChecker<double>(0.0, 1000.0))
            .AddAttribute("Beta",
                          "Multiplicative decrease after a congestion loss: ssthresh = "
                          "Beta x cwnd (0.1..1; Veno: 0.5).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&TcpCvtcp::m_beta),
                          MakeDoubleChecker<double>(0.1, 1.0))
            .AddAttribute("RandomLossBeta",
                          "Multiplicative decrease after a random loss: ssthresh = "
                          "RandomLossBeta x cwnd (0.1..1; Veno: 0.8).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&TcpCvtcp::m_randomLossBeta),
                          MakeDoubleChecker<double>(0.1, 1.0))
            .AddAttribute("FastConvergence",
                          "Cubic's fast convergence after a congestion loss below the previous "
                          "W_max: W_max = cwnd (1 + Beta) / 2.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TcpCvtcp::m_fastConvergence),
                          MakeBooleanChecker());
    return tid;
}

TcpCvtcp::TcpCvtcp()
    : TcpCongestionOps()
{
    NS_LOG_FUNCTION(this);
}

TcpCvtcp::TcpCvtcp(const TcpCvtcp& sock)
    : TcpCongestionOps(sock),
      m_c(sock.m_c),
      m_gamma(sock.m_gamma),
      m_beta(sock.m_beta),
      m_randomLossBeta(sock.m_randomLossBeta),
      m_fastConvergence(sock.m_fastConvergence),
      m_baseRtt(sock.m_baseRtt),
      m_minRtt(sock.m_minRtt),
      m_cntRtt(sock.m_cntRtt),
      m_diff(sock.m_diff),
      m_lastMaxCwnd(sock.m_lastMaxCwnd),
      m_originPoint(sock.m_originPoint),
      m_k(sock.m_k),
      m_epochStart(sock.m_epochStart),
      m_cWndCnt(sock.m_cWndCnt)
{
    NS_LOG_FUNCTION(this);
}

TcpCvtcp::~TcpCvtcp()
{
    NS_LOG_FUNCTION(this);
}

std::string
TcpCvtcp::GetName() const
{
    return "TcpCvtcp";
}

Ptr<TcpCongestionOps>
TcpCvtcp::Fork()
{
    NS_LOG_FUNCTION(this);
    return CopyObject<TcpCvtcp>(this);
}

double
TcpCvtcp::GetDiff() const
{
    return m_diff;
}

bool
TcpCvtcp::IsNonCongestive() const
{
    return m_diff < m_gamma;
}

void
TcpCvtcp::PktsAcked(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked, const Time& rtt)
{
    NS_LOG_FUNCTION(this << tcb << segmentsAcked << rtt);
    if (rtt.IsZero() || rtt.IsNegative())
    {
        return;
    }
    m_minRtt = std::min(m_minRtt, rtt);
    m_baseRtt = std::min(m_baseRtt, rtt);
    ++m_cntRtt;
}

void
TcpCvtcp::IncreaseWindow(Ptr<TcpSocketState> tcb, uint32_t segmentsAcked)
{
    NS_LOG_FUNCTION(this << tcb << segmentsAcked);

    // Veno's estimate, on every ACK once three samples have arrived, from the
    // smallest sample since the previous ACK (Linux's tcp_veno_cong_avoid).
    if (m_cntRtt > 2 && m_minRtt != Time::Max())
    {
        const double segCwnd = tcb->GetCwndInSegments();
        m_diff = segCwnd - segCwnd * m_baseRtt.GetSeconds() / m_minRtt.GetSeconds();
        NS_LOG_DEBUG("diff " << m_diff << " segments: "
                             << (IsNonCongestive() ? "non-congestive" : "congestive"));
    }
    m_minRtt = Time::Max();

    if (tcb->m_cWnd < tcb->m_ssThresh && segmentsAcked > 0)
    {
        // Reno's slow start, one segment per segment acknowledged up to
        // ssthresh (Linux's tcp_slow_start, as ns-3's TcpLinuxReno).
        const uint64_t before = tcb->m_cWnd;
        const uint64_t grown = before + static_cast<uint64_t>(segmentsAcked) * tcb->m_segmentSize;
        tcb->m_cWnd = static_cast<uint32_t>(std::min<uint64_t>(grown, tcb->m_ssThresh));
        segmentsAcked -= static_cast<uint32_t>((tcb->m_cWnd - before) / tcb->m_segmentSize);
        NS_LOG_INFO("slow start: cwnd " << tcb->m_cWnd << " ssthresh " << tcb->m_ssThresh);
    }

    if (tcb->m_cWnd >= tcb->m_ssThresh && segmentsAcked > 0)
    {
        const uint32_t cubicCnt = CubicCount(tcb);
        const uint32_t segCwnd = std::max<uint32_t>(tcb->GetCwndInSegments(), 1);
        const uint32_t count = IsNonCongestive() ? std::min(cubicCnt, segCwnd) : cubicCnt;
        // Linux's tcp_cong_avoid_ai: one segment per count segments acknowledged.
        m_cWndCnt += segmentsAcked;
        if (m_cWndCnt >= count)
        {
            const uint32_t delta = m_cWndCnt / count;
            m_cWndCnt -= delta * count;
            tcb->m_cWnd += delta * tcb->m_segmentSize;
        }
        NS_LOG_INFO("congestion avoidance: count " << count << " (cubic " << cubicCnt << "), cwnd "
                                                   << tcb->m_cWnd);
    }
}

uint32_t
TcpCvtcp::CubicCount(Ptr<const TcpSocketState> tcb)
{
    const uint32_t segCwnd = std::max<uint32_t>(tcb->GetCwndInSegments(), 1);
    const Time now = Simulator::Now();
    if (m_epochStart == Time::Min())
    {
        m_epochStart = now;
        if (m_lastMaxCwnd <= segCwnd)
        {
            m_k = 0;
            m_originPoint = segCwnd;
        }
        else
        {
            m_k = std::cbrt((m_lastMaxCwnd - segCwnd) / m_c);
            m_originPoint = m_lastMaxCwnd;
        }
        NS_LOG_DEBUG("epoch starts: K " << m_k << " s, origin " << m_originPoint);
    }

    // Aim one RTT ahead, as Linux's Cubic (t + delay_min).
    const Time ahead = m_baseRtt == Time::Max() ? Time(0) : m_baseRtt;
    const double t = (now - m_epochStart + ahead).GetSeconds();
    const double target = m_originPoint + m_c * std::pow(t - m_k, 3);

    // At most 100 cwnd, Linux's count when the target is reached: a target a
    // hair above cwnd would give a count beyond what a uint32_t holds.
    double cnt = 100.0 * segCwnd;
    if (target > segCwnd)
    {
        cnt = std::min(cnt, std::floor(segCwnd / (target - segCwnd)));
    }
    if (m_lastMaxCwnd == 0 && cnt > CNT_CLAMP)
    {
        cnt = CNT_CLAMP;
    }
    NS_LOG_DEBUG("t " << t << " s, target " << target << ", cnt " << cnt);
    return static_cast<uint32_t>(std::max(cnt, 2.0));
}

uint32_t
TcpCvtcp::GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight)
{
    NS_LOG_FUNCTION(this << tcb << bytesInFlight);
    const uint32_t segCwnd = tcb->GetCwndInSegments();
    const bool random = IsNonCongestive();
    const double beta = random ? m_randomLossBeta : m_beta;

    if (!random && m_fastConvergence && segCwnd < m_lastMaxCwnd)
    {
        m_lastMaxCwnd = segCwnd * (1 + m_beta) / 2;
    }
    else
    {
        m_lastMaxCwnd = segCwnd;
    }
    m_epochStart = Time::Min();
    m_cWndCnt = 0;

    const uint32_t ssThresh =
        std::max(static_cast<uint32_t>(segCwnd * beta), 2U) * tcb->m_segmentSize;
    NS_LOG_DEBUG((random ? "random" : "congestion")
                 << " loss at cwnd " << segCwnd << " (diff " << m_diff << "): ssthresh " << ssThresh
                 << ", W_max " << m_lastMaxCwnd);
    return ssThresh;
}

void
TcpCvtcp::CongestionStateSet(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCongState_t newState)
{
    NS_LOG_FUNCTION(this << tcb << newState);
    if (newState == TcpSocketState::CA_LOSS)
    {
        CubicReset();
    }
}

void
TcpCvtcp::CubicReset()
{
    m_lastMaxCwnd = 0;
    m_originPoint = 0;
    m_k = 0;
    m_epochStart = Time::Min();
    m_cWndCnt = 0;
}

} // namespace ns3
