/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_SOCKET_H
#define RUDP_SOCKET_H

#include "rudp-deadline.h"
#include "rudp-endpoint.h"
#include "rudp-header.h"
#include "rudp-rto-timer.h"
#include "rudp-rx-buffer.h"
#include "rudp-sender-state.h"
#include "rudp-tx-buffer.h"
#include "rudp-window-policy.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

namespace ns3
{

class Node;

/**
 * \ingroup rudp-socket
 * \brief RudpSocket's attribute values in one block, so that a listening
 * socket hands every one of them to each connection it accepts in one copy
 * (a new attribute is declared here and in RudpSocket::GetTypeId, nowhere
 * else).
 */
class RudpSocketConfig
{
  public:
    /// The protocol variants of seed 000: Variant, a shorthand for WindowPolicy.
    enum Variant
    {
        STOP_AND_WAIT,      ///< rdt3.0: one segment outstanding (ns3::RudpStopAndWait)
        GO_BACK_N,          ///< fixed window of WindowSize segments (ns3::RudpGoBackN)
        RENO,               ///< Reno, window capped at WindowSize (ns3::RudpReno)
        TCP_CONGESTION_OPS, ///< a TcpCongestionOps (ns3::TcpNewReno unless another runs)
    };

    /// How the retransmission timeout is set.
    enum RtoMode
    {
        FIXED_RTO,    ///< always InitialRto (the seed's 2 s)
        ADAPTIVE_RTO, ///< RFC 6298 from RTT samples, with backoff
    };

  protected:
    TypeId m_windowPolicy;                   ///< WindowPolicy (Variant, CongestionOps: its aliases)
    uint32_t m_windowSegments{30};           ///< WindowSize (segments)
    uint32_t m_segmentSize{1400};            ///< SegmentSize, the MSS (bytes)
    uint32_t m_initialCwnd{1};               ///< InitialCwnd (segments)
    uint32_t m_initialSsThresh{65535};       ///< InitialSlowStartThreshold (bytes)
    Time m_initialRto{Seconds(2)};           ///< InitialRto: fixed, or initial in adaptive mode
    Time m_minRto{Seconds(1)};               ///< MinRto
    Time m_maxRto{Seconds(60)};              ///< MaxRto
    RtoMode m_rtoMode{FIXED_RTO};            ///< RtoMode
    uint32_t m_dupAckThreshold{3};           ///< ReTxThreshold
    uint32_t m_delAckCount{1};               ///< DelAckCount (segments per ACK)
    Time m_delAckTimeout{MilliSeconds(200)}; ///< DelAckTimeout
    bool m_selectiveRepeat{false};           ///< Sack (this end asks for SACK)
    uint32_t m_sndBufSize{131072};           ///< SndBufSize (bytes)
    uint32_t m_rcvBufSize{131072};           ///< RcvBufSize (bytes)
    RudpHeader::ChecksumKind m_checksumKind{RudpHeader::CHECKSUM_INTERNET16}; ///< Checksum
    uint32_t m_connectRetries{10};                                            ///< ConnCount
    uint32_t m_dataRetries{20};                                               ///< DataRetries
    double m_timeWaitRtts{2.0}; ///< TimeWait (smoothed RTTs)
};

/**
 * \ingroup rudp-socket
 * \brief A reliable, connection-oriented stream socket carried in UDP
 * datagrams: seed 000's protocol as an ns-3 Socket.
 *
 * One sender engine — send buffer, segmentation, cumulative and selective
 * ACK processing, one retransmission timer — with the protocol variant as a
 * RudpWindowPolicy behind it (stop-and-wait, Go-Back-N, or Reno). Connection
 * set-up is seed 000's three-way handshake, tear-down its four-way close;
 * every step is retransmitted on timeout up to a retry limit, after which the
 * socket fails cleanly (NotifyConnectionFailed or NotifyErrorClose, and the
 * Failure trace).
 *
 * Create it through RudpSocketFactory (installed by RudpStackHelper), as TCP
 * sockets are created through TcpSocketFactory, e.g. for BulkSendApplication
 * and PacketSink with Protocol = ns3::RudpSocketFactory.
 */
class RudpSocket : public Socket, public RudpSocketConfig, public RudpDatagramSink
{
  public:
    /// Connection states (seed 000's handshake and close; names as TCP's).
    enum State
    {
        CLOSED,
        LISTEN,
        SYN_SENT,
        SYN_RCVD,
        ESTABLISHED,
        CLOSE_WAIT,
        LAST_ACK,
        FIN_WAIT_1,
        FIN_WAIT_2,
        CLOSING,
        TIME_WAIT,
    };

    /// SACK blocks per ACK, as TCP's option space allows.
    static constexpr uint32_t SACK_BLOCKS = 4;

    /// Counters a scenario reports.
    struct Stats
    {
        uint64_t segmentsSent{0};        ///< segments of any kind sent
        uint64_t segmentsReceived{0};    ///< segments with a good checksum received
        uint64_t dataBytesSent{0};       ///< payload bytes sent for the first time
        uint64_t retransmissions{0};     ///< data segments sent again
        uint64_t timeouts{0};            ///< expiries of the retransmission timer
        uint64_t windowProbes{0};        ///< expiries of the timer that probed a closed window
        uint64_t fastRetransmits{0};     ///< recoveries triggered by duplicate ACKs
        uint64_t checksumErrors{0};      ///< datagrams dropped: bad checksum, malformed header,
                                         ///< wrong length or the other checksum kind
        uint64_t duplicateSegments{0};   ///< data segments received twice
        uint64_t outOfOrderSegments{0};  ///< data segments received ahead of a gap
        uint64_t outOfWindowSegments{0}; ///< data segments beyond the advertised window, dropped
        uint64_t rejectedFins{0};        ///< FINs ignored because data waits beyond them
    };

    /**
     * \brief TracedValue callback signature for State.
     * \param [in] oldValue the previous state
     * \param [in] newValue the new state
     */
    typedef void (*StateTracedValueCallback)(State oldValue, State newValue);

    /**
     * \brief Callback signature of the Tx, Rx and Retransmission traces.
     * \param [in] packet the segment's payload
     * \param [in] header the segment's header
     * \param [in] socket this socket
     */
    typedef void (*SegmentTracedCallback)(Ptr<const Packet> packet,
                                          const RudpHeader& header,
                                          Ptr<const RudpSocket> socket);

    /**
     * \brief Callback signature of the Failure trace.
     * \param [in] reason what gave up: "connect", "data" or "close"
     */
    typedef void (*FailureTracedCallback)(const std::string& reason);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpSocket();
    ~RudpSocket() override;

    /// \param node the node this socket lives on
    void SetNode(Ptr<Node> node);

    /// \return the connection state
    State GetState() const;
    /// \return counters since the socket was created
    const Stats& GetStats() const;
    /// \return the current retransmission timeout
    Time GetRto() const;
    /// \return the sender state (windows, congestion state)
    Ptr<const RudpSenderState> GetSenderState() const;
    /**
     * \return the window policy of the connection (made from WindowPolicy
     *         when it opens; null before)
     */
    Ptr<const RudpWindowPolicy> GetWindowPolicy() const;
    /// \return the name of \p state, e.g. "ESTABLISHED"
    static const char* StateName(State state);

    /**
     * \brief Assigns a fixed random variable stream number to the random
     * variables used by this socket (the initial sequence number).
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Draws initial sequence numbers from \p isn (RudpSocketFactory
     * shares one among its sockets, so that one AssignStreams fixes them all).
     */
    void SetIsnRandomVariable(Ptr<UniformRandomVariable> isn);

    // Socket API
    using Socket::Recv;
    using Socket::RecvFrom;
    using Socket::Send;
    Socket::SocketErrno GetErrno() const override;
    Socket::SocketType GetSocketType() const override;
    Ptr<Node> GetNode() const override;
    int Bind() override;
    int Bind6() override;
    int Bind(const Address& address) override;
    int Close() override;
    int ShutdownSend() override;
    int ShutdownRecv() override;
    int Connect(const Address& address) override;
    int Listen() override;
    uint32_t GetTxAvailable() const override;
    int Send(Ptr<Packet> p, uint32_t flags) override;
    int SendTo(Ptr<Packet> p, uint32_t flags, const Address& toAddress) override;
    uint32_t GetRxAvailable() const override;
    Ptr<Packet> Recv(uint32_t maxSize, uint32_t flags) override;
    Ptr<Packet> RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress) override;
    int GetSockName(Address& address) const override;
    int GetPeerName(Address& address) const override;
    bool SetAllowBroadcast(bool allowBroadcast) override;
    bool GetAllowBroadcast() const override;

    /// \return the receive buffer: what is held, in order and out of order
    Ptr<const RudpRxBuffer> GetRxBuffer() const;
    /// \return the send buffer: what is unsent, and the segments not yet acknowledged
    Ptr<const RudpTxBuffer> GetTxBuffer() const;

    /**
     * \brief Hands a datagram from the peer to this socket (RudpEndpoint's demux).
     * \param packet the UDP payload: a RUDP header and its payload
     * \param from the peer's address
     */
    void ReceiveDatagram(Ptr<Packet> packet, const Address& from, Ipv4Address local) override;

    /**
     * \brief Copies the configuration (attributes, callbacks) of a listening
     * socket into a new connection socket; state starts fresh.
     * \param listener the listening socket
     */
    RudpSocket(const RudpSocket& listener);

  protected:
    void DoDispose() override;
    /// Configures the RTO timer from the attributes.
    void NotifyConstructionCompleted() override;

  private:
    /**
     * \brief The Variant alias's setter: sets WindowPolicy to the policy the
     * variant names (TCP_CONGESTION_OPS: ns3::TcpNewReno, unless the socket
     * runs a TcpCongestionOps already).
     * \param variant the variant
     */
    void SetVariant(Variant variant);
    /// \return the Variant that WindowPolicy is (TCP_CONGESTION_OPS for any other)
    Variant GetVariant() const;
    /**
     * \brief The CongestionOps alias's setter: sets WindowPolicy.
     * \param algorithm a TcpCongestionOps TypeId
     */
    void SetCongestionOps(TypeId algorithm);
    /// \return WindowPolicy if it is a TcpCongestionOps, else ns3::TcpNewReno
    TypeId GetCongestionOps() const;

    // Connection management
    int BindTo(const Address& address);
    Ptr<RudpSocket> Fork(const RudpHeader& syn, const Address& from);
    void SetState(State state);
    void OpenConnection();
    void ProcessListen(const RudpHeader& header, const Address& from);
    void ProcessSynSent(const RudpHeader& header);
    void ProcessSynRcvd(const RudpHeader& header, Ptr<Packet> payload);
    void ProcessConnected(const RudpHeader& header, Ptr<Packet> payload);
    void ProcessFin(const RudpHeader& header);
    void MaybeSendFin();
    void EnterTimeWait();
    void CloseAndNotify();
    void Fail(const std::string& reason);
    void Detach();

    // Sender
    void ProcessAck(const RudpHeader& header, bool pureAck);
    /**
     * \brief Takes the peer's window from \p header unless an earlier
     * segment carries it (RFC 793's SND.WL1 and SND.WL2 check).
     * \return true if the window was taken
     */
    bool UpdateWindow(const RudpHeader& header);
    /// \return the smallest segment cut to fit the peer's window that may go (RFC 1122 SWS)
    uint32_t SwsThreshold() const;
    void SendPendingData();
    void Recover(bool timeout);
    void OnRetransmitTimeout();
    void RestartRetransmitTimer();
    /// Gives the retransmission timer the RTO attributes.
    void ConfigureRtoTimer();
    void TakeRttSample(Time sample);
    /// Forwards the sender state's and the timer's traces as this socket's (constructors).
    void ConnectInternalTraces();
    /// Gives the policy the buffer's flight size and sequence marks.
    void PublishSenderState();
    bool HasDataOutstanding() const;

    // Receiver
    void ProcessData(const RudpHeader& header, Ptr<Packet> payload);
    void OnChecksumError(Ptr<const Packet> packet);

    // Segments
    void SendControl(uint8_t flags, SequenceNumber32 seq);
    void SendAck();
    RudpHeader SendSegment(Ptr<const Packet> payload, uint8_t flags, SequenceNumber32 seq);

    // Plumbing
    Ptr<Node> m_node;
    Ptr<RudpEndpoint> m_endpoint;
    Address m_peer;
    Ptr<UniformRandomVariable> m_isnRng;
    mutable Socket::SocketErrno m_errno{ERROR_NOTERROR};

    // Connection state
    TracedValue<State> m_state{CLOSED};
    SequenceNumber32 m_iss{0};    ///< our initial sequence number
    SequenceNumber32 m_irs{0};    ///< the peer's initial sequence number
    bool m_sackEnabled{false};    ///< both ends asked for selective repeat
    bool m_closeRequested{false}; ///< the application closed or shut down sending
    bool m_shutdownRecv{false};
    bool m_closeNotified{false};
    bool m_finSent{false};
    SequenceNumber32 m_finSeq{0}; ///< sequence number our FIN consumes
    Ptr<RudpRtoTimer> m_rtoTimer; ///< the retransmission timer and its RTO
    EventId m_timeWaitEvent;
    uint32_t m_retries{0};           ///< consecutive timeouts of the current step
    bool m_heardSinceTimeout{false}; ///< a good segment arrived since the last timeout

    // Sender
    Ptr<RudpSenderState> m_tcb;
    Ptr<RudpWindowPolicy> m_policy;
    Ptr<RudpTxBuffer> m_txBuffer;
    uint32_t m_rWnd{0};           ///< the peer's advertised window (bytes)
    uint32_t m_maxRWnd{0};        ///< the largest window the peer advertised (bytes)
    SequenceNumber32 m_sndWl1{0}; ///< SEQ of the segment that set m_rWnd (SND.WL1)
    SequenceNumber32 m_sndWl2{0}; ///< ACK of the segment that set m_rWnd (SND.WL2)
    uint32_t m_dupAcks{0};        ///< duplicates of the current ACK number
    Time m_synSentTime;           ///< when the SYN or SYN|ACK was first sent

    // Receiver
    Ptr<RudpRxBuffer> m_rxBuffer;
    uint32_t m_delAckPending{0}; ///< in-order segments not yet acknowledged
    RudpDeadline m_delAck;       ///< the delayed ACK

    Stats m_stats;

    // Traces
    TracedValue<Time> m_lastRtt{Seconds(0)};
    TracedCallback<Time, Time> m_rtoTrace;
    TracedValue<uint32_t> m_bytesInFlight{0};
    TracedCallback<uint32_t, uint32_t> m_cWndTrace;
    TracedCallback<uint32_t, uint32_t> m_ssThreshTrace;
    TracedCallback<RudpSenderState::CongState, RudpSenderState::CongState> m_congStateTrace;
    TracedCallback<Ptr<const Packet>, const RudpHeader&, Ptr<const RudpSocket>> m_txTrace;
    TracedCallback<Ptr<const Packet>, const RudpHeader&, Ptr<const RudpSocket>> m_rxTrace;
    TracedCallback<Ptr<const Packet>, const RudpHeader&, Ptr<const RudpSocket>> m_retxTrace;
    TracedCallback<Ptr<const Packet>> m_checksumErrorTrace;
    TracedCallback<const std::string&> m_failureTrace;
};

} // namespace ns3

#endif /* RUDP_SOCKET_H */
