/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-path-manager.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtPathManager");

NS_OBJECT_ENSURE_REGISTERED(RudpCmtPathManager);
NS_OBJECT_ENSURE_REGISTERED(RudpSctpPaths);
NS_OBJECT_ENSURE_REGISTERED(RudpFullMesh);

bool
operator==(const RudpCmtPathEnds& a, const RudpCmtPathEnds& b)
{
    return a.local == b.local && a.peer == b.peer;
}

TypeId
RudpCmtPathManager::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpCmtPathManager").SetParent<Object>().SetGroupName("Rudp");
    return tid;
}

TypeId
RudpSctpPaths::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpSctpPaths")
                            .SetParent<RudpCmtPathManager>()
                            .SetGroupName("Rudp")
                            .AddConstructor<RudpSctpPaths>();
    return tid;
}

std::vector<RudpCmtPathEnds>
RudpSctpPaths::Paths(const std::vector<Ipv4Address>& /* locals */,
                     const std::vector<Ipv4Address>& peers) const
{
    std::vector<RudpCmtPathEnds> paths;
    for (const Ipv4Address& peer : peers)
    {
        paths.push_back({Ipv4Address::GetAny(), peer});
    }
    return paths;
}

TypeId
RudpFullMesh::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RudpFullMesh")
            .SetParent<RudpCmtPathManager>()
            .SetGroupName("Rudp")
            .AddConstructor<RudpFullMesh>()
            .AddAttribute("MaxPaths",
                          "The most paths an association opens (Linux MPTCP's full mesh "
                          "allows 8 subflows by default; 1..256).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&RudpFullMesh::m_maxPaths),
                          MakeUintegerChecker<uint32_t>(1, 256));
    return tid;
}

std::vector<RudpCmtPathEnds>
RudpFullMesh::Paths(const std::vector<Ipv4Address>& locals,
                    const std::vector<Ipv4Address>& peers) const
{
    std::vector<RudpCmtPathEnds> paths;
    for (const Ipv4Address& peer : peers)
    {
        for (const Ipv4Address& local : locals)
        {
            if (paths.size() < m_maxPaths)
            {
                paths.push_back({local, peer});
            }
        }
    }
    return paths;
}

} // namespace ns3
