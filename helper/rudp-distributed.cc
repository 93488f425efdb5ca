/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rudp-distributed.h"

#include "ns3/global-value.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

namespace ns3
{

bool
RudpDistributed::IsSelected()
{
    StringValue simulator;
    GlobalValue::GetValueByName("SimulatorImplementationType", simulator);
    return simulator.Get() == "ns3::DistributedSimulatorImpl" ||
           simulator.Get() == "ns3::NullMessageSimulatorImpl";
}

bool
RudpDistributed::IsLocal(Ptr<Node> node)
{
    return !IsSelected() || node->GetSystemId() == Simulator::GetSystemId();
}

} // namespace ns3
