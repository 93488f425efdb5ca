/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_ENGINE_APPLICATION_H
#define RUDP_CMT_ENGINE_APPLICATION_H

#include "rudp-forwarding.h"

#include "ns3/abort.h"
#include "ns3/application.h"
#include "ns3/inet-socket-address.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \brief What seed 002's two applications (RudpCmtSender, RudpCmtReceiver)
 * share: an engine of one end of the association, a UDP socket that hands
 * it every datagram, the engine halted when the application stops, and the
 * engine's attributes and trace sources offered as the application's own.
 * \tparam Engine RudpCmtSendEngine or RudpCmtReceiveEngine
 */
template <typename Engine>
class RudpCmtEngineApplication : public Application
{
  public:
    /// \return the association's end, whose attributes are this application's
    Ptr<Engine> GetEngine() const
    {
        return m_engine;
    }

    /// \return what the association has done so far (the engine's counters)
    typename Engine::Stats GetStats() const
    {
        return m_engine->GetStats();
    }

    /**
     * \brief Adds to an application's TypeId its Engine attribute and every
     * attribute and trace source of the engine (RudpForwarding).
     * \param tid the application's TypeId, being built
     * \return \p tid
     */
    static TypeId OfferEngine(TypeId tid)
    {
        tid.AddAttribute("Engine",
                         "The association's end (its attributes are this application's).",
                         PointerValue(),
                         MakePointerAccessor(&RudpCmtEngineApplication::m_engine),
                         MakePointerChecker<Engine>());
        RudpForwarding::Rule rule;
        rule.resolve = &EngineOf;
        rule.targets = [](const TypeId::AttributeInformation&) -> uint8_t { return 1; };
        RudpForwarding::Add(tid, Engine::GetTypeId(), 1, rule);
        return tid;
    }

  protected:
    RudpCmtEngineApplication()
        : m_engine(CreateObject<Engine>())
    {
    }

    void DoDispose() override
    {
        m_engine->Dispose();
        m_socket = nullptr;
        Application::DoDispose();
    }

    /**
     * \brief Opens the UDP socket on \p port, whose datagrams go to the engine.
     * \param port the local port (0: any free one)
     * \param attribute the port's attribute, for the message if it is taken
     * \return the socket
     */
    Ptr<Socket> OpenSocket(uint16_t port, const std::string& attribute)
    {
        m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), port)) != 0,
                        attribute << ": cannot bind " << port);
        m_socket->SetRecvCallback(MakeCallback(&RudpCmtEngineApplication::HandleRead, this));
        return m_socket;
    }

    void StopApplication() override
    {
        m_engine->Halt();
        if (m_socket)
        {
            m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
            m_socket->Close();
        }
    }

    Ptr<Engine> m_engine; ///< the association's end

  private:
    /// The engine of the application \p object (RudpForwarding's resolver).
    static std::vector<Ptr<Object>> EngineOf(const ObjectBase* object, uint8_t /* which */)
    {
        const auto* application = dynamic_cast<const RudpCmtEngineApplication*>(object);
        return application ? std::vector<Ptr<Object>>{application->m_engine}
                           : std::vector<Ptr<Object>>{};
    }

    /// Hands every datagram waiting on \p socket to the engine.
    void HandleRead(Ptr<Socket> socket)
    {
        Address from;
        while (Ptr<Packet> packet = socket->RecvFrom(from))
        {
            m_engine->ReceiveDatagram(packet, from);
        }
    }

    Ptr<Socket> m_socket; ///< the UDP socket
};

} // namespace ns3

#endif /* RUDP_CMT_ENGINE_APPLICATION_H */
