/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_CMT_TEST_HARNESS_H
#define RUDP_CMT_TEST_HARNESS_H

#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-module.h"

#include <map>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * What the CMT fidelity and scenario suites share: an association built by
 * RudpCmtHelper with deterministic drops (ReceiveListErrorModel: the k-th
 * data packet to arrive on a path, counted from 1) and a record of every
 * segment sent; and a scripted peer that stands in for the receiver, so
 * that a test can send the sender SACKs of its choosing.
 */

namespace ns3
{
namespace rudptest
{

/**
 * \ingroup rudp-test
 * \brief Reads the RUDP header of a packet as a point-to-point device
 * carries it (PPP, IPv4 and UDP headers before it).
 * \param packet the packet, as a device trace gives it
 * \param [out] header its RUDP header
 * \return true if it is a well-formed segment
 */
inline bool
DecodeOnWire(Ptr<const Packet> packet, RudpHeader& header)
{
    Ptr<Packet> copy = packet->Copy();
    PppHeader ppp;
    Ipv4Header ip;
    UdpHeader udp;
    copy->RemoveHeader(ppp);
    copy->RemoveHeader(ip);
    copy->RemoveHeader(udp);
    Ptr<Packet> payload;
    return RudpSegmentCodec::Decode(copy, RudpHeader::CHECKSUM_INTERNET16, header, payload) ==
           RudpSegmentCodec::OK;
}

/**
 * \ingroup rudp-test
 * \brief One data segment the sender transmitted.
 */
struct CmtSent
{
    Time at;              ///< when
    SequenceNumber32 seq; ///< its first byte
    uint32_t path;        ///< the path it went on
    bool resend;          ///< a retransmission
};

/**
 * \ingroup rudp-test
 * \brief A CMT association over RudpCmtHelper's paths, with scripted drops
 * and a record of what was sent. Resets the Config defaults when done.
 */
class CmtScenario
{
  public:
    /// One path: rate, one-way delay, random loss rate.
    struct Path
    {
        Time delay;              ///< one-way delay
        double loss{0};          ///< random loss rate (RateErrorModel)
        DataRate rate{"10Mbps"}; ///< rate
    };

    /**
     * \param paths the paths
     * \param rbuf the receiver's buffer (bytes)
     * \param mss the segment size (bytes)
     * \param ns2Defaults start from RudpCmtHelper::SetNs2Defaults
     */
    CmtScenario(const std::vector<Path>& paths, uint32_t rbuf, uint32_t mss, bool ns2Defaults)
    {
        if (ns2Defaults)
        {
            RudpCmtHelper::SetNs2Defaults();
        }
        for (const auto& path : paths)
        {
            m_helper.AddPath(path.rate, path.delay, path.loss);
        }
        m_helper.SetSenderAttribute("SegmentSize", UintegerValue(mss));
        m_helper.SetReceiverAttribute("RcvBufSize", UintegerValue(rbuf));
    }

    ~CmtScenario()
    {
        Simulator::Destroy();
        Config::Reset();
    }

    /// \return the helper, to set attributes before Install
    RudpCmtHelper& Helper()
    {
        return m_helper;
    }

    /// Builds the association and connects the traces (once).
    void Install()
    {
        if (m_installed)
        {
            return;
        }
        m_installed = true;
        m_helper.Install();
        m_helper.AssignStreams(7);
        Sender()->TraceConnectWithoutContext("Tx", MakeCallback(&CmtScenario::OnTx, this));
        for (uint32_t i = 0; i < Sender()->GetPaths().size(); ++i)
        {
            m_helper.GetPathDevices(i).Get(0)->TraceConnectWithoutContext(
                "PhyRxEnd",
                MakeCallback(&CmtScenario::SackArrived, this));
        }
    }

    /**
     * \brief Drops the listed data packets of path \p path (the k-th to
     * arrive at the receiver on it, from 1), instead of its random loss.
     */
    void Drop(uint32_t path, const std::list<uint32_t>& packets)
    {
        Install();
        // ReceiveListErrorModel counts the packets a device receives from 0.
        std::list<uint32_t> fromZero;
        for (uint32_t k : packets)
        {
            fromZero.push_back(k - 1);
        }
        Ptr<ReceiveListErrorModel> drop = CreateObject<ReceiveListErrorModel>();
        drop->SetList(fromZero);
        m_helper.GetPathDevices(path).Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(drop));
    }

    /// Runs until \p duration (both applications stop then).
    void Run(Time duration)
    {
        Install();
        Sender()->SetStopTime(duration);
        Receiver()->SetStopTime(duration);
        Simulator::Stop(duration);
        Simulator::Run();
    }

    /// \return the sender
    Ptr<RudpCmtSender> Sender() const
    {
        return m_helper.GetSender();
    }

    /// \return the receiver
    Ptr<RudpCmtReceiver> Receiver() const
    {
        return m_helper.GetReceiver();
    }

    /// \return every data segment sent, in order
    const std::vector<CmtSent>& Sent() const
    {
        return m_sent;
    }

    /// \return the segments sent on \p path, in order (first transmissions and resends)
    std::vector<CmtSent> SentOn(uint32_t path) const
    {
        std::vector<CmtSent> on;
        for (const auto& sent : m_sent)
        {
            if (sent.path == path)
            {
                on.push_back(sent);
            }
        }
        return on;
    }

    /// \return the retransmissions, in order
    std::vector<CmtSent> Resends() const
    {
        std::vector<CmtSent> resends;
        for (const auto& sent : m_sent)
        {
            if (sent.resend)
            {
                resends.push_back(sent);
            }
        }
        return resends;
    }

    /// \return the most data packets one path sent at one instant
    uint32_t LargestBurst() const
    {
        std::map<std::pair<int64_t, uint32_t>, uint32_t> bursts;
        uint32_t largest = 0;
        for (const auto& sent : m_sent)
        {
            largest = std::max(largest, ++bursts[{sent.at.GetTimeStep(), sent.path}]);
        }
        return largest;
    }

    /// \return SACK packets that reached the sender
    uint64_t Sacks() const
    {
        return m_sacks;
    }

  private:
    /// The sender's Tx trace.
    void OnTx(Ptr<const Packet>, const RudpHeader& header, uint32_t path)
    {
        const SequenceNumber32 seq = header.GetSequenceNumber();
        bool resend = false;
        for (const auto& sent : m_sent)
        {
            resend = resend || sent.seq == seq;
        }
        m_sent.push_back({Simulator::Now(), seq, path, resend});
    }

    /// A packet reached the sender's device of a path: a SACK.
    void SackArrived(Ptr<const Packet>)
    {
        ++m_sacks;
    }

    RudpCmtHelper m_helper;
    bool m_installed{false};
    std::vector<CmtSent> m_sent;
    uint64_t m_sacks{0};
};

/**
 * \ingroup rudp-test
 * \brief Stands in for the receiver of a CmtScenario: takes the data
 * segments (the RudpCmtReceiver never starts) and sends the SACKs a test
 * scripts, each on the path it names.
 */
class ScriptedPeer
{
  public:
    /// One data segment that arrived.
    struct Arrival
    {
        Time at;              ///< when
        SequenceNumber32 seq; ///< its first byte
        uint32_t path;        ///< the path it came on
    };

    /**
     * \param scenario the association: its receiver is replaced (call
     * before Run, after Install)
     */
    explicit ScriptedPeer(CmtScenario& scenario)
        : m_scenario(scenario)
    {
        scenario.Install();
        scenario.Receiver()->SetStartTime(Seconds(1e6)); // never: the port is ours
        Ptr<Node> host = scenario.Helper().GetHosts().Get(1);
        m_socket = Socket::CreateSocket(host, UdpSocketFactory::GetTypeId());
        m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5000));
        m_socket->SetRecvCallback(MakeCallback(&ScriptedPeer::Receive, this));
    }

    /// \return the data segments that arrived, in order
    const std::vector<Arrival>& Arrivals() const
    {
        return m_arrivals;
    }

    /**
     * \brief Sends a SACK on \p path now.
     * \param path the path (it must have carried a segment already)
     * \param cum the cumulative ACK (next byte expected)
     * \param blocks the gap blocks [left, right)
     * \param pair DAC: the SACK answers two segments
     * \param window the advertised window (bytes)
     */
    void Sack(uint32_t path,
              SequenceNumber32 cum,
              const std::vector<RudpHeader::SackBlock>& blocks,
              bool pair,
              uint32_t window = 1u << 20)
    {
        RudpHeader header;
        header.SetSequenceNumber(SequenceNumber32(m_sacksSent++));
        header.SetAckNumber(cum);
        header.SetFlags(RudpHeader::ACK | (pair ? RudpHeader::PAIR : 0));
        header.SetWindow(window);
        header.SetSackBlocks(blocks);
        m_socket->SendTo(
            RudpSegmentCodec::Encode(header, Create<Packet>(), RudpHeader::CHECKSUM_INTERNET16),
            0,
            m_from.at(path));
    }

  private:
    /// A data segment (or a probe) arrived.
    void Receive(Ptr<Socket> socket)
    {
        Address from;
        while (Ptr<Packet> packet = socket->RecvFrom(from))
        {
            RudpHeader header;
            Ptr<Packet> payload;
            if (RudpSegmentCodec::Decode(packet,
                                         RudpHeader::CHECKSUM_INTERNET16,
                                         header,
                                         payload) != RudpSegmentCodec::OK)
            {
                continue;
            }
            const Ipv4Address source = InetSocketAddress::ConvertFrom(from).GetIpv4();
            // Path i is the subnet 10.(i+1).1.0/24.
            const uint32_t path = ((source.Get() >> 16) & 0xff) - 1;
            m_from[path] = from;
            if (payload->GetSize() > 0)
            {
                m_arrivals.push_back({Simulator::Now(), header.GetSequenceNumber(), path});
            }
        }
    }

    CmtScenario& m_scenario;
    Ptr<Socket> m_socket;
    std::map<uint32_t, Address> m_from;
    std::vector<Arrival> m_arrivals;
    uint32_t m_sacksSent{0};
};

} // namespace rudptest
} // namespace ns3

#endif /* RUDP_CMT_TEST_HARNESS_H */
