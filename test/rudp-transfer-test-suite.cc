/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-test-network.h"

#include "ns3/applications-module.h"
#include "ns3/test.h"

#include <filesystem>
#include <fstream>
#include <sstream>

/**
 * \file
 * \ingroup rudp-test
 * Whole transfers: byte-identical files over loss and corruption for every
 * variant, stock ns-3 applications over RUDP, reproducibility, bad input.
 */

using namespace ns3;
using namespace ns3::rudptest;

namespace
{

const uint16_t PORT = 2222;

/// SHA-256 of a file on disk.
std::string
Sha256OfFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    RudpSha256 sha;
    std::vector<char> buffer(1 << 16);
    while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0)
    {
        sha.Update(reinterpret_cast<const uint8_t*>(buffer.data()), in.gcount());
    }
    return sha.Finish();
}

/// How a path is impaired, both directions alike.
struct Impairment
{
    double loss{0};       ///< packet loss rate
    double corruption{0}; ///< packet corruption rate
};

/// A file sent with RudpFileSender and received by RudpFileReceiver.
struct FileTransfer
{
    TestNetwork network{MilliSeconds(5), DataRate("20Mbps")};
    ApplicationContainer senderApp;
    ApplicationContainer receiverApp;

    FileTransfer(const std::string& variant,
                 bool sack,
                 Impairment impairment,
                 const std::string& file,
                 uint64_t size,
                 const std::string& outputDir)
    {
        Config::SetDefault("ns3::RudpSocket::WindowPolicy", StringValue("ns3::Rudp" + variant));
        Config::SetDefault("ns3::RudpSocket::Sack", BooleanValue(sack));
        Config::SetDefault("ns3::RudpSocket::InitialRto", TimeValue(MilliSeconds(200)));
        network.AssignStreams(10);
        int64_t stream = 20;
        for (bool server : {true, false})
        {
            Ptr<ErrorModel> model;
            if (impairment.corruption > 0)
            {
                Ptr<RudpCorruptionErrorModel> corrupt = CreateObject<RudpCorruptionErrorModel>();
                corrupt->SetAttribute("ErrorRate", DoubleValue(impairment.corruption));
                corrupt->SetAttribute("HeaderBytes", UintegerValue(28)); // IPv4 + UDP
                corrupt->SetAttribute("TrailerBytes", UintegerValue(0));
                stream += corrupt->AssignStreams(stream);
                model = corrupt;
            }
            else
            {
                Ptr<RateErrorModel> lose = CreateObject<RateErrorModel>();
                lose->SetAttribute("ErrorRate", DoubleValue(impairment.loss));
                lose->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
                stream += lose->AssignStreams(stream);
                model = lose;
            }
            server ? network.SetServerErrorModel(model) : network.SetClientErrorModel(model);
        }
        RudpFileReceiverHelper receiver("ns3::RudpSocketFactory",
                                        InetSocketAddress(Ipv4Address::GetAny(), PORT));
        receiver.SetAttribute("OutputDirectory", StringValue(outputDir));
        receiverApp = receiver.Install(network.Server());
        RudpFileSenderHelper sender("ns3::RudpSocketFactory", network.ServerAddress(PORT));
        sender.SetAttribute("File", StringValue(file));
        sender.SetAttribute("Size", UintegerValue(size));
        senderApp = sender.Install(network.Client());
        senderApp.Start(Seconds(1));
    }

    ~FileTransfer()
    {
        Simulator::Destroy();
        Config::Reset();
    }

    void Run()
    {
        Simulator::Stop(Seconds(100000));
        Simulator::Run();
    }

    Ptr<RudpFileSender> Sender() const
    {
        return DynamicCast<RudpFileSender>(senderApp.Get(0));
    }

    Ptr<RudpFileReceiver> Receiver() const
    {
        return DynamicCast<RudpFileReceiver>(receiverApp.Get(0));
    }
};

} // namespace

/// Every variant delivers the file byte for byte over a bad path.
class RudpByteIdenticalTest : public TestCase
{
  public:
    RudpByteIdenticalTest(std::string variant, bool sack, Impairment impairment)
        : TestCase(Describe(variant, sack, impairment)),
          m_variant(std::move(variant)),
          m_sack(sack),
          m_impairment(impairment)
    {
    }

  private:
    static std::string Describe(const std::string& variant, bool sack, Impairment impairment)
    {
        std::ostringstream os;
        os << variant << (sack ? " with selective repeat" : "")
           << " delivers a file byte for byte at ";
        if (impairment.corruption > 0)
        {
            os << impairment.corruption * 100 << "% corruption";
        }
        else
        {
            os << impairment.loss * 100 << "% loss";
        }
        os << " each way";
        return os.str();
    }

    void DoRun() override
    {
        FileTransfer t(m_variant, m_sack, m_impairment, "", 60000, "");
        t.Run();
        const auto& reports = t.Receiver()->GetReports();
        NS_TEST_ASSERT_MSG_EQ(reports.size(), 1, "one file");
        if (reports.empty())
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(reports[0].complete, true, "complete");
        NS_TEST_ASSERT_MSG_EQ(reports[0].bytes, 60000, "every byte");
        NS_TEST_ASSERT_MSG_EQ(reports[0].sha256, t.Sender()->GetSourceSha256(), "same SHA-256");
        NS_TEST_ASSERT_MSG_EQ(t.Sender()->HasFailed(), false, "no failure");
        if (m_impairment.corruption > 0)
        {
            const auto server = DynamicCast<RudpSocket>(t.Receiver()->GetAcceptedSockets()[0]);
            const auto client = DynamicCast<RudpSocket>(t.Sender()->GetSocket());
            NS_TEST_ASSERT_MSG_GT(server->GetStats().checksumErrors +
                                      client->GetStats().checksumErrors,
                                  0,
                                  "the checksum caught corrupted segments");
        }
    }

    std::string m_variant;
    bool m_sack;
    Impairment m_impairment;
};

/// A real file on disk arrives as a real file on disk.
class RudpFileOnDiskTest : public TestCase
{
  public:
    RudpFileOnDiskTest()
        : TestCase("a file on disk is written to the output directory byte for byte, streamed")
    {
    }

  private:
    void DoRun() override
    {
        const std::string dir = CreateTempDirFilename("rudp-file-on-disk");
        std::filesystem::create_directories(dir + "/in");
        const std::string input = dir + "/in/odd-size.bin";
        {
            std::ofstream out(input, std::ios::binary);
            for (int i = 0; i < 123457; ++i)
            {
                out.put(static_cast<char>((i * 7919) >> 3));
            }
        }
        FileTransfer t("Reno", false, {0.05, 0}, input, 0, dir + "/out");
        t.Run();
        const auto& reports = t.Receiver()->GetReports();
        NS_TEST_ASSERT_MSG_EQ(reports.size(), 1, "one file");
        if (reports.empty())
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(reports[0].name, "odd-size.bin", "name from the first segment");
        NS_TEST_ASSERT_MSG_EQ(reports[0].size, 123457, "length from the first segment");
        NS_TEST_ASSERT_MSG_EQ(reports[0].path, dir + "/out/odd-size.bin", "written there");
        NS_TEST_ASSERT_MSG_EQ(Sha256OfFile(reports[0].path), Sha256OfFile(input), "identical file");
        NS_TEST_ASSERT_MSG_EQ(t.Sender()->GetSourceSha256(),
                              Sha256OfFile(input),
                              "sender's digest");
        std::filesystem::remove_all(dir);
    }
};

/// Stock BulkSendApplication and PacketSink work over RudpSocketFactory.
class RudpBulkSendTest : public TestCase
{
  public:
    explicit RudpBulkSendTest(std::string variant)
        : TestCase("BulkSendApplication to PacketSink over ns3::RudpSocketFactory (" + variant +
                   ")"),
          m_variant(std::move(variant))
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RudpSocket::WindowPolicy", StringValue("ns3::Rudp" + m_variant));
        TestNetwork network(MilliSeconds(2), DataRate("50Mbps"));
        Ptr<RateErrorModel> lose = CreateObject<RateErrorModel>();
        lose->SetAttribute("ErrorRate", DoubleValue(0.02));
        lose->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        network.SetServerErrorModel(lose);
        PacketSinkHelper sinkHelper("ns3::RudpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), PORT));
        ApplicationContainer sinkApp = sinkHelper.Install(network.Server());
        BulkSendHelper bulk("ns3::RudpSocketFactory", network.ServerAddress(PORT));
        bulk.SetAttribute("MaxBytes", UintegerValue(300000));
        ApplicationContainer bulkApp = bulk.Install(network.Client());
        bulkApp.Start(Seconds(1));
        Simulator::Stop(Seconds(10000));
        Simulator::Run();
        Ptr<PacketSink> sink = DynamicCast<PacketSink>(sinkApp.Get(0));
        NS_TEST_ASSERT_MSG_EQ(sink->GetTotalRx(), 300000, "every byte reached the sink");
        Ptr<RudpSocket> client =
            DynamicCast<RudpSocket>(DynamicCast<BulkSendApplication>(bulkApp.Get(0))->GetSocket());
        NS_TEST_ASSERT_MSG_GT(client->GetStats().retransmissions, 0, "losses were repaired");
        Simulator::Destroy();
        Config::Reset();
    }

    std::string m_variant;
};

/// The same seed and run give the same segments at the same times.
class RudpDeterminismTest : public TestCase
{
  public:
    RudpDeterminismTest()
        : TestCase("same seed and run give identical traces; another run, different ones")
    {
    }

  private:
    static std::string Trace(uint32_t run)
    {
        RngSeedManager::SetRun(run);
        SegmentLog log;
        std::ostringstream os;
        {
            FileTransfer t("Reno", true, {0.1, 0}, "", 30000, "");
            log.Watch(t.network.Client(), "C");
            log.Watch(t.network.Server(), "S");
            t.Run();
        }
        for (const auto& s : log.Segments())
        {
            os << s.time.GetTimeStep() << s.side << s.header << "\n";
        }
        return os.str();
    }

    void DoRun() override
    {
        const uint64_t run = RngSeedManager::GetRun();
        const std::string a = Trace(3);
        const std::string b = Trace(3);
        const std::string c = Trace(4);
        RngSeedManager::SetRun(run);
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "identical traces for the same run");
        NS_TEST_ASSERT_MSG_EQ((a == c), false, "another run differs");
        NS_TEST_ASSERT_MSG_GT(a.size(), 1000, "a real trace");
    }
};

/// Out-of-range attributes and missing files are refused, naming the problem.
class RudpBadInputTest : public TestCase
{
  public:
    RudpBadInputTest()
        : TestCase("out-of-range attributes and a missing input file are refused")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpSocket> socket = CreateObject<RudpSocket>();
        NS_TEST_EXPECT_MSG_EQ(socket->SetAttributeFailSafe("WindowSize", UintegerValue(0)),
                              false,
                              "WindowSize 0");
        NS_TEST_EXPECT_MSG_EQ(socket->SetAttributeFailSafe("WindowSize", UintegerValue(65536)),
                              false,
                              "WindowSize 65536");
        NS_TEST_EXPECT_MSG_EQ(socket->SetAttributeFailSafe("SegmentSize", UintegerValue(65001)),
                              false,
                              "SegmentSize beyond a datagram");
        NS_TEST_EXPECT_MSG_EQ(socket->SetAttributeFailSafe("InitialRto", TimeValue(Seconds(0))),
                              false,
                              "Rto 0");
        NS_TEST_EXPECT_MSG_EQ(socket->SetAttributeFailSafe("ReTxThreshold", UintegerValue(0)),
                              false,
                              "DupAckThreshold 0");
        NS_TEST_EXPECT_MSG_EQ(socket->SetAttributeFailSafe("TimeWait", DoubleValue(-1)),
                              false,
                              "negative TimeWait");
        NS_TEST_EXPECT_MSG_EQ(socket->SetAttributeFailSafe("WindowSize", UintegerValue(65535)),
                              true,
                              "the upper bound itself is fine");

        Ptr<RudpCorruptionErrorModel> model = CreateObject<RudpCorruptionErrorModel>();
        NS_TEST_EXPECT_MSG_EQ(model->SetAttributeFailSafe("ErrorRate", DoubleValue(1.5)),
                              false,
                              "a rate above 1");

        std::string error;
        RudpFileSource source = RudpFileSource::Generated("", 0, 0);
        NS_TEST_EXPECT_MSG_EQ(RudpFileSource::Open("no/such/file.bin", 0, 1, source, error),
                              false,
                              "a missing file");
        NS_TEST_EXPECT_MSG_NE(error.find("no/such/file.bin"), std::string::npos, "names it");
        NS_TEST_EXPECT_MSG_NE(error.find("1.jpg"), std::string::npos, "lists the test set");
        NS_TEST_EXPECT_MSG_EQ(RudpFileSource::Open("3.jpg", 0, 1, source, error),
                              true,
                              "a test-set name");
        NS_TEST_EXPECT_MSG_EQ(source.GetSize(), 11968994, "with the seed's size");
    }
};

/// Generated content is one SplitMix64 stream however it is read.
class RudpGeneratedContentTest : public TestCase
{
  public:
    RudpGeneratedContentTest()
        : TestCase("generated content: byte k is byte k mod 8 of SplitMix64 word k div 8, "
                   "read in pieces of any size")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t seed = 42;
        const size_t size = 200003;
        // The stream by its definition, byte by byte (Steele, Lea, Flood 2014).
        std::vector<uint8_t> expected(size);
        uint64_t state = seed;
        uint64_t word = 0;
        for (size_t k = 0; k < size; ++k)
        {
            if (k % 8 == 0)
            {
                uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
                z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
                z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
                word = z ^ (z >> 31);
            }
            expected[k] = static_cast<uint8_t>(word >> (8 * (k % 8)));
        }
        RudpFileSource source = RudpFileSource::Generated("g", size, seed);
        std::vector<uint8_t> read(size);
        size_t offset = 0;
        const std::vector<size_t> pieces{1, 7, 8, 13, 3, 1468, 16, 65536, 5, 9};
        for (size_t i = 0; offset < size; ++i)
        {
            const size_t got = source.Read(read.data() + offset, pieces[i % pieces.size()]);
            NS_TEST_ASSERT_MSG_GT(got, 0, "bytes until the end");
            offset += got;
        }
        NS_TEST_ASSERT_MSG_EQ(offset, size, "every byte");
        NS_TEST_ASSERT_MSG_EQ(source.GetRemaining(), 0, "nothing left");
        for (size_t k = 0; k < size; ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(+read[k], +expected[k], "byte " << k);
        }
    }
};

/// Corruption flips bits only where it may, and never drops.
class RudpCorruptionModelTest : public TestCase
{
  public:
    RudpCorruptionModelTest()
        : TestCase("corruption model flips bits between the protected bytes and never drops")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RudpCorruptionErrorModel> model = CreateObject<RudpCorruptionErrorModel>();
        model->SetAttribute("ErrorRate", DoubleValue(0.01));
        model->SetAttribute("ErrorUnit", StringValue("PerByte"));
        model->SetAttribute("HeaderBytes", UintegerValue(10));
        model->SetAttribute("TrailerBytes", UintegerValue(4));
        model->AssignStreams(1);
        std::vector<uint8_t> zeros(1000, 0);
        uint64_t flippedBits = 0;
        for (int i = 0; i < 200; ++i)
        {
            Ptr<Packet> p = Create<Packet>(zeros.data(), zeros.size());
            NS_TEST_ASSERT_MSG_EQ(model->IsCorrupt(p), false, "never dropped");
            std::vector<uint8_t> bytes(p->GetSize());
            p->CopyData(bytes.data(), bytes.size());
            NS_TEST_ASSERT_MSG_EQ(bytes.size(), 1000, "size kept");
            for (size_t k = 0; k < bytes.size(); ++k)
            {
                if (k < 10 || k >= 996)
                {
                    NS_TEST_ASSERT_MSG_EQ(+bytes[k], 0, "protected byte " << k);
                }
                flippedBits += __builtin_popcount(bytes[k]);
            }
        }
        // 200 packets x 986 bytes x 1 %: about 1972 bytes, one bit each.
        NS_TEST_ASSERT_MSG_EQ_TOL(flippedBits, 1972, 200, "per-byte rate");
    }
};

/// \ingroup rudp-test
/// Whole-transfer test suite.
class RudpTransferTestSuite : public TestSuite
{
  public:
    RudpTransferTestSuite()
        : TestSuite("rudp-transfer")
    {
        for (const std::string variant : {"StopAndWait", "GoBackN", "Reno"})
        {
            for (double loss : {0.0, 0.05, 0.1, 0.3})
            {
                AddTestCase(new RudpByteIdenticalTest(variant, false, {loss, 0}));
            }
            AddTestCase(new RudpByteIdenticalTest(variant, false, {0, 0.1}));
            AddTestCase(new RudpByteIdenticalTest(variant, true, {0.1, 0}));
            AddTestCase(new RudpByteIdenticalTest(variant, true, {0, 0.1}));
            AddTestCase(new RudpBulkSendTest(variant));
        }
        AddTestCase(new RudpFileOnDiskTest);
        AddTestCase(new RudpDeterminismTest);
        AddTestCase(new RudpBadInputTest);
        AddTestCase(new RudpCorruptionModelTest);
        AddTestCase(new RudpGeneratedContentTest);
    }
};

/// Static instance registering the suite.
static RudpTransferTestSuite g_rudpTransferTestSuite;
