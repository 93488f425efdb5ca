/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CONGESTION_NAMES_H
#define RUDP_CONGESTION_NAMES_H

#include "ns3/object-factory.h"
#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-window
 * \brief The short names of seed 003's congestion controls, in one place.
 *
 * ==========  ==================================================================
 * name        ns-3 congestion control
 * ==========  ==================================================================
 * newreno     ns3::TcpLinuxReno: the seed's Reno baseline (Linux's "reno")
 * reno        ns3::TcpLinuxReno (the same algorithm under Linux's name)
 * cubic       ns3::TcpCubic
 * htcp        ns3::TcpHtcp
 * hybla       ns3::TcpHybla
 * westwood    Westwood+: ns3::TcpWestwoodPlus (ns-3.38 and later), or
 *             ns3::TcpWestwood with ProtocolType=WestwoodPlus (up to ns-3.37)
 * veno        ns3::TcpVeno
 * cvtcp       ns3::TcpCvtcp
 * ==========  ==================================================================
 *
 * The seed's testbed ran Linux, whose "reno" module grows the window per
 * segment acknowledged; ns-3's TcpLinuxReno does the same, whereas ns-3's
 * TcpNewReno grows one segment per ACK in slow start and at most one
 * segment per cwnd ACKs in congestion avoidance, i.e. half as fast with
 * delayed ACKs. The baseline is therefore TcpLinuxReno; ns-3's TcpNewReno
 * stays reachable by its TypeId name. Besides the short names, the TypeId
 * name of any TcpCongestionOps with a constructor (e.g. "ns3::TcpNewReno",
 * "ns3::TcpBic") is accepted as itself.
 */
class RudpCongestionNames
{
  public:
    /// \return the short names, the seed's baseline first
    static const std::vector<std::string>& GetNames();

    /**
     * \param name a short name or a TcpCongestionOps TypeId name
     * \return true if \p name denotes a congestion control this build has
     */
    static bool IsKnown(const std::string& name);

    /**
     * \brief How to make the algorithm: its TypeId and the attributes the name
     * implies (westwood up to ns-3.37: ProtocolType=WestwoodPlus).
     * \param name a short name or a TcpCongestionOps TypeId name (aborts otherwise)
     * \return a factory that creates the algorithm
     */
    static ObjectFactory GetFactory(const std::string& name);

    /**
     * \param name a short name or a TcpCongestionOps TypeId name (aborts otherwise)
     * \return the algorithm's TypeId (without the attributes of GetFactory)
     */
    static TypeId GetTypeId(const std::string& name);

    /**
     * \brief Makes the attributes the name implies the defaults of its TypeId
     * (Config::SetDefault), for what creates algorithms from a TypeId alone:
     * TcpL4Protocol's SocketType, RudpSocket's CongestionOps. Does nothing for
     * names that imply no attributes (all but westwood up to ns-3.37).
     * \param name a short name or a TcpCongestionOps TypeId name (aborts otherwise)
     */
    static void SetDefaults(const std::string& name);
};

/**
 * \ingroup rudp-window
 * \param name a short name (see RudpCongestionNames) or a TcpCongestionOps TypeId name
 * \return the algorithm's TypeId; aborts on an unknown name
 */
TypeId RudpCongestionTypeId(const std::string& name);

} // namespace ns3

#endif /* RUDP_CONGESTION_NAMES_H */
