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

namespace ns3
{

class Socket;

/**
 * \ingroup rudp
 * \brief Sends one file over a stream socket (seed 000's client).
 *
 * Connects to Remote, sends a record with the file's name and length — the
 * first data segment carries it, as in the seed — then the file's bytes as
 * the socket's buffer takes them, and closes. The bytes come from a file on
 * disk, read in chunks, or are generated from a seed (RudpFileSource); their
 * SHA-256 is computed on the way, to compare with the receiver's.
 *
 * Record: name length (2 bytes), name (UTF-8), file length (8 bytes), in
 * network byte order; RudpFileReceiver parses it.
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
    /// \return bytes handed to the socket, the record included
    uint64_t GetBytesQueued() const;
    /// \return true if the connection failed or was reset
    bool HasFailed() const;

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
    Ptr<Packet> m_pending; ///< bytes read but not yet taken by the socket
    uint64_t m_queued{0};
    bool m_connected{false};
    bool m_failed{false};

    TracedCallback<Ptr<const Packet>> m_txTrace;
    TracedCallback<const std::string&> m_failedTrace;
};

} // namespace ns3

#endif /* RUDP_FILE_SENDER_H */
