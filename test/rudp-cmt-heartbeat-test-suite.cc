/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rudp-cmt-heartbeat.h"
#include "ns3/rudp-cmt-path.h"
#include "ns3/rudp-cmt-receive-engine.h"
#include "ns3/rudp-cmt-send-engine.h"
#include "ns3/rudp-cmt-socket-factory.h"
#include "ns3/rudp-cmt-socket.h"
#include "ns3/rudp-header.h"
#include "ns3/rudp-stack-helper.h"
#include "ns3/test.h"

#include <cstdlib>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * HEARTBEAT (RFC 9260 8.3) on RudpCmtSocket: an idle association finds a
 * path that fails and its return without any data; a heartbeat measures the
 * link's RTT; a forged, stale or malformed HEARTBEAT ACK changes nothing.
 */

using namespace ns3;

namespace
{

const uint16_t PORT = 7100;
const Time HEARTBEAT_INTERVAL = Seconds(1);
const Time DELAY_A = MilliSeconds(10); ///< link A's one-way delay (path 0)
const Time DELAY_B = MilliSeconds(30); ///< link B's one-way delay (path 1)
const char* RATE = "100Mbps";

/// A path's status changes, with their times.
struct StatusLog
{
    std::vector<Time> at;                        ///< when
    std::vector<RudpCmtPath::Status> status;     ///< what it became
    std::vector<uint32_t> path;                  ///< which path
    std::vector<std::pair<uint32_t, Time>> rtts; ///< HeartbeatRtt: path, RTT
    std::vector<Time> rttAt;                     ///< when each of rtts was measured
};

/// Notes a path's status change.
void
NoteStatus(StatusLog* log, uint32_t path, uint32_t, uint32_t now)
{
    log->at.push_back(Simulator::Now());
    log->status.push_back(static_cast<RudpCmtPath::Status>(now));
    log->path.push_back(path);
}

/// Notes a heartbeat's RTT.
void
NoteRtt(StatusLog* log, uint32_t path, Time rtt)
{
    log->rtts.emplace_back(path, rtt);
    log->rttAt.push_back(Simulator::Now());
}

/// Counts the data segments sent.
void
CountTx(uint64_t* count, Ptr<const Packet>, const RudpHeader&, uint32_t)
{
    ++*count;
}

/// Connects \p socket to \p peer.
void
ConnectTo(Ptr<Socket> socket, Address peer)
{
    socket->Connect(peer);
}

/// Turns an error model on (a link that stops carrying anything) or off.
void
SetBroken(Ptr<ErrorModel> model, bool broken)
{
    if (broken)
    {
        model->Enable();
    }
    else
    {
        model->Disable();
    }
}

/**
 * \ingroup rudp-test
 * A client and a server joined by two point-to-point links, each its own
 * subnet: A (10.2.1.0/24, DELAY_A) and B (10.2.2.0/24, DELAY_B). The
 * client connects to the server's address on A and learns the one on B:
 * path 0 runs over A, path 1 over B. Link B can be broken (every packet
 * dropped on both ends, the routes kept). Both ends heartbeat every
 * HEARTBEAT_INTERVAL; nothing is written.
 *
 * With \p stream at least 0, RudpStackHelper::AssignStreams fixes the
 * nodes' RUDP streams from it; \p othersBefore random variables are made
 * before the sockets, each taking an automatic stream number.
 */
class TwoLinks
{
  public:
    explicit TwoLinks(int64_t stream = -1, uint32_t othersBefore = 0)
    {
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue(RATE));
        p2p.SetChannelAttribute("Delay", TimeValue(DELAY_A));
        NetDeviceContainer a = p2p.Install(nodes);
        p2p.SetChannelAttribute("Delay", TimeValue(DELAY_B));
        linkB = p2p.Install(nodes);
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper address;
        address.SetBase("10.2.1.0", "255.255.255.0");
        address.Assign(a);
        address.SetBase("10.2.2.0", "255.255.255.0");
        address.Assign(linkB);
        RudpStackHelper().Install(nodes);
        for (uint32_t end = 0; end < 2; ++end)
        {
            Ptr<RateErrorModel> broken = CreateObject<RateErrorModel>();
            broken->SetAttribute("ErrorRate", DoubleValue(1.0));
            broken->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
            broken->Disable();
            linkB.Get(end)->SetAttribute("ReceiveErrorModel", PointerValue(broken));
            breakB.push_back(broken);
        }
        if (stream >= 0)
        {
            RudpStackHelper().AssignStreams(nodes, stream);
        }
        for (uint32_t other = 0; other < othersBefore; ++other)
        {
            CreateObject<UniformRandomVariable>();
        }

        listener = Socket::CreateSocket(nodes.Get(1), RudpCmtSocketFactory::GetTypeId());
        listener->SetAttribute("HeartbeatInterval", TimeValue(HEARTBEAT_INTERVAL));
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), PORT));
        listener->Listen();
        Ptr<Socket> socket = Socket::CreateSocket(nodes.Get(0), RudpCmtSocketFactory::GetTypeId());
        socket->SetAttribute("HeartbeatInterval", TimeValue(HEARTBEAT_INTERVAL));
        client = DynamicCast<RudpCmtSocket>(socket);
        client->TraceConnectWithoutContext("PathStatus", MakeBoundCallback(&NoteStatus, &log));
        client->TraceConnectWithoutContext("HeartbeatRtt", MakeBoundCallback(&NoteRtt, &log));
        client->TraceConnectWithoutContext("Tx", MakeBoundCallback(&CountTx, &dataSent));
        Simulator::Schedule(Seconds(1),
                            &ConnectTo,
                            socket,
                            InetSocketAddress(Ipv4Address("10.2.1.2"), PORT));
    }

    ~TwoLinks()
    {
        Simulator::Destroy();
    }

    /// Breaks link B from \p from to \p to.
    void BreakB(Time from, Time to)
    {
        for (const auto& model : breakB)
        {
            Simulator::Schedule(from, &SetBroken, model, true);
            Simulator::Schedule(to, &SetBroken, model, false);
        }
    }

    /// \return the client's association's path \p index
    Ptr<RudpCmtPath> ClientPath(uint32_t index) const
    {
        return client->GetSender()->GetPaths().at(index);
    }

    NodeContainer nodes;
    NetDeviceContainer linkB;
    std::vector<Ptr<RateErrorModel>> breakB; ///< one on each end of link B
    Ptr<Socket> listener;
    Ptr<RudpCmtSocket> client;
    StatusLog log;
    uint64_t dataSent{0};
};

/**
 * \ingroup rudp-test
 * The heartbeat information's wire format, and one path's record of the
 * heartbeats it sent: an answer is accepted once, only if it echoes one of
 * the latest MAX_OUTSTANDING sent byte for byte.
 */
class RudpCmtHeartbeatInfoTestCase : public TestCase
{
  public:
    RudpCmtHeartbeatInfoTestCase()
        : TestCase("heartbeat information: round trip, wrong sizes refused, an answer accepted "
                   "once and only for a heartbeat sent")
    {
    }

  private:
    void DoRun() override
    {
        RudpCmtHeartbeatInfo info;
        info.path = 3;
        info.sent = NanoSeconds(123456789012LL);
        info.nonce = 0x0123456789abcdefULL;
        Ptr<Packet> wire = info.Encode();
        NS_TEST_ASSERT_MSG_EQ(wire->GetSize(), RudpCmtHeartbeatInfo::SIZE, "its size");
        RudpCmtHeartbeatInfo back;
        NS_TEST_ASSERT_MSG_EQ(RudpCmtHeartbeatInfo::Decode(wire, back), true, "decoded");
        NS_TEST_ASSERT_MSG_EQ((back == info), true, "the same");
        uint8_t bytes[RudpCmtHeartbeatInfo::SIZE];
        wire->CopyData(bytes, sizeof(bytes));
        NS_TEST_ASSERT_MSG_EQ(bytes[3], 3, "the path index first, big-endian");
        NS_TEST_ASSERT_MSG_EQ(bytes[12], 0x01, "the nonce last, big-endian");
        NS_TEST_ASSERT_MSG_EQ(RudpCmtHeartbeatInfo::Decode(Create<Packet>(19), back),
                              false,
                              "short");
        NS_TEST_ASSERT_MSG_EQ(RudpCmtHeartbeatInfo::Decode(Create<Packet>(21), back),
                              false,
                              "long");
        NS_TEST_ASSERT_MSG_EQ(RudpCmtHeartbeatInfo::Decode(Create<Packet>(), back), false, "empty");

        RudpCmtHeartbeat heartbeats;
        heartbeats.SetCallbacks(0,
                                MakeNullCallback<void, uint32_t>(),
                                MakeNullCallback<void, uint32_t>());
        std::vector<RudpCmtHeartbeatInfo> sent;
        for (uint32_t i = 0; i < RudpCmtHeartbeat::MAX_OUTSTANDING + 1; ++i)
        {
            RudpCmtHeartbeatInfo one = info;
            one.nonce = 1000 + i;
            heartbeats.Sent(one, Time());
            sent.push_back(one);
        }
        RudpCmtHeartbeatInfo forged = sent.back();
        forged.nonce ^= 1;
        NS_TEST_ASSERT_MSG_EQ(heartbeats.Accept(forged), false, "a nonce never sent");
        forged = sent.back();
        forged.sent += NanoSeconds(1);
        NS_TEST_ASSERT_MSG_EQ(heartbeats.Accept(forged), false, "another time sent");
        NS_TEST_ASSERT_MSG_EQ(heartbeats.Accept(sent.front()), false, "the oldest is forgotten");
        NS_TEST_ASSERT_MSG_EQ(heartbeats.Accept(sent.back()), true, "the latest");
        NS_TEST_ASSERT_MSG_EQ(heartbeats.Accept(sent.back()), false, "accepted once");
        NS_TEST_ASSERT_MSG_EQ(heartbeats.Accept(sent[1]), true, "a late answer still counts");
        heartbeats.Stop();
        NS_TEST_ASSERT_MSG_EQ(heartbeats.Accept(sent[2]), false, "none after Stop");
    }
};

/**
 * \ingroup rudp-test
 * An idle two-path association (no data at all) with HeartbeatInterval
 * 1 s: link B breaks at 10 s and path 1 is found failed within the time
 * RFC 9260 8.3's rules give, path 0 staying active; link B returns at 25 s
 * and path 1 is active again within one probe interval, without any data.
 */
class RudpCmtHeartbeatFailureTestCase : public TestCase
{
  public:
    RudpCmtHeartbeatFailureTestCase()
        : TestCase("idle, no data: a path whose link breaks is found failed in time, and "
                   "active again after the link returns")
    {
    }

  private:
    void DoRun() override
    {
        TwoLinks net;
        const Time down = Seconds(10);
        const Time up = Seconds(25);
        net.BreakB(down, up);
        Simulator::Stop(Seconds(60));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(net.dataSent, 0, "no data was sent");
        NS_TEST_ASSERT_MSG_EQ(net.client->GetState(), RudpCmtSocket::ESTABLISHED, "open");
        // Only path 1's status changed: failed, then active.
        NS_TEST_ASSERT_MSG_EQ(net.log.status.size(), 2, "two changes");
        if (net.log.status.size() != 2)
        {
            return; // the test runner may go on after a failure
        }
        NS_TEST_ASSERT_MSG_EQ(net.log.path[0], 1, "path 1");
        NS_TEST_ASSERT_MSG_EQ(net.log.status[0], RudpCmtPath::FAILED, "failed");
        NS_TEST_ASSERT_MSG_EQ(net.log.path[1], 1, "path 1");
        NS_TEST_ASSERT_MSG_EQ(net.log.status[1], RudpCmtPath::ACTIVE, "active again");
        // RFC 9260 8.3, with an RTO of 1 s (MinRto) and PathMaxRetrans 1: the
        // next heartbeat goes at most HB.interval + 1.5 RTO after the last
        // answered one, and the path fails when the second in a row is not
        // answered; each unanswered one doubles the RTO it waits (1 s, then
        // 2 s) and the one after it goes HB.interval + 1.5 RTO after it.
        const Time rto = Seconds(1);
        const Time failBound = down + (HEARTBEAT_INTERVAL + 1.5 * rto) + rto +
                               (HEARTBEAT_INTERVAL + 1.5 * (2 * rto)) + 2 * rto;
        NS_TEST_ASSERT_MSG_GT(net.log.at[0], down + 2 * rto, "not before two RTOs");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(net.log.at[0], failBound, "RFC 9260 8.3's bound");
        // A failed path is probed at each expiry of its retransmission
        // timer, its RTO doubled each time (4, 8, 16 s...): the return is
        // found by the first probe after it.
        NS_TEST_ASSERT_MSG_GT(net.log.at[1], up, "after the link returned");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(net.log.at[1], up + Seconds(16), "within one probe interval");
        Ptr<RudpCmtPath> path1 = net.ClientPath(1);
        NS_TEST_ASSERT_MSG_EQ(path1->GetStatus(), RudpCmtPath::ACTIVE, "active at the end");
        NS_TEST_ASSERT_MSG_EQ(path1->GetConsecutiveTimeouts(), 0, "its error count cleared");
        NS_TEST_ASSERT_MSG_EQ(net.ClientPath(0)->GetStatus(), RudpCmtPath::ACTIVE, "path 0 too");
        const RudpCmtSendEngine::Stats stats = net.client->GetSender()->GetStats();
        NS_TEST_ASSERT_MSG_GT(stats.heartbeatsUnanswered, 1, "heartbeats went unanswered");
        NS_TEST_ASSERT_MSG_GT(stats.heartbeatsAnswered, 40, "both paths answered, 60 s long");
        NS_TEST_ASSERT_MSG_EQ(stats.heartbeatAcksDropped, 0, "no answer dropped");
        // After it returned path 1 is heartbeated again: answered since.
        bool answeredSince = false;
        for (const auto& [path, rtt] : net.log.rtts)
        {
            answeredSince = answeredSince || path == 1;
        }
        NS_TEST_ASSERT_MSG_EQ(answeredSince, true, "path 1's heartbeats answered");
    }
};

/**
 * \ingroup rudp-test
 * A heartbeat's answer measures the path's RTT: twice the link's delay
 * plus the heartbeat's and its answer's transmission times, and feeds the
 * path's RTT estimator and RTT trace.
 */
class RudpCmtHeartbeatRttTestCase : public TestCase
{
  public:
    RudpCmtHeartbeatRttTestCase()
        : TestCase("a heartbeat's RTT is the link's RTT, and feeds the path's RTT estimate")
    {
    }

  private:
    void DoRun() override
    {
        TwoLinks net;
        Simulator::Stop(Seconds(20));
        Simulator::Run();
        // A HEARTBEAT and its ACK: 18 bytes of header, 20 of information,
        // UDP (8), IPv4 (20) and PPP (2) headers.
        const uint32_t frame = 18 + RudpCmtHeartbeatInfo::SIZE + 8 + 20 + 2;
        const Time transmission = DataRate(RATE).CalculateBytesTxTime(frame);
        uint32_t samples[2] = {0, 0};
        for (const auto& [path, rtt] : net.log.rtts)
        {
            const Time link = 2 * ((path == 0 ? DELAY_A : DELAY_B) + transmission);
            NS_TEST_ASSERT_MSG_EQ(rtt, link, "path " << path << ": the link's RTT");
            ++samples[path];
        }
        NS_TEST_ASSERT_MSG_GT(samples[0], 5, "path 0 measured");
        NS_TEST_ASSERT_MSG_GT(samples[1], 5, "path 1 measured");
        for (uint32_t path = 0; path < 2; ++path)
        {
            const Time link = 2 * ((path == 0 ? DELAY_A : DELAY_B) + transmission);
            Ptr<const RttEstimator> estimator = net.ClientPath(path)->GetRttEstimator();
            NS_TEST_ASSERT_MSG_GT(estimator->GetNSamples(), 5, "the estimator's samples");
            NS_TEST_ASSERT_MSG_EQ(estimator->GetEstimate(), link, "the estimate");
        }
        NS_TEST_ASSERT_MSG_EQ(net.dataSent, 0, "heartbeats only");
    }
};

/// Where an intercepted HEARTBEAT ACK is kept.
struct Captured
{
    Ptr<Packet> ack;           ///< the RUDP datagram
    Address from;              ///< where it came from
    uint32_t heartbeatAcks{0}; ///< HEARTBEAT ACKs seen on the client's link B
};

/// Keeps the first HEARTBEAT ACK arriving on the client's device (a copy, without PPP/IP/UDP).
void
Capture(Captured* captured, Ptr<const Packet> frame)
{
    Ptr<Packet> copy = frame->Copy();
    PppHeader ppp;
    Ipv4Header ip;
    UdpHeader udp;
    copy->RemoveHeader(ppp);
    copy->RemoveHeader(ip);
    copy->RemoveHeader(udp);
    RudpHeader header;
    Ptr<Packet> payload;
    if (ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER ||
        RudpSegmentCodec::Decode(copy, RudpHeader::CHECKSUM_INTERNET16, header, payload) !=
            RudpSegmentCodec::OK ||
        !header.HasFlags(RudpHeader::HEARTBEAT | RudpHeader::ACK))
    {
        return;
    }
    ++captured->heartbeatAcks;
    if (!captured->ack)
    {
        captured->ack = copy;
        captured->from = InetSocketAddress(ip.GetSource(), udp.GetSourcePort());
    }
}

/// What a forged datagram must not change.
struct Snapshot
{
    RudpCmtPath::Status status; ///< path 1's status
    uint32_t errors;            ///< its error count
    uint32_t rttSamples;        ///< its RTT samples
    uint64_t answered;          ///< heartbeats answered
    uint64_t dropped;           ///< HEARTBEAT ACKs dropped
};

/// \return \p net's client's path 1 as it is now
Snapshot
Take(const TwoLinks& net)
{
    Ptr<RudpCmtPath> path = net.ClientPath(1);
    const RudpCmtSendEngine::Stats stats = net.client->GetSender()->GetStats();
    return Snapshot{path->GetStatus(),
                    path->GetConsecutiveTimeouts(),
                    path->GetRttEstimator()->GetNSamples(),
                    stats.heartbeatsAnswered,
                    stats.heartbeatAcksDropped};
}

/// A HEARTBEAT ACK datagram echoing \p info (\p size bytes of it, the rest zero).
Ptr<Packet>
ForgedAck(const RudpCmtHeartbeatInfo& info, uint32_t size = RudpCmtHeartbeatInfo::SIZE)
{
    uint8_t bytes[64] = {};
    info.Encode()->CopyData(bytes, RudpCmtHeartbeatInfo::SIZE);
    RudpHeader header;
    header.SetFlags(RudpHeader::HEARTBEAT | RudpHeader::ACK);
    return RudpSegmentCodec::Encode(header,
                                    Create<Packet>(bytes, size),
                                    RudpHeader::CHECKSUM_INTERNET16);
}

/// Delivers forged datagrams to the client's association, from the server's address on link B.
void
Forge(TwoLinks* net,
      Captured* captured,
      std::vector<Snapshot>* before,
      std::vector<Snapshot>* after)
{
    const Address from = InetSocketAddress(Ipv4Address("10.2.2.2"), PORT);
    RudpCmtHeartbeatInfo guess;
    guess.path = 1;
    guess.sent = Simulator::Now() - MilliSeconds(60);
    guess.nonce = 42;
    std::vector<Ptr<Packet>> forged{
        ForgedAck(guess),                                  // an unsolicited one
        ForgedAck(guess, RudpCmtHeartbeatInfo::SIZE - 1),  // short
        ForgedAck(guess, RudpCmtHeartbeatInfo::SIZE + 12), // long
        captured->ack ? captured->ack->Copy() : nullptr,   // a genuine one, answered already
    };
    guess.path = 7; // no such path
    forged.push_back(ForgedAck(guess));
    for (const auto& packet : forged)
    {
        before->push_back(Take(*net));
        if (packet)
        {
            net->client->ReceiveDatagram(packet->Copy(), from, Ipv4Address::GetAny());
        }
        after->push_back(Take(*net));
    }
}

/**
 * \ingroup rudp-test
 * Forged, stale and malformed HEARTBEAT ACKs delivered to an association
 * whose path 1 failed: it stays failed, nothing is measured, each is
 * counted as dropped, and the association goes on.
 */
class RudpCmtHeartbeatForgedTestCase : public TestCase
{
  public:
    RudpCmtHeartbeatForgedTestCase()
        : TestCase("a forged, unsolicited, replayed or malformed HEARTBEAT ACK changes nothing")
    {
    }

  private:
    void DoRun() override
    {
        TwoLinks net;
        Captured captured;
        net.linkB.Get(0)->TraceConnectWithoutContext("MacRx",
                                                     MakeBoundCallback(&Capture, &captured));
        net.BreakB(Seconds(10), Seconds(100));
        std::vector<Snapshot> before;
        std::vector<Snapshot> after;
        Simulator::Schedule(Seconds(30), &Forge, &net, &captured, &before, &after);
        Simulator::Stop(Seconds(40));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_NE(captured.ack, nullptr, "a genuine answer seen before the break");
        NS_TEST_ASSERT_MSG_EQ(before.size(), 5, "five forgeries");
        if (before.size() != 5)
        {
            return; // the test runner may go on after a failure
        }
        NS_TEST_ASSERT_MSG_EQ(before[0].status, RudpCmtPath::FAILED, "path 1 failed by then");
        for (size_t i = 0; i < before.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(after[i].status, before[i].status, "forgery " << i << ": status");
            NS_TEST_ASSERT_MSG_EQ(after[i].errors, before[i].errors, "forgery " << i << ": errors");
            NS_TEST_ASSERT_MSG_EQ(after[i].rttSamples,
                                  before[i].rttSamples,
                                  "forgery " << i << ": no RTT sample");
            NS_TEST_ASSERT_MSG_EQ(after[i].answered,
                                  before[i].answered,
                                  "forgery " << i << ": not an answer");
            NS_TEST_ASSERT_MSG_EQ(after[i].dropped,
                                  before[i].dropped + 1,
                                  "forgery " << i << ": dropped and counted");
        }
        NS_TEST_ASSERT_MSG_EQ(net.ClientPath(1)->GetStatus(), RudpCmtPath::FAILED, "still failed");
        NS_TEST_ASSERT_MSG_EQ(net.client->GetState(), RudpCmtSocket::ESTABLISHED, "open");
        NS_TEST_ASSERT_MSG_EQ(net.ClientPath(0)->GetStatus(), RudpCmtPath::ACTIVE, "path 0");
    }
};

/// The information of every HEARTBEAT ACK arriving on a device.
void
CollectAcks(std::vector<std::vector<uint8_t>>* echoed, Ptr<const Packet> frame)
{
    Ptr<Packet> copy = frame->Copy();
    PppHeader ppp;
    Ipv4Header ip;
    UdpHeader udp;
    copy->RemoveHeader(ppp);
    copy->RemoveHeader(ip);
    copy->RemoveHeader(udp);
    RudpHeader header;
    Ptr<Packet> payload;
    if (ip.GetProtocol() == UdpL4Protocol::PROT_NUMBER &&
        RudpSegmentCodec::Decode(copy, RudpHeader::CHECKSUM_INTERNET16, header, payload) ==
            RudpSegmentCodec::OK &&
        header.HasFlags(RudpHeader::HEARTBEAT | RudpHeader::ACK))
    {
        std::vector<uint8_t> bytes(payload->GetSize());
        payload->CopyData(bytes.data(), bytes.size());
        echoed->push_back(bytes);
    }
}

/// Hands \p datagram to \p receiver as if it came from \p from.
void
Inject(Ptr<RudpCmtReceiveEngine> receiver, Ptr<Packet> datagram, Address from)
{
    receiver->ReceiveDatagram(datagram->Copy(), from);
}

/**
 * \ingroup rudp-test
 * The peer's side: a HEARTBEAT is answered once, to where it came from,
 * echoing its information byte for byte and no larger; one whose
 * information has the wrong size is not answered, and neither is data.
 */
class RudpCmtHeartbeatAnswerTestCase : public TestCase
{
  public:
    RudpCmtHeartbeatAnswerTestCase()
        : TestCase("a HEARTBEAT is answered once, byte for byte, to its source; a malformed "
                   "one is not")
    {
    }

  private:
    void DoRun() override
    {
        TwoLinks net;
        std::vector<std::vector<uint8_t>> echoed; // what arrives at the server on link B
        net.linkB.Get(1)->TraceConnectWithoutContext("MacRx",
                                                     MakeBoundCallback(&CollectAcks, &echoed));
        RudpCmtHeartbeatInfo info;
        info.path = 1;
        info.sent = Seconds(4);
        info.nonce = 0xfeedfacecafebeefULL;
        RudpHeader heartbeat;
        heartbeat.SetFlags(RudpHeader::HEARTBEAT);
        Ptr<Packet> genuine =
            RudpSegmentCodec::Encode(heartbeat, info.Encode(), RudpHeader::CHECKSUM_INTERNET16);
        heartbeat.SetFlags(RudpHeader::HEARTBEAT);
        Ptr<Packet> malformed = RudpSegmentCodec::Encode(heartbeat,
                                                         Create<Packet>(200),
                                                         RudpHeader::CHECKSUM_INTERNET16);
        // As if the server had sent them from its address on link B.
        const Address from = InetSocketAddress(Ipv4Address("10.2.2.2"), PORT);
        Ptr<RudpCmtReceiveEngine> receiver = net.client->GetReceiver();
        Simulator::Schedule(Seconds(5), &Inject, receiver, genuine, from);
        Simulator::Schedule(Seconds(5), &Inject, receiver, malformed, from);
        Simulator::Stop(Seconds(6));
        Simulator::Run();

        const RudpCmtReceiveEngine::Stats stats = receiver->GetStats();
        NS_TEST_ASSERT_MSG_EQ(stats.heartbeatsDropped, 1, "the malformed one dropped");
        NS_TEST_ASSERT_MSG_EQ(stats.deliveredBytes, 0, "neither is data");
        std::vector<uint8_t> sent(RudpCmtHeartbeatInfo::SIZE);
        info.Encode()->CopyData(sent.data(), sent.size());
        uint32_t echoes = 0;
        for (const auto& bytes : echoed)
        {
            NS_TEST_ASSERT_MSG_EQ(bytes.size(), RudpCmtHeartbeatInfo::SIZE, "never larger");
            echoes += bytes == sent ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(echoes, 1, "answered once, byte for byte, to its source");
        // The server's association sent no such heartbeat: it drops the answer.
        ObjectVectorValue sockets;
        net.nodes.Get(1)->GetObject<RudpCmtSocketFactory>()->GetAttribute("SocketList", sockets);
        Ptr<RudpCmtSocket> association = DynamicCast<RudpCmtSocket>(sockets.Get(1));
        NS_TEST_ASSERT_MSG_EQ(association->GetSender()->GetStats().heartbeatAcksDropped,
                              1,
                              "the server dropped the echo of a heartbeat it never sent");
    }
};

/**
 * \ingroup rudp-test
 * RudpStackHelper::AssignStreams fixes the heartbeats' jitter: with it,
 * the heartbeats go at the same times whatever random variables a program
 * made before; without it, they move.
 */
class RudpCmtHeartbeatStreamsTestCase : public TestCase
{
  public:
    RudpCmtHeartbeatStreamsTestCase()
        : TestCase("RudpStackHelper::AssignStreams fixes the heartbeats' jitter")
    {
    }

  private:
    /// \return when the client's heartbeats were answered in 20 s
    static std::vector<Time> AnswerTimes(int64_t stream, uint32_t othersBefore)
    {
        TwoLinks net(stream, othersBefore);
        Simulator::Stop(Seconds(20));
        Simulator::Run();
        return net.log.rttAt;
    }

    void DoRun() override
    {
        const std::vector<Time> fixed = AnswerTimes(100, 0);
        NS_TEST_ASSERT_MSG_GT(fixed.size(), 10, "heartbeats were answered");
        NS_TEST_ASSERT_MSG_EQ((AnswerTimes(100, 3) == fixed),
                              true,
                              "the same times after three other variables");
        // The check can fail: without fixed streams each run's sockets
        // draw from whatever automatic stream comes next.
        NS_TEST_ASSERT_MSG_EQ((AnswerTimes(-1, 0) == AnswerTimes(-1, 3)),
                              false,
                              "times that move without AssignStreams");
    }
};

/**
 * \ingroup rudp-test
 * \brief HEARTBEAT's tests.
 */
class RudpCmtHeartbeatTestSuite : public TestSuite
{
  public:
    RudpCmtHeartbeatTestSuite()
        : TestSuite("rudp-cmt-heartbeat")
    {
        AddTestCase(new RudpCmtHeartbeatInfoTestCase);
        AddTestCase(new RudpCmtHeartbeatFailureTestCase);
        AddTestCase(new RudpCmtHeartbeatRttTestCase);
        AddTestCase(new RudpCmtHeartbeatForgedTestCase);
        AddTestCase(new RudpCmtHeartbeatAnswerTestCase);
        AddTestCase(new RudpCmtHeartbeatStreamsTestCase);
    }
};

/// The suite's one instance.
static RudpCmtHeartbeatTestSuite g_rudpCmtHeartbeatTestSuite;

} // namespace
