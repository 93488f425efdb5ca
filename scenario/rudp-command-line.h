/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_COMMAND_LINE_H
#define RUDP_COMMAND_LINE_H

#include "rudp-text.h"

#include "ns3/command-line.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
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
 * Each option is an ns-3 CommandLine callback option (so --PrintHelp lists
 * it with its allowed values and default) whose callback reads the value
 * strictly (RudpText, RudpRange): decimal numbers only, read whole, ns-3's
 * units, and the option's range. An attribute default
 * (--ns3::Type::Attribute=value) or a global value (--RngRun=3) is checked
 * first by RudpAttributeCheck, so that ns-3 never aborts on it; an attribute
 * the program sets itself (SetsAttributes(), with their deprecated aliases) is
 * refused, since the program would silently override it; an unknown option
 * or a stray argument is an error.
 *
 * The first error ends the program with "error: --<name>: <problem>;
 * allowed: <form or range>" on stderr and exit status 2
 * (RudpParameterCheck::Fail). Only programs call Parse(), the one place that
 * exits; Check() reports instead.
 */
class RudpCommandLine
{
  public:
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

    /**
     * \brief A number, time or data rate option in a range (RudpRange: uint32_t,
     * uint64_t, double, Time, DataRate).
     * \param name the option's name
     * \param help its description
     * \param value the variable to set; its value is the default
     * \param min the lowest value allowed
     * \param max the highest value allowed
     * \param interval which ends are excluded
     */
    template <typename T>
    void AddValue(const std::string& name,
                  const std::string& help,
                  T& value,
                  typename RudpRange<T>::Value min,
                  typename RudpRange<T>::Value max,
                  RudpText::Interval interval = RudpText::CLOSED)
    {
        const RudpRange<T> range{min, max, interval};
        Add(name,
            help,
            range.Allowed(),
            range.Format(value),
            [&value, range](const std::string& text) { return range.Check(text, value); });
    }

    /**
     * \brief Refuses --<attribute>=... for each of \p attributes and their
     * deprecated aliases (those whose TypeId says "use <its name>"): the
     * program sets them itself, from \p option.
     * \param option the option that sets them ("" if the program fixes them)
     * \param attributes their full names, e.g. "ns3::RudpSocket::WindowSize"
     */
    void SetsAttributes(const std::string& option, const std::vector<std::string>& attributes);

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
     * General arguments (--PrintHelp, ...) are ns-3's, which prints and
     * exits 0; the first invalid argument exits with status 2 and its message.
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
     * \brief A Checker for an output file option: "" (none) or a file that can
     * be written, checked before the simulation so that a long run is not
     * lost to a typo in the path at its end.
     */
    static Checker WritableFile();

  private:
    struct Option;

    /**
     * \brief Declares an option to ns-3's CommandLine as a callback option.
     * \param name its name
     * \param help its description
     * \param allowed what is allowed, for the help and messages ("" for anything)
     * \param defaultText its default as --PrintHelp shows it
     * \param apply checks a value and stores it: returns "" or the problem
     * \param isBoolean whether a bare --name toggles it
     */
    void Add(const std::string& name,
             const std::string& help,
             const std::string& allowed,
             const std::string& defaultText,
             Checker apply,
             bool isBoolean = false);
    /// \return the option named \p name, or null
    const Option* Find(const std::string& name) const;
    /// \return the option that sets \p attribute or one it is an alias of, or null
    const std::string* SetBy(const std::string& attribute) const;

    CommandLine m_cmd;                                     ///< ns-3's CommandLine
    std::vector<std::unique_ptr<Option>> m_options;        ///< the program options
    std::map<std::string, std::string> m_setsAttribute;    ///< attribute -> option
    std::vector<std::function<void()>> m_beforeAttributes; ///< run before the attributes
    std::pair<std::string, std::string> m_firstProblem; ///< option and problem, from ns-3's parse
};

} // namespace ns3

#endif /* RUDP_COMMAND_LINE_H */
