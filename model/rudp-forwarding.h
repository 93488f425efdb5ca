/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_FORWARDING_H
#define RUDP_FORWARDING_H

#include "ns3/attribute.h"
#include "ns3/object.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rudp
 * \brief Offers the attributes and trace sources of the objects an object
 * owns as its own: a RudpCmtSocket's two engines, or the engine of a
 * RudpCmtSender or RudpCmtReceiver application.
 *
 * The owner's TypeId gets an entry for each attribute (and trace source) of
 * the owned object's TypeId, under the same name, help, checker and support
 * level; setting it on the owner sets it on the owned objects, getting it
 * reads the first, connecting to the trace source connects to the owned
 * object's. So Config::SetDefault, Config paths, CommandLine and
 * PrintAttributes see one list, made from the engine's TypeId: an attribute
 * added to an engine is offered by every owner without a line more.
 *
 * Owned objects are named by bits (an owner with two, such as the socket,
 * uses 1 and 2) and found by the owner's Resolver.
 */
class RudpForwarding
{
  public:
    /// The objects of \p owner named by the bits of \p which, in bit order.
    using Resolver = std::vector<Ptr<Object>> (*)(const ObjectBase* owner, uint8_t which);

    /// How an owner offers the attributes of an owned TypeId.
    struct Rule
    {
        /// Finds the owned objects.
        Resolver resolve{nullptr};
        /**
         * The owned objects an attribute is set on (bits; 0: the owner
         * does not offer it).
         */
        std::function<uint8_t(const TypeId::AttributeInformation&)> targets;
        /**
         * The owner's initial value of an attribute where it differs from
         * the owned TypeId's (nullptr: the same); may be empty.
         */
        std::function<const AttributeValue*(const std::string&)> initial;
    };

    /**
     * \brief Adds to \p owner each attribute of \p owned that \p rule
     * offers and not already in \p owner, and each trace source of \p owned
     * not already in \p owner, forwarded to the objects named by
     * \p traceTarget.
     * \param owner the TypeId being built
     * \param owned the owned object's TypeId
     * \param traceTarget the bit naming the owned object
     * \param rule how the attributes are offered
     */
    static void Add(TypeId& owner, TypeId owned, uint8_t traceTarget, const Rule& rule);

    /**
     * \brief Finds attribute \p name of \p tid or a parent, without
     * TypeId::LookupAttributeByName's notice for a deprecated name (an
     * owner's lookup has given it already).
     * \param tid the TypeId
     * \param name the attribute's name
     * \param [out] info the attribute
     * \return false if there is none of that name
     */
    static bool FindAttribute(TypeId tid,
                              const std::string& name,
                              TypeId::AttributeInformation& info);

    /**
     * \param accessor an attribute's accessor
     * \return true if it forwards to an owned object (Add made it)
     */
    static bool IsForwarded(Ptr<const AttributeAccessor> accessor);

    /**
     * \brief Sets on \p to each forwarded attribute as it is on \p from (two
     * objects of the same TypeId): a copy's engines get the original's
     * configuration.
     * \param tid their TypeId
     * \param from the original
     * \param to the copy
     */
    static void CopyForwarded(TypeId tid, const ObjectBase& from, ObjectBase& to);
};

} // namespace ns3

#endif /* RUDP_FORWARDING_H */
