/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-socket-factory.h"

#include "rudp-cmt-socket.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-vector.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCmtSocketFactory");

NS_OBJECT_ENSURE_REGISTERED(RudpCmtSocketFactory);

TypeId
RudpCmtSocketFactory::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RudpCmtSocketFactory")
            .SetParent<SocketFactory>()
            .SetGroupName("Rudp")
            .AddConstructor<RudpCmtSocketFactory>()
            .AddAttribute("SocketList",
                          "The sockets created here and the associations they accepted.",
                          ObjectVectorValue(),
                          MakeObjectVectorAccessor(&RudpCmtSocketFactory::m_sockets),
                          MakeObjectVectorChecker<RudpCmtSocket>());
    return tid;
}

Ptr<Socket>
RudpCmtSocketFactory::CreateSocket()
{
    NS_LOG_FUNCTION(this);
    Ptr<RudpCmtSocket> socket = CreateObject<RudpCmtSocket>();
    socket->SetNode(GetObject<Node>());
    if (m_heartbeatRandom)
    {
        socket->SetHeartbeatRandomVariable(m_heartbeatRandom);
    }
    AddSocket(socket);
    return socket;
}

int64_t
RudpCmtSocketFactory::AssignStreams(int64_t stream)
{
    // Made here, not at construction: every node with RUDP has a factory,
    // and a variable made for each would shift the automatic stream numbers
    // of the simulation's other variables.
    if (!m_heartbeatRandom)
    {
        m_heartbeatRandom = CreateObject<UniformRandomVariable>();
    }
    m_heartbeatRandom->SetStream(stream);
    for (auto& socket : m_sockets)
    {
        socket->SetHeartbeatRandomVariable(m_heartbeatRandom);
    }
    return 1;
}

void
RudpCmtSocketFactory::AddSocket(Ptr<RudpCmtSocket> socket)
{
    m_sockets.push_back(socket);
}

void
RudpCmtSocketFactory::SetBackup(Ipv4Address local, bool backup)
{
    if (backup)
    {
        m_backups.insert(local);
    }
    else
    {
        m_backups.erase(local);
    }
}

bool
RudpCmtSocketFactory::IsBackup(Ipv4Address local) const
{
    return m_backups.count(local) > 0;
}

void
RudpCmtSocketFactory::DoDispose()
{
    for (auto& socket : m_sockets)
    {
        socket->Dispose();
    }
    m_sockets.clear();
    m_heartbeatRandom = nullptr;
    SocketFactory::DoDispose();
}

} // namespace ns3
