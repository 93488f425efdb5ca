/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_COMPAT_H
#define RUDP_COMPAT_H

/**
 * \file
 * \ingroup rudp
 * The one place where the module's sources differ between ns-3 versions
 * (ns-3.35 to ns-3.48). doc/rudp.rst, "Supported ns-3 versions", lists every
 * difference with the release and the ns-3 commit that made it.
 *
 * Each difference is detected from the ns-3 headers the module is compiled
 * against: whether a header exists (__has_include) or whether an expression
 * compiles (a trait), so that every release between the ones CI builds, and
 * an ns-3-dev tree, gets the right branch. Only one difference cannot be seen
 * that way (a protected member, RUDP_HAVE_QUEUE_GET_CONTAINER); it tests
 * RUDP_NS3_MINOR, ns-3's minor version number, which the build defines:
 * CMakeLists.txt from ns-3's version (3.36.1 gives 36; 999 for ns-3-dev),
 * wscript from ns-3's VERSION file (35 for a waf-era ns-3-dev).
 */

#ifndef RUDP_NS3_MINOR
#error "RUDP_NS3_MINOR must be defined by the build (see CMakeLists.txt and wscript)"
#endif

#include "ns3/attribute.h"
#include "ns3/callback.h"
#include "ns3/enum.h"
#include "ns3/ptr.h"

#include <type_traits>
#include <utility>

namespace ns3
{
namespace rudpcompat
{

/**
 * \brief Whether MakeEnumAccessor names the enum type \p T first, as
 * MakeEnumAccessor<T>(accessor), for an accessor of type \p A.
 *
 * ns-3.41 made EnumValue a template over the enum type (commit 647149e39,
 * "Add enum class support to EnumValue"); before, MakeEnumAccessor deduces
 * everything from the accessor and MakeEnumAccessor<T>(accessor) has no
 * viable overload.
 */
template <typename T, typename A, typename = void>
struct EnumAccessorNamesType : std::false_type
{
};

/// \copydoc EnumAccessorNamesType
template <typename T, typename A>
struct EnumAccessorNamesType<T,
                             A,
                             std::void_t<decltype(ns3::MakeEnumAccessor<T>(std::declval<A>()))>>
    : std::true_type
{
};

/**
 * \brief MakeEnumAccessor for an attribute of enum type \p T, in the form the
 * ns-3 version at hand takes.
 * \param accessor the member (or getter/setter) the attribute reads and writes
 * \return the attribute accessor
 */
template <typename T, typename A>
Ptr<const AttributeAccessor>
MakeEnumAccessorOf(A accessor)
{
    if constexpr (EnumAccessorNamesType<T, A>::value)
    {
        return ns3::MakeEnumAccessor<T>(accessor);
    }
    else
    {
        return ns3::MakeEnumAccessor(accessor);
    }
}

/**
 * \brief Whether the TCP state \p S has m_isCwndLimited (RFC 7661), which
 * TcpCubic and TcpLinuxReno read to hold the window when the sender does not
 * fill it: ns-3.42 (commit f75345fa0, "tcp (fixes #966): Suppress cwnd growth
 * when rate-limited").
 */
template <typename S, typename = void>
struct HasCwndLimited : std::false_type
{
};

/// \copydoc HasCwndLimited
template <typename S>
struct HasCwndLimited<S, std::void_t<decltype(std::declval<S&>().m_isCwndLimited)>> : std::true_type
{
};

/**
 * \brief Sets TcpSocketState::m_isCwndLimited where ns-3 has it; elsewhere
 * the congestion controls do not look at it, and there is nothing to set.
 * \param state the TCP state (a TcpSocketState)
 * \param limited whether the sender's window, not the application, limits it
 */
template <typename S>
void
SetCwndLimited([[maybe_unused]] S& state, [[maybe_unused]] bool limited)
{
    if constexpr (HasCwndLimited<S>::value)
    {
        state.m_isCwndLimited = limited;
    }
}

/**
 * \brief MakeEnumAccessor for an attribute of enum type \p T read and written
 * through a setter and a getter, in the form the ns-3 version at hand takes.
 * \param setter the member function that sets the value
 * \param getter the member function that returns it
 * \return the attribute accessor
 */
template <typename T, typename S, typename G>
Ptr<const AttributeAccessor>
MakeEnumAccessorOf(S setter, G getter)
{
    if constexpr (EnumAccessorNamesType<T, G>::value)
    {
        return ns3::MakeEnumAccessor<T>(setter, getter);
    }
    else
    {
        return ns3::MakeEnumAccessor(setter, getter);
    }
}

} // namespace rudpcompat
} // namespace ns3

/// MakeEnumAccessor for the enum-typed member \p member of type \p T.
#define RUDP_MAKE_ENUM_ACCESSOR(T, member) ns3::rudpcompat::MakeEnumAccessorOf<T>(member)

/// MakeEnumAccessor for an attribute of enum type \p T with a setter and a getter.
#define RUDP_MAKE_ENUM_ACCESSOR2(T, setter, getter)                                                \
    ns3::rudpcompat::MakeEnumAccessorOf<T>(setter, getter)

namespace ns3
{
namespace rudpcompat
{
/// TestCase's EXTENSIVE duration before ns-3.42: the enumerator of TestCase::TestDuration.
template <typename Test, typename = void>
struct ExtensiveDurationOf
{
    static constexpr auto value = Test::EXTENSIVE; ///< the duration
};

/// TestCase's EXTENSIVE duration from ns-3.42 on: TestCase::Duration, an enum class.
template <typename Test>
struct ExtensiveDurationOf<Test, std::void_t<typename Test::Duration>>
{
    static constexpr auto value = Test::Duration::EXTENSIVE; ///< the duration
};
} // namespace rudpcompat
} // namespace ns3

/**
 * The EXTENSIVE duration for TestSuite::AddTestCase: TestCase::Duration
 * became an enum class in ns-3.42 (commit e46d2a802), and TestCase::EXTENSIVE
 * is deprecated there. Expanded where the test suite includes ns3/test.h.
 */
#define RUDP_TEST_EXTENSIVE ns3::rudpcompat::ExtensiveDurationOf<ns3::TestCase>::value

/**
 * TCP Westwood+ as its own class, ns3::TcpWestwoodPlus: ns-3.38 (commit
 * 007712164, "internet: (fixes #579) remove TcpWestwood model"). Before, it
 * is ns3::TcpWestwood with ProtocolType=WestwoodPlus.
 */
#if __has_include("ns3/tcp-westwood-plus.h")
#define RUDP_HAVE_TCP_WESTWOOD_PLUS 1
#else
#define RUDP_HAVE_TCP_WESTWOOD_PLUS 0
#endif

namespace ns3
{
namespace rudpcompat
{

/**
 * \brief The callback of a CommandLine callback option, calling
 * (object->*method)(text).
 *
 * Callback takes any function object since ns-3.37 (commit 3e2051566,
 * "core: Use std::function to implement callbacks"); CommandLine's callback
 * options take the text as std::string up to ns-3.37 and as const
 * std::string& from ns-3.38 (commit 7e7f766ff), where a lambda suits both.
 * Before ns-3.37, a MakeCallback of the exact signature.
 * Detected by whether a Callback can be made from a lambda.
 */
template <typename T>
auto
MakeTextCallback(bool (T::*method)(std::string), T* object)
{
    auto call = [method, object](const std::string& text) { return (object->*method)(text); };
    if constexpr (std::is_constructible_v<Callback<bool, std::string>, decltype(call)>)
    {
        return call;
    }
    else
    {
        return MakeCallback(method, object);
    }
}

/**
 * \brief The callback parameter types of Ipv4RoutingProtocol::RouteInput,
 * from the type \p F of a pointer to it: by value in ns-3.35 and 3.37, by
 * const reference in 3.44 and 3.48. Detected from the pointer's type.
 */
template <typename F>
struct RouteInputCallbacksOf;

/// \copydoc RouteInputCallbacksOf
template <typename C,
          typename P,
          typename H,
          typename D,
          typename U,
          typename M,
          typename L,
          typename E>
struct RouteInputCallbacksOf<bool (C::*)(P, H, D, U, M, L, E)>
{
    using Unicast = U;   ///< UnicastForwardCallback's parameter type
    using Multicast = M; ///< MulticastForwardCallback's parameter type
    using Local = L;     ///< LocalDeliverCallback's parameter type
    using Error = E;     ///< ErrorCallback's parameter type
};

} // namespace rudpcompat
} // namespace ns3

/**
 * Queue<Item>::GetContainer(): ns-3.37 (commit 7c73228e7, "network: Remove
 * begin() and end() from Queue class"); ns-3.36 and 3.36.1 still have the
 * protected begin() and end(). Being protected, neither can be probed from
 * here, hence the version number.
 */
#if RUDP_NS3_MINOR >= 37
#define RUDP_HAVE_QUEUE_GET_CONTAINER 1
#else
#define RUDP_HAVE_QUEUE_GET_CONTAINER 0
#endif

/**
 * NeighborCacheHelper: ns-3.37 (commit 87fb2ddcb, "internet: GSoC-22
 * generate ARP/NDISC cache automatically").
 */
#if __has_include("ns3/neighbor-cache-helper.h")
#define RUDP_HAVE_NEIGHBOR_CACHE_HELPER 1
#else
#define RUDP_HAVE_NEIGHBOR_CACHE_HELPER 0
#endif

#endif /* RUDP_COMPAT_H */
