/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-coupling.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtCoupling");

NS_OBJECT_ENSURE_REGISTERED(RudpCmtCoupling);
NS_OBJECT_ENSURE_REGISTERED(RudpCmtUncoupled);
NS_OBJECT_ENSURE_REGISTERED(RudpLia);
NS_OBJECT_ENSURE_REGISTERED(RudpOlia);
NS_OBJECT_ENSURE_REGISTERED(RudpBalia);
NS_OBJECT_ENSURE_REGISTERED(RudpCmtRpv2);

namespace
{

/// The couplings by short name: the programs' --coupling values.
const std::vector<std::pair<std::string, TypeId (*)()>> SHORT_NAMES{
    {"uncoupled", &RudpCmtUncoupled::GetTypeId},
    {"lia", &RudpLia::GetTypeId},
    {"olia", &RudpOlia::GetTypeId},
    {"balia", &RudpBalia::GetTypeId},
    {"rpv2", &RudpCmtRpv2::GetTypeId},
};

} // namespace

const std::vector<std::string>&
RudpCmtCoupling::GetShortNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all;
        for (const auto& [name, typeId] : SHORT_NAMES)
        {
            all.push_back(name);
        }
        return all;
    }();
    return names;
}

TypeId
RudpCmtCoupling::LookupByShortName(const std::string& name)
{
    for (const auto& [shortName, typeId] : SHORT_NAMES)
    {
        if (shortName == name)
        {
            return typeId();
        }
    }
    NS_ABORT_MSG("RudpCmtCoupling: no coupling is named " << name);
}

TypeId
RudpCmtCoupling::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpCmtCoupling").SetParent<Object>().SetGroupName("Rudp");
    return tid;
}

uint32_t
RudpCmtCoupling::SlowStartIncrease(const std::vector<Path>& /* paths */,
                                   uint32_t /* index */,
                                   uint32_t acked,
                                   uint32_t mss) const
{
    return std::min(acked, mss);
}

double
RudpCmtCoupling::LossReduction(const std::vector<Path>& /* paths */,
                               uint32_t /* index */,
                               double beta) const
{
    return beta;
}

double
RudpCmtCoupling::TimeoutReduction(const std::vector<Path>& /* paths */, uint32_t /* index */) const
{
    return 0.5;
}

bool
RudpCmtCoupling::ReadsPaths() const
{
    return true;
}

bool
RudpCmtCoupling::SlowStartAtThreshold() const
{
    return true;
}

bool
RudpCmtCoupling::MayOvershootWindow() const
{
    return true;
}

double
RudpCmtCoupling::RttSeconds(const Path& path)
{
    return std::max(path.rtt.GetSeconds(), 1e-6); // a zero RTT would divide by zero
}

double
RudpCmtCoupling::Rate(const Path& path)
{
    return path.cwnd / RttSeconds(path);
}

double
RudpCmtCoupling::TotalRate(const std::vector<Path>& paths)
{
    double total = 0;
    for (const Path& path : paths)
    {
        total += Rate(path);
    }
    return total;
}

TypeId
RudpCmtUncoupled::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpCmtUncoupled")
                            .SetParent<RudpCmtCoupling>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpCmtUncoupled>();
    return tid;
}

int64_t
RudpCmtUncoupled::AvoidanceIncrease(const std::vector<Path>& /* paths */,
                                    uint32_t /* index */,
                                    uint32_t mss,
                                    double alpha) const
{
    return std::lround(alpha * mss);
}

bool
RudpCmtUncoupled::ReadsPaths() const
{
    return false; // every path on its own, from the sender's alpha and beta alone
}

TypeId
RudpLia::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpLia")
                            .SetParent<RudpCmtCoupling>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpLia>();
    return tid;
}

double
RudpLia::Aggressiveness(const std::vector<Path>& paths)
{
    double total = 0;
    double best = 0;
    for (const Path& path : paths)
    {
        total += path.cwnd;
        const double rtt = RttSeconds(path);
        best = std::max(best, path.cwnd / (rtt * rtt));
    }
    const double rate = TotalRate(paths);
    return rate > 0 ? total * best / (rate * rate) : 1.0;
}

int64_t
RudpLia::AvoidanceIncrease(const std::vector<Path>& paths,
                           uint32_t index,
                           uint32_t mss,
                           double /* alpha */) const
{
    double total = 0;
    for (const Path& path : paths)
    {
        total += path.cwnd;
    }
    // RFC 6356 (3): per ACK min(a * acked * MSS / total, acked * MSS / cwnd_i),
    // summed over the window's worth of acknowledged bytes the path's cwnd is.
    const double linked = total > 0 ? Aggressiveness(paths) * paths[index].cwnd / total : 1.0;
    return std::lround(std::min(linked, 1.0) * mss);
}

bool
RudpLia::SlowStartAtThreshold() const
{
    return false;
}

bool
RudpLia::MayOvershootWindow() const
{
    return false;
}

TypeId
RudpOlia::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpOlia")
                            .SetParent<RudpCmtCoupling>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpOlia>();
    return tid;
}

double
RudpOlia::Shift(const std::vector<Path>& paths, uint32_t index)
{
    // M: the paths with the largest window; B: the best paths, the largest
    // l^2 / rtt. The shift moves window from M to the best paths not in M.
    uint32_t largest = 0;
    double bestQuality = -1;
    for (const Path& path : paths)
    {
        largest = std::max(largest, path.cwnd);
        const double l = static_cast<double>(path.bytesBetweenLosses);
        bestQuality = std::max(bestQuality, l * l / RttSeconds(path));
    }
    auto inM = [largest](const Path& path) { return path.cwnd == largest; };
    auto inB = [bestQuality](const Path& path) {
        const double l = static_cast<double>(path.bytesBetweenLosses);
        return l * l / RttSeconds(path) >= bestQuality;
    };
    const auto m = static_cast<double>(std::count_if(paths.begin(), paths.end(), inM));
    const auto bNotM =
        static_cast<double>(std::count_if(paths.begin(), paths.end(), [&](const Path& path) {
            return inB(path) && !inM(path);
        }));
    if (bNotM == 0)
    {
        return 0;
    }
    const auto n = static_cast<double>(paths.size());
    const Path& path = paths[index];
    if (inB(path) && !inM(path))
    {
        return 1 / (n * bNotM);
    }
    return inM(path) ? -1 / (n * m) : 0;
}

int64_t
RudpOlia::AvoidanceIncrease(const std::vector<Path>& paths,
                            uint32_t index,
                            uint32_t mss,
                            double /* alpha */) const
{
    // Per ACK (packets): (w_r / rtt_r^2) / (sum_p w_p / rtt_p)^2 + a_r / w_r;
    // over a window of w_r: (w_r / rtt_r)^2 / (sum_p w_p / rtt_p)^2 + a_r.
    const double rate = TotalRate(paths);
    const double own = Rate(paths[index]);
    const double linked = rate > 0 ? own * own / (rate * rate) : 1.0;
    return std::lround((linked + Shift(paths, index)) * mss);
}

bool
RudpOlia::SlowStartAtThreshold() const
{
    return false;
}

bool
RudpOlia::MayOvershootWindow() const
{
    return false;
}

TypeId
RudpBalia::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpBalia")
                            .SetParent<RudpCmtCoupling>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpBalia>();
    return tid;
}

double
RudpBalia::RateRatio(const std::vector<Path>& paths, uint32_t index)
{
    double fastest = 0;
    for (const Path& path : paths)
    {
        fastest = std::max(fastest, Rate(path));
    }
    const double own = Rate(paths[index]);
    return own > 0 ? std::max(1.0, fastest / own) : 1.0;
}

int64_t
RudpBalia::AvoidanceIncrease(const std::vector<Path>& paths,
                             uint32_t index,
                             uint32_t mss,
                             double /* alpha */) const
{
    // Per ACK (packets): (x_r / rtt_r) / (sum_p x_p)^2 ((1 + a) / 2) ((4 + a) / 5);
    // over a window of w_r: (x_r / sum_p x_p)^2 ((1 + a) / 2) ((4 + a) / 5).
    const double rate = TotalRate(paths);
    const double share = rate > 0 ? Rate(paths[index]) / rate : 1.0;
    const double a = RateRatio(paths, index);
    return std::lround(share * share * (1 + a) / 2 * (4 + a) / 5 * mss);
}

double
RudpBalia::LossReduction(const std::vector<Path>& paths, uint32_t index, double beta) const
{
    return std::min(1.0, beta * std::min(RateRatio(paths, index), 1.5));
}

bool
RudpBalia::SlowStartAtThreshold() const
{
    return false;
}

bool
RudpBalia::MayOvershootWindow() const
{
    return false;
}

TypeId
RudpCmtRpv2::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpCmtRpv2")
                            .SetParent<RudpCmtCoupling>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpCmtRpv2>();
    return tid;
}

double
RudpCmtRpv2::Share(const std::vector<Path>& paths, uint32_t index)
{
    const double rate = TotalRate(paths);
    return rate > 0 ? Rate(paths[index]) / rate : 1.0;
}

double
RudpCmtRpv2::HalfOfAll(const std::vector<Path>& paths, uint32_t index, double floor)
{
    const double own = Rate(paths[index]);
    return own > 0 ? std::max(floor, TotalRate(paths) / 2 / own) : floor;
}

uint32_t
RudpCmtRpv2::SlowStartIncrease(const std::vector<Path>& paths,
                               uint32_t index,
                               uint32_t acked,
                               uint32_t mss) const
{
    return static_cast<uint32_t>(std::ceil(std::min(acked, mss) * Share(paths, index)));
}

int64_t
RudpCmtRpv2::AvoidanceIncrease(const std::vector<Path>& paths,
                               uint32_t index,
                               uint32_t mss,
                               double /* alpha */) const
{
    return static_cast<int64_t>(std::ceil(mss * Share(paths, index)));
}

double
RudpCmtRpv2::LossReduction(const std::vector<Path>& paths, uint32_t index, double beta) const
{
    return std::min(1.0, HalfOfAll(paths, index, beta));
}

double
RudpCmtRpv2::TimeoutReduction(const std::vector<Path>& paths, uint32_t index) const
{
    return std::min(1.0, HalfOfAll(paths, index, 0.5));
}

} // namespace ns3
