/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/packet.h"
#include "ns3/rudp-rx-buffer.h"
#include "ns3/rudp-tx-buffer.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

/**
 * \file
 * \ingroup rudp-test
 * The sender's and the receiver's buffers on their own.
 */

using namespace ns3;

namespace
{

Ptr<Packet>
Bytes(uint32_t n, uint8_t first = 0)
{
    std::vector<uint8_t> data(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        data[i] = static_cast<uint8_t>(first + i);
    }
    return Create<Packet>(data.data(), n);
}

std::vector<uint8_t>
Content(Ptr<const Packet> p)
{
    std::vector<uint8_t> data(p->GetSize());
    p->CopyData(data.data(), data.size());
    return data;
}

} // namespace

/// Segments keep the stream's bytes and boundaries; the buffer bound holds.
class RudpTxBufferSegmentationTest : public TestCase
{
  public:
    RudpTxBufferSegmentationTest()
        : TestCase("send buffer cuts MSS segments across writes and honours its capacity")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpTxBuffer> tx = CreateObject<RudpTxBuffer>();
        tx->SetMaxBufferSize(1000);
        tx->SetHeadSequence(SequenceNumber32(0xfffffff0)); // wraps during the test
        NS_TEST_ASSERT_MSG_EQ(tx->Add(Bytes(300, 0)), true, "first write");
        NS_TEST_ASSERT_MSG_EQ(tx->Add(Bytes(500, 44)), true, "second write");
        NS_TEST_ASSERT_MSG_EQ(tx->Add(Bytes(201)), false, "beyond the capacity");
        NS_TEST_ASSERT_MSG_EQ(tx->Available(), 200, "room left");

        auto& first = tx->NewSegment(400);
        NS_TEST_ASSERT_MSG_EQ(first.length, 400, "spans both writes");
        std::vector<uint8_t> expected;
        for (uint32_t i = 0; i < 300; ++i)
        {
            expected.push_back(static_cast<uint8_t>(i));
        }
        for (uint32_t i = 0; i < 100; ++i)
        {
            expected.push_back(static_cast<uint8_t>(44 + i));
        }
        NS_TEST_ASSERT_MSG_EQ((Content(first.payload) == expected), true, "bytes in order");
        tx->MarkTransmitted(first, Seconds(1));
        auto& second = tx->NewSegment(400);
        tx->MarkTransmitted(second, Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(second.seq, SequenceNumber32(0xfffffff0) + 400, "SEQ += LEN");
        NS_TEST_ASSERT_MSG_EQ(tx->UnsentBytes(), 0, "all cut");
        NS_TEST_ASSERT_MSG_EQ(tx->BytesInFlight(), 800, "in flight");
        NS_TEST_ASSERT_MSG_EQ(tx->HighTxMark(), SequenceNumber32(0xfffffff0) + 800, "high mark");

        // A cumulative ACK in the middle of the second segment keeps its tail.
        auto acked = tx->DiscardUpTo(SequenceNumber32(0xfffffff0) + 600, Seconds(1.5));
        NS_TEST_ASSERT_MSG_EQ(acked.segments, 1, "one whole segment");
        NS_TEST_ASSERT_MSG_EQ(acked.bytes, 600, "600 bytes");
        NS_TEST_ASSERT_MSG_EQ(acked.rtt.has_value(), true, "RTT sample");
        NS_TEST_ASSERT_MSG_EQ(*acked.rtt, Seconds(0.5), "RTT value");
        NS_TEST_ASSERT_MSG_EQ(tx->BytesInFlight(), 200, "tail in flight");
        NS_TEST_ASSERT_MSG_EQ(tx->Available(), 800, "room freed");
        NS_TEST_ASSERT_MSG_EQ(tx->GetSegments().front().seq,
                              SequenceNumber32(0xfffffff0) + 600,
                              "tail starts at the ACK");
    }
};

/// SACK blocks, holes and Karn's rule.
class RudpTxBufferScoreboardTest : public TestCase
{
  public:
    RudpTxBufferScoreboardTest()
        : TestCase("send buffer scoreboard: SACKed, lost, in flight, Karn's rule")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpTxBuffer> tx = CreateObject<RudpTxBuffer>();
        tx->SetHeadSequence(SequenceNumber32(1000));
        tx->Add(Bytes(500));
        for (int i = 0; i < 5; ++i)
        {
            tx->MarkTransmitted(tx->NewSegment(100), Seconds(1));
        }
        NS_TEST_ASSERT_MSG_EQ(tx->BytesInFlight(), 500, "five in flight");
        // The receiver has 1200-1300 and 1300-1400 but not 1000-1200.
        NS_TEST_ASSERT_MSG_EQ(
            tx->MarkSacked(SequenceNumber32(1200), SequenceNumber32(1400), Seconds(1.5)),
            true,
            "SACK applied");
        NS_TEST_ASSERT_MSG_EQ(tx->BytesInFlight(), 300, "SACKed bytes left the flight");
        NS_TEST_ASSERT_MSG_EQ(tx->MarkOvertakenLost(4), 0, "overtaken by three at most");
        NS_TEST_ASSERT_MSG_EQ(tx->MarkOvertakenLost(3), 1, "1000 overtaken by three");
        NS_TEST_ASSERT_MSG_EQ(tx->MarkOvertakenLost(2), 1, "1100 overtaken by two");
        NS_TEST_ASSERT_MSG_EQ(tx->BytesInFlight(), 100, "only the last is in flight");
        const RudpTxBuffer::Segment* lost = tx->FirstLost();
        NS_TEST_ASSERT_MSG_NE(lost, nullptr, "a hole to resend");
        NS_TEST_ASSERT_MSG_EQ(lost->seq, SequenceNumber32(1000), "lowest hole first");
        tx->MarkTransmitted(*lost, Seconds(2));
        NS_TEST_ASSERT_MSG_EQ(tx->FirstLost()->seq, SequenceNumber32(1100), "next hole");
        NS_TEST_ASSERT_MSG_EQ(tx->BytesInFlight(), 200, "resent hole in flight");
        // The last segment, sent before the retransmission, arrives: it does
        // not overtake the retransmission, which stays in flight.
        tx->MarkSacked(SequenceNumber32(1400), SequenceNumber32(1500), Seconds(2.5));
        NS_TEST_ASSERT_MSG_EQ(tx->MarkOvertakenLost(1), 0, "nothing sent later arrived");
        NS_TEST_ASSERT_MSG_EQ(tx->BytesInFlight(), 100, "the retransmission in flight");

        auto acked = tx->DiscardUpTo(SequenceNumber32(1100), Seconds(3));
        NS_TEST_ASSERT_MSG_EQ(acked.rtt.has_value(),
                              false,
                              "Karn: no sample from a resent segment");
        // 1100 is resent and lost again; new data sent after it arrives.
        tx->MarkTransmitted(*tx->FirstLost(), Seconds(3));
        tx->Add(Bytes(100));
        tx->MarkTransmitted(tx->NewSegment(100), Seconds(3));
        tx->MarkSacked(SequenceNumber32(1500), SequenceNumber32(1600), Seconds(3.5));
        NS_TEST_ASSERT_MSG_EQ(tx->MarkOvertakenLost(1), 1, "a lost retransmission is found");
        NS_TEST_ASSERT_MSG_EQ(tx->FirstLost()->seq, SequenceNumber32(1100), "resend it again");
        tx->MarkTransmitted(*tx->FirstLost(), Seconds(4));
        NS_TEST_ASSERT_MSG_EQ(tx->MarkAllLost(), 1, "timeout: the retransmission lost too");
        NS_TEST_ASSERT_MSG_EQ(tx->BytesInFlight(), 0, "nothing in flight");
        tx->DiscardUpTo(SequenceNumber32(1600), Seconds(5));
        NS_TEST_ASSERT_MSG_EQ(tx->IsEmpty(), true, "all acknowledged");
        NS_TEST_ASSERT_MSG_EQ(tx->FirstLost(), nullptr, "no hole left");
    }
};

/// A late original of a resent segment is not taken for the retransmission.
class RudpTxBufferRetransmissionAmbiguityTest : public TestCase
{
  public:
    RudpTxBufferRetransmissionAmbiguityTest()
        : TestCase("send buffer: a report sooner than the minimum RTT after a resend is of the "
                   "original (RFC 8985)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpTxBuffer> tx = CreateObject<RudpTxBuffer>();
        tx->SetHeadSequence(SequenceNumber32(1000));
        tx->Add(Bytes(400));
        for (int i = 0; i < 4; ++i)
        {
            tx->MarkTransmitted(tx->NewSegment(100), Seconds(1));
        }
        // A first transmission reported after 500 ms: the minimum RTT.
        tx->MarkSacked(SequenceNumber32(1300), SequenceNumber32(1400), Seconds(1.5));
        // A timeout resends the other three at 2 s.
        NS_TEST_ASSERT_MSG_EQ(tx->MarkAllLost(), 3, "timeout: three to resend");
        for (int i = 0; i < 3; ++i)
        {
            tx->MarkTransmitted(*tx->FirstLost(), Seconds(2));
        }
        // The original of 1200 was only delayed: its report 100 ms after the
        // resend cannot be of the resend, which overtook nothing.
        tx->MarkSacked(SequenceNumber32(1200), SequenceNumber32(1300), Seconds(2.1));
        NS_TEST_ASSERT_MSG_EQ(tx->MarkOvertakenLost(1), 0, "the resends of 1000, 1100 in flight");
        NS_TEST_ASSERT_MSG_EQ(tx->BytesInFlight(), 200, "two resends in flight");
        // A report a full RTT after the resend may be of the resend.
        tx->DiscardUpTo(SequenceNumber32(1100), Seconds(2.6));
        NS_TEST_ASSERT_MSG_EQ(tx->MarkOvertakenLost(1), 0, "1100 was resent after 1000");
    }
};

/// A cumulative ACK that waited for a hole does not time the path.
class RudpTxBufferSackedRttTest : public TestCase
{
  public:
    RudpTxBufferSackedRttTest()
        : TestCase("send buffer: no RTT sample from a segment SACKed before its cumulative ACK")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpTxBuffer> tx = CreateObject<RudpTxBuffer>();
        tx->SetHeadSequence(SequenceNumber32(1000));
        tx->Add(Bytes(300));
        for (int i = 0; i < 3; ++i)
        {
            tx->MarkTransmitted(tx->NewSegment(100), Seconds(1));
        }
        // 1000 is lost; 1100 and 1200 arrive and are SACKed after 100 ms.
        tx->MarkSacked(SequenceNumber32(1100), SequenceNumber32(1300), Seconds(1.1));
        tx->MarkLost(tx->GetSegments().front());
        tx->MarkTransmitted(*tx->FirstLost(), Seconds(1.2));
        // The resend's ACK covers all three 1.3 s after the originals left.
        auto acked = tx->DiscardUpTo(SequenceNumber32(1300), Seconds(2.3));
        NS_TEST_ASSERT_MSG_EQ(acked.segments, 3, "all three acknowledged");
        NS_TEST_ASSERT_MSG_EQ(acked.rtt.has_value(),
                              false,
                              "waiting for the hole is not an RTT, and 1000 was resent");
    }
};

/// The scoreboard's indexes: SACK blocks skip runs already SACKed, the loss
/// rule takes overtaken transmissions in the order sent; both find exactly
/// what a walk of the whole window finds.
class RudpTxBufferIndexedScoreboardTest : public TestCase
{
  public:
    RudpTxBufferIndexedScoreboardTest()
        : TestCase("send buffer: SACK runs and the transmission order find what a walk finds")
    {
    }

  private:
    /// Sequence number of segment \p i (100 bytes each from 0xffffff00: wraps).
    static SequenceNumber32 At(uint32_t i)
    {
        return SequenceNumber32(0xffffff00) + 100 * i;
    }

    /// \return the segments \p tx newly SACKs for [left, right), in order
    static std::vector<uint32_t> Sack(Ptr<RudpTxBuffer> tx, uint32_t left, uint32_t right, Time now)
    {
        std::vector<uint32_t> sacked;
        tx->MarkSacked(At(left), At(right), now, [&sacked](const RudpTxBuffer::Segment& s) {
            sacked.push_back((s.seq - At(0)) / 100);
        });
        return sacked;
    }

    void DoRun() override
    {
        const uint32_t n = 1000;
        Ptr<RudpTxBuffer> tx = CreateObject<RudpTxBuffer>();
        tx->SetMaxBufferSize(100 * n);
        tx->SetHeadSequence(At(0));
        tx->Add(Bytes(100 * n));
        for (uint32_t i = 0; i < n; ++i)
        {
            tx->MarkTransmitted(tx->NewSegment(100), Seconds(1));
        }
        // Segment 0 is lost; the block above it grows by one an ACK.
        for (uint32_t right = 2; right <= 500; ++right)
        {
            auto sacked = Sack(tx, 1, right, Seconds(2));
            NS_TEST_ASSERT_MSG_EQ(sacked.size(), 1, "only the block's new segment");
            NS_TEST_ASSERT_MSG_EQ(sacked.front(), right - 1, "the one the block added");
        }
        NS_TEST_ASSERT_MSG_EQ(tx->BytesInFlight(), 100 * (n - 499), "499 SACKed");
        // Islands SACKed apart, then one block over them and the holes:
        // the holes only, lowest first, and none past a segment the block
        // does not cover whole.
        for (uint32_t i : {600, 601, 605, 610, 611, 612})
        {
            Sack(tx, i, i + 1, Seconds(2));
        }
        auto holes = Sack(tx, 598, 613, Seconds(2));
        std::vector<uint32_t> expected{598, 599, 602, 603, 604, 606, 607, 608, 609};
        NS_TEST_ASSERT_MSG_EQ((holes == expected), true, "the holes between the islands");
        NS_TEST_ASSERT_MSG_EQ(Sack(tx, 1, 613, Seconds(2)).size(), 98, "500-597");
        NS_TEST_ASSERT_MSG_EQ(Sack(tx, 0, 613, Seconds(2)).size(), 1, "and 0");
        NS_TEST_ASSERT_MSG_EQ(Sack(tx, 0, 613, Seconds(2)).empty(), true, "all known");
        NS_TEST_ASSERT_MSG_EQ(tx->BytesInFlight(), 100 * (n - 613), "613 SACKed");

        // A SACKed segment sent again (the buffer allows it) is in flight
        // again, and a later block finds it within the run around it (its
        // report, sooner than the minimum RTT, is of the first transmission).
        tx->MarkTransmitted(tx->GetSegments()[300], Seconds(3));
        auto again = Sack(tx, 0, 613, Seconds(3.5));
        NS_TEST_ASSERT_MSG_EQ(again.size(), 1, "only the resent one");
        NS_TEST_ASSERT_MSG_EQ(again.front(), 300, "found inside the run");

        // Overtaken, in transmission order: 613-699 were sent before 700, so
        // a SACK of 700-702 (three later transmissions) marks 613-699 lost.
        Sack(tx, 700, 703, Seconds(4));
        NS_TEST_ASSERT_MSG_EQ(tx->MarkOvertakenLost(3), 87, "613-699 overtaken by three");
        NS_TEST_ASSERT_MSG_EQ(tx->MarkOvertakenLost(1), 0, "700-702 overtook nothing else");
        // The ACK up to the middle of 703 keeps its tail in flight under
        // its old transmission.
        tx->DiscardUpTo(At(703) + 50, Seconds(5));
        NS_TEST_ASSERT_MSG_EQ(tx->GetSegments().front().length, 50, "703's tail");
        Sack(tx, 704, 706, Seconds(6));
        // 704 and 705, sent after 703, overtake its tail by two.
        NS_TEST_ASSERT_MSG_EQ(tx->MarkOvertakenLost(2), 1, "the tail of 703");
        NS_TEST_ASSERT_MSG_EQ(tx->FirstLost()->seq, At(703) + 50, "lost from the ACK point");
        NS_TEST_ASSERT_MSG_EQ(tx->MarkOvertakenLost(1), 0, "nothing else overtaken");
        tx->DiscardUpTo(At(n), Seconds(7));
        NS_TEST_ASSERT_MSG_EQ(tx->IsEmpty(), true, "all acknowledged");
        NS_TEST_ASSERT_MSG_EQ(tx->MarkOvertakenLost(1), 0, "no transmission left to mark");
    }
};

/// In-order delivery, out-of-order buffering, duplicates and the bound.
class RudpRxBufferTest : public TestCase
{
  public:
    RudpRxBufferTest()
        : TestCase("receive buffer: in order, gaps, duplicates, SACK blocks and its bound")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpRxBuffer> rx = CreateObject<RudpRxBuffer>();
        rx->SetCapacity(450);
        rx->SetNextRxSequence(SequenceNumber32(0xffffff9c)); // 2^32 - 100: wraps
        const SequenceNumber32 base(0xffffff9c);

        NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100, 1), base + 100, false),
                              RudpRxBuffer::OUT_OF_ORDER,
                              "a gap, not kept without selective repeat");
        NS_TEST_ASSERT_MSG_EQ(rx->Occupancy(), 0, "discarded");
        NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100, 1), base + 100, true),
                              RudpRxBuffer::OUT_OF_ORDER,
                              "kept with selective repeat");
        NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100, 3), base + 300, true),
                              RudpRxBuffer::OUT_OF_ORDER,
                              "a second block");
        NS_TEST_ASSERT_MSG_EQ(rx->FreeSpace(), 250, "out-of-order bytes use the window");
        auto blocks = rx->GetSackBlocks(4);
        NS_TEST_ASSERT_MSG_EQ(blocks.size(), 2, "two blocks");
        NS_TEST_ASSERT_MSG_EQ(blocks[0].left, base + 100, "first block");
        NS_TEST_ASSERT_MSG_EQ(blocks[1].right, base + 400, "second block");
        NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(200, 9), base + 400, true),
                              RudpRxBuffer::OUT_OF_WINDOW,
                              "beyond the bound");
        NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100, 1), base + 100, true),
                              RudpRxBuffer::DUPLICATE,
                              "already buffered");

        NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100, 0), base, true),
                              RudpRxBuffer::IN_ORDER,
                              "fills the first gap");
        NS_TEST_ASSERT_MSG_EQ(rx->NextRxSequence(), base + 200, "joined the first block");
        NS_TEST_ASSERT_MSG_EQ(rx->Available(), 200, "readable");
        NS_TEST_ASSERT_MSG_EQ(rx->GetSackBlocks(4).size(), 1, "one block left");

        // One segment a call, never more than asked.
        NS_TEST_ASSERT_MSG_EQ(rx->Extract(150)->GetSize(), 100, "the first segment");
        Ptr<Packet> read = rx->Extract(50);
        NS_TEST_ASSERT_MSG_EQ(read->GetSize(), 50, "partial read");
        NS_TEST_ASSERT_MSG_EQ(Content(read)[0], 1, "second segment's first byte");
        NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100, 2), base + 200, true),
                              RudpRxBuffer::IN_ORDER,
                              "fills the second gap");
        NS_TEST_ASSERT_MSG_EQ(rx->NextRxSequence(), base + 400, "everything joined");
        NS_TEST_ASSERT_MSG_EQ(rx->HasGap(), false, "no gap");
        NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(50), base + 150, true),
                              RudpRxBuffer::DUPLICATE,
                              "old bytes");
        uint32_t rest = 0;
        while (Ptr<Packet> piece = rx->Extract(1000))
        {
            rest += piece->GetSize();
        }
        NS_TEST_ASSERT_MSG_EQ(rest, 250, "the rest");
        NS_TEST_ASSERT_MSG_EQ(rx->Available(), 0, "empty");
        NS_TEST_ASSERT_MSG_EQ(rx->FreeSpace(), 450, "window fully open");
    }
};

/// SACK blocks in RFC 2018's order: the latest arrival's block first.
class RudpRxBufferRecentSackTest : public TestCase
{
  public:
    RudpRxBufferRecentSackTest()
        : TestCase("receive buffer: SACK blocks newest first, every arrival reported")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpRxBuffer> rx = CreateObject<RudpRxBuffer>();
        rx->SetCapacity(100000);
        const SequenceNumber32 base(5000);
        rx->SetNextRxSequence(base);
        // Six blocks behind a gap at base, each 100 bytes, every other 100.
        for (uint32_t k = 1; k <= 6; ++k)
        {
            rx->Add(Bytes(100), base + 200 * k, true);
        }
        auto blocks = rx->GetRecentSackBlocks(4);
        NS_TEST_ASSERT_MSG_EQ(blocks.size(), 4, "four blocks fit");
        NS_TEST_ASSERT_MSG_EQ(blocks.front().left, base + 1200, "the latest arrival first");
        NS_TEST_ASSERT_MSG_EQ(blocks.back().left, base + 600, "then by recency");
        NS_TEST_ASSERT_MSG_EQ(rx->GetSackBlocks(4).front().left, base + 200, "SCTP: lowest first");

        // An arrival that joins the two oldest blocks is reported first, once.
        rx->Add(Bytes(100), base + 300, true);
        blocks = rx->GetRecentSackBlocks(4);
        NS_TEST_ASSERT_MSG_EQ(blocks.front().left, base + 200, "merged block first");
        NS_TEST_ASSERT_MSG_EQ(blocks.front().right, base + 500, "[200, 500)");
        NS_TEST_ASSERT_MSG_EQ(blocks[1].left, base + 1200, "then the newest before it");

        // The gap closes up to 500: that block is gone from the report.
        rx->Add(Bytes(200), base, true);
        blocks = rx->GetRecentSackBlocks(4);
        NS_TEST_ASSERT_MSG_EQ(rx->NextRxSequence(), base + 500, "delivered up to the next gap");
        NS_TEST_ASSERT_MSG_EQ(blocks.size(), 4, "the four beyond");
        NS_TEST_ASSERT_MSG_EQ(blocks.front().left, base + 1200, "newest remaining first");
        for (const auto& block : blocks)
        {
            NS_TEST_ASSERT_MSG_GT(block.left, base + 500, "only data beyond the gap");
        }
    }
};

/// Only data inside the advertised window is kept (audit M4).
class RudpRxBufferWindowTest : public TestCase
{
  public:
    RudpRxBufferWindowTest()
        : TestCase("receive buffer: data beyond the advertised window is refused, at any distance "
                   "and across the wrap")
    {
    }

  private:
    void DoRun() override
    {
        for (const uint32_t start : {0u, 0xfffffc00u}) // the second wraps
        {
            Ptr<RudpRxBuffer> rx = CreateObject<RudpRxBuffer>();
            rx->SetCapacity(1000);
            const SequenceNumber32 next(start);
            rx->SetNextRxSequence(next);
            // The audit's case: far ahead, where the wrap-around comparisons
            // that order the buffer would no longer agree with each other.
            NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100), next + ((1u << 31) - 10), true),
                                  RudpRxBuffer::OUT_OF_WINDOW,
                                  "2^31 - 10 ahead");
            NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100), next + ((1u << 31) - 10), false),
                                  RudpRxBuffer::OUT_OF_WINDOW,
                                  "also without selective repeat");
            NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100), next + 1000, true),
                                  RudpRxBuffer::OUT_OF_WINDOW,
                                  "just past the right edge");
            NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100), next + 901, true),
                                  RudpRxBuffer::OUT_OF_WINDOW,
                                  "its last byte past the right edge");
            NS_TEST_ASSERT_MSG_EQ(rx->Occupancy(), 0, "nothing kept");
            NS_TEST_ASSERT_MSG_EQ(rx->HasGap(), false, "no gap recorded");
            NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100), next - ((1u << 31) - 1), true),
                                  RudpRxBuffer::DUPLICATE,
                                  "far behind: old");

            // Unread bytes move RCV.NXT but not the right edge.
            NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(600), next, true), RudpRxBuffer::IN_ORDER, "600");
            NS_TEST_ASSERT_MSG_EQ(rx->WindowEnd(), next + 1000, "right edge stays");
            NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100), next + 950, true),
                                  RudpRxBuffer::OUT_OF_WINDOW,
                                  "fits the free space (400), but not the window");
            NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100), next + 900, true),
                                  RudpRxBuffer::OUT_OF_ORDER,
                                  "up to the right edge");
            NS_TEST_ASSERT_MSG_EQ(rx->FreeSpace(), 300, "1000 - 600 unread - 100 ahead");
            NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100), next + 700, true),
                                  RudpRxBuffer::OUT_OF_ORDER,
                                  "inside the window");
            // Reading moves the right edge.
            uint32_t read = 0;
            while (Ptr<Packet> piece = rx->Extract(1000))
            {
                read += piece->GetSize();
            }
            NS_TEST_ASSERT_MSG_EQ(read, 600, "read");
            NS_TEST_ASSERT_MSG_EQ(rx->WindowEnd(), next + 1600, "right edge moved");
            NS_TEST_ASSERT_MSG_EQ(rx->Add(Bytes(100), next + 1500, true),
                                  RudpRxBuffer::OUT_OF_ORDER,
                                  "newly inside the window");
        }
    }
};

/// A FIN with data beyond it is refused, never asserted on.
class RudpRxBufferFinTest : public TestCase
{
  public:
    RudpRxBufferFinTest()
        : TestCase("receive buffer: a FIN with data waiting beyond it is refused, without an "
                   "assertion")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpRxBuffer> rx = CreateObject<RudpRxBuffer>();
        rx->SetCapacity(10000);
        const SequenceNumber32 next(7000);
        rx->SetNextRxSequence(next);
        rx->Add(Bytes(100), next + 500, true);
        NS_TEST_ASSERT_MSG_EQ(rx->AcceptFin(), false, "data beyond the FIN");
        NS_TEST_ASSERT_MSG_EQ(rx->NextRxSequence(), next, "RCV.NXT unchanged");
        rx->Add(Bytes(500), next, true);
        NS_TEST_ASSERT_MSG_EQ(rx->NextRxSequence(), next + 600, "gap filled");
        NS_TEST_ASSERT_MSG_EQ(rx->AcceptFin(), true, "nothing beyond");
        NS_TEST_ASSERT_MSG_EQ(rx->NextRxSequence(), next + 601, "the FIN's sequence number");
    }
};

/// \ingroup rudp-test
/// Buffer test suite.
class RudpBuffersTestSuite : public TestSuite
{
  public:
    RudpBuffersTestSuite()
        : TestSuite("rudp-buffers")
    {
        AddTestCase(new RudpTxBufferSegmentationTest);
        AddTestCase(new RudpTxBufferScoreboardTest);
        AddTestCase(new RudpTxBufferRetransmissionAmbiguityTest);
        AddTestCase(new RudpTxBufferSackedRttTest);
        AddTestCase(new RudpTxBufferIndexedScoreboardTest);
        AddTestCase(new RudpRxBufferTest);
        AddTestCase(new RudpRxBufferRecentSackTest);
        AddTestCase(new RudpRxBufferWindowTest);
        AddTestCase(new RudpRxBufferFinTest);
    }
};

/// Static instance registering the suite.
static RudpBuffersTestSuite g_rudpBuffersTestSuite;
