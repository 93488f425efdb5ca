/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rudp-fuzz
 * A main() for a fuzz target built without libFuzzer (any compiler): runs
 * LLVMFuzzerTestOneInput once on every file named on the command line, or
 * in the directories named there, in name order. `make test` replays the
 * committed corpus this way; a crash, an assert or a broken invariant fails
 * the test as it would stop the fuzzer.
 *
 *     rudp-socket-fuzzer-replay test/fuzz/corpus/rudp-socket [more files or dirs]
 *
 * Exit status: 0 when every input ran, 1 when an argument cannot be read or
 * no input was found (an empty corpus proves nothing).
 */

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace
{

bool
Replay(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
    {
        std::fprintf(stderr, "error: cannot read %s\n", file.c_str());
        return false;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replaying %s (%zu bytes)\n", file.c_str(), bytes.size());
    // libFuzzer never passes a null pointer, even for an empty input.
    static const uint8_t empty = 0;
    LLVMFuzzerTestOneInput(bytes.empty() ? &empty : reinterpret_cast<const uint8_t*>(bytes.data()),
                           bytes.size());
    return true;
}

} // namespace

int
main(int argc, char** argv)
{
    size_t replayed = 0;
    for (int i = 1; i < argc; ++i)
    {
        const std::filesystem::path argument(argv[i]);
        std::vector<std::filesystem::path> files;
        std::error_code error;
        if (std::filesystem::is_directory(argument, error))
        {
            for (const auto& entry : std::filesystem::directory_iterator(argument))
            {
                if (entry.is_regular_file())
                {
                    files.push_back(entry.path());
                }
            }
            std::sort(files.begin(), files.end());
        }
        else
        {
            files.push_back(argument);
        }
        for (const auto& file : files)
        {
            if (!Replay(file))
            {
                return 1;
            }
            ++replayed;
        }
    }
    std::fprintf(stderr, "%zu inputs replayed\n", replayed);
    return replayed > 0 ? 0 : 1;
}
