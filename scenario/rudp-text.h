/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_TEXT_H
#define RUDP_TEXT_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-helpers
 * \brief Values as the scenarios read and write them: strict parsers (the
 * whole text or nothing), the messages that say what is allowed, and exact
 * formatting.
 *
 * ns-3's own parsing reads "5abc" as 5 for a program option and aborts on
 * it for an attribute; these read decimal numbers only (no hexadecimal or
 * octal, nothing after the number), ns-3's time, rate and queue-size units,
 * and booleans as ns-3 writes them.
 */
class RudpText
{
  public:
    /// Which ends of a range are excluded.
    enum Interval
    {
        CLOSED,    ///< [min, max]
        OPEN_LOW,  ///< (min, max]
        OPEN_HIGH, ///< [min, max)
        OPEN,      ///< (min, max)
    };

    /// \return true if \p text is a decimal unsigned integer that fits uint64_t,
    /// possibly with a fraction of zeros ("1500.0", as sem writes integers)
    static bool ParseUnsigned(const std::string& text, uint64_t& value);
    /// \return true if \p text is a decimal integer that fits int64_t (idem)
    static bool ParseSigned(const std::string& text, int64_t& value);
    /// \return true if \p text is a finite decimal real (e.g. 0.05, 1e-3)
    static bool ParseReal(const std::string& text, double& value);
    /// \return true if \p text is 1, 0, t, f, true or false (any case)
    static bool ParseBoolean(const std::string& text, bool& value);
    /// \return true if \p text is a real with one of ns-3's time units (or none: seconds)
    static bool ParseTime(const std::string& text, Time& value);
    /// \return true if \p text is a non-negative decimal with one of ns-3's rate units
    static bool ParseDataRate(const std::string& text, DataRate& value);
    /// \return true if \p text is a non-negative decimal with one of ns-3's queue-size units
    static bool IsQueueSize(const std::string& text);

    /**
     * \brief Reads \p text strictly as a \p T: uint64_t, int64_t, double, bool, Time
     * or DataRate, by the Parse function of its type.
     * \param text the value as given
     * \param [out] value what it means, if it reads
     * \return "" if it reads, else the problem ("'5x' is not a time (...)")
     */
    template <typename T>
    static std::string Read(const std::string& text, T& value);

    /// \return \p time as text in the largest unit that shows it exactly (e.g. 20ms)
    static std::string FormatTime(Time time);
    /// \return \p rate as text in the largest decimal unit that shows it exactly
    static std::string FormatDataRate(DataRate rate);
    /// \return \p value as the shortest text that reads back as \p value
    static std::string FormatReal(double value);

    /// \return "'text'", as messages quote values
    static std::string Quoted(const std::string& text);
    /// \return "problem; allowed: what" (\p problem alone if either is empty)
    static std::string WithAllowed(const std::string& problem, const std::string& allowed);
    /// \return "needs a value" if \p text is empty, else "'text' is not <what>"; with \p allowed
    static std::string NotA(const std::string& text,
                            const std::string& what,
                            const std::string& allowed);
    /// \return "'text' is out of range: must be in <the interval ending \p allowed>"
    static std::string OutOfRange(const std::string& text, const std::string& allowed);
    /// \return "[min, max]" with the brackets of \p interval
    static std::string IntervalText(const std::string& min,
                                    const std::string& max,
                                    Interval interval);

    /// \return \p list split at \p separator ("" gives one empty part)
    static std::vector<std::string> Split(const std::string& list, char separator = ',');

    /**
     * \brief Checks each item of a comma-separated \p list, as \p check
     * checks one (e.g. a lambda over RudpRange<Time>::Check).
     * \param list the text
     * \param [out] values the items' values, in order
     * \param check takes an item and its value's place; returns "" or the problem
     * \return "" if every item is valid, else the first problem
     */
    template <typename T, typename Check>
    static std::string CheckList(const std::string& list, std::vector<T>& values, Check check)
    {
        values.clear();
        for (const std::string& item : Split(list))
        {
            T value{};
            const std::string problem = check(item, value);
            if (!problem.empty())
            {
                return problem;
            }
            values.push_back(value);
        }
        return "";
    }
};

/**
 * \ingroup rudp-helpers
 * \brief The values that make physical sense for a parameter, and the check
 * of a text against them: the one way the scenarios read a bounded value.
 *
 * \code
 *   Time rtt;
 *   std::string problem = RudpRange<Time>{Seconds(0), Seconds(10)}.Check("50ms", rtt);
 * \endcode
 */
template <typename T>
struct RudpRange
{
    using Value = T; ///< the type of the values

    T min;                                         ///< the lowest value
    T max;                                         ///< the highest value
    RudpText::Interval interval{RudpText::CLOSED}; ///< which ends are excluded

    /// \return what is allowed, e.g. "a time in [0s, 10s]"
    std::string Allowed() const;

    /// \return \p value as text, as in Allowed() (e.g. 20ms)
    std::string Format(T value) const;

    /**
     * \param text the value as given
     * \param [out] value what \p text means, set only if it is valid
     * \return "" if \p text is a value in the range, else the problem and what is allowed
     */
    std::string Check(const std::string& text, T& value) const;

    /// \return "" if \p value (a computed one) is in the range, else "<value> is
    /// out of range: must be in <interval>"
    std::string Problem(T value) const;
};

extern template struct RudpRange<uint32_t>;
extern template struct RudpRange<uint64_t>;
extern template struct RudpRange<double>;
extern template struct RudpRange<Time>;
extern template struct RudpRange<DataRate>;

} // namespace ns3

#endif /* RUDP_TEXT_H */
