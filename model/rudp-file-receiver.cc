/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-file-receiver.h"

#include "rudp-socket-factory.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <filesystem>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RudpFileReceiver");

NS_OBJECT_ENSURE_REGISTERED(RudpFileReceiver);

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
                          "Where received files are written (created if missing). Empty: "
                          "files are only digested, not stored.",
                          StringValue(""),
                          MakeStringAccessor(&RudpFileReceiver::m_outputDirectory),
                          MakeStringChecker())
            .AddTraceSource("FileReceived",
                            "A connection ended: what arrived (complete or not)",
                            MakeTraceSourceAccessor(&RudpFileReceiver::m_fileReceivedTrace),
                            "ns3::RudpFileReceiver::FileReceivedCallback")
            .AddTraceSource("Rx",
                            "Bytes read from a connection, and its peer",
                            MakeTraceSourceAccessor(&RudpFileReceiver::m_rxTrace),
                            "ns3::Packet::AddressTracedCallback");
    return tid;
}

RudpFileReceiver::RudpFileReceiver() = default;

RudpFileReceiver::~RudpFileReceiver() = default;

void
RudpFileReceiver::DoDispose()
{
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

void
RudpFileReceiver::StartApplication()
{
    NS_LOG_FUNCTION(this);
    if (!m_outputDirectory.empty())
    {
        std::error_code error;
        std::filesystem::create_directories(m_outputDirectory, error);
        NS_ABORT_MSG_IF(error,
                        "ns3::RudpFileReceiver::OutputDirectory: cannot create '"
                            << m_outputDirectory << "': " << error.message());
    }
    m_listener = Socket::CreateSocket(GetNode(), m_protocol);
    NS_ABORT_MSG_IF(m_listener->Bind(m_local) != 0,
                    "ns3::RudpFileReceiver::Local: cannot bind, errno " << m_listener->GetErrno());
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&RudpFileReceiver::HandleAccept, this));
}

void
RudpFileReceiver::StopApplication()
{
    if (m_listener)
    {
        m_listener->Close();
    }
    for (auto& [socket, transfer] : m_transfers)
    {
        Finish(*transfer);
        socket->Close();
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
    while (used < size && !transfer.recordDone)
    {
        record.push_back(data[used++]);
        if (record.size() < 2)
        {
            continue;
        }
        const size_t nameLength = (static_cast<size_t>(record[0]) << 8) | record[1];
        if (record.size() < 2 + nameLength + 8)
        {
            continue;
        }
        transfer.recordDone = true;
        std::string name(record.begin() + 2, record.begin() + 2 + nameLength);
        uint64_t fileSize = 0;
        for (size_t k = 0; k < 8; ++k)
        {
            fileSize = (fileSize << 8) | record[2 + nameLength + k];
        }
        // Only a plain file name: a sender must not choose where we write.
        name = std::filesystem::path(name).filename().string();
        if (name.empty() || name == "." || name == "..")
        {
            name = "unnamed";
        }
        transfer.report.name = name;
        transfer.report.size = fileSize;
        if (!m_outputDirectory.empty())
        {
            transfer.report.path = (std::filesystem::path(m_outputDirectory) / name).string();
            transfer.out.open(transfer.report.path, std::ios::binary | std::ios::trunc);
            NS_ABORT_MSG_UNLESS(transfer.out,
                                "ns3::RudpFileReceiver::OutputDirectory: cannot write '"
                                    << transfer.report.path << "'");
        }
    }
    return used;
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
        bytes.resize(packet->GetSize());
        packet->CopyData(bytes.data(), bytes.size());
        size_t offset = ParseRecord(transfer, bytes.data(), bytes.size());
        if (offset == bytes.size() || transfer.finished)
        {
            continue;
        }
        const uint64_t wanted = transfer.report.size - transfer.report.bytes;
        const size_t take = static_cast<size_t>(std::min<uint64_t>(bytes.size() - offset, wanted));
        if (transfer.report.bytes == 0 && take > 0)
        {
            transfer.report.firstByteTime = Simulator::Now();
        }
        transfer.sha.Update(bytes.data() + offset, take);
        if (transfer.out.is_open())
        {
            transfer.out.write(reinterpret_cast<const char*>(bytes.data() + offset),
                               static_cast<std::streamsize>(take));
        }
        transfer.report.bytes += take;
        transfer.report.lastByteTime = Simulator::Now();
        NS_ABORT_MSG_IF(take < bytes.size() - offset,
                        "sender '" << transfer.report.name << "' sent more than it announced");
    }
    if (transfer.recordDone && !transfer.finished && transfer.report.bytes == transfer.report.size)
    {
        Finish(transfer);
    }
}

void
RudpFileReceiver::HandlePeerClose(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    auto it = m_transfers.find(socket);
    if (it != m_transfers.end())
    {
        HandleRead(socket); // whatever is still buffered
        Finish(*it->second);
    }
    socket->Close(); // seed 000: the server closes its side in turn
}

void
RudpFileReceiver::HandlePeerError(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    auto it = m_transfers.find(socket);
    if (it != m_transfers.end())
    {
        Finish(*it->second);
    }
}

void
RudpFileReceiver::Finish(Transfer& transfer)
{
    if (transfer.finished)
    {
        return;
    }
    transfer.finished = true;
    RudpFileReport& report = transfer.report;
    report.complete = transfer.recordDone && report.bytes == report.size;
    report.sha256 = transfer.sha.Finish();
    if (transfer.out.is_open())
    {
        transfer.out.close();
        NS_ABORT_MSG_UNLESS(transfer.out,
                            "ns3::RudpFileReceiver::OutputDirectory: writing '" << report.path
                                                                                << "' failed");
    }
    NS_LOG_INFO("file '" << report.name << "': " << report.bytes << " of " << report.size
                         << " bytes" << (report.complete ? "" : " (incomplete)"));
    m_reports.push_back(report);
    m_fileReceivedTrace(report);
}

} // namespace ns3
