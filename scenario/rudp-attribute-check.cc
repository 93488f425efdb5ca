/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-attribute-check.h"

#include "rudp-text.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/global-value.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpAttributeCheck");

namespace
{

/// What \p checker allows, e.g. "an integer in [1, 100]", from the bounds "min:max"
/// that end an integer, double or time checker's type information ("" if none).
std::string
Allowed(Ptr<const AttributeChecker> checker, const std::string& noun)
{
    const std::string info =
        checker->HasUnderlyingTypeInformation() ? checker->GetUnderlyingTypeInformation() : "";
    const size_t space = info.rfind(' ');
    const size_t colon = info.rfind(':');
    if (noun.empty() || space == std::string::npos || colon == std::string::npos || colon < space)
    {
        return "";
    }
    std::string min = info.substr(space + 1, colon - space - 1);
    std::string max = info.substr(colon + 1);
    Time low;
    Time high;
    if (noun == "a time" && RudpText::ParseTime(min, low) && RudpText::ParseTime(max, high))
    {
        // "Time +1e+06ns:+3.6e+12ns" in readable units
        min = RudpText::FormatTime(low);
        max = RudpText::FormatTime(high);
    }
    return noun + " in [" + min + ", " + max + "]";
}

/// \return whether the TypeId named \p name is \p base or derives from it
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
    const size_t open = text.find('[');
    const size_t close = text.find(']');
    const bool bracketed = open != std::string::npos && close > open && close + 1 == text.size() &&
                           text.find('[', open + 1) > close;
    if (text.empty() || text.find_first_of(" \t\n") != std::string::npos ||
        (close != std::string::npos && !bracketed) || (open != std::string::npos && !bracketed))
    {
        return RudpText::NotA(text, form, "");
    }
    const std::string typeName = text.substr(0, open);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        return RudpText::NotA(typeName, "a TypeId", form);
    }
    if (!base.empty() && !IsA(typeName, base, tid))
    {
        return RudpText::Quoted(typeName) + " is not a " + base;
    }
    canonical = typeName;
    if (open == std::string::npos)
    {
        return "";
    }
    std::string inner;
    for (const auto& item : RudpText::Split(text.substr(open + 1, close - open - 1), '|'))
    {
        const size_t equal = item.find('=');
        const std::string name = item.substr(0, equal);
        TypeId::AttributeInformation info;
        if (equal == std::string::npos)
        {
            return RudpText::NotA(item, "Name=value", form);
        }
        if (!tid.LookupAttributeByName(name, &info))
        {
            return typeName + " has no attribute " + RudpText::Quoted(name);
        }
        std::string value;
        const std::string problem =
            RudpAttributeCheck::CheckValue(info.checker, item.substr(equal + 1), value);
        if (!problem.empty())
        {
            return typeName + "::" + name + ": " + problem;
        }
        inner += (inner.empty() ? "" : "|") + name + "=" + value;
    }
    canonical = typeName + "[" + inner + "]";
    return "";
}

/// Checks a global value's own rules, past its checker: what ns-3 aborts on.
std::string
CheckGlobal(const std::string& name, const std::string& value)
{
    uint64_t seed = 0;
    TypeId tid;
    if (name == "RngSeed" && RudpText::ParseUnsigned(value, seed) &&
        (seed == 0 || seed >= 4294944443ULL))
    {
        // ns-3's MRG32k3a streams abort on a seed of 0 or of m2 = 4294944443 or more.
        return RudpText::WithAllowed(RudpText::Quoted(value) +
                                         " is not a valid seed of ns-3's generator",
                                     "an integer in [1, 4294944442]");
    }
    if (name == "SchedulerType" && !IsA(value, "ns3::Scheduler", tid))
    {
        return RudpText::Quoted(value) + " is not an ns3::Scheduler";
    }
    if (name == "SimulatorImplementationType" && !IsA(value, "ns3::SimulatorImpl", tid))
    {
        return RudpText::Quoted(value) + " is not an ns3::SimulatorImpl";
    }
    return "";
}

} // namespace

std::string
RudpAttributeCheck::Check(const std::string& name, const std::string& value, std::string& canonical)
{
    NS_LOG_FUNCTION(name << value);
    for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
    {
        if ((*g)->GetName() == name)
        {
            const std::string problem = CheckValue((*g)->GetChecker(), value, canonical);
            return problem.empty() ? CheckGlobal(name, value) : problem;
        }
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
        return "unknown option: " + RudpText::Quoted(typeName) +
               " is not a TypeId (--PrintTypeIds lists them)";
    }
    // Config::SetDefault looks the attribute up in the type itself, not its
    // parents: a parent's attribute is named by the parent.
    for (TypeId type = tid;; type = type.GetParent())
    {
        for (uint32_t i = 0; i < type.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = type.GetAttribute(i);
            if (info.name == attribute && type == tid)
            {
                return info.supportLevel == TypeId::SupportLevel::OBSOLETE
                           ? "the attribute is obsolete: " + info.supportMsg
                           : CheckValue(info.checker, value, canonical);
            }
            if (info.name == attribute)
            {
                return "unknown option: " + attribute + " is an attribute of " + type.GetName() +
                       ": write --" + type.GetName() + "::" + attribute;
            }
        }
        if (type.GetParent() == type)
        {
            return "unknown option: " + typeName + " has no attribute " +
                   RudpText::Quoted(attribute) + " (--PrintAttributes=" + typeName + " lists them)";
        }
    }
}

std::string
RudpAttributeCheck::CheckValue(Ptr<const AttributeChecker> checker,
                               const std::string& value,
                               std::string& canonical)
{
    const Ptr<AttributeValue> kind = checker->Create();
    const std::string info =
        checker->HasUnderlyingTypeInformation() ? checker->GetUnderlyingTypeInformation() : "";
    canonical = value;
    std::string noun;    // what the checker's bounds hold
    std::string problem; // what is wrong with the value's form
    uint64_t u = 0;
    int64_t s = 0;
    double d = 0;
    bool b = false;
    Time t;
    DataRate r;
    TypeId tid;
    if (DynamicCast<UintegerValue>(kind))
    {
        noun = "an integer";
        problem = RudpText::Read(value, u);
        canonical = std::to_string(u); // "1500.0", as sem writes it, is 1500
    }
    else if (DynamicCast<IntegerValue>(kind))
    {
        noun = "an integer";
        problem = RudpText::Read(value, s);
        canonical = std::to_string(s);
    }
    else if (DynamicCast<DoubleValue>(kind))
    {
        noun = "a number";
        problem = RudpText::Read(value, d);
    }
    else if (DynamicCast<TimeValue>(kind))
    {
        noun = "a time";
        problem = RudpText::Read(value, t);
    }
    else if (DynamicCast<BooleanValue>(kind))
    {
        if (!RudpText::ParseBoolean(value, b))
        {
            return RudpText::NotA(value, "a boolean", "1, 0, true or false");
        }
        canonical = b ? "true" : "false";
    }
    else if (DynamicCast<DataRateValue>(kind))
    {
        problem = RudpText::Read(value, r);
    }
    else if (checker->GetValueTypeName().find("EnumValue") != std::string::npos)
    {
        // One EnumValue class per enum type since ns-3.41, so known by name;
        // its parsing asserts on an unknown name. Its information is "a|b|c".
        const std::vector<std::string> names = RudpText::Split(info, '|');
        return std::find(names.begin(), names.end(), value) != names.end()
                   ? ""
                   : RudpText::NotA(value, "a choice", "one of " + info);
    }
    else if (DynamicCast<TypeIdValue>(kind))
    {
        return TypeId::LookupByNameFailSafe(value, &tid)
                   ? ""
                   : RudpText::Quoted(value) + " is not a TypeId (--PrintTypeIds lists them)";
    }
    else if (DynamicCast<StringValue>(kind))
    {
        return "";
    }
    else if (DynamicCast<QueueSizeValue>(kind))
    {
        if (!RudpText::IsQueueSize(value))
        {
            return RudpText::WithAllowed(RudpText::Quoted(value) + " is not a queue size",
                                         "a number with a unit: B, kB, KiB, MB, MiB (bytes) or "
                                         "p, kp, Kip, Mp, Mip (packets), e.g. 100p");
        }
    }
    else if (DynamicCast<PointerValue>(kind) || DynamicCast<ObjectFactoryValue>(kind))
    {
        // Not through CreateValidValue: that would create the object, and a
        // random variable made there would take an automatic stream number.
        const size_t open = info.find("Ptr<");
        const size_t close = info.rfind('>');
        std::string base;
        if (DynamicCast<PointerValue>(kind) && open != std::string::npos && close > open)
        {
            base = info.substr(open + 4, close - open - 4);
            base.erase(std::remove(base.begin(), base.end(), ' '), base.end());
        }
        return CheckFactory(value, base, canonical);
    }
    else if (value.empty() || value.find_first_of(" \t\n") != std::string::npos)
    {
        // Any other type: ns-3 reads it with operator>>, which stops at a
        // space and then aborts on what is left.
        return value.empty() ? "needs a value" : RudpText::Quoted(value) + " has spaces";
    }

    if (!problem.empty())
    {
        return RudpText::WithAllowed(problem, Allowed(checker, noun));
    }
    // The form is sound: ns-3's own parsing takes it whole; its checker
    // decides the range.
    if (!checker->CreateValidValue(StringValue(canonical)))
    {
        const std::string allowed = Allowed(checker, noun);
        return allowed.empty() ? RudpText::Quoted(value) + " is not a valid " +
                                     (info.empty() ? checker->GetValueTypeName() : info)
                               : RudpText::OutOfRange(value, allowed);
    }
    return "";
}

} // namespace ns3
