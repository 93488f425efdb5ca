/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/config.h"
#include "ns3/object-factory.h"
#include "ns3/rudp-cmt-receiver.h"
#include "ns3/rudp-cmt-sender.h"
#include "ns3/rudp-socket.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <string>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * Attribute names: the same concept has TCP's name on RudpSocket,
 * RudpCmtSender and RudpCmtReceiver, and the former names keep working
 * as deprecated attributes.
 */

using namespace ns3;

namespace
{

/// A renamed attribute and two values of it other than its default.
struct Rename
{
    std::string type;    ///< TypeId name
    std::string former;  ///< the deprecated name
    std::string current; ///< TCP's name
    std::string value;   ///< a value under the former name
    std::string other;   ///< another one
};

/// \return attribute \p name of \p object, serialized
std::string
Read(Ptr<Object> object, const std::string& name)
{
    StringValue value;
    object->GetAttribute(name, value);
    return value.Get();
}

/// \return the support level of \p type's attribute \p name
TypeId::SupportLevel
SupportOf(const std::string& type, const std::string& name)
{
    const TypeId tid = TypeId::LookupByName(type);
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        if (tid.GetAttribute(i).name == name)
        {
            return tid.GetAttribute(i).supportLevel;
        }
    }
    return TypeId::SupportLevel::OBSOLETE;
}

} // namespace

/// Former names are deprecated aliases of TCP's names, whichever is set.
class RudpRenamedAttributesTest : public TestCase
{
  public:
    RudpRenamedAttributesTest()
        : TestCase("ReTxThreshold, InitialSlowStartThreshold, Sack, ConnCount, InitialRto, "
                   "DelAckCount: the former names are deprecated aliases, by default or set")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<Rename> renames{
            {"ns3::RudpSocket", "DupAckThreshold", "ReTxThreshold", "5", "7"},
            {"ns3::RudpSocket", "InitialSsThresh", "InitialSlowStartThreshold", "8000", "9000"},
            {"ns3::RudpSocket", "SelectiveRepeat", "Sack", "true", "false"},
            {"ns3::RudpSocket", "ConnectRetries", "ConnCount", "4", "6"},
            {"ns3::RudpSocket", "Rto", "InitialRto", "500ms", "1500ms"},
            {"ns3::RudpCmtSender", "DupThreshold", "ReTxThreshold", "4", "5"},
            {"ns3::RudpCmtSender", "InitialSsThresh", "InitialSlowStartThreshold", "5000", "6000"},
        };
        for (const auto& r : renames)
        {
            const std::string what = r.type + "::" + r.former + " -> " + r.current;
            NS_TEST_EXPECT_MSG_EQ((SupportOf(r.type, r.former) == TypeId::SupportLevel::DEPRECATED),
                                  true,
                                  what << ": deprecated");
            NS_TEST_EXPECT_MSG_EQ((SupportOf(r.type, r.current) == TypeId::SupportLevel::SUPPORTED),
                                  true,
                                  what << ": supported");
            ObjectFactory factory(r.type);
            const std::string byDefault = Read(factory.Create(), r.current);
            // Values as this ns-3 writes them (a Time's form differs by release).
            Ptr<Object> reference = factory.Create();
            reference->SetAttribute(r.current, StringValue(r.value));
            const std::string value = Read(reference, r.current);
            reference->SetAttribute(r.current, StringValue(r.other));
            const std::string other = Read(reference, r.current);
            NS_TEST_EXPECT_MSG_NE(value, byDefault, what << ": a value other than the default");

            Config::SetDefault(r.type + "::" + r.former, StringValue(r.value));
            Ptr<Object> object = factory.Create();
            NS_TEST_EXPECT_MSG_EQ(Read(object, r.current), value, what << ": the former default");
            Config::Reset();

            Config::SetDefault(r.type + "::" + r.current, StringValue(r.value));
            object = factory.Create();
            NS_TEST_EXPECT_MSG_EQ(Read(object, r.current),
                                  value,
                                  what << ": the new default, not undone by the former's");
            NS_TEST_EXPECT_MSG_EQ(Read(object, r.former), value, what << ": read as the former");
            Config::Reset();

            object = factory.Create();
            NS_TEST_EXPECT_MSG_EQ(Read(object, r.current), byDefault, what << ": default");
            object->SetAttribute(r.former, StringValue(r.other));
            NS_TEST_EXPECT_MSG_EQ(Read(object, r.current), other, what << ": set as the former");
            object->SetAttribute(r.current, StringValue(r.value));
            NS_TEST_EXPECT_MSG_EQ(Read(object, r.former), value, what << ": set as the new");
        }

        // The receiver's boolean became a count, as RudpSocket's and TCP's.
        ObjectFactory receiver("ns3::RudpCmtReceiver");
        NS_TEST_EXPECT_MSG_EQ(Read(receiver.Create(), "DelAckCount"), "2", "SCTP's default");
        Config::SetDefault("ns3::RudpCmtReceiver::DelayedAck", StringValue("false"));
        NS_TEST_EXPECT_MSG_EQ(Read(receiver.Create(), "DelAckCount"), "1", "DelayedAck false");
        Config::Reset();
        Config::SetDefault("ns3::RudpCmtReceiver::DelAckCount", StringValue("1"));
        Ptr<Object> object = receiver.Create();
        NS_TEST_EXPECT_MSG_EQ(Read(object, "DelayedAck"), "false", "read as the former");
        object->SetAttribute("DelayedAck", StringValue("true"));
        NS_TEST_EXPECT_MSG_EQ(Read(object, "DelAckCount"), "2", "set as the former");
        Config::Reset();
    }
};

/// \ingroup rudp-test
/// Attribute names test suite.
class RudpAttributesTestSuite : public TestSuite
{
  public:
    RudpAttributesTestSuite()
        : TestSuite("rudp-attributes")
    {
        AddTestCase(new RudpRenamedAttributesTest);
    }
};

/// Static instance registering the suite.
static RudpAttributesTestSuite g_rudpAttributesTestSuite;
