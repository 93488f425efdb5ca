/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-json.h"

#include "rudp-version.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

RudpJson&
RudpJson::SetRaw(const std::string& key, std::string json)
{
    for (auto& member : m_members)
    {
        if (member.first == key)
        {
            member.second = std::move(json);
            return *this;
        }
    }
    m_members.emplace_back(key, std::move(json));
    return *this;
}

RudpJson&
RudpJson::Append(const RudpJson& other)
{
    for (const auto& [key, json] : other.m_members)
    {
        SetRaw(key, json);
    }
    return *this;
}

RudpJson&
RudpJson::Set(const std::string& key, double value)
{
    if (!std::isfinite(value))
    {
        return SetRaw(key, "null"); // JSON has no NaN or infinity
    }
    char text[32];
    std::snprintf(text, sizeof(text), "%.17g", value);
    return SetRaw(key, text);
}

RudpJson&
RudpJson::Set(const std::string& key, int64_t value)
{
    return SetRaw(key, std::to_string(value));
}

RudpJson&
RudpJson::Set(const std::string& key, uint64_t value)
{
    return SetRaw(key, std::to_string(value));
}

RudpJson&
RudpJson::Set(const std::string& key, uint32_t value)
{
    return SetRaw(key, std::to_string(value));
}

RudpJson&
RudpJson::Set(const std::string& key, int value)
{
    return SetRaw(key, std::to_string(value));
}

RudpJson&
RudpJson::Set(const std::string& key, bool value)
{
    return SetRaw(key, value ? "true" : "false");
}

RudpJson&
RudpJson::Set(const std::string& key, const std::string& value)
{
    return SetRaw(key, Quote(value));
}

RudpJson&
RudpJson::Set(const std::string& key, const char* value)
{
    return SetRaw(key, Quote(value));
}

RudpJson&
RudpJson::Set(const std::string& key, const RudpJson& object)
{
    return SetRaw(key, object.Dump());
}

RudpJson&
RudpJson::Set(const std::string& key, const std::vector<RudpJson>& objects)
{
    std::string json = "[";
    for (size_t i = 0; i < objects.size(); ++i)
    {
        json += (i ? ", " : "") + objects[i].Dump();
    }
    return SetRaw(key, json + "]");
}

RudpJson&
RudpJson::Set(const std::string& key, const std::vector<double>& values)
{
    RudpJson scratch;
    std::string json = "[";
    for (size_t i = 0; i < values.size(); ++i)
    {
        scratch.Set("v", values[i]);
        json += (i ? ", " : "") + scratch.m_members.back().second;
    }
    return SetRaw(key, json + "]");
}

std::string
RudpJson::Dump() const
{
    std::string json = "{";
    for (size_t i = 0; i < m_members.size(); ++i)
    {
        json += (i ? ", " : "") + Quote(m_members[i].first) + ": " + m_members[i].second;
    }
    return json + "}";
}

bool
RudpJson::Write(const std::string& path) const
{
    // A record says which version of the module wrote it.
    RudpJson record = *this;
    record.Set("rudp_version", RudpVersion());
    // A file is written beside its place, then renamed over it (as the
    // sweep's Python side does with os.replace): a reader sees the old record
    // or the new one, never a part, and a failed write leaves the old one.
    // Anything else that exists there (/dev/stdout, a pipe) is written to.
    struct stat existing;
    const bool inPlace = stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode);
    const std::string target = inPlace ? path : path + ".partial-" + std::to_string(getpid());
    std::ofstream out(target, std::ios::trunc);
    out << record.Dump() << "\n";
    out.close();
    if (inPlace)
    {
        return static_cast<bool>(out);
    }
    if (!out || std::rename(target.c_str(), path.c_str()) != 0)
    {
        std::remove(target.c_str());
        return false;
    }
    return true;
}

std::string
RudpJson::Quote(const std::string& text)
{
    std::ostringstream os;
    os << '"';
    for (const unsigned char c : text)
    {
        switch (c)
        {
        case '"':
            os << "\\\"";
            break;
        case '\\':
            os << "\\\\";
            break;
        case '\n':
            os << "\\n";
            break;
        case '\t':
            os << "\\t";
            break;
        default:
            if (c < 0x20)
            {
                char escaped[8];
                std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
                os << escaped;
            }
            else
            {
                os << c;
            }
        }
    }
    os << '"';
    return os.str();
}

} // namespace ns3
