/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_JSON_H
#define RUDP_JSON_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp-helpers
 * \brief A JSON object built key by key, for the scenarios' --output files
 * (keys keep their order).
 */
class RudpJson
{
  public:
    RudpJson& Set(const std::string& key, double value);
    RudpJson& Set(const std::string& key, int64_t value);
    RudpJson& Set(const std::string& key, uint64_t value);
    RudpJson& Set(const std::string& key, uint32_t value);
    RudpJson& Set(const std::string& key, int value);
    RudpJson& Set(const std::string& key, bool value);
    RudpJson& Set(const std::string& key, const std::string& value);
    RudpJson& Set(const std::string& key, const char* value);
    RudpJson& Set(const std::string& key, const RudpJson& object);
    RudpJson& Set(const std::string& key, const std::vector<RudpJson>& objects);
    RudpJson& Set(const std::string& key, const std::vector<double>& values);
    /**
     * \brief Sets each member of \p other in turn, as Set() would: a key
     * this object holds keeps its place and takes the new value.
     * \param other the members to add
     * \return this object
     */
    RudpJson& Append(const RudpJson& other);

    /// \return the object as JSON text
    std::string Dump() const;
    /**
     * \brief Writes the object to \p path, with "rudp_version" (RudpVersion())
     * added at its end: every record says which version of the module wrote it.
     * A regular file is replaced at once (written beside it, then renamed
     * over it): a reader sees the old record or the new one, never a part.
     * \return false if the file could not be written (an old one is kept)
     */
    bool Write(const std::string& path) const;

    /// \return \p text as a JSON string literal, quotes included
    static std::string Quote(const std::string& text);

  private:
    friend class RudpRankValues; // carries objects from one MPI rank to another

    RudpJson& SetRaw(const std::string& key, std::string json);

    std::vector<std::pair<std::string, std::string>> m_members; ///< key, JSON text
};

} // namespace ns3

#endif /* RUDP_JSON_H */
