/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_COMMAND_LINE_H
#define RUDP_COMMAND_LINE_H

#include "ns3/attribute.h"
#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-helpers
 * \brief ns-3's CommandLine, parsed strictly: the scenarios' one way in.
 *
 * Options are declared as with CommandLine::AddValue, one line each, with
 * the range that makes physical sense for them:
 *
 * \code
 *   RudpCommandLine cmd(__FILE__);
 *   cmd.AddValue("loss", "Probability that a datagram is lost", loss, 0.0, 1.0);
 *   cmd.AddValue("window", "Window in segments", window, 1u, 65535u);
 *   cmd.AddValue("delay", "One-way delay", delay, Seconds(0), Seconds(10));
 *   cmd.AddValue("variant", "Protocol variant", variant, {"go-back-n", "reno"});
 *   cmd.Parse(argc, argv);
 * \endcode
 *
 * Parse() checks every argument before anything is set:
 *
 * - a program option's value must be consumed whole: decimal integers only
 *   (no sign for unsigned, no hexadecimal or octal, no trailing characters),
 *   decimal reals (finite), booleans as ns-3 writes them (1, 0, t, f, true,
 *   false, any case; the bare option toggles it, as in ns-3), times with
 *   ns-3's units (y, d, h, min, s, ms, us, ns, ps, fs; a bare number is
 *   seconds, as in ns-3), data rates with one of ns-3's units (bps, kbps,
 *   Mbps, Gbps, B/s, KiB/s, ...), and then lie in the option's range;
 * - an attribute default (--ns3::Type::Attribute=value) or a global value
 *   (--RngRun=3) must name an existing attribute or global, and its value is
 *   checked against the attribute's own checker by the same rules (integers,
 *   reals, booleans, times, rates, queue sizes, enum names, TypeIds, object
 *   factory strings such as ns3::UniformRandomVariable[Min=0|Max=1]), so that
 *   ns-3 never sees a value on which it would silently stop reading (ns-3's
 *   own parsing takes "5abc" as 5 for program options and aborts the program
 *   on it for attributes) or abort (an unknown enum name, a time with an
 *   unknown unit, RngSeed 0);
 * - an attribute the program sets itself (SetsAttribute()) is refused, since
 *   the program would silently override it;
 * - an unknown option or a stray non-option argument is an error.
 *
 * The first error ends the program with "error: --<name>: <problem>; allowed:
 * <form or range>" on stderr and exit status 2 (RudpParameterCheck::Fail).
 * Valid attribute and global-value arguments are then handed to ns-3's
 * CommandLine, which sets them as usual. --PrintHelp, --PrintAttributes=...,
 * --PrintGlobals and the other general arguments are ns-3's own, and the
 * help lists every option with its allowed values and default.
 *
 * This is scenario plumbing: only programs call Parse(), which is the one
 * place that exits. Check() and the static Check*() functions report
 * instead.
 */
class RudpCommandLine
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

    /**
     * \brief Checks a custom option's value.
     * Takes the value, stores what it means, and returns "" or the problem.
     */
    using Checker = std::function<std::string(const std::string& value)>;

    /// \param filename the program's source file (__FILE__), as for CommandLine
    explicit RudpCommandLine(const std::string& filename);
    ~RudpCommandLine();
    RudpCommandLine(const RudpCommandLine&) = delete;
    RudpCommandLine& operator=(const RudpCommandLine&) = delete;

    /// \param usage the program's description for --PrintHelp
    void Usage(const std::string& usage);

    /**
     * \brief A boolean option: 1, 0, t, f, true or false (any case); the
     * bare option (--name) toggles it, as in ns-3.
     * \param name the option's name, without dashes
     * \param help its description for --PrintHelp
     * \param value the variable to set; its value is the default
     */
    void AddValue(const std::string& name, const std::string& help, bool& value);
    /// A text option taken as given (a file name, a prefix, ...).
    void AddValue(const std::string& name, const std::string& help, std::string& value);
    /// A text option that must be one of \p choices.
    void AddValue(const std::string& name,
                  const std::string& help,
                  std::string& value,
                  const std::vector<std::string>& choices);
    /**
     * \brief A text option with its own checker (lists, flow descriptions).
     * \param name the option's name
     * \param help its description
     * \param value the text, as given; its initial value is the default
     * \param form what is allowed, for the help and error messages
     * \param check checks (and interprets) the value: returns "" or the problem
     */
    void AddValue(const std::string& name,
                  const std::string& help,
                  std::string& value,
                  const std::string& form,
                  Checker check);
    /// An unsigned integer option in [min, max].
    void AddValue(const std::string& name,
                  const std::string& help,
                  uint32_t& value,
                  uint32_t min,
                  uint32_t max);
    /// An unsigned integer option in [min, max].
    void AddValue(const std::string& name,
                  const std::string& help,
                  uint64_t& value,
                  uint64_t min,
                  uint64_t max);
    /// A real option in the interval between \p min and \p max.
    void AddValue(const std::string& name,
                  const std::string& help,
                  double& value,
                  double min,
                  double max,
                  Interval interval = CLOSED);
    /// A time option in the interval between \p min and \p max.
    void AddValue(const std::string& name,
                  const std::string& help,
                  Time& value,
                  Time min,
                  Time max,
                  Interval interval = CLOSED);
    /// A data rate option in [min, max].
    void AddValue(const std::string& name,
                  const std::string& help,
                  DataRate& value,
                  DataRate min,
                  DataRate max);

    /**
     * \brief Refuses --\p attribute=...: the program sets it itself.
     * \param attribute the attribute's full name, e.g. "ns3::RudpSocket::WindowSize"
     * \param option the option that sets it ("" if the program fixes it)
     */
    void SetsAttribute(const std::string& attribute, const std::string& option = "");

    /**
     * \brief Runs \p hook when the program options are set, before ns-3
     * sets the attribute defaults given on the command line.
     *
     * An option can so choose a set of defaults (a preset such as
     * RudpCmtHelper::SetNs2Defaults()) that --ns3::Type::Attribute=value
     * arguments then override, whatever their order on the command line.
     * \param hook the function to run (once per Parse() or valid Check())
     */
    void BeforeAttributes(std::function<void()> hook);

    /**
     * \brief Parses the command line, or ends the program.
     *
     * General arguments (--PrintHelp, ...) are handed to ns-3's CommandLine,
     * which prints and exits 0. Otherwise every argument is checked; the
     * first error exits with status 2 and its message; if all are valid the
     * options are set and the attribute and global-value arguments handed to
     * ns-3's CommandLine.
     * \param argc argc of main()
     * \param argv argv of main()
     */
    void Parse(int argc, char* argv[]);

    /**
     * \brief Parse() without exiting on an error.
     * \param args the arguments, the program name first
     * \param [out] name the option, attribute or argument at fault
     * \param [out] problem what is wrong and what is allowed
     * \return true if every argument was valid (and has been applied)
     */
    bool Check(const std::vector<std::string>& args, std::string& name, std::string& problem);

    /// \return the name the program was called by (after Parse())
    std::string GetName() const;

    /**
     * \brief Checks --\p name=\p value where \p name is an attribute
     * (ns3::Type::Attribute) or a global value (RngRun, ...).
     * \param name the argument's name
     * \param value its value
     * \param [out] canonical the value as ns-3 should be given it
     * \return "" if valid, else the problem ("unknown option" if \p name is neither)
     */
    static std::string CheckAttribute(const std::string& name,
                                      const std::string& value,
                                      std::string& canonical);
    /**
     * \brief Checks \p value against an attribute checker, by the rules above.
     * \param checker the attribute's or global value's checker
     * \param value the value as text
     * \param [out] canonical the value as ns-3 should be given it
     * \return "" if valid, else the problem
     */
    static std::string CheckValue(Ptr<const AttributeChecker> checker,
                                  const std::string& value,
                                  std::string& canonical);

    /// \return true if \p text is a decimal unsigned integer that fits uint64_t,
    /// possibly with a fraction of zeros ("1500.0", as sem writes integers)
    static bool ParseUnsigned(const std::string& text, uint64_t& value);
    /// \return true if \p text is a decimal integer that fits int64_t
    static bool ParseSigned(const std::string& text, int64_t& value);
    /// \return true if \p text is a finite decimal real (e.g. 0.05, 1e-3)
    static bool ParseReal(const std::string& text, double& value);
    /// \return true if \p text is 1, 0, t, f, true or false (any case)
    static bool ParseBoolean(const std::string& text, bool& value);
    /// \return true if \p text is a real with one of ns-3's time units (or none: seconds)
    static bool ParseTime(const std::string& text, Time& value);
    /// \return true if \p text is a non-negative decimal with one of ns-3's rate units
    static bool ParseDataRate(const std::string& text, DataRate& value);

    /**
     * \brief Checks an unsigned integer and its range.
     * \return "" if \p text is a decimal integer in [min, max], else the problem
     */
    static std::string CheckUnsigned(const std::string& text,
                                     uint64_t& value,
                                     uint64_t min,
                                     uint64_t max);
    /// \return "" if \p text is a decimal real in the interval, else the problem
    static std::string CheckReal(const std::string& text,
                                 double& value,
                                 double min,
                                 double max,
                                 Interval interval = CLOSED);
    /// \return "" if \p text is a time in the interval, else the problem
    static std::string CheckTime(const std::string& text,
                                 Time& value,
                                 Time min,
                                 Time max,
                                 Interval interval = CLOSED);
    /// \return "" if \p text is a data rate in [min, max], else the problem
    static std::string CheckDataRate(const std::string& text,
                                     DataRate& value,
                                     DataRate min,
                                     DataRate max);

    /**
     * \brief A Checker for an output file option: "" (none) or a file that can
     * be written, checked before the simulation so that a long run is not
     * lost to a typo in the path at its end.
     */
    static Checker WritableFile();

    /// \return \p list split at \p separator ("" gives one empty part)
    static std::vector<std::string> Split(const std::string& list, char separator = ',');

    /**
     * \brief Checks each item of a comma-separated \p list, as \p check
     * checks one (e.g. a lambda over CheckTime with the range).
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

    /// \return \p time as text in the largest unit that shows it exactly (e.g. 20ms)
    static std::string FormatTime(Time time);
    /// \return \p rate as text in the largest decimal unit that shows it exactly
    static std::string FormatDataRate(DataRate rate);
    /// \return \p value as the shortest text that reads back as \p value
    static std::string FormatReal(double value);

  private:
    /// One program option.
    struct Option
    {
        std::string name;        ///< its name, without dashes
        std::string allowed;     ///< what is allowed, for messages
        std::string defaultText; ///< its default as --PrintHelp shows it
        bool isBoolean{false};   ///< a bare --name toggles it
        bool* boolean{nullptr};  ///< the boolean to toggle
        Checker apply;           ///< checks a value and stores it
    };

    /// Registers \p option with ns-3's CommandLine for --PrintHelp.
    void Register(const std::string& help, std::unique_ptr<Option> option);
    /// \return the option named \p name, or null
    const Option* Find(const std::string& name) const;
    /// \return a "did you mean" hint for the unknown option \p name, or ""
    std::string Suggest(const std::string& name) const;
    /**
     * \return whether \p value is sem's "None" for \p option, which has no
     * default (sem passes Python's None for a parameter it was not given): the
     * option then keeps its empty default
     */
    static bool IsUnsetBySem(const std::string& value, const Option& option);

    CommandLine m_cmd;                                     ///< ns-3's CommandLine
    std::vector<std::unique_ptr<Option>> m_options;        ///< the program options
    std::map<std::string, std::string> m_setsAttribute;    ///< attribute -> option
    std::vector<std::function<void()>> m_beforeAttributes; ///< run before ns-3's Parse
};

} // namespace ns3

#endif /* RUDP_COMMAND_LINE_H */
