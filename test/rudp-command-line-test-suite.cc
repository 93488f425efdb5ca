/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/config.h"
#include "ns3/rudp-attribute-check.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-json.h"
#include "ns3/rudp-scenario-record.h"
#include "ns3/system-path.h"
#include "ns3/test.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup rudp-test
 * Tests of RudpCommandLine: strict values, ranges, attribute and global
 * arguments, and the messages that name what is allowed.
 */

using namespace ns3;

namespace
{

/// \return true if \p text contains \p part
bool
Contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

/// Numbers, booleans, times and rates are read whole, in decimal, or not at all.
class RudpCommandLineValueTest : public TestCase
{
  public:
    RudpCommandLineValueTest()
        : TestCase("Values are parsed whole and strictly")
    {
    }

  private:
    void DoRun() override
    {
        uint64_t u = 7;
        NS_TEST_ASSERT_MSG_EQ(RudpText::ParseUnsigned("0", u) && u == 0, true, "0");
        NS_TEST_ASSERT_MSG_EQ(RudpText::ParseUnsigned("18446744073709551615", u) &&
                                  u == std::numeric_limits<uint64_t>::max(),
                              true,
                              "2^64-1");
        // sem writes integers as Python floats: a fraction of zeros is whole.
        NS_TEST_ASSERT_MSG_EQ(RudpText::ParseUnsigned("1500.0", u) && u == 1500, true, "1500.0");
        NS_TEST_ASSERT_MSG_EQ(RudpText::ParseUnsigned("30.", u) && u == 30, true, "30.");
        for (const std::string bad : {"",
                                      "-1",
                                      "+1",
                                      "0x5",
                                      "5abc",
                                      " 5",
                                      "5 ",
                                      "1e3",
                                      "18446744073709551616",
                                      "1500.5",
                                      "1500.01",
                                      ".0",
                                      "1.0.0",
                                      "1.0e3"})
        {
            NS_TEST_ASSERT_MSG_EQ(RudpText::ParseUnsigned(bad, u), false, bad);
        }
        int64_t i = 0;
        NS_TEST_ASSERT_MSG_EQ(RudpText::ParseSigned("-9223372036854775808", i) &&
                                  i == std::numeric_limits<int64_t>::min(),
                              true,
                              "INT64_MIN");
        NS_TEST_ASSERT_MSG_EQ(RudpText::ParseSigned("9223372036854775808", i),
                              false,
                              "INT64_MAX + 1");

        double d = 0;
        for (const auto& [text, value] :
             std::vector<std::pair<std::string, double>>{{"0.05", 0.05},
                                                         {"1e-3", 1e-3},
                                                         {".5", 0.5},
                                                         {"5.", 5.0},
                                                         {"-2E+2", -200.0}})
        {
            NS_TEST_ASSERT_MSG_EQ(RudpText::ParseReal(text, d), true, text);
            NS_TEST_ASSERT_MSG_EQ(d, value, text);
        }
        for (const std::string bad :
             {"", "0.05abc", "0x1p3", "inf", "nan", "1e400", "1e", ".", "-"})
        {
            NS_TEST_ASSERT_MSG_EQ(RudpText::ParseReal(bad, d), false, bad);
        }

        bool b = false;
        for (const std::string yes : {"1", "t", "true", "TRUE", "True"})
        {
            NS_TEST_ASSERT_MSG_EQ(RudpText::ParseBoolean(yes, b) && b, true, yes);
        }
        for (const std::string bad : {"", "2", "01", "yes", "1x"})
        {
            NS_TEST_ASSERT_MSG_EQ(RudpText::ParseBoolean(bad, b), false, bad);
        }

        Time t;
        for (const auto& [text, value] :
             std::vector<std::pair<std::string, Time>>{{"20ms", MilliSeconds(20)},
                                                       {"5", Seconds(5)},
                                                       {"1.5min", Seconds(90)},
                                                       {"2us", MicroSeconds(2)},
                                                       {"1e-3s", MilliSeconds(1)},
                                                       {"-1ms", MilliSeconds(-1)}})
        {
            NS_TEST_ASSERT_MSG_EQ(RudpText::ParseTime(text, t), true, text);
            NS_TEST_ASSERT_MSG_EQ(t, value, text);
        }
        for (const std::string bad : {"", "5x", "ms", "5 ms", "1.2.3ms", "1e20s", "0x5s"})
        {
            NS_TEST_ASSERT_MSG_EQ(RudpText::ParseTime(bad, t), false, bad);
        }

        DataRate r;
        for (const auto& [text, bps] :
             std::vector<std::pair<std::string, uint64_t>>{{"10Mbps", 10000000},
                                                           {"1.5Gbps", 1500000000},
                                                           {"2KiB/s", 16384},
                                                           {"100bps", 100}})
        {
            NS_TEST_ASSERT_MSG_EQ(RudpText::ParseDataRate(text, r), true, text);
            NS_TEST_ASSERT_MSG_EQ(r.GetBitRate(), bps, text);
        }
        for (const std::string bad : {"", "10Mbpsx", "1000", "1e6bps", "-1Mbps", "Mbps", "1 Mbps"})
        {
            NS_TEST_ASSERT_MSG_EQ(RudpText::ParseDataRate(bad, r), false, bad);
        }

        NS_TEST_ASSERT_MSG_EQ(RudpText::FormatTime(MilliSeconds(20)), "20ms", "20 ms");
        NS_TEST_ASSERT_MSG_EQ(RudpText::FormatTime(Seconds(3600)), "3600s", "an hour");
        NS_TEST_ASSERT_MSG_EQ(RudpText::FormatDataRate(DataRate("100Mbps")),
                              "100Mbps",
                              "100 Mbit/s");
        NS_TEST_ASSERT_MSG_EQ(RudpText::FormatReal(0.1), "0.1", "0.1");
        NS_TEST_ASSERT_MSG_EQ(RudpText::FormatReal(100), "100", "100");
    }
};

/// Program options: the right values land, the wrong ones are named with their range.
class RudpCommandLineOptionTest : public TestCase
{
  public:
    RudpCommandLineOptionTest()
        : TestCase("Program options are checked and range-checked")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t window = 30;
        uint64_t size = 0;
        double loss = 0;
        Time delay = Seconds(0);
        DataRate rate("10Mbps");
        bool sack = false;
        std::string variant = "reno";
        std::string output;
        const auto make = [&](RudpCommandLine& cmd) {
            cmd.AddValue("window", "window", window, 1u, 65535u);
            cmd.AddValue("size", "size", size, 0, 1ULL << 40);
            cmd.AddValue("loss", "loss", loss, 0.0, 1.0);
            cmd.AddValue("beta", "beta", loss, 0.0, 1.0, RudpText::OPEN);
            cmd.AddValue("delay", "delay", delay, Seconds(0), Seconds(10));
            cmd.AddValue("rate", "rate", rate, DataRate("1kbps"), DataRate("1Gbps"));
            cmd.AddValue("sack", "sack", sack);
            cmd.AddValue("variant", "variant", variant, {"go-back-n", "reno"});
            cmd.AddValue("output", "output", output);
            cmd.SetsAttributes("window", {"ns3::RudpSocket::WindowSize"});
            cmd.SetsAttributes("variant", {"ns3::RudpSocket::WindowPolicy"});
            cmd.SetsAttributes("sack", {"ns3::RudpSocket::Sack"});
        };
        std::string name;
        std::string problem;
        {
            RudpCommandLine cmd(__FILE__);
            make(cmd);
            const bool ok = cmd.Check({"program",
                                       "--window=5",
                                       "--size=1000",
                                       "--loss=0.05",
                                       "--delay=20ms",
                                       "--rate=2Mbps",
                                       "--sack",
                                       "--variant=go-back-n",
                                       "--output=a b.json"},
                                      name,
                                      problem);
            NS_TEST_ASSERT_MSG_EQ(ok, true, problem);
            NS_TEST_ASSERT_MSG_EQ(window, 5, "--window");
            NS_TEST_ASSERT_MSG_EQ(size, 1000, "--size");
            NS_TEST_ASSERT_MSG_EQ(loss, 0.05, "--loss");
            NS_TEST_ASSERT_MSG_EQ(delay, MilliSeconds(20), "--delay");
            NS_TEST_ASSERT_MSG_EQ(rate.GetBitRate(), 2000000, "--rate");
            NS_TEST_ASSERT_MSG_EQ(sack, true, "a bare boolean toggles it, as in ns-3");
            NS_TEST_ASSERT_MSG_EQ(variant, "go-back-n", "--variant");
            NS_TEST_ASSERT_MSG_EQ(output, "a b.json", "a text option is taken whole");
        }
        {
            // sem gives Python's None for a parameter without a default.
            output.clear(); // no default
            RudpCommandLine cmd(__FILE__);
            make(cmd);
            const bool ok = cmd.Check({"program", "--output=None"}, name, problem);
            NS_TEST_ASSERT_MSG_EQ(ok, true, problem);
            NS_TEST_ASSERT_MSG_EQ(output, "", "sem's None leaves an option without default unset");
        }
        // argument, option named, words the message must contain
        const std::vector<std::vector<std::string>> bad{
            {"--window=0x5", "window", "not a decimal integer", "[1, 65535]"},
            {"--window=abc", "window", "not a decimal integer", "[1, 65535]"},
            {"--window=70000", "window", "out of range", "[1, 65535]"},
            {"--window", "window", "needs a value", "[1, 65535]"},
            {"--size=-1", "size", "not a decimal integer", "[0, 1099511627776]"},
            {"--loss=0.05abc", "loss", "not a number", "[0, 1]"},
            {"--loss=1.5", "loss", "out of range", "[0, 1]"},
            {"--beta=1", "beta", "out of range", "(0, 1)"},
            {"--delay=5x", "delay", "not a time", "[0s, 10s]"},
            {"--delay=11s", "delay", "out of range", "[0s, 10s]"},
            {"--rate=fast", "rate", "not a data rate", "[1kbps, 1Gbps]"},
            {"--sack=yes", "sack", "not a boolean", "1, 0, true or false"},
            {"--variant=vegas", "variant", "not a choice", "go-back-n|reno"},
            {"--variant=None", "variant", "not a choice", "go-back-n|reno"}, // it has a default
            {"--windw=10", "windw", "unknown option", "--PrintHelp lists the options"},
            {"--ns3::RudpSocket::WindowSize=5", "ns3::RudpSocket::WindowSize", "sets", "--window"},
            // deprecated aliases of what the program sets, known from their TypeId
            {"--ns3::RudpSocket::Variant=Reno", "ns3::RudpSocket::Variant", "sets", "--variant"},
            {"--ns3::RudpSocket::CongestionOps=ns3::TcpCubic",
             "ns3::RudpSocket::CongestionOps",
             "sets",
             "--variant"},
            {"--ns3::RudpSocket::SelectiveRepeat=1",
             "ns3::RudpSocket::SelectiveRepeat",
             "sets",
             "--sack"},
            {"--sack=", "sack", "needs a value", "1, 0, true or false"},
            {"--ns3::RudpSocket::DataRetries=5abc",
             "ns3::RudpSocket::DataRetries",
             "'5abc' is not a decimal integer",
             "[0, 1000]"},
            {"--RngRun=3x", "RngRun", "not a decimal integer", "an integer"},
            {"stray", "", "not an option", "--name=value"},
        };
        // The first bad argument is the one named, whether an option or an attribute.
        for (const auto& [first, second] :
             std::vector<std::pair<std::string, std::string>>{{"--loss=2", "--nope=1"},
                                                              {"--nope=1", "--loss=2"},
                                                              {"--RngRun=x", "--window=0"},
                                                              {"--window=0", "--RngRun=x"}})
        {
            RudpCommandLine cmd(__FILE__);
            make(cmd);
            NS_TEST_ASSERT_MSG_EQ(cmd.Check({"program", "--size=5", first, second}, name, problem),
                                  false,
                                  first + " " + second);
            NS_TEST_ASSERT_MSG_EQ(name,
                                  first.substr(2, first.find('=') - 2),
                                  first + " " + second + ": " + problem);
        }
        for (const auto& c : bad)
        {
            RudpCommandLine cmd(__FILE__);
            make(cmd);
            const bool ok = cmd.Check({"program", c[0]}, name, problem);
            NS_TEST_ASSERT_MSG_EQ(ok, false, c[0] + " is refused");
            NS_TEST_ASSERT_MSG_EQ(name, c[1], c[0] + " names its option");
            NS_TEST_ASSERT_MSG_EQ(Contains(problem, c[2]), true, c[0] + ": " + problem);
            NS_TEST_ASSERT_MSG_EQ(Contains(problem, c[3]), true, c[0] + ": " + problem);
        }
    }
};

/// Attribute and global-value arguments are checked against their own checkers.
class RudpCommandLineAttributeTest : public TestCase
{
  public:
    RudpCommandLineAttributeTest()
        : TestCase("Attribute and global values are checked before ns-3 sees them")
    {
    }

  private:
    void DoRun() override
    {
        // name, value, "" if valid else words of the problem, canonical value if valid
        const std::vector<std::vector<std::string>> cases{
            {"ns3::RudpSocket::WindowSize", "5", "", "5"},
            {"ns3::RudpSocket::WindowSize",
             "5abc",
             "not a decimal integer; allowed: an integer in [1, 65535]",
             ""},
            {"ns3::RudpSocket::WindowSize", "0x10", "not a decimal integer", ""},
            {"ns3::RudpSocket::WindowSize", "-5", "not a decimal integer", ""},
            {"ns3::RudpSocket::WindowSize", "70000", "must be in [1, 65535]", ""},
            {"ns3::RudpSocket::SelectiveRepeat", "TRUE", "", "true"},
            {"ns3::RudpSocket::SelectiveRepeat", "1x", "not a boolean", ""},
            {"ns3::RudpSocket::Rto", "500ms", "", "500ms"},
            {"ns3::RudpSocket::Rto", "5x", "not a time", ""},
            {"ns3::RudpSocket::Rto", "2h", "must be in [1ms, 3600s]", ""},
            {"ns3::RudpCorruptionErrorModel::ErrorUnit", "PerBit", "", "PerBit"},
            {"ns3::RudpCorruptionErrorModel::ErrorUnit", "PerBits", "PerPacket|PerByte|PerBit", ""},
            {"ns3::RateErrorModel::ErrorRate", "0.1x", "'0.1x' is not a number", ""},
            {"ns3::SequentialRandomVariable::Increment",
             "ns3::ConstantRandomVariable[Constant=2]",
             "",
             "ns3::ConstantRandomVariable[Constant=2]"},
            {"ns3::SequentialRandomVariable::Increment",
             "ns3::ConstantRandomVariable[Constant=2x]",
             "ns3::ConstantRandomVariable::Constant: '2x' is not a number",
             ""},
            {"ns3::SequentialRandomVariable::Increment",
             "ns3::Node",
             "not a ns3::RandomVariableStream",
             ""},
            {"ns3::SequentialRandomVariable::Increment", "ns3::Foo", "not a TypeId", ""},
            {"ns3::TcpSocketBase::SegmentSize", "1000", "attribute of ns3::TcpSocket", ""},
            {"ns3::RudpSocket::Windowsize", "5", "has no attribute 'Windowsize'", ""},
            {"RudpSocket::WindowSize", "5", "'RudpSocket' is not a TypeId", ""},
            {"ns3::Nope::X", "1", "not a TypeId", ""},
            {"RngRun", "3", "", "3"},
            {"RngRun", "3x", "not a decimal integer", ""},
            {"RngRun", "-1", "not a decimal integer", ""},
            {"RngSeed", "0", "[1, 4294944442]", ""},
            {"SchedulerType", "ns3::Node", "not an ns3::Scheduler", ""},
            {"SchedulerType", "ns3::MapScheduler", "", "ns3::MapScheduler"},
        };
        for (const auto& c : cases)
        {
            std::string canonical;
            const std::string problem = RudpAttributeCheck::Check(c[0], c[1], canonical);
            const std::string what = "--" + c[0] + "=" + c[1] + ": " + problem;
            if (c[2].empty())
            {
                NS_TEST_ASSERT_MSG_EQ(problem, "", what);
                NS_TEST_ASSERT_MSG_EQ(canonical, c[3], what);
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(Contains(problem, c[2]), true, what);
            }
        }
    }
};

/// An option that chooses defaults (a preset) runs before the attribute
/// arguments, which override it whatever their order.
class RudpCommandLinePresetTest : public TestCase
{
  public:
    RudpCommandLinePresetTest()
        : TestCase("A preset option's defaults are set before the attribute arguments")
    {
    }

  private:
    /// \return the default of ns3::RudpSocket::WindowSize as a new socket sees it
    static uint64_t WindowDefault()
    {
        const TypeId tid = TypeId::LookupByName("ns3::RudpSocket");
        TypeId::AttributeInformation info;
        tid.LookupAttributeByName("WindowSize", &info);
        return DynamicCast<const UintegerValue>(info.initialValue)->Get();
    }

    /// \return the window default after parsing \p args with a --preset option
    static uint64_t WindowAfter(const std::vector<std::string>& args, bool& valid)
    {
        Config::Reset();
        bool preset = false;
        RudpCommandLine cmd("program");
        cmd.AddValue("preset", "Sets the window default to 7", preset);
        cmd.BeforeAttributes([&preset]() {
            if (preset)
            {
                Config::SetDefault("ns3::RudpSocket::WindowSize", UintegerValue(7));
            }
        });
        std::string name;
        std::string problem;
        valid = cmd.Check(args, name, problem);
        return WindowDefault();
    }

    void DoRun() override
    {
        bool valid = false;
        const uint64_t stock = WindowAfter({"program"}, valid);
        NS_TEST_ASSERT_MSG_EQ(WindowAfter({"program", "--preset"}, valid), 7, "the preset applies");
        NS_TEST_ASSERT_MSG_EQ(
            WindowAfter({"program", "--ns3::RudpSocket::WindowSize=9", "--preset"}, valid),
            9,
            "an attribute given before the preset still overrides it");
        NS_TEST_ASSERT_MSG_EQ(
            WindowAfter({"program", "--preset=1", "--ns3::RudpSocket::WindowSize=9"}, valid),
            9,
            "an attribute given after the preset overrides it");
        NS_TEST_ASSERT_MSG_EQ(WindowAfter({"program", "--preset", "--bogus=1"}, valid),
                              stock,
                              "nothing is set when an argument is invalid");
        NS_TEST_ASSERT_MSG_EQ(valid, false, "--bogus is refused");
    }

    void DoTeardown() override
    {
        Config::Reset();
    }
};

/// CheckList: each item of a list checked alike, the first problem named.
class RudpCommandLineListTest : public TestCase
{
  public:
    RudpCommandLineListTest()
        : TestCase("a comma-separated list: each item checked, the first problem reported")
    {
    }

  private:
    void DoRun() override
    {
        const auto times = [](const std::string& item, Time& time) {
            return RudpRange<Time>{MilliSeconds(1), Seconds(1)}.Check(item, time);
        };
        std::vector<Time> values;
        NS_TEST_ASSERT_MSG_EQ(RudpText::CheckList("50ms,200ms", values, times), "", "ok");
        NS_TEST_ASSERT_MSG_EQ(values.size(), size_t{2}, "two");
        NS_TEST_ASSERT_MSG_EQ(values[1], MilliSeconds(200), "in order");
        const std::string problem = RudpText::CheckList("50ms,5s,1us", values, times);
        NS_TEST_ASSERT_MSG_EQ(Contains(problem, "5s"), true, "the first bad item: " << problem);
        NS_TEST_ASSERT_MSG_NE(RudpText::CheckList("", values, times), "", "no item");
    }
};

/// A record replaces its file at once, and begins as every program's does.
class RudpScenarioRecordTest : public TestCase
{
  public:
    RudpScenarioRecordTest()
        : TestCase("a JSON record replaces its file whole (a reader of the old one keeps it); "
                   "scenario, ok and failure come first")
    {
    }

  private:
    /// \return the number of entries of \p dir (SystemPath::ReadFiles lists "." and ".." on
    /// ns-3.35)
    static size_t FilesIn(const std::string& dir)
    {
        const std::filesystem::directory_iterator entries(dir);
        return static_cast<size_t>(std::distance(begin(entries), end(entries)));
    }

    static std::string ReadAll(std::istream& in)
    {
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }

    void DoRun() override
    {
        const std::string dir = CreateTempDirFilename("rudp-record");
        SystemPath::MakeDirectories(dir);
        const std::string path = dir + "/run.json";
        RudpJson first;
        first.Set("run", 1);
        NS_TEST_ASSERT_MSG_EQ(first.Write(path), true, "written");
        std::ifstream reader(path); // a reader of the first record, as a sweep's
        RudpJson second;
        second.Set("run", 2);
        NS_TEST_ASSERT_MSG_EQ(second.Write(path), true, "written again");
        const std::string old = ReadAll(reader);
        NS_TEST_ASSERT_MSG_EQ(Contains(old, "\"run\": 1,"),
                              true,
                              "the reader keeps the old record: " << old);
        std::ifstream now(path);
        NS_TEST_ASSERT_MSG_EQ(Contains(ReadAll(now), "\"run\": 2,"),
                              true,
                              "the file has the new one");
        NS_TEST_ASSERT_MSG_EQ(FilesIn(dir), size_t{1}, "no partial file is left");
        NS_TEST_ASSERT_MSG_EQ(second.Write(dir + "/missing/run.json"), false, "no such folder");
        NS_TEST_ASSERT_MSG_EQ(FilesIn(dir), size_t{1}, "nor after a failed write");
        NS_TEST_ASSERT_MSG_EQ(second.Write("/dev/null"), true, "a device is written to");

        RudpScenarioRecord record("rudp-test");
        NS_TEST_ASSERT_MSG_EQ(record.IsWanted(), false, "no --output");
        RudpJson json;
        record.SetOutcome(json, false, "why");
        NS_TEST_ASSERT_MSG_EQ(json.Dump(),
                              "{\"scenario\": \"rudp-test\", \"ok\": false, \"failure\": \"why\"}",
                              "the outcome");
        record.WriteOrFail(json); // nothing to write, nothing ends
    }
};

/// \ingroup rudp-test
/// The RudpCommandLine test suite.
class RudpCommandLineTestSuite : public TestSuite
{
  public:
    RudpCommandLineTestSuite()
        : TestSuite("rudp-command-line")
    {
        AddTestCase(new RudpCommandLineValueTest);
        AddTestCase(new RudpCommandLineOptionTest);
        AddTestCase(new RudpCommandLineAttributeTest);
        AddTestCase(new RudpCommandLinePresetTest);
        AddTestCase(new RudpCommandLineListTest);
        AddTestCase(new RudpScenarioRecordTest);
    }
};

/// Static instance registering the suite.
static RudpCommandLineTestSuite g_rudpCommandLineTestSuite;
