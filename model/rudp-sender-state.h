/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_SENDER_STATE_H
#define RUDP_SENDER_STATE_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/sequence-number.h"
#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup rudp-window
 * \brief The sender state a window policy reads and changes.
 *
 * Like TcpSocketState for TCP: RudpSocket owns one, passes it to its
 * RudpWindowPolicy on every event, and forwards the traced values as its own
 * trace sources. Windows are in bytes.
 */
class RudpSenderState : public Object
{
  public:
    /// Congestion-control state (seed 000's Reno state machine).
    enum CongState
    {
        SLOW_START,           ///< +1 MSS per new ACK
        CONGESTION_AVOIDANCE, ///< +1 MSS per cwnd's worth of new ACKs
        FAST_RECOVERY,        ///< +1 MSS per duplicate ACK
        FIXED_WINDOW,         ///< no congestion control (stop-and-wait, Go-Back-N)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief TracedValue callback signature for CongState.
     * \param [in] oldValue the previous state
     * \param [in] newValue the new state
     */
    typedef void (*CongStateTracedValueCallback)(CongState oldValue, CongState newValue);

    /// \return the name of \p state, e.g. "SLOW_START"
    static const char* CongStateName(CongState state);

    /// \return the number of full segments that fit in the congestion window
    uint32_t CwndInSegments() const;

    TracedValue<uint32_t> m_cWnd{0};                  ///< congestion window (bytes)
    TracedValue<uint32_t> m_ssThresh{0};              ///< slow-start threshold (bytes)
    TracedValue<CongState> m_congState{FIXED_WINDOW}; ///< congestion-control state

    uint32_t m_segmentSize{0};        ///< payload bytes of a full segment (MSS)
    uint32_t m_windowSegments{0};     ///< window limit N (segments)
    uint32_t m_initialCwnd{0};        ///< initial congestion window (segments)
    uint32_t m_initialSsThresh{0};    ///< initial slow-start threshold (bytes)
    uint32_t m_dupAckThreshold{0};    ///< duplicate ACKs that trigger a retransmission
    uint32_t m_ackEchoes{0};          ///< ACKs still due for extra copies of the segment
                                      ///< acknowledged last (each transmission draws one)
    uint32_t m_bytesInFlight{0};      ///< bytes sent, neither acknowledged nor deemed lost
    Time m_lastRtt;                   ///< the latest RTT sample (zero before the first)
    Time m_minRtt{Time::Max()};       ///< the smallest RTT sample so far
    SequenceNumber32 m_highTxMark{0}; ///< next new sequence number to send
    SequenceNumber32 m_highAck{0};    ///< highest cumulative ACK (SND.UNA)
    bool m_selectiveRepeat{false};    ///< SACKed segments leave the flight (RFC 6675's pipe)
};

} // namespace ns3

#endif /* RUDP_SENDER_STATE_H */
