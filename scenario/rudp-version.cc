/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-version.h"

#include "ns3/rudp-sha256.h"

#include <string>

// The build defines RUDP_VERSION for this file alone, from VERSION
// (CMakeLists.txt, wscript), so that a new version recompiles one file
// (python/tests/test_release.py checks that the programs print it).
#ifndef RUDP_VERSION
#define RUDP_VERSION "unknown"
#endif

namespace ns3
{

const char*
RudpVersion()
{
    return RUDP_VERSION;
}

std::string
RudpVersionText()
{
    // RUDP_NS3_MINOR: ns-3's minor version number (999: ns-3-dev).
    const std::string ns3 =
        RUDP_NS3_MINOR == 999 ? "ns-3-dev" : "ns-3." + std::to_string(RUDP_NS3_MINOR);
    const std::string sha = std::string(RudpSha256::GetBackend()) == "openssl"
                                ? "SHA-256 from OpenSSL"
                                : "portable SHA-256";
    return std::string("rudp ") + RudpVersion() + " (" + ns3 + ", " + sha + ")";
}

} // namespace ns3
