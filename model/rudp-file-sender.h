/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_FILE_SENDER_H
#define RUDP_FILE_SENDER_H

#include "rudp-file-source.h"
#include "rudp-sha256.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/traced-callback.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class Socket;

/**
 * \ingroup rudp-apps
 * \brief Sends one file over a stream socket (seed 000's client).
 *
 * Connects to Remote, sends a record with the file's name and length — the
 * first data segment carries it, as in the seed — then the file's bytes,
 * then their SHA-256, and closes. The bytes come from a file on disk, read
 * in chunks of ChunkSize, or are generated from a seed (RudpFileSource).
 * The socket is handed what fits in its send buffer
 * (min(pending, GetTxAvailable())), so any ChunkSize works with any
 * SndBufSize.
 *
 * Stream: name length (2 bytes), name (UTF-8), file length (8 bytes), in
 * network byte order; the file's bytes; a 32-byte trailer, the raw SHA-256
 * of the file. RudpFileReceiver parses it and checks the trailer.
 *
 * The application never aborts the simulation: a File that cannot be read
 * at start, or a read error later, is reported through the Failed trace,
 * HasFailed and GetFailure (after a read error the connection is closed, so
 * the receiver reports an incomplete file).
 */
class RudpFileSender : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpFileSender();
    ~RudpFileSender() override;

    /// \return the socket (null before the application starts)
    Ptr<Socket> GetSocket() const;
    /// \return the file's SHA-256 once every byte was read, "" before
    std::string GetSourceSha256() const;
    /// \return the file's size (known once the application started)
    uint64_t GetFileSize() const;
    /// \return bytes handed to the socket, the record and the trailer included
    uint64_t GetBytesQueued() const;
    /// \return true if the transfer failed: File unreadable, connection failed or reset
    bool HasFailed() const;
    /// \return why the transfer failed, "" if it did not
    std::string GetFailure() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void ConnectionSucceeded(Ptr<Socket> socket);
    void ConnectionFailed(Ptr<Socket> socket);
    void DataSend(Ptr<Socket> socket, uint32_t available);
    void NormalClose(Ptr<Socket> socket);
    void ErrorClose(Ptr<Socket> socket);
    void SendData();
    /// Fills m_pending with the next bytes of the stream; \return false at its end
    bool Refill();
    void Failed(const std::string& reason);

    Address m_remote;
    TypeId m_protocol;
    std::string m_file;
    uint64_t m_size{0};
    uint64_t m_contentSeed{1};
    uint32_t m_chunkSize{16384};

    Ptr<Socket> m_socket;
    std::unique_ptr<RudpFileSource> m_source;
    RudpSha256 m_sha;
    std::string m_digest;
    std::vector<uint8_t> m_pending; ///< stream bytes not yet all taken by the socket
    size_t m_pendingOffset{0};      ///< of m_pending, bytes the socket took
    bool m_trailerQueued{false};    ///< the SHA-256 trailer is (or was) in m_pending
    uint64_t m_queued{0};
    bool m_connected{false};
    bool m_failed{false};
    std::string m_failure;

    TracedCallback<Ptr<const Packet>> m_txTrace;
    TracedCallback<const std::string&> m_failedTrace;
};

} // namespace ns3

#endif /* RUDP_FILE_SENDER_H */
