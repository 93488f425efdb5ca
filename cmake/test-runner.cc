// The standalone host's test runner: ns-3's own TestRunner over every suite
// linked into this program (see cmake/standalone.cmake).
#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
