/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-text.h"

#include "ns3/queue-size.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <locale>
#include <map>
#include <regex>
#include <sstream>
#include <type_traits>

namespace ns3
{

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

const char* const TIME_FORM =
    "a time (a number with one of ns-3's time units y, d, h, min, s, ms, us, ns, ps, fs "
    "(none: s))";
const char* const RATE_FORM =
    "a data rate (a number with one of ns-3's rate units bps, kbps, Mbps, Gbps, B/s, kB/s, "
    "MB/s, GB/s, Kib/s, KiB/s, Mib/s, MiB/s, Gib/s, GiB/s, e.g. 10Mbps)";

bool
IsDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// \return the length of the longest prefix of \p s that is a decimal real (0: none);
/// an exponent counts only if it is complete ("1e" is 1 followed by "e")
size_t
RealPrefix(const std::string& s)
{
    static const std::regex real("[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?");
    std::smatch match;
    return std::regex_search(s, match, real, std::regex_constants::match_continuous)
               ? static_cast<size_t>(match.length(0))
               : 0;
}

/// \return whether \p unit, read by ns-3's operator>> for \p T after a number,
/// is one of its units; \p one is then one of it (e.g. 1 kbit/s)
template <typename T>
bool
IsUnitOf(const std::string& unit, T& one)
{
    std::istringstream in("1" + unit);
    return !unit.empty() && unit.find_first_of(" \t\n") == std::string::npos && (in >> one);
}

/// Reads a decimal integer whole (a sign only for a signed one), or nothing.
template <typename T>
bool
ParseInteger(const std::string& text, T& value)
{
    // A whole number may carry a fraction of zeros: sem reads every numeric
    // default of --PrintHelp as a Python float and passes "1500" back as
    // "1500.0". ns-3's own integer values read it as 1500 too.
    const size_t point = text.find('.');
    const char* end = text.data() + std::min(point, text.size());
    const size_t plus =
        std::is_signed_v<T> && text.size() > 1 && text[0] == '+' && IsDigit(text[1]);
    T parsed{};
    const auto [stop, error] = std::from_chars(text.data() + plus, end, parsed);
    if (error != std::errc() || stop != end ||
        (point != std::string::npos && text.find_first_not_of('0', point + 1) != std::string::npos))
    {
        return false;
    }
    value = parsed;
    return true;
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

/// How RudpRange reads, names and writes a kind of value.
template <typename T>
struct Kind
{
    const char* noun;                      ///< what the range holds ("an integer in [1, 5]")
    const char* what;                      ///< what a text that does not read is not
    bool (*parse)(const std::string&, T&); ///< reads a value
    std::string (*format)(T value);        ///< writes a value
};

template <typename T>
Kind<T> KindOf();

template <>
Kind<uint64_t>
KindOf()
{
    return {"an integer", "a decimal integer", &RudpText::ParseUnsigned, [](uint64_t value) {
                return std::to_string(value);
            }};
}

template <>
Kind<int64_t>
KindOf()
{
    return {"an integer", "a decimal integer", &RudpText::ParseSigned, [](int64_t value) {
                return std::to_string(value);
            }};
}

template <>
Kind<bool>
KindOf()
{
    return {"a boolean", "a boolean", &RudpText::ParseBoolean, [](bool value) {
                return std::string(value ? "true" : "false");
            }};
}

template <>
Kind<double>
KindOf()
{
    return {"a number", "a number", &RudpText::ParseReal, &RudpText::FormatReal};
}

template <>
Kind<Time>
KindOf()
{
    return {"a time", TIME_FORM, &RudpText::ParseTime, &RudpText::FormatTime};
}

template <>
Kind<DataRate>
KindOf()
{
    return {"a data rate", RATE_FORM, &RudpText::ParseDataRate, &RudpText::FormatDataRate};
}

/// The type a value is read into: a 32-bit integer as a 64-bit one, so that
/// a large number is out of range rather than unreadable.
template <typename T>
struct ReadAs
{
    using Type = T; ///< read as
};

template <>
struct ReadAs<uint32_t>
{
    using Type = uint64_t; ///< read as
};

/// \return whether \p value lies in \p range
template <typename T, typename V>
bool
Contains(const RudpRange<T>& range, V value)
{
    const bool openLow = range.interval == RudpText::OPEN_LOW || range.interval == RudpText::OPEN;
    const bool openHigh = range.interval == RudpText::OPEN_HIGH || range.interval == RudpText::OPEN;
    return (openLow ? value > V(range.min) : value >= V(range.min)) &&
           (openHigh ? value < V(range.max) : value <= V(range.max));
}

} // namespace

template <typename T>
std::string
RudpText::Read(const std::string& text, T& value)
{
    const Kind<T> kind = KindOf<T>();
    return kind.parse(text, value) ? "" : NotA(text, kind.what, "");
}

template std::string RudpText::Read(const std::string&, uint64_t&);
template std::string RudpText::Read(const std::string&, int64_t&);
template std::string RudpText::Read(const std::string&, double&);
template std::string RudpText::Read(const std::string&, bool&);
template std::string RudpText::Read(const std::string&, Time&);
template std::string RudpText::Read(const std::string&, DataRate&);

template <typename T>
std::string
RudpRange<T>::Allowed() const
{
    const auto kind = KindOf<typename ReadAs<T>::Type>();
    return std::string(kind.noun) + " in " +
           RudpText::IntervalText(kind.format(min), kind.format(max), interval);
}

template <typename T>
std::string
RudpRange<T>::Format(T value) const
{
    return KindOf<typename ReadAs<T>::Type>().format(value);
}

template <typename T>
std::string
RudpRange<T>::Check(const std::string& text, T& value) const
{
    typename ReadAs<T>::Type parsed{};
    const std::string problem = RudpText::Read(text, parsed);
    if (!problem.empty())
    {
        return RudpText::WithAllowed(problem, Allowed());
    }
    if (!Contains(*this, parsed))
    {
        return RudpText::OutOfRange(text, Allowed());
    }
    value = static_cast<T>(parsed);
    return "";
}

template <typename T>
std::string
RudpRange<T>::Problem(T value) const
{
    return Contains(*this, value) ? ""
                                  : Format(value) + " is out of range: must be in " +
                                        RudpText::IntervalText(Format(min), Format(max), interval);
}

template struct RudpRange<uint32_t>;
template struct RudpRange<uint64_t>;
template struct RudpRange<double>;
template struct RudpRange<Time>;
template struct RudpRange<DataRate>;

bool
RudpText::ParseUnsigned(const std::string& text, uint64_t& value)
{
    return ParseInteger(text, value);
}

bool
RudpText::ParseSigned(const std::string& text, int64_t& value)
{
    return ParseInteger(text, value);
}

bool
RudpText::ParseReal(const std::string& text, double& value)
{
    return !text.empty() && RealPrefix(text) == text.size() && ReadReal(text, value);
}

bool
RudpText::ParseBoolean(const std::string& text, bool& value)
{
    static const std::map<std::string, bool> words{{"1", true},
                                                   {"t", true},
                                                   {"true", true},
                                                   {"0", false},
                                                   {"f", false},
                                                   {"false", false}};
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    const auto word = words.find(lower);
    if (word != words.end())
    {
        value = word->second;
    }
    return word != words.end();
}

bool
RudpText::ParseTime(const std::string& text, Time& value)
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
RudpText::ParseDataRate(const std::string& text, DataRate& value)
{
    const size_t digits = text.find_first_not_of("0123456789.");
    const std::string number = text.substr(0, digits);
    double n = 0;
    DataRate one;
    if (number.empty() || RealPrefix(number) != number.size() || !ReadReal(number, n) ||
        digits == std::string::npos || !IsUnitOf(text.substr(digits), one) ||
        n * one.GetBitRate() >= 1.8e19) // beyond uint64_t bit/s
    {
        return false;
    }
    value = DataRate(text); // ns-3's own arithmetic, on a string it takes whole
    return true;
}

bool
RudpText::IsQueueSize(const std::string& text)
{
    const size_t digits = text.find_first_not_of("0123456789.");
    const std::string number = text.substr(0, digits);
    double n = 0;
    QueueSize one;
    return !number.empty() && RealPrefix(number) == number.size() && ReadReal(number, n) &&
           n < 4294967296.0 && digits != std::string::npos && IsUnitOf(text.substr(digits), one);
}

std::string
RudpText::Quoted(const std::string& text)
{
    return "'" + text + "'";
}

std::string
RudpText::WithAllowed(const std::string& problem, const std::string& allowed)
{
    return problem.empty() || allowed.empty() ? problem : problem + "; allowed: " + allowed;
}

std::string
RudpText::NotA(const std::string& text, const std::string& what, const std::string& allowed)
{
    return WithAllowed(text.empty() ? "needs a value" : Quoted(text) + " is not " + what, allowed);
}

std::string
RudpText::IntervalText(const std::string& min, const std::string& max, Interval interval)
{
    const bool openLow = interval == OPEN_LOW || interval == OPEN;
    const bool openHigh = interval == OPEN_HIGH || interval == OPEN;
    return std::string(openLow ? "(" : "[") + min + ", " + max + (openHigh ? ")" : "]");
}

std::string
RudpText::OutOfRange(const std::string& text, const std::string& allowed)
{
    const size_t interval = allowed.find_first_of("[(");
    return Quoted(text) + " is out of range: must be in " +
           (interval == std::string::npos ? allowed : allowed.substr(interval));
}

std::vector<std::string>
RudpText::Split(const std::string& list, char separator)
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
RudpText::FormatTime(Time time)
{
    const int64_t steps = time.GetTimeStep();
    if (steps == 0)
    {
        return "0s";
    }
    for (const auto& [suffix, unit] : TIME_UNITS)
    {
        const int64_t perUnit = Time::FromInteger(1, unit).GetTimeStep();
        // From seconds down, as ns-3 writes times: 3600s, not 1h.
        if (unit >= Time::S && perUnit > 0 && steps % perUnit == 0)
        {
            return std::to_string(steps / perUnit) + suffix;
        }
    }
    return FormatReal(time.GetSeconds()) + "s";
}

std::string
RudpText::FormatDataRate(DataRate rate)
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
RudpText::FormatReal(double value)
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
