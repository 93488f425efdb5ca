/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_COMPAT_H
#define RUDP_COMPAT_H

/**
 * \file
 * \ingroup rudp
 * The one place where the module's sources differ between ns-3 versions.
 *
 * RUDP_NS3_MINOR is set by CMakeLists.txt from ns-3's version (37 for
 * ns-3.37, 44 for the ns-3.44 wheel; 999 for ns-3-dev).
 */

#ifndef RUDP_NS3_MINOR
#error "RUDP_NS3_MINOR must be defined by the build (see CMakeLists.txt)"
#endif

#include "ns3/enum.h"

/**
 * \brief MakeEnumAccessor for a member of enum type \p T.
 *
 * ns-3.41 made EnumValue a template whose accessor names the enum type;
 * earlier versions take an int-backed accessor.
 */
#if RUDP_NS3_MINOR >= 41
#define RUDP_MAKE_ENUM_ACCESSOR(T, member) ns3::MakeEnumAccessor<T>(member)
#else
#define RUDP_MAKE_ENUM_ACCESSOR(T, member) ns3::MakeEnumAccessor(member)
#endif

/// TCP Westwood+: its own class from ns-3.38, a protocol type of TcpWestwood before.
#if RUDP_NS3_MINOR >= 38
#define RUDP_HAVE_TCP_WESTWOOD_PLUS 1
#else
#define RUDP_HAVE_TCP_WESTWOOD_PLUS 0
#endif

/// TcpSocketState::m_isCwndLimited (RFC 7661), which some congestion controls read.
#if RUDP_NS3_MINOR >= 39
#define RUDP_HAVE_CWND_LIMITED 1
#else
#define RUDP_HAVE_CWND_LIMITED 0
#endif

/// Queue<Item>::GetContainer() (from ns-3.37); earlier versions have begin() and end().
#if RUDP_NS3_MINOR >= 37
#define RUDP_HAVE_QUEUE_GET_CONTAINER 1
#else
#define RUDP_HAVE_QUEUE_GET_CONTAINER 0
#endif

/// NeighborCacheHelper (from ns-3.36), detected from the tree's own headers.
#if __has_include("ns3/neighbor-cache-helper.h")
#define RUDP_HAVE_NEIGHBOR_CACHE_HELPER 1
#else
#define RUDP_HAVE_NEIGHBOR_CACHE_HELPER 0
#endif

#endif /* RUDP_COMPAT_H */
