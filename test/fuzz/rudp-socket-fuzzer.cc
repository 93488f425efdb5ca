/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-fuzz
 * Fuzz target: RudpSocket fed arbitrary datagrams through its receive path
 * (its UDP socket, RudpEndpoint's demultiplexing, ReceiveDatagram), while it listens,
 * or while a real connection moves data through it, then the simulator run
 * for a bounded simulated time. No input may crash, assert or hang it.
 *
 * Input: two configuration bytes, then datagram records (rudp-fuzz-common.h).
 *
 * \verbatim
   config 0   bits 0-1 role: 0 a listener alone; 1 the server of a live
                       transfer (listener and accepted connection); 2 the
                       client of a live transfer; 3 as 1, but the server's
                       application never reads (the window closes)
              bit 2    Sack (selective repeat) on the target
              bits 3-4 variant: stop-and-wait, go-back-n, reno, reno
              bit 5    delayed ACKs (DelAckCount 2)
              bit 6    adaptive RTO
              bit 7    small buffers (SndBufSize 4096, RcvBufSize 2 segments)
   config 1   bits 0-1 bytes the live transfer moves: 0, 1, 2 segments + 1
                       byte, 8 segments (beyond a small send buffer of
                       1400-byte segments, and the small receive buffer)
              bit 2    Sack (selective repeat) on the legitimate peer
              bit 3    segments of 200 bytes instead of 1400
              bit 4    Checksum Crc32c on both ends (where the module has
                       the attribute), fixed-up records carry one
 \endverbatim
 *
 * Checked during each run: at most MAX_EVENTS simulator events (no
 * datagram storm). After it: no receive buffer holds more than its
 * capacity; the sender resent at most a window (the most segments it had
 * outstanding) per timeout, per zero-window probe and per datagram of the
 * input (ResendBudget); an input without datagrams completes its transfer
 * (the harness works).
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

/**
 * Bytes the live transfer moves, in segments (a run costs about 0.1 ms a
 * segment with the sanitizers; the transfers of up to 30 kB the target had
 * first, 150 segments, made it run at ~130 executions a second).
 */
uint32_t
TransferBytes(uint8_t config1)
{
    const uint32_t segment = config1 & 0x08 ? 200 : 1400;
    const uint32_t bytes[] = {0, 1, 2 * segment + 1, 8 * segment};
    return bytes[config1 & 3];
}

/// Simulated time a run may take after the last datagram (connection
/// failure with the default limits takes at most about 42 s).
const Time SETTLE = Seconds(60);

/// The applications at both ends of the live transfer.
class Transfer
{
  public:
    Transfer(uint32_t bytes, bool serverReads)
        : m_toSend(bytes),
          m_serverReads(serverReads)
    {
    }

    void Listen(Ptr<RudpSocket> listener)
    {
        m_listener = listener;
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), SERVER_PORT));
        listener->Listen();
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&Transfer::Accept, this));
    }

    void Connect(Ptr<RudpSocket> client, const Address& server)
    {
        m_client = client;
        client->Bind();
        client->SetConnectCallback(MakeCallback(&Transfer::Connected, this),
                                   MakeCallback(&Transfer::Ignore, this));
        client->SetSendCallback(MakeCallback(&Transfer::Sendable, this));
        client->SetCloseCallbacks(MakeCallback(&Transfer::Ignore, this),
                                  MakeCallback(&Transfer::Ignore, this));
        client->Connect(server);
    }

    const std::vector<Ptr<RudpSocket>>& Accepted() const
    {
        return m_accepted;
    }

    uint64_t BytesRead() const
    {
        return m_read;
    }

    /// \return the client's socket (the sender of the live transfer), or null
    Ptr<RudpSocket> Client() const
    {
        return m_client;
    }

    bool ClientClosed() const
    {
        return m_client && m_client->GetState() == RudpSocket::CLOSED && m_sent == m_toSend &&
               m_closeCalled;
    }

  private:
    void Accept(Ptr<Socket> socket, const Address& /* from */)
    {
        m_accepted.push_back(DynamicCast<RudpSocket>(socket));
        if (m_serverReads)
        {
            socket->SetRecvCallback(MakeCallback(&Transfer::Read, this));
        }
        socket->SetCloseCallbacks(MakeCallback(&Transfer::PeerClosed, this),
                                  MakeCallback(&Transfer::Ignore, this));
    }

    void Read(Ptr<Socket> socket)
    {
        while (Ptr<Packet> p = socket->Recv())
        {
            m_read += p->GetSize();
        }
    }

    void PeerClosed(Ptr<Socket> socket)
    {
        socket->Close();
    }

    void Connected(Ptr<Socket> socket)
    {
        Sendable(socket, socket->GetTxAvailable());
    }

    void Sendable(Ptr<Socket> socket, uint32_t /* available */)
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
        if (!m_closeCalled)
        {
            m_closeCalled = true;
            socket->Close();
        }
    }

    void Ignore(Ptr<Socket> /* socket */)
    {
    }

    uint32_t m_toSend;
    uint32_t m_sent{0};
    bool m_serverReads;
    bool m_closeCalled{false};
    uint64_t m_read{0};
    Ptr<RudpSocket> m_listener;
    Ptr<RudpSocket> m_client;
    std::vector<Ptr<RudpSocket>> m_accepted;
};

Ptr<RudpSocket>
MakeSocket(Ptr<Node> node, uint8_t config0, uint8_t config1, bool sack)
{
    Ptr<RudpSocket> socket =
        DynamicCast<RudpSocket>(Socket::CreateSocket(node, RudpSocketFactory::GetTypeId()));
    socket->SetAttribute("WindowPolicy", StringValue(VARIANTS[(config0 >> 3) & 3]));
    socket->SetAttribute("Sack", BooleanValue(sack));
    socket->SetAttribute("DelAckCount", UintegerValue(config0 & 0x20 ? 2 : 1));
    socket->SetAttribute("RtoMode", StringValue(config0 & 0x40 ? "Adaptive" : "Fixed"));
    const uint32_t segment = config1 & 0x08 ? 200 : 1400;
    socket->SetAttribute("SegmentSize", UintegerValue(segment));
    if (config0 & 0x80)
    {
        socket->SetAttribute("SndBufSize", UintegerValue(4096));
        socket->SetAttribute("RcvBufSize", UintegerValue(2 * segment));
    }
    return socket;
}

/// \return true if \p socket now sends and expects CRC-32c checksums
bool
SetCrc32c(Ptr<RudpSocket> socket, bool crc32c)
{
    // The attribute came with issue 12; a module without it ignores the bit.
    return socket->SetAttributeFailSafe("Checksum",
                                        StringValue(crc32c ? "Crc32c" : "Internet16")) &&
           crc32c;
}

void
CheckBuffer(Ptr<const RudpSocket> socket)
{
    Ptr<const RudpRxBuffer> buffer = socket->GetRxBuffer();
    if (buffer && buffer->Occupancy() > buffer->GetCapacity())
    {
        Violation("a receive buffer holds more than its capacity");
    }
}

void
Run(const uint8_t* data, size_t size)
{
    FuzzReader reader(data, size);
    const uint8_t config0 = reader.U8();
    const uint8_t config1 = reader.U8();
    const std::vector<Datagram> records = ReadDatagrams(reader);
    const uint32_t role = config0 & 3;
    const bool targetSack = config0 & 0x04;
    const bool peerSack = config1 & 0x04;

    const bool crc32c = config1 & 0x10;
    FuzzNetwork network;
    Transfer transfer(role == 0 ? 0 : TransferBytes(config1), role != 3);
    std::vector<Ptr<RudpSocket>> targets;
    ResendBudget budget; // the live transfer's sender (the client)
    std::vector<uint16_t> ports{0, 40001, 40002, 40003};
    uint16_t targetPort = SERVER_PORT;
    Time start = MilliSeconds(1);
    if (role == 0 || role == 1 || role == 3)
    {
        Ptr<RudpSocket> listener = MakeSocket(network.Target(), config0, config1, targetSack);
        network.SetCrc32c(SetCrc32c(listener, crc32c));
        transfer.Listen(listener);
        targets.push_back(listener);
        ports[0] = 40000;
        if (role != 0)
        {
            Ptr<RudpSocket> client = MakeSocket(network.Peer(), config0, config1, peerSack);
            SetCrc32c(client, crc32c);
            budget.Watch(client);
            transfer.Connect(client, InetSocketAddress(network.TargetAddress(), SERVER_PORT));
            Address local;
            client->GetSockName(local);
            ports[0] = InetSocketAddress::ConvertFrom(local).GetPort();
            start = MilliSeconds(3); // the datagrams join a connection being set up
        }
    }
    else
    {
        Ptr<RudpSocket> server = MakeSocket(network.Peer(), config0, config1, peerSack);
        SetCrc32c(server, crc32c);
        transfer.Listen(server);
        Ptr<RudpSocket> client = MakeSocket(network.Target(), config0, config1, targetSack);
        network.SetCrc32c(SetCrc32c(client, crc32c));
        budget.Watch(client);
        transfer.Connect(client, InetSocketAddress(network.PeerAddress(), SERVER_PORT));
        targets.push_back(client);
        Address local;
        client->GetSockName(local);
        targetPort = InetSocketAddress::ConvertFrom(local).GetPort();
        ports[0] = SERVER_PORT;
    }

    const Time last = network.Schedule(records,
                                       start,
                                       ports,
                                       targetPort,
                                       false,
                                       SequenceNumber32(0),
                                       SequenceNumber32(0));
    Simulator::Stop(last + SETTLE);
    Simulator::Run();

    for (const auto& socket : targets)
    {
        CheckBuffer(socket);
    }
    for (const auto& socket : transfer.Accepted())
    {
        CheckBuffer(socket);
    }
    // Resends need a cause: a timeout or a zero-window probe resends at most
    // a window, and so may each datagram the input sent. More means the
    // sender feeds itself (one duplicate ACK making every later segment go
    // twice, RFC 1123 4.2.3.1's "Sorcerer's Apprentice").
    budget.Check(records.size());
    if (records.empty() && role != 0)
    {
        const uint64_t expected = TransferBytes(config1);
        if (role != 3 && transfer.BytesRead() != expected)
        {
            Violation("a transfer without injected datagrams did not deliver its bytes");
        }
        if (role != 3 && !transfer.ClientClosed())
        {
            Violation("a transfer without injected datagrams did not close");
        }
    }
    Simulator::Destroy();
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Run(data, size);
    return 0;
}
