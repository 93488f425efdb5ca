/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-fuzz
 * Fuzz target: forged segments injected into an established connection by
 * an on-path attacker, or one who guesses well. A client sends a stream to
 * a server (and the server one back, if the input asks); every record of
 * the input becomes one segment with the connection's addresses and ports,
 * its SEQ, ACK and SACK blocks near the live ones (offsets from what the
 * attacker saw go by on the wire), a right checksum unless the record asks
 * otherwise, sent to either end as if from the other.
 *
 * Input: two configuration bytes, then records of 9 bytes and 4 per SACK block.
 *
 * \verbatim
   config 0   bit 0    the server reads (else never: its window closes)
              bits 1-2 variant: stop-and-wait, go-back-n, reno, reno
              bit 3    Sack on both ends
              bit 4    delayed ACKs (DelAckCount 2)
              bit 5    adaptive RTO
              bit 6    small buffers (SndBufSize 4096, RcvBufSize 2 segments)
              bit 7    Checksum Crc32c on both ends
   config 1   bits 0-1 client to server: 1 byte, 2 segments + 1 byte,
                       8 segments, nothing
              bits 2-3 server to client: nothing, 1 byte, 2 segments + 1
                       byte, 8 segments
              bit 4    segments of 200 bytes instead of 1400
   record     control  bits 0-3 n: sent n ? 0.25 ms x 2^(n-1) : 0 after the previous
                       bit 4    to the client, as the server (else the reverse)
                       bit 5    one bit of the checksum flipped
                       bits 6-7 SACK blocks (0..3)
              flags    the header's flags, as they are
              SEQ      int16: offset from the end of what the forged side last
                       sent (the SEQ the victim expects next)
              ACK      int16: offset from the forged side's last ACK (0: a
                       duplicate ACK)
              window   uint16 (bytes)
              length   payload bytes / 8
              blocks   per block, int16 left edge from what the forged side
                       last acknowledged, then uint16 length (bytes)
 \endverbatim
 *
 * Checked during each run: at most MAX_EVENTS simulator events (no
 * datagram storm). After it: no receive buffer holds more than its
 * capacity; each sender's send buffer is consistent (its segments
 * contiguous from SND.UNA to SND.NXT, the bytes in flight and outstanding
 * their sums) and it resent at most a window per timeout, per zero-window
 * probe and per forged segment (ResendBudget); an input without records
 * completes both transfers (the harness works).
 */

#include "rudp-fuzz-common.h"

using namespace ns3;
using namespace ns3::rudpfuzz;

namespace
{

const uint16_t SERVER_PORT = 2222;
const char* const VARIANTS[] = {"ns3::RudpStopAndWait",
                                "ns3::RudpGoBackN",
                                "ns3::RudpReno",
                                "ns3::RudpReno"};

/// \return bytes sent by the client (\p server false) or the server: 0, 1,
/// 2 segments + 1 byte or 8 segments, as config 1 says
uint32_t
TransferBytes(uint8_t config1, bool server)
{
    const uint32_t segment = config1 & 0x10 ? 200 : 1400;
    const uint32_t bytes[] = {0, 1, 2 * segment + 1, 8 * segment};
    return server ? bytes[(config1 >> 2) & 3] : bytes[((config1 & 3) + 1) & 3];
}

/// Simulated time a run may take after the last record: the connection
/// recovers, or gives up (the harness lowers DataRetries to keep it short).
const Time SETTLE = Seconds(30);

/// One end's application: sends \p bytes, reads what comes, closes when done.
class Application
{
  public:
    /**
     * \param bytes what it sends
     * \param reads whether it reads what arrives
     * \param closeFirst closes once its data is queued (else once the peer closed)
     */
    Application(uint32_t bytes, bool reads, bool closeFirst)
        : m_toSend(bytes),
          m_reads(reads),
          m_closeFirst(closeFirst)
    {
    }

    void Start(Ptr<Socket> socket)
    {
        m_socket = DynamicCast<RudpSocket>(socket);
        if (m_reads)
        {
            socket->SetRecvCallback(MakeCallback(&Application::Read, this));
        }
        socket->SetSendCallback(MakeCallback(&Application::Sendable, this));
        socket->SetCloseCallbacks(MakeCallback(&Application::PeerClosed, this),
                                  MakeCallback(&Application::Ignore, this));
        Sendable(socket, 0);
    }

    /// Closes no earlier than \p at (the client: after the last forgery).
    void CloseAfter(Time at)
    {
        m_closeAfter = at;
        Simulator::Schedule(at, &Application::Wake, this);
    }

    Ptr<RudpSocket> Socket() const
    {
        return m_socket;
    }

    uint64_t BytesRead() const
    {
        return m_read;
    }

    bool Done() const
    {
        return m_socket && m_socket->GetState() == RudpSocket::CLOSED && m_sent == m_toSend &&
               m_peerClosed;
    }

  private:
    void Read(Ptr<ns3::Socket> socket)
    {
        while (Ptr<Packet> p = socket->Recv())
        {
            m_read += p->GetSize();
        }
    }

    void Sendable(Ptr<ns3::Socket> socket, uint32_t /* available */)
    {
        while (m_sent < m_toSend)
        {
            const uint32_t chunk = std::min({m_toSend - m_sent, socket->GetTxAvailable(), 4096u});
            if (chunk == 0 || socket->Send(Create<Packet>(chunk)) < 0)
            {
                return;
            }
            m_sent += chunk;
        }
        // The client closes when its data is queued and the forgeries are
        // sent (so that they meet a live connection); the server when the
        // client's FIN came and its own data is queued.
        if (!m_closeCalled && ((m_closeFirst && Simulator::Now() >= m_closeAfter) || m_peerClosed))
        {
            m_closeCalled = true;
            socket->Close();
        }
    }

    void Wake()
    {
        if (m_socket)
        {
            Sendable(m_socket, 0);
        }
    }

    void PeerClosed(Ptr<ns3::Socket> socket)
    {
        m_peerClosed = true;
        Sendable(socket, 0);
    }

    void Ignore(Ptr<ns3::Socket> /* socket */)
    {
    }

    uint32_t m_toSend;
    uint32_t m_sent{0};
    bool m_reads;
    bool m_closeFirst;
    Time m_closeAfter;
    bool m_closeCalled{false};
    bool m_peerClosed{false};
    uint64_t m_read{0};
    Ptr<RudpSocket> m_socket;
};

/// What an on-path attacker saw of one direction of the connection.
struct Seen
{
    SequenceNumber32 next; ///< SEQ + length (+ SYN, FIN) of the latest segment
    SequenceNumber32 ack;  ///< its ACK number
    bool any{false};       ///< a segment went this way
};

/// The two ends and the forger.
class Connection
{
  public:
    Connection(uint8_t config0, uint8_t config1)
        : m_client(TransferBytes(config1, false), true, true),
          m_server(TransferBytes(config1, true), config0 & 0x01, false),
          m_kind(config0 & 0x80 ? RudpHeader::CHECKSUM_CRC32C : RudpHeader::CHECKSUM_INTERNET16),
          m_config1(config1),
          m_serverReads(config0 & 0x01)
    {
        m_network.Wire()->SetSniffer(MakeCallback(&Connection::Sniff, this));
        Ptr<RudpSocket> listener = MakeSocket(m_network.Target(), config0, config1);
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), SERVER_PORT));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<ns3::Socket>, const Address&>(),
                                    MakeCallback(&Connection::Accept, this));
        Ptr<RudpSocket> client = MakeSocket(m_network.Peer(), config0, config1);
        m_clientBudget.Watch(client);
        client->Bind();
        client->SetConnectCallback(MakeCallback(&Connection::Connected, this),
                                   MakeCallback(&Connection::Ignore, this));
        client->Connect(InetSocketAddress(m_network.TargetAddress(), SERVER_PORT));
        Address local;
        client->GetSockName(local);
        m_clientPort = InetSocketAddress::ConvertFrom(local).GetPort();
    }

    /// The client closes no earlier than \p at.
    void CloseAfter(Time at)
    {
        m_client.CloseAfter(at);
    }

    /// Sends \p record's segment now.
    void Forge(const std::vector<uint8_t>& record)
    {
        FuzzReader r(record.data(), record.size());
        const uint8_t control = r.U8();
        const bool toClient = control & 0x10;
        const bool corrupt = control & 0x20;
        const uint32_t blocks = control >> 6;
        const uint8_t flags = r.U8();
        const auto seqOffset = static_cast<int16_t>(r.U16());
        const auto ackOffset = static_cast<int16_t>(r.U16());
        const uint16_t window = r.U16();
        const uint32_t length = 8u * r.U8();
        // What the forged side last sent, as seen on the wire.
        const Seen& forged = toClient ? m_fromServer : m_fromClient;

        RudpHeader header;
        header.SetSequenceNumber(forged.next + seqOffset);
        header.SetAckNumber(forged.ack + ackOffset);
        header.SetFlags(flags);
        header.SetWindow(window);
        std::vector<RudpHeader::SackBlock> sack;
        for (uint32_t i = 0; i < blocks; ++i)
        {
            const SequenceNumber32 left = forged.ack + static_cast<int16_t>(r.U16());
            sack.push_back({left, left + r.U16()});
        }
        header.SetSackBlocks(sack);
        std::vector<uint8_t> payload(length, 0xa5);
        Ptr<Packet> datagram =
            RudpSegmentCodec::Encode(header, Create<Packet>(payload.data(), length), m_kind);
        if (corrupt)
        {
            std::vector<uint8_t> bytes(datagram->GetSize());
            datagram->CopyData(bytes.data(), bytes.size());
            bytes[bytes.size() / 2] ^= 0x01;
            datagram = Create<Packet>(bytes.data(), bytes.size());
        }
        const InetSocketAddress client(m_network.PeerAddress(), m_clientPort);
        const InetSocketAddress server(m_network.TargetAddress(), SERVER_PORT);
        m_network.Wire()->Send(datagram, toClient ? server : client, toClient ? client : server);
    }

    void Check(uint64_t records) const
    {
        for (const Application* app : {&m_client, &m_server})
        {
            Ptr<RudpSocket> socket = app->Socket();
            if (!socket)
            {
                continue;
            }
            Ptr<const RudpRxBuffer> rx = socket->GetRxBuffer();
            if (rx->Occupancy() > rx->GetCapacity())
            {
                Violation("a receive buffer holds more than its capacity");
            }
            CheckTxBuffer(socket->GetTxBuffer());
        }
        m_clientBudget.Check(records);
        m_serverBudget.Check(records);
        if (records == 0)
        {
            if (m_server.BytesRead() != TransferBytes(m_config1, false) && m_serverReads)
            {
                Violation("a transfer without forged segments did not deliver its bytes");
            }
            if (m_client.BytesRead() != TransferBytes(m_config1, true))
            {
                Violation("the reverse transfer without forged segments did not deliver");
            }
            if (m_serverReads && !m_client.Done())
            {
                Violation("a connection without forged segments did not close");
            }
        }
    }

  private:
    static Ptr<RudpSocket> MakeSocket(Ptr<Node> node, uint8_t config0, uint8_t config1)
    {
        Ptr<RudpSocket> socket =
            DynamicCast<RudpSocket>(Socket::CreateSocket(node, RudpSocketFactory::GetTypeId()));
        socket->SetAttribute("WindowPolicy", StringValue(VARIANTS[(config0 >> 1) & 3]));
        socket->SetAttribute("Sack", BooleanValue(config0 & 0x08));
        socket->SetAttribute("DelAckCount", UintegerValue(config0 & 0x10 ? 2 : 1));
        socket->SetAttribute("RtoMode", StringValue(config0 & 0x20 ? "Adaptive" : "Fixed"));
        socket->SetAttribute("InitialRto", TimeValue(MilliSeconds(200)));
        socket->SetAttribute("MinRto", TimeValue(MilliSeconds(200)));
        socket->SetAttribute("MaxRto", TimeValue(Seconds(2)));
        socket->SetAttribute("DataRetries", UintegerValue(6));
        const uint32_t segment = config1 & 0x10 ? 200 : 1400;
        socket->SetAttribute("SegmentSize", UintegerValue(segment));
        if (config0 & 0x40)
        {
            socket->SetAttribute("SndBufSize", UintegerValue(4096));
            socket->SetAttribute("RcvBufSize", UintegerValue(2 * segment));
        }
        socket->SetAttribute("Checksum", StringValue(config0 & 0x80 ? "Crc32c" : "Internet16"));
        return socket;
    }

    /// The send buffer's bookkeeping agrees with its segments.
    static void CheckTxBuffer(Ptr<const RudpTxBuffer> tx)
    {
        SequenceNumber32 expected = tx->HeadSequence();
        uint64_t inFlight = 0;
        uint64_t outstanding = 0;
        for (const auto& segment : tx->GetSegments())
        {
            if (segment.seq != expected || segment.length == 0)
            {
                Violation("the send buffer's segments are not contiguous from SND.UNA");
            }
            expected = segment.End();
            inFlight += segment.txCount > 0 && segment.InFlight() ? segment.length : 0;
            outstanding += segment.txCount > 0 && !segment.sacked ? segment.length : 0;
        }
        if (!tx->GetSegments().empty() && expected != tx->HighTxMark())
        {
            Violation("the send buffer's segments do not end at SND.NXT");
        }
        if (inFlight != tx->BytesInFlight() || outstanding != tx->BytesOutstanding())
        {
            Violation("the send buffer's bytes in flight or outstanding are not its segments'");
        }
    }

    void Accept(Ptr<ns3::Socket> socket, const Address& /* from */)
    {
        if (!m_server.Socket())
        {
            m_serverBudget.Watch(DynamicCast<RudpSocket>(socket));
            m_server.Start(socket);
        }
    }

    void Connected(Ptr<ns3::Socket> socket)
    {
        m_client.Start(socket);
    }

    void Ignore(Ptr<ns3::Socket> /* socket */)
    {
    }

    void Sniff(const InetSocketAddress& from,
               const InetSocketAddress& /* to */,
               Ptr<const Packet> packet)
    {
        if (packet->GetSize() < RudpHeader::FIXED_SIZE)
        {
            return;
        }
        RudpHeader header;
        Ptr<Packet> payload;
        if (RudpSegmentCodec::Decode(packet, m_kind, header, payload) != RudpSegmentCodec::OK)
        {
            return; // the attacker's own corrupted segments
        }
        const uint32_t consumed = payload->GetSize() + (header.HasFlags(RudpHeader::SYN) ? 1 : 0) +
                                  (header.HasFlags(RudpHeader::FIN) ? 1 : 0);
        Seen& seen = from.GetIpv4() == m_network.TargetAddress() ? m_fromServer : m_fromClient;
        seen.next = header.GetSequenceNumber() + consumed;
        seen.ack = header.GetAckNumber();
        seen.any = true;
    }

    FuzzNetwork m_network;
    Application m_client;
    Application m_server;
    RudpHeader::ChecksumKind m_kind;
    uint16_t m_clientPort{0};
    ResendBudget m_clientBudget;
    ResendBudget m_serverBudget;
    Seen m_fromClient;
    Seen m_fromServer;
    uint8_t m_config1;
    bool m_serverReads;
};

void
Run(const uint8_t* data, size_t size)
{
    FuzzReader reader(data, size);
    const uint8_t config0 = reader.U8();
    const uint8_t config1 = reader.U8();
    std::vector<std::pair<Time, std::vector<uint8_t>>> records;
    // Forgeries start once the handshake is done (1 ms one way).
    Time at = MilliSeconds(3);
    while (reader.Remaining() > 0 && records.size() < MAX_DATAGRAMS)
    {
        const size_t start = size - reader.Remaining();
        const uint8_t control = data[start];
        const size_t length = std::min<size_t>(9 + 4 * (control >> 6), reader.Remaining());
        at += GapTime(control & 0x0f);
        records.emplace_back(at, reader.Bytes(length));
    }

    Connection connection(config0, config1);
    connection.CloseAfter(at);
    for (const auto& [when, record] : records)
    {
        Simulator::Schedule(when, &Connection::Forge, &connection, record);
    }
    Simulator::Stop(at + SETTLE);
    Simulator::Run();
    connection.Check(records.size());
    Simulator::Destroy();
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Run(data, size);
    return 0;
}
