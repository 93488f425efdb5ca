/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-command-line.h"

#include "../model/rudp-compat.h"
#include "rudp-attribute-check.h"
#include "rudp-parameter-check.h"
#include "rudp-version.h"

#include "ns3/abort.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpCommandLine");

namespace
{

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

} // namespace

/// One program option, as ns-3's CommandLine calls it back.
struct RudpCommandLine::Option
{
    std::string name;    ///< its name, without dashes
    std::string allowed; ///< what is allowed, for messages
    bool hasDefault;     ///< whether --PrintHelp shows a default (sem's None otherwise)
    bool isBoolean;      ///< a bare --name toggles it
    Checker apply;       ///< checks a value and stores it
    std::pair<std::string, std::string>* firstProblem; ///< where a problem is kept

    /**
     * ns-3's callback: applies \p text, keeping the first problem for Check()
     * rather than letting ns-3 exit with its own message.
     * \return true
     */
    bool Set(std::string text)
    {
        const std::string problem = apply(text);
        if (!problem.empty() && firstProblem->second.empty())
        {
            *firstProblem = {name, problem};
        }
        return true;
    }
};

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
RudpCommandLine::Add(const std::string& name,
                     const std::string& help,
                     const std::string& allowed,
                     const std::string& defaultText,
                     Checker apply,
                     bool isBoolean)
{
    NS_ABORT_MSG_IF(Find(name), "option --" << name << " declared twice");
    m_options.push_back(std::make_unique<Option>(
        Option{name, allowed, !defaultText.empty(), isBoolean, std::move(apply), &m_firstProblem}));
    m_cmd.AddValue(name,
                   allowed.empty() ? help : help + "; allowed: " + allowed,
                   rudpcompat::MakeTextCallback(&Option::Set, m_options.back().get()),
                   defaultText);
}

void
RudpCommandLine::AddValue(const std::string& name, const std::string& help, bool& value)
{
    const std::string allowed = "1, 0, true or false";
    auto apply = [&value, allowed](const std::string& text) {
        if (text.empty())
        {
            value = !value; // ns-3's toggle: Check() lets only a bare --name through empty
            return std::string();
        }
        return RudpText::WithAllowed(RudpText::Read(text, value), allowed);
    };
    Add(name, help, allowed, value ? "true" : "false", apply, true);
}

void
RudpCommandLine::AddValue(const std::string& name, const std::string& help, std::string& value)
{
    AddValue(name, help, value, "", [](const std::string&) { return std::string(); });
}

void
RudpCommandLine::AddValue(const std::string& name,
                          const std::string& help,
                          std::string& value,
                          const std::vector<std::string>& choices)
{
    std::string list;
    for (const auto& choice : choices)
    {
        list += (list.empty() ? "" : "|") + choice;
    }
    const std::string allowed = "one of " + list;
    AddValue(name, help, value, allowed, [choices, allowed](const std::string& text) {
        return std::find(choices.begin(), choices.end(), text) != choices.end()
                   ? std::string()
                   : RudpText::NotA(text, "a choice", allowed);
    });
}

void
RudpCommandLine::AddValue(const std::string& name,
                          const std::string& help,
                          std::string& value,
                          const std::string& form,
                          Checker check)
{
    Add(name, help, form, value, [&value, check](const std::string& text) {
        const std::string problem = check(text);
        if (problem.empty())
        {
            value = text;
        }
        return problem;
    });
}

void
RudpCommandLine::SetsAttributes(const std::string& option,
                                const std::vector<std::string>& attributes)
{
    for (const auto& attribute : attributes)
    {
        m_setsAttribute[attribute] = option;
    }
}

const std::string*
RudpCommandLine::SetBy(const std::string& attribute) const
{
    auto sets = m_setsAttribute.find(attribute);
    const size_t colons = attribute.rfind("::");
    TypeId tid;
    if (sets != m_setsAttribute.end() || colons == std::string::npos ||
        !TypeId::LookupByNameFailSafe(attribute.substr(0, colons), &tid))
    {
        return sets == m_setsAttribute.end() ? nullptr : &sets->second;
    }
    // A deprecated alias says "use <Name>...": it sets what <Name> sets. (Not
    // LookupAttributeByName, which warns of a deprecated attribute.)
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        const TypeId::AttributeInformation info = tid.GetAttribute(i);
        if (info.name == attribute.substr(colons + 2) &&
            info.supportLevel == TypeId::SupportLevel::DEPRECATED &&
            info.supportMsg.compare(0, 4, "use ") == 0)
        {
            const std::string name =
                info.supportMsg.substr(4, info.supportMsg.find_first_of(" ,;", 4) - 4);
            sets = m_setsAttribute.find(attribute.substr(0, colons + 2) + name);
        }
    }
    return sets == m_setsAttribute.end() ? nullptr : &sets->second;
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

void
RudpCommandLine::Parse(int argc, char* argv[])
{
    NS_LOG_FUNCTION(this << argc);
    std::string name;
    std::string problem;
    if (!Check(std::vector<std::string>(argv, argv + argc), name, problem))
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

    // Program options go to ns-3's CommandLine, whose callbacks read them
    // strictly; attributes and globals are checked here first. The first
    // problem in command-line order is the one reported.
    std::vector<std::string> options{program};
    std::vector<std::string> attributes{program};
    name.clear();
    problem.clear();
    for (size_t i = 1; i < args.size() && problem.empty(); ++i)
    {
        const Argument a = SplitArgument(args[i]);
        name = a.name;
        const Option* option = Find(a.name);
        const std::string* setBy = option ? nullptr : SetBy(a.name); // options first
        std::string value;
        if (!a.isOption)
        {
            name.clear();
            problem =
                RudpText::Quoted(args[i]) + " is not an option: options are written --name=value";
        }
        else if (option && !a.hasValue && !option->isBoolean)
        {
            problem =
                RudpText::WithAllowed("needs a value (--" + a.name + "=VALUE)", option->allowed);
        }
        else if (option && a.hasValue && a.value.empty() && option->isBoolean)
        {
            problem = RudpText::WithAllowed("needs a value", option->allowed);
        }
        else if (option)
        {
            // sem gives every parameter a value, and Python's None for one
            // whose --PrintHelp shows no default: it means "leave it unset".
            if (!(a.value == "None" && !option->hasDefault))
            {
                options.push_back(args[i]);
            }
        }
        else if (setBy)
        {
            problem =
                programName + " sets this attribute " +
                (setBy->empty() ? std::string("itself") : "from --" + *setBy + "; use --" + *setBy);
        }
        else
        {
            bool known = a.name.find("::") != std::string::npos;
            for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
            {
                known = known || (*g)->GetName() == a.name;
            }
            problem = known ? RudpAttributeCheck::Check(a.name, a.value, value)
                            : "unknown option (--PrintHelp lists the options, --PrintGlobals "
                              "the globals)";
            attributes.push_back("--" + a.name + "=" + value);
        }
    }
    const std::pair<std::string, std::string> firstBad{name, problem};
    m_firstProblem = {};
    m_cmd.Parse(options);
    if (!m_firstProblem.second.empty() || !firstBad.second.empty())
    {
        std::tie(name, problem) = m_firstProblem.second.empty() ? firstBad : m_firstProblem;
        return false;
    }
    name.clear();
    for (const auto& hook : m_beforeAttributes)
    {
        hook();
    }
    m_cmd.Parse(attributes);
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
            return RudpText::Quoted(path) + " is a directory";
        }
        if (!std::ofstream(path, std::ios::app))
        {
            return "cannot write " + RudpText::Quoted(path);
        }
        if (!existed)
        {
            std::filesystem::remove(path, error); // written at the end of the run
        }
        return std::string();
    };
}

} // namespace ns3
