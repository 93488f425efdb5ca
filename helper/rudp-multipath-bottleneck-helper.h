/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_MULTIPATH_BOTTLENECK_HELPER_H
#define RUDP_MULTIPATH_BOTTLENECK_HELPER_H

#include "ns3/bulk-send-application.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/packet-sink.h"
#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rudp-jitter-channel.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \brief Builds RFC 6356's scenarios: the paths of one multipath
 * association (RudpCmtSocket) through bottlenecks that TCP flows share.
 *
 * \verbatim
   client ==(path p, access link)== A_b ==== bottleneck b ==== B_b ==(access link)== server
   TCP source b ------------------- A_b                        B_b ------------- TCP sink b
   \endverbatim
 *
 * Each bottleneck b joins two routers A_b and B_b. A path p of the
 * association crosses the bottleneck it is given: the client has an
 * interface to A_b for it (10.1.p.0/24) and the server an address behind
 * B_b (10.2.p.0/24); static routes on both hosts keep each path on its own
 * interfaces. The TCP flows of bottleneck b go from a source host of their
 * own behind A_b (10.3.b.0/24) to a sink host behind B_b (10.4.b.0/24);
 * each flow has its own PacketSink (port 9001 + its index). The client
 * connects BulkSend over ns3::RudpCmtSocketFactory to path 0's server
 * address, and the server's INIT-ACK announces the others (port 9000).
 * Bottlenecks are 10.9.b.0/24; the routers route by Ipv4GlobalRoutingHelper.
 *
 * Access links run at 1 Gbit/s with a one-way delay of 2 ms (and a path's
 * extra delay), a device queue of 100 000 packets and no queue disc, so
 * that only the bottlenecks queue and drop. The base RTT of a path or a TCP
 * flow is 2 (2 ms + the bottleneck's delay + 2 ms): 48 ms over a 20 ms
 * bottleneck, whose BDP at 10 Mbit/s is 40 packets of 1500 bytes.
 *
 * The bottleneck's queue (the direction from A_b to B_b; the other carries
 * the acknowledgments) is one of Queue. The applications start at the start
 * time plus a random jitter each (RngRun), so that runs differ in the
 * flows' phases.
 */
class RudpMultipathBottleneckHelper
{
  public:
    /// The queue of a bottleneck.
    enum Queue
    {
        /**
         * What ns-3 installs without a word: its default queue disc
         * (TrafficControlHelper::Default: FqCoDel since ns-3.29, which
         * schedules each path as a flow of its own) over the device's
         * 100-packet queue.
         */
        DEFAULT_QUEUE,
        /// ns-3's pfifo_fast of the given packets over the device's 100-packet queue
        PFIFO_FAST,
        /// a drop-tail FifoQueueDisc of the given packets over a device queue of one
        FIFO,
        /// a RedQueueDisc with its defaults over a device queue of one
        RED,
    };

    /**
     * \param queue a queue kind's name: default, pfifo-fast, fifo or red
     * \param [out] kind its Queue
     * \return false if there is none of that name
     */
    static bool ParseQueue(const std::string& queue, Queue& kind);
    /// \return the name of \p queue (ParseQueue's)
    static std::string QueueName(Queue queue);

    /**
     * \brief Sets ns-3's TCP defaults to RFC 6356's "standard TCP" as
     * ns-3 has it: TcpNewReno with ns-3's recovery (PRR), 1448-byte
     * segments, every segment acknowledged (NewReno grows by MSS^2/cwnd
     * per ACK, so that delayed ACKs would halve its increase), and 4 MB
     * send and receive buffers that never limit it (SetRfcTcp makes it the
     * standards-track SACK TCP); and the
     * association's receiver SACKs every segment as the TCP receivers
     * acknowledge every one. A SACK for two segments has the sender send two
     * back to back, and a drop-tail queue drops the second of a pair more
     * often than a lone segment: one path took 0.76-0.82 of a TCP flow's
     * goodput behind drop-tail FIFOs with SACKs for two, 1.04-1.06 with
     * SACKs for one (doc/multipath.rst). Config::Reset undoes it.
     */
    static void SetStandardDefaults();

    /**
     * \brief After SetStandardDefaults, makes the TCP flows the
     * standards-track SACK TCP: NewReno whose ssthresh is RFC 5681's
     * (TcpRfc5681Reno: half the window it had out, where ns-3's TcpNewReno
     * halves its SACK pipe, about a segment less) with RFC 6675's recovery
     * (TcpClassicRecovery: cwnd = ssthresh, sending while the pipe is below
     * it, where ns-3's default, PRR, RFC 6937, sends in proportion from the
     * first duplicate ACK on): the loss response of a path of the
     * association (RFC 9260 7.2.3 and 7.2.4). Beside three ns-3 TcpNewReno
     * flows one path took 1.09-1.17 times a flow's goodput, beside three
     * of these 1.04-1.11 (doc/multipath.rst). Config::Reset undoes it.
     */
    static void SetRfcTcp();

    RudpMultipathBottleneckHelper();

    /**
     * \brief Adds a bottleneck.
     * \param rate its data rate
     * \param delay its one-way delay
     * \param queue its queue
     * \param packets the queue disc's limit for PFIFO_FAST and FIFO (packets)
     * \return its index
     */
    uint32_t AddBottleneck(DataRate rate, Time delay, Queue queue, uint32_t packets = 0);
    /**
     * \brief Adds a path of the association.
     * \param bottleneck the bottleneck it crosses
     * \param extraDelay one-way delay added to each of its access links
     * \return its index (the association's path index, in this order)
     */
    uint32_t AddPath(uint32_t bottleneck, Time extraDelay = Seconds(0));
    /**
     * \brief Adds TCP flows through a bottleneck.
     * \param bottleneck the bottleneck they cross
     * \param flows how many
     */
    void AddTcpFlows(uint32_t bottleneck, uint32_t flows);
    /**
     * \brief Sets when the applications start: each at \p start plus a
     * uniform random time below \p jitter.
     * \param start the earliest start
     * \param jitter the spread of the starts
     */
    void SetStart(Time start, Time jitter);
    /**
     * \brief Adds a random delay below \p jitter to every packet on the
     * senders' access links (RudpJitterChannel), in order.
     *
     * A drop-tail bottleneck that only deterministic senders reach drops by
     * the phase of their arrivals: a tenth of a millisecond more on one
     * access link moves a flow's losses severalfold. About one packet's
     * time at the bottleneck breaks the phase (Floyd and Jacobson 1992).
     *
     * \param jitter the largest extra delay (0, the default: none)
     */
    void SetAccessJitter(Time jitter);

    /// Builds the nodes, links, queues, stacks, routes and applications.
    void Install();

    /**
     * \brief Assigns fixed random variable streams to what Install built
     * (the applications' starts, drawn anew from them, the access jitter,
     * RED, the IP and RUDP stacks), so that a run's draws do not depend on
     * what the process simulated before it: a test's runs are the example's.
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the association's sending application (its socket once it started)
    Ptr<BulkSendApplication> GetAssociationSource() const;
    /// \return the association's receiving application
    Ptr<PacketSink> GetAssociationSink() const;
    /// \return the number of TCP flows
    uint32_t GetNTcpFlows() const;
    /// \return TCP flow \p flow's sending application
    Ptr<BulkSendApplication> GetTcpSource(uint32_t flow) const;
    /// \return TCP flow \p flow's receiving application
    Ptr<PacketSink> GetTcpSink(uint32_t flow) const;
    /// \return the bottleneck TCP flow \p flow crosses
    uint32_t GetTcpBottleneck(uint32_t flow) const;
    /// \return the queue disc of bottleneck \p bottleneck's data direction
    Ptr<QueueDisc> GetQueueDisc(uint32_t bottleneck) const;
    /// \return bottleneck \p bottleneck's devices (A_b's first)
    NetDeviceContainer GetBottleneckDevices(uint32_t bottleneck) const;
    /// \return path \p path's propagation RTT
    Time GetPathRtt(uint32_t path) const;
    /**
     * \param bottleneck a bottleneck
     * \return its bandwidth-delay product at the base RTT, in packets of 1500 bytes
     */
    double GetBdpPackets(uint32_t bottleneck) const;
    /// \return the client
    Ptr<Node> GetClient() const;

    /// The access links' one-way delay, path extras aside.
    static const Time ACCESS_DELAY;

  private:
    /// A bottleneck's settings and what was built for it.
    struct Bottleneck
    {
        DataRate rate;              ///< its rate
        Time delay;                 ///< its one-way delay
        Queue queue;                ///< its queue
        uint32_t packets;           ///< the queue disc's limit
        uint32_t tcpFlows{0};       ///< TCP flows through it
        Ptr<Node> routerA;          ///< the routers (the senders' side)
        Ptr<Node> routerB;          ///< the receivers' side
        NetDeviceContainer devices; ///< A_b's device, B_b's device
        Ptr<QueueDisc> queueDisc;   ///< A_b's queue disc
        Ptr<Node> tcpSource;        ///< the TCP flows' sender
        Ptr<Node> tcpSink;          ///< their receiver
        Ipv4Address tcpSinkAddress; ///< its address
    };

    /// A path's settings.
    struct Path
    {
        uint32_t bottleneck; ///< the bottleneck it crosses
        Time extraDelay;     ///< added to each of its access links
    };

    /// Builds bottleneck \p b, its routers and its queue.
    void InstallBottleneck(uint32_t b);
    /// Installs the queue of bottleneck \p b on its devices.
    void InstallQueue(Bottleneck& bottleneck);
    /// Builds path \p p's access links, addresses and static routes.
    void InstallPath(uint32_t p);
    /// Builds bottleneck \p b's TCP hosts and their links.
    void InstallTcpHosts(uint32_t b);
    /// Installs bottleneck \p b's TCP flows.
    void InstallTcpFlows(uint32_t b);
    /**
     * \param sender the sender's side (its packets get the access jitter)
     * \param router the router's side
     * \param extra added to the link's delay
     * \return the devices of an access link, the sender's first
     */
    NetDeviceContainer SenderAccess(Ptr<Node> sender, Ptr<Node> router, Time extra);
    /// \return an access link between \p a and \p b, \p extra added to its delay
    static NetDeviceContainer Access(Ptr<Node> a, Ptr<Node> b, Time extra);
    /// \return the start of the next application
    Time NextStart();

    std::vector<Bottleneck> m_bottlenecks;                ///< AddBottleneck's
    std::vector<Path> m_paths;                            ///< AddPath's
    Time m_start{Seconds(1)};                             ///< SetStart
    Time m_jitter{Seconds(0)};                            ///< SetStart
    Ptr<UniformRandomVariable> m_startJitter;             ///< draws the starts' jitter
    Time m_accessJitter{Seconds(0)};                      ///< SetAccessJitter
    std::vector<Ptr<RudpJitterChannel>> m_jitterChannels; ///< SenderAccess's
    Ptr<Node> m_client;                                   ///< the association's client
    Ptr<Node> m_server;                                   ///< its server
    std::vector<Ipv4Address> m_serverAddresses;           ///< one per path
    Ptr<BulkSendApplication> m_source;                    ///< the association's sender
    Ptr<PacketSink> m_sink;                               ///< its receiver
    std::vector<Ptr<BulkSendApplication>> m_tcpSources;   ///< one per TCP flow
    std::vector<Ptr<PacketSink>> m_tcpSinks;              ///< one per TCP flow
    std::vector<uint32_t> m_tcpBottleneck;                ///< the bottleneck of each TCP flow
};

} // namespace ns3

#endif /* RUDP_MULTIPATH_BOTTLENECK_HELPER_H */
