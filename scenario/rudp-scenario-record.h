/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_SCENARIO_RECORD_H
#define RUDP_SCENARIO_RECORD_H

#include <string>

namespace ns3
{

class RudpCommandLine;
class RudpJson;

/**
 * \ingroup rudp
 * \brief A scenario program's JSON record: its --output option, the fields
 * every record has (scenario, ok, failure; RudpJson::Write adds
 * rudp_version), and the writing, which ends the program with exit status
 * 2 naming --output if the file cannot be written. A run that fails still
 * writes its record, "ok": false with its "failure".
 */
class RudpScenarioRecord
{
  public:
    /// \param scenario the program's name, the record's "scenario"
    explicit RudpScenarioRecord(std::string scenario);

    /// \param cmd the program's command line, before Parse(): registers --output
    void AddOption(RudpCommandLine& cmd);
    /// \return true if --output names a file to write
    bool IsWanted() const;
    /**
     * \brief Sets the fields every record has.
     * \param json the record
     * \param ok whether the run succeeded
     * \param failure why it did not ("" if it did)
     */
    void SetOutcome(RudpJson& json, bool ok, const std::string& failure) const;
    /**
     * \brief Writes \p json to --output (nothing without it), or ends the
     * program with exit status 2 naming --output.
     * \param json the record
     */
    void WriteOrFail(const RudpJson& json) const;

  private:
    std::string m_scenario; ///< the program's name
    std::string m_output;   ///< --output
};

} // namespace ns3

#endif /* RUDP_SCENARIO_RECORD_H */
