/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_DISTRIBUTED_H
#define RUDP_DISTRIBUTED_H

#include "ns3/node.h"
#include "ns3/ptr.h"

namespace ns3
{

/**
 * \ingroup rudp
 * \brief Which process simulates a node, when ns-3's distributed simulator
 * (src/mpi) splits a simulation across MPI ranks.
 *
 * Every rank builds every node; a node's system id names the rank that
 * simulates it, and only that rank may give it applications or read what
 * they measured. The module's helpers ask here, without MPI of their own:
 * the simulator says which rank runs (Simulator::GetSystemId), the global
 * value SimulatorImplementationType whether a distributed simulator does.
 */
class RudpDistributed
{
  public:
    /// \return true if SimulatorImplementationType is ns-3's
    ///         DistributedSimulatorImpl or NullMessageSimulatorImpl
    static bool IsSelected();
    /**
     * \param node a node
     * \return true if this process simulates \p node: always when the
     *         simulation is not distributed, else if it is this rank's
     */
    static bool IsLocal(Ptr<Node> node);
};

} // namespace ns3

#endif /* RUDP_DISTRIBUTED_H */
