/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_HELPER_H
#define RUDP_CMT_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/rudp-cmt-model-assumptions.h"
#include "ns3/rudp-cmt-receiver.h"
#include "ns3/rudp-cmt-sender.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \brief Builds seed 002's setting: two multihomed hosts joined by n
 * disjoint point-to-point paths, a bulk (FTP-like) RudpCmtSender on the
 * first and a RudpCmtReceiver on the second.
 *
 * Path i is the subnet 10.(i+1).1.0/24; each has its own rate, one-way delay
 * and loss rate (a RateErrorModel on the receiving host's device: data is
 * lost, SACKs are not, as the seed's model assumes). The links' MTU fits one
 * data segment of the sender's SegmentSize: no IP fragmentation. Each
 * path's loss rate is also its RudpCmtPath LossRate, RTX-LOSSRATE's oracle.
 * A packet its device cannot send yet waits in ns-3's default root queue
 * disc, or, with SetPathQueue(PathQueue::NS2), in the device's queue alone
 * as on the ns-2 cross-check's links.
 *
 * SetNs2Defaults() sets the defaults ns-2.31's SCTP-CMT used (the simulator
 * of seed 002), so that the paper's setting runs as the paper ran it.
 *
 * With the sender's ModelAssumptions on, each path's RateErrorModel sits
 * inside a RudpFirstTransmissionErrorModel (retransmissions are never lost)
 * and the receiving device's PhyRxDrop trace goes to
 * RudpCmtSender::NotifyDataDropped (the loss oracle): seed 002's analytic
 * model's own assumptions.
 *
 * Both hosts run in one process: the oracle is a direct call from the
 * receiving host's device into the sender, which no MPI rank could make
 * into another's. Under ns-3's distributed simulator (src/mpi) Install
 * refuses; a split multipath run uses RudpCmtSocketFactory's sockets over a
 * network of the program's own, where no oracle is offered.
 */
class RudpCmtHelper
{
  public:
    /// What holds the packets a path's device cannot send yet.
    enum class PathQueue
    {
        /// ns-3's: its default root queue disc (FqCoDelQueueDisc) over the device's queue
        NS3,
        /// ns-2's link, as the ns-2 cross-check builds it (cmt.tcl): the device's
        /// DropTail queue alone, NS2_QUEUE_PACKETS long, so that only the loss model drops
        NS2,
    };

    /// The length of PathQueue::NS2's queue (cmt.tcl's limit_).
    static constexpr uint32_t NS2_QUEUE_PACKETS = 1000000;

    RudpCmtHelper();

    /**
     * \brief Adds a path.
     * \param rate its data rate (seed 002: 10 Mbit/s)
     * \param delay its one-way delay (RTT is twice this)
     * \param loss the probability that a data packet is lost on it
     */
    void AddPath(DataRate rate, Time delay, double loss);
    /// Sets an attribute of the sender to be installed.
    void SetSenderAttribute(const std::string& name, const AttributeValue& value);
    /// Sets an attribute of the receiver to be installed.
    void SetReceiverAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Sets the defaults (Config::SetDefault) of RudpCmtSender,
     * RudpCmtReceiver and RudpCmtSocket to ns-2.31's SCTP-CMT (SCTP release 3.6,
     * tcl/lib/ns-default.tcl and sctp/sctp.h): PathMaxRetrans 5,
     * ReTxThreshold 4, RtxPolicy RTX-SAME, MaxBurst 4,
     * InitialSlowStartThreshold 65536 bytes, InitialRto 3 s, MinRto 1 s,
     * MaxRto 60 s, InitialCwnd 2, Sfr, Cuc and Dac on, CmtPf off with
     * CmtPfCwnd 1; the receiver's DelAckCount 2, DelAckTimeout 200 ms, Dac
     * on and SackOnGapFill off. Call it before Install (and before
     * SetSenderAttribute, which overrides a default), or before the
     * sockets are created.
     */
    static void SetNs2Defaults();

    /// Chooses the paths' queues (before Install; default PathQueue::NS3).
    void SetPathQueue(PathQueue queue);
    /**
     * \brief Gives a path the queues \p queue names.
     * \param devices the path's two point-to-point devices, addressed
     *        (Ipv4AddressHelper::Assign gives them ns-3's default root queue disc)
     * \param queue the queues
     */
    static void InstallPathQueue(const NetDeviceContainer& devices, PathQueue queue);
    /// Builds the hosts, the paths and the two applications.
    void Install();
    /**
     * \brief Fixes the random streams of the paths' loss models.
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the two hosts: sender, receiver
    NodeContainer GetHosts() const;
    /// \return the sender application
    Ptr<RudpCmtSender> GetSender() const;
    /// \return the receiver application
    Ptr<RudpCmtReceiver> GetReceiver() const;
    /// \return the two devices of path \p i: sender's, receiver's
    NetDeviceContainer GetPathDevices(uint32_t i) const;
    /// \return the loss model of path \p i (the inner one in the model-assumptions mode)
    Ptr<RateErrorModel> GetLossModel(uint32_t i) const;

  private:
    /// One path's settings.
    struct PathSpec
    {
        DataRate rate;
        Time delay;
        double loss;
    };

    std::vector<PathSpec> m_specs;
    PathQueue m_pathQueue{PathQueue::NS3};
    ObjectFactory m_senderFactory;
    ObjectFactory m_receiverFactory;
    NodeContainer m_hosts;
    std::vector<NetDeviceContainer> m_devices;
    std::vector<Ptr<RateErrorModel>> m_lossModels;
    Ptr<RudpCmtSender> m_sender;
    Ptr<RudpCmtReceiver> m_receiver;
};

} // namespace ns3

#endif /* RUDP_CMT_HELPER_H */
