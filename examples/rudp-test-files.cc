/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp
 * Writes seed 000's test set (1.jpg, 2.jpg, 3.jpg, helloworld.txt, by size)
 * into a directory, with content generated from a seed: the same files
 * rudp-file-transfer sends when given a test-set name.
 *
 *     ./ns3 run "rudp-test-files --dir=testset --content-seed=1"
 */

#include "ns3/core-module.h"
#include "ns3/rudp-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string dir = "rudp-test-files";
    uint64_t contentSeed = 1;
    CommandLine cmd(__FILE__);
    cmd.AddValue("dir", "Directory to write the files into (created if missing)", dir);
    cmd.AddValue("content-seed", "Seed of the generated content", contentSeed);
    cmd.Parse(argc, argv);
    if (dir.empty())
    {
        RudpParameterCheck::Fail("dir", "must not be empty");
    }
    for (const auto& path : RudpFileSource::WriteTestSet(dir, contentSeed))
    {
        std::cout << path << std::endl;
    }
    return 0;
}
