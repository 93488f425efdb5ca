/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_RECEIVER_H
#define RUDP_CMT_RECEIVER_H

#include "rudp-cmt-engine-application.h"
#include "rudp-cmt-receive-engine.h"

#include <memory>
#include <vector>

namespace ns3
{

class RudpFileSource;

/**
 * \ingroup rudp-cmt
 * \brief Seed 002's bulk receiver: the receiving end of a concurrent-multipath
 * association whose application reads every byte at once and checks it
 * against the sender's generated content.
 *
 * A thin application over the association's receiving end, the
 * RudpCmtReceiveEngine a RudpCmtSocket uses too: it opens a UDP socket on
 * Port, hands the engine every datagram, and takes the in-order bytes as
 * soon as they are there (so only data waiting for a gap holds the
 * receive buffer), comparing them with the content generated from
 * ContentSeed.
 *
 * Every attribute and trace source of RudpCmtReceiveEngine is this
 * application's too (ns3::RudpCmtReceiver::RcvBufSize, ::BufferOccupancy, ...).
 */
class RudpCmtReceiver : public RudpCmtEngineApplication<RudpCmtReceiveEngine>
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpCmtReceiver();
    ~RudpCmtReceiver() override;

    /// \return false if a delivered byte differed from the sender's content
    bool IsContentIntact() const;

  private:
    void StartApplication() override;
    /// Checks in-order bytes against the sender's content.
    void Consume(Ptr<const Packet> data);

    uint16_t m_port{5000};                      ///< Port
    uint64_t m_contentSeed{1};                  ///< ContentSeed
    std::unique_ptr<RudpFileSource> m_expected; ///< the data expected, to check it
    bool m_intact{true};                        ///< every delivered byte was as expected
    std::vector<uint8_t> m_received;            ///< a delivery's bytes (kept: no allocation)
    std::vector<uint8_t> m_expectedBytes;       ///< what they should be (kept: no allocation)
};

} // namespace ns3

#endif /* RUDP_CMT_RECEIVER_H */
