/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_RANKS_H
#define RUDP_RANKS_H

#include "rudp-json.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class RudpCommandLine;

/**
 * \ingroup rudp-helpers
 * \brief What one MPI rank measured of the nodes it owns, by name: numbers
 * (kept bit for bit), text and JSON fragments, so that every rank can put
 * together the record one process would write.
 *
 * A scenario split across ranks (RudpRanks) reads each node's measurements
 * where the node is: a flow's goodput on its receiver's rank, its round
 * trips on its sender's. Each rank sets what it owns under names that say
 * what they are ("flow.3.bytes"); RudpRanks::Share() merges the ranks'
 * values. One process sets them all and shares with itself, so both take
 * the same path to the record.
 */
class RudpRankValues
{
  public:
    /// Sets \p key to a count.
    void Set(const std::string& key, uint64_t value);
    /// Sets \p key to a number.
    void Set(const std::string& key, double value);
    /// Sets \p key to a text.
    void Set(const std::string& key, const std::string& value);
    /// Sets \p key to a JSON object (its members' text as it was written).
    void Set(const std::string& key, const RudpJson& value);

    /// \return true if \p key was set (by this rank or, after Share(), by any)
    bool Has(const std::string& key) const;
    /// \return the count under \p key (a missing key or another kind aborts)
    uint64_t GetUint(const std::string& key) const;
    /// \return the number under \p key
    double GetDouble(const std::string& key) const;
    /// \return the text under \p key
    std::string GetString(const std::string& key) const;
    /// \return the JSON object under \p key
    RudpJson GetJson(const std::string& key) const;
    /// \return the number of values
    size_t GetN() const;

    /**
     * \brief Adds \p other's values.
     * \param other another rank's values
     * \return "" or the problem: a key both hold (two ranks claimed one node's measurement)
     */
    std::string Merge(const RudpRankValues& other);

    /// \return the values as bytes, for another process
    std::string Serialize() const;
    /**
     * \brief Reads what Serialize() wrote.
     * \param bytes the bytes
     * \param [out] values the values read
     * \return false if \p bytes are not a serialization (cut short, or trailing bytes)
     */
    static bool Deserialize(const std::string& bytes, RudpRankValues& values);

  private:
    /// One value.
    struct Value
    {
        /// What it is.
        enum Kind : uint8_t
        {
            UINT = 1,   ///< a count, in bits
            DOUBLE = 2, ///< a number, its bits
            TEXT = 3,   ///< a text, in text
            JSON = 4,   ///< a JSON object: members, key and JSON text each
        };

        Kind kind{UINT};                                          ///< what it is
        uint64_t bits{0};                                         ///< UINT, DOUBLE
        std::string text;                                         ///< TEXT
        std::vector<std::pair<std::string, std::string>> members; ///< JSON
    };

    /// \return the value under \p key, which must be of kind \p kind
    const Value& Get(const std::string& key, Value::Kind kind) const;

    std::map<std::string, Value> m_values; ///< by key
};

/**
 * \ingroup rudp-helpers
 * \brief A scenario program's --ranks and --synchronizer: one simulation
 * split across MPI processes (ns-3's src/mpi), or one process.
 *
 * With --ranks=N above 1 the program runs as `mpiexec -n N PROGRAM --ranks=N`:
 * EnableOrFail() selects ns-3's distributed simulator (--synchronizer:
 * DistributedSimulatorImpl's granted time windows, or NullMessageSimulatorImpl's
 * null messages) and starts MPI; each rank builds every node, keeps the
 * applications and traces of the nodes it owns (their system id), and
 * Share() gathers what the ranks measured, so that every rank computes the
 * record and rank 0 alone prints and writes it. The record says
 * "ranks": N (and, above 1, which synchronizer ran it).
 *
 * MPI exists only where ns-3 was built with it (an ns-3 tree configured
 * with --enable-mpi defines NS3_MPI). Elsewhere, the ns-3 wheel and the
 * standalone build among them, --ranks above 1 ends the program with exit
 * status 2 saying why. So does a --ranks that is not the number of processes
 * mpiexec started, in either direction.
 */
class RudpRanks
{
  public:
    /// The synchronizers of ns-3's distributed simulation.
    enum Synchronizer
    {
        DISTRIBUTED,  ///< ns3::DistributedSimulatorImpl: granted time windows
        NULL_MESSAGE, ///< ns3::NullMessageSimulatorImpl: null messages
    };

    RudpRanks();
    /// Ends MPI (MPI_Finalize) if EnableOrFail() started it: declare it
    /// first in main(), so that it goes last.
    ~RudpRanks();
    RudpRanks(const RudpRanks&) = delete;
    RudpRanks& operator=(const RudpRanks&) = delete;

    /// \param cmd the program's command line, before Parse(): --ranks, --synchronizer
    void AddOptions(RudpCommandLine& cmd);

    /**
     * \brief After Parse() and before anything is simulated: with --ranks
     * above 1, selects the distributed simulator and starts MPI; ends the
     * program with exit status 2 if this ns-3 has no MPI or mpiexec started
     * another number of processes.
     * \param argc main()'s argc
     * \param argv main()'s argv
     */
    void EnableOrFail(int& argc, char**& argv);

    /**
     * \brief Refuses an option that cannot work across ranks: with --ranks
     * above 1 ends the program (exit status 2) naming \p option and why.
     * \param option the option at fault
     * \param given whether the program was asked for it
     * \param why why it cannot follow a split simulation
     */
    void RefuseWhenSplit(const std::string& option, bool given, const std::string& why) const;

    /// \return --ranks
    uint32_t GetRanks() const;
    /// \return this process's rank (0 in one process)
    uint32_t GetRank() const;
    /// \return true in rank 0, the one that prints and writes the record
    bool IsRoot() const;
    /// \return --synchronizer
    Synchronizer GetSynchronizer() const;

    /**
     * \brief Every rank's values, merged, on every rank (MPI_Allgatherv);
     * in one process, \p local itself. Every rank must call it, once the
     * simulation has run. Two ranks that set one key abort the program: a
     * node measured twice is the program's bug.
     * \param local this rank's values
     * \return the values of all ranks
     */
    RudpRankValues Share(const RudpRankValues& local) const;

    /// Adds "ranks" to a record, and "synchronizer" when split.
    void AddToJson(RudpJson& json) const;

    /// \return true if this build of ns-3 has MPI (NS3_MPI)
    static bool IsAvailable();
    /// \return the name of \p synchronizer as --synchronizer takes it
    static std::string GetName(Synchronizer synchronizer);

  private:
    uint32_t m_ranks{1};                       ///< --ranks
    std::string m_synchronizer{"distributed"}; ///< --synchronizer
    uint32_t m_rank{0};                        ///< this process's rank
    bool m_mpiStarted{false};                  ///< EnableOrFail started MPI
};

} // namespace ns3

#endif /* RUDP_RANKS_H */
