/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-socket-factory.h"

#include "rudp-socket.h"
#include "rudp-window-policy.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-vector.h"
#include "ns3/type-id.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpSocketFactory");

NS_OBJECT_ENSURE_REGISTERED(RudpSocketFactory);

TypeId
RudpSocketFactory::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RudpSocketFactory")
            .SetParent<SocketFactory>()
            .SetGroupName("Rudp")
            .AddConstructor<RudpSocketFactory>()
            .AddAttribute("SocketList",
                          "The sockets created here and the connections they accepted.",
                          ObjectVectorValue(),
                          MakeObjectVectorAccessor(&RudpSocketFactory::m_sockets),
                          MakeObjectVectorChecker<RudpSocket>())
            .AddAttribute("WindowPolicy",
                          "The WindowPolicy of every socket created here (a RudpWindowPolicy "
                          "or TcpCongestionOps TypeId, e.g. ns3::TcpCubic), as "
                          "TcpL4Protocol's SocketType. ns3::RudpWindowPolicy (the default): "
                          "each socket keeps its own RudpSocket::WindowPolicy.",
                          TypeIdValue(RudpWindowPolicy::GetTypeId()),
                          MakeTypeIdAccessor(&RudpSocketFactory::m_windowPolicy),
                          MakeTypeIdChecker());
    return tid;
}

Ptr<Socket>
RudpSocketFactory::CreateSocket()
{
    NS_LOG_FUNCTION(this);
    Ptr<RudpSocket> socket = CreateObject<RudpSocket>();
    if (m_windowPolicy != RudpWindowPolicy::GetTypeId())
    {
        socket->SetAttribute("WindowPolicy", TypeIdValue(m_windowPolicy));
    }
    socket->SetNode(GetObject<Node>());
    socket->SetIsnRandomVariable(m_isn);
    AddSocket(socket);
    return socket;
}

void
RudpSocketFactory::AddSocket(Ptr<RudpSocket> socket)
{
    m_sockets.push_back(socket);
}

int64_t
RudpSocketFactory::AssignStreams(int64_t stream)
{
    m_isn->SetStream(stream);
    return 1;
}

void
RudpSocketFactory::DoDispose()
{
    for (auto& socket : m_sockets)
    {
        socket->Dispose();
    }
    m_sockets.clear();
    SocketFactory::DoDispose();
}

} // namespace ns3
