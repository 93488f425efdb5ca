/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-test-network.h"

#include "ns3/point-to-point-module.h"
#include "ns3/test.h"

#include <map>

/**
 * \file
 * \ingroup rudp-test
 * The CMT sender's remedies for receive-buffer blocking: buffer splitting,
 * chunk rescheduling, the lowest-RTT-first, buffer-aware and BLEST schedulers --
 * their rules on given numbers, and what each does to an association.
 */

using namespace ns3;

namespace
{

const uint32_t MSS = 1400;

/// \return a path as the remedies see it
RudpCmtPathView
View(uint32_t index, Time srtt, uint32_t cwnd, uint32_t queued = 0)
{
    RudpCmtPathView view;
    view.index = index;
    view.srtt = srtt;
    view.cwnd = cwnd;
    view.queued = queued;
    return view;
}

/// \return buffers as the remedies see them
RudpCmtBuffers
Buffers(uint32_t peerWindow, uint32_t held, uint32_t sendBuffer)
{
    RudpCmtBuffers buffers;
    buffers.peerWindow = peerWindow;
    buffers.heldByPeer = held;
    buffers.sendBuffer = sendBuffer;
    return buffers;
}

/**
 * A two-host association (RudpCmtHelper) that follows every data segment
 * through the sender's Tx trace: which path each segment was last sent on,
 * and, at each first transmission, the bytes the path had queued (sent and
 * not cumulatively acknowledged) before it.
 */
class TracedAssociation
{
  public:
    /// One path: round-trip time and loss rate, 10 Mbit/s.
    struct Path
    {
        Time rtt;    ///< round-trip time
        double loss; ///< data loss probability
    };

    /**
     * \param paths the paths
     * \param rbuf the receiver's buffer (bytes)
     */
    TracedAssociation(const std::vector<Path>& paths, uint32_t rbuf)
    {
        for (const auto& path : paths)
        {
            m_helper.AddPath(DataRate("10Mbps"), path.rtt / 2, path.loss);
        }
        m_helper.SetSenderAttribute("SegmentSize", UintegerValue(MSS));
        m_helper.SetReceiverAttribute("RcvBufSize", UintegerValue(rbuf));
        m_maxQueuedAtFirstTx.assign(paths.size(), 0);
        m_firstTxBytes.assign(paths.size(), 0);
    }

    ~TracedAssociation()
    {
        Simulator::Destroy();
    }

    /// \return the helper, to set attributes before Run
    RudpCmtHelper& Helper()
    {
        return m_helper;
    }

    /**
     * \brief Installs and runs the association.
     * \param duration simulated time
     * \return the bytes delivered in order
     */
    uint64_t Run(Time duration)
    {
        m_helper.Install();
        m_helper.AssignStreams(5);
        Sender()->TraceConnectWithoutContext("Tx", MakeCallback(&TracedAssociation::Tx, this));
        Sender()->TraceConnectWithoutContext(
            "Retransmission",
            MakeCallback(&TracedAssociation::Retransmission, this));
        Sender()->SetStopTime(duration);
        Receiver()->SetStopTime(duration);
        Simulator::Stop(duration);
        Simulator::Run();
        return Receiver()->GetStats().deliveredBytes;
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

    /**
     * \param path a path
     * \return the most bytes it had queued when it sent new data, that segment included
     */
    uint32_t MaxQueuedAtFirstTx(uint32_t path) const
    {
        return m_maxQueuedAtFirstTx[path];
    }

    /**
     * \param path a path
     * \return payload bytes of first transmissions on it
     */
    uint64_t FirstTxBytes(uint32_t path) const
    {
        return m_firstTxBytes[path];
    }

    /// A resend: the path it went on, the one it was on before, and whether it was the head.
    struct Resend
    {
        uint32_t from; ///< the path of its previous transmission
        uint32_t to;   ///< the path of this one
        bool head;     ///< it was the first segment not cumulatively acknowledged
    };

    /// \return every resend, in order
    const std::vector<Resend>& Resends() const
    {
        return m_resends;
    }

  private:
    /// \return the first sequence number not cumulatively acknowledged
    SequenceNumber32 CumAck() const
    {
        return RudpCmtSendEngine::FIRST_SEQUENCE +
               static_cast<uint32_t>(Sender()->GetStats().bytesAcked);
    }

    void Forget()
    {
        const SequenceNumber32 cum = CumAck();
        while (!m_segments.empty() &&
               m_segments.begin()->first + m_segments.begin()->second.length <= cum)
        {
            m_segments.erase(m_segments.begin());
        }
    }

    void Tx(Ptr<const Packet> payload, const RudpHeader& header, uint32_t path)
    {
        Forget();
        const SequenceNumber32 seq = header.GetSequenceNumber();
        if (m_segments.count(seq) > 0)
        {
            return; // a resend: Retransmission moved it already
        }
        uint32_t queued = payload->GetSize();
        for (const auto& [start, segment] : m_segments)
        {
            queued += segment.path == path ? segment.length : 0;
        }
        m_maxQueuedAtFirstTx[path] = std::max(m_maxQueuedAtFirstTx[path], queued);
        m_firstTxBytes[path] += payload->GetSize();
        m_segments[seq] = {path, payload->GetSize()};
    }

    void Retransmission(Ptr<const Packet> payload, const RudpHeader& header, uint32_t path)
    {
        Forget();
        const SequenceNumber32 seq = header.GetSequenceNumber();
        auto it = m_segments.find(seq);
        NS_ABORT_MSG_IF(it == m_segments.end(), "a resend of a segment never sent");
        m_resends.push_back({it->second.path, path, seq == CumAck()});
        it->second.path = path;
    }

    /// A segment sent and not yet cumulatively acknowledged.
    struct Segment
    {
        uint32_t path;   ///< its latest path
        uint32_t length; ///< its payload bytes
    };

    RudpCmtHelper m_helper;
    std::map<SequenceNumber32, Segment> m_segments;
    std::vector<uint32_t> m_maxQueuedAtFirstTx;
    std::vector<uint64_t> m_firstTxBytes;
    std::vector<Resend> m_resends;
};

} // namespace

/// Buffer splitting's rule on given numbers, each variant.
class RudpCmtBufferSplittingRuleTest : public TestCase
{
  public:
    RudpCmtBufferSplittingRuleTest()
        : TestCase("buffer splitting: a path's share is a part in n of the send buffer, of "
                   "a_rwnd, or both")
    {
    }

  private:
    void DoRun() override
    {
        RudpCmtBufferSplitting split;
        // Two paths, a 16000-byte send buffer, an advertised window of 12000.
        const RudpCmtBuffers buffers = Buffers(12000, 0, 16000);
        NS_TEST_ASSERT_MSG_EQ(split.Allows(15000, 1000, 2, buffers), true, "none: no share");

        split.SetVariant(RudpCmtBufferSplitting::SENDER_SIDE);
        NS_TEST_ASSERT_MSG_EQ(split.Allows(7000, 1000, 2, buffers), true, "8000 fits 16000/2");
        NS_TEST_ASSERT_MSG_EQ(split.Allows(7001, 1000, 2, buffers), false, "8001 > 16000/2");
        NS_TEST_ASSERT_MSG_EQ(split.Allows(7001, 1000, 1, buffers), true, "one path: all of it");

        split.SetVariant(RudpCmtBufferSplitting::RECEIVER_SIDE);
        // 12000 / 2 = 6000, and one segment beyond it, as INET.
        NS_TEST_ASSERT_MSG_EQ(split.Allows(6000, 1000, 2, buffers), true, "6000 queued: one more");
        NS_TEST_ASSERT_MSG_EQ(split.Allows(6001, 1000, 2, buffers), false, "beyond a_rwnd/2");
        NS_TEST_ASSERT_MSG_EQ(split.Allows(7500, 1000, 2, buffers), false, "the send share aside");

        split.SetVariant(RudpCmtBufferSplitting::BOTH_SIDES);
        NS_TEST_ASSERT_MSG_EQ(split.Allows(6000, 1000, 2, Buffers(12000, 0, 14000)),
                              true,
                              "7000 within both shares");
        NS_TEST_ASSERT_MSG_EQ(split.Allows(6000, 1000, 2, Buffers(12000, 0, 13000)),
                              false,
                              "the send buffer's share (6500) is exceeded");
        NS_TEST_ASSERT_MSG_EQ(split.Allows(6001, 1000, 2, Buffers(12000, 0, 1u << 26)),
                              false,
                              "the receiver's share is exceeded");
    }
};

/// The schedulers' order and the buffer-aware limit on given numbers.
class RudpCmtSchedulerRuleTest : public TestCase
{
  public:
    RudpCmtSchedulerRuleTest()
        : TestCase("schedulers: round robin rotates, lowest RTT first sorts, buffer-aware "
                   "limits a slow path to what the buffer holds at the RTT ratio")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<RudpCmtPathView> paths = {View(0, MilliSeconds(200), 4000),
                                                    View(1, MilliSeconds(50), 3000),
                                                    View(2, MilliSeconds(100), 1000, 2500)};
        const RudpCmtBuffers buffers = Buffers(12000, 4000, 1u << 26); // B = 16000
        RudpCmtScheduler scheduler;
        scheduler.Begin(paths, buffers);
        NS_TEST_ASSERT_MSG_EQ((scheduler.Order(1) == std::vector<uint32_t>{1, 2, 0}),
                              true,
                              "round robin starts at the given path");
        NS_TEST_ASSERT_MSG_EQ(scheduler.LimitsPaths(), false, "round robin limits nothing");
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(0, 1000000), true, "only the windows limit");
        NS_TEST_ASSERT_MSG_EQ(scheduler.ResendPath(0, 1400), 0, "the policy's path");

        scheduler.SetKind(RudpCmtScheduler::LOWEST_RTT_FIRST);
        NS_TEST_ASSERT_MSG_EQ((scheduler.Order(1) == std::vector<uint32_t>{1, 2, 0}),
                              true,
                              "50, 100, 200 ms");
        NS_TEST_ASSERT_MSG_EQ((scheduler.Order(0) == std::vector<uint32_t>{1, 2, 0}),
                              true,
                              "whatever the round-robin start");

        scheduler.SetKind(RudpCmtScheduler::BUFFER_AWARE);
        NS_TEST_ASSERT_MSG_EQ((scheduler.Order(2) == std::vector<uint32_t>{1, 2, 0}),
                              true,
                              "lowest RTT first");
        NS_TEST_ASSERT_MSG_EQ(scheduler.QueueLimit(1).has_value(), false, "the fastest: no limit");
        // Path 2 (100 ms): path 1 turns its 3000 twice: 16000 - 6000.
        NS_TEST_ASSERT_MSG_EQ(scheduler.QueueLimit(2).value_or(0), 10000, "B - 2 x 3000");
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(2, 7500), true, "2500 + 7500 = 10000");
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(2, 7501), false, "one byte more");
        // Path 0 (200 ms): 3000 x 4 + 1000 x 2 = 14000 of 16000.
        NS_TEST_ASSERT_MSG_EQ(scheduler.QueueLimit(0).value_or(0), 2000, "B - 4 x 3000 - 2 x 1000");
        scheduler.Sent(0, 1500, false);
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(0, 500), true, "1500 + 500 = 2000");
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(0, 501), false, "what it sent counts");
        scheduler.Sent(0, 1000, true);
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(0, 500), true, "a resend was queued already");

        // A fast path that fills the buffer alone leaves nothing to a slow one.
        scheduler.Begin({View(0, MilliSeconds(100), 20000), View(1, MilliSeconds(400), 20000)},
                        Buffers(16000, 0, 1u << 26));
        NS_TEST_ASSERT_MSG_EQ(scheduler.QueueLimit(1).value_or(1), 0, "no share for 400 ms");
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(1, 1), false, "not a byte");
        NS_TEST_ASSERT_MSG_EQ(scheduler.ResendPath(1, 1400), 0, "its resends go on the fast path");
        NS_TEST_ASSERT_MSG_EQ(scheduler.ResendPath(0, 1400), 0, "the fast path's stay");
        // Equal RTTs: what the faster windows leave.
        scheduler.Begin({View(0, MilliSeconds(100), 6000), View(1, MilliSeconds(100), 6000)},
                        Buffers(16000, 0, 1u << 26));
        NS_TEST_ASSERT_MSG_EQ(scheduler.QueueLimit(1).value_or(0), 10000, "ties go by index");
        NS_TEST_ASSERT_MSG_EQ(scheduler.ResendPath(1, 1400),
                              1,
                              "a path with a share keeps its own");

        // Buffer splitting beside the scheduler.
        scheduler.SetKind(RudpCmtScheduler::ROUND_ROBIN);
        scheduler.SetBufferSplitting(RudpCmtBufferSplitting::RECEIVER_SIDE);
        NS_TEST_ASSERT_MSG_EQ(scheduler.LimitsPaths(), true, "splitting limits the paths");
        scheduler.Begin({View(0, MilliSeconds(100), 6000, 8001), View(1, MilliSeconds(100), 6000)},
                        Buffers(16000, 0, 1u << 26));
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(0, 1), false, "beyond 16000 / 2");
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(1, 1400), true, "within its share");
    }
};

/**
 * BLEST's estimate and decision on given numbers: the fast path's bytes
 * during the slow path's RTT, the wait when lambda times them exceeds the
 * buffer beside the slow path's bytes, and lambda's steps.
 */
class RudpCmtBlestRuleTest : public TestCase
{
  public:
    RudpCmtBlestRuleTest()
        : TestCase("BLEST: waits for the fast path when it would fill the buffer during the "
                   "slow path's RTT; lambda steps up after blocking, down after none")
    {
    }

  private:
    void DoRun() override
    {
        const RudpCmtPathView fast = View(1, MilliSeconds(20), 14000);
        const RudpCmtPathView slow = View(0, MilliSeconds(100), 10000, 2800);
        // Five fast round trips per slow one, each window a segment larger:
        // 5 x 14000 + 1400 x (0 + 1 + 2 + 3 + 4) = 84000.
        NS_TEST_ASSERT_MSG_EQ_TOL(RudpCmtBlest::FastBytes(fast, slow, MSS),
                                  84000.0,
                                  1e-6,
                                  "rtts x (cwnd_f + MSS (rtts - 1) / 2)");
        NS_TEST_ASSERT_MSG_EQ_TOL(RudpCmtBlest::FastBytes(fast, fast, MSS),
                                  14000.0,
                                  1e-6,
                                  "one window at the same RTT");
        NS_TEST_ASSERT_MSG_EQ_TOL(RudpCmtBlest::FastBytes(slow, fast, MSS),
                                  10000.0,
                                  1e-6,
                                  "never less than one round trip");
        RudpCmtBlest blest;
        NS_TEST_ASSERT_MSG_EQ_TOL(blest.GetLambda(), 1.2, 1e-9, "Linux's start");
        // lambda X = 100800; the slow path holds 2800 + 1400 of the buffer.
        NS_TEST_ASSERT_MSG_EQ(blest.Waits(fast, slow, MSS, MSS, 106000),
                              false,
                              "101800 bytes of room: send on the slow path");
        NS_TEST_ASSERT_MSG_EQ(blest.Waits(fast, slow, MSS, MSS, 104000),
                              true,
                              "99800 bytes of room: wait for the fast path");
        NS_TEST_ASSERT_MSG_EQ(blest.Waits(fast, slow, 0, MSS, 104000),
                              false,
                              "a resend is among the queued bytes already");
        NS_TEST_ASSERT_MSG_EQ(
            blest.Waits(fast, View(0, MilliSeconds(100), 10000, 200000), 0, MSS, 104000),
            true,
            "no room at all");

        // lambda: once per period, up after a blocked round, down after free ones.
        blest.BeginRound(false, Seconds(0), MilliSeconds(100));
        NS_TEST_ASSERT_MSG_EQ_TOL(blest.GetLambda(), 1.2, 1e-9, "the first round starts a period");
        blest.BeginRound(false, MilliSeconds(50), MilliSeconds(100));
        NS_TEST_ASSERT_MSG_EQ_TOL(blest.GetLambda(), 1.2, 1e-9, "within the first period");
        blest.BeginRound(true, MilliSeconds(60), MilliSeconds(100));
        blest.BeginRound(false, MilliSeconds(100), MilliSeconds(100));
        NS_TEST_ASSERT_MSG_EQ_TOL(blest.GetLambda(), 1.24, 1e-9, "blocked in the period: +0.04");
        blest.BeginRound(false, MilliSeconds(150), MilliSeconds(100));
        NS_TEST_ASSERT_MSG_EQ_TOL(blest.GetLambda(), 1.24, 1e-9, "once per period");
        blest.BeginRound(false, MilliSeconds(200), MilliSeconds(100));
        NS_TEST_ASSERT_MSG_EQ_TOL(blest.GetLambda(), 1.23, 1e-9, "free: -0.01");
        for (int k = 3; k < 10; ++k)
        {
            blest.BeginRound(true, MilliSeconds(100 * k), MilliSeconds(100));
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(blest.GetLambda(), 1.3, 1e-9, "at most 1.3");
        for (int k = 10; k < 50; ++k)
        {
            blest.BeginRound(false, MilliSeconds(100 * k), MilliSeconds(100));
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(blest.GetLambda(), 1.0, 1e-9, "at least 1.0");
        RudpCmtBlest later; // an association that starts after 10 s
        later.BeginRound(false, Seconds(10), MilliSeconds(100));
        NS_TEST_ASSERT_MSG_EQ_TOL(later.GetLambda(), 1.2, 1e-9, "no step at its first round");
        later.BeginRound(false, Seconds(10) + MilliSeconds(100), MilliSeconds(100));
        NS_TEST_ASSERT_MSG_EQ_TOL(later.GetLambda(), 1.19, 1e-9, "one period after it");
        RudpCmtBlest::Lambda lambda;
        lambda.initial = 2;
        lambda.max = 3;
        blest.SetLambda(lambda);
        NS_TEST_ASSERT_MSG_EQ_TOL(blest.GetLambda(), 2.0, 1e-9, "set anew");
        NS_TEST_ASSERT_MSG_EQ(blest.Waits(fast, slow, MSS, MSS, 106000),
                              true,
                              "a larger lambda waits sooner");

        // In the scheduler: lowest RTT first, the fastest path free, the
        // slower one held back and its resends moved.
        RudpCmtScheduler scheduler;
        scheduler.SetKind(RudpCmtScheduler::BLEST);
        scheduler.SetSegmentSize(MSS);
        NS_TEST_ASSERT_MSG_EQ(scheduler.LimitsPaths(), true, "it reads the queued bytes");
        NS_TEST_ASSERT_MSG_EQ(scheduler.RoutesResends(), true, "it moves resends");
        scheduler.Begin({slow, fast}, Buffers(97000, 4000, 1u << 26)); // B = 101000
        NS_TEST_ASSERT_MSG_EQ((scheduler.Order(0) == std::vector<uint32_t>{1, 0}),
                              true,
                              "lowest RTT first");
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(1, MSS), true, "the fastest path: its windows");
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(0, MSS), false, "wait for the fast path");
        NS_TEST_ASSERT_MSG_EQ(scheduler.ResendPath(0, MSS),
                              1,
                              "98200 bytes of room: its resend on the fast path");
        NS_TEST_ASSERT_MSG_EQ(scheduler.QueueLimit(0).has_value(), false, "no share limit");
        scheduler.Begin({slow, fast}, Buffers(102000, 4000, 1u << 26)); // B = 106000
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(0, MSS), true, "room enough: send");
        NS_TEST_ASSERT_MSG_EQ(scheduler.ResendPath(0, MSS), 0, "the policy's path");
        scheduler.Sent(0, 4 * MSS, false);
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(0, MSS), false, "what it sent counts");
        // The fastest path failed: the slow one is the fastest active path.
        RudpCmtPathView failed = fast;
        failed.active = false;
        scheduler.Begin({slow, failed}, Buffers(100000, 4000, 1u << 26));
        NS_TEST_ASSERT_MSG_EQ(scheduler.Allows(0, MSS), true, "nothing to wait for");
        // The other kinds leave resends where the policy put them.
        scheduler.SetKind(RudpCmtScheduler::LOWEST_RTT_FIRST);
        NS_TEST_ASSERT_MSG_EQ(scheduler.RoutesResends(), false, "lowest RTT first: no");
    }
};

/// Chunk rescheduling's trigger and target on given numbers.
class RudpCmtReschedulingRuleTest : public TestCase
{
  public:
    RudpCmtReschedulingRuleTest()
        : TestCase("chunk rescheduling: acts at the threshold, on the fastest path not in "
                   "recovery, back on the same path only after two of its RTTs")
    {
    }

  private:
    void DoRun() override
    {
        RudpCmtChunkRescheduling rescheduling;
        NS_TEST_ASSERT_MSG_EQ(rescheduling.Blocked(Buffers(16000, 0, 0)), false, "nothing held");
        NS_TEST_ASSERT_MSG_EQ(rescheduling.Blocked(Buffers(8001, 7999, 0)), false, "below half");
        NS_TEST_ASSERT_MSG_EQ(rescheduling.Blocked(Buffers(8000, 8000, 0)), true, "half held");
        rescheduling.SetThreshold(0.75);
        NS_TEST_ASSERT_MSG_EQ(rescheduling.Blocked(Buffers(8000, 8000, 0)), false, "below 3/4");

        std::vector<RudpCmtPathView> paths = {View(0, MilliSeconds(300), 4000),
                                              View(1, MilliSeconds(40), 4000),
                                              View(2, MilliSeconds(100), 4000)};
        NS_TEST_ASSERT_MSG_EQ(rescheduling.Target(paths, 0, MilliSeconds(1)).value_or(9),
                              1,
                              "the fastest path");
        paths[1].inFastRecovery = true;
        NS_TEST_ASSERT_MSG_EQ(rescheduling.Target(paths, 0, MilliSeconds(1)).value_or(9),
                              2,
                              "the fastest not in fast recovery");
        paths[2].active = false;
        NS_TEST_ASSERT_MSG_EQ(rescheduling.Target(paths, 1, MilliSeconds(1)).value_or(9),
                              0,
                              "the fastest active one");
        NS_TEST_ASSERT_MSG_EQ(rescheduling.Target(paths, 0, MilliSeconds(600)).has_value(),
                              false,
                              "its own path within two RTTs");
        NS_TEST_ASSERT_MSG_EQ(rescheduling.Target(paths, 0, MilliSeconds(601)).value_or(9),
                              0,
                              "its own path after two RTTs");
    }
};

/**
 * With a split, no path sends new data beyond its share: sender side with
 * a small send buffer, receiver side with a small receive buffer; without
 * it, the fast path takes more (the check can fail).
 */
class RudpCmtSplittingShareTest : public TestCase
{
  public:
    /**
     * \param variant the attribute value of BufferSplitting
     */
    RudpCmtSplittingShareTest(const std::string& variant)
        : TestCase("buffer splitting " + variant +
                   ": a path never queues new data beyond its share"),
          m_variant(variant)
    {
    }

  private:
    /**
     * \param variant BufferSplitting
     * \param[out] delivered the bytes delivered
     * \return the most each path had queued at a first transmission
     */
    std::vector<uint32_t> Queued(const std::string& variant, uint64_t& delivered)
    {
        // The fast path (20 ms) would fill the buffers behind the slow one (200 ms).
        TracedAssociation cmt({{MilliSeconds(20), 0.01}, {MilliSeconds(200), 0.01}}, RcvBuf());
        cmt.Helper().SetSenderAttribute("SndBufSize", UintegerValue(SndBuf()));
        cmt.Helper().SetSenderAttribute("BufferSplitting", StringValue(variant));
        delivered = cmt.Run(Seconds(20));
        NS_TEST_EXPECT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "every byte right");
        return {cmt.MaxQueuedAtFirstTx(0), cmt.MaxQueuedAtFirstTx(1)};
    }

    uint32_t RcvBuf() const
    {
        return m_variant == "SenderSide" ? 1u << 20 : 16 * MSS;
    }

    uint32_t SndBuf() const
    {
        return m_variant == "ReceiverSide" ? 1u << 26 : 12 * MSS;
    }

    void DoRun() override
    {
        // Sender side: SndBufSize / 2. Receiver side: a_rwnd / 2 (at most
        // RcvBufSize / 2) before the segment, so one segment more.
        const uint32_t share = m_variant == "SenderSide"     ? SndBuf() / 2
                               : m_variant == "ReceiverSide" ? RcvBuf() / 2 + MSS
                                                             : SndBuf() / 2;
        uint64_t split = 0;
        uint64_t unsplit = 0;
        const std::vector<uint32_t> with = Queued(m_variant, split);
        const std::vector<uint32_t> without = Queued("None", unsplit);
        for (uint32_t path = 0; path < 2; ++path)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(with[path],
                                        share,
                                        "path " << path << " queued beyond its share");
        }
        NS_TEST_ASSERT_MSG_GT(without[0], share, "without a split the fast path takes more");
        NS_TEST_ASSERT_MSG_GT(split, 500000, "the association still carries data");
    }

    std::string m_variant; ///< BufferSplitting
};

/**
 * Chunk rescheduling on a lossless RTT mismatch: the slow path's segment
 * at the head of the blockage is sent again on the fast path; without it
 * nothing is ever resent.
 */
class RudpCmtReschedulingTest : public TestCase
{
  public:
    RudpCmtReschedulingTest()
        : TestCase("chunk rescheduling resends the segment blocking the buffer on the fastest "
                   "path")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<TracedAssociation::Path> paths = {{MilliSeconds(400), 0},
                                                            {MilliSeconds(20), 0}};
        uint64_t plain = 0;
        {
            TracedAssociation cmt(paths, 16 * MSS);
            plain = cmt.Run(Seconds(20));
            NS_TEST_ASSERT_MSG_EQ(cmt.Resends().size(), 0, "no loss, no resend");
            NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().rescheduledSegments, 0, "off");
        }
        TracedAssociation cmt(paths, 16 * MSS);
        cmt.Helper().SetSenderAttribute("ChunkRescheduling", BooleanValue(true));
        const uint64_t rescheduled = cmt.Run(Seconds(20));
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "every byte right");
        NS_TEST_ASSERT_MSG_GT(cmt.Sender()->GetStats().rescheduledSegments, 10, "it acted");
        NS_TEST_ASSERT_MSG_EQ(cmt.Resends().size(),
                              cmt.Sender()->GetStats().rescheduledSegments,
                              "every resend was a rescheduling (no loss)");
        for (const auto& resend : cmt.Resends())
        {
            NS_TEST_ASSERT_MSG_EQ(resend.head, true, "the head of the blockage was moved");
            NS_TEST_ASSERT_MSG_EQ(resend.from, 0, "from the slow path");
            NS_TEST_ASSERT_MSG_EQ(resend.to, 1, "to the fastest");
        }
        NS_TEST_ASSERT_MSG_GT(rescheduled, plain, "less blocking, more goodput");
    }
};

/**
 * The schedulers on a 16 KB buffer with a 20 ms and a 400 ms path:
 * buffer-aware sends (almost) nothing on the slow path and beats round
 * robin; with equal paths and a large buffer it uses both.
 */
class RudpCmtBufferAwareTest : public TestCase
{
  public:
    RudpCmtBufferAwareTest()
        : TestCase("buffer-aware scheduler: no new data where the buffer cannot hold it, "
                   "both paths where it can")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<TracedAssociation::Path> mismatch = {{MilliSeconds(400), 0.01},
                                                               {MilliSeconds(20), 0.01}};
        std::map<std::string, uint64_t> delivered;
        std::map<std::string, uint64_t> slowBytes;
        std::map<std::string, uint64_t> slowResends;
        std::map<std::string, uint64_t> resends;
        for (const std::string scheduler : {"RoundRobin", "LowestRttFirst", "BufferAware"})
        {
            TracedAssociation cmt(mismatch, 16 * MSS);
            cmt.Helper().SetSenderAttribute("Scheduler", StringValue(scheduler));
            delivered[scheduler] = cmt.Run(Seconds(30));
            slowBytes[scheduler] = cmt.FirstTxBytes(0);
            for (const auto& resend : cmt.Resends())
            {
                slowResends[scheduler] += resend.to == 0 ? 1 : 0;
                resends[scheduler] += 1;
            }
            NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "every byte right");
        }
        // The slow path gets new data only while the fast one's window is
        // small: before the first RTT samples, and after a timeout on it.
        NS_TEST_ASSERT_MSG_LT(slowBytes["BufferAware"] * 100,
                              delivered["BufferAware"],
                              "the slow path carries under 1 %");
        NS_TEST_ASSERT_MSG_GT(slowBytes["RoundRobin"], 100 * MSS, "round robin uses it");
        // RTX-SSTHRESH picks the idle slow path (its threshold never cut) for
        // resends; the buffer-aware scheduler sends them on the fast path.
        NS_TEST_ASSERT_MSG_LT(slowResends["BufferAware"] * 10,
                              resends["BufferAware"],
                              "under a tenth of the resends go on the slow path");
        NS_TEST_ASSERT_MSG_GT(delivered["BufferAware"],
                              2 * delivered["RoundRobin"],
                              "and is paced by it");

        TracedAssociation equal({{MilliSeconds(100), 0.01}, {MilliSeconds(100), 0.01}}, 1u << 28);
        equal.Helper().SetSenderAttribute("Scheduler", StringValue("BufferAware"));
        equal.Run(Seconds(20));
        const double share = static_cast<double>(equal.FirstTxBytes(1)) /
                             (equal.FirstTxBytes(0) + equal.FirstTxBytes(1));
        NS_TEST_ASSERT_MSG_GT(share, 0.3, "a large buffer holds both paths' windows");
    }
};

/**
 * BLEST against lowest RTT first over a 20 ms and a 400 ms path sharing a
 * 64 KB receive buffer: lowest RTT first fills the slow path's window
 * whenever the fast one is full, and those segments hold the buffer's head
 * for 400 ms; BLEST waits for the fast path, which alone nearly never fills
 * the buffer. BLEST must block for at most half as long and deliver at
 * least as much. With a large buffer it uses the slow path.
 */
class RudpCmtBlestTest : public TestCase
{
  public:
    RudpCmtBlestTest()
        : TestCase("BLEST: less receive-buffer blocking than lowest RTT first over a 20 ms and "
                   "a 400 ms path, at least its goodput; both paths with a large buffer")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<TracedAssociation::Path> mismatch = {{MilliSeconds(400), 0.01},
                                                               {MilliSeconds(20), 0.01}};
        std::map<std::string, uint64_t> delivered;
        std::map<std::string, Time> blocked;
        for (const std::string scheduler : {"LowestRttFirst", "Blest"})
        {
            TracedAssociation cmt(mismatch, 65536);
            cmt.Helper().SetSenderAttribute("Scheduler", StringValue(scheduler));
            delivered[scheduler] = cmt.Run(Seconds(30));
            blocked[scheduler] = cmt.Sender()->GetStats().receiveWindowLimitedTime;
            NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "every byte right");
        }
        NS_TEST_ASSERT_MSG_GT(blocked["LowestRttFirst"],
                              Seconds(10),
                              "lowest RTT first: the slow path blocks the buffer");
        NS_TEST_ASSERT_MSG_LT(blocked["Blest"] * 2,
                              blocked["LowestRttFirst"],
                              "BLEST blocks for at most half as long");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(delivered["Blest"],
                                    delivered["LowestRttFirst"],
                                    "and delivers at least as much");

        // A buffer that holds the fast path's bytes during the slow path's
        // RTT: BLEST sends on both.
        TracedAssociation large({{MilliSeconds(200), 0.01}, {MilliSeconds(50), 0.01}}, 1u << 20);
        large.Helper().SetSenderAttribute("Scheduler", StringValue("Blest"));
        large.Run(Seconds(20));
        const double share = static_cast<double>(large.FirstTxBytes(0)) /
                             (large.FirstTxBytes(0) + large.FirstTxBytes(1));
        NS_TEST_ASSERT_MSG_GT(share, 0.2, "the 200 ms path carries its part");
    }
};

/// The suite of the remedies for receive-buffer blocking.
class RudpCmtRemediesTestSuite : public TestSuite
{
  public:
    RudpCmtRemediesTestSuite()
        : TestSuite("rudp-cmt-remedies")
    {
        AddTestCase(new RudpCmtBufferSplittingRuleTest);
        AddTestCase(new RudpCmtSchedulerRuleTest);
        AddTestCase(new RudpCmtBlestRuleTest);
        AddTestCase(new RudpCmtReschedulingRuleTest);
        for (const std::string variant : {"SenderSide", "ReceiverSide", "BothSides"})
        {
            AddTestCase(new RudpCmtSplittingShareTest(variant));
        }
        AddTestCase(new RudpCmtReschedulingTest);
        AddTestCase(new RudpCmtBufferAwareTest);
        AddTestCase(new RudpCmtBlestTest);
    }
};

/// Static instance registering the suite.
static RudpCmtRemediesTestSuite g_rudpCmtRemediesTestSuite;
