/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-cmt-test-harness.h"

#include "ns3/test.h"

#include <algorithm>
#include <optional>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * The CMT sender and receiver against RFC 4960 and ns-2.31's SCTP-CMT:
 * window growth only when the window is used, a fast retransmission sent at
 * once, ns-2's DAC rule, an immediate SACK for a gap's filler, RTX-LOSSRATE,
 * Max.Burst, CMT-PF and the ns-2 defaults.
 */

using namespace ns3;
using namespace ns3::rudptest;

namespace
{

/// Records the largest value of a traced window.
void
NoteLargest(uint32_t* largest, uint32_t, uint32_t value)
{
    *largest = std::max(*largest, value);
}

/// The scripted receiver acknowledges segments 2..k+1 of 1000 bytes, not the first.
void
SackAllButFirst(ScriptedPeer* peer, uint32_t k)
{
    const SequenceNumber32 first = RudpCmtSendEngine::FIRST_SEQUENCE;
    peer->Sack(0, first, {{first + 1000, first + 1000 * (k + 1)}}, false);
}

/// Counts the retransmissions recorded before now into \p count.
void
CountResends(const CmtScenario* scenario, uint32_t* count)
{
    *count = scenario->Resends().size();
}

/// Records every value of a traced window.
void
NoteWindow(std::vector<uint32_t>* values, uint32_t, uint32_t value)
{
    values->push_back(value);
}

/// Records every value of a traced window with the SACKs that had arrived.
void
NoteWindowAtSack(const CmtScenario* scenario,
                 std::vector<std::pair<uint64_t, uint32_t>>* values,
                 uint32_t,
                 uint32_t value)
{
    values->emplace_back(scenario->Sacks(), value);
}

/// Records every value of a traced window with its time.
void
NoteWindowAtTime(std::vector<std::pair<Time, uint32_t>>* values, uint32_t, uint32_t value)
{
    values->emplace_back(Simulator::Now(), value);
}

/// Records the first path's current RTO into \p rto.
void
NoteRto(Ptr<RudpCmtSender> sender, Time* rto)
{
    *rto = sender->GetPaths()[0]->GetRtoTimer()->GetRto();
}

/// Acknowledges 9 segments of \p mss bytes, offering a window of one.
void
SackNineOfTen(ScriptedPeer* peer, uint32_t mss)
{
    peer->Sack(0, RudpCmtSendEngine::FIRST_SEQUENCE + 9 * mss, {}, false, mss);
}

/// Acknowledges path 0's first two segments of \p mss bytes, on path 0.
void
SackPathZero(ScriptedPeer* peer, uint32_t mss)
{
    peer->Sack(0, RudpCmtSendEngine::FIRST_SEQUENCE + 2 * mss, {}, false);
}

/// Acknowledges segments 1-3 and 5-7 of \p mss bytes (not 4), on path 1.
void
SackResendAndPathZero(ScriptedPeer* peer, uint32_t mss)
{
    const SequenceNumber32 first = RudpCmtSendEngine::FIRST_SEQUENCE;
    peer->Sack(1, first + 3 * mss, {{first + 4 * mss, first + 7 * mss}}, false);
}

/// The scripted receiver acknowledges segments 3..k+2 of 1000 bytes, not the first two.
void
SackAllButFirstTwo(ScriptedPeer* peer, uint32_t k)
{
    const SequenceNumber32 first = RudpCmtSendEngine::FIRST_SEQUENCE;
    peer->Sack(0, first, {{first + 2000, first + 1000 * (k + 2)}}, false);
}

} // namespace

/**
 * \ingroup rudp-test
 * RFC 4960 7.2.1/7.2.2: a path's window grows only when it was fully used.
 * With a 16 KB receive buffer the receiver's window is the limit, and the
 * paths' windows must stay near it (before, they grew without bound).
 */
class RudpCmtCwndUtilisationTest : public TestCase
{
  public:
    RudpCmtCwndUtilisationTest()
        : TestCase("cwnd grows only while it is fully used: a receiver-window-limited path's "
                   "window stays near the receiver's window")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t mss = 1452;
        const uint32_t rbuf = 16384;
        CmtScenario cmt({{MilliSeconds(50)}, {MilliSeconds(50)}}, rbuf, mss, false);
        cmt.Install();
        uint32_t largest[2] = {0, 0};
        for (uint32_t i = 0; i < 2; ++i)
        {
            cmt.Sender()->GetPaths()[i]->GetState()->TraceConnectWithoutContext(
                "CongestionWindow",
                MakeBoundCallback(&NoteLargest, &largest[i]));
        }
        cmt.Run(Seconds(20));
        NS_TEST_ASSERT_MSG_GT(cmt.Receiver()->GetStats().deliveredBytes,
                              1000000,
                              "the data flowed");
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_ASSERT_MSG_LT_OR_EQ(largest[i],
                                        rbuf + 2 * mss,
                                        "path " << i << "'s window stays near the receiver's");
        }
    }
};

/**
 * \ingroup rudp-test
 * RFC 4960 6.1 B: a path sends new data while it has less than cwnd
 * outstanding, the last packet overshooting cwnd by less than one MTU (ns-2's
 * SendMuch too). One loss cuts a window of 5 segments to 2.5. Sending only
 * whole segments that fit, the path then sent 2 a round trip, each SACK
 * acknowledged all of them, partial_bytes_acked went back to 0 (7.2.2) and
 * the window never grew again (one path at 100 ms and 5 % loss: 37 kB/s and
 * 54 timeouts where ns-2.35 has 64 and 24).
 */
class RudpCmtSendBelowCwndTest : public TestCase
{
  public:
    RudpCmtSendBelowCwndTest(bool ns2Defaults)
        : TestCase(std::string("a path sends while less than cwnd is outstanding: a window "
                               "of 2.5 segments grows again") +
                   (ns2Defaults ? " (ns-2 defaults)" : "")),
          m_ns2Defaults(ns2Defaults)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t mss = 1000;
        CmtScenario cmt({{MilliSeconds(50)}}, 1u << 20, mss, m_ns2Defaults);
        cmt.Helper().SetSenderAttribute("InitialCwnd", UintegerValue(5));
        cmt.Helper().SetSenderAttribute("InitialSlowStartThreshold", UintegerValue(mss));
        cmt.Drop(0, {3});
        cmt.Install();
        std::vector<uint32_t> windows;
        cmt.Sender()->GetPaths()[0]->GetState()->TraceConnectWithoutContext(
            "CongestionWindow",
            MakeBoundCallback(&NoteWindow, &windows));
        cmt.Run(Seconds(3));
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().timeouts, 0, "the loss was repaired fast");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().fastRetransmits, 1, "one loss");
        NS_TEST_ASSERT_MSG_EQ(windows.empty(), false, "the window changed");
        const uint32_t cut = *std::min_element(windows.begin(), windows.end());
        NS_TEST_ASSERT_MSG_EQ(cut, 5 * mss / 2, "the cut left 2.5 segments");
        // 3 s are 30 round trips: in congestion avoidance, one segment more
        // every round trip or two.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(windows.back(), cut + 5 * mss, "the window grew again");
    }

    bool m_ns2Defaults; ///< start from RudpCmtHelper::SetNs2Defaults
};

/**
 * \ingroup rudp-test
 * RFC 4960 7.2.1: slow start while cwnd is less than or equal to ssthresh
 * (ns-2's AdjustCwnd too), so a window at ssthresh, fully used, grows by one
 * MSS on the next SACK, as after every cut to cwnd = ssthresh. Congestion
 * avoidance at cwnd = ssthresh waited for a whole window of acknowledged
 * bytes: with a SACK per segment, the second SACK.
 */
class RudpCmtSlowStartAtSsthreshTest : public TestCase
{
  public:
    RudpCmtSlowStartAtSsthreshTest()
        : TestCase("slow start at cwnd = ssthresh: a window of 2 segments at a threshold of 2 "
                   "grows on the first SACK")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t mss = 1000;
        CmtScenario cmt({{MilliSeconds(50)}}, 1u << 20, mss, false);
        cmt.Helper().SetSenderAttribute("InitialCwnd", UintegerValue(2));
        cmt.Helper().SetSenderAttribute("InitialSlowStartThreshold", UintegerValue(2 * mss));
        cmt.Helper().SetReceiverAttribute("DelAckCount", UintegerValue(1));
        cmt.Install();
        std::vector<std::pair<uint64_t, uint32_t>> windows;
        cmt.Sender()->GetPaths()[0]->GetState()->TraceConnectWithoutContext(
            "CongestionWindow",
            MakeBoundCallback(&NoteWindowAtSack, &cmt, &windows));
        cmt.Run(Seconds(0.5));
        auto grown = std::find_if(windows.begin(), windows.end(), [mss](const auto& w) {
            return w.second > 2 * mss;
        });
        NS_TEST_ASSERT_MSG_EQ((grown != windows.end()), true, "the window grew");
        if (grown != windows.end())
        {
            NS_TEST_ASSERT_MSG_EQ(grown->second, 3 * mss, "by one MSS");
            NS_TEST_ASSERT_MSG_EQ(grown->first, 1, "on the first SACK");
        }
    }
};

/**
 * \ingroup rudp-test
 * ns-2.35's CUC (Ns2Recovery; sctp-cmt.cc ProcessGapAckBlocks and
 * SendBufferDequeueUpTo): a destination's expected pseudo-cumulative ACK,
 * once found, stays on its lost chunk -- marked for retransmission and
 * resent -- until that chunk is acknowledged, and the window grows only on
 * SACKs that pass it. So after a cut the window stays put for the resend's
 * round trip, then slow-starts once (cwnd = ssthresh). ns-2.35 itself, one
 * path of 10 Mb/s and 50 ms, ``initialSsthresh_ 30000``, the 80th packet
 * dropped (``cwnd_`` traced): the cut to 16136 bytes at 1.12575 s, with the
 * resend; the next change at 1.22699 s, to 17604 (+1 MTU); then one MTU a
 * round trip. This sender grew the window on the SACKs of the segments sent
 * after the lost one, within the resend's round trip: it took the earliest
 * segment not marked lost as the pseudo-cumulative ACK.
 */
class RudpCmtNs2PseudoCumTest : public TestCase
{
  public:
    RudpCmtNs2PseudoCumTest()
        : TestCase("ns-2 defaults: the window stays put from the cut until the resend is "
                   "acknowledged (ns-2's pseudo-cumulative ACK stays on the lost segment)")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t mss = 1468;
        const Time oneWay = MilliSeconds(50);
        CmtScenario cmt({{oneWay}}, 1u << 20, mss, true);
        cmt.Helper().SetSenderAttribute("InitialSlowStartThreshold", UintegerValue(30000));
        cmt.Drop(0, {78});
        std::vector<std::pair<Time, uint32_t>> windows;
        cmt.Sender()->GetPaths()[0]->GetState()->TraceConnectWithoutContext(
            "CongestionWindow",
            MakeBoundCallback(&NoteWindowAtTime, &windows));
        cmt.Run(Seconds(2));
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().fastRetransmits, 1, "one loss");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().timeouts, 0, "repaired fast");
        NS_TEST_ASSERT_MSG_EQ(cmt.Resends().size(), 1, "resent once");
        if (cmt.Resends().empty())
        {
            return;
        }
        const Time resent = cmt.Resends().front().at;
        uint32_t cut = 0;
        std::vector<uint32_t> during;  // within the resend's round trip
        std::optional<uint32_t> after; // the first change after it
        for (const auto& [at, value] : windows)
        {
            if (at <= resent)
            {
                cut = value;
            }
            else if (at < resent + 2 * oneWay)
            {
                during.push_back(value);
            }
            else if (!after)
            {
                after = value;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(during.size(),
                              0,
                              "the window changed within the resend's round trip (first: "
                                  << (during.empty() ? 0 : during.front()) << ", cut " << cut
                                  << ")");
        NS_TEST_ASSERT_MSG_EQ(after.has_value(), true, "the window grew again");
        NS_TEST_ASSERT_MSG_EQ(after.value_or(0), cut + mss, "by one MSS: slow start at ssthresh");
    }
};

/**
 * \ingroup rudp-test
 * ns-2.35's round robin (Ns2RoundRobin; sctp-cmt.cc SendMuch): each sending
 * opportunity starts at the path after the one that last sent new data
 * (spNodeLastSentTo). Three paths of 10 Mb/s and 50 ms, 16 KB, each sending
 * 3 chunks at the start: ns-2.35 (``trace-all``) sends the first data after
 * that on path 0 (0.4015 s: paths 0, 0, 1). This sender moved its start one
 * path further at every opportunity, whoever sent: path 1 first (1, 1, 0).
 * With 16 KB the receiver's window, not cwnd, limits every opportunity, so
 * the start decides which path gets the freed space.
 */
class RudpCmtNs2RoundRobinTest : public TestCase
{
  public:
    RudpCmtNs2RoundRobinTest()
        : TestCase("Ns2RoundRobin: a sending opportunity starts at the path after the one that "
                   "last sent new data")
    {
    }

  private:
    void DoRun() override
    {
        const Time oneWay = MilliSeconds(50);
        CmtScenario cmt({{oneWay}, {oneWay}, {oneWay}}, 16384, 1468, true);
        cmt.Helper().SetSenderAttribute("InitialCwnd", UintegerValue(3));
        cmt.Helper().SetSenderAttribute("Ns2RoundRobin", BooleanValue(true));
        cmt.Run(Seconds(0.2));
        std::vector<uint32_t> first; // paths of the first opportunity after the start
        for (const auto& sent : cmt.Sent())
        {
            if (sent.at > Seconds(0) && (first.empty() || sent.at == cmt.Sent()[9].at))
            {
                first.push_back(sent.path);
            }
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(cmt.Sent().size(), 10, "data after the initial windows");
        NS_TEST_ASSERT_MSG_EQ(first.empty(), false, "sent again");
        NS_TEST_ASSERT_MSG_EQ(first.front(), 0, "the path after path 2, the last that sent");
    }
};

/**
 * \ingroup rudp-test
 * RFC 4960 7.2.4 (3): a fast retransmission goes out at once, whatever the
 * (just cut) window. A scripted receiver reports the first segment missing
 * three times; the window after the cut is full of later segments.
 */
class RudpCmtFastRetransmitAtOnceTest : public TestCase
{
  public:
    RudpCmtFastRetransmitAtOnceTest()
        : TestCase("a fast retransmission is sent when the third missing report arrives, "
                   "although the halved window is full")
    {
    }

  private:
    void DoRun() override
    {
        CmtScenario cmt({{MilliSeconds(50)}}, 1u << 20, 1000, false);
        cmt.Helper().SetSenderAttribute("InitialCwnd", UintegerValue(4));
        cmt.Helper().SetSenderAttribute("Dac", BooleanValue(false));
        cmt.Helper().SetSenderAttribute("ReTxThreshold", UintegerValue(3));
        ScriptedPeer peer(cmt);
        const SequenceNumber32 first = RudpCmtSendEngine::FIRST_SEQUENCE;
        // The first segment (bytes 1..1000) is lost; 2, 3 and 4 arrive.
        for (uint32_t k = 1; k <= 3; ++k)
        {
            Simulator::Schedule(MilliSeconds(100 + 10 * k), &SackAllButFirst, &peer, k);
        }
        uint32_t beforeThird = 0;
        uint32_t afterThird = 0;
        // The SACKs reach the sender 50 ms (and a little) after they leave.
        Simulator::Schedule(MilliSeconds(175), &CountResends, &cmt, &beforeThird);
        Simulator::Schedule(MilliSeconds(195), &CountResends, &cmt, &afterThird);
        cmt.Run(Seconds(0.5));
        NS_TEST_ASSERT_MSG_EQ(beforeThird, 0, "two missing reports are not enough");
        NS_TEST_ASSERT_MSG_EQ(afterThird, 1, "the third sends the segment at once");
        if (!cmt.Resends().empty())
        {
            NS_TEST_ASSERT_MSG_EQ(cmt.Resends().front().seq, first, "the lost one");
        }
        const Ptr<RudpSenderState> state = cmt.Sender()->GetPaths()[0]->GetState();
        NS_TEST_ASSERT_MSG_EQ(state->m_congState.Get(),
                              RudpSenderState::FAST_RECOVERY,
                              "the path is in fast recovery");
    }
};

/**
 * \ingroup rudp-test
 * One SACK that brings two segments to their third missing report is two
 * fast retransmissions and one SACK that triggered them, as ns-2's frCount_
 * counts (sctp-cmt.cc, ProcessGapAckBlocks: once per SACK).
 */
class RudpCmtFastRetransmitSacksTest : public TestCase
{
  public:
    RudpCmtFastRetransmitSacksTest()
        : TestCase("fast retransmissions counted per segment and per SACK that triggered them")
    {
    }

  private:
    void DoRun() override
    {
        CmtScenario cmt({{MilliSeconds(50)}}, 1u << 20, 1000, false);
        cmt.Helper().SetSenderAttribute("InitialCwnd", UintegerValue(6));
        cmt.Helper().SetSenderAttribute("Dac", BooleanValue(false));
        cmt.Helper().SetSenderAttribute("ReTxThreshold", UintegerValue(3));
        ScriptedPeer peer(cmt);
        // Segments 1 and 2 are lost; 3, 4 and 5 arrive, each with its SACK.
        for (uint32_t k = 1; k <= 3; ++k)
        {
            Simulator::Schedule(MilliSeconds(100 + 10 * k), &SackAllButFirstTwo, &peer, k);
        }
        cmt.Run(Seconds(0.5));
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().fastRetransmits, 2, "two segments");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().fastRetransmitSacks, 1, "by one SACK");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().timeouts, 0, "no timer expired");
    }
};

/**
 * \ingroup rudp-test
 * ns-2's DAC rule (sctp-cmt.cc, ProcessGapAckBlocks): a SACK answering two
 * segments counts two missing reports only if it newly acknowledges data on
 * one path alone, all of it above the missing segment; a "mixed" SACK,
 * newly acknowledging data on two paths, counts one.
 */
class RudpCmtDacRuleTest : public TestCase
{
  public:
    /// \param mixed whether each SACK also acknowledges a segment of the other path
    explicit RudpCmtDacRuleTest(bool mixed)
        : TestCase(std::string("DAC: a SACK answering two segments ") +
                   (mixed ? "on two paths (mixed) counts one missing report"
                          : "on the missing segment's path counts two")),
          m_mixed(mixed)
    {
    }

  private:
    /// Sends the k-th scripted SACK, from what arrived.
    void Script(ScriptedPeer* peer, uint32_t k)
    {
        std::vector<SequenceNumber32> on[2];
        for (const auto& arrival : peer->Arrivals())
        {
            on[arrival.path].push_back(arrival.seq);
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(on[0].size(), 6, "path 0 carried its initial window");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(on[1].size(), 6, "path 1 too");
        if (on[0].size() < 6 || on[1].size() < 6)
        {
            return;
        }
        // Path 0's first segment is lost.
        std::vector<RudpHeader::SackBlock> blocks;
        if (m_mixed)
        {
            // One more of path 0's and one more of path 1's each time.
            blocks.push_back({on[0][1], on[0][1 + k - 1] + 1000});
            blocks.push_back({on[1][0], on[1][k - 1] + 1000});
        }
        else
        {
            // Two more of path 0's each time: 2..3, then 2..5 (k = 1, 2).
            const uint32_t last = std::min<uint32_t>(2 * k, on[0].size() - 1);
            blocks.push_back({on[0][1], on[0][last] + 1000});
        }
        peer->Sack(0, on[0][0], blocks, true);
    }

    void DoRun() override
    {
        CmtScenario cmt({{MilliSeconds(50)}, {MilliSeconds(50)}}, 1u << 20, 1000, false);
        cmt.Helper().SetSenderAttribute("InitialCwnd", UintegerValue(6));
        cmt.Helper().SetSenderAttribute("ReTxThreshold", UintegerValue(3));
        ScriptedPeer peer(cmt);
        for (uint32_t k = 1; k <= 3; ++k)
        {
            Simulator::Schedule(MilliSeconds(100 + 10 * k),
                                &RudpCmtDacRuleTest::Script,
                                this,
                                &peer,
                                k);
        }
        uint32_t afterSecond = 0;
        uint32_t afterThird = 0;
        Simulator::Schedule(MilliSeconds(175), &CountResends, &cmt, &afterSecond);
        Simulator::Schedule(MilliSeconds(195), &CountResends, &cmt, &afterThird);
        cmt.Run(Seconds(0.5));
        if (m_mixed)
        {
            NS_TEST_ASSERT_MSG_EQ(afterSecond, 0, "two mixed SACKs: two missing reports");
            NS_TEST_ASSERT_MSG_EQ(afterThird, 1, "the third mixed SACK: three, resent");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(afterSecond, 1, "two SACKs answering two: four reports");
        }
    }

    bool m_mixed;
};

/**
 * \ingroup rudp-test
 * A segment that fills a gap is acknowledged at once (SackOnGapFill), DAC or
 * not; ns-2.31's DAC receiver (SackOnGapFill false) delays it. A small
 * buffer blocks the sender behind the hole, so no later segment would
 * trigger the SACK.
 */
class RudpCmtSackOnGapFillTest : public TestCase
{
  public:
    RudpCmtSackOnGapFillTest()
        : TestCase("the segment that fills a gap is acknowledged at once (SackOnGapFill), "
                   "and waits for the delayed-SACK timer without it")
    {
    }

  private:
    /// \return the delay from the gap filler's arrival to the next SACK (or -1 s)
    static Time SackDelay(bool sackOnGapFill)
    {
        const uint32_t mss = 1452;
        CmtScenario cmt({{MilliSeconds(50)}}, 7 * mss, mss, false);
        cmt.Helper().SetReceiverAttribute("SackOnGapFill", BooleanValue(sackOnGapFill));
        cmt.Drop(0, {21});
        Probe probe;
        Ptr<NetDevice> device = cmt.Helper().GetPathDevices(0).Get(1);
        device->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&Probe::Arrived, &probe));
        device->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&Probe::Sack, &probe));
        cmt.Run(Seconds(3));
        // The first resend fills the hole the drop made.
        const std::vector<CmtSent> resends = cmt.Resends();
        if (resends.empty())
        {
            return Seconds(-1);
        }
        const SequenceNumber32 filler = resends.front().seq;
        for (const auto& [at, seq] : probe.arrivals)
        {
            if (seq == filler && at > resends.front().at)
            {
                for (const Time& sack : probe.sacks)
                {
                    if (sack >= at)
                    {
                        return sack - at;
                    }
                }
            }
        }
        return Seconds(-1);
    }

    /// Watches the receiver's device: data in, SACKs out.
    struct Probe
    {
        std::vector<std::pair<Time, SequenceNumber32>> arrivals;
        std::vector<Time> sacks;

        void Arrived(Ptr<const Packet> packet)
        {
            RudpHeader header;
            if (DecodeOnWire(packet, header))
            {
                arrivals.emplace_back(Simulator::Now(), header.GetSequenceNumber());
            }
        }

        void Sack(Ptr<const Packet>)
        {
            sacks.push_back(Simulator::Now());
        }
    };

    void DoRun() override
    {
        const Time with = SackDelay(true);
        const Time without = SackDelay(false);
        NS_TEST_ASSERT_MSG_EQ(with, Seconds(0), "acknowledged the instant it arrives");
        NS_TEST_ASSERT_MSG_EQ(without,
                              MilliSeconds(200),
                              "without SackOnGapFill it waits for the delayed-SACK timer");
    }
};

/**
 * \ingroup rudp-test
 * RTX-LOSSRATE (ns-2): every resend goes on the active path with the lowest
 * known loss rate (RudpCmtPath::LossRate, which RudpCmtHelper sets).
 */
class RudpCmtRtxLossRateTest : public TestCase
{
  public:
    RudpCmtRtxLossRateTest()
        : TestCase("RTX-LOSSRATE resends every lost segment on the path of lowest loss rate")
    {
    }

  private:
    void DoRun() override
    {
        CmtScenario cmt(
            {{MilliSeconds(50), 0.02}, {MilliSeconds(50), 0.0}, {MilliSeconds(50), 0.01}},
            1u << 28,
            1452,
            false);
        cmt.Helper().SetSenderAttribute("RtxPolicy", StringValue("RTX-LOSSRATE"));
        cmt.Run(Seconds(20));
        const std::vector<CmtSent> resends = cmt.Resends();
        NS_TEST_ASSERT_MSG_GT(resends.size(), 10, "losses on paths 0 and 2 were repaired");
        for (const auto& resend : resends)
        {
            NS_TEST_ASSERT_MSG_EQ(resend.path, 1, "resent on the loss-free path");
        }
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "intact");
    }
};

/**
 * \ingroup rudp-test
 * Max.Burst (RFC 4960 6.1; ns-2 MAX_BURST 4): when a filled hole opens the
 * receiver's window, a path sends at most MaxBurst packets at once.
 */
class RudpCmtMaxBurstTest : public TestCase
{
  public:
    RudpCmtMaxBurstTest()
        : TestCase("MaxBurst 4: a path sends at most 4 packets at one opportunity")
    {
    }

  private:
    static uint32_t LargestBurst(uint32_t maxBurst)
    {
        CmtScenario cmt({{MilliSeconds(50)}}, 16384, 1452, false);
        cmt.Helper().SetSenderAttribute("MaxBurst", UintegerValue(maxBurst));
        cmt.Drop(0, {30, 60});
        cmt.Run(Seconds(5));
        return cmt.LargestBurst();
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_GT(LargestBurst(0), 4, "without it, larger bursts happen here");
        NS_TEST_ASSERT_MSG_EQ(LargestBurst(4), 4, "with it, at most 4");
    }
};

/**
 * \ingroup rudp-test
 * CMT-PF (Natarajan et al.; ns-2's useCmtPF_): a path that times out is
 * potentially failed: it carries no data, only probes, until one is
 * answered; then it is active with a window of CmtPfCwnd segments.
 */
class RudpCmtPotentiallyFailedTest : public TestCase
{
  public:
    /// \param pfCwnd CmtPfCwnd
    explicit RudpCmtPotentiallyFailedTest(uint32_t pfCwnd)
        : TestCase("CMT-PF: a path that times out carries no data until its probe is "
                   "answered, then restarts with " +
                   std::to_string(pfCwnd) + " segment(s)"),
          m_pfCwnd(pfCwnd)
    {
    }

  private:
    /// Sets the error rate of a path.
    static void SetLoss(Ptr<RateErrorModel> model, double rate)
    {
        model->SetAttribute("ErrorRate", DoubleValue(rate));
    }

    /// Samples path 1's status and timeouts.
    struct Sampler
    {
        Ptr<RudpCmtPath> path;
        Time firstTimeout{Seconds(-1)};
        Time answered{Seconds(-1)};
        bool potentiallyFailed{false};

        void Sample()
        {
            if (firstTimeout.IsNegative() && path->GetStats().timeouts > 0)
            {
                firstTimeout = Simulator::Now();
                potentiallyFailed = path->GetStatus() == RudpCmtPath::POTENTIALLY_FAILED;
            }
            if (!firstTimeout.IsNegative() && answered.IsNegative() &&
                path->GetStatus() == RudpCmtPath::ACTIVE)
            {
                answered = Simulator::Now();
            }
            Simulator::Schedule(MicroSeconds(100), &Sampler::Sample, this);
        }
    };

    void DoRun() override
    {
        const uint32_t mss = 1452;
        CmtScenario cmt({{MilliSeconds(50)}, {MilliSeconds(50)}}, 1u << 28, mss, false);
        cmt.Helper().SetSenderAttribute("CmtPf", BooleanValue(true));
        cmt.Helper().SetSenderAttribute("CmtPfCwnd", UintegerValue(m_pfCwnd));
        cmt.Install();
        Simulator::Schedule(Seconds(2), &SetLoss, cmt.Helper().GetLossModel(1), 1.0);
        Simulator::Schedule(Seconds(2.5), &SetLoss, cmt.Helper().GetLossModel(1), 0.0);
        Sampler sampler{cmt.Sender()->GetPaths()[1]};
        Simulator::Schedule(Seconds(1), &Sampler::Sample, &sampler);
        cmt.Run(Seconds(8));
        NS_TEST_ASSERT_MSG_EQ(sampler.firstTimeout.IsNegative(), false, "path 1 timed out");
        NS_TEST_ASSERT_MSG_EQ(sampler.potentiallyFailed, true, "and became potentially failed");
        NS_TEST_ASSERT_MSG_EQ(sampler.answered.IsNegative(), false, "its probe was answered");
        uint32_t between = 0;
        uint32_t firstBurst = 0;
        Time firstAfter = Seconds(-1);
        for (const auto& sent : cmt.SentOn(1))
        {
            // The sampler sees the state at most 100 us late.
            if (sent.at > sampler.firstTimeout && sent.at < sampler.answered - MicroSeconds(100))
            {
                ++between;
            }
            if (sent.at >= sampler.answered - MicroSeconds(100))
            {
                if (firstAfter.IsNegative())
                {
                    firstAfter = sent.at;
                }
                firstBurst += sent.at == firstAfter ? 1 : 0;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(between, 0, "no data on the potentially failed path");
        NS_TEST_ASSERT_MSG_EQ(firstBurst, m_pfCwnd, "it restarts with CmtPfCwnd segments");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetPaths()[1]->GetStatus(),
                              RudpCmtPath::ACTIVE,
                              "and carries data again");
        NS_TEST_ASSERT_MSG_EQ(cmt.Receiver()->IsContentIntact(), true, "intact");
    }

    uint32_t m_pfCwnd;
};

/**
 * \ingroup rudp-test
 * RudpCmtHelper::SetNs2Defaults sets ns-2.31's values, and Config::Reset
 * brings the module's back.
 */
class RudpCmtNs2DefaultsTest : public TestCase
{
  public:
    RudpCmtNs2DefaultsTest()
        : TestCase("SetNs2Defaults sets ns-2.31's SCTP-CMT defaults")
    {
    }

  private:
    static std::string Get(Ptr<Object> object, const std::string& name)
    {
        StringValue value;
        object->GetAttribute(name, value);
        return value.Get();
    }

    void DoRun() override
    {
        RudpCmtHelper::SetNs2Defaults();
        Ptr<RudpCmtSender> sender = CreateObject<RudpCmtSender>();
        Ptr<RudpCmtReceiver> receiver = CreateObject<RudpCmtReceiver>();
        NS_TEST_ASSERT_MSG_EQ(Get(sender, "PathMaxRetrans"), "5", "pathMaxRetrans_");
        NS_TEST_ASSERT_MSG_EQ(Get(sender, "ReTxThreshold"), "4", "fastRtxTrigger_");
        NS_TEST_ASSERT_MSG_EQ(Get(sender, "RtxPolicy"), "RTX-SAME", "eCmtRtxPolicy_ 1");
        NS_TEST_ASSERT_MSG_EQ(Get(sender, "MaxBurst"), "4", "useMaxBurst_, MAX_BURST");
        NS_TEST_ASSERT_MSG_EQ(Get(sender, "InitialSlowStartThreshold"),
                              "65536",
                              "initialSsthresh_");
        TimeValue rto;
        sender->GetAttribute("InitialRto", rto);
        NS_TEST_ASSERT_MSG_EQ(rto.Get(), Seconds(3), "initialRto_");
        NS_TEST_ASSERT_MSG_EQ(Get(sender, "CmtPf"), "false", "useCmtPF_");
        NS_TEST_ASSERT_MSG_EQ(Get(sender, "Ns2Recovery"), "true", "FastRtx, CUC");
        NS_TEST_ASSERT_MSG_EQ(Get(sender, "IdleWindowDecay"), "true", "CwndDegradeTimer");
        // Not yet: it costs the asymmetric-delays scenario (rudp-cmt-scenarios).
        NS_TEST_ASSERT_MSG_EQ(Get(sender, "Ns2RoundRobin"), "false", "SendMuch, not yet");
        NS_TEST_ASSERT_MSG_EQ(Get(receiver, "SackOnGapFill"), "false", "DAC delays every SACK");
        Config::Reset();
        Ptr<RudpCmtSender> plain = CreateObject<RudpCmtSender>();
        NS_TEST_ASSERT_MSG_EQ(Get(plain, "ReTxThreshold"), "3", "the module's default again");
        NS_TEST_ASSERT_MSG_EQ(Get(plain, "RtxPolicy"), "RTX-SSTHRESH", "the module's default");
        NS_TEST_ASSERT_MSG_EQ(Get(plain, "Ns2RoundRobin"), "false", "the module's default");
    }
};

/**
 * \ingroup rudp-test
 * RFC 4960 7.2.1 and 7.2.2 (ns-2's AdjustCwnd): the window grows only
 * while cwnd or more is in flight. A path sends while less than cwnd is
 * outstanding, so a cwnd-limited path always reaches it; one held back by
 * the receiver's window, 2.5 segments in flight under a window of 3, did
 * not use its window and does not grow (the rule was "less than one
 * segment of room", under which it grew).
 */
class RudpCmtGrowthNeedsFullWindowTest : public TestCase
{
  public:
    RudpCmtGrowthNeedsFullWindowTest()
        : TestCase("a path's window grows only with cwnd or more in flight (ns-2's AdjustCwnd)")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t mss = 1000;
        Ptr<RudpCmtPath> path = CreateObject<RudpCmtPath>();
        path->Open(mss, 3, 1u << 20);
        const Ptr<RudpSenderState> state = path->GetState();
        path->Grow(mss, 5 * mss / 2, mss, mss);
        NS_TEST_ASSERT_MSG_EQ(state->m_cWnd.Get(), 3 * mss, "2.5 segments in a window of 3");
        path->Grow(mss, 3 * mss, mss, mss);
        NS_TEST_ASSERT_MSG_EQ(state->m_cWnd.Get(), 4 * mss, "the whole window: slow start");
        path->Dispose();
    }
};

/**
 * \ingroup rudp-test
 * RFC 4960 7.2.1: a path that sends no data for an RTO has its window
 * adjusted to max(cwnd/2, 4 MTU), once per RTO (ns-2's CwndDegradeTimer,
 * which, as this path, leaves a window of 2 MSS or less alone). Each send
 * moves the deadline an RTO on; a timeout stops it, a decay due at that very
 * instant applied first.
 */
class RudpCmtIdleDecayRuleTest : public TestCase
{
  public:
    RudpCmtIdleDecayRuleTest()
        : TestCase("an idle path's window: halved per RTO without a send, at least 4 MSS")
    {
    }

  private:
    static Ptr<RudpCmtPath> MakePath(uint32_t segments)
    {
        Ptr<RudpCmtPath> path = CreateObject<RudpCmtPath>();
        path->GetRtoTimer()->Configure(RudpRtoTimer::ADAPTIVE,
                                       Seconds(1),
                                       Seconds(1),
                                       Seconds(60),
                                       "RudpCmtIdleDecayRuleTest");
        path->Open(kMss, segments, 1u << 20);
        path->SetIdleDecay(true);
        return path;
    }

    static void Note(Ptr<RudpCmtPath> path, std::vector<uint32_t>* windows)
    {
        windows->push_back(path->GetState()->m_cWnd.Get() / kMss);
    }

    void DoRun() override
    {
        Ptr<RudpCmtPath> large = MakePath(20);
        Ptr<RudpCmtPath> three = MakePath(3);
        Ptr<RudpCmtPath> two = MakePath(2);
        Ptr<RudpCmtPath> stopped = MakePath(20);
        Ptr<RudpCmtPath> shrunk = MakePath(20);
        for (const auto& path : {large, three, two, stopped})
        {
            Simulator::Schedule(Seconds(0), &RudpCmtPath::DataSent, path);
        }
        // Sent with a timeout doubled (2 s), then again at 0.1 s with the
        // RTO measured anew (1 s): the decay is due at 1.1 s, not at 2 s.
        shrunk->GetRtoTimer()->Backoff();
        Simulator::Schedule(Seconds(0), &RudpCmtPath::DataSent, shrunk);
        Simulator::Schedule(Seconds(0.05), &RudpRtoTimer::ResetBackoff, shrunk->GetRtoTimer());
        Simulator::Schedule(Seconds(0.1), &RudpCmtPath::DataSent, shrunk);
        // Sent again at 1.5 s: the next decay waits until 2.5 s.
        Simulator::Schedule(Seconds(1.5), &RudpCmtPath::DataSent, large);
        // Its timer expires at 1 s, when the decay is due as well.
        Simulator::Schedule(Seconds(1), &RudpCmtPath::StopIdleDecay, stopped);
        std::vector<uint32_t> windows[5];
        const std::vector<Ptr<RudpCmtPath>> paths{large, three, two, stopped, shrunk};
        for (double at : {0.5, 1.2, 2.2, 2.7, 3.7, 4.7})
        {
            for (size_t i = 0; i < paths.size(); ++i)
            {
                Simulator::Schedule(Seconds(at), &Note, paths[i], &windows[i]);
            }
        }
        Simulator::Stop(Seconds(5)); // an idle path's timer runs as long as the path is used
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ((windows[0] == std::vector<uint32_t>{20, 10, 10, 5, 4, 4}),
                              true,
                              "halved per RTO without a send, down to 4 MSS");
        NS_TEST_ASSERT_MSG_EQ((windows[1] == std::vector<uint32_t>{3, 4, 4, 4, 4, 4}),
                              true,
                              "3 MSS raised to 4, as the formula says");
        NS_TEST_ASSERT_MSG_EQ((windows[2] == std::vector<uint32_t>{2, 2, 2, 2, 2, 2}),
                              true,
                              "2 MSS left alone");
        NS_TEST_ASSERT_MSG_EQ((windows[3] == std::vector<uint32_t>{20, 10, 10, 10, 10, 10}),
                              true,
                              "the decay due when the timer expired, then none");
        NS_TEST_ASSERT_MSG_EQ((windows[4] == std::vector<uint32_t>{20, 10, 5, 5, 4, 4}),
                              true,
                              "an RTO after the last send, however large it was before");
        for (const auto& path : paths)
        {
            path->Dispose();
        }
    }

    static constexpr uint32_t kMss = 1000; ///< segment size
};

/**
 * \ingroup rudp-test
 * The sender decays an idle path's window (IdleWindowDecay, RFC 4960
 * 7.2.1). A scripted receiver acknowledges 9 of 10 segments and offers a
 * window of one segment, which the tenth fills: the path sends nothing. One
 * RTO after its last send its window of 11 segments is 5.5, before any
 * timeout; with IdleWindowDecay off it stays 11.
 */
class RudpCmtIdleWindowDecayTest : public TestCase
{
  public:
    /// \param decay the sender's IdleWindowDecay
    RudpCmtIdleWindowDecayTest(bool decay)
        : TestCase(std::string("a path held back for an RTO ") +
                   (decay ? "halves its window (IdleWindowDecay)"
                          : "keeps its window (IdleWindowDecay off)")),
          m_decay(decay)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t mss = 1000;
        CmtScenario cmt({{MilliSeconds(50)}}, 1u << 20, mss, false);
        cmt.Helper().SetSenderAttribute("InitialCwnd", UintegerValue(10));
        cmt.Helper().SetSenderAttribute("IdleWindowDecay", BooleanValue(m_decay));
        ScriptedPeer peer(cmt);
        Simulator::Schedule(MilliSeconds(150), &SackNineOfTen, &peer, mss);
        std::vector<std::pair<Time, uint32_t>> windows;
        cmt.Sender()->GetPaths()[0]->GetState()->TraceConnectWithoutContext(
            "CongestionWindow",
            MakeBoundCallback(&NoteWindowAtTime, &windows));
        cmt.Run(Seconds(1.1));
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().timeouts, 0, "no timeout yet");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sent().size(), 10, "nothing sent after the first window");
        // The window opened at 10 segments and grew by one on the SACK.
        std::vector<uint32_t> expected{10 * mss, 11 * mss};
        if (m_decay)
        {
            expected.push_back(11 * mss / 2); // max(cwnd/2, 4 MSS)
        }
        std::vector<uint32_t> values;
        for (const auto& window : windows)
        {
            values.push_back(window.second);
        }
        NS_TEST_ASSERT_MSG_EQ((values == expected),
                              true,
                              "the windows: " << values.size() << " values, the last "
                                              << (values.empty() ? 0 : values.back()));
        if (m_decay && !windows.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(windows.back().first, Seconds(1), "one RTO after the send");
        }
    }

    bool m_decay; ///< IdleWindowDecay
};

/**
 * \ingroup rudp-test
 * RFC 4960 6.3.3 E2 and 6.3.1 C2/C3 (ns-2's RttUpdate): a timeout doubles
 * the RTO, and only a new RTT measurement sets it anew. The first segment
 * is lost and resent after the timer's 1 s; its SACK acknowledges a
 * resend, which gives no measurement (Karn), so the RTO stays 2 s until
 * the segments sent after it are acknowledged. The sender undid the
 * doubling on any acknowledgment.
 */
class RudpCmtBackoffUntilMeasuredTest : public TestCase
{
  public:
    RudpCmtBackoffUntilMeasuredTest()
        : TestCase("a timeout's doubled RTO stays until a new RTT measurement")
    {
    }

  private:
    void DoRun() override
    {
        CmtScenario cmt({{MilliSeconds(50)}}, 1u << 20, 1000, false);
        cmt.Helper().SetSenderAttribute("InitialCwnd", UintegerValue(1));
        cmt.Helper().SetReceiverAttribute("DelAckCount", UintegerValue(1));
        cmt.Drop(0, {1});
        Time afterResend;
        Time afterMeasurement;
        // The resend leaves at 1 s and is acknowledged at about 1.1 s; the
        // two segments sent then, at about 1.2 s.
        Simulator::Schedule(Seconds(1.15), &NoteRto, cmt.Sender(), &afterResend);
        Simulator::Schedule(Seconds(1.3), &NoteRto, cmt.Sender(), &afterMeasurement);
        cmt.Run(Seconds(1.4));
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().timeouts, 1, "one timeout");
        NS_TEST_ASSERT_MSG_EQ(afterResend, Seconds(2), "doubled, no measurement yet");
        NS_TEST_ASSERT_MSG_EQ(afterMeasurement, Seconds(1), "measured: the minimum RTO again");
    }
};

/**
 * \ingroup rudp-test
 * RFC 4960 6.1 C: before new data the sender sends the segments marked
 * for retransmission; ns-2 sends every path's (RtxMarkedChunks) before any
 * new data (SendMuch). Two paths of 2 segments each; path 1's are lost and
 * time out; its first is resent, the second waits (a window of 1). One
 * SACK then acknowledges the resend and path 0's data, opening both paths:
 * the waiting resend leaves first. The sender filled path 0 with new data
 * first when the round robin started there.
 */
class RudpCmtResendsFirstTest : public TestCase
{
  public:
    RudpCmtResendsFirstTest()
        : TestCase("a sending opportunity sends every path's resends before new data")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t mss = 1000;
        CmtScenario cmt({{MilliSeconds(50)}, {MilliSeconds(50)}}, 1u << 20, mss, false);
        cmt.Helper().SetSenderAttribute("InitialCwnd", UintegerValue(2));
        cmt.Helper().SetSenderAttribute("RtxPolicy", StringValue("RTX-SAME"));
        ScriptedPeer peer(cmt);
        const SequenceNumber32 first = RudpCmtSendEngine::FIRST_SEQUENCE;
        // Path 0 carries bytes 1..2000, path 1 2001..4000. Path 0's are
        // acknowledged; it sends 3 more (4001..7000). Path 1 times out at
        // 1 s and resends 2001..3000.
        Simulator::Schedule(MilliSeconds(100), &SackPathZero, &peer, mss);
        // The same again: a sending opportunity, so that the round robin
        // starts at path 0 when both paths open.
        Simulator::Schedule(MilliSeconds(500), &SackPathZero, &peer, mss);
        Simulator::Schedule(MilliSeconds(1060), &SackResendAndPathZero, &peer, mss);
        cmt.Run(Seconds(1.2));
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetStats().timeouts, 1, "path 1 timed out");
        const std::vector<CmtSent>& sent = cmt.Sent();
        auto waiting = std::find_if(sent.begin(), sent.end(), [first, mss](const CmtSent& s) {
            return s.resend && s.seq == first + 3 * mss;
        });
        NS_TEST_ASSERT_MSG_EQ((waiting != sent.end()), true, "the second resend left");
        if (waiting == sent.end())
        {
            return;
        }
        auto opportunity = std::find_if(sent.begin(), sent.end(), [waiting](const CmtSent& s) {
            return s.at == waiting->at;
        });
        NS_TEST_ASSERT_MSG_EQ((opportunity == waiting), true, "it left before any new data");
        NS_TEST_ASSERT_MSG_GT((sent.end() - waiting), 1, "new data followed it");
    }
};

/**
 * \ingroup rudp-test
 * ns-2.35's T3-rtx restart (Ns2Recovery; sctp-cmt.cc
 * SendBufferDequeueUpTo): every segment the cumulative ACK passes, SACKed
 * before or not, restarts its path's timer; RFC 4960 6.3.2 R3 restarts it
 * only when the earliest outstanding segment is acknowledged. Path 1's
 * first segment is lost and holds the cumulative ACK back while path 0's
 * later ones are SACKed; one of path 0's is lost too. When path 1's resend
 * (1 s) lets the cumulative ACK pass path 0's SACKed segments, ns-2 restarts
 * path 0's timer, and path 0 resends its lost segment an RTO after that.
 */
class RudpCmtNs2TimerRestartTest : public TestCase
{
  public:
    /// \param ns2 the sender's Ns2Recovery
    RudpCmtNs2TimerRestartTest(bool ns2)
        : TestCase(std::string("the cumulative ACK passing a path's SACKed segments ") +
                   (ns2 ? "restarts its timer (Ns2Recovery, as ns-2)"
                        : "leaves its timer alone (RFC 4960 6.3.2 R3)")),
          m_ns2(ns2)
    {
    }

  private:
    void DoRun() override
    {
        CmtScenario cmt({{MilliSeconds(50)}, {MilliSeconds(20)}}, 1u << 20, 1000, true);
        cmt.Helper().SetSenderAttribute("Ns2Recovery", BooleanValue(m_ns2));
        cmt.Helper().SetSenderAttribute("InitialRto", TimeValue(Seconds(1)));
        cmt.Helper().SetSenderAttribute("MaxBytes", UintegerValue(8000));
        cmt.Helper().SetReceiverAttribute("DelAckCount", UintegerValue(1));
        cmt.Drop(1, {1});
        cmt.Drop(0, {4});
        cmt.Run(Seconds(4));
        // Path 0 carries 1..2000, then 5001..8000 (from 0.08 s); 6001..7000,
        // its fourth packet, is lost. Path 1's 2001..3000 is resent at 1 s
        // and acknowledged at 1.04 s, the cumulative ACK then passing
        // 5001..6000, SACKed at 0.18 s.
        const SequenceNumber32 lost = RudpCmtSendEngine::FIRST_SEQUENCE + 6000;
        const std::vector<CmtSent> resends = cmt.Resends();
        auto resend = std::find_if(resends.begin(), resends.end(), [lost](const CmtSent& s) {
            return s.seq == lost;
        });
        NS_TEST_ASSERT_MSG_EQ((resend != resends.end()), true, "path 0's loss was resent");
        if (resend == resends.end())
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(resend->path, 0, "on its path (RTX-SAME)");
        NS_TEST_ASSERT_MSG_EQ(cmt.Sender()->GetPaths()[0]->GetStats().timeouts,
                              1,
                              "by path 0's timer");
        const Time expected = m_ns2 ? MilliSeconds(2041) : MilliSeconds(1183);
        NS_TEST_ASSERT_MSG_EQ_TOL(resend->at,
                                  expected,
                                  MilliSeconds(5),
                                  (m_ns2 ? "an RTO after the cumulative ACK passed 5001..6000"
                                         : "an RTO after 5001..6000 was SACKed"));
    }

    bool m_ns2; ///< Ns2Recovery
};

/// \ingroup rudp-test
/// The CMT sender and receiver against RFC 4960 and ns-2.31's SCTP-CMT.
class RudpCmtFidelityTestSuite : public TestSuite
{
  public:
    RudpCmtFidelityTestSuite()
        : TestSuite("rudp-cmt-fidelity")
    {
        AddTestCase(new RudpCmtCwndUtilisationTest);
        AddTestCase(new RudpCmtSendBelowCwndTest(false));
        AddTestCase(new RudpCmtSendBelowCwndTest(true));
        AddTestCase(new RudpCmtSlowStartAtSsthreshTest);
        AddTestCase(new RudpCmtNs2PseudoCumTest);
        AddTestCase(new RudpCmtNs2RoundRobinTest);
        AddTestCase(new RudpCmtFastRetransmitAtOnceTest);
        AddTestCase(new RudpCmtFastRetransmitSacksTest);
        AddTestCase(new RudpCmtDacRuleTest(true));
        AddTestCase(new RudpCmtDacRuleTest(false));
        AddTestCase(new RudpCmtSackOnGapFillTest);
        AddTestCase(new RudpCmtRtxLossRateTest);
        AddTestCase(new RudpCmtMaxBurstTest);
        AddTestCase(new RudpCmtPotentiallyFailedTest(1));
        AddTestCase(new RudpCmtPotentiallyFailedTest(2));
        AddTestCase(new RudpCmtNs2DefaultsTest);
        AddTestCase(new RudpCmtGrowthNeedsFullWindowTest);
        AddTestCase(new RudpCmtIdleDecayRuleTest);
        AddTestCase(new RudpCmtIdleWindowDecayTest(true));
        AddTestCase(new RudpCmtIdleWindowDecayTest(false));
        AddTestCase(new RudpCmtBackoffUntilMeasuredTest);
        AddTestCase(new RudpCmtResendsFirstTest);
        AddTestCase(new RudpCmtNs2TimerRestartTest(true));
        AddTestCase(new RudpCmtNs2TimerRestartTest(false));
    }
};

/// Static instance registering the suite.
static RudpCmtFidelityTestSuite g_rudpCmtFidelityTestSuite;
