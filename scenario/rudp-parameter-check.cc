/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-parameter-check.h"

#include <cstdlib>
#include <iostream>

namespace ns3
{

void
RudpParameterCheck::Fail(const std::string& name, const std::string& problem)
{
    std::cerr << "error: " << (name.empty() ? "" : "--" + name + ": ") << problem << std::endl;
    std::exit(2);
}

size_t
RudpParameterCheck::OneOf(const std::string& name,
                          const std::string& value,
                          const std::vector<std::string>& choices)
{
    std::string allowed;
    for (size_t i = 0; i < choices.size(); ++i)
    {
        if (choices[i] == value)
        {
            return i;
        }
        allowed += (i ? "|" : "") + choices[i];
    }
    Fail(name, "'" + value + "' is not a choice; allowed: one of " + allowed);
}

} // namespace ns3
