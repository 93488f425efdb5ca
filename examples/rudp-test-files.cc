/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-examples
 * Writes seed 000's test set (1.jpg, 2.jpg, 3.jpg, helloworld.txt, by size)
 * into a directory, with content generated from a seed: the same files
 * rudp-file-transfer sends when given a test-set name.
 *
 *     ./ns3 run "rudp-test-files --dir=testset --content-seed=1"
 *
 * It simulates nothing (no nodes, no devices, no flows), so unlike the
 * scenario programs it has no --pcap or --flowmon-xml.
 */

#include "ns3/core-module.h"
#include "ns3/rudp-command-line.h"
#include "ns3/rudp-module.h"

#include <iostream>
#include <limits>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string dir = "rudp-test-files";
    uint64_t contentSeed = 1;
    RudpCommandLine cmd(__FILE__);
    // The one program without pcap and FlowMonitor options: it has no network.
    cmd.Usage("Writes seed 000's test set (1.jpg, 2.jpg, 3.jpg, helloworld.txt) into a "
              "directory: the files rudp-file-transfer sends for these names. It simulates "
              "nothing, so it has no tracing options (pcap, FlowMonitor XML).");
    cmd.AddValue("dir",
                 "Directory to write the files into (created if missing)",
                 dir,
                 "a directory path, not empty",
                 [](const std::string& text) {
                     return text.empty() ? std::string("needs a value") : std::string();
                 });
    cmd.AddValue("content-seed",
                 "Seed of the generated content",
                 contentSeed,
                 0,
                 std::numeric_limits<uint64_t>::max());
    cmd.Parse(argc, argv);
    for (const auto& path : RudpFileSource::WriteTestSet(dir, contentSeed))
    {
        std::cout << path << std::endl;
    }
    return 0;
}
