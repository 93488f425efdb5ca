/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_FILE_TRANSFER_HELPER_H
#define RUDP_FILE_TRANSFER_HELPER_H

#include "ns3/address.h"
#include "ns3/application-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup rudp-apps
 * \brief Installs one kind of application, configured through its
 * attributes, on nodes: the part RudpFileSenderHelper and
 * RudpFileReceiverHelper share (ns-3.37 has no ApplicationHelper).
 */
class RudpApplicationHelper
{
  public:
    /// Sets an attribute of every application installed afterwards.
    void SetAttribute(const std::string& name, const AttributeValue& value);
    /// \return one application per node
    ApplicationContainer Install(NodeContainer nodes) const;
    /// \return the application installed on \p node
    ApplicationContainer Install(Ptr<Node> node) const;

  protected:
    /// \param tid the application's TypeId
    explicit RudpApplicationHelper(TypeId tid);

  private:
    ObjectFactory m_factory;
};

/**
 * \ingroup rudp-apps
 * \brief Installs RudpFileSender, as BulkSendHelper installs
 * BulkSendApplication.
 */
class RudpFileSenderHelper : public RudpApplicationHelper
{
  public:
    /**
     * \param protocol the socket factory, e.g. "ns3::RudpSocketFactory"
     * \param remote the receiver's address
     */
    RudpFileSenderHelper(const std::string& protocol, const Address& remote);
};

/**
 * \ingroup rudp-apps
 * \brief Installs RudpFileReceiver, as PacketSinkHelper installs PacketSink.
 */
class RudpFileReceiverHelper : public RudpApplicationHelper
{
  public:
    /**
     * \param protocol the socket factory, e.g. "ns3::RudpSocketFactory"
     * \param local the address to listen on
     */
    RudpFileReceiverHelper(const std::string& protocol, const Address& local);
};

} // namespace ns3

#endif /* RUDP_FILE_TRANSFER_HELPER_H */
