/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_PARAMETER_CHECK_H
#define RUDP_PARAMETER_CHECK_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-helpers
 * \brief Rejects a scenario's bad command-line input with a message that
 * names the parameter and what is allowed, and exit status 2.
 *
 * RudpCommandLine checks each option on its own; a scenario uses this for
 * what only a combination of options rules out (e.g. --delay against
 * --router; RudpRange::Problem says what is wrong with a computed value).
 * Fail() is the one place that ends a scenario for a bad parameter:
 * programs call it, never the models.
 */
class RudpParameterCheck
{
  public:
    /**
     * \brief Prints "error: --<name>: <problem>" (or "error: <problem>" if
     * \p name is empty) and exits with status 2.
     */
    [[noreturn]] static void Fail(const std::string& name, const std::string& problem);

    /**
     * \brief Fails unless \p value is one of \p choices.
     * \return the index of \p value in \p choices
     */
    static size_t OneOf(const std::string& name,
                        const std::string& value,
                        const std::vector<std::string>& choices);
};

} // namespace ns3

#endif /* RUDP_PARAMETER_CHECK_H */
