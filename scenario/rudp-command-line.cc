/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-command-line.h"

#include "rudp-parameter-check.h"
#include "rudp-version.h"

#include "ns3/abort.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <locale>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCommandLine");

namespace
{

/// ns-3's time units (Time::Time(const std::string&)); "" is seconds.
const std::vector<std::pair<std::string, Time::Unit>> TIME_UNITS{{"y", Time::Y},
                                                                 {"d", Time::D},
                                                                 {"h", Time::H},
                                                                 {"min", Time::MIN},
                                                                 {"s", Time::S},
                                                                 {"ms", Time::MS},
                                                                 {"us", Time::US},
                                                                 {"ns", Time::NS},
                                                                 {"ps", Time::PS},
                                                                 {"fs", Time::FS},
                                                                 {"", Time::S}};

/// ns-3's data rate units (DataRate::DoParse, the same in ns-3.35 to 3.48), bit/s each.
const std::vector<std::pair<std::string, double>> RATE_UNITS{{"bps", 1},
                                                             {"b/s", 1},
                                                             {"Bps", 8},
                                                             {"B/s", 8},
                                                             {"kbps", 1e3},
                                                             {"kb/s", 1e3},
                                                             {"Kbps", 1e3},
                                                             {"Kb/s", 1e3},
                                                             {"kBps", 8e3},
                                                             {"kB/s", 8e3},
                                                             {"KBps", 8e3},
                                                             {"KB/s", 8e3},
                                                             {"Kib/s", 1024},
                                                             {"KiB/s", 8192},
                                                             {"Mbps", 1e6},
                                                             {"Mb/s", 1e6},
                                                             {"MBps", 8e6},
                                                             {"MB/s", 8e6},
                                                             {"Mib/s", 1048576},
                                                             {"MiB/s", 8388608},
                                                             {"Gbps", 1e9},
                                                             {"Gb/s", 1e9},
                                                             {"GBps", 8e9},
                                                             {"GB/s", 8e9},
                                                             {"Gib/s", 1073741824.0},
                                                             {"GiB/s", 8589934592.0}};

/// ns-3's queue size units (QueueSize::DoParse); a unit is required.
const std::vector<std::string>
    QUEUE_SIZE_UNITS{"B", "kB", "KB", "KiB", "MB", "MiB", "p", "kp", "Kp", "Kip", "Mp", "Mip"};

const char* const TIME_FORM =
    "a number with one of ns-3's time units y, d, h, min, s, ms, us, ns, ps, fs (none: s)";
const char* const RATE_FORM =
    "a number with one of ns-3's rate units bps, kbps, Mbps, Gbps, B/s, kB/s, MB/s, GB/s, "
    "Kib/s, KiB/s, Mib/s, MiB/s, Gib/s, GiB/s (e.g. 10Mbps)";

/// ns-3's general arguments, which CommandLine handles itself and then exits.
bool
IsGeneralArgument(const std::string& name)
{
    static const std::vector<std::string> names{"PrintHelp",
                                                "help",
                                                "PrintVersion",
                                                "version",
                                                "PrintGroups",
                                                "PrintTypeIds",
                                                "PrintGlobals",
                                                "PrintGroup",
                                                "PrintAttributes"};
    return std::find(names.begin(), names.end(), name) != names.end();
}

/// "--name=value" or "-name=value" split as ns-3's CommandLine splits it.
struct Argument
{
    bool isOption{false}; ///< starts with '-'
    std::string name;     ///< after the dashes, before '='
    bool hasValue{false}; ///< has '='
    std::string value;    ///< after the first '='
};

Argument
SplitArgument(const std::string& arg)
{
    Argument a;
    if (arg.empty() || arg[0] != '-')
    {
        a.name = arg;
        return a;
    }
    a.isOption = true;
    const std::string rest = arg.substr(arg.compare(0, 2, "--") == 0 ? 2 : 1);
    const size_t equal = rest.find('=');
    a.name = rest.substr(0, equal);
    if (equal != std::string::npos)
    {
        a.hasValue = true;
        a.value = rest.substr(equal + 1);
    }
    return a;
}

bool
IsDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// \return the length of the longest prefix of \p s that is a decimal real (0: none)
size_t
RealPrefix(const std::string& s)
{
    size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
    {
        ++i;
    }
    size_t digits = 0;
    while (i < s.size() && IsDigit(s[i]))
    {
        ++i;
        ++digits;
    }
    if (i < s.size() && s[i] == '.')
    {
        ++i;
        while (i < s.size() && IsDigit(s[i]))
        {
            ++i;
            ++digits;
        }
    }
    if (digits == 0)
    {
        return 0;
    }
    // An exponent counts only if it is complete ("1e" is 1 followed by "e").
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E'))
    {
        size_t j = i + 1;
        if (j < s.size() && (s[j] == '+' || s[j] == '-'))
        {
            ++j;
        }
        if (j < s.size() && IsDigit(s[j]))
        {
            while (j < s.size() && IsDigit(s[j]))
            {
                ++j;
            }
            i = j;
        }
    }
    return i;
}

/// Reads a real that RealPrefix accepted whole (C locale, whatever the program's).
bool
ReadReal(const std::string& text, double& value)
{
    std::istringstream in(text);
    in.imbue(std::locale::classic());
    in >> value;
    return !in.fail() && std::isfinite(value);
}

bool
HasSpace(const std::string& text)
{
    return std::any_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); });
}

/// \return "'text'" for messages
std::string
Quoted(const std::string& text)
{
    return "'" + text + "'";
}

/// Says why \p text is not an integer.
std::string
BadInteger(const std::string& text, bool isUnsigned)
{
    if (text.empty())
    {
        return "needs a value";
    }
    const size_t sign = (text[0] == '+' || text[0] == '-') ? 1 : 0;
    if (isUnsigned && text[0] == '-')
    {
        return Quoted(text) + " is negative";
    }
    if (text.compare(sign, 2, "0x") == 0 || text.compare(sign, 2, "0X") == 0)
    {
        return Quoted(text) + " is hexadecimal: only decimal numbers are accepted";
    }
    size_t i = sign;
    while (i < text.size() && IsDigit(text[i]))
    {
        ++i;
    }
    if (i == text.size() && i > sign)
    {
        return Quoted(text) + " is too large";
    }
    if (i > sign)
    {
        return Quoted(text) + " has characters after the number";
    }
    return Quoted(text) + " is not a decimal integer";
}

/// Says why \p text is not a real.
std::string
BadReal(const std::string& text)
{
    if (text.empty())
    {
        return "needs a value";
    }
    const size_t sign = (text[0] == '+' || text[0] == '-') ? 1 : 0;
    if (text.compare(sign, 2, "0x") == 0 || text.compare(sign, 2, "0X") == 0)
    {
        return Quoted(text) + " is hexadecimal: only decimal numbers are accepted";
    }
    const size_t prefix = RealPrefix(text);
    if (prefix == text.size())
    {
        return Quoted(text) + " is too large";
    }
    if (prefix > 0)
    {
        return Quoted(text) + " has characters after the number";
    }
    return Quoted(text) + " is not a number";
}

/// Says why \p text is not a time.
std::string
TimeProblem(const std::string& text)
{
    if (text.empty())
    {
        return "needs a value";
    }
    const std::string unit = text.substr(RealPrefix(text));
    const bool knownUnit = std::any_of(TIME_UNITS.begin(),
                                       TIME_UNITS.end(),
                                       [&unit](const auto& u) { return u.first == unit; });
    if (RealPrefix(text) > 0 && knownUnit)
    {
        return Quoted(text) + " is beyond the range of ns-3's Time";
    }
    return Quoted(text) + " is not a time (" + TIME_FORM + ")";
}

/// "[min, max]" with the interval's brackets.
std::string
IntervalText(const std::string& min, const std::string& max, RudpCommandLine::Interval interval)
{
    const bool openLow = interval == RudpCommandLine::OPEN_LOW || interval == RudpCommandLine::OPEN;
    const bool openHigh =
        interval == RudpCommandLine::OPEN_HIGH || interval == RudpCommandLine::OPEN;
    return std::string(openLow ? "(" : "[") + min + ", " + max + (openHigh ? ")" : "]");
}

template <typename T>
bool
InInterval(T value, T min, T max, RudpCommandLine::Interval interval)
{
    const bool openLow = interval == RudpCommandLine::OPEN_LOW || interval == RudpCommandLine::OPEN;
    const bool openHigh =
        interval == RudpCommandLine::OPEN_HIGH || interval == RudpCommandLine::OPEN;
    return (openLow ? value > min : value >= min) && (openHigh ? value < max : value <= max);
}

std::string
UnsignedAllowed(uint64_t min, uint64_t max)
{
    return "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

std::string
RealAllowed(double min, double max, RudpCommandLine::Interval interval)
{
    return "a number in " + IntervalText(RudpCommandLine::FormatReal(min),
                                         RudpCommandLine::FormatReal(max),
                                         interval);
}

std::string
TimeAllowed(Time min, Time max, RudpCommandLine::Interval interval)
{
    return "a time in " + IntervalText(RudpCommandLine::FormatTime(min),
                                       RudpCommandLine::FormatTime(max),
                                       interval);
}

std::string
RateAllowed(DataRate min, DataRate max)
{
    return "a data rate in [" + RudpCommandLine::FormatDataRate(min) + ", " +
           RudpCommandLine::FormatDataRate(max) + "]";
}

/// "problem; allowed: what"
std::string
WithAllowed(const std::string& problem, const std::string& allowed)
{
    return allowed.empty() ? problem : problem + "; allowed: " + allowed;
}

/// "'text' is out of range: must be in [min, max]", from an "allowed" text ending in the interval.
std::string
OutOfRange(const std::string& text, const std::string& allowed)
{
    const size_t interval = allowed.find_first_of("[(");
    return Quoted(text) + " is out of range: must be in " +
           (interval == std::string::npos ? allowed : allowed.substr(interval));
}

/// Edit distance of \p a and \p b (for "did you mean").
size_t
Distance(const std::string& a, const std::string& b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
    {
        row[j] = j;
    }
    for (size_t i = 1; i <= a.size(); ++i)
    {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
        {
            const size_t above = row[j];
            row[j] =
                std::min({row[j] + 1,
                          row[j - 1] + 1,
                          diagonal + (std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                                              std::tolower(static_cast<unsigned char>(b[j - 1]))
                                          ? 0
                                          : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

/// \return the name in \p names closest to \p name, if close enough, else ""
std::string
Closest(const std::string& name, const std::vector<std::string>& names)
{
    std::string best;
    size_t bestDistance = std::max<size_t>(1, name.size() / 3) + 1; // at most a typo or two
    for (const auto& candidate : names)
    {
        const size_t d = Distance(name, candidate);
        if (d < bestDistance)
        {
            best = candidate;
            bestDistance = d;
        }
    }
    return best;
}

/// The bounds "min:max" at the end of an integer or double checker's type information.
bool
CheckerBounds(Ptr<const AttributeChecker> checker, std::string& min, std::string& max)
{
    if (!checker->HasUnderlyingTypeInformation())
    {
        return false;
    }
    const std::string info = checker->GetUnderlyingTypeInformation();
    const size_t space = info.rfind(' ');
    const size_t colon = info.rfind(':');
    if (space == std::string::npos || colon == std::string::npos || colon < space)
    {
        return false;
    }
    min = info.substr(space + 1, colon - space - 1);
    max = info.substr(colon + 1);
    return true;
}

/// A Time checker's bounds ("Time +1e+06ns:+3.6e+12ns"), as readable times.
std::string
TimeCheckerAllowed(Ptr<const AttributeChecker> checker)
{
    std::string min;
    std::string max;
    Time low;
    Time high;
    if (CheckerBounds(checker, min, max) && RudpCommandLine::ParseTime(min, low) &&
        RudpCommandLine::ParseTime(max, high))
    {
        return TimeAllowed(low, high, RudpCommandLine::CLOSED);
    }
    return "a time";
}

/// \return the TypeId named \p name if it is \p base or derives from it
bool
IsA(const std::string& name, const std::string& base, TypeId& tid)
{
    TypeId baseTid;
    return TypeId::LookupByNameFailSafe(name, &tid) &&
           TypeId::LookupByNameFailSafe(base, &baseTid) &&
           (tid == baseTid || tid.IsChildOf(baseTid));
}

/**
 * Checks an ObjectFactory string "ns3::Type" or "ns3::Type[Name=value|Name=value]"
 * (PointerValue, ObjectFactoryValue) as ns-3's operator>> reads it, each
 * attribute value by its own checker; \p base is the type the object must be.
 */
std::string
CheckFactory(const std::string& text, const std::string& base, std::string& canonical)
{
    const std::string form = "a TypeId name, or TypeId[Attribute=value|...] (no spaces)";
    if (text.empty() || HasSpace(text))
    {
        return WithAllowed(text.empty() ? "needs a value" : Quoted(text) + " has spaces", form);
    }
    const size_t open = text.find('[');
    const size_t close = text.find(']');
    if ((open == std::string::npos) != (close == std::string::npos) ||
        (open != std::string::npos && (close < open || close + 1 != text.size() ||
                                       text.find('[', open + 1) != std::string::npos)))
    {
        return WithAllowed(Quoted(text) + " has unbalanced or nested brackets", form);
    }
    const std::string typeName = text.substr(0, open);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        return WithAllowed(Quoted(typeName) + " is not a TypeId", form);
    }
    if (!base.empty() && !IsA(typeName, base, tid))
    {
        return Quoted(typeName) + " is not a " + base;
    }
    canonical = typeName;
    if (open == std::string::npos)
    {
        return "";
    }
    std::string inner;
    const std::string parameters = text.substr(open + 1, close - open - 1);
    for (const auto& item : RudpCommandLine::Split(parameters, '|'))
    {
        const size_t equal = item.find('=');
        if (equal == std::string::npos)
        {
            return WithAllowed(Quoted(item) + " in " + Quoted(text) + " is not Name=value", form);
        }
        const std::string name = item.substr(0, equal);
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(name, &info))
        {
            return typeName + " has no attribute " + Quoted(name);
        }
        std::string value;
        const std::string problem =
            RudpCommandLine::CheckValue(info.checker, item.substr(equal + 1), value);
        if (!problem.empty())
        {
            return typeName + "::" + name + ": " + problem;
        }
        inner += (inner.empty() ? "" : "|") + name + "=" + value;
    }
    canonical = typeName + "[" + inner + "]";
    return "";
}

} // namespace

bool
RudpCommandLine::IsUnsetBySem(const std::string& value, const Option& option)
{
    // sem gives every parameter a value, and Python's None for one whose
    // default --PrintHelp shows as empty; it means "leave it unset".
    return value == "None" && option.defaultText.empty();
}

RudpCommandLine::RudpCommandLine(const std::string& filename)
    : m_cmd(filename)
{
    NS_LOG_FUNCTION(this << filename);
}

RudpCommandLine::~RudpCommandLine()
{
    NS_LOG_FUNCTION(this);
}

void
RudpCommandLine::Usage(const std::string& usage)
{
    m_cmd.Usage(usage);
}

void
RudpCommandLine::Register(const std::string& help, std::unique_ptr<Option> option)
{
    NS_ABORT_MSG_IF(Find(option->name), "option --" << option->name << " declared twice");
    // ns-3's CommandLine lists the option with its default; it never parses
    // it (Check() does), so it is given the default's text to show.
    m_cmd.AddValue(option->name,
                   option->allowed.empty() ? help : help + "; allowed: " + option->allowed,
                   option->defaultText);
    m_options.push_back(std::move(option));
}

void
RudpCommandLine::AddValue(const std::string& name, const std::string& help, bool& value)
{
    auto option = std::make_unique<Option>();
    option->name = name;
    option->allowed = "1, 0, true or false";
    option->defaultText = value ? "true" : "false";
    option->isBoolean = true;
    option->boolean = &value;
    option->apply = [&value, allowed = option->allowed](const std::string& text) {
        return ParseBoolean(text, value)
                   ? std::string()
                   : WithAllowed(text.empty() ? "needs a value"
                                              : Quoted(text) + " is not a boolean",
                                 allowed);
    };
    Register(help, std::move(option));
}

void
RudpCommandLine::AddValue(const std::string& name, const std::string& help, std::string& value)
{
    auto option = std::make_unique<Option>();
    option->name = name;
    option->defaultText = value;
    option->apply = [&value](const std::string& text) {
        value = text;
        return std::string();
    };
    Register(help, std::move(option));
}

void
RudpCommandLine::AddValue(const std::string& name,
                          const std::string& help,
                          std::string& value,
                          const std::vector<std::string>& choices)
{
    auto option = std::make_unique<Option>();
    option->name = name;
    std::string list;
    for (const auto& choice : choices)
    {
        list += (list.empty() ? "" : "|") + choice;
    }
    option->allowed = "one of " + list;
    option->defaultText = value;
    option->apply = [&value, choices, allowed = option->allowed](const std::string& text) {
        if (std::find(choices.begin(), choices.end(), text) == choices.end())
        {
            return WithAllowed(text.empty() ? "needs a value" : Quoted(text) + " is not a choice",
                               allowed);
        }
        value = text;
        return std::string();
    };
    Register(help, std::move(option));
}

void
RudpCommandLine::AddValue(const std::string& name,
                          const std::string& help,
                          std::string& value,
                          const std::string& form,
                          Checker check)
{
    auto option = std::make_unique<Option>();
    option->name = name;
    option->allowed = form;
    option->defaultText = value;
    option->apply = [&value, check](const std::string& text) {
        const std::string problem = check(text);
        if (problem.empty())
        {
            value = text;
        }
        return problem;
    };
    Register(help, std::move(option));
}

void
RudpCommandLine::AddValue(const std::string& name,
                          const std::string& help,
                          uint32_t& value,
                          uint32_t min,
                          uint32_t max)
{
    auto option = std::make_unique<Option>();
    option->name = name;
    option->allowed = UnsignedAllowed(min, max);
    option->defaultText = std::to_string(value);
    option->apply = [&value, min, max](const std::string& text) {
        uint64_t parsed = 0;
        const std::string problem = CheckUnsigned(text, parsed, min, max);
        if (problem.empty())
        {
            value = static_cast<uint32_t>(parsed);
        }
        return problem;
    };
    Register(help, std::move(option));
}

void
RudpCommandLine::AddValue(const std::string& name,
                          const std::string& help,
                          uint64_t& value,
                          uint64_t min,
                          uint64_t max)
{
    auto option = std::make_unique<Option>();
    option->name = name;
    option->allowed = UnsignedAllowed(min, max);
    option->defaultText = std::to_string(value);
    option->apply = [&value, min, max](const std::string& text) {
        return CheckUnsigned(text, value, min, max);
    };
    Register(help, std::move(option));
}

void
RudpCommandLine::AddValue(const std::string& name,
                          const std::string& help,
                          double& value,
                          double min,
                          double max,
                          Interval interval)
{
    auto option = std::make_unique<Option>();
    option->name = name;
    option->allowed = RealAllowed(min, max, interval);
    option->defaultText = FormatReal(value);
    option->apply = [&value, min, max, interval](const std::string& text) {
        return CheckReal(text, value, min, max, interval);
    };
    Register(help, std::move(option));
}

void
RudpCommandLine::AddValue(const std::string& name,
                          const std::string& help,
                          Time& value,
                          Time min,
                          Time max,
                          Interval interval)
{
    auto option = std::make_unique<Option>();
    option->name = name;
    option->allowed = TimeAllowed(min, max, interval);
    option->defaultText = FormatTime(value);
    option->apply = [&value, min, max, interval](const std::string& text) {
        return CheckTime(text, value, min, max, interval);
    };
    Register(help, std::move(option));
}

void
RudpCommandLine::AddValue(const std::string& name,
                          const std::string& help,
                          DataRate& value,
                          DataRate min,
                          DataRate max)
{
    auto option = std::make_unique<Option>();
    option->name = name;
    option->allowed = RateAllowed(min, max);
    option->defaultText = FormatDataRate(value);
    option->apply = [&value, min, max](const std::string& text) {
        return CheckDataRate(text, value, min, max);
    };
    Register(help, std::move(option));
}

void
RudpCommandLine::SetsAttribute(const std::string& attribute, const std::string& option)
{
    m_setsAttribute[attribute] = option;
}

const RudpCommandLine::Option*
RudpCommandLine::Find(const std::string& name) const
{
    for (const auto& option : m_options)
    {
        if (option->name == name)
        {
            return option.get();
        }
    }
    return nullptr;
}

std::string
RudpCommandLine::Suggest(const std::string& name) const
{
    std::vector<std::string> names;
    for (const auto& option : m_options)
    {
        names.push_back(option->name);
    }
    for (auto i = GlobalValue::Begin(); i != GlobalValue::End(); ++i)
    {
        names.push_back((*i)->GetName());
    }
    const std::string closest = Closest(name, names);
    return closest.empty() ? "" : "; did you mean --" + closest + "?";
}

void
RudpCommandLine::Parse(int argc, char* argv[])
{
    NS_LOG_FUNCTION(this << argc);
    const std::vector<std::string> args(argv, argv + argc);
    std::string name;
    std::string problem;
    if (!Check(args, name, problem))
    {
        RudpParameterCheck::Fail(name, problem);
    }
}

bool
RudpCommandLine::Check(const std::vector<std::string>& args,
                       std::string& name,
                       std::string& problem)
{
    NS_LOG_FUNCTION(this << args.size());
    const std::string program = args.empty() ? "" : args[0];
    const std::string programName = program.substr(program.find_last_of('/') + 1);

    // --PrintHelp and the like: ns-3 prints and exits, whatever else is given
    // (ns-3.35 would otherwise stop at an earlier bad argument).
    for (size_t i = 1; i < args.size(); ++i)
    {
        const Argument a = SplitArgument(args[i]);
        if (a.isOption && (a.name == "PrintVersion" || a.name == "version"))
        {
            // The module's version and the ns-3 it was built against, in
            // every build (ns-3's own prints its tree's build version, which
            // only a tree configured with --enable-build-version has), and
            // exit, as ns-3 does after a general argument.
            std::cout << programName << ": " << RudpVersionText() << std::endl;
            std::exit(0);
        }
        if (a.isOption && IsGeneralArgument(a.name))
        {
            m_cmd.Parse(std::vector<std::string>{program, args[i]});
        }
    }

    std::vector<std::string> forNs3{program};
    for (size_t i = 1; i < args.size(); ++i)
    {
        const Argument a = SplitArgument(args[i]);
        name = a.name;
        if (!a.isOption)
        {
            name.clear();
            problem = Quoted(args[i]) + " is not an option: options are written --name=value";
            return false;
        }
        if (const Option* option = Find(a.name))
        {
            if (!a.hasValue && option->isBoolean)
            {
                *option->boolean = !*option->boolean; // ns-3's toggle
                continue;
            }
            if (!a.hasValue)
            {
                problem = WithAllowed("needs a value (--" + a.name + "=VALUE)", option->allowed);
                return false;
            }
            if (IsUnsetBySem(a.value, *option))
            {
                continue;
            }
            problem = option->apply(a.value);
            if (!problem.empty())
            {
                return false;
            }
            continue;
        }
        const auto sets = m_setsAttribute.find(a.name);
        if (sets != m_setsAttribute.end())
        {
            problem = programName + " sets this attribute " +
                      (sets->second.empty() ? std::string("itself")
                                            : "from --" + sets->second + "; use --" + sets->second);
            return false;
        }
        std::string value;
        if (a.name.find("::") != std::string::npos)
        {
            problem = CheckAttribute(a.name, a.value, value);
        }
        else
        {
            bool global = false;
            for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
            {
                global = global || (*g)->GetName() == a.name;
            }
            problem = global ? CheckAttribute(a.name, a.value, value)
                             : "unknown option" + Suggest(a.name) +
                                   " (--PrintHelp lists the options, --PrintGlobals the globals)";
        }
        if (!problem.empty())
        {
            return false;
        }
        forNs3.push_back("--" + a.name + "=" + value);
    }
    name.clear();
    problem.clear();
    for (const auto& hook : m_beforeAttributes)
    {
        hook();
    }
    // Every attribute and global-value argument is valid: ns-3 sets them.
    m_cmd.Parse(forNs3);
    return true;
}

void
RudpCommandLine::BeforeAttributes(std::function<void()> hook)
{
    NS_LOG_FUNCTION(this);
    m_beforeAttributes.push_back(std::move(hook));
}

std::string
RudpCommandLine::GetName() const
{
    return m_cmd.GetName();
}

std::string
RudpCommandLine::CheckAttribute(const std::string& name,
                                const std::string& value,
                                std::string& canonical)
{
    NS_LOG_FUNCTION(name << value);
    for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
    {
        if ((*g)->GetName() != name)
        {
            continue;
        }
        const std::string problem = CheckValue((*g)->GetChecker(), value, canonical);
        if (!problem.empty())
        {
            return problem;
        }
        uint64_t seed = 0;
        TypeId tid;
        if (name == "RngSeed" && ParseUnsigned(value, seed) && (seed == 0 || seed >= 4294944443ULL))
        {
            // ns-3's MRG32k3a streams abort on a seed of 0 or of m2 = 4294944443 or more.
            return WithAllowed(Quoted(value) + " is not a valid seed of ns-3's generator",
                               UnsignedAllowed(1, 4294944442ULL));
        }
        if (name == "SchedulerType" && !IsA(value, "ns3::Scheduler", tid))
        {
            return Quoted(value) + " is not an ns3::Scheduler";
        }
        if (name == "SimulatorImplementationType" && !IsA(value, "ns3::SimulatorImpl", tid))
        {
            return Quoted(value) + " is not an ns3::SimulatorImpl";
        }
        return "";
    }

    const size_t colons = name.rfind("::");
    if (colons == std::string::npos)
    {
        return "unknown option (--PrintGlobals lists the global values)";
    }
    const std::string typeName = name.substr(0, colons);
    const std::string attribute = name.substr(colons + 2);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        TypeId withPrefix;
        if (TypeId::LookupByNameFailSafe("ns3::" + typeName, &withPrefix))
        {
            return "unknown option; did you mean --ns3::" + name + "?";
        }
        return "unknown option: " + Quoted(typeName) +
               " is not a TypeId (--PrintTypeIds lists them)";
    }
    // Config::SetDefault looks the attribute up in the type itself, not its parents.
    std::vector<std::string> names;
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        const TypeId::AttributeInformation info = tid.GetAttribute(i);
        names.push_back(info.name);
        if (info.name != attribute)
        {
            continue;
        }
        if (info.supportLevel == TypeId::SupportLevel::OBSOLETE)
        {
            return "the attribute is obsolete: " + info.supportMsg;
        }
        return CheckValue(info.checker, value, canonical);
    }
    for (TypeId parent = tid.GetParent(); parent != tid; tid = parent, parent = tid.GetParent())
    {
        for (uint32_t i = 0; i < parent.GetAttributeN(); ++i)
        {
            if (parent.GetAttribute(i).name == attribute)
            {
                return "unknown option: " + attribute + " is an attribute of " + parent.GetName() +
                       ": write --" + parent.GetName() + "::" + attribute;
            }
        }
    }
    const std::string closest = Closest(attribute, names);
    return "unknown option: " + typeName + " has no attribute " + Quoted(attribute) +
           (closest.empty() ? "" : "; did you mean --" + typeName + "::" + closest + "?") +
           " (--PrintAttributes=" + typeName + " lists them)";
}

std::string
RudpCommandLine::CheckValue(Ptr<const AttributeChecker> checker,
                            const std::string& value,
                            std::string& canonical)
{
    // Up to ns-3.37 the simple checkers name their type without "ns3::"
    // ("BooleanValue"); later releases add it (attribute-helper.h).
    std::string type = checker->GetValueTypeName();
    if (type.compare(0, 5, "ns3::") != 0)
    {
        type = "ns3::" + type;
    }
    const std::string info =
        checker->HasUnderlyingTypeInformation() ? checker->GetUnderlyingTypeInformation() : "";
    canonical = value;
    std::string min;
    std::string max;
    const bool bounded = CheckerBounds(checker, min, max);
    if (type == "ns3::UintegerValue" || type == "ns3::IntegerValue")
    {
        const bool isUnsigned = type == "ns3::UintegerValue";
        const std::string allowed = bounded ? "an integer in [" + min + ", " + max + "]" : "";
        uint64_t u = 0;
        int64_t s = 0;
        if (isUnsigned ? !ParseUnsigned(value, u) : !ParseSigned(value, s))
        {
            return WithAllowed(BadInteger(value, isUnsigned), allowed);
        }
        canonical = isUnsigned ? std::to_string(u) : std::to_string(s);
    }
    else if (type == "ns3::DoubleValue")
    {
        double d = 0;
        if (!ParseReal(value, d))
        {
            return WithAllowed(BadReal(value),
                               bounded ? "a number in [" + min + ", " + max + "]" : "");
        }
    }
    else if (type == "ns3::BooleanValue")
    {
        bool b = false;
        if (!ParseBoolean(value, b))
        {
            return WithAllowed(value.empty() ? "needs a value"
                                             : Quoted(value) + " is not a boolean",
                               "1, 0, true or false");
        }
        canonical = b ? "true" : "false";
    }
    else if (type == "ns3::TimeValue")
    {
        Time t;
        if (!ParseTime(value, t))
        {
            return WithAllowed(TimeProblem(value), TimeCheckerAllowed(checker));
        }
    }
    else if (type == "ns3::DataRateValue")
    {
        DataRate r;
        if (!ParseDataRate(value, r))
        {
            return WithAllowed(Quoted(value) + " is not a data rate", RATE_FORM);
        }
    }
    else if (type.compare(0, 14, "ns3::EnumValue") == 0)
    {
        // EnumValue's own parsing asserts on an unknown name (ns-3.41 and later).
        const std::vector<std::string> names = Split(info, '|');
        if (std::find(names.begin(), names.end(), value) == names.end())
        {
            return WithAllowed(value.empty() ? "needs a value" : Quoted(value) + " is not a choice",
                               "one of " + info);
        }
        return "";
    }
    else if (type == "ns3::TypeIdValue")
    {
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(value, &tid))
        {
            return Quoted(value) + " is not a TypeId (--PrintTypeIds lists them)";
        }
        return "";
    }
    else if (type == "ns3::StringValue")
    {
        return "";
    }
    else if (type == "ns3::QueueSizeValue")
    {
        size_t digits = 0;
        while (digits < value.size() && (IsDigit(value[digits]) || value[digits] == '.'))
        {
            ++digits;
        }
        const std::string number = value.substr(0, digits);
        const std::string unit = value.substr(digits);
        double n = 0;
        if (digits == 0 || RealPrefix(number) != number.size() || !ReadReal(number, n) ||
            std::find(QUEUE_SIZE_UNITS.begin(), QUEUE_SIZE_UNITS.end(), unit) ==
                QUEUE_SIZE_UNITS.end() ||
            n >= 4294967296.0)
        {
            return WithAllowed(Quoted(value) + " is not a queue size",
                               "a number with a unit: B, kB, KiB, MB, MiB (bytes) or p, kp, "
                               "Kip, Mp, Mip (packets), e.g. 100p");
        }
    }
    else if (type == "ns3::PointerValue" || type == "ns3::ObjectFactoryValue")
    {
        // Not through CreateValidValue: that would create the object, and a
        // random variable made there would take an automatic stream number.
        std::string base;
        const size_t open = info.find("Ptr<");
        const size_t close = info.rfind('>');
        if (type == "ns3::PointerValue" && open != std::string::npos &&
            close != std::string::npos && close > open)
        {
            base = info.substr(open + 4, close - open - 4);
            base.erase(std::remove(base.begin(), base.end(), ' '), base.end());
        }
        return CheckFactory(value, base, canonical);
    }
    else if (value.empty() || HasSpace(value))
    {
        // Any other type: ns-3 reads it with operator>>, which stops at a
        // space and then aborts on what is left.
        return value.empty() ? "needs a value" : Quoted(value) + " has spaces";
    }

    // The syntax is sound: ns-3's own parsing takes it whole; its checker
    // decides the range.
    if (!checker->CreateValidValue(StringValue(canonical)))
    {
        if (type == "ns3::TimeValue")
        {
            return OutOfRange(value, TimeCheckerAllowed(checker));
        }
        if (bounded)
        {
            return OutOfRange(value, "[" + min + ", " + max + "]");
        }
        return Quoted(value) + " is not a valid " + (info.empty() ? type : info);
    }
    return "";
}

bool
RudpCommandLine::ParseUnsigned(const std::string& text, uint64_t& value)
{
    if (text.empty())
    {
        return false;
    }
    // A whole number may carry a fraction of zeros: sem reads every numeric
    // default of --PrintHelp as a Python float and passes "1500" back as
    // "1500.0". ns-3's own integer values read it as 1500 too.
    const size_t point = text.find('.');
    const std::string digits = text.substr(0, point);
    if (digits.empty() ||
        (point != std::string::npos && text.find_first_not_of('0', point + 1) != std::string::npos))
    {
        return false;
    }
    uint64_t result = 0;
    for (const char c : digits)
    {
        if (!IsDigit(c))
        {
            return false;
        }
        const uint64_t digit = static_cast<uint64_t>(c - '0');
        if (result > (std::numeric_limits<uint64_t>::max() - digit) / 10)
        {
            return false;
        }
        result = result * 10 + digit;
    }
    value = result;
    return true;
}

bool
RudpCommandLine::ParseSigned(const std::string& text, int64_t& value)
{
    const bool negative = !text.empty() && text[0] == '-';
    const size_t sign = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
    uint64_t magnitude = 0;
    if (!ParseUnsigned(text.substr(sign), magnitude))
    {
        return false;
    }
    const uint64_t limit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (magnitude > limit + (negative ? 1 : 0))
    {
        return false;
    }
    value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    return true;
}

bool
RudpCommandLine::ParseReal(const std::string& text, double& value)
{
    return !text.empty() && RealPrefix(text) == text.size() && ReadReal(text, value);
}

bool
RudpCommandLine::ParseBoolean(const std::string& text, bool& value)
{
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    if (lower == "1" || lower == "t" || lower == "true")
    {
        value = true;
        return true;
    }
    if (lower == "0" || lower == "f" || lower == "false")
    {
        value = false;
        return true;
    }
    return false;
}

bool
RudpCommandLine::ParseTime(const std::string& text, Time& value)
{
    const size_t prefix = RealPrefix(text);
    double number = 0;
    if (prefix == 0 || !ReadReal(text.substr(0, prefix), number))
    {
        return false;
    }
    const std::string unit = text.substr(prefix);
    for (const auto& [name, timeUnit] : TIME_UNITS)
    {
        if (name == unit)
        {
            // Beyond Time's 64-bit count the conversion would overflow.
            if (std::abs(number * Time::FromInteger(1, timeUnit).GetSeconds()) >=
                Time::Max().GetSeconds())
            {
                return false;
            }
            value = Time::FromDouble(number, timeUnit);
            return true;
        }
    }
    return false;
}

bool
RudpCommandLine::ParseDataRate(const std::string& text, DataRate& value)
{
    size_t digits = 0;
    while (digits < text.size() && (IsDigit(text[digits]) || text[digits] == '.'))
    {
        ++digits;
    }
    const std::string number = text.substr(0, digits);
    const std::string unit = text.substr(digits);
    double n = 0;
    if (digits == 0 || RealPrefix(number) != number.size() || !ReadReal(number, n))
    {
        return false;
    }
    for (const auto& [name, bitsPerSecond] : RATE_UNITS)
    {
        if (name == unit)
        {
            if (n * bitsPerSecond >= 1.8e19) // beyond uint64_t bit/s
            {
                return false;
            }
            value = DataRate(text); // ns-3's own arithmetic, on a string it takes whole
            return true;
        }
    }
    return false;
}

std::string
RudpCommandLine::CheckUnsigned(const std::string& text, uint64_t& value, uint64_t min, uint64_t max)
{
    uint64_t parsed = 0;
    if (!ParseUnsigned(text, parsed))
    {
        return WithAllowed(BadInteger(text, true), UnsignedAllowed(min, max));
    }
    if (parsed < min || parsed > max)
    {
        return OutOfRange(text, UnsignedAllowed(min, max));
    }
    value = parsed;
    return "";
}

std::string
RudpCommandLine::CheckReal(const std::string& text,
                           double& value,
                           double min,
                           double max,
                           Interval interval)
{
    double parsed = 0;
    if (!ParseReal(text, parsed))
    {
        return WithAllowed(BadReal(text), RealAllowed(min, max, interval));
    }
    if (!InInterval(parsed, min, max, interval))
    {
        return OutOfRange(text, RealAllowed(min, max, interval));
    }
    value = parsed;
    return "";
}

std::string
RudpCommandLine::CheckTime(const std::string& text,
                           Time& value,
                           Time min,
                           Time max,
                           Interval interval)
{
    Time parsed;
    if (!ParseTime(text, parsed))
    {
        return WithAllowed(TimeProblem(text), TimeAllowed(min, max, interval));
    }
    if (!InInterval(parsed, min, max, interval))
    {
        return OutOfRange(text, TimeAllowed(min, max, interval));
    }
    value = parsed;
    return "";
}

std::string
RudpCommandLine::CheckDataRate(const std::string& text, DataRate& value, DataRate min, DataRate max)
{
    DataRate parsed;
    if (!ParseDataRate(text, parsed))
    {
        return WithAllowed(text.empty() ? "needs a value"
                                        : Quoted(text) + " is not a data rate (" + RATE_FORM + ")",
                           RateAllowed(min, max));
    }
    if (parsed < min || parsed > max)
    {
        return OutOfRange(text, RateAllowed(min, max));
    }
    value = parsed;
    return "";
}

RudpCommandLine::Checker
RudpCommandLine::WritableFile()
{
    return [](const std::string& path) {
        if (path.empty())
        {
            return std::string();
        }
        std::error_code error;
        const bool existed = std::filesystem::exists(path, error);
        if (existed && std::filesystem::is_directory(path, error))
        {
            return Quoted(path) + " is a directory";
        }
        if (!std::ofstream(path, std::ios::app))
        {
            return "cannot write " + Quoted(path);
        }
        if (!existed)
        {
            std::filesystem::remove(path, error); // written at the end of the run
        }
        return std::string();
    };
}

std::vector<std::string>
RudpCommandLine::Split(const std::string& list, char separator)
{
    std::vector<std::string> parts;
    size_t start = 0;
    while (true)
    {
        const size_t end = list.find(separator, start);
        parts.push_back(list.substr(start, end - start));
        if (end == std::string::npos)
        {
            return parts;
        }
        start = end + 1;
    }
}

std::string
RudpCommandLine::FormatTime(Time time)
{
    const int64_t steps = time.GetTimeStep();
    if (steps == 0)
    {
        return "0s";
    }
    const std::vector<std::pair<std::string, Time::Unit>> units{{"s", Time::S},
                                                                {"ms", Time::MS},
                                                                {"us", Time::US},
                                                                {"ns", Time::NS},
                                                                {"ps", Time::PS},
                                                                {"fs", Time::FS}};
    for (const auto& [suffix, unit] : units)
    {
        const int64_t perUnit = Time::FromInteger(1, unit).GetTimeStep();
        if (perUnit > 0 && steps % perUnit == 0)
        {
            return std::to_string(steps / perUnit) + suffix;
        }
    }
    return FormatReal(time.GetSeconds()) + "s";
}

std::string
RudpCommandLine::FormatDataRate(DataRate rate)
{
    const uint64_t bps = rate.GetBitRate();
    const std::vector<std::pair<std::string, uint64_t>> units{{"Gbps", 1000000000ULL},
                                                              {"Mbps", 1000000ULL},
                                                              {"kbps", 1000ULL}};
    for (const auto& [suffix, factor] : units)
    {
        if (bps >= factor && bps % factor == 0)
        {
            return std::to_string(bps / factor) + suffix;
        }
    }
    return std::to_string(bps) + "bps";
}

std::string
RudpCommandLine::FormatReal(double value)
{
    char text[32];
    for (int precision = 1; precision <= 17; ++precision)
    {
        std::snprintf(text, sizeof(text), "%.*g", precision, value);
        double back = 0;
        if (ReadReal(text, back) && back == value)
        {
            // Whole numbers up to 17 digits in full (100, not 1e+02).
            const double digits = value != 0 ? std::floor(std::log10(std::abs(value))) + 1 : 1;
            if (digits > precision && digits <= 17)
            {
                std::snprintf(text, sizeof(text), "%.*g", static_cast<int>(digits), value);
            }
            break;
        }
    }
    return text;
}

} // namespace ns3
