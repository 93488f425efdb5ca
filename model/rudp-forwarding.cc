/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-forwarding.h"

#include "ns3/trace-source-accessor.h"

#include <utility>

namespace ns3
{

namespace
{

/**
 * An attribute of the owner that is an attribute of owned objects: setting
 * it sets it on each, getting it reads the first.
 */
class ForwardedAttributeAccessor : public AttributeAccessor
{
  public:
    ForwardedAttributeAccessor(std::string name, uint8_t targets, RudpForwarding::Resolver resolve)
        : m_name(std::move(name)),
          m_targets(targets),
          m_resolve(resolve)
    {
    }

    bool Set(ObjectBase* object, const AttributeValue& value) const override
    {
        bool ok = true;
        for (const Ptr<Object>& owned : m_resolve(object, m_targets))
        {
            TypeId::AttributeInformation info;
            Ptr<AttributeValue> valid;
            ok = RudpForwarding::FindAttribute(owned->GetInstanceTypeId(), m_name, info) &&
                 (valid = info.checker->CreateValidValue(value)) &&
                 info.accessor->Set(PeekPointer(owned), *valid) && ok;
        }
        return ok;
    }

    bool Get(const ObjectBase* object, AttributeValue& value) const override
    {
        const std::vector<Ptr<Object>> owned = m_resolve(object, m_targets);
        TypeId::AttributeInformation info;
        return !owned.empty() &&
               RudpForwarding::FindAttribute(owned.front()->GetInstanceTypeId(), m_name, info) &&
               info.accessor->Get(PeekPointer(owned.front()), value);
    }

    bool HasGetter() const override
    {
        return true;
    }

    bool HasSetter() const override
    {
        return true;
    }

  private:
    std::string m_name;
    uint8_t m_targets;
    RudpForwarding::Resolver m_resolve;
};

/// A trace source of the owner that is a trace source of an owned object.
class ForwardedTraceSourceAccessor : public TraceSourceAccessor
{
  public:
    ForwardedTraceSourceAccessor(std::string name, uint8_t target, RudpForwarding::Resolver resolve)
        : m_name(std::move(name)),
          m_target(target),
          m_resolve(resolve)
    {
    }

    bool ConnectWithoutContext(ObjectBase* object, const CallbackBase& cb) const override
    {
        Ptr<Object> owned = Owned(object);
        return owned && owned->TraceConnectWithoutContext(m_name, cb);
    }

    bool Connect(ObjectBase* object, std::string context, const CallbackBase& cb) const override
    {
        Ptr<Object> owned = Owned(object);
        return owned && owned->TraceConnect(m_name, context, cb);
    }

    bool DisconnectWithoutContext(ObjectBase* object, const CallbackBase& cb) const override
    {
        Ptr<Object> owned = Owned(object);
        return owned && owned->TraceDisconnectWithoutContext(m_name, cb);
    }

    bool Disconnect(ObjectBase* object, std::string context, const CallbackBase& cb) const override
    {
        Ptr<Object> owned = Owned(object);
        return owned && owned->TraceDisconnect(m_name, context, cb);
    }

  private:
    Ptr<Object> Owned(ObjectBase* object) const
    {
        const std::vector<Ptr<Object>> owned = m_resolve(object, m_target);
        return owned.empty() ? nullptr : owned.front();
    }

    std::string m_name;
    uint8_t m_target;
    RudpForwarding::Resolver m_resolve;
};

} // namespace

void
RudpForwarding::Add(TypeId& owner, TypeId owned, uint8_t traceTarget, const Rule& rule)
{
    for (uint32_t i = 0; i < owned.GetAttributeN(); ++i)
    {
        const TypeId::AttributeInformation info = owned.GetAttribute(i);
        TypeId::AttributeInformation existing;
        const uint8_t targets = rule.targets(info);
        if (targets == 0 || owner.LookupAttributeByName(info.name, &existing))
        {
            continue;
        }
        const AttributeValue* initial = rule.initial ? rule.initial(info.name) : nullptr;
        owner.AddAttribute(info.name,
                           info.help,
                           TypeId::ATTR_SGC,
                           initial ? *initial : *info.initialValue,
                           Create<ForwardedAttributeAccessor>(info.name, targets, rule.resolve),
                           info.checker,
                           info.supportLevel,
                           info.supportMsg);
    }
    for (uint32_t i = 0; i < owned.GetTraceSourceN(); ++i)
    {
        const TypeId::TraceSourceInformation info = owned.GetTraceSource(i);
        if (owner.LookupTraceSourceByName(info.name))
        {
            continue;
        }
        owner.AddTraceSource(
            info.name,
            info.help,
            Create<ForwardedTraceSourceAccessor>(info.name, traceTarget, rule.resolve),
            info.callback,
            info.supportLevel,
            info.supportMsg);
    }
}

bool
RudpForwarding::FindAttribute(TypeId tid,
                              const std::string& name,
                              TypeId::AttributeInformation& info)
{
    for (;; tid = tid.GetParent())
    {
        for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            if (tid.GetAttribute(i).name == name)
            {
                info = tid.GetAttribute(i);
                return true;
            }
        }
        if (tid.GetParent() == tid)
        {
            return false;
        }
    }
}

bool
RudpForwarding::IsForwarded(Ptr<const AttributeAccessor> accessor)
{
    return DynamicCast<const ForwardedAttributeAccessor>(accessor) != nullptr;
}

void
RudpForwarding::CopyForwarded(TypeId tid, const ObjectBase& from, ObjectBase& to)
{
    for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        const TypeId::AttributeInformation info = tid.GetAttribute(i);
        if (IsForwarded(info.accessor))
        {
            Ptr<AttributeValue> value = info.checker->Create();
            if (info.accessor->Get(&from, *value))
            {
                info.accessor->Set(&to, *value);
            }
        }
    }
}

} // namespace ns3
