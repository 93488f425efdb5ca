/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-file-receiver.h"

#include "rudp-socket-factory.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpFileReceiver");

NS_OBJECT_ENSURE_REGISTERED(RudpFileReceiver);

namespace
{

/// File bytes gathered before a write(2).
constexpr size_t WRITE_BUFFER_BYTES = 1 << 16;
/// Names tried ("name", "name (1)", ...) before a transfer fails for want of one.
constexpr uint32_t MAX_CANDIDATES = 10000;
/// Added to a file's name while it is written.
const std::string PARTIAL_SUFFIX = ".partial";
/// Longest extension SanitizeName keeps when it cuts a name (bytes, the dot included).
constexpr size_t MAX_EXTENSION_BYTES = 32;

/// \return the text of errno value \p error
std::string
ErrorText(int error)
{
    return std::strerror(error);
}

/**
 * \return the length of the well-formed UTF-8 sequence (RFC 3629, table 3-7
 * of Unicode) that starts at \p s[i], or 0 if none does there
 */
size_t
Utf8Length(const std::string& s, size_t i)
{
    const auto at = [&s](size_t k) { return static_cast<uint8_t>(s[k]); };
    const auto inRange = [&](size_t k, uint8_t low, uint8_t high) {
        return k < s.size() && at(k) >= low && at(k) <= high;
    };
    const uint8_t c = at(i);
    if (c < 0x80)
    {
        return 1;
    }
    if (c >= 0xc2 && c <= 0xdf)
    {
        return inRange(i + 1, 0x80, 0xbf) ? 2 : 0;
    }
    if (c >= 0xe0 && c <= 0xef)
    {
        const uint8_t low = c == 0xe0 ? 0xa0 : 0x80;  // no overlong forms
        const uint8_t high = c == 0xed ? 0x9f : 0xbf; // no surrogates
        return inRange(i + 1, low, high) && inRange(i + 2, 0x80, 0xbf) ? 3 : 0;
    }
    if (c >= 0xf0 && c <= 0xf4)
    {
        const uint8_t low = c == 0xf0 ? 0x90 : 0x80;  // no overlong forms
        const uint8_t high = c == 0xf4 ? 0x8f : 0xbf; // nothing above U+10FFFF
        return inRange(i + 1, low, high) && inRange(i + 2, 0x80, 0xbf) && inRange(i + 3, 0x80, 0xbf)
                   ? 4
                   : 0;
    }
    return 0;
}

/**
 * Writes all \p size bytes at \p data to \p fd.
 * \return 0, or the errno of the write that failed
 */
int
WriteAll(int fd, const uint8_t* data, size_t size)
{
    size_t done = 0;
    while (done < size)
    {
        const ssize_t n = ::write(fd, data + done, size - done);
        if (n < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            return errno;
        }
        if (n == 0)
        {
            return EIO; // a regular file never takes nothing
        }
        done += static_cast<size_t>(n);
    }
    return 0;
}

/// \return true if nothing, not even a dangling symlink, is at \p path; \p error if unknown
bool
IsFree(const std::string& path, std::error_code& error)
{
    const auto status = std::filesystem::symlink_status(path, error);
    if (status.type() == std::filesystem::file_type::not_found)
    {
        error.clear();
        return true;
    }
    return false;
}

/// \return \p address as "10.1.1.1:49153" when it is an IPv4 or IPv6 socket address
std::string
AddressText(const Address& address)
{
    std::ostringstream os;
    if (InetSocketAddress::IsMatchingType(address))
    {
        const InetSocketAddress inet = InetSocketAddress::ConvertFrom(address);
        os << inet.GetIpv4() << ":" << inet.GetPort();
    }
    else if (Inet6SocketAddress::IsMatchingType(address))
    {
        const Inet6SocketAddress inet6 = Inet6SocketAddress::ConvertFrom(address);
        os << "[" << inet6.GetIpv6() << "]:" << inet6.GetPort();
    }
    else
    {
        os << address;
    }
    return os.str();
}

} // namespace

double
RudpFileReport::ThroughputBps() const
{
    const double seconds = (lastByteTime - acceptTime).GetSeconds();
    return seconds > 0 ? bytes / seconds : 0;
}

TypeId
RudpFileReceiver::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RudpFileReceiver")
            .SetParent<Application>()
            .SetGroupName("Rudp")
            .AddConstructor<RudpFileReceiver>()
            .AddAttribute("Local",
                          "The address to listen on.",
                          AddressValue(),
                          MakeAddressAccessor(&RudpFileReceiver::m_local),
                          MakeAddressChecker())
            .AddAttribute("Protocol",
                          "The stream socket factory to use.",
                          TypeIdValue(RudpSocketFactory::GetTypeId()),
                          MakeTypeIdAccessor(&RudpFileReceiver::m_protocol),
                          MakeTypeIdChecker())
            .AddAttribute("OutputDirectory",
                          "Where received files are written (created if missing): as "
                          "'<name>.partial', renamed to '<name>' once the SHA-256 trailer "
                          "matched. Empty: files are only digested, not stored.",
                          StringValue(""),
                          MakeStringAccessor(&RudpFileReceiver::m_outputDirectory),
                          MakeStringChecker())
            .AddAttribute("KeepPartial",
                          "Keep a failed transfer's bytes as '<name>.partial' (false: "
                          "remove them).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RudpFileReceiver::m_keepPartial),
                          MakeBooleanChecker())
            .AddAttribute("IdleTimeout",
                          "A connection that brings no byte for this long before its file is "
                          "reported is reported failed and closed (0: wait forever).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&RudpFileReceiver::m_idleTimeout),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("FileReceived",
                            "A transfer ended: what arrived, complete or with a failure reason",
                            MakeTraceSourceAccessor(&RudpFileReceiver::m_fileReceivedTrace),
                            "ns3::RudpFileReceiver::FileReceivedCallback")
            .AddTraceSource("Rx",
                            "Bytes read from a connection, and its peer",
                            MakeTraceSourceAccessor(&RudpFileReceiver::m_rxTrace),
                            "ns3::Packet::AddressTracedCallback")
            .AddTraceSource("Failed",
                            "The application could not start as configured: the reason",
                            MakeTraceSourceAccessor(&RudpFileReceiver::m_failedTrace),
                            "ns3::RudpSocket::FailureTracedCallback");
    return tid;
}

RudpFileReceiver::RudpFileReceiver() = default;

RudpFileReceiver::~RudpFileReceiver() = default;

RudpFileReceiver::Transfer::~Transfer()
{
    if (fd >= 0)
    {
        ::close(fd);
    }
}

void
RudpFileReceiver::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& entry : m_transfers)
    {
        Transfer& transfer = *entry.second;
        transfer.idleEvent.Cancel();
        if (transfer.stage != REPORTED && !transfer.partialPath.empty())
        {
            // Never reported (the simulation ended first): nothing under the
            // final name, and no partial file unless asked for.
            if (transfer.fd >= 0)
            {
                if (m_keepPartial)
                {
                    WriteAll(transfer.fd, transfer.buffer.data(), transfer.buffer.size());
                }
                ::close(transfer.fd);
                transfer.fd = -1;
            }
            if (!m_keepPartial)
            {
                ::unlink(transfer.partialPath.c_str());
            }
        }
    }
    m_listener = nullptr;
    m_transfers.clear();
    m_accepted.clear();
    Application::DoDispose();
}

const std::vector<RudpFileReport>&
RudpFileReceiver::GetReports() const
{
    return m_reports;
}

Ptr<Socket>
RudpFileReceiver::GetListeningSocket() const
{
    return m_listener;
}

std::vector<Ptr<Socket>>
RudpFileReceiver::GetAcceptedSockets() const
{
    return m_accepted;
}

const RudpFileReceiver::Stats&
RudpFileReceiver::GetStats() const
{
    return m_stats;
}

bool
RudpFileReceiver::HasFailed() const
{
    return !m_failure.empty();
}

std::string
RudpFileReceiver::GetFailure() const
{
    return m_failure;
}

std::string
RudpFileReceiver::SanitizeName(const std::string& announced)
{
    // Only a plain file name: a sender must not choose where we write.
    const size_t separator = announced.find_last_of("/\\");
    const std::string base =
        separator == std::string::npos ? announced : announced.substr(separator + 1);
    std::string name;
    for (size_t i = 0; i < base.size();)
    {
        const size_t length = Utf8Length(base, i);
        const auto c = static_cast<uint8_t>(base[i]);
        const bool control = (length == 1 && (c < 0x20 || c == 0x7f)) ||
                             (length == 2 && c == 0xc2 && static_cast<uint8_t>(base[i + 1]) < 0xa0);
        if (length == 0 || control)
        {
            name += '_'; // one per invalid byte or control character
            i += std::max<size_t>(length, 1);
            continue;
        }
        name.append(base, i, length);
        i += length;
    }
    if (name.empty() || name == "." || name == "..")
    {
        return "unnamed";
    }
    if (name.size() > MAX_NAME_BYTES)
    {
        const size_t dot = name.rfind('.');
        const std::string extension =
            dot != std::string::npos && dot > 0 && name.size() - dot <= MAX_EXTENSION_BYTES
                ? name.substr(dot)
                : std::string();
        size_t keep = MAX_NAME_BYTES - extension.size();
        while (keep > 0 && (static_cast<uint8_t>(name[keep]) & 0xc0) == 0x80)
        {
            --keep; // not inside a character
        }
        name = name.substr(0, keep) + extension;
    }
    return name;
}

std::string
RudpFileReceiver::Candidate(const std::string& name, uint32_t n)
{
    if (n == 0)
    {
        return name;
    }
    const size_t dot = name.rfind('.');
    const bool hasExtension = dot != std::string::npos && dot > 0;
    const std::string stem = hasExtension ? name.substr(0, dot) : name;
    const std::string extension = hasExtension ? name.substr(dot) : std::string();
    return stem + " (" + std::to_string(n) + ")" + extension;
}

void
RudpFileReceiver::StartApplication()
{
    NS_LOG_FUNCTION(this);
    std::vector<std::string> problems;
    if (!m_outputDirectory.empty())
    {
        std::error_code error;
        std::filesystem::create_directories(m_outputDirectory, error);
        if (error || !std::filesystem::is_directory(m_outputDirectory, error))
        {
            // Not fatal: each file is reported failed, with this reason.
            problems.push_back("ns3::RudpFileReceiver::OutputDirectory: cannot create '" +
                               m_outputDirectory +
                               "': " + (error ? error.message() : "not a directory"));
        }
    }
    m_listener = Socket::CreateSocket(GetNode(), m_protocol);
    if (m_listener->Bind(m_local) != 0 || m_listener->Listen() != 0)
    {
        problems.push_back("ns3::RudpFileReceiver::Local: cannot listen (Socket::SocketErrno " +
                           std::to_string(m_listener->GetErrno()) + ")");
        m_listener->Close();
        m_listener = nullptr;
    }
    else
    {
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&RudpFileReceiver::HandleAccept, this));
    }
    for (const auto& problem : problems)
    {
        NS_LOG_WARN(problem);
        m_failure += (m_failure.empty() ? "" : "; ") + problem;
        m_failedTrace(problem);
    }
}

void
RudpFileReceiver::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_listener)
    {
        m_listener->Close();
    }
    for (auto& entry : m_transfers)
    {
        if (entry.second->stage != REPORTED)
        {
            Fail(*entry.second, "the receiver stopped " + Progress(*entry.second));
        }
        entry.first->Close();
    }
}

void
RudpFileReceiver::HandleAccept(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    auto transfer = std::make_unique<Transfer>();
    transfer->socket = socket;
    transfer->report.peer = from;
    transfer->report.acceptTime = Simulator::Now();
    transfer->lastActivity = Simulator::Now();
    if (m_idleTimeout.IsStrictlyPositive())
    {
        transfer->idleEvent =
            Simulator::Schedule(m_idleTimeout, &RudpFileReceiver::CheckIdle, this, socket);
    }
    m_transfers[socket] = std::move(transfer);
    m_accepted.push_back(socket);
    socket->SetRecvCallback(MakeCallback(&RudpFileReceiver::HandleRead, this));
    socket->SetCloseCallbacks(MakeCallback(&RudpFileReceiver::HandlePeerClose, this),
                              MakeCallback(&RudpFileReceiver::HandlePeerError, this));
}

size_t
RudpFileReceiver::ParseRecord(Transfer& transfer, const uint8_t* data, size_t size)
{
    size_t used = 0;
    auto& record = transfer.record;
    while (used < size && transfer.stage == READING_RECORD)
    {
        // Up to the name length, then up to the end of the record.
        size_t wanted = 2 - std::min<size_t>(record.size(), 2);
        if (wanted == 0)
        {
            const size_t nameLength = (static_cast<size_t>(record[0]) << 8) | record[1];
            wanted = 2 + nameLength + 8 - record.size();
        }
        const size_t take = std::min(wanted, size - used);
        record.insert(record.end(), data + used, data + used + take);
        used += take;
        if (record.size() < 2 || take < wanted)
        {
            continue;
        }
        const size_t nameLength = (static_cast<size_t>(record[0]) << 8) | record[1];
        if (record.size() < 2 + nameLength + 8)
        {
            continue;
        }
        const std::string announced(record.begin() + 2, record.begin() + 2 + nameLength);
        uint64_t fileSize = 0;
        for (size_t k = 0; k < 8; ++k)
        {
            fileSize = (fileSize << 8) | record[2 + nameLength + k];
        }
        record.clear();
        record.shrink_to_fit();
        transfer.report.name = SanitizeName(announced);
        transfer.report.size = fileSize;
        transfer.stage = READING_FILE;
        NS_LOG_INFO("file '" << transfer.report.name << "', " << fileSize << " bytes");
        if (fileSize == 0)
        {
            // An empty file is all there once its record is.
            transfer.report.firstByteTime = Simulator::Now();
            transfer.report.lastByteTime = Simulator::Now();
        }
        if (!m_outputDirectory.empty())
        {
            CreateFile(transfer); // reports a failure itself
        }
    }
    return used;
}

bool
RudpFileReceiver::CreateFile(Transfer& transfer)
{
    std::error_code error;
    std::filesystem::create_directories(m_outputDirectory, error);
    if (error || !std::filesystem::is_directory(m_outputDirectory, error))
    {
        Fail(transfer,
             "ns3::RudpFileReceiver::OutputDirectory: cannot create '" + m_outputDirectory +
                 "': " + (error ? error.message() : "not a directory"),
             true);
        return false;
    }
    const std::filesystem::path directory(m_outputDirectory);
    for (uint32_t n = 0; n < MAX_CANDIDATES; ++n)
    {
        // A name is taken by anything on disk, a symlink or a directory
        // included, and by a transfer in progress, which holds
        // "<name>.partial": a name created exclusively (O_EXCL refuses
        // symlinks), so that two transfers never write one file.
        const std::string finalPath = (directory / Candidate(transfer.report.name, n)).string();
        if (!IsFree(finalPath, error))
        {
            if (error)
            {
                Fail(transfer, "cannot inspect '" + finalPath + "': " + error.message(), true);
                return false;
            }
            continue;
        }
        const std::string partialPath = finalPath + PARTIAL_SUFFIX;
        int flags = O_RDWR | O_CREAT | O_EXCL;
#ifdef O_NOFOLLOW
        flags |= O_NOFOLLOW;
#endif
#ifdef O_CLOEXEC
        flags |= O_CLOEXEC;
#endif
        const int fd = ::open(partialPath.c_str(), flags, 0666);
        if (fd < 0)
        {
            const int openError = errno;
            if (openError == EEXIST)
            {
                continue;
            }
            Fail(transfer, "cannot create '" + partialPath + "': " + ErrorText(openError), true);
            return false;
        }
        transfer.fd = fd;
        transfer.partialPath = partialPath;
        transfer.finalPath = finalPath;
        transfer.buffer.reserve(WRITE_BUFFER_BYTES);
        NS_LOG_LOGIC("writing '" << partialPath << "'");
        return true;
    }
    Fail(transfer,
         "no free name for '" + transfer.report.name + "' in '" + m_outputDirectory + "' (" +
             std::to_string(MAX_CANDIDATES) + " tried)",
         true);
    return false;
}

bool
RudpFileReceiver::TakeFileBytes(Transfer& transfer, const uint8_t* data, size_t size)
{
    if (transfer.partialPath.empty())
    {
        transfer.sha.Update(data, size); // not stored: digest what arrived
        return true;
    }
    transfer.buffer.insert(transfer.buffer.end(), data, data + size);
    return transfer.buffer.size() < WRITE_BUFFER_BYTES || Flush(transfer);
}

bool
RudpFileReceiver::Flush(Transfer& transfer)
{
    const int error = WriteAll(transfer.fd, transfer.buffer.data(), transfer.buffer.size());
    if (error != 0)
    {
        Fail(transfer, "writing '" + transfer.partialPath + "' failed: " + ErrorText(error), true);
        return false;
    }
    transfer.buffer.clear();
    return true;
}

void
RudpFileReceiver::Consume(Transfer& transfer, const uint8_t* data, size_t size)
{
    size_t used = 0;
    if (transfer.stage == READING_RECORD)
    {
        used += ParseRecord(transfer, data, size);
    }
    if (transfer.stage == READING_FILE)
    {
        const auto take = static_cast<size_t>(
            std::min<uint64_t>(size - used, transfer.report.size - transfer.report.bytes));
        if (take > 0)
        {
            if (transfer.report.bytes == 0)
            {
                transfer.report.firstByteTime = Simulator::Now();
            }
            transfer.report.bytes += take;
            transfer.report.lastByteTime = Simulator::Now();
            const bool written = TakeFileBytes(transfer, data + used, take);
            used += take;
            if (!written)
            {
                m_stats.discardedBytes += size - used;
                return;
            }
        }
        if (transfer.report.bytes == transfer.report.size)
        {
            transfer.stage = READING_TRAILER;
        }
    }
    if (transfer.stage == READING_TRAILER)
    {
        const size_t take = std::min(size - used, transfer.trailer.size() - transfer.trailerBytes);
        std::copy(data + used,
                  data + used + take,
                  transfer.trailer.begin() + transfer.trailerBytes);
        transfer.trailerBytes += take;
        used += take;
        if (transfer.trailerBytes == transfer.trailer.size())
        {
            Conclude(transfer);
        }
    }
    if (used < size)
    {
        // After the trailer (a sender that sent more than its stream) or
        // after a failure: nothing can change what was reported.
        if (transfer.report.complete)
        {
            NS_LOG_WARN("discarding " << size - used << " bytes the sender of '"
                                      << transfer.report.name << "' sent after its trailer");
        }
        else
        {
            NS_LOG_LOGIC("discarding " << size - used << " bytes of a failed transfer");
        }
        m_stats.discardedBytes += size - used;
    }
}

bool
RudpFileReceiver::DigestWrittenFile(Transfer& transfer, RudpSha256::Digest& digest)
{
    // The bytes on disk, re-read: what a write(2) took is what is checked.
    struct stat status;
    if (::fstat(transfer.fd, &status) != 0)
    {
        Fail(transfer,
             "cannot read back '" + transfer.partialPath + "': " + ErrorText(errno),
             true);
        return false;
    }
    if (static_cast<uint64_t>(status.st_size) != transfer.report.size)
    {
        Fail(transfer,
             "'" + transfer.partialPath + "' holds " + std::to_string(status.st_size) +
                 " bytes, not the " + std::to_string(transfer.report.size) + " received",
             true);
        return false;
    }
    RudpSha256 sha;
    std::vector<uint8_t> chunk(WRITE_BUFFER_BYTES);
    uint64_t offset = 0;
    while (offset < transfer.report.size)
    {
        const auto want =
            static_cast<size_t>(std::min<uint64_t>(chunk.size(), transfer.report.size - offset));
        const ssize_t n = ::pread(transfer.fd, chunk.data(), want, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR)
        {
            continue;
        }
        if (n <= 0)
        {
            Fail(transfer,
                 "cannot read back '" + transfer.partialPath +
                     "': " + (n < 0 ? ErrorText(errno) : "it ended early"),
                 true);
            return false;
        }
        sha.Update(chunk.data(), static_cast<size_t>(n));
        offset += static_cast<uint64_t>(n);
    }
    digest = sha.FinishDigest();
    return true;
}

void
RudpFileReceiver::Conclude(Transfer& transfer)
{
    const bool stored = !transfer.partialPath.empty();
    RudpSha256::Digest digest;
    if (stored)
    {
        if (!Flush(transfer) || !DigestWrittenFile(transfer, digest))
        {
            return;
        }
    }
    else
    {
        digest = transfer.sha.FinishDigest();
    }
    transfer.report.sha256 = RudpSha256::ToHex(digest.data(), digest.size());
    if (digest != transfer.trailer)
    {
        ++m_stats.digestMismatches;
        Fail(transfer,
             "SHA-256 mismatch: the " + std::to_string(transfer.report.size) + " bytes " +
                 (stored ? "written" : "received") + " hash to " + transfer.report.sha256 +
                 ", the sender's trailer says " +
                 RudpSha256::ToHex(transfer.trailer.data(), transfer.trailer.size()));
        return;
    }
    if (stored)
    {
        const int fd = transfer.fd;
        transfer.fd = -1;
        if (::close(fd) != 0)
        {
            Fail(transfer,
                 "closing '" + transfer.partialPath + "' failed: " + ErrorText(errno),
                 true);
            return;
        }
        if (!Publish(transfer))
        {
            return;
        }
        transfer.report.path = transfer.finalPath;
    }
    transfer.report.complete = true;
    ++m_stats.filesComplete;
    NS_LOG_INFO("file '" << transfer.report.name << "' complete, " << transfer.report.size
                         << " bytes, SHA-256 " << transfer.report.sha256);
    Report(transfer);
}

bool
RudpFileReceiver::Publish(Transfer& transfer)
{
    // Renamed without replacing anything: link(2) fails if the name was
    // taken meanwhile (by another program: this receiver's transfers hold
    // their names), and the next free name is used.
    const std::filesystem::path directory(m_outputDirectory);
    std::string target = transfer.finalPath;
    for (uint32_t n = 1; n <= MAX_CANDIDATES; ++n)
    {
        if (::link(transfer.partialPath.c_str(), target.c_str()) == 0)
        {
            if (::unlink(transfer.partialPath.c_str()) != 0)
            {
                NS_LOG_WARN("cannot remove '" << transfer.partialPath << "': " << ErrorText(errno));
            }
            transfer.finalPath = target;
            return true;
        }
        const int linkError = errno;
        if (linkError != EEXIST)
        {
            // No hard links on this file system: rename, if the name is free.
            std::error_code error;
            if (IsFree(target, error))
            {
                if (::rename(transfer.partialPath.c_str(), target.c_str()) == 0)
                {
                    transfer.finalPath = target;
                    return true;
                }
                Fail(transfer,
                     "cannot rename '" + transfer.partialPath + "' to '" + target +
                         "': " + ErrorText(errno),
                     true);
                return false;
            }
            if (error)
            {
                Fail(transfer, "cannot inspect '" + target + "': " + error.message(), true);
                return false;
            }
        }
        target = (directory / Candidate(transfer.report.name, n)).string();
    }
    Fail(transfer,
         "no free name for '" + transfer.report.name + "' in '" + m_outputDirectory + "' (" +
             std::to_string(MAX_CANDIDATES) + " tried)",
         true);
    return false;
}

void
RudpFileReceiver::Fail(Transfer& transfer, const std::string& reason, bool diskError)
{
    if (transfer.stage == REPORTED)
    {
        return;
    }
    NS_LOG_WARN("transfer from " << AddressText(transfer.report.peer) << " ('"
                                 << transfer.report.name << "') failed: " << reason);
    if (diskError)
    {
        ++m_stats.diskErrors;
    }
    if (transfer.fd >= 0)
    {
        if (m_keepPartial && !diskError)
        {
            WriteAll(transfer.fd, transfer.buffer.data(), transfer.buffer.size());
        }
        ::close(transfer.fd);
        transfer.fd = -1;
    }
    transfer.buffer.clear();
    transfer.buffer.shrink_to_fit();
    if (!transfer.partialPath.empty())
    {
        if (m_keepPartial)
        {
            transfer.report.path = transfer.partialPath;
        }
        else
        {
            ::unlink(transfer.partialPath.c_str());
            transfer.report.path.clear();
        }
    }
    transfer.report.complete = false;
    transfer.report.failure = reason;
    ++m_stats.filesFailed;
    Report(transfer);
}

void
RudpFileReceiver::Report(Transfer& transfer)
{
    transfer.stage = REPORTED;
    transfer.idleEvent.Cancel();
    m_reports.push_back(transfer.report);
    m_fileReceivedTrace(transfer.report);
}

std::string
RudpFileReceiver::Progress(const Transfer& transfer)
{
    switch (transfer.stage)
    {
    case READING_RECORD:
        return "before the name/length record was complete (" +
               std::to_string(transfer.record.size()) + " bytes of it)";
    case READING_FILE:
        return "after " + std::to_string(transfer.report.bytes) + " of " +
               std::to_string(transfer.report.size) + " file bytes";
    case READING_TRAILER:
        return "after all " + std::to_string(transfer.report.size) + " file bytes but " +
               std::to_string(transfer.trailerBytes) + " of the " +
               std::to_string(transfer.trailer.size()) + " bytes of the SHA-256 trailer";
    default:
        return "after it was reported";
    }
}

void
RudpFileReceiver::HandleRead(Ptr<Socket> socket)
{
    auto it = m_transfers.find(socket);
    if (it == m_transfers.end())
    {
        return;
    }
    Transfer& transfer = *it->second;
    Ptr<Packet> packet;
    Address from;
    std::vector<uint8_t> bytes;
    while ((packet = socket->RecvFrom(from)))
    {
        if (packet->GetSize() == 0)
        {
            break;
        }
        m_rxTrace(packet, from);
        transfer.lastActivity = Simulator::Now();
        bytes.resize(packet->GetSize());
        packet->CopyData(bytes.data(), bytes.size());
        Consume(transfer, bytes.data(), bytes.size());
    }
}

void
RudpFileReceiver::EndEarly(Ptr<Socket> socket, const std::string& why)
{
    auto it = m_transfers.find(socket);
    if (it != m_transfers.end() && it->second->stage != REPORTED)
    {
        Fail(*it->second, why + " " + Progress(*it->second));
    }
}

void
RudpFileReceiver::HandlePeerClose(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    HandleRead(socket); // whatever is still buffered
    EndEarly(socket, "the sender closed the connection");
    socket->Close(); // seed 000: the server closes its side in turn
}

void
RudpFileReceiver::HandlePeerError(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    HandleRead(socket);
    EndEarly(socket, "the connection failed");
}

void
RudpFileReceiver::CheckIdle(Ptr<Socket> socket)
{
    auto it = m_transfers.find(socket);
    if (it == m_transfers.end() || it->second->stage == REPORTED)
    {
        return;
    }
    Transfer& transfer = *it->second;
    const Time idle = Simulator::Now() - transfer.lastActivity;
    if (idle < m_idleTimeout)
    {
        transfer.idleEvent =
            Simulator::Schedule(m_idleTimeout - idle, &RudpFileReceiver::CheckIdle, this, socket);
        return;
    }
    std::ostringstream why;
    why << "nothing arrived for " << m_idleTimeout.GetSeconds() << " s (IdleTimeout)";
    Fail(transfer, why.str() + " " + Progress(transfer));
    socket->Close();
}

} // namespace ns3
