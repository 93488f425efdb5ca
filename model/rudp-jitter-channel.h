/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_JITTER_CHANNEL_H
#define RUDP_JITTER_CHANNEL_H

#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
// clang-format off
// ns-3.37's point-to-point-channel.h uses the device it only declares.
#include "ns3/point-to-point-net-device.h"
#include "ns3/point-to-point-channel.h"
// clang-format on

#include <array>

namespace ns3
{

/**
 * \ingroup rudp
 * \brief A point-to-point channel whose packets each take its Delay plus a
 * random extra below Jitter, in the order they were sent.
 *
 * A drop-tail queue that only deterministic senders reach drops by the
 * phase of their arrivals (Floyd and Jacobson, "On Traffic Phase Effects in
 * Packet-Switched Gateways", 1992): a tenth of a millisecond more on one
 * sender's link moves its losses severalfold. Their remedy is a random
 * time added to each packet, up to the bottleneck's time for one packet;
 * this channel adds it on the way to the queue. A packet never overtakes
 * the one before it in its direction (a drawn arrival earlier than the
 * last one's becomes the last one's), so that the jitter reorders nothing.
 * With Jitter 0 (the default) it is a PointToPointChannel.
 */
class RudpJitterChannel : public PointToPointChannel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpJitterChannel();

    bool TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime) override;

    /**
     * \brief Assigns a fixed random variable stream number to the jitter.
     * \param stream first stream index to use
     * \return the number of stream indices assigned (1)
     */
    int64_t AssignStreams(int64_t stream);

  private:
    Time m_jitter;                       ///< Jitter: the largest extra delay
    Ptr<UniformRandomVariable> m_draw;   ///< draws each packet's extra delay
    std::array<Time, 2> m_lastArrival{}; ///< per direction (wire 0: device 0 to 1)
};

} // namespace ns3

#endif /* RUDP_JITTER_CHANNEL_H */
