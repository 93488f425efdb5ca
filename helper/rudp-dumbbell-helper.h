/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_DUMBBELL_HELPER_H
#define RUDP_DUMBBELL_HELPER_H

#include "ns3/application-container.h"
#include "ns3/bulk-send-application.h"
#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/packet-sink.h"
#include "ns3/queue-disc-container.h"
#include "ns3/queue-size.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rudp
 * \brief Builds seed 003's dumbbell: one sender and one receiver per flow,
 * each behind its own access links, and a FIFO bottleneck with random loss
 * between two routers.
 *
 * \verbatim
   sender 0 --+                                        +-- receiver 0
               \  access                     access   /
                router L ===== bottleneck ===== router R
               /  (rtt_k)     --rate, FIFO     (rtt_k)  \
   sender k --+               --loss                   +-- receiver k
   \endverbatim
 *
 * Flow k runs BulkSendApplication to PacketSink over TCP or RUDP, with the
 * congestion control it names: TcpL4Protocol's SocketType on its sender for
 * TCP, RudpSocketFactory's WindowPolicy for RUDP. Its access links carry
 * the delays that make its propagation RTT: 2 (2 a_k + bottleneck delay) =
 * rtt_k (ns-3's PointToPointDumbbellHelper has one delay for every leaf).
 * The bottleneck's device queue holds one packet and a FifoQueueDisc in
 * bytes or packets holds the queue; the receiving router drops data
 * packets at random (a RateErrorModel per packet, as the seed's netem
 * loss). Access links run at the access rate (ten times the bottleneck's
 * by default), keep a device queue of 100000 packets so that a sender's
 * bursts wait in its NIC rather than being dropped there, and have no queue
 * disc: the bottleneck alone decides losses. Every host has an Internet
 * stack, and RUDP if a flow uses it. Addresses: the bottleneck 10.0.0.0/30,
 * flow k's sender side 10.(1 + k/250).(k%250).0/24 and receiver side
 * 10.(101 + k/250).(k%250).0/24; routes by Ipv4GlobalRoutingHelper.
 *
 * Split across MPI ranks (SetRanks, ns-3's distributed simulator), the
 * dumbbell is cut at its bottleneck: the left router is rank 0's, the right
 * router rank 1's, and flow k's sender and receiver belong to the ranks of
 * their side, in turn (GetSenderRank, GetReceiverRank). Every rank builds
 * every node, link and route, each node with its system id; applications go
 * only on the nodes the running rank owns (IsLocal), so GetSource and
 * GetSink return null for another rank's. One rank is one process: nothing
 * changes.
 *
 * RudpDumbbellSizing holds the sizing rules of seed 003's runs, and
 * RudpFlowMetrics (rudp-flow-metrics.h) the measurements.
 */
class RudpDumbbellHelper
{
  public:
    /// A flow's transport.
    enum Transport
    {
        TCP,  ///< ns3::TcpSocketFactory
        RUDP, ///< ns3::RudpSocketFactory
    };

    RudpDumbbellHelper();

    /**
     * \brief Sets the bottleneck link.
     * \param rate its data rate
     * \param delay its one-way delay
     */
    void SetBottleneck(DataRate rate, Time delay);
    /// \param rate the access links' data rate (default: ten times the bottleneck's)
    void SetAccessRate(DataRate rate);
    /// \param limit the bottleneck's FIFO limit, in bytes or in packets
    void SetQueue(QueueSize limit);
    /// \param rate the probability that the bottleneck drops a data packet
    void SetLoss(double rate);
    /// Sets an attribute of every flow's BulkSendApplication (e.g. SendSize).
    void SetSourceAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Splits the dumbbell across MPI ranks at its bottleneck (see the
     * class). Above 1, ns-3's distributed simulator must run
     * (SimulatorImplementationType ns3::DistributedSimulatorImpl or
     * ns3::NullMessageSimulatorImpl, MpiInterface::Enable) before Install.
     * \param ranks the number of ranks, 1 (the default: one process) or more
     */
    void SetRanks(uint32_t ranks);

    /**
     * \brief Adds a flow.
     * \param transport TCP or RUDP
     * \param algorithm its congestion control (a TcpCongestionOps TypeId; for
     *        RUDP any WindowPolicy TypeId)
     * \param rtt its propagation RTT, more than twice the bottleneck's delay
     * \param start when its sender starts
     * \param stop when its sender stops
     * \return the flow's index
     */
    uint32_t AddFlow(Transport transport, TypeId algorithm, Time rtt, Time start, Time stop);

    /// Builds the nodes, links, stacks, routes and applications.
    void Install();
    /**
     * \brief Fixes the random streams: the bottleneck's loss model gets
     * \p stream, the RUDP stacks of the hosts (initial sequence numbers)
     * the ones that follow. Call it after Install.
     * \param stream the first stream index
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the number of flows
    uint32_t GetNFlows() const;
    /// \return the number of ranks (SetRanks)
    uint32_t GetRanks() const;
    /// \return the rank flow \p k's sender belongs to, among \p ranks ranks
    static uint32_t GetSenderRank(uint32_t k, uint32_t ranks);
    /// \return the rank flow \p k's receiver belongs to, among \p ranks ranks
    static uint32_t GetReceiverRank(uint32_t k, uint32_t ranks);
    /**
     * \param node one of the dumbbell's nodes
     * \return true if this process simulates \p node: always in one
     *         process, else if it is the running rank's
     */
    bool IsLocal(Ptr<Node> node) const;
    /// \return the senders, one per flow
    NodeContainer GetSenders() const;
    /// \return the receivers, one per flow
    NodeContainer GetReceivers() const;
    /// \return the two routers: left (senders' side), right
    NodeContainer GetRouters() const;
    /// \return the bottleneck's devices: left router's, right router's
    NetDeviceContainer GetBottleneckDevices() const;
    /// \return the bottleneck's queue discs (the left router's first)
    QueueDiscContainer GetBottleneckQueueDiscs() const;
    /// \return the bottleneck's loss model
    Ptr<RateErrorModel> GetLossModel() const;
    /// \return the address of flow \p k's sender
    Ipv4Address GetSenderAddress(uint32_t k) const;
    /// \return the port flow \p k's receiver listens on (5000 + k)
    uint16_t GetPort(uint32_t k) const;
    /// \return flow \p k's sending application (null if another rank's)
    Ptr<BulkSendApplication> GetSource(uint32_t k) const;
    /// \return flow \p k's receiving application (null if another rank's)
    Ptr<PacketSink> GetSink(uint32_t k) const;
    /// \return the propagation RTT of flow \p k
    Time GetRtt(uint32_t k) const;
    /// \return the one-way delay of flow \p k's access links
    Time GetAccessDelay(uint32_t k) const;

  private:
    /// One flow's settings.
    struct FlowSpec
    {
        Transport transport; ///< TCP or RUDP
        TypeId algorithm;    ///< its congestion control
        Time rtt;            ///< propagation RTT
        Time start;          ///< the sender's start
        Time stop;           ///< the sender's stop
    };

    DataRate m_rate{"100Mbps"};                      ///< bottleneck rate
    Time m_delay{MilliSeconds(1)};                   ///< bottleneck one-way delay
    DataRate m_accessRate;                           ///< access rate (0: ten times m_rate)
    QueueSize m_queue{"1000p"};                      ///< bottleneck FIFO limit
    double m_loss{0};                                ///< random loss rate of data packets
    uint32_t m_ranks{1};                             ///< MPI ranks the dumbbell is split across
    ObjectFactory m_sourceFactory;                   ///< the BulkSendApplications
    std::vector<FlowSpec> m_specs;                   ///< the flows
    NodeContainer m_senders;                         ///< one per flow
    NodeContainer m_receivers;                       ///< one per flow
    NodeContainer m_routers;                         ///< left, right
    NetDeviceContainer m_bottleneck;                 ///< left router's, right router's
    QueueDiscContainer m_queueDiscs;                 ///< on the bottleneck's devices
    Ptr<RateErrorModel> m_lossModel;                 ///< on the right router's device
    std::vector<Ipv4Address> m_senderAddresses;      ///< per flow
    std::vector<Ptr<BulkSendApplication>> m_sources; ///< per flow
    std::vector<Ptr<PacketSink>> m_sinks;            ///< per flow
};

/**
 * \ingroup rudp
 * \brief Seed 003's sizing rules for a dumbbell run, as pure functions.
 */
class RudpDumbbellSizing
{
  public:
    /**
     * \param rate the bottleneck's rate
     * \param rtt a propagation RTT
     * \return the bandwidth-delay product in bytes (rounded down)
     */
    static uint64_t BdpBytes(DataRate rate, Time rtt);

    /**
     * \param segmentSize a full segment's payload (bytes)
     * \param transport TCP (with timestamps) or RUDP
     * \return the bytes of a full-size packet on a point-to-point link:
     *         payload, TCP (32) or RUDP (18) and UDP (8), IPv4 (20), PPP (2)
     */
    static uint64_t WireBytes(uint32_t segmentSize, RudpDumbbellHelper::Transport transport);

    /**
     * \param unit bytes (bfifo) or packets (pfifo)
     * \param bdpBytes the BDP of the largest RTT
     * \return the default FIFO limit: one BDP in bytes, or 1000 packets
     */
    static uint64_t DefaultQueueSize(QueueSizeUnit unit, uint64_t bdpBytes);

    /**
     * \param limit the FIFO limit in its unit
     * \param unit bytes or packets
     * \param wireBytes a full-size packet's bytes on the wire
     * \return the limit in bytes
     */
    static uint64_t QueueBytes(uint64_t limit, QueueSizeUnit unit, uint64_t wireBytes);

    /**
     * \param bdpBytes the BDP of the largest RTT
     * \param queueBytes the FIFO limit in bytes
     * \return the default socket send and receive buffer: twice the path's
     *         capacity (BDP plus queue), at least 128 KiB
     */
    static uint64_t DefaultBuffer(uint64_t bdpBytes, uint64_t queueBytes);

    /**
     * \param bdpBytes the BDP of the largest RTT
     * \param queueBytes the FIFO limit in bytes
     * \param flows the number of flows sharing the bottleneck
     * \param segmentSize a full segment's payload (bytes)
     * \return the automatic initial slow-start threshold: the path's
     *         capacity shared by the flows, at least two segments
     */
    static uint64_t InitialSsThresh(uint64_t bdpBytes,
                                    uint64_t queueBytes,
                                    size_t flows,
                                    uint32_t segmentSize);

    /**
     * \brief How long a packet may take before FlowMonitor counts it lost
     * (its MaxPerHopDelay): four times the largest RTT plus a full queue's
     * delay, at least 1 s (FlowMonitor's default of 10 s would not count
     * the losses of a short run).
     * \param rate the bottleneck's rate
     * \param maxRtt the largest propagation RTT
     * \param queueBytes the FIFO limit in bytes
     * \return the delay
     */
    static Time LossDelay(DataRate rate, Time maxRtt, uint64_t queueBytes);
};

} // namespace ns3

#endif /* RUDP_DUMBBELL_HELPER_H */
