/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-congestion-names.h"

#include "../model/rudp-compat.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/string.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-socket-base.h"

#include <optional>
#include <utility>

namespace ns3
{

namespace
{

/// One short name: the TypeId it stands for and the attributes it implies.
struct Entry
{
    std::string name;                                              ///< short name
    std::string typeId;                                            ///< ns-3 TypeId name
    std::vector<std::pair<std::string, std::string>> attributes{}; ///< name, value
};

const std::vector<Entry>&
Table()
{
    static const std::vector<Entry> table
    {
        {"newreno", "ns3::TcpLinuxReno"}, {"reno", "ns3::TcpLinuxReno"}, {"cubic", "ns3::TcpCubic"},
            {"htcp", "ns3::TcpHtcp"}, {"hybla", "ns3::TcpHybla"},
#if RUDP_HAVE_TCP_WESTWOOD_PLUS
            {"westwood", "ns3::TcpWestwoodPlus"},
#else
            {"westwood", "ns3::TcpWestwood", {{"ProtocolType", "WestwoodPlus"}}},
#endif
            {"veno", "ns3::TcpVeno"}, {"cvtcp", "ns3::TcpCvtcp"},
    };
    return table;
}

/// \return the entry of a short name or of a TcpCongestionOps TypeId name, if any
std::optional<Entry>
Find(const std::string& name)
{
    for (const auto& entry : Table())
    {
        if (name == entry.name)
        {
            return entry;
        }
    }
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(name, &tid) || !tid.HasConstructor())
    {
        return std::nullopt;
    }
    // Up to ns-3.42, TcpCubic is registered with the wrong parent (TcpSocketBase;
    // fixed in ns-3.43, commit 192dd4d25): such a TypeId is instantiated to see
    // what it is. Nothing else is created (a name such as ns3::Node must not
    // add a node to the simulation).
    if (tid.IsChildOf(TcpCongestionOps::GetTypeId()) ||
        (tid.IsChildOf(TcpSocketBase::GetTypeId()) &&
         DynamicCast<TcpCongestionOps>(ObjectFactory(name).Create())))
    {
        return Entry{name, name};
    }
    return std::nullopt;
}

/// \return the entry of \p name; aborts if there is none
Entry
Resolve(const std::string& name)
{
    const std::optional<Entry> entry = Find(name);
    NS_ABORT_MSG_UNLESS(entry,
                        "'" << name
                            << "' is neither a congestion-control short name nor the TypeId of a "
                               "TcpCongestionOps");
    return *entry;
}

} // namespace

const std::vector<std::string>&
RudpCongestionNames::GetNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> list;
        for (const auto& entry : Table())
        {
            list.emplace_back(entry.name);
        }
        return list;
    }();
    return names;
}

bool
RudpCongestionNames::IsKnown(const std::string& name)
{
    const std::optional<Entry> entry = Find(name);
    // A short name whose class this build lacks would fail later: check it now.
    TypeId tid;
    return entry && TypeId::LookupByNameFailSafe(entry->typeId, &tid);
}

TypeId
RudpCongestionNames::GetTypeId(const std::string& name)
{
    return TypeId::LookupByName(Resolve(name).typeId);
}

ObjectFactory
RudpCongestionNames::GetFactory(const std::string& name)
{
    const Entry entry = Resolve(name);
    ObjectFactory factory;
    factory.SetTypeId(entry.typeId);
    for (const auto& [attribute, value] : entry.attributes)
    {
        factory.Set(attribute, StringValue(value));
    }
    return factory;
}

void
RudpCongestionNames::SetDefaults(const std::string& name)
{
    const Entry entry = Resolve(name);
    for (const auto& [attribute, value] : entry.attributes)
    {
        Config::SetDefault(entry.typeId + "::" + attribute, StringValue(value));
    }
}

TypeId
RudpCongestionTypeId(const std::string& name)
{
    return RudpCongestionNames::GetTypeId(name);
}

} // namespace ns3
