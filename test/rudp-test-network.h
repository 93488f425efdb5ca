/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_TEST_NETWORK_H
#define RUDP_TEST_NETWORK_H

#include "ns3/core-module.h"
#include "ns3/data-rate.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-module.h"

#include <list>
#include <string>
#include <vector>

namespace ns3
{
namespace rudptest
{

/**
 * \ingroup rudp-test
 * \brief Two nodes, a client and a server, on a point-to-point SimpleChannel
 * with RUDP installed and neighbour caches filled (no ARP packets), so that
 * the packets a device receives are exactly the RUDP segments sent to it.
 */
class TestNetwork
{
  public:
    /**
     * \param delay one-way delay
     * \param rate link rate
     */
    explicit TestNetwork(Time delay = MilliSeconds(10), DataRate rate = DataRate("10Mbps"));

    Ptr<Node> Client() const;
    Ptr<Node> Server() const;
    /// \return the server's address and \p port
    InetSocketAddress ServerAddress(uint16_t port) const;

    /// Drops the server's received packets of these indices (0-based).
    void DropAtServer(const std::list<uint32_t>& indices);
    /// Drops the client's received packets of these indices (0-based).
    void DropAtClient(const std::list<uint32_t>& indices);
    /// Puts \p model on the server's receiving device.
    void SetServerErrorModel(Ptr<ErrorModel> model);
    /// Puts \p model on the client's receiving device.
    void SetClientErrorModel(Ptr<ErrorModel> model);

    /// Fixes RUDP's random streams on both nodes (initial sequence numbers).
    void AssignStreams(int64_t stream);

    /// \return a socket on \p node, from its RudpSocketFactory
    static Ptr<RudpSocket> CreateSocket(Ptr<Node> node);

  private:
    NodeContainer m_nodes;
    NetDeviceContainer m_devices;
    Ipv4InterfaceContainer m_interfaces;
};

/// One segment as a socket sent it.
struct SegmentRecord
{
    Time time;         ///< when
    std::string side;  ///< "C" (client) or "S" (server)
    RudpHeader header; ///< its header
    uint32_t length;   ///< payload bytes
};

/**
 * \ingroup rudp-test
 * \brief Records the RUDP segments nodes send (at the IP layer, so that
 * every socket's segments, a forked connection's first SYN|ACK included,
 * are seen), for packet-by-packet assertions.
 */
class SegmentLog
{
  public:
    /// Records what \p node sends, labelled \p side.
    void Watch(Ptr<Node> node, const std::string& side);

    /// \return the segments in the order they were sent
    const std::vector<SegmentRecord>& Segments() const;
    /// \return "C SYN", "S SYN|ACK", "C ACK", "C DATA 1400" ... one per segment
    std::vector<std::string> Summary() const;

  private:
    void Record(std::string side, Ptr<const Packet> packet, Ptr<Ipv4> ipv4, uint32_t interface);

    std::vector<SegmentRecord> m_segments;
};

/**
 * \ingroup rudp-test
 * \brief A listening server socket that accepts one connection and reads
 * everything, and records what it accepted.
 */
class AcceptingServer
{
  public:
    /**
     * \param node the server node
     * \param port the port to listen on
     */
    AcceptingServer(Ptr<Node> node, uint16_t port);

    /// \return the accepted connection, or null
    Ptr<RudpSocket> Connection() const;
    /// \return bytes read from the connection
    uint64_t BytesRead() const;
    /// \return true once the peer closed normally
    bool PeerClosed() const;

  private:
    void Accept(Ptr<Socket> socket, const Address& from);
    void Read(Ptr<Socket> socket);
    void Closed(Ptr<Socket> socket);
    void Errored(Ptr<Socket> socket);

    Ptr<RudpSocket> m_listener;
    Ptr<RudpSocket> m_connection;
    uint64_t m_bytes{0};
    bool m_closed{false};
};

/**
 * \ingroup rudp-test
 * \brief Alters one data segment so that its 16-bit Internet checksum still
 * holds: two different adjacent 16-bit words of the payload change places
 * (a one's-complement sum does not depend on the order of its words), the
 * kind of multi-bit error the checksum misses. It alters the third data
 * segment (of at least 64 payload bytes) its device receives.
 */
class WordSwapErrorModel : public ErrorModel
{
  public:
    /// \return the object TypeId
    static TypeId GetTypeId();

    /// The packets carry a PPP header before IPv4 (a point-to-point device's).
    void SetPppHeader(bool ppp);
    /// \return segments altered (0 or 1)
    uint32_t Altered() const;

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    bool m_ppp{false};
    uint32_t m_dataSegments{0};
    uint32_t m_altered{0};
};

/// \return \p lines joined with ", " (a SegmentLog summary in one message)
std::string Join(const std::vector<std::string>& lines);

} // namespace rudptest
} // namespace ns3

#endif /* RUDP_TEST_NETWORK_H */
