/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-scenario-record.h"

#include "rudp-command-line.h"
#include "rudp-json.h"
#include "rudp-parameter-check.h"

#include <utility>

namespace ns3
{

RudpScenarioRecord::RudpScenarioRecord(std::string scenario)
    : m_scenario(std::move(scenario))
{
}

void
RudpScenarioRecord::AddOption(RudpCommandLine& cmd)
{
    cmd.AddValue("output",
                 "Write the run's record (JSON) to this file, also when the run fails",
                 m_output,
                 "a file path that can be written",
                 RudpCommandLine::WritableFile());
}

bool
RudpScenarioRecord::IsWanted() const
{
    return !m_output.empty();
}

void
RudpScenarioRecord::SetOutcome(RudpJson& json, bool ok, const std::string& failure) const
{
    json.Set("scenario", m_scenario).Set("ok", ok).Set("failure", failure);
}

void
RudpScenarioRecord::WriteOrFail(const RudpJson& json) const
{
    if (IsWanted() && !json.Write(m_output))
    {
        RudpParameterCheck::Fail("output", "cannot write '" + m_output + "'");
    }
}

} // namespace ns3
