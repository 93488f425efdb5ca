/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-socket-factory.h"

#include "rudp-socket.h"

#include "ns3/node.h"
#include "ns3/object-vector.h"

namespace ns3
{

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
                          MakeObjectVectorChecker<RudpSocket>());
    return tid;
}

Ptr<Socket>
RudpSocketFactory::CreateSocket()
{
    Ptr<RudpSocket> socket = CreateObject<RudpSocket>();
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
