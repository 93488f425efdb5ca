/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_FILE_RECEIVER_H
#define RUDP_FILE_RECEIVER_H

#include "rudp-sha256.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class Socket;

/**
 * \ingroup rudp-apps
 * \brief What RudpFileReceiver got over one connection.
 */
struct RudpFileReport
{
    std::string name;     ///< file name the sender announced, sanitised (see SanitizeName)
    std::string path;     ///< the file written: final name if complete, "" if not stored
                          ///< or removed, the ".partial" file if KeepPartial kept it
    uint64_t size{0};     ///< length the sender announced (bytes)
    uint64_t bytes{0};    ///< file bytes received (bytes; the trailer not included)
    std::string sha256;   ///< SHA-256 of the bytes written (of the bytes received if not
                          ///< stored), hex; "" unless every announced byte arrived
    bool complete{false}; ///< every byte and the trailer arrived, and the digest matched
    std::string failure;  ///< why the transfer failed, "" when complete
    Address peer;         ///< the sender
    Time acceptTime;      ///< when the connection was accepted
    Time firstByteTime;   ///< when the first file byte arrived (empty file: its record)
    Time lastByteTime;    ///< when the last file byte arrived (empty file: its record)

    /// \return file bytes per second from acceptance to the last byte
    double ThroughputBps() const;
};

/**
 * \ingroup rudp-apps
 * \brief Receives files over a stream socket (seed 000's server).
 *
 * Listens on Local and accepts any number of connections, each carrying one
 * file as RudpFileSender sends it: a record (name length, 2 bytes; name;
 * file length, 8 bytes), the file's bytes, and a 32-byte trailer, the raw
 * SHA-256 of the file. A file is complete only when every byte and the
 * trailer arrived and the SHA-256 of the bytes written (re-read from the
 * file when OutputDirectory is set) equals the trailer; anything else is a
 * reported failure. Either way the FileReceived trace reports it once, and
 * the receiver closes its side when the peer closes (seed 000's server
 * answers the client's FIN with its own).
 *
 * With OutputDirectory set, a file is streamed (never held whole in
 * memory) into "<name>.partial", created exclusively (an existing file or
 * symlink is never opened), and renamed to "<name>" only when complete,
 * without replacing anything; a failed transfer's partial file is removed
 * unless KeepPartial. Names are sanitised (SanitizeName); a name already
 * taken, on disk or by a transfer in progress, gets a suffix:
 * "name (1).ext", "name (2).ext", ...
 *
 * Nothing the peer sends and nothing the disk does aborts the simulation:
 * an OutputDirectory that cannot be created, a file that cannot be created,
 * written, closed or renamed, more bytes than announced, a wrong or missing
 * trailer, a connection that ends early or (with IdleTimeout) goes silent:
 * each is a report with complete = false and a failure reason. A problem
 * at start (the directory cannot be created, Local cannot be bound) is
 * reported through the Failed trace and GetFailure.
 */
class RudpFileReceiver : public Application
{
  public:
    /**
     * \brief Callback signature of the FileReceived trace.
     * \param [in] report what arrived
     */
    typedef void (*FileReceivedCallback)(const RudpFileReport& report);

    /// Counters over every connection.
    struct Stats
    {
        uint64_t filesComplete{0};    ///< files verified (and stored under their final name)
        uint64_t filesFailed{0};      ///< transfers reported with complete = false
        uint64_t digestMismatches{0}; ///< files whose SHA-256 differed from the trailer
        uint64_t diskErrors{0};       ///< failures to create, write, read back, close, rename
        uint64_t discardedBytes{0};   ///< bytes after a transfer was reported (discarded)
    };

    /// Longest sanitised name (bytes): room for " (n)" and ".partial" under NAME_MAX 255.
    static constexpr size_t MAX_NAME_BYTES = 200;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpFileReceiver();
    ~RudpFileReceiver() override;

    /// \return the reports of every finished connection, in order
    const std::vector<RudpFileReport>& GetReports() const;
    /// \return the listening socket (null before the application starts, or if it
    ///         could not bind)
    Ptr<Socket> GetListeningSocket() const;
    /// \return the accepted connection sockets, in order
    std::vector<Ptr<Socket>> GetAcceptedSockets() const;
    /// \return the counters
    const Stats& GetStats() const;
    /// \return true if the application had a problem at start (see GetFailure)
    bool HasFailed() const;
    /// \return what went wrong at start: OutputDirectory cannot be created (each
    ///         file is then reported failed), or Local cannot be bound (nothing is
    ///         received); "" if nothing did
    std::string GetFailure() const;

    /**
     * \brief The name a file is stored under, from the name a peer announced.
     *
     * Directory parts (up to the last '/' or '\\') are dropped; NUL, other
     * control characters (C0, DEL, C1) and bytes that are not valid UTF-8
     * become '_'; "", "." and ".." become "unnamed"; a name longer than
     * MAX_NAME_BYTES is cut, keeping its extension and whole UTF-8
     * characters. The result is valid UTF-8 and a plain file name.
     *
     * \param announced the name as received
     * \return the sanitised name
     */
    static std::string SanitizeName(const std::string& announced);

  protected:
    void DoDispose() override;

  private:
    /// Where a connection's stream is.
    enum Stage
    {
        READING_RECORD,  ///< reading the name/length record
        READING_FILE,    ///< reading the file's bytes
        READING_TRAILER, ///< reading the SHA-256 trailer
        REPORTED         ///< reported; later bytes are discarded
    };

    /// One connection: one file.
    struct Transfer
    {
        ~Transfer();

        Ptr<Socket> socket;
        Stage stage{READING_RECORD};
        std::vector<uint8_t> record;  ///< bytes of the name/length record so far
        RudpSha256::Digest trailer{}; ///< the trailer's bytes so far
        size_t trailerBytes{0};       ///< how many
        int fd{-1};                   ///< the ".partial" file, open while writing
        std::string partialPath;      ///< its path ("" if not stored)
        std::string finalPath;        ///< the path it is renamed to when complete
        std::vector<uint8_t> buffer;  ///< file bytes not yet written
        RudpSha256 sha;               ///< digest of the received bytes (when not stored)
        RudpFileReport report;
        Time lastActivity; ///< when bytes last arrived (or the connection was accepted)
        EventId idleEvent; ///< checks IdleTimeout
    };

    void StartApplication() override;
    void StopApplication() override;
    void HandleAccept(Ptr<Socket> socket, const Address& from);
    void HandleRead(Ptr<Socket> socket);
    void HandlePeerClose(Ptr<Socket> socket);
    void HandlePeerError(Ptr<Socket> socket);
    void CheckIdle(Ptr<Socket> socket);

    /// Consumes \p size stream bytes at \p data.
    void Consume(Transfer& transfer, const uint8_t* data, size_t size);
    /// Consumes the record's bytes; \return how many of \p size were the record's
    size_t ParseRecord(Transfer& transfer, const uint8_t* data, size_t size);
    /// Creates the ".partial" file under a free name; \return false (reported) if it cannot
    bool CreateFile(Transfer& transfer);
    /// Takes file bytes; \return false (reported) on a write error
    bool TakeFileBytes(Transfer& transfer, const uint8_t* data, size_t size);
    /// Writes the buffered file bytes; \return false (reported) on a write error
    bool Flush(Transfer& transfer);
    /// Every byte and the trailer arrived: checks the digest, renames, reports.
    void Conclude(Transfer& transfer);
    /// \return the digest of the ".partial" file, re-read; false (reported) on an error
    bool DigestWrittenFile(Transfer& transfer, RudpSha256::Digest& digest);
    /// Renames the ".partial" file to a free final name; \return false (reported) if not
    bool Publish(Transfer& transfer);
    /// Reports \p transfer failed for \p reason, removing (or keeping) its partial file.
    void Fail(Transfer& transfer, const std::string& reason, bool diskError = false);
    /// Reports \p transfer, complete or not.
    void Report(Transfer& transfer);
    /// \return "after 10 of 20 file bytes" and the like: how far \p transfer got
    static std::string Progress(const Transfer& transfer);
    /// Ends a connection that stopped before its file was reported.
    void EndEarly(Ptr<Socket> socket, const std::string& why);
    /// \return the candidate final name number \p n for sanitised \p name ("name (n).ext")
    static std::string Candidate(const std::string& name, uint32_t n);

    Address m_local;
    TypeId m_protocol;
    std::string m_outputDirectory;
    bool m_keepPartial{false};
    Time m_idleTimeout;

    Ptr<Socket> m_listener;
    std::map<Ptr<Socket>, std::unique_ptr<Transfer>> m_transfers;
    std::vector<Ptr<Socket>> m_accepted;
    std::vector<RudpFileReport> m_reports;
    Stats m_stats;
    std::string m_failure;

    TracedCallback<const RudpFileReport&> m_fileReceivedTrace;
    TracedCallback<Ptr<const Packet>, const Address&> m_rxTrace;
    TracedCallback<const std::string&> m_failedTrace;
};

} // namespace ns3

#endif /* RUDP_FILE_RECEIVER_H */
