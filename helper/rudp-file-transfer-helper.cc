/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-file-transfer-helper.h"

#include "ns3/application.h"
#include "ns3/node.h"
#include "ns3/rudp-file-receiver.h"
#include "ns3/rudp-file-sender.h"
#include "ns3/string.h"

namespace ns3
{

RudpApplicationHelper::RudpApplicationHelper(TypeId tid)
{
    m_factory.SetTypeId(tid);
}

void
RudpApplicationHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
RudpApplicationHelper::Install(NodeContainer nodes) const
{
    ApplicationContainer apps;
    for (auto node = nodes.Begin(); node != nodes.End(); ++node)
    {
        apps.Add(Install(*node));
    }
    return apps;
}

ApplicationContainer
RudpApplicationHelper::Install(Ptr<Node> node) const
{
    Ptr<Application> app = m_factory.Create<Application>();
    node->AddApplication(app);
    return ApplicationContainer(app);
}

RudpFileSenderHelper::RudpFileSenderHelper(const std::string& protocol, const Address& remote)
    : RudpApplicationHelper(RudpFileSender::GetTypeId())
{
    SetAttribute("Protocol", StringValue(protocol));
    SetAttribute("Remote", AddressValue(remote));
}

RudpFileReceiverHelper::RudpFileReceiverHelper(const std::string& protocol, const Address& local)
    : RudpApplicationHelper(RudpFileReceiver::GetTypeId())
{
    SetAttribute("Protocol", StringValue(protocol));
    SetAttribute("Local", AddressValue(local));
}

} // namespace ns3
