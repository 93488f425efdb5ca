/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_FILE_TRANSFER_HELPER_H
#define RUDP_FILE_TRANSFER_HELPER_H

#include "ns3/address.h"
#include "ns3/application-container.h"
#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-apps
 * \brief Installs one kind of application, configured through its
 * attributes, on nodes: the part RudpFileSenderHelper and
 * RudpFileReceiverHelper share (ns-3.37 has no ApplicationHelper).
 */
class RudpApplicationHelper
{
  public:
    /// Sets an attribute of every application installed afterwards.
    void SetAttribute(const std::string& name, const AttributeValue& value);
    /// \return one application per node
    ApplicationContainer Install(NodeContainer nodes) const;
    /// \return the application installed on \p node
    ApplicationContainer Install(Ptr<Node> node) const;

  protected:
    /// \param tid the application's TypeId
    explicit RudpApplicationHelper(TypeId tid);

  private:
    ObjectFactory m_factory;
};

/**
 * \ingroup rudp-apps
 * \brief Installs RudpFileSender, as BulkSendHelper installs
 * BulkSendApplication.
 */
class RudpFileSenderHelper : public RudpApplicationHelper
{
  public:
    /**
     * \param protocol the socket factory, e.g. "ns3::RudpSocketFactory"
     * \param remote the receiver's address
     */
    RudpFileSenderHelper(const std::string& protocol, const Address& remote);
};

/**
 * \ingroup rudp-apps
 * \brief Installs RudpFileReceiver, as PacketSinkHelper installs PacketSink.
 */
class RudpFileReceiverHelper : public RudpApplicationHelper
{
  public:
    /**
     * \param protocol the socket factory, e.g. "ns3::RudpSocketFactory"
     * \param local the address to listen on
     */
    RudpFileReceiverHelper(const std::string& protocol, const Address& local);
};

class NetemQueueDisc;
class RudpCorruptionErrorModel;
class RudpRelay;

/**
 * \ingroup rudp-apps
 * \brief Builds seed 000's path: a client, a router and a server in a row,
 * the router impairing what the client sends; or several such paths side by
 * side, for a multipath association (SetPaths).
 *
 * \verbatim
   client ---- link ---- router ---- link (delay) ---- server
    10.1.1.1       10.1.1.2 10.1.2.1              10.1.2.2
      |                                                 |
      +------ link ---- router 1 ---- link (delay) -----+   (SetPaths(2) and more)
    10.2.1.1       10.2.1.2 10.2.2.1              10.2.2.2
   \endverbatim
 *
 * Both links are CSMA (half duplex: a channel busy while a frame
 * propagates) or point-to-point (full duplex), of one rate and MTU. The
 * router impairs the path in one of the seed's ways (SetRouter):
 * - NONE (the design card's): it forwards IP packets; a RateErrorModel
 *   (loss) or a RudpCorruptionErrorModel (SetCorruption) on the server's
 *   receiving device hits client-to-server datagrams, and the delay is the
 *   router-server link's, so ACKs see it too;
 * - DELAY or SLEEPING (the seed's router): a RudpRelay on the router (port
 *   3333) drops client-to-server datagrams with the loss probability and
 *   delays them, each on its own (DELAY) or one at a time as the seed's
 *   single-threaded router did (SLEEPING); the client sends to the relay
 *   (GetClientRemote).
 * With SetNetem, a NetemQueueDisc on the router's egress towards the server
 * (delay, jitter, reordering, duplication) and one towards the client (ACK
 * loss), a blackout on both; ARP entries then die at once (DeadTimeout 0),
 * as a lost ARP exchange costs in Linux.
 *
 * With SetPaths(n), path p (from 0) is a copy of the first through router p,
 * on the subnets 10.(p+1).1.0/24 and 10.(p+1).2.0/24, with the same links,
 * delay and impairments, each its own error model and netem discs drawing
 * their own random numbers (the relay is single-path only). The global
 * routing sends what goes to the server's address on path p by router p,
 * so that an association to the server (RudpCmtSocket, SCTP's paths: one
 * per server address) has one path through each router. Netem's blackout
 * darkens every path at once; Netem::pathBlackouts darken one path each.
 *
 * Every node has an Internet stack and RUDP (RudpStackHelper); routes by
 * Ipv4GlobalRoutingHelper. The file applications are the caller's: a
 * RudpFileReceiverHelper on GetServer() listening on GetServerAddress()'s
 * port, a RudpFileSenderHelper on GetClient() sending to GetClientRemote().
 */
class RudpFileTransferHelper
{
  public:
    /// The links' kind.
    enum Link
    {
        CSMA,           ///< CsmaHelper: half duplex, MTU up to 1500
        POINT_TO_POINT, ///< PointToPointHelper: full duplex, MTU up to 65535
    };

    /// How the router impairs the path.
    enum Router
    {
        NONE,     ///< error models on the server's device, the delay on its link
        DELAY,    ///< a RudpRelay delaying each datagram on its own
        SLEEPING, ///< a RudpRelay serving one datagram per delay (the seed's)
    };

    /// A blackout of one path: every datagram entering its router lost, either way.
    struct PathBlackout
    {
        uint32_t path{0}; ///< the path's index, from 0
        Time start;       ///< when it starts
        Time duration;    ///< how long it lasts
    };

    /// Linux netem on the router (tc qdisc ... netem), none by default.
    struct Netem
    {
        Time delay;            ///< netem's delay D on client-to-server datagrams
        Time jitter;           ///< netem's jitter J: their delay is uniform in [D - J, D + J)
        double reorder{0};     ///< probability a datagram skips the delay (needs D or J)
        double duplicate{0};   ///< probability a datagram is sent twice
        double ackLoss{0};     ///< probability a server-to-client datagram is lost
        Time blackoutStart;    ///< start of a blackout: every datagram lost, either way
        Time blackoutDuration; ///< its length (0: none)
        uint32_t limit{1000};  ///< each disc's queue limit, packets
        /// blackouts of single paths, on top of the one of every path (they may overlap)
        std::vector<PathBlackout> pathBlackouts;

        /// \return true if any impairment is asked for
        bool IsUsed() const;
        /// \return the delay D, or J when only a jitter is given ("delay J J")
        Time BaseDelay() const;
    };

    RudpFileTransferHelper();

    /**
     * \brief Sets both links.
     * \param link CSMA or POINT_TO_POINT
     * \param rate their data rate
     * \param mtu their MTU (bytes)
     */
    void SetLink(Link link, DataRate rate, uint32_t mtu);
    /**
     * \brief Sets how the router impairs client-to-server datagrams.
     * \param router NONE, DELAY or SLEEPING
     * \param delay their one-way delay (NONE: the router-server link's)
     * \param loss the probability that one is lost
     */
    void SetRouter(Router router, Time delay, double loss);
    /**
     * \brief Corrupts client-to-server datagrams instead of dropping them
     * (Router NONE's error model).
     * \param rate the probability that a datagram is corrupted
     * \param bitsPerPacket distinct bits flipped in a corrupted one
     */
    void SetCorruption(double rate, uint32_t bitsPerPacket);
    /// \param netem the netem impairments on the router
    void SetNetem(const Netem& netem);
    /**
     * \brief Sets how many disjoint paths join the client and the server.
     * \param paths 1 (seed 000's path, the default) to 8; above 1 the
     * router impairs by NONE only
     */
    void SetPaths(uint32_t paths);

    /// Builds the nodes, links, stacks, addresses, routes and impairments.
    void Install();
    /**
     * \brief Fixes the random streams: the loss model gets \p stream, the
     * corruption model \p stream + 1, the relay + 2, the nodes' RUDP
     * stacks + 10 onwards (two a node, RudpStackHelper::AssignStreams),
     * netem's discs + 100 and + 110; path p's models and discs those + 120
     * p. Call it after Install.
     * \param stream the first stream index
     * \return the number of stream indices the helper may use (120 per path)
     */
    int64_t AssignStreams(int64_t stream);
    /**
     * \brief Writes a pcap file per device of the links (nothing if
     * \p prefix is empty). Call it after Install.
     * \param prefix the files' prefix
     */
    void EnablePcapAll(const std::string& prefix) const;

    /// \return the client, router and server, then the routers of the paths after the first
    NodeContainer GetNodes() const;
    /// \return the client
    Ptr<Node> GetClient() const;
    /// \return the router (the first path's)
    Ptr<Node> GetRouter() const;
    /// \return the server
    Ptr<Node> GetServer() const;
    /// \return the number of paths (SetPaths)
    uint32_t GetNPaths() const;
    /// \return the client's address (on the first path)
    Ipv4Address GetClientAddress() const;
    /// \return the client's address on path \p path
    Ipv4Address GetClientAddress(uint32_t path) const;
    /// \return the server's address on path \p path
    Ipv4Address GetServerAddress(uint32_t path) const;
    /// \return the server's address (on the first path) and the port its receiver listens on
    /// (2222, the seed's)
    InetSocketAddress GetServerAddress() const;
    /// \return where the client sends: the relay's address (port 3333) or the server's
    Address GetClientRemote() const;
    /// \return the relay (Router DELAY or SLEEPING; else null)
    Ptr<RudpRelay> GetRelay() const;
    /// \return netem's disc towards the server on path \p path (SetNetem; else null)
    Ptr<NetemQueueDisc> GetDataNetem(uint32_t path = 0) const;
    /// \return netem's disc towards the client on path \p path (SetNetem; else null)
    Ptr<NetemQueueDisc> GetAckNetem(uint32_t path = 0) const;

  private:
    /// One path's router, links, addresses and impairments.
    struct Path
    {
        Ptr<Node> router;                              ///< the path's router
        NetDeviceContainer clientLink;                 ///< client's, router's
        NetDeviceContainer serverLink;                 ///< router's, server's
        Ipv4InterfaceContainer clientSide;             ///< client's, router's
        Ipv4InterfaceContainer serverSide;             ///< router's, server's
        Ptr<RateErrorModel> lossModel;                 ///< Router NONE's loss
        Ptr<RudpCorruptionErrorModel> corruptionModel; ///< Router NONE's corruption
        Ptr<NetemQueueDisc> dataNetem;                 ///< towards the server
        Ptr<NetemQueueDisc> ackNetem;                  ///< towards the client
    };

    /// Builds the two links of \p path.
    void InstallLinks(Path& path) const;
    /// Puts the error model on the server's receiving device of \p path.
    void InstallErrorModel(Path& path) const;
    /// Puts netem on the routers' egress devices.
    void InstallNetem();
    /// Puts the relay on the router.
    void InstallRelay();

    Link m_link{CSMA};            ///< SetLink
    DataRate m_rate{"100Mbps"};   ///< SetLink
    uint32_t m_mtu{1500};         ///< SetLink
    Router m_router{NONE};        ///< SetRouter
    Time m_delay;                 ///< SetRouter
    double m_loss{0};             ///< SetRouter
    double m_corruption{0};       ///< SetCorruption
    uint32_t m_corruptionBits{1}; ///< SetCorruption
    Netem m_netem;                ///< SetNetem
    uint32_t m_nPaths{1};         ///< SetPaths

    NodeContainer m_nodes;     ///< client, router, server, the other paths' routers
    std::vector<Path> m_paths; ///< Install
    Ptr<RudpRelay> m_relay;    ///< Router DELAY or SLEEPING
};

} // namespace ns3

#endif /* RUDP_FILE_TRANSFER_HELPER_H */
