/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-window-policy.h"

#include "ns3/log.h"

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

bool
RudpWindowPolicy::RetransmitOnCorruption() const
{
    return false;
}

} // namespace ns3
