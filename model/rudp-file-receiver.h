/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_FILE_RECEIVER_H
#define RUDP_FILE_RECEIVER_H

#include "rudp-sha256.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <fstream>
#include <map>
#include <memory>
#include <vector>

namespace ns3
{

class Socket;

/**
 * \ingroup rudp
 * \brief What RudpFileReceiver got over one connection.
 */
struct RudpFileReport
{
    std::string name;     ///< file name the sender announced
    std::string path;     ///< where it was written ("" if not stored)
    uint64_t size{0};     ///< length the sender announced (bytes)
    uint64_t bytes{0};    ///< file bytes received (bytes)
    std::string sha256;   ///< SHA-256 of the bytes received (when complete)
    bool complete{false}; ///< every announced byte arrived
    Address peer;         ///< the sender
    Time acceptTime;      ///< when the connection was accepted
    Time firstByteTime;   ///< when the first file byte arrived
    Time lastByteTime;    ///< when the last file byte arrived

    /// \return file bytes per second from acceptance to the last byte
    double ThroughputBps() const;
};

/**
 * \ingroup rudp
 * \brief Receives files over a stream socket (seed 000's server).
 *
 * Listens on Local and accepts any number of connections, each carrying one
 * file as RudpFileSender sends it. The file is written into
 * OutputDirectory as it arrives — streamed, never held whole in memory — and
 * its SHA-256 computed on the way. When every announced byte has arrived,
 * or the connection ends early, the FileReceived trace reports it, and the
 * receiver closes its side (seed 000's server answers the client's FIN with
 * its own).
 */
class RudpFileReceiver : public Application
{
  public:
    /**
     * \brief Callback signature of the FileReceived trace.
     * \param [in] report what arrived
     */
    typedef void (*FileReceivedCallback)(const RudpFileReport& report);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RudpFileReceiver();
    ~RudpFileReceiver() override;

    /// \return the reports of every finished connection, in order
    const std::vector<RudpFileReport>& GetReports() const;
    /// \return the listening socket (null before the application starts)
    Ptr<Socket> GetListeningSocket() const;
    /// \return the accepted connection sockets, in order
    std::vector<Ptr<Socket>> GetAcceptedSockets() const;

  protected:
    void DoDispose() override;

  private:
    /// One connection: one file.
    struct Transfer
    {
        Ptr<Socket> socket;
        std::vector<uint8_t> record; ///< bytes of the name/length record so far
        bool recordDone{false};
        std::ofstream out;
        RudpSha256 sha;
        RudpFileReport report;
        bool finished{false};
    };

    void StartApplication() override;
    void StopApplication() override;
    void HandleAccept(Ptr<Socket> socket, const Address& from);
    void HandleRead(Ptr<Socket> socket);
    void HandlePeerClose(Ptr<Socket> socket);
    void HandlePeerError(Ptr<Socket> socket);
    /// Consumes the record's bytes; \return how many of \p size were the record's
    size_t ParseRecord(Transfer& transfer, const uint8_t* data, size_t size);
    void Finish(Transfer& transfer);

    Address m_local;
    TypeId m_protocol;
    std::string m_outputDirectory;

    Ptr<Socket> m_listener;
    std::map<Ptr<Socket>, std::unique_ptr<Transfer>> m_transfers;
    std::vector<Ptr<Socket>> m_accepted;
    std::vector<RudpFileReport> m_reports;

    TracedCallback<const RudpFileReport&> m_fileReceivedTrace;
    TracedCallback<Ptr<const Packet>, const Address&> m_rxTrace;
};

} // namespace ns3

#endif /* RUDP_FILE_RECEIVER_H */
