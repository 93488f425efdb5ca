/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_RFC5681_RENO_H
#define TCP_RFC5681_RENO_H

#include "ns3/tcp-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup rudp-cmt
 * \ingroup congestionOps
 * \brief ns-3's TcpNewReno with RFC 5681's loss response: ssthresh =
 * max(FlightSize / 2, 2 SMSS), FlightSize the data sent and not yet
 * cumulatively acknowledged, without what limited transmit sent (RFC 5681
 * 3.2, step 2; RFC 6675 5, step 4.2).
 *
 * ns-3's TcpSocketBase hands GetSsThresh its BytesInFlight(), which with
 * SACK (ns-3's default) is RFC 6675's pipe: the outstanding data less what
 * the SACKs cover and what they prove lost. At the third duplicate ACK the
 * pipe is the window less about two segments (three SACKed and one lost,
 * two sent by limited transmit), so TcpNewReno keeps about cwnd / 2 - 1
 * segment where RFC 5681 and Linux (tcp_reno_ssthresh: cwnd / 2) keep
 * cwnd / 2: 0.42 of its window with windows of 17 segments, 0.46 with 31
 * (doc/multipath.rst, RFC 6356's goals). Beside it, any sender that follows
 * the RFC takes more than its share, the more the smaller the windows.
 *
 * This class, with TcpClassicRecovery (RFC 6675's recovery), is the
 * standards-track "standard TCP" of RFC 6356's goals
 * (RudpMultipathBottleneckHelper::SetRfcTcp): TcpNewReno's slow
 * start and congestion avoidance (MSS^2 / cwnd per ACK), ssthresh from
 * FlightSize taken as min(HighTxMark - LastAckedSeq, cwnd): the outstanding
 * data, at most the window, since what limited transmit sends goes beyond
 * it.
 */
class TcpRfc5681Reno : public TcpNewReno
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TcpRfc5681Reno();

    /**
     * \brief Copy constructor.
     * \param sock the object to copy
     */
    TcpRfc5681Reno(const TcpRfc5681Reno& sock);

    ~TcpRfc5681Reno() override;

    std::string GetName() const override;

    /**
     * \brief RFC 5681's ssthresh.
     * \param tcb internal congestion state
     * \param bytesInFlight what ns-3 takes for the flight (its pipe with
     *        SACK; not used)
     * \return max(FlightSize / 2, 2 SMSS), FlightSize =
     *         min(HighTxMark - LastAckedSeq, cwnd)
     */
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;

    Ptr<TcpCongestionOps> Fork() override;
};

} // namespace ns3

#endif /* TCP_RFC5681_RENO_H */
