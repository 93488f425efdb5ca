/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_FUZZ_COMMON_H
#define RUDP_FUZZ_COMMON_H

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/rudp-module.h"

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

/**
 * \file
 * \ingroup rudp-fuzz
 * What the fuzz targets of test/fuzz share: a reader of fuzz inputs, the
 * record format that turns one input into a sequence of datagrams, and a
 * two-node network that delivers them to the target through its UDP socket.
 *
 * A network target's input is two configuration bytes, then records:
 *
 * \verbatim
   control (1 byte)  bit 0   recompute the payload length and the checksum
                     bit 1   sequence and ACK numbers are offsets from what the
                             target last sent to this source (see Fixup)
                     bits 2-3 source: 0 the legitimate peer, 1..3 other ports
                     bits 4-7 n: sent n ? 0.25 ms x 2^(n-1) : 0 after the previous
   length (2 bytes, big endian; cut to what remains)
   datagram (length bytes): the UDP payload
 \endverbatim
 *
 * The fix-ups let the fuzzer reach the state machines behind the checksum
 * and the sequence-number checks; records without them test those checks.
 * A relative HEARTBEAT ACK (flags 0x40 and ACK) echoes, in place of its own
 * payload, the information of the latest HEARTBEAT the target sent to its
 * source (to any, when the sources share one association): a genuine
 * answer, where one without the fix-up is a forgery. A relative
 * ADDRESS_CHANGE request (flag 0x80 without ACK) carries, in place of its
 * first 8 payload bytes, the association key of the target's latest INIT or
 * INIT-ACK to its source (to any, likewise): the tag a genuine peer knows.
 */

namespace ns3
{
namespace rudpfuzz
{

/// Reads a fuzz input front to back; past its end it reads zeros.
class FuzzReader
{
  public:
    /**
     * \param data the input
     * \param size its length
     */
    FuzzReader(const uint8_t* data, size_t size);
    /// \return the next byte, or 0 past the end
    uint8_t U8();
    /// \return the next two bytes, big endian
    uint16_t U16();
    /// \return the next \p n bytes, or fewer if the input ends first
    std::vector<uint8_t> Bytes(size_t n);
    /// \return bytes not read yet
    size_t Remaining() const;

  private:
    const uint8_t* m_data;
    size_t m_size;
    size_t m_pos{0};
};

/// One record of a network target's input.
struct Datagram
{
    bool fixChecksum{false};    ///< recompute the payload length and checksum
    bool relative{false};       ///< SEQ and ACK are offsets (see Fixup)
    uint8_t source{0};          ///< 0: the legitimate peer; 1..3: other ports
    uint8_t gap{0};             ///< 4-bit code of the time since the previous one
    std::vector<uint8_t> bytes; ///< the UDP payload
};

/// Most records one input is cut into: bounds the work of one run.
constexpr size_t MAX_DATAGRAMS = 64;

/**
 * Most simulator events one run may take. The largest regular runs take
 * about 3000 (a transfer in both directions, every record answered, a
 * connection that fails after all its retries); a run that needs more has
 * datagrams breeding datagrams (an
 * amplification that never settles): a hang, reported as a broken
 * invariant as soon as it is seen, by FuzzWire::Send.
 */
constexpr uint64_t MAX_EVENTS = 10000;

/// \return the records that follow the configuration bytes (at most MAX_DATAGRAMS)
std::vector<Datagram> ReadDatagrams(FuzzReader& reader);
/// Appends \p datagram to \p out in the record format (the corpus generator).
void WriteDatagram(std::vector<uint8_t>& out, const Datagram& datagram);
/// \return the time a record's 4-bit gap code stands for
Time GapTime(uint8_t gap);

/**
 * \brief Applies a record's fix-ups to its bytes.
 *
 * With \p datagram.relative, the SEQ field is added to \p seqBase (the
 * sequence number the target expects next from this source) and the ACK
 * field to \p ackBase (the target's next sequence number). With
 * fixChecksum, a datagram whose header parses gets its payload length and
 * checksum recomputed, as an honest sender would write them, with the
 * CRC-32c flag (0x20) set if \p crc32c, else cleared.
 *
 * \return the bytes to send
 */
std::vector<uint8_t> Fixup(const Datagram& datagram,
                           SequenceNumber32 seqBase,
                           SequenceNumber32 ackBase,
                           bool crc32c = false);

class FuzzUdpSocket;

/**
 * \brief An in-memory UDP network: datagrams between sockets bound on nodes
 * of given addresses arrive a fixed delay after they are sent, in order.
 *
 * It replaces the Internet stack in the fuzz targets: what RUDP receives
 * through its UDP socket is exactly what was sent to it, and one run costs
 * a fraction of what a node with the Internet stack costs to build.
 */
class FuzzWire : public SimpleRefCount<FuzzWire>
{
  public:
    /// Called with every datagram a node sends: source, destination, payload.
    using Sniffer =
        Callback<void, const InetSocketAddress&, const InetSocketAddress&, Ptr<const Packet>>;

    /// \param delay one-way delay of every datagram
    explicit FuzzWire(Time delay);

    /**
     * \brief Gives \p node the address \p address and a UDP socket factory
     * whose sockets use this wire.
     */
    void Attach(Ptr<Node> node, Ipv4Address address);
    /// \param sniffer called for every datagram sent (the harness's relative fix-ups)
    void SetSniffer(Sniffer sniffer);

    /**
     * \brief Sends \p packet from \p from to \p to, as a host that can forge
     * its source address and port.
     */
    void Send(Ptr<Packet> packet, const InetSocketAddress& from, const InetSocketAddress& to);

    /// \return the address of \p node (Attach)
    Ipv4Address AddressOf(Ptr<const Node> node) const;
    /**
     * \brief Binds \p socket to \p port of \p node (0: the next free ephemeral port).
     * \return the port, or 0 if it is taken
     */
    uint16_t Bind(FuzzUdpSocket* socket, Ptr<const Node> node, uint16_t port);
    /// Unbinds \p port of \p node.
    void Unbind(Ptr<const Node> node, uint16_t port);

  private:
    void Deliver(Ptr<Packet> packet, InetSocketAddress from, InetSocketAddress to);

    Time m_delay;
    std::map<uint32_t, Ipv4Address> m_addresses;                     ///< by node id
    std::map<std::pair<uint32_t, uint16_t>, FuzzUdpSocket*> m_bound; ///< by node id, port
    uint16_t m_nextEphemeral{49153};
    Sniffer m_sniffer;
};

/// A UDP socket on a FuzzWire (only what RUDP and its applications use).
class FuzzUdpSocket : public Socket
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FuzzUdpSocket();
    ~FuzzUdpSocket() override;

    /**
     * \param wire the network
     * \param node the node the socket is on
     */
    void Setup(Ptr<FuzzWire> wire, Ptr<Node> node);
    /// Queues \p packet from \p from and tells the application (FuzzWire).
    void Receive(Ptr<Packet> packet, const InetSocketAddress& from);

    Socket::SocketErrno GetErrno() const override;
    Socket::SocketType GetSocketType() const override;
    Ptr<Node> GetNode() const override;
    int Bind(const Address& address) override;
    int Bind() override;
    int Bind6() override;
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

  protected:
    void DoDispose() override;

  private:
    Ptr<FuzzWire> m_wire;
    Ptr<Node> m_node;
    uint16_t m_port{0};
    Address m_peer;
    bool m_closed{false};
    mutable Socket::SocketErrno m_errno{ERROR_NOTERROR};
    std::deque<std::pair<Ptr<Packet>, InetSocketAddress>> m_queue;
    uint32_t m_queued{0};
};

/// Creates FuzzUdpSocket: aggregated to a node in place of UDP's factory.
class FuzzUdpSocketFactory : public UdpSocketFactory
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    /// \param wire the network the sockets use
    void SetWire(Ptr<FuzzWire> wire);
    Ptr<Socket> CreateSocket() override;

  protected:
    void DoDispose() override;

  private:
    Ptr<FuzzWire> m_wire;
};

/**
 * \brief Two nodes on a FuzzWire (1 ms) with RUDP installed, the same initial
 * sequence numbers in every run: the peer 10.1.1.1 and the target
 * 10.1.1.2. Records what the target sends, per destination port, for
 * relative fix-ups.
 */
class FuzzNetwork
{
  public:
    FuzzNetwork();

    /// \return node 0
    Ptr<Node> Peer() const;
    /// \return node 1
    Ptr<Node> Target() const;
    /// \return 10.1.1.1
    Ipv4Address PeerAddress() const;
    /// \return 10.1.1.2
    Ipv4Address TargetAddress() const;

    /// \return the wire (to forge datagrams between any addresses, or to sniff them)
    Ptr<FuzzWire> Wire() const;
    /// \param observer also called with every datagram sent (the wire has one sniffer: ours)
    void SetObserver(FuzzWire::Sniffer observer);

    /// \param crc32c fixed-up records carry a CRC-32c (the target expects it)
    void SetCrc32c(bool crc32c);

    /**
     * \brief Sends \p bytes in a UDP datagram from the peer's \p sourcePort to
     * the target's \p targetPort, as any host can (the port need not be bound).
     */
    void Inject(const std::vector<uint8_t>& bytes, uint16_t sourcePort, uint16_t targetPort);
    /**
     * \brief Datagrams from the peer's \p sourcePort come from \p address
     * instead of PeerAddress (a multihomed peer: a path per address).
     */
    void SetSourceAddress(uint16_t sourcePort, Ipv4Address address);

    /**
     * \brief Schedules \p records from \p start on: source s sends from
     * \p ports[s] to \p targetPort, with fix-ups from what the target last
     * sent to that port (or to any port, with \p sharedSequence, as one
     * association over several paths), or from the given bases before the
     * target sent anything.
     * \return when the last record is sent
     */
    Time Schedule(const std::vector<Datagram>& records,
                  Time start,
                  const std::vector<uint16_t>& ports,
                  uint16_t targetPort,
                  bool sharedSequence,
                  SequenceNumber32 seqBase,
                  SequenceNumber32 ackBase);

  private:
    /// What the target last told a port.
    struct Sent
    {
        SequenceNumber32 nextExpected; ///< its ACK number
        SequenceNumber32 nextSequence; ///< its SEQ plus what the segment consumed
    };

    void Sniff(const InetSocketAddress& from,
               const InetSocketAddress& to,
               Ptr<const Packet> packet);
    void Send(Datagram record, uint16_t sourcePort, uint16_t targetPort, bool sharedSequence);

    Ptr<FuzzWire> m_wire;
    NodeContainer m_nodes;
    bool m_crc32c{false};
    std::map<uint16_t, Sent> m_sent;                   ///< by destination port
    std::map<uint16_t, Ipv4Address> m_sourceAddresses; ///< by source port (SetSourceAddress)
    /// the information of the latest HEARTBEAT the target sent, by destination port
    std::map<uint16_t, std::vector<uint8_t>> m_heartbeats;
    std::vector<uint8_t> m_lastHeartbeat; ///< the latest HEARTBEAT's to any port
    /// the association key of the latest INIT or INIT-ACK the target sent, by destination port
    std::map<uint16_t, std::vector<uint8_t>> m_keys;
    std::vector<uint8_t> m_lastKey; ///< the latest INIT's or INIT-ACK's to any port
    FuzzWire::Sniffer m_observer;   ///< SetObserver
    bool m_anySent{false};
    Sent m_last;    ///< the latest segment to any port
    Sent m_initial; ///< bases before the target sent anything
};

/**
 * \brief Bounds what a RudpSocket resends by the causes it had (RFC 1123
 * 4.2.3.1's "Sorcerer's Apprentice": a sender must not feed itself).
 *
 * A cause -- a timeout, a zero-window probe, a datagram from the input, and
 * once the legitimate traffic -- may make the sender resend at most what it
 * has outstanding: its window, counted in the segments it really had
 * outstanding at most (segments cut to a small receive window are more
 * than WindowSize full ones would be).
 */
class ResendBudget
{
  public:
    /// \param sender the socket whose sends are watched (its Tx trace)
    void Watch(Ptr<RudpSocket> sender);
    /// \return the most segments the sender had sent and not acknowledged at once
    uint64_t MaxOutstanding() const;
    /**
     * \brief Reports a broken invariant (Violation) if the sender resent more
     * than MaxOutstanding() segments per cause.
     * \param datagrams datagrams the input sent to either end of the connection
     */
    void Check(uint64_t datagrams) const;

  private:
    void Sent(Ptr<const Packet> packet, const RudpHeader& header, Ptr<const RudpSocket> socket);

    Ptr<RudpSocket> m_sender;
    uint64_t m_maxOutstanding{0};
};

/// Stops the process with a message: a broken invariant is a finding.
[[noreturn]] void Violation(const std::string& what);

} // namespace rudpfuzz
} // namespace ns3

#endif /* RUDP_FUZZ_COMMON_H */
