/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_RELAY_H
#define RUDP_RELAY_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <deque>

namespace ns3
{

class Packet;
class Socket;

/**
 * \ingroup rudp-impairments
 * \brief Seed 000's "router": a UDP relay between a client and a server that
 * drops client-to-server datagrams with probability Loss and delays them by
 * Delay, and passes server-to-client datagrams untouched.
 *
 * The client sends to the relay's port; the relay forwards to Server from
 * that same port, and the server's answers back to the client it last heard
 * from. Two ways to spend the delay:
 *
 * - Delay: each datagram is delayed by Delay on its own, as a link would.
 * - Sleeping: as the seed's single-threaded Python router, which slept Delay
 *   for each datagram it forwarded: one datagram at a time, so the relay
 *   forwards at most one client datagram per Delay; meanwhile arriving
 *   datagrams wait in its UDP socket's receive buffer (ReceiveBuffer bytes),
 *   and what does not fit is lost. Server datagrams wait their turn too, but
 *   are forwarded without sleeping.
 *
 * A dropped datagram costs no time in either mode: the seed decided before
 * sleeping.
 */
class RudpRelay : public Application
{
  public:
    /// How the relay spends its delay.
    enum Mode
    {
        DELAY,    ///< every datagram delayed independently
        SLEEPING, ///< one datagram at a time, Delay each (the seed's router)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpRelay();
    ~RudpRelay() override;

    /**
     * \brief Assigns a fixed random variable stream number.
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

    /// \return client datagrams forwarded to the server
    uint64_t GetForwardedToServer() const;
    /// \return client datagrams dropped on purpose (Loss)
    uint64_t GetDropped() const;
    /// \return mean time a forwarded client datagram spent in the relay
    Time GetMeanResidence() const;
    /// \return datagrams lost because the relay's receive buffer was full
    uint64_t GetOverflowDropped() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void HandleRead(Ptr<Socket> socket);
    /// Handles one datagram; \return false if the relay is now busy sleeping
    bool Relay(Ptr<Packet> packet, const Address& from);
    void Forward(Ptr<Packet> packet, Address to, Time arrival);
    void WakeUp(Ptr<Packet> packet, Address to, Time arrival);
    void Overflow(Ptr<const Packet> packet);

    uint16_t m_port{3333};
    Address m_server;
    double m_loss{0};
    Time m_delay;
    Mode m_mode{DELAY};
    uint32_t m_receiveBuffer{8192};

    Ptr<Socket> m_socket;
    Ptr<UniformRandomVariable> m_random;
    Address m_client;
    bool m_sleeping{false};
    EventId m_wakeUp;
    uint64_t m_forwarded{0};
    uint64_t m_dropped{0};
    uint64_t m_overflowDropped{0};
    Time m_residenceSum;

    TracedCallback<Ptr<const Packet>> m_dropTrace;
};

} // namespace ns3

#endif /* RUDP_RELAY_H */
