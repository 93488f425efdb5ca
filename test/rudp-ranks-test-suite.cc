/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/rudp-dumbbell-helper.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-ranks.h"
#include "ns3/test.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>

/**
 * \file
 * \ingroup rudp-test
 * Tests of what a simulation split across MPI ranks relies on, in any build
 * (no MPI needed): the values the ranks share (RudpRankValues), kept bit for
 * bit through their serialization, merged without a key set twice, and
 * damaged bytes refused; one process sharing with itself; the dumbbell's
 * cut (which rank simulates which node). The split runs themselves are the
 * rudp-mpi-* suites, in an ns-3 tree with MPI.
 */

using namespace ns3;

/// \ingroup rudp-test
/// The values a rank shares come back bit for bit, whatever their kind.
class RudpRankValuesRoundTripTest : public TestCase
{
  public:
    RudpRankValuesRoundTripTest()
        : TestCase("Rank values: counts, numbers (every bit), text and JSON survive serialization")
    {
    }

  private:
    void DoRun() override
    {
        RudpRankValues values;
        values.Set("flow.0.bytes", std::numeric_limits<uint64_t>::max());
        values.Set("flow.0.throughput", 0.1 + 0.2); // not 0.3: every bit must survive
        values.Set("flow.1.throughput", -0.0);
        values.Set("name", std::string("a\0b", 3)); // any bytes
        RudpJson json;
        json.Set("mean_rtt_s", 0.0421).Set("timeouts", static_cast<uint64_t>(3));
        values.Set("flow.0.round_trips", json);

        RudpRankValues back;
        NS_TEST_ASSERT_MSG_EQ(RudpRankValues::Deserialize(values.Serialize(), back),
                              true,
                              "its own bytes are read");
        NS_TEST_ASSERT_MSG_EQ(back.GetN(), 5, "every value");
        NS_TEST_ASSERT_MSG_EQ(back.GetUint("flow.0.bytes"),
                              std::numeric_limits<uint64_t>::max(),
                              "a count");
        NS_TEST_ASSERT_MSG_EQ(back.GetDouble("flow.0.throughput"), 0.1 + 0.2, "a number, exactly");
        NS_TEST_ASSERT_MSG_EQ(std::signbit(back.GetDouble("flow.1.throughput")),
                              true,
                              "the sign of zero");
        NS_TEST_ASSERT_MSG_EQ(back.GetString("name"), std::string("a\0b", 3), "a text");
        NS_TEST_ASSERT_MSG_EQ(back.GetJson("flow.0.round_trips").Dump(),
                              json.Dump(),
                              "a JSON object, as written");
        NS_TEST_ASSERT_MSG_EQ(back.Has("flow.2.bytes"), false, "nothing more");

        RudpRankValues empty;
        NS_TEST_ASSERT_MSG_EQ(RudpRankValues::Deserialize(empty.Serialize(), empty),
                              true,
                              "no values");
        NS_TEST_ASSERT_MSG_EQ(RudpRankValues::Deserialize("", empty), false, "not even a count");
        NS_TEST_ASSERT_MSG_EQ(empty.GetN(), 0, "none");
    }
};

/// \ingroup rudp-test
/// Damaged bytes are refused, never read past their end.
class RudpRankValuesDamageTest : public TestCase
{
  public:
    RudpRankValuesDamageTest()
        : TestCase("Rank values: bytes cut short, with trailing bytes or an unknown kind are "
                   "refused")
    {
    }

  private:
    void DoRun() override
    {
        RudpRankValues values;
        values.Set("a", static_cast<uint64_t>(7));
        values.Set("b", std::string("text"));
        RudpJson json;
        json.Set("x", 1.5);
        values.Set("c", json);
        const std::string bytes = values.Serialize();
        RudpRankValues read;
        for (size_t cut = 1; cut < bytes.size(); ++cut)
        {
            NS_TEST_ASSERT_MSG_EQ(RudpRankValues::Deserialize(bytes.substr(0, cut), read),
                                  false,
                                  "cut after " << cut << " of " << bytes.size() << " bytes");
        }
        NS_TEST_ASSERT_MSG_EQ(RudpRankValues::Deserialize(bytes + "z", read),
                              false,
                              "a trailing byte");
        std::string badKind = bytes;
        badKind[8 + 8 + 1] =
            9; // the first value's kind, after the count, the key's length, the key
        NS_TEST_ASSERT_MSG_EQ(RudpRankValues::Deserialize(badKind, read), false, "kind 9");
        std::string huge = bytes;
        huge[8 + 7] = '\x7f'; // the first key's length, now near 2^63
        NS_TEST_ASSERT_MSG_EQ(RudpRankValues::Deserialize(huge, read), false, "a huge length");
    }
};

/// \ingroup rudp-test
/// Merging the ranks' values: a node measured on two ranks is named.
class RudpRankValuesMergeTest : public TestCase
{
  public:
    RudpRankValuesMergeTest()
        : TestCase("Rank values: merging adds another rank's keys and names one both set")
    {
    }

  private:
    void DoRun() override
    {
        RudpRankValues left;
        left.Set("queue_drops", static_cast<uint64_t>(4));
        left.Set("flow.0.round_trips", RudpJson());
        RudpRankValues right;
        right.Set("random_drops", static_cast<uint64_t>(2));
        right.Set("flow.0.bytes", static_cast<uint64_t>(1000));
        NS_TEST_ASSERT_MSG_EQ(left.Merge(right), "", "disjoint keys merge");
        NS_TEST_ASSERT_MSG_EQ(left.GetN(), 4, "all four");
        NS_TEST_ASSERT_MSG_EQ(left.GetUint("random_drops"), 2, "the other rank's value");
        RudpRankValues again;
        again.Set("flow.0.bytes", static_cast<uint64_t>(999));
        NS_TEST_ASSERT_MSG_EQ(left.Merge(again),
                              "two ranks set 'flow.0.bytes'",
                              "a key set twice is named");
        NS_TEST_ASSERT_MSG_EQ(left.GetUint("flow.0.bytes"), 1000, "the first value stays");
    }
};

/// \ingroup rudp-test
/// One process: --ranks=1 shares with itself; the record says so.
class RudpRanksOneProcessTest : public TestCase
{
  public:
    RudpRanksOneProcessTest()
        : TestCase("Ranks: one process is rank 0 of 1, shares its own values, records ranks 1")
    {
    }

  private:
    void DoRun() override
    {
        RudpRanks ranks;
        NS_TEST_ASSERT_MSG_EQ(ranks.GetRanks(), 1, "one by default");
        NS_TEST_ASSERT_MSG_EQ(ranks.IsRoot(), true, "rank 0 writes the record");
        NS_TEST_ASSERT_MSG_EQ(ranks.GetSynchronizer(), RudpRanks::DISTRIBUTED, "the default");
        RudpRankValues local;
        local.Set("k", 2.5);
        NS_TEST_ASSERT_MSG_EQ(ranks.Share(local).GetDouble("k"), 2.5, "its own values");
        RudpJson json;
        ranks.AddToJson(json);
        NS_TEST_ASSERT_MSG_EQ(json.Dump(), "{\"ranks\": 1}", "no synchronizer in one process");
        NS_TEST_ASSERT_MSG_EQ(RudpRanks::GetName(RudpRanks::NULL_MESSAGE),
                              "null-message",
                              "--synchronizer's names");
    }
};

/// \ingroup rudp-test
/// The dumbbell's cut: senders on the even ranks, receivers on the odd ones.
class RudpDumbbellRanksTest : public TestCase
{
  public:
    RudpDumbbellRanksTest()
        : TestCase("Dumbbell ranks: each side's nodes in turn on its ranks; one rank holds all")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t k = 0; k < 5; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(RudpDumbbellHelper::GetSenderRank(k, 1), 0, "one rank");
            NS_TEST_ASSERT_MSG_EQ(RudpDumbbellHelper::GetReceiverRank(k, 1), 0, "one rank");
            NS_TEST_ASSERT_MSG_EQ(RudpDumbbellHelper::GetSenderRank(k, 2), 0, "left of two");
            NS_TEST_ASSERT_MSG_EQ(RudpDumbbellHelper::GetReceiverRank(k, 2), 1, "right of two");
        }
        // Three ranks: the left side has ranks 0 and 2, the right side rank 1.
        NS_TEST_ASSERT_MSG_EQ(RudpDumbbellHelper::GetSenderRank(1, 3), 2, "second sender");
        NS_TEST_ASSERT_MSG_EQ(RudpDumbbellHelper::GetReceiverRank(1, 3), 1, "second receiver");
        // Every rank of eight holds some node of eight flows.
        std::set<uint32_t> used;
        for (uint32_t k = 0; k < 8; ++k)
        {
            const uint32_t sender = RudpDumbbellHelper::GetSenderRank(k, 8);
            const uint32_t receiver = RudpDumbbellHelper::GetReceiverRank(k, 8);
            NS_TEST_ASSERT_MSG_EQ(sender % 2, 0, "senders on even ranks");
            NS_TEST_ASSERT_MSG_EQ(receiver % 2, 1, "receivers on odd ranks");
            NS_TEST_ASSERT_MSG_LT(receiver, 8, "within the ranks");
            used.insert(sender);
            used.insert(receiver);
        }
        NS_TEST_ASSERT_MSG_EQ(used.size(), 8, "every rank works");
    }
};

/// \ingroup rudp-test
/// The rudp-ranks test suite.
class RudpRanksTestSuite : public TestSuite
{
  public:
    RudpRanksTestSuite()
        : TestSuite("rudp-ranks")
    {
        AddTestCase(new RudpRankValuesRoundTripTest);
        AddTestCase(new RudpRankValuesDamageTest);
        AddTestCase(new RudpRankValuesMergeTest);
        AddTestCase(new RudpRanksOneProcessTest);
        AddTestCase(new RudpDumbbellRanksTest);
    }
};

/// Static instance registering the suite.
static RudpRanksTestSuite g_rudpRanksTestSuite;
