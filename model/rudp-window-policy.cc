/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-window-policy.h"

#include "rudp-tcp-congestion-adapter.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpWindowPolicy");

NS_OBJECT_ENSURE_REGISTERED(RudpWindowPolicy);

TypeId
RudpWindowPolicy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RudpWindowPolicy").SetParent<Object>().SetGroupName("Rudp");
    return tid;
}

Ptr<RudpWindowPolicy>
RudpWindowPolicy::Create(TypeId tid, const std::string& attribute)
{
    NS_LOG_FUNCTION(tid.GetName() << attribute);
    NS_ABORT_MSG_UNLESS(tid.HasConstructor(),
                        attribute << ": " << tid.GetName()
                                  << " has no constructor: name a RudpWindowPolicy or a "
                                     "TcpCongestionOps");
    // Cast the instance rather than test the TypeId: up to ns-3.42, TcpCubic
    // is registered with the wrong parent, TcpSocketBase (ns-3.43 commit
    // 192dd4d25 fixed it).
    const Ptr<Object> object = ObjectFactory(tid.GetName()).Create();
    if (const Ptr<RudpWindowPolicy> policy = DynamicCast<RudpWindowPolicy>(object))
    {
        return policy;
    }
    const Ptr<TcpCongestionOps> ops = DynamicCast<TcpCongestionOps>(object);
    NS_ABORT_MSG_UNLESS(ops,
                        attribute << ": " << tid.GetName()
                                  << " is neither a RudpWindowPolicy nor a TcpCongestionOps");
    NS_ABORT_MSG_IF(ops->HasCongControl(),
                    attribute << ": " << ops->GetName()
                              << " replaces TCP's control loop (CongControl) and needs TCP's "
                                 "rate sampling, which RUDP does not have");
    Ptr<RudpTcpCongestionAdapter> adapter = CreateObject<RudpTcpCongestionAdapter>();
    adapter->SetCongestionOps(ops);
    return adapter;
}

bool
RudpWindowPolicy::RetransmitOnCorruption() const
{
    return false;
}

} // namespace ns3
