/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_VERSION_H
#define RUDP_VERSION_H

#include <string>

namespace ns3
{

/**
 * \ingroup rudp-helpers
 * \return the module's version, from the file VERSION at its root (e.g. "0.2.0")
 */
const char* RudpVersion();

/**
 * \ingroup rudp-helpers
 * \return what --PrintVersion prints: the module's version, the ns-3 release
 *         it was built against and its SHA-256, e.g.
 *         "rudp 0.2.0 (ns-3.44, SHA-256 from OpenSSL)"
 */
std::string RudpVersionText();

} // namespace ns3

#endif /* RUDP_VERSION_H */
