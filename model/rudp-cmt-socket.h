/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_SOCKET_H
#define RUDP_CMT_SOCKET_H

#include "rudp-cmt-addresses.h"
#include "rudp-cmt-path-manager.h"
#include "rudp-cmt-path.h"
#include "rudp-endpoint.h"
#include "rudp-header.h"
#include "rudp-rto-timer.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"
#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

class Node;
class RudpCmtReceiveEngine;
class RudpCmtSendEngine;
class RudpPathRouting;
struct RudpCmtSocketInterfaceWatch;

/**
 * \ingroup rudp-cmt
 * \brief A concurrent-multipath (SCTP-CMT style) association as an ns-3
 * stream socket: the application's bytes over every path between two
 * multihomed hosts at once, in one sequence space.
 *
 * Set-up is SCTP's INIT/INIT-ACK exchange (RFC 9260 5.1): each end
 * announces its IPv4 addresses (every interface's that is up, or the one it
 * is bound to) and its receive window; the client connects to one address
 * of the server and learns the others. Which paths the association has,
 * its PathManager says: by default SCTP's (RudpSctpPaths), a path to each
 * of the peer's addresses, the first to the address it connected to (the
 * server's: the address the INIT came from), the node's routing picking
 * the interface each leaves by; or Linux MPTCP's full mesh (RudpFullMesh),
 * a path from each of this end's addresses to each of the peer's, each
 * leaving by its own address's interface whatever the routing prefers (a
 * phone's Wi-Fi and cellular radios to a server with one address). The
 * paths may be point-to-point, CSMA, Wi-Fi, LTE or routed multi-hop alike. The client's first SACK
 * echoes the set-up (SCTP's COOKIE-ECHO): any datagram of the client completes it at the server,
 * and the server repeats its INIT-ACK until one arrives.
 *
 * Each direction is the module's CMT engine: a RudpCmtSendEngine sends what the
 * application writes (with SFR, CUC, DAC, the retransmission policies,
 * CMT-PF, the schedulers and the coupled congestion controls), a
 * RudpCmtReceiveEngine holds what arrives in one bounded buffer until the
 * application reads it. Their attributes are this socket's
 * (ns3::RudpCmtSocket::Coupling, ::Sfr, ::RcvBufSize, ...), their traces
 * too; every path's windows, RTT and status are traced here with the
 * path's index (PathCongestionWindow, ...), whenever the path was added.
 *
 * A path that stops answering goes potentially failed (CmtPf) or failed and
 * is only probed; the association goes on over the others, and takes the
 * path back when a probe is answered. Idle paths are watched with
 * HEARTBEATs (RFC 9260 8.3; HeartbeatInterval, 30 s here, 0 for none), so
 * that a path that fails, or comes back, while it carries no data is found.
 * When the paths have timed out or left heartbeats unanswered
 * AssociationMaxRetrans times in a row the association fails
 * (NotifyErrorClose). Close is SCTP's graceful shutdown (RFC 9260 9.2): the
 * data written is delivered first, then SHUTDOWN (a FIN header) and
 * SHUTDOWN-ACK; the peer's application sees NotifyNormalClose, as with TCP.
 * There is no half-close, no streams, no partial reliability, no IPv6.
 *
 * Create it through RudpCmtSocketFactory (installed by RudpStackHelper), e.g.
 * BulkSendHelper("ns3::RudpCmtSocketFactory", server) and a PacketSink.
 */
class RudpCmtSocket : public Socket, public RudpDatagramSink
{
  public:
    /// Association states (named as SCTP's, RFC 9260 4).
    enum State
    {
        CLOSED,
        LISTEN,
        COOKIE_WAIT,       ///< the client sent its INIT
        COOKIE_ECHOED,     ///< the server answered an INIT, waits for the client's next datagram
        ESTABLISHED,       ///< data flows
        SHUTDOWN_PENDING,  ///< closed by the application: its data is being acknowledged
        SHUTDOWN_SENT,     ///< SHUTDOWN sent, waiting for SHUTDOWN-ACK
        SHUTDOWN_RECEIVED, ///< the peer closed: this end's data is being acknowledged
        /// the peer's SHUTDOWN answered; SHUTDOWN-ACK resent (T2-shutdown) until
        /// SHUTDOWN COMPLETE
        SHUTDOWN_ACK_SENT,
    };

    /// SHUTDOWN-ACK's sequence number: it is a FIN|ACK, as SHUTDOWN COMPLETE.
    static constexpr uint32_t SHUTDOWN_ACK_SEQUENCE = 0;
    /// SHUTDOWN COMPLETE's sequence number (RFC 9260 9.2).
    static constexpr uint32_t SHUTDOWN_COMPLETE_SEQUENCE = 1;

    /**
     * \brief TracedValue callback signature for State.
     * \param [in] oldValue the previous state
     * \param [in] newValue the new state
     */
    typedef void (*StateTracedValueCallback)(State oldValue, State newValue);

    /**
     * \brief Callback signature of the per-path traces of a 32-bit value.
     * \param [in] path the path's index
     * \param [in] oldValue the previous value
     * \param [in] newValue the new value
     */
    typedef void (*PathUint32TracedCallback)(uint32_t path, uint32_t oldValue, uint32_t newValue);

    /**
     * \brief Callback signature of the per-path RTT trace.
     * \param [in] path the path's index
     * \param [in] oldValue the previous measurement
     * \param [in] newValue the new one
     */
    typedef void (*PathTimeTracedCallback)(uint32_t path, Time oldValue, Time newValue);

    /**
     * \brief Callback signature of AddressChange.
     * \param [in] peer true for the peer's address, false for one of this end's
     * \param [in] type RudpCmtAddressChange::ADD or DELETE
     * \param [in] address the address
     * \param [in] result RudpCmtAddressChange::DONE or REFUSED
     */
    typedef void (*AddressChangeTracedCallback)(bool peer,
                                                uint8_t type,
                                                Ipv4Address address,
                                                uint8_t result);

    /// The most addresses an INIT or INIT-ACK announces.
    static constexpr uint32_t MAX_ADDRESSES = RudpCmtInit::MAX_ADDRESSES;
    /// The most paths an association opens, removed ones included (a peer's
    /// address changes open paths: this bounds what they cost).
    static constexpr uint32_t MAX_PATHS = 256;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpCmtSocket();
    /**
     * \brief A listener's new association: its attributes and application
     * callbacks, no state (CopyObject, as TCP's Fork).
     * \param listener the listening socket
     */
    RudpCmtSocket(const RudpCmtSocket& listener);
    ~RudpCmtSocket() override;

    /// \param node the node the socket lives on (RudpCmtSocketFactory sets it)
    void SetNode(Ptr<Node> node);
    /// \return the engine that sends this end's data (its paths, counters)
    Ptr<RudpCmtSendEngine> GetSender() const;
    /// \return the engine that receives the peer's data
    Ptr<RudpCmtReceiveEngine> GetReceiver() const;
    /**
     * \brief Assigns a fixed random variable stream number to the random
     * variables of this association (its heartbeats' jitter and nonces).
     * \param stream the stream index
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);
    /**
     * \brief Draws the heartbeats' jitter and nonces from \p random, as the
     * associations a listener accepts do (RudpCmtSocketFactory shares one).
     * \param random a uniform random variable
     */
    void SetHeartbeatRandomVariable(Ptr<UniformRandomVariable> random);
    /// \return the association's state
    State GetState() const;
    /**
     * \return the peer's addresses, one per path, the primary first: the
     *         address connected to (or the INIT came from) and those its
     *         INIT or INIT-ACK listed (at most MAX_ADDRESSES + 1)
     */
    const std::vector<Ipv4Address>& GetPeerAddresses() const;
    /// \return the addresses this end announces (or announced)
    std::vector<Ipv4Address> GetLocalAddresses() const;
    /// \return why the association failed ("" if it did not)
    const std::string& GetFailure() const;
    /// \return datagrams dropped: bad checksum, malformed, or a bad address list
    uint64_t GetDroppedDatagrams() const;
    /// \return the name of \p state
    static const char* StateName(State state);

    /**
     * \return this end's addresses the peer knows: its INIT's (or
     *         INIT-ACK's), and those added since (RudpCmtAddressChange)
     */
    const std::vector<Ipv4Address>& GetAnnouncedAddresses() const;

    // Socket API
    SocketErrno GetErrno() const override;
    SocketType GetSocketType() const override;
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

    /// Takes a datagram from the peer (RudpEndpoint's demux).
    void ReceiveDatagram(Ptr<Packet> packet, const Address& from, Ipv4Address local) override;

  protected:
    void DoDispose() override;

  private:
    void SetState(State state);
    /// \return the primary path's peer address, with the peer's port
    Address PrimaryPeer() const;
    /// \return a control datagram (INIT, INIT-ACK, SHUTDOWN, SHUTDOWN-ACK), encoded
    Ptr<Packet> EncodeControl(uint8_t flags, SequenceNumber32 seq, Ptr<Packet> payload) const;
    /// Sends a control header (INIT, INIT-ACK) to the primary address.
    void SendControl(uint8_t flags, SequenceNumber32 seq, Ptr<Packet> payload);
    /// Sends SHUTDOWN: first to the primary address, sent again on the other paths in turn.
    void SendShutdown();
    /**
     * \brief Sends SHUTDOWN-ACK: to where the peer's last SHUTDOWN came from
     * (RFC 9260 6.4), or, resent on T2-shutdown's expiry, on the paths in turn.
     * \param resend whether T2-shutdown expired (else it answers a SHUTDOWN)
     */
    void SendShutdownAck(bool resend);
    /// Sends SHUTDOWN COMPLETE to \p to, which sent a SHUTDOWN-ACK.
    void SendShutdownComplete(const Address& to);
    /// Sends this end's INIT or INIT-ACK.
    void SendInit(uint8_t flags);
    /// A listener's answer to an INIT: a new association, in COOKIE_ECHOED.
    void Accept(const RudpHeader& header, Ptr<Packet> payload, const Address& from);
    /**
     * \brief Learns the peer's addresses and window, and starts both engines.
     * \param window the window the peer announced
     */
    void Establish(uint32_t window);
    /// \return the node's RudpPathRouting, installed the first time (paths bound to an address)
    Ptr<RudpPathRouting> PathRouting() const;
    /// RudpPathRouting's InterfaceChange reaches InterfaceChanged through it.
    friend struct RudpCmtSocketInterfaceWatch;
    /**
     * \brief An interface of the node went down or up: the paths bound to
     * its addresses go or return.
     * \param interface the interface's index
     * \param up whether it is up now
     */
    void InterfaceChanged(uint32_t interface, bool up);
    /// Stops following the node's interfaces.
    void StopWatchingInterfaces();
    /// Adds the path \p ends and forwards its traces with its index.
    void AddPath(const RudpCmtPathEnds& ends);
    /**
     * \param upOnly only the addresses of interfaces that are up
     * \return the node's unicast addresses (at most MAX_ADDRESSES), or the one bound to
     */
    std::vector<Ipv4Address> NodeAddresses(bool upOnly) const;
    /// \return the local addresses paths may start from: usable, and known to the peer
    std::vector<Ipv4Address> PathLocals() const;
    /// Opens the paths the path manager gives that the association lacks (addresses added).
    void UpdatePaths();
    /// Follows the node's interfaces and addresses, if its routing allows.
    void WatchInterfaces();
    /// The node's addresses changed: announces those added and deleted (RFC 5061).
    void AddressesChanged();
    /// A request to change addresses (ADDRESS_CHANGE), or the answer to ours.
    void ReceiveAddressChange(const RudpHeader& header, Ptr<Packet> payload, const Address& from);
    /**
     * \brief Applies one of the peer's address changes.
     * \param parameter what it asks
     * \param source the address the request came from (never deleted)
     * \return DONE or REFUSED
     */
    RudpCmtAddressChange::Result ApplyPeerChange(const RudpCmtAddressChange::Parameter& parameter,
                                                 Ipv4Address source);
    /// Sends a request of the announcer's, by an active path from an address the peer knows.
    void SendAddressChange(Ptr<Packet> payload);
    /// A request went unanswered \p tries times: the association fails.
    void OnAddressChangeUnanswered(uint32_t tries);
    /// \return a new association key (call once the peer's address and port are known)
    uint64_t AssociationKey();
    /// A datagram of an established association: to the engine it is for.
    void Dispatch(const RudpHeader& header,
                  Ptr<Packet> payload,
                  const Address& from,
                  Ipv4Address local);
    /// The peer's SHUTDOWN, from \p from.
    void ReceiveShutdown(const RudpHeader& header, const Address& from);
    /// The peer's SHUTDOWN-ACK or SHUTDOWN COMPLETE (both FIN|ACK), from \p from.
    void ReceiveShutdownAck(const RudpHeader& header, const Address& from);
    /// Sends SHUTDOWN, or SHUTDOWN-ACK, once this end's data is all acknowledged.
    void MaybeShutdown();
    /// The handshake or shutdown timer expired: resend, or give up.
    void OnControlTimeout();
    /// Restarts the handshake or shutdown timer with the current backoff.
    void ArmControlTimer();
    /// The sender's cumulative acknowledgment advanced.
    void OnAcknowledged();
    /// In-order bytes became readable.
    void OnDataReady();
    /// The sender gave up.
    void OnSenderFailure(const std::string& reason);
    /// Ends the association: engines halted, timers stopped, the demux left.
    void Terminate();
    /**
     * \brief Ends the association as Terminate does, but stays on the demux
     * for Linger, answering a repeated SHUTDOWN-ACK with SHUTDOWN COMPLETE
     * (RFC 9260 8.4 (5)): the peer resends it while its COMPLETE is lost.
     */
    void TerminateLingering();
    /// What Terminate and TerminateLingering do before the demux: engines
    /// halted, timers stopped, CLOSED.
    void EndAssociation();
    /// Gives up with \p reason (Failure trace; the application hears it).
    void Abort(const std::string& reason);
    /// Leaves the endpoint: as listener or under every peer address.
    void Detach();
    // Per-path trace forwarding, bound to the socket and the path's index.
    static void PathCwnd(RudpCmtSocket* socket,
                         uint32_t path,
                         uint32_t oldValue,
                         uint32_t newValue);
    static void PathSsThresh(RudpCmtSocket* socket,
                             uint32_t path,
                             uint32_t oldValue,
                             uint32_t newValue);
    static void PathRtt(RudpCmtSocket* socket, uint32_t path, Time oldValue, Time newValue);
    static void PathStatus(RudpCmtSocket* socket,
                           uint32_t path,
                           RudpCmtPath::Status oldValue,
                           RudpCmtPath::Status newValue);

    Ptr<Node> m_node;
    Ptr<RudpCmtSendEngine> m_sender;      ///< this end's data
    Ptr<RudpCmtReceiveEngine> m_receiver; ///< the peer's data
    Ptr<RudpEndpoint> m_endpoint;         ///< the UDP socket, shared with a listener's associations
    Ipv4Address m_boundAddress;           ///< the address bound to (any: every interface's)
    TypeId m_pathManagerType;             ///< PathManager: which paths the association has
    Ptr<RudpPathRouting> m_watchedRouting;    ///< whose InterfaceChange the socket follows
    std::vector<Ipv4Address> m_peerAddresses; ///< one per path, the primary first
    uint16_t m_peerPort{0};
    uint32_t m_peerWindow{0}; ///< the window the peer's INIT or INIT-ACK announced
    TracedValue<State> m_state{CLOSED};
    mutable SocketErrno m_errno{ERROR_NOTERROR};
    bool m_closeRequested{false}; ///< the application closed: SHUTDOWN once its data is acked
    bool m_shutdownRecv{false};
    bool m_engineOpen{false}; ///< the engines are attached
    /// INIT, INIT-ACK or SHUTDOWN resend: the engine's initial RTO, doubled up to MaxRto
    Ptr<RudpRtoTimer> m_controlTimer;
    uint32_t m_controlRetries{0}; ///< resends of the exchange under way
    Address m_shutdownFrom;       ///< where the peer's last SHUTDOWN came from (SendShutdownAck)
    EventId m_lingerEvent;        ///< the end of TerminateLingering's linger
    uint32_t m_maxInitRetransmits{8};
    Time m_linger{Seconds(3)};
    std::string m_failure;
    uint64_t m_dropped{0};
    /// the heartbeats' jitter and nonces (SetHeartbeatRandomVariable, AssignStreams)
    Ptr<UniformRandomVariable> m_heartbeatRandom;
    Ptr<RudpCmtPathManager> m_pathManager;    ///< PathManager's, made at Establish
    uint64_t m_localKey{0};                   ///< this end's association key (its INIT's)
    uint64_t m_peerKey{0};                    ///< the peer's
    std::vector<Ipv4Address> m_announced;     ///< GetAnnouncedAddresses
    RudpCmtAddressAnnouncer m_announcer;      ///< this end's address changes
    RudpCmtAddressRequests m_addressRequests; ///< the peer's

    TracedValue<uint32_t> m_cwnd{0}; ///< the paths' windows together
    TracedCallback<uint32_t, uint32_t, uint32_t> m_pathCwndTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t> m_pathSsThreshTrace;
    TracedCallback<uint32_t, Time, Time> m_pathRttTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t> m_pathStatusTrace;
    TracedCallback<const std::string&> m_failureTrace;
    TracedCallback<bool, uint8_t, Ipv4Address, uint8_t> m_addressChangeTrace;
};

} // namespace ns3

#endif /* RUDP_CMT_SOCKET_H */
