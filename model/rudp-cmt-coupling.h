/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_COUPLING_H
#define RUDP_CMT_COUPLING_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \brief How the paths of a CMT association grow and cut their windows
 * together: coupled congestion control, chosen by TypeId with
 * RudpCmtSender's Coupling attribute.
 *
 * A path keeps SCTP's rules for when its window changes (slow start while
 * cwnd <= ssthresh, one increase per window of acknowledged data in
 * congestion avoidance, a cut per loss, a collapse per timeout); a coupling
 * says by how much, from every path's window and RTT. RudpCmtUncoupled is
 * CMT's own rule, each path a Reno of its own; RudpLia (RFC 6356),
 * RudpOlia (Khalili et al., IEEE/ACM ToN 2013), RudpBalia (Peng et al.,
 * IEEE/ACM ToN 2016) and RudpCmtRpv2 (Dreibholz
 * et al.'s resource-pooling CMT/RPv2) couple the paths, so that a
 * multipath association sharing a bottleneck with a single-path flow takes
 * about what that flow takes.
 *
 * The programs name them by short names (--coupling), from one table
 * (GetShortNames): uncoupled, lia, olia, balia and rpv2.
 */
class RudpCmtCoupling : public Object
{
  public:
    /// \return the couplings' short names, the default (uncoupled) first
    static const std::vector<std::string>& GetShortNames();
    /**
     * \param name a short name (GetShortNames; aborts otherwise)
     * \return the coupling's TypeId
     */
    static TypeId LookupByShortName(const std::string& name);

    /// A path as a coupling sees it.
    struct Path
    {
        uint32_t cwnd{0};               ///< congestion window (bytes)
        Time rtt;                       ///< smoothed RTT (its RTO before the first sample)
        uint64_t bytesBetweenLosses{0}; ///< OLIA's l: the larger of the bytes acknowledged
                                        ///< between its last two losses and since the last
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param paths the association's paths that carry data (\p index among them)
     * \param index the path whose window grows
     * \param acked bytes newly acknowledged on it
     * \param mss its segment size (bytes)
     * \return bytes its window gains in slow start (RFC 4960: min(acked, MSS))
     */
    virtual uint32_t SlowStartIncrease(const std::vector<Path>& paths,
                                       uint32_t index,
                                       uint32_t acked,
                                       uint32_t mss) const;
    /**
     * \param paths the association's paths that carry data
     * \param index the path whose window's worth of data was acknowledged
     * \param mss its segment size (bytes)
     * \param alpha the sender's additive increase (MSS per window; the seed's alpha)
     * \return bytes its window gains (or loses, if negative) in congestion avoidance
     */
    virtual int64_t AvoidanceIncrease(const std::vector<Path>& paths,
                                      uint32_t index,
                                      uint32_t mss,
                                      double alpha) const = 0;
    /**
     * \param paths the association's paths that carry data
     * \param index the path that lost a segment
     * \param beta the sender's multiplicative decrease
     * \return the fraction of its window a loss takes away (ssthresh = the rest)
     */
    virtual double LossReduction(const std::vector<Path>& paths, uint32_t index, double beta) const;
    /**
     * \param paths the association's paths that carry data
     * \param index the path whose timer expired
     * \return the fraction of its window a timeout takes from ssthresh (cwnd is 1 MSS)
     */
    virtual double TimeoutReduction(const std::vector<Path>& paths, uint32_t index) const;
    /**
     * \return false if no method of this coupling reads its \p paths or
     *         \p index: the sender then gives it no view of the paths
     *         (an empty one), which it would otherwise build on every SACK
     */
    virtual bool ReadsPaths() const;
    /**
     * \return whether a path's window equal to its ssthresh is still in slow
     *         start: SCTP's rule (RFC 4960 7.2.1), true here; TCP's (RFC
     *         5681), false, for the couplings designed against TCP
     *         (RudpCmtPath::SetSlowStartAtThreshold)
     */
    virtual bool SlowStartAtThreshold() const;
    /**
     * \return whether a path may send a packet that takes it past its window
     *         by less than one packet while it has less than its window
     *         outstanding: SCTP's rule (RFC 4960 and 9260 6.1 B), true
     *         here; TCP's (RFC 5681: what is outstanding never exceeds
     *         cwnd), false, for the couplings designed against TCP
     *         (RudpCmtPath::SetMayOvershootWindow)
     */
    virtual bool MayOvershootWindow() const;

  protected:
    /// \return sum over \p paths of cwnd / RTT (bytes per second)
    static double TotalRate(const std::vector<Path>& paths);
    /// \return the path's cwnd / RTT (bytes per second)
    static double Rate(const Path& path);
    /// \return the path's RTT in seconds (at least a microsecond)
    static double RttSeconds(const Path& path);
};

/**
 * \ingroup rudp-cmt
 * \brief CMT's own congestion control: every path on its own, alpha MSS per
 * window in congestion avoidance, the window cut by beta on a loss.
 */
class RudpCmtUncoupled : public RudpCmtCoupling
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    int64_t AvoidanceIncrease(const std::vector<Path>& paths,
                              uint32_t index,
                              uint32_t mss,
                              double alpha) const override;
    bool ReadsPaths() const override;
};

/**
 * \ingroup rudp-cmt
 * \brief RFC 6356's Linked Increases Algorithm (MPTCP's LIA): in congestion
 * avoidance, per window of path i, min(a * cwnd_i / cwnd_total, 1) MSS, where
 * a = cwnd_total * max_p(cwnd_p / rtt_p^2) / (sum_p cwnd_p / rtt_p)^2; slow
 * start and cuts as one path's.
 */
class RudpLia : public RudpCmtCoupling
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    int64_t AvoidanceIncrease(const std::vector<Path>& paths,
                              uint32_t index,
                              uint32_t mss,
                              double alpha) const override;
    /// \return false: RFC 6356's TCP, whose coupled increase starts at ssthresh
    bool SlowStartAtThreshold() const override;
    /// \return false: RFC 6356's TCP, whose packets fit in the window
    bool MayOvershootWindow() const override;
    /**
     * \param paths the association's paths that carry data
     * \return RFC 6356's alpha
     */
    static double Aggressiveness(const std::vector<Path>& paths);
};

/**
 * \ingroup rudp-cmt
 * \brief OLIA, the Opportunistic Linked Increases Algorithm (Khalili, Gast,
 * Popovic, Le Boudec, IEEE/ACM ToN 2013): in congestion avoidance, per window
 * of path r, ((cwnd_r / rtt_r)^2 / (sum_p cwnd_p / rtt_p)^2 + a_r) MSS, where
 * a_r moves window from the paths with the largest windows to the best paths
 * (largest l_p^2 / rtt_p, l_p the bytes between losses) that do not have
 * one: a_r = 1 / (n |B\M|) on B\M, -1 / (n |M|) on M, 0 elsewhere, and 0
 * everywhere if B\M is empty. Slow start and cuts as one path's.
 */
class RudpOlia : public RudpCmtCoupling
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    int64_t AvoidanceIncrease(const std::vector<Path>& paths,
                              uint32_t index,
                              uint32_t mss,
                              double alpha) const override;
    /// \return false: RFC 6356's TCP, whose coupled increase starts at ssthresh
    bool SlowStartAtThreshold() const override;
    /// \return false: RFC 6356's TCP, whose packets fit in the window
    bool MayOvershootWindow() const override;
    /**
     * \param paths the association's paths that carry data
     * \param index a path
     * \return OLIA's a_r of path \p index
     */
    static double Shift(const std::vector<Path>& paths, uint32_t index);
};

/**
 * \ingroup rudp-cmt
 * \brief Balia, the Balanced Linked Adaptation algorithm (Peng, Walid, Hwang,
 * Low, IEEE/ACM ToN 2016; Linux MPTCP's "balia"): with x_p = cwnd_p / rtt_p
 * and a_r = max_p x_p / x_r, in congestion avoidance, per window of path r,
 * (x_r^2 / (sum_p x_p)^2) ((1 + a_r) / 2) ((4 + a_r) / 5) MSS, and a loss
 * takes away beta min(a_r, 1.5) of its window (half to three quarters with
 * beta 1/2): a path slower than the fastest grows faster than OLIA's and
 * LIA's would and gives up more of its window, a coupled cut between LIA's
 * and the association's own. With one path, TCP's Reno. Slow start as one
 * path's, TCP's rules for the window (SlowStartAtThreshold and
 * MayOvershootWindow false).
 */
class RudpBalia : public RudpCmtCoupling
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    int64_t AvoidanceIncrease(const std::vector<Path>& paths,
                              uint32_t index,
                              uint32_t mss,
                              double alpha) const override;
    double LossReduction(const std::vector<Path>& paths,
                         uint32_t index,
                         double beta) const override;
    /// \return false: RFC 6356's TCP, whose coupled increase starts at ssthresh
    bool SlowStartAtThreshold() const override;
    /// \return false: RFC 6356's TCP, whose packets fit in the window
    bool MayOvershootWindow() const override;
    /**
     * \param paths the association's paths that carry data
     * \param index a path
     * \return Balia's a_r of path \p index: the fastest path's rate over its
     *         own (at least 1)
     */
    static double RateRatio(const std::vector<Path>& paths, uint32_t index);
};

/**
 * \ingroup rudp-cmt
 * \brief CMT/RPv2, resource-pooling CMT with the paths' bandwidths
 * (Dreibholz, Becke, Adhari, Rathgeb, 2011; OMNeT++ INET's cmtCCVariant
 * "cmtrpv2"): a path grows by its share of the association's rate, r_i =
 * (cwnd_i / rtt_i) / sum_p (cwnd_p / rtt_p), in slow start (r_i min(acked,
 * MSS)) and in congestion avoidance (r_i MSS per window), and a loss takes
 * away max(beta, half the association's rate over the path's) of its
 * window, so that the association as a whole halves.
 */
class RudpCmtRpv2 : public RudpCmtCoupling
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    uint32_t SlowStartIncrease(const std::vector<Path>& paths,
                               uint32_t index,
                               uint32_t acked,
                               uint32_t mss) const override;
    int64_t AvoidanceIncrease(const std::vector<Path>& paths,
                              uint32_t index,
                              uint32_t mss,
                              double alpha) const override;
    double LossReduction(const std::vector<Path>& paths,
                         uint32_t index,
                         double beta) const override;
    double TimeoutReduction(const std::vector<Path>& paths, uint32_t index) const override;

  private:
    /// \return the path's share of the association's rate
    static double Share(const std::vector<Path>& paths, uint32_t index);
    /// \return the fraction half the association's rate is of the path's (at least \p floor)
    static double HalfOfAll(const std::vector<Path>& paths, uint32_t index, double floor);
};

} // namespace ns3

#endif /* RUDP_CMT_COUPLING_H */
