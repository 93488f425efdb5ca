/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-test-network.h"

#include "ns3/test.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sys/resource.h>
#include <type_traits>

/**
 * \file
 * \ingroup rudp-test
 * RudpFileSender and RudpFileReceiver: a file arrives byte-identical or is
 * reported failed, whatever the peer sends (wrong bytes that pass the
 * checksum, odd names, too many bytes, a bad trailer, an early end) and
 * whatever the disk does (a write error, names taken by files, directories
 * and symlinks, an output directory that cannot be created); the sender
 * works with any send buffer.
 */

using namespace ns3;
using namespace ns3::rudptest;

namespace
{

const uint16_t PORT = 2222;

/// \return the SHA-256 of \p bytes, hex
std::string
Sha256Of(const std::vector<uint8_t>& bytes)
{
    RudpSha256 sha;
    sha.Update(bytes.data(), bytes.size());
    return sha.Finish();
}

/// \return the bytes of the file at \p path ("" if it cannot be read)
std::vector<uint8_t>
ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in),
                                std::istreambuf_iterator<char>());
}

/// \return the SHA-256 of the file at \p path, hex
std::string
Sha256OfFile(const std::string& path)
{
    return Sha256Of(ReadFile(path));
}

/// \return the names in \p directory, sorted
std::vector<std::string>
ListDirectory(const std::string& directory)
{
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(directory, error))
    {
        names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

/// \return \p size bytes of content that depends on \p seed
std::vector<uint8_t>
Content(size_t size, uint32_t seed)
{
    std::vector<uint8_t> bytes(size);
    uint32_t x = seed * 2654435761u + 1;
    for (auto& b : bytes)
    {
        x = x * 1664525u + 1013904223u;
        b = static_cast<uint8_t>(x >> 24);
    }
    return bytes;
}

/**
 * \return a stream as RudpFileSender sends it: record (name, \p announced
 * length), \p content, then \p trailer (normally the SHA-256 of \p content)
 */
std::vector<uint8_t>
Stream(const std::string& name,
       uint64_t announced,
       const std::vector<uint8_t>& content,
       const std::vector<uint8_t>& trailer)
{
    std::vector<uint8_t> stream(2 + name.size() + 8 + content.size() + trailer.size());
    stream[0] = static_cast<uint8_t>(name.size() >> 8);
    stream[1] = static_cast<uint8_t>(name.size());
    std::copy(name.begin(), name.end(), stream.begin() + 2);
    for (size_t k = 0; k < 8; ++k)
    {
        stream[2 + name.size() + k] = static_cast<uint8_t>(announced >> (56 - 8 * k));
    }
    std::copy(content.begin(), content.end(), stream.begin() + 2 + name.size() + 8);
    std::copy(trailer.begin(), trailer.end(), stream.end() - trailer.size());
    return stream;
}

/// \return the raw SHA-256 of \p content: the trailer RudpFileSender sends
std::vector<uint8_t>
DigestTrailer(const std::vector<uint8_t>& content)
{
    RudpSha256 sha;
    sha.Update(content.data(), content.size());
    const RudpSha256::Digest digest = sha.FinishDigest();
    return std::vector<uint8_t>(digest.begin(), digest.end());
}

/// \return true if \p text contains \p part
bool
Contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

/**
 * \ingroup rudp-test
 * \brief A client that sends given stream bytes over RUDP, as the socket
 * takes them, then closes (or stays connected and silent).
 */
class StreamSender
{
  public:
    /**
     * \param node the client node
     * \param remote the receiver
     * \param bytes what to send
     * \param close whether to close once everything is queued
     */
    StreamSender(Ptr<Node> node, Address remote, std::vector<uint8_t> bytes, bool close)
        : m_node(node),
          m_remote(remote),
          m_bytes(std::move(bytes)),
          m_close(close)
    {
        Simulator::Schedule(Seconds(1), &StreamSender::Start, this);
    }

  private:
    void Start()
    {
        m_socket = TestNetwork::CreateSocket(m_node);
        m_socket->SetConnectCallback(MakeCallback(&StreamSender::Connected, this),
                                     MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeCallback(&StreamSender::Room, this));
        m_socket->Connect(m_remote);
    }

    void Connected(Ptr<Socket>)
    {
        m_connected = true;
        Send();
    }

    void Room(Ptr<Socket>, uint32_t)
    {
        if (m_connected)
        {
            Send();
        }
    }

    void Send()
    {
        while (m_offset < m_bytes.size())
        {
            const uint32_t room = m_socket->GetTxAvailable();
            if (room == 0)
            {
                return;
            }
            const size_t size = std::min<size_t>(room, m_bytes.size() - m_offset);
            m_socket->Send(Create<Packet>(m_bytes.data() + m_offset, size));
            m_offset += size;
        }
        if (m_close)
        {
            m_connected = false;
            m_socket->Close();
        }
    }

    Ptr<Node> m_node;
    Address m_remote;
    std::vector<uint8_t> m_bytes;
    bool m_close;
    Ptr<Socket> m_socket;
    size_t m_offset{0};
    bool m_connected{false};
};

/**
 * \ingroup rudp-test
 * \brief A RudpFileReceiver on the server of a TestNetwork, and senders on
 * the client: RudpFileSender applications or crafted streams.
 */
class Scenario
{
  public:
    /// \param outputDirectory the receiver's OutputDirectory ("" to store nothing)
    explicit Scenario(const std::string& outputDirectory)
    {
        Config::SetDefault("ns3::RudpSocket::InitialRto", TimeValue(MilliSeconds(200)));
        network.AssignStreams(10);
        RudpFileReceiverHelper helper("ns3::RudpSocketFactory",
                                      InetSocketAddress(Ipv4Address::GetAny(), PORT));
        helper.SetAttribute("OutputDirectory", StringValue(outputDirectory));
        receiver = DynamicCast<RudpFileReceiver>(helper.Install(network.Server()).Get(0));
        receiver->TraceConnectWithoutContext("Failed",
                                             MakeCallback(&Scenario::ReceiverFailed, this));
    }

    ~Scenario()
    {
        Simulator::Destroy();
        Config::Reset();
    }

    /// Adds a RudpFileSender of \p size generated bytes (or \p file), started at 1 s.
    Ptr<RudpFileSender> AddSender(uint64_t size, uint64_t seed, const std::string& file = "")
    {
        RudpFileSenderHelper helper("ns3::RudpSocketFactory", network.ServerAddress(PORT));
        helper.SetAttribute("File", StringValue(file));
        helper.SetAttribute("Size", UintegerValue(size));
        helper.SetAttribute("ContentSeed", UintegerValue(seed));
        ApplicationContainer app = helper.Install(network.Client());
        app.Start(Seconds(1));
        senders.push_back(DynamicCast<RudpFileSender>(app.Get(0)));
        return senders.back();
    }

    /// Adds a client that sends \p bytes at 1 s, then closes if \p close.
    void AddStream(const std::vector<uint8_t>& bytes, bool close = true)
    {
        streams.push_back(std::make_unique<StreamSender>(network.Client(),
                                                         network.ServerAddress(PORT),
                                                         bytes,
                                                         close));
    }

    /// Runs the simulation until nothing is left to do or \p stop.
    void Run(Time stop = Seconds(1000))
    {
        Simulator::Stop(stop);
        Simulator::Run();
    }

    /// \return the receiver's reports
    const std::vector<RudpFileReport>& Reports() const
    {
        return receiver->GetReports();
    }

    TestNetwork network{MilliSeconds(5), DataRate("20Mbps")}; ///< client and server
    Ptr<RudpFileReceiver> receiver;                           ///< on the server
    std::vector<Ptr<RudpFileSender>> senders;                 ///< on the client
    std::vector<std::unique_ptr<StreamSender>> streams;       ///< on the client
    std::vector<std::string> receiverFailures;                ///< the receiver's Failed trace

  private:
    void ReceiverFailed(const std::string& reason)
    {
        receiverFailures.push_back(reason);
    }
};

/// A fresh directory for one test; removed when the test ends.
class TempDirectory
{
  public:
    /// \param path where (from TestCase::CreateTempDirFilename)
    explicit TempDirectory(std::string path)
        : m_path(std::move(path))
    {
        std::filesystem::remove_all(m_path);
        std::filesystem::create_directories(m_path);
    }

    ~TempDirectory()
    {
        std::error_code error;
        std::filesystem::remove_all(m_path, error);
    }

    /// \return the directory, or \p name in it
    std::string operator/(const std::string& name) const
    {
        return (std::filesystem::path(m_path) / name).string();
    }

    /// \return the directory
    const std::string& Path() const
    {
        return m_path;
    }

  private:
    std::string m_path;
};

} // namespace

/**
 * \ingroup rudp-test
 * A wrong byte that passes the 16-bit checksum is caught by the SHA-256
 * trailer: the file is reported failed, and nothing is left under its name.
 */
class RudpFileUndetectedCorruptionTest : public TestCase
{
  public:
    /// \param stored whether the receiver writes files (digest re-read) or only digests them
    explicit RudpFileUndetectedCorruptionTest(bool stored)
        : TestCase(std::string("a payload error the checksum misses is a reported digest "
                               "failure, never a complete file (") +
                   (stored ? "stored" : "not stored") + ")"),
          m_stored(stored)
    {
    }

  private:
    void DoRun() override
    {
        TempDirectory dir(CreateTempDirFilename("rudp-file-swap"));
        Scenario s(m_stored ? dir / "out" : "");
        Ptr<WordSwapErrorModel> swap = CreateObject<WordSwapErrorModel>();
        s.network.SetServerErrorModel(swap);
        Ptr<RudpFileSender> sender = s.AddSender(60000, 7);
        s.Run();
        NS_TEST_ASSERT_MSG_EQ(swap->Altered(), 1, "one segment altered");
        NS_TEST_ASSERT_MSG_EQ(s.receiver->GetAcceptedSockets().size(), 1, "one connection");
        if (s.receiver->GetAcceptedSockets().size() != 1)
        {
            return;
        }
        const auto server = DynamicCast<RudpSocket>(s.receiver->GetAcceptedSockets()[0]);
        NS_TEST_ASSERT_MSG_EQ(server->GetStats().checksumErrors, 0, "the checksum missed it");
        NS_TEST_ASSERT_MSG_EQ(sender->HasFailed(), false, "the sender saw nothing wrong");
        NS_TEST_ASSERT_MSG_EQ(s.Reports().size(), 1, "one report");
        if (s.Reports().size() != 1)
        {
            return; // the runner goes on after a failed assertion
        }
        const RudpFileReport& report = s.Reports()[0];
        NS_TEST_EXPECT_MSG_EQ(report.complete, false, "not complete");
        NS_TEST_EXPECT_MSG_EQ(report.bytes, 60000, "every byte arrived");
        NS_TEST_EXPECT_MSG_NE(report.sha256, sender->GetSourceSha256(), "a different digest");
        NS_TEST_EXPECT_MSG_EQ(Contains(report.failure, "SHA-256 mismatch"),
                              true,
                              "the reason: " << report.failure);
        NS_TEST_EXPECT_MSG_EQ(s.receiver->GetStats().digestMismatches, 1, "counted");
        NS_TEST_EXPECT_MSG_EQ(s.receiver->GetStats().filesFailed, 1, "counted");
        NS_TEST_EXPECT_MSG_EQ(report.path, "", "no file");
        if (m_stored)
        {
            NS_TEST_EXPECT_MSG_EQ(Join(ListDirectory(dir / "out")),
                                  "",
                                  "nothing under the final name, no partial file");
        }
    }

    bool m_stored;
};

/// Files of every size arrive byte-identical, with sane times.
class RudpFileSizesTest : public TestCase
{
  public:
    /// \param size the file's size (bytes)
    explicit RudpFileSizesTest(uint64_t size)
        : TestCase("a " + std::to_string(size) +
                   "-byte file arrives byte-identical, with its times set"),
          m_size(size)
    {
    }

  private:
    void DoRun() override
    {
        TempDirectory dir(CreateTempDirFilename("rudp-file-size"));
        Scenario s(dir / "out");
        Ptr<RudpFileSender> sender = s.AddSender(m_size, 3);
        s.Run();
        NS_TEST_ASSERT_MSG_EQ(s.Reports().size(), 1, "one report");
        if (s.Reports().size() != 1)
        {
            return; // the runner goes on after a failed assertion
        }
        const RudpFileReport& report = s.Reports()[0];
        NS_TEST_EXPECT_MSG_EQ(report.complete, true, "complete: " << report.failure);
        NS_TEST_EXPECT_MSG_EQ(report.failure, "", "no failure");
        NS_TEST_EXPECT_MSG_EQ(report.bytes, m_size, "every byte");
        NS_TEST_EXPECT_MSG_EQ(report.path, dir / "out/generated.bin", "its name");
        NS_TEST_EXPECT_MSG_EQ(ReadFile(report.path).size(), m_size, "its size on disk");
        NS_TEST_EXPECT_MSG_EQ(Sha256OfFile(report.path), sender->GetSourceSha256(), "identical");
        NS_TEST_EXPECT_MSG_EQ(report.sha256, sender->GetSourceSha256(), "reported digest");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(report.lastByteTime,
                                    report.acceptTime,
                                    "the last byte after the connection");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(report.lastByteTime,
                                    report.firstByteTime,
                                    "the last byte after the first");
        NS_TEST_EXPECT_MSG_EQ(Join(ListDirectory(dir / "out")), "generated.bin", "only the file");
        NS_TEST_EXPECT_MSG_EQ(s.receiver->GetStats().filesComplete, 1, "counted");
    }

    uint64_t m_size;
};

/// The sender hands the socket what fits: any chunk over any send buffer.
class RudpFileSendBufferTest : public TestCase
{
  public:
    /**
     * \param sndBuf SndBufSize (bytes)
     * \param chunk ChunkSize (bytes)
     * \param nameBytes length of the file's name (a record larger than the buffer)
     * \param size the file's size
     */
    RudpFileSendBufferTest(uint32_t sndBuf, uint32_t chunk, size_t nameBytes, uint64_t size)
        : TestCase("SndBufSize " + std::to_string(sndBuf) + ", ChunkSize " + std::to_string(chunk) +
                   ", a " + std::to_string(nameBytes) +
                   "-byte name: the file arrives byte-identical"),
          m_sndBuf(sndBuf),
          m_chunk(chunk),
          m_nameBytes(nameBytes),
          m_size(size)
    {
    }

  private:
    void DoRun() override
    {
        TempDirectory dir(CreateTempDirFilename("rudp-file-sndbuf"));
        const std::string name = std::string(m_nameBytes - 4, 'r') + ".bin";
        const std::vector<uint8_t> content = Content(m_size, 5);
        {
            std::ofstream out(dir / name, std::ios::binary);
            out.write(reinterpret_cast<const char*>(content.data()), content.size());
        }
        Config::SetDefault("ns3::RudpSocket::SndBufSize", UintegerValue(m_sndBuf));
        Config::SetDefault("ns3::RudpFileSender::ChunkSize", UintegerValue(m_chunk));
        Scenario s(dir / "out");
        Ptr<RudpFileSender> sender = s.AddSender(0, 1, dir / name);
        s.Run();
        NS_TEST_ASSERT_MSG_EQ(s.Reports().size(), 1, "the transfer ended (no stall)");
        if (s.Reports().size() != 1)
        {
            return; // the runner goes on after a failed assertion
        }
        const RudpFileReport& report = s.Reports()[0];
        NS_TEST_EXPECT_MSG_EQ(report.complete, true, "complete: " << report.failure);
        NS_TEST_EXPECT_MSG_EQ(report.name, name, "its name");
        NS_TEST_EXPECT_MSG_EQ(Sha256OfFile(report.path), Sha256Of(content), "identical");
        NS_TEST_EXPECT_MSG_EQ(sender->GetBytesQueued(),
                              2 + m_nameBytes + 8 + m_size + 32,
                              "record, file and trailer queued");
    }

    uint32_t m_sndBuf;
    uint32_t m_chunk;
    size_t m_nameBytes;
    uint64_t m_size;
};

/// A name that cannot be used as it is: sanitised, never an abort.
class RudpFileNameTest : public TestCase
{
  public:
    /**
     * \param what the kind of name, for the test's name
     * \param announced the name the sender announces
     * \param expected the name the file must be stored under
     */
    RudpFileNameTest(const std::string& what, std::string announced, std::string expected)
        : TestCase("a name with " + what + " is stored as '" + expected.substr(0, 24) +
                   (expected.size() > 24 ? "...'" : "'")),
          m_announced(std::move(announced)),
          m_expected(std::move(expected))
    {
    }

  private:
    void DoRun() override
    {
        TempDirectory dir(CreateTempDirFilename("rudp-file-name"));
        const std::vector<uint8_t> content = Content(3000, 1);
        Scenario s(dir / "out");
        s.AddStream(Stream(m_announced, content.size(), content, DigestTrailer(content)));
        s.Run();
        NS_TEST_ASSERT_MSG_EQ(s.Reports().size(), 1, "one report");
        if (s.Reports().size() != 1)
        {
            return; // the runner goes on after a failed assertion
        }
        const RudpFileReport& report = s.Reports()[0];
        NS_TEST_EXPECT_MSG_EQ(report.complete, true, "complete: " << report.failure);
        NS_TEST_EXPECT_MSG_EQ(report.name, m_expected, "sanitised");
        NS_TEST_EXPECT_MSG_EQ(report.path, dir / ("out/" + m_expected), "its path");
        NS_TEST_EXPECT_MSG_EQ(report.path.find('\0'), std::string::npos, "no NUL in the path");
        NS_TEST_EXPECT_MSG_EQ(Sha256OfFile(report.path), Sha256Of(content), "identical");
        NS_TEST_EXPECT_MSG_EQ(Join(ListDirectory(dir / "out")), m_expected, "nothing else");
        NS_TEST_EXPECT_MSG_EQ(Join(ListDirectory(dir.Path())), "out", "nothing outside");
    }

    std::string m_announced;
    std::string m_expected;
};

/// A name taken on disk is never written over or through.
class RudpFileNameTakenTest : public TestCase
{
  public:
    /// What takes the name.
    enum Taker
    {
        DIRECTORY,      ///< a directory named "x.bin"
        REGULAR_FILE,   ///< a file named "x.bin"
        SYMLINK,        ///< "x.bin", a symlink to a file outside
        PARTIAL_SYMLINK ///< "x.bin.partial", a dangling symlink to a path outside
    };

    /// \param taker what takes the name
    explicit RudpFileNameTakenTest(Taker taker)
        : TestCase(Describe(taker)),
          m_taker(taker)
    {
    }

  private:
    static std::string Describe(Taker taker)
    {
        switch (taker)
        {
        case DIRECTORY:
            return "a name equal to an existing directory gets a suffix, the directory is kept";
        case REGULAR_FILE:
            return "a name equal to an existing file gets a suffix, the file is kept";
        case SYMLINK:
            return "a name equal to a symlink gets a suffix, the symlink is not followed";
        case PARTIAL_SYMLINK:
        default:
            return "a symlink planted as the partial file is not followed";
        }
    }

    void DoRun() override
    {
        TempDirectory dir(CreateTempDirFilename("rudp-file-taken"));
        const std::string out = dir / "out";
        std::filesystem::create_directories(out);
        std::ofstream(dir / "victim") << "keep me";
        switch (m_taker)
        {
        case DIRECTORY:
            std::filesystem::create_directories(out + "/x.bin");
            break;
        case REGULAR_FILE:
            std::filesystem::copy_file(dir / "victim", out + "/x.bin");
            break;
        case SYMLINK:
            std::filesystem::create_symlink(dir / "victim", out + "/x.bin");
            break;
        case PARTIAL_SYMLINK:
            std::filesystem::create_symlink(dir / "victim2", out + "/x.bin.partial");
            break;
        }
        const std::vector<uint8_t> content = Content(5000, 2);
        Scenario s(out);
        s.AddStream(Stream("x.bin", content.size(), content, DigestTrailer(content)));
        s.Run();
        NS_TEST_ASSERT_MSG_EQ(s.Reports().size(), 1, "one report");
        if (s.Reports().size() != 1)
        {
            return; // the runner goes on after a failed assertion
        }
        const RudpFileReport& report = s.Reports()[0];
        NS_TEST_EXPECT_MSG_EQ(report.complete, true, "complete: " << report.failure);
        NS_TEST_EXPECT_MSG_EQ(report.name, "x.bin", "the announced name");
        NS_TEST_EXPECT_MSG_EQ(report.path, out + "/x (1).bin", "the next free name");
        NS_TEST_EXPECT_MSG_EQ(Sha256OfFile(report.path), Sha256Of(content), "identical");
        NS_TEST_EXPECT_MSG_EQ(ReadFile(dir / "victim").size(), 7, "the file outside is kept");
        NS_TEST_EXPECT_MSG_EQ(std::filesystem::exists(dir / "victim2"),
                              false,
                              "nothing created through a dangling symlink");
        if (m_taker == DIRECTORY)
        {
            NS_TEST_EXPECT_MSG_EQ(std::filesystem::is_directory(out + "/x.bin"), true, "kept");
            NS_TEST_EXPECT_MSG_EQ(std::filesystem::is_empty(out + "/x.bin"), true, "empty");
        }
        if (m_taker == REGULAR_FILE)
        {
            NS_TEST_EXPECT_MSG_EQ(ReadFile(out + "/x.bin").size(), 7, "the file is kept");
        }
    }

    Taker m_taker;
};

/// Two transfers of one name at once never write one file.
class RudpFileSameNameTest : public TestCase
{
  public:
    RudpFileSameNameTest()
        : TestCase("two concurrent transfers of one name write two files, both byte-identical "
                   "and complete")
    {
    }

  private:
    void DoRun() override
    {
        TempDirectory dir(CreateTempDirFilename("rudp-file-same-name"));
        Scenario s(dir / "out");
        Ptr<RudpFileSender> a = s.AddSender(200000, 1);
        Ptr<RudpFileSender> b = s.AddSender(150000, 2);
        s.Run();
        NS_TEST_ASSERT_MSG_EQ(s.Reports().size(), 2, "two reports");
        if (s.Reports().size() != 2)
        {
            return; // the runner goes on after a failed assertion
        }
        std::vector<std::string> paths;
        for (const auto& report : s.Reports())
        {
            NS_TEST_EXPECT_MSG_EQ(report.complete, true, "complete: " << report.failure);
            NS_TEST_EXPECT_MSG_EQ(report.name, "generated.bin", "one name");
            const Ptr<RudpFileSender> sender = report.bytes == 200000 ? a : b;
            NS_TEST_EXPECT_MSG_EQ(Sha256OfFile(report.path),
                                  sender->GetSourceSha256(),
                                  "the file on disk is the one sent");
            paths.push_back(report.path);
        }
        NS_TEST_EXPECT_MSG_NE(paths[0], paths[1], "two files");
        NS_TEST_EXPECT_MSG_EQ(Join(ListDirectory(dir / "out")),
                              "generated (1).bin, generated.bin",
                              "both, and nothing else");
    }
};

/// Whatever the peer sends, the outcome is a report, never an abort.
class RudpFileBadStreamTest : public TestCase
{
  public:
    /// What is wrong with the stream.
    enum Fault
    {
        MORE_BYTES,      ///< one file byte more than announced
        MISSING_TRAILER, ///< the stream ends after the file's bytes
        GARBLED_TRAILER, ///< a trailer byte is wrong
        SHORT_RECORD,    ///< the stream ends inside the record
        BYTES_AFTER_END, ///< a correct stream, then more bytes
        SILENT_PEER,     ///< the peer stops sending, connected (IdleTimeout)
    };

    /// \param fault what the stream does wrong
    explicit RudpFileBadStreamTest(Fault fault)
        : TestCase(Describe(fault)),
          m_fault(fault)
    {
    }

  private:
    static std::string Describe(Fault fault)
    {
        switch (fault)
        {
        case MORE_BYTES:
            return "more bytes than announced: a failure report, no file";
        case MISSING_TRAILER:
            return "a stream that ends without its SHA-256 trailer: a failure report, no file";
        case GARBLED_TRAILER:
            return "a wrong SHA-256 trailer: a digest failure report, no file";
        case SHORT_RECORD:
            return "a stream that ends inside its record: a failure report, no file";
        case BYTES_AFTER_END:
            return "bytes after a verified trailer are discarded and counted; the file stands";
        case SILENT_PEER:
        default:
            return "a peer silent inside its record is reported after IdleTimeout and closed";
        }
    }

    void DoRun() override
    {
        TempDirectory dir(CreateTempDirFilename("rudp-file-bad-stream"));
        Scenario s(dir / "out");
        const std::vector<uint8_t> content = Content(20000, 4);
        std::vector<uint8_t> stream;
        std::string reason;
        bool complete = false;
        switch (m_fault)
        {
        case MORE_BYTES: {
            const std::vector<uint8_t> more = Content(20001, 4);
            stream = Stream("f.bin", 20000, more, DigestTrailer(more));
            reason = "SHA-256 mismatch";
            break;
        }
        case MISSING_TRAILER:
            stream = Stream("f.bin", 20000, content, {});
            reason = "after all 20000 file bytes but 0 of the 32 bytes of the SHA-256 trailer";
            break;
        case GARBLED_TRAILER: {
            std::vector<uint8_t> trailer = DigestTrailer(content);
            trailer[5] ^= 0x10;
            stream = Stream("f.bin", 20000, content, trailer);
            reason = "SHA-256 mismatch";
            break;
        }
        case SHORT_RECORD:
            stream = Stream("f.bin", 20000, {}, {});
            stream.resize(7);
            reason = "before the name/length record was complete (7 bytes of it)";
            break;
        case BYTES_AFTER_END:
            stream = Stream("f.bin", 20000, content, DigestTrailer(content));
            stream.insert(stream.end(), 100, 0x55);
            complete = true;
            break;
        case SILENT_PEER:
            stream = Stream("f.bin", 20000, {}, {});
            stream.resize(7);
            s.receiver->SetAttribute("IdleTimeout", TimeValue(Seconds(30)));
            reason = "nothing arrived for 30 s (IdleTimeout) before the name/length record";
            break;
        }
        s.AddStream(stream, m_fault != SILENT_PEER);
        s.Run(Seconds(m_fault == SILENT_PEER ? 100 : 1000));
        NS_TEST_ASSERT_MSG_EQ(s.Reports().size(), 1, "one report");
        if (s.Reports().size() != 1)
        {
            return; // the runner goes on after a failed assertion
        }
        const RudpFileReport& report = s.Reports()[0];
        NS_TEST_EXPECT_MSG_EQ(report.complete, complete, "complete or not: " << report.failure);
        NS_TEST_EXPECT_MSG_EQ(Contains(report.failure, reason),
                              true,
                              "the reason: '" << report.failure << "'");
        const std::string files = Join(ListDirectory(dir / "out"));
        NS_TEST_EXPECT_MSG_EQ(files, (complete ? "f.bin" : ""), "the file only if complete");
        const uint64_t discarded =
            m_fault == BYTES_AFTER_END ? 100 : (m_fault == MORE_BYTES ? 1 : 0);
        NS_TEST_EXPECT_MSG_EQ(s.receiver->GetStats().discardedBytes,
                              discarded,
                              "bytes after the end");
    }

    Fault m_fault;
};

/// A disk that refuses a write: a failure report, no abort, no file.
class RudpFileWriteErrorTest : public TestCase
{
  public:
    RudpFileWriteErrorTest()
        : TestCase("a write error (file size limit) is a failure report: no abort, no file")
    {
    }

  private:
    void DoRun() override
    {
        TempDirectory dir(CreateTempDirFilename("rudp-file-write-error"));
        Scenario s(dir / "out");
        s.AddSender(300000, 9);
        // As root permissions stop no write: a file size limit does (EFBIG).
        struct rlimit saved;
        if (getrlimit(RLIMIT_FSIZE, &saved) != 0)
        {
            NS_TEST_ASSERT_MSG_EQ(errno, 0, "getrlimit");
            return;
        }
        struct rlimit limited = saved;
        limited.rlim_cur = 100000;
        auto savedHandler = std::signal(SIGXFSZ, SIG_IGN);
        const int set = setrlimit(RLIMIT_FSIZE, &limited);
        s.Run();
        setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, savedHandler);
        NS_TEST_ASSERT_MSG_EQ(set, 0, "setrlimit");
        NS_TEST_ASSERT_MSG_EQ(s.Reports().size(), 1, "one report");
        if (s.Reports().size() != 1)
        {
            return; // the runner goes on after a failed assertion
        }
        const RudpFileReport& report = s.Reports()[0];
        NS_TEST_EXPECT_MSG_EQ(report.complete, false, "not complete");
        NS_TEST_EXPECT_MSG_EQ(Contains(report.failure, "writing"),
                              true,
                              "the reason: " << report.failure);
        NS_TEST_EXPECT_MSG_EQ(s.receiver->GetStats().diskErrors, 1, "counted");
        NS_TEST_EXPECT_MSG_EQ(Join(ListDirectory(dir / "out")), "", "no file, no partial file");
        NS_TEST_EXPECT_MSG_EQ(s.senders[0]->HasFailed(), false, "the sender was not stalled");
    }
};

/// A sender that goes away mid-transfer leaves no file under the final name.
class RudpFileSenderGoneTest : public TestCase
{
  public:
    /// How the sender goes.
    enum How
    {
        STOPPED,         ///< its application stops: the connection closes early
        CUT_IDLE,        ///< its path dies; the receiver's IdleTimeout ends the transfer
        CUT_KEEP_WAITING ///< its path dies; the receiver waits until the simulation ends
    };

    /// \param how how the sender goes
    explicit RudpFileSenderGoneTest(How how)
        : TestCase(how == STOPPED    ? "a sender stopped mid-transfer: a failure report, no file"
                   : how == CUT_IDLE ? "a sender cut off mid-transfer: IdleTimeout reports it, "
                                       "no file"
                                     : "a sender cut off mid-transfer, no IdleTimeout: nothing "
                                       "under the final name, no partial file after the run"),
          m_how(how)
    {
    }

  private:
    void DoRun() override
    {
        TempDirectory dir(CreateTempDirFilename("rudp-file-gone"));
        {
            Config::SetDefault("ns3::RudpSocket::DataRetries", UintegerValue(3));
            Scenario s(dir / "out");
            Ptr<RudpFileSender> sender = s.AddSender(2000000, 1);
            if (m_how == STOPPED)
            {
                sender->SetStopTime(Seconds(1.2));
            }
            else
            {
                Ptr<RateErrorModel> cut = CreateObject<RateErrorModel>();
                cut->SetAttribute("ErrorRate", DoubleValue(1.0));
                cut->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
                cut->Disable();
                Simulator::Schedule(Seconds(1.2), &ErrorModel::Enable, cut);
                s.network.SetServerErrorModel(cut);
            }
            if (m_how == CUT_IDLE)
            {
                s.receiver->SetAttribute("IdleTimeout", TimeValue(Seconds(20)));
            }
            s.Run(Seconds(200));
            NS_TEST_EXPECT_MSG_EQ(Join(ListDirectory(dir / "out")),
                                  (m_how == CUT_KEEP_WAITING ? "generated.bin.partial" : ""),
                                  "no file under the final name");
            if (m_how == CUT_KEEP_WAITING)
            {
                NS_TEST_EXPECT_MSG_EQ(s.Reports().size(), 0, "still waiting");
                NS_TEST_EXPECT_MSG_EQ(sender->HasFailed(), true, "the sender gave up");
                return; // ~Scenario disposes of the receiver
            }
            NS_TEST_ASSERT_MSG_EQ(s.Reports().size(), 1, "one report");
            if (s.Reports().size() != 1)
            {
                return; // the runner goes on after a failed assertion
            }
            const RudpFileReport& report = s.Reports()[0];
            NS_TEST_EXPECT_MSG_EQ(report.complete, false, "not complete");
            NS_TEST_EXPECT_MSG_LT(report.bytes, 2000000, "part of the file");
            const std::string reason = m_how == STOPPED ? "the sender closed the connection after "
                                                        : "nothing arrived for 20 s (IdleTimeout) "
                                                          "after ";
            NS_TEST_EXPECT_MSG_EQ(Contains(report.failure, reason),
                                  true,
                                  "the reason: " << report.failure);
        }
        if (m_how == CUT_KEEP_WAITING)
        {
            NS_TEST_EXPECT_MSG_EQ(Join(ListDirectory(dir / "out")),
                                  "",
                                  "the partial file removed when the simulation is destroyed");
        }
    }

    How m_how;
};

/// KeepPartial keeps a failed transfer's bytes under an explicit name.
class RudpFileKeepPartialTest : public TestCase
{
  public:
    RudpFileKeepPartialTest()
        : TestCase("KeepPartial: a failed transfer's bytes stay as '<name>.partial'")
    {
    }

  private:
    void DoRun() override
    {
        TempDirectory dir(CreateTempDirFilename("rudp-file-keep"));
        Scenario s(dir / "out");
        s.receiver->SetAttribute("KeepPartial", BooleanValue(true));
        const std::vector<uint8_t> content = Content(30000, 8);
        std::vector<uint8_t> stream = Stream("k.bin", 50000, content, {});
        s.AddStream(stream);
        s.Run();
        NS_TEST_ASSERT_MSG_EQ(s.Reports().size(), 1, "one report");
        if (s.Reports().size() != 1)
        {
            return; // the runner goes on after a failed assertion
        }
        const RudpFileReport& report = s.Reports()[0];
        NS_TEST_EXPECT_MSG_EQ(report.complete, false, "not complete");
        NS_TEST_EXPECT_MSG_EQ(report.path, dir / "out/k.bin.partial", "kept there");
        NS_TEST_EXPECT_MSG_EQ(Sha256OfFile(report.path), Sha256Of(content), "what arrived");
        NS_TEST_EXPECT_MSG_EQ(Join(ListDirectory(dir / "out")), "k.bin.partial", "only that");
    }
};

/// A receiver that cannot start as configured says so and never aborts.
class RudpFileReceiverStartTest : public TestCase
{
  public:
    RudpFileReceiverStartTest()
        : TestCase("an OutputDirectory that cannot be created, or a Local that cannot be "
                   "bound: reported, no abort")
    {
    }

  private:
    void DoRun() override
    {
        TempDirectory dir(CreateTempDirFilename("rudp-file-start"));
        std::ofstream(dir / "plain") << "a file, not a directory";
        {
            Scenario s(dir / "plain/out");
            Ptr<RudpFileSender> sender = s.AddSender(10000, 1);
            s.Run();
            NS_TEST_EXPECT_MSG_EQ(s.receiver->HasFailed(), true, "failed at start");
            NS_TEST_EXPECT_MSG_EQ(Contains(s.receiver->GetFailure(), "OutputDirectory"),
                                  true,
                                  "names the attribute: " << s.receiver->GetFailure());
            NS_TEST_EXPECT_MSG_EQ(s.receiverFailures.size(), 1, "the Failed trace");
            NS_TEST_ASSERT_MSG_EQ(s.Reports().size(), 1, "the file is still reported");
            if (s.Reports().size() == 1)
            {
                NS_TEST_EXPECT_MSG_EQ(s.Reports()[0].complete, false, "failed");
                NS_TEST_EXPECT_MSG_EQ(Contains(s.Reports()[0].failure, "OutputDirectory"),
                                      true,
                                      "why: " << s.Reports()[0].failure);
            }
            NS_TEST_EXPECT_MSG_EQ(sender->HasFailed(), false, "the sender was not left hanging");
        }
        {
            Scenario s("");
            RudpFileReceiverHelper helper("ns3::RudpSocketFactory",
                                          InetSocketAddress(Ipv4Address::GetAny(), PORT));
            Ptr<RudpFileReceiver> second =
                DynamicCast<RudpFileReceiver>(helper.Install(s.network.Server()).Get(0));
            s.Run(Seconds(10));
            NS_TEST_EXPECT_MSG_EQ(s.receiver->HasFailed(), false, "the first one listens");
            NS_TEST_EXPECT_MSG_EQ(second->HasFailed(), true, "the port is taken");
            NS_TEST_EXPECT_MSG_EQ(Contains(second->GetFailure(), "Local"),
                                  true,
                                  "names the attribute: " << second->GetFailure());
            NS_TEST_EXPECT_MSG_EQ((second->GetListeningSocket() == nullptr), true, "no listener");
        }
    }
};

/// The sender's own failures are reported, never an abort.
class RudpFileSenderFailureTest : public TestCase
{
  public:
    RudpFileSenderFailureTest()
        : TestCase("a sender whose File cannot be read reports it and does not abort")
    {
    }

  private:
    void DoRun() override
    {
        Scenario s("");
        Ptr<RudpFileSender> sender = s.AddSender(0, 1, "no/such/file.bin");
        s.Run(Seconds(10));
        NS_TEST_EXPECT_MSG_EQ(sender->HasFailed(), true, "failed");
        NS_TEST_EXPECT_MSG_EQ(Contains(sender->GetFailure(), "no/such/file.bin"),
                              true,
                              "names the file: " << sender->GetFailure());
        NS_TEST_EXPECT_MSG_EQ(s.Reports().size(), 0, "nothing sent");
    }
};

/// SanitizeName, case by case.
class RudpFileSanitizeNameTest : public TestCase
{
  public:
    RudpFileSanitizeNameTest()
        : TestCase("SanitizeName: plain UTF-8 file names of at most 200 bytes")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::string, std::string>> cases{
            {"1.jpg", "1.jpg"},
            {"", "unnamed"},
            {".", "unnamed"},
            {"..", "unnamed"},
            {"dir/", "unnamed"},
            {"/etc/passwd", "passwd"},
            {"a\\b\\c.txt", "c.txt"},
            {std::string("x\0y", 3), "x_y"},
            {"tab\there", "tab_here"},
            {"del\x7f", "del_"},
            {"c1\xc2\x85.txt", "c1_.txt"},            // U+0085, a C1 control
            {"caf\xc3\xa9.txt", "caf\xc3\xa9.txt"},   // é is kept
            {"\xe2\x82\xac.txt", "\xe2\x82\xac.txt"}, // €
            {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"}, // U+1F600
            {"\xc0\xaf.txt", "__.txt"},               // overlong '/'
            {"\xed\xa0\x80.txt", "___.txt"},          // a surrogate
            {"\xf4\x90\x80\x80", "____"},             // above U+10FFFF
            {"cut\xe2\x82", "cut__"},                 // a truncated sequence
            {"...", "..."},
            {".hidden", ".hidden"},
        };
        for (const auto& [in, out] : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(RudpFileReceiver::SanitizeName(in), out, "for '" << in << "'");
        }
        // Long names: cut to 200 bytes, keeping the extension and whole characters.
        const std::string euros = [] {
            std::string s;
            for (int i = 0; i < 100; ++i)
            {
                s += "\xe2\x82\xac";
            }
            return s;
        }();
        const std::string cut = RudpFileReceiver::SanitizeName(euros + ".txt");
        NS_TEST_EXPECT_MSG_EQ(cut, euros.substr(0, 195) + ".txt", "whole characters kept");
        NS_TEST_EXPECT_MSG_EQ(RudpFileReceiver::SanitizeName(std::string(300, 'a')),
                              std::string(200, 'a'),
                              "no extension");
        NS_TEST_EXPECT_MSG_EQ(
            RudpFileReceiver::SanitizeName(std::string(300, 'a') + "." + std::string(40, 'e')),
            std::string(200, 'a'),
            "an over-long extension is not kept");
    }
};

/**
 * \ingroup rudp-test
 * SHA-256 (RudpSha256 with the build's backend, and RudpSha256Portable in
 * every build) against the examples of NIST FIPS 180-4 (the empty message,
 * "abc", the 448-bit and 896-bit messages, one million 'a'), messages
 * around the 55/56/64-byte padding boundaries, and any split of a message
 * into Update calls.
 */
class RudpSha256Test : public TestCase
{
  public:
    RudpSha256Test()
        : TestCase("SHA-256: NIST FIPS 180-4 vectors, padding boundaries, split updates")
    {
    }

  private:
    /// \return the hex SHA-256 of \p message given in pieces of \p piece bytes (0: at once)
    template <typename Sha>
    static std::string Digest(const std::string& message, size_t piece)
    {
        Sha sha;
        const auto* data = reinterpret_cast<const uint8_t*>(message.data());
        const size_t step = piece == 0 ? std::max<size_t>(message.size(), 1) : piece;
        for (size_t offset = 0; offset < message.size(); offset += step)
        {
            sha.Update(data + offset, std::min(step, message.size() - offset));
        }
        if constexpr (std::is_same_v<Sha, RudpSha256>)
        {
            return sha.Finish();
        }
        else
        {
            const RudpSha256::Digest digest = sha.Finish();
            return RudpSha256::ToHex(digest.data(), digest.size());
        }
    }

    void DoRun() override
    {
        const std::string backend = RudpSha256::GetBackend();
        NS_TEST_ASSERT_MSG_EQ((backend == "openssl" || backend == "portable"), true, backend);
        const std::vector<std::pair<std::string, std::string>> vectors{
            // FIPS 180-4's examples (NIST's "SHA256.pdf" and SHAVS).
            {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
            {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
            {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
            {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
             "klmnopqrlmnopqrsmnopqrstnopqrstu",
             "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
            {std::string(1000000, 'a'),
             "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
            // Padding: 55 bytes leave room for the length in the block, 56 do
            // not; 64 fill a block, 119/120 the same one block on.
            {std::string(55, 'a'),
             "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
            {std::string(56, 'a'),
             "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
            {std::string(63, 'a'),
             "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
            {std::string(64, 'a'),
             "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
            {std::string(65, 'a'),
             "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
            {std::string(119, 'a'),
             "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
            {std::string(120, 'a'),
             "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
        };
        for (const auto& [message, expected] : vectors)
        {
            for (size_t piece : {size_t{0}, size_t{1}, size_t{7}, size_t{64}, size_t{1000}})
            {
                if (piece == 1 && message.size() > 1000)
                {
                    continue; // a million single-byte calls prove nothing more
                }
                NS_TEST_EXPECT_MSG_EQ(Digest<RudpSha256Portable>(message, piece),
                                      expected,
                                      "portable, " << message.size() << " bytes in pieces of "
                                                   << piece);
                NS_TEST_EXPECT_MSG_EQ(Digest<RudpSha256>(message, piece),
                                      expected,
                                      backend << ", " << message.size() << " bytes in pieces of "
                                              << piece);
            }
        }
    }
};

/// \ingroup rudp-test
/// File transfer test suite.
class RudpFileTestSuite : public TestSuite
{
  public:
    RudpFileTestSuite()
        : TestSuite("rudp-file")
    {
        AddTestCase(new RudpFileUndetectedCorruptionTest(true));
        AddTestCase(new RudpFileUndetectedCorruptionTest(false));
        for (uint64_t size : {0, 1, 1399, 100000})
        {
            AddTestCase(new RudpFileSizesTest(size));
        }
        AddTestCase(new RudpFileSendBufferTest(8192, 16384, 16, 100000));
        AddTestCase(new RudpFileSendBufferTest(100, 16384, 150, 5000));
        AddTestCase(new RudpFileNameTest("300 bytes",
                                         std::string(296, 'n') + ".bin",
                                         std::string(196, 'n') + ".bin"));
        AddTestCase(new RudpFileNameTest("NUL and control characters",
                                         std::string("a\0b\x01"
                                                     "c\n\x7f.bin",
                                                     11),
                                         "a_b_c__.bin"));
        AddTestCase(new RudpFileNameTest("bytes that are not UTF-8", "\xff\xfe.bin", "__.bin"));
        AddTestCase(new RudpFileNameTest("directory parts", "../../up/x.bin", "x.bin"));
        AddTestCase(new RudpFileNameTest("only '..'", "..", "unnamed"));
        for (auto taker : {RudpFileNameTakenTest::DIRECTORY,
                           RudpFileNameTakenTest::REGULAR_FILE,
                           RudpFileNameTakenTest::SYMLINK,
                           RudpFileNameTakenTest::PARTIAL_SYMLINK})
        {
            AddTestCase(new RudpFileNameTakenTest(taker));
        }
        AddTestCase(new RudpFileSameNameTest);
        for (auto fault : {RudpFileBadStreamTest::MORE_BYTES,
                           RudpFileBadStreamTest::MISSING_TRAILER,
                           RudpFileBadStreamTest::GARBLED_TRAILER,
                           RudpFileBadStreamTest::SHORT_RECORD,
                           RudpFileBadStreamTest::BYTES_AFTER_END,
                           RudpFileBadStreamTest::SILENT_PEER})
        {
            AddTestCase(new RudpFileBadStreamTest(fault));
        }
        AddTestCase(new RudpFileWriteErrorTest);
        for (auto how : {RudpFileSenderGoneTest::STOPPED,
                         RudpFileSenderGoneTest::CUT_IDLE,
                         RudpFileSenderGoneTest::CUT_KEEP_WAITING})
        {
            AddTestCase(new RudpFileSenderGoneTest(how));
        }
        AddTestCase(new RudpFileKeepPartialTest);
        AddTestCase(new RudpFileReceiverStartTest);
        AddTestCase(new RudpFileSenderFailureTest);
        AddTestCase(new RudpFileSanitizeNameTest);
        AddTestCase(new RudpSha256Test);
    }
};

/// Static instance registering the suite.
static RudpFileTestSuite g_rudpFileTestSuite;
