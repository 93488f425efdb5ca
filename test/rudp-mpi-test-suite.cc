/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/example-as-test.h"
#include "ns3/test.h"

#include <sstream>
#include <string>

/**
 * \file
 * \ingroup rudp-test
 * The module's programs split across MPI ranks, run as ns-3 runs its own MPI
 * examples (src/mpi/test): each an example-as-test under `mpiexec -n N`, its
 * output compared with a reference. One reference per program serves every
 * split and both synchronizers, and one process: the output must be the same
 * to the nanosecond, which is the claim. Built only in an ns-3 tree with
 * MPI and examples (CMakeLists.txt); run by test.py, hence by make
 * check-ns3-tree. As root, OpenMPI wants OMPI_ALLOW_RUN_AS_ROOT=1 and
 * OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1, and more ranks than cores
 * OMPI_MCA_rmaps_base_oversubscribe=1 (scripts/check-ns3-tree.sh sets them).
 */

using namespace ns3;

namespace
{

/**
 * An example run by mpiexec on \p ranks ranks with --ranks and
 * --synchronizer, or as one process (\p ranks 1), whose lines that start
 * with the program's name (or are indented) are compared with
 * test/<program>.reflog.
 */
class RudpMpiExampleTestCase : public ExampleAsTestCase
{
  public:
    /**
     * \param program the example
     * \param ranks the ranks (1: one process, without mpiexec)
     * \param synchronizer --synchronizer, with more than one rank
     * \param args the example's other arguments
     */
    RudpMpiExampleTestCase(const std::string& program,
                           uint32_t ranks,
                           const std::string& synchronizer,
                           const std::string& args)
        // Named after the program: every case of it reads one reference.
        : ExampleAsTestCase(program, program, NS_TEST_SOURCEDIR, args),
          m_ranks(ranks),
          m_synchronizer(synchronizer)
    {
    }

  private:
    std::string GetCommandTemplate() const override
    {
        std::ostringstream command;
        if (m_ranks > 1)
        {
            command << "mpiexec -n " << m_ranks << " %s --ranks=" << m_ranks
                    << " --synchronizer=" << m_synchronizer << " " << m_args;
        }
        else
        {
            command << "%s " << m_args;
        }
        return command.str();
    }

    std::string GetPostProcessingCommand() const override
    {
        // What rank 0 printed ("PROGRAM: ..." and the indented lines after
        // it), not mpiexec's lines nor ./ns3's.
        return "| grep -E '^(" + m_program + ": |  )'";
    }

    uint32_t m_ranks;           ///< its ranks
    std::string m_synchronizer; ///< its --synchronizer
};

/// One suite per run, named after the program, its ranks and its synchronizer.
class RudpMpiExampleTestSuite : public TestSuite
{
  public:
    /**
     * \param program the example
     * \param ranks the ranks (1: one process)
     * \param synchronizer --synchronizer
     * \param args the example's other arguments
     */
    RudpMpiExampleTestSuite(const std::string& program,
                            uint32_t ranks,
                            const std::string& synchronizer,
                            const std::string& args)
        : TestSuite(Name(program, ranks, synchronizer), TestSuite::Type::EXAMPLE)
    {
        AddTestCase(new RudpMpiExampleTestCase(program, ranks, synchronizer, args));
    }

  private:
    static std::string Name(const std::string& program, uint32_t ranks, const std::string& sync)
    {
        // rudp-mpi-distributed-2-null-message, rudp-mpi-cc-comparison-1, ...
        std::string name =
            "rudp-mpi-" + program.substr(program.find('-') + 1) + "-" + std::to_string(ranks);
        return ranks > 1 && sync != "distributed" ? name + "-" + sync : name;
    }
};

/// rudp-distributed: three RUDP flows with TCP congestion controls, 1 % loss.
const std::string DISTRIBUTED_ARGS =
    "--transport=rudp --flows=newreno@40ms,cubic@60ms,newreno@30ms+0.5s --rate=10Mbps "
    "--loss=0.01 --bytes=300000 --duration=20";

/// rudp-cc-comparison: two RUDP flows (ns-3's TcpLinuxReno) on both sides of a lossy
/// bottleneck. RUDP and Reno, whose output is the same in every ns-3 release the module
/// supports: the reference serves the CI's trees at both ends of the range (ns-3's TCP
/// and its Cubic and NewReno give other numbers in ns-3.37 than in ns-3.48).
const std::string CC_COMPARISON_ARGS = "--transport=rudp --rate=10Mbps --loss=0.001 "
                                       "--flows=reno@50ms,reno@80ms+1s --duration=5";

RudpMpiExampleTestSuite g_distributed1("rudp-distributed", 1, "distributed", DISTRIBUTED_ARGS);
RudpMpiExampleTestSuite g_distributed2("rudp-distributed", 2, "distributed", DISTRIBUTED_ARGS);
RudpMpiExampleTestSuite g_distributed2NullMessage("rudp-distributed",
                                                  2,
                                                  "null-message",
                                                  DISTRIBUTED_ARGS);
// Three ranks: the second flow's sender on rank 2, away from its router on rank 0.
RudpMpiExampleTestSuite g_distributed3("rudp-distributed", 3, "distributed", DISTRIBUTED_ARGS);
RudpMpiExampleTestSuite g_ccComparison1("rudp-cc-comparison", 1, "distributed", CC_COMPARISON_ARGS);
RudpMpiExampleTestSuite g_ccComparison2("rudp-cc-comparison", 2, "distributed", CC_COMPARISON_ARGS);
RudpMpiExampleTestSuite g_ccComparison2NullMessage("rudp-cc-comparison",
                                                   2,
                                                   "null-message",
                                                   CC_COMPARISON_ARGS);
// Four ranks: each flow's sender and receiver on ranks of their own.
RudpMpiExampleTestSuite g_ccComparison4("rudp-cc-comparison", 4, "distributed", CC_COMPARISON_ARGS);

} // namespace
