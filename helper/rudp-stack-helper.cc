/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-stack-helper.h"

#include "ns3/abort.h"
#include "ns3/node.h"
#include "ns3/rudp-cmt-socket-factory.h"
#include "ns3/rudp-socket-factory.h"
#include "ns3/udp-socket-factory.h"

namespace ns3
{

void
RudpStackHelper::Install(NodeContainer nodes) const
{
    for (auto node = nodes.Begin(); node != nodes.End(); ++node)
    {
        Install(*node);
    }
}

void
RudpStackHelper::Install(Ptr<Node> node) const
{
    NS_ABORT_MSG_UNLESS(node->GetObject<UdpSocketFactory>(),
                        "node " << node->GetId()
                                << " has no UDP: install the Internet stack before RUDP");
    if (!node->GetObject<RudpSocketFactory>())
    {
        node->AggregateObject(CreateObject<RudpSocketFactory>());
    }
    if (!node->GetObject<RudpCmtSocketFactory>())
    {
        node->AggregateObject(CreateObject<RudpCmtSocketFactory>());
    }
}

int64_t
RudpStackHelper::AssignStreams(NodeContainer nodes, int64_t stream) const
{
    int64_t assigned = 0;
    for (auto node = nodes.Begin(); node != nodes.End(); ++node)
    {
        Ptr<RudpSocketFactory> factory = (*node)->GetObject<RudpSocketFactory>();
        Ptr<RudpCmtSocketFactory> cmtFactory = (*node)->GetObject<RudpCmtSocketFactory>();
        NS_ABORT_MSG_UNLESS(factory && cmtFactory,
                            "node " << (*node)->GetId() << " has no RUDP: Install first");
        assigned += factory->AssignStreams(stream + assigned);
        assigned += cmtFactory->AssignStreams(stream + assigned);
    }
    return assigned;
}

} // namespace ns3
