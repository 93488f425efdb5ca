/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-ranks.h"

#include "rudp-command-line.h"
#include "rudp-parameter-check.h"

#include "ns3/abort.h"
#include "ns3/global-value.h"
#include "ns3/string.h"

#include <cstdlib>
#include <cstring>
#include <vector>

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

namespace ns3
{

namespace
{

/// The most ranks --ranks takes.
const uint32_t MAX_RANKS = 4096;

/// \return how many processes mpiexec started beside this one, from the
/// environment OpenMPI and MPICH give them (1 when it did not start this one)
uint32_t
ProcessesStarted()
{
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    {
        const char* value = std::getenv(name);
        char* end = nullptr;
        const unsigned long size = value ? std::strtoul(value, &end, 10) : 0;
        if (value && *value && *end == '\0' && size > 0)
        {
            return static_cast<uint32_t>(std::min<unsigned long>(size, MAX_RANKS + 1));
        }
    }
    return 1;
}

/// Appends \p value's bytes to \p out (the ranks run one program on one
/// kind of machine: native byte order).
void
PutWord(std::string& out, uint64_t value)
{
    out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

/// Reads what PutWord wrote at \p at in \p in; false if cut short.
bool
GetWord(const std::string& in, size_t& at, uint64_t& value)
{
    if (in.size() - at < sizeof(value))
    {
        return false;
    }
    std::memcpy(&value, in.data() + at, sizeof(value));
    at += sizeof(value);
    return true;
}

/// Appends \p text's length and then \p text to \p out.
void
PutText(std::string& out, const std::string& text)
{
    PutWord(out, text.size());
    out += text;
}

/// Reads what PutText wrote at \p at in \p in; false if cut short.
bool
GetText(const std::string& in, size_t& at, std::string& text)
{
    uint64_t size = 0;
    if (!GetWord(in, at, size) || in.size() - at < size)
    {
        return false;
    }
    text = in.substr(at, size);
    at += size;
    return true;
}

} // namespace

void
RudpRankValues::Set(const std::string& key, uint64_t value)
{
    Value& v = m_values[key];
    v = Value();
    v.kind = Value::UINT;
    v.bits = value;
}

void
RudpRankValues::Set(const std::string& key, double value)
{
    Value& v = m_values[key];
    v = Value();
    v.kind = Value::DOUBLE;
    std::memcpy(&v.bits, &value, sizeof(value));
}

void
RudpRankValues::Set(const std::string& key, const std::string& value)
{
    Value& v = m_values[key];
    v = Value();
    v.kind = Value::TEXT;
    v.text = value;
}

void
RudpRankValues::Set(const std::string& key, const RudpJson& value)
{
    Value& v = m_values[key];
    v = Value();
    v.kind = Value::JSON;
    v.members = value.m_members;
}

bool
RudpRankValues::Has(const std::string& key) const
{
    return m_values.count(key) > 0;
}

const RudpRankValues::Value&
RudpRankValues::Get(const std::string& key, Value::Kind kind) const
{
    const auto found = m_values.find(key);
    NS_ABORT_MSG_IF(found == m_values.end(), "RudpRankValues: no rank set '" << key << "'");
    NS_ABORT_MSG_UNLESS(found->second.kind == kind,
                        "RudpRankValues: '" << key << "' holds another kind of value");
    return found->second;
}

uint64_t
RudpRankValues::GetUint(const std::string& key) const
{
    return Get(key, Value::UINT).bits;
}

double
RudpRankValues::GetDouble(const std::string& key) const
{
    double value = 0;
    std::memcpy(&value, &Get(key, Value::DOUBLE).bits, sizeof(value));
    return value;
}

std::string
RudpRankValues::GetString(const std::string& key) const
{
    return Get(key, Value::TEXT).text;
}

RudpJson
RudpRankValues::GetJson(const std::string& key) const
{
    RudpJson json;
    json.m_members = Get(key, Value::JSON).members;
    return json;
}

size_t
RudpRankValues::GetN() const
{
    return m_values.size();
}

std::string
RudpRankValues::Merge(const RudpRankValues& other)
{
    for (const auto& [key, value] : other.m_values)
    {
        if (!m_values.emplace(key, value).second)
        {
            return "two ranks set '" + key + "'";
        }
    }
    return "";
}

std::string
RudpRankValues::Serialize() const
{
    // The count first: bytes cut at a value's end are then not a shorter whole.
    std::string out;
    PutWord(out, m_values.size());
    for (const auto& [key, value] : m_values)
    {
        PutText(out, key);
        out += static_cast<char>(value.kind);
        switch (value.kind)
        {
        case Value::UINT:
        case Value::DOUBLE:
            PutWord(out, value.bits);
            break;
        case Value::TEXT:
            PutText(out, value.text);
            break;
        case Value::JSON:
            PutWord(out, value.members.size());
            for (const auto& [name, json] : value.members)
            {
                PutText(out, name);
                PutText(out, json);
            }
            break;
        }
    }
    return out;
}

bool
RudpRankValues::Deserialize(const std::string& bytes, RudpRankValues& values)
{
    values.m_values.clear();
    size_t at = 0;
    uint64_t count = 0;
    if (!GetWord(bytes, at, count))
    {
        return false;
    }
    for (; count > 0; --count)
    {
        std::string key;
        if (!GetText(bytes, at, key) || at >= bytes.size())
        {
            return false;
        }
        Value value;
        value.kind = static_cast<Value::Kind>(bytes[at++]);
        switch (value.kind)
        {
        case Value::UINT:
        case Value::DOUBLE:
            if (!GetWord(bytes, at, value.bits))
            {
                return false;
            }
            break;
        case Value::TEXT:
            if (!GetText(bytes, at, value.text))
            {
                return false;
            }
            break;
        case Value::JSON: {
            uint64_t count = 0;
            if (!GetWord(bytes, at, count))
            {
                return false;
            }
            for (; count > 0; --count)
            {
                std::pair<std::string, std::string> member;
                if (!GetText(bytes, at, member.first) || !GetText(bytes, at, member.second))
                {
                    return false;
                }
                value.members.push_back(member);
            }
            break;
        }
        default:
            return false;
        }
        values.m_values[key] = value;
    }
    return at == bytes.size();
}

RudpRanks::RudpRanks() = default;

RudpRanks::~RudpRanks()
{
#ifdef NS3_MPI
    // The program's normal end, reached by every rank. A rank that fails
    // alone (std::exit) leaves MPI without MPI_Finalize, which waits for
    // every rank: mpiexec then ends the others instead of letting them wait.
    if (m_mpiStarted)
    {
        MpiInterface::Disable();
    }
#endif
}

void
RudpRanks::AddOptions(RudpCommandLine& cmd)
{
    cmd.AddValue("ranks",
                 "MPI processes the simulation is split across, one part of the network each "
                 "(started by mpiexec with as many processes; above 1 only in an ns-3 tree "
                 "configured with MPI)",
                 m_ranks,
                 1u,
                 MAX_RANKS);
    cmd.AddValue("synchronizer",
                 "With ranks above 1, how the ranks keep in step: ns-3's DistributedSimulatorImpl "
                 "(granted time windows) or NullMessageSimulatorImpl (null messages)",
                 m_synchronizer,
                 {GetName(DISTRIBUTED), GetName(NULL_MESSAGE)});
}

void
RudpRanks::EnableOrFail(int& argc, char**& argv)
{
    const uint32_t started = ProcessesStarted();
    const std::string run = "run it as 'mpiexec -n " + std::to_string(m_ranks) +
                            " PROGRAM --ranks=" + std::to_string(m_ranks) + " ...'";
    if (m_ranks == 1)
    {
        if (started > 1)
        {
            RudpParameterCheck::Fail("ranks",
                                     "mpiexec started " + std::to_string(started) +
                                         " processes of this program, and with --ranks=1 each "
                                         "would run the whole simulation; give --ranks=" +
                                         std::to_string(started) +
                                         " to split it across them, or run it without mpiexec");
        }
        return;
    }
    if (!IsAvailable())
    {
        RudpParameterCheck::Fail(
            "ranks",
            std::to_string(m_ranks) +
                " ranks need ns-3's MPI module (src/mpi), which this build of ns-3 lacks: the "
                "ns-3 wheel and the module's standalone build have none, nor has an ns-3 tree "
                "configured without --enable-mpi; build the module in an ns-3 tree configured "
                "with --enable-mpi, or run it with --ranks=1");
    }
    if (started != m_ranks && started > 1)
    {
        RudpParameterCheck::Fail("ranks",
                                 std::to_string(m_ranks) + " ranks, but mpiexec started " +
                                     std::to_string(started) + " processes; " + run);
    }
#ifdef NS3_MPI
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(m_synchronizer == GetName(NULL_MESSAGE)
                                      ? "ns3::NullMessageSimulatorImpl"
                                      : "ns3::DistributedSimulatorImpl"));
    MpiInterface::Enable(&argc, &argv);
    const uint32_t size = MpiInterface::GetSize();
    if (size != m_ranks)
    {
        MpiInterface::Disable(); // every rank is here: MPI can end cleanly
        RudpParameterCheck::Fail("ranks",
                                 std::to_string(m_ranks) + " ranks, but MPI has " +
                                     std::to_string(size) + " processes; " + run);
    }
    m_mpiStarted = true;
    m_rank = MpiInterface::GetSystemId();
#else
    (void)argc; // MPI's to read, where there is MPI
    (void)argv;
#endif
}

void
RudpRanks::RefuseWhenSplit(const std::string& option, bool given, const std::string& why) const
{
    if (given && m_ranks > 1)
    {
        RudpParameterCheck::Fail(option,
                                 "not with --ranks=" + std::to_string(m_ranks) + ": " + why +
                                     "; run it with --ranks=1");
    }
}

uint32_t
RudpRanks::GetRanks() const
{
    return m_ranks;
}

uint32_t
RudpRanks::GetRank() const
{
    return m_rank;
}

bool
RudpRanks::IsRoot() const
{
    return m_rank == 0;
}

RudpRanks::Synchronizer
RudpRanks::GetSynchronizer() const
{
    return m_synchronizer == GetName(NULL_MESSAGE) ? NULL_MESSAGE : DISTRIBUTED;
}

RudpRankValues
RudpRanks::Share(const RudpRankValues& local) const
{
    if (m_ranks == 1)
    {
        return local;
    }
    RudpRankValues all;
#ifdef NS3_MPI
    const std::string mine = local.Serialize();
    const int size = static_cast<int>(mine.size());
    std::vector<int> sizes(m_ranks);
    MPI_Allgather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, MpiInterface::GetCommunicator());
    std::vector<int> offsets(m_ranks);
    int total = 0;
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        offsets[r] = total;
        total += sizes[r];
    }
    std::string bytes(total, '\0');
    MPI_Allgatherv(mine.data(),
                   size,
                   MPI_CHAR,
                   bytes.data(),
                   sizes.data(),
                   offsets.data(),
                   MPI_CHAR,
                   MpiInterface::GetCommunicator());
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        RudpRankValues theirs;
        NS_ABORT_MSG_UNLESS(RudpRankValues::Deserialize(bytes.substr(offsets[r], sizes[r]), theirs),
                            "RudpRanks: rank " << r << "'s values arrived damaged");
        const std::string problem = all.Merge(theirs);
        NS_ABORT_MSG_UNLESS(problem.empty(), "RudpRanks: a node measured twice: " << problem);
    }
#endif
    return all;
}

void
RudpRanks::AddToJson(RudpJson& json) const
{
    json.Set("ranks", m_ranks);
    if (m_ranks > 1)
    {
        json.Set("synchronizer", m_synchronizer);
    }
}

bool
RudpRanks::IsAvailable()
{
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

std::string
RudpRanks::GetName(Synchronizer synchronizer)
{
    return synchronizer == NULL_MESSAGE ? "null-message" : "distributed";
}

} // namespace ns3
