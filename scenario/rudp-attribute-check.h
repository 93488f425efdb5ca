/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_ATTRIBUTE_CHECK_H
#define RUDP_ATTRIBUTE_CHECK_H

#include "ns3/attribute.h"

#include <string>

namespace ns3
{

/**
 * \ingroup rudp-helpers
 * \brief Checks an attribute default or a global value given on the command
 * line before ns-3 sees it, where ns-3 would stop the program without
 * naming what is allowed.
 *
 * ns-3's CommandLine sets --ns3::Type::Attribute=value through the
 * attribute's checker, which aborts on a value it reads only in part (5abc,
 * 0x10, 10Mbit), on a time with an unknown unit, an unknown enum name, an
 * unknown TypeId or a bad object factory string, and on RngSeed 0; and it
 * exits with "Invalid command-line argument" for an unknown name or an
 * out-of-range value. This reads the value by RudpText's strict rules for
 * its type, checks its range with the attribute's own checker, and says
 * what is wrong and what is allowed.
 */
class RudpAttributeCheck
{
  public:
    /**
     * \brief Checks --\p name=\p value where \p name is an attribute
     * (ns3::Type::Attribute) or a global value (RngRun, ...).
     * \param name the argument's name
     * \param value its value
     * \param [out] canonical the value as ns-3 should be given it
     * \return "" if valid, else the problem ("unknown option" if \p name is neither)
     */
    static std::string Check(const std::string& name,
                             const std::string& value,
                             std::string& canonical);

    /**
     * \brief Checks \p value against an attribute's or global value's checker.
     * \param checker the checker
     * \param value the value as text
     * \param [out] canonical the value as ns-3 should be given it
     * \return "" if valid, else the problem
     */
    static std::string CheckValue(Ptr<const AttributeChecker> checker,
                                  const std::string& value,
                                  std::string& canonical);
};

} // namespace ns3

#endif /* RUDP_ATTRIBUTE_CHECK_H */
