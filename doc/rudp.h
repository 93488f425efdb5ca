/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUDP_H
#define RUDP_H

// The module's Doxygen groups, in a doc/ header as ns-3's modules keep theirs
// (src/core/doc/core.h, src/applications/doc/applications.h). Nothing
// includes it and no build lists it: ns-3's Doxygen reads every header under
// contrib/. The model documentation is doc/*.rst (make doc).

/**
 * \defgroup rudp Reliable transport over UDP (rudp)
 *
 * The rudp module: a reliable, connection-oriented transport carried in UDP
 * datagrams (stop-and-wait, Go-Back-N, seed 000's Reno, or any ns-3
 * TcpCongestionOps behind one sender engine), concurrent multipath transfer
 * into one bounded receive buffer, CVTCP, Linux netem as a queue disc, and
 * the scenario programs that reproduce the four studies the module is built
 * from. See the module's model documentation (doc/rudp.rst and the chapters
 * beside it) for the models, their scope and their validation.
 */

/**
 * \ingroup rudp
 * \defgroup rudp-socket RUDP socket
 *
 * The socket and what it is made of: RudpSocket (an ns3::Socket), the
 * socket factory and the stack helper that aggregates it to a node, the
 * segment header and codec, the checksums, the send and receive buffers,
 * and the endpoint that shares a UDP port between connections.
 */

/**
 * \ingroup rudp
 * \defgroup rudp-window RUDP window policies and congestion control
 *
 * How much a sender may have in flight and when it retransmits: the
 * RudpWindowPolicy variants (stop-and-wait, Go-Back-N, seed 000's Reno), the
 * adapter that drives any ns-3 TcpCongestionOps, the sender state they
 * share, TcpCvtcp, and the short names of seed 003's congestion controls.
 */

/**
 * \ingroup rudp
 * \defgroup rudp-cmt Concurrent multipath transfer
 *
 * An SCTP-CMT-style association over n paths into one bounded receive
 * buffer (seed 002): sender, receiver, the per-path state, and the helper
 * that builds seed 002's topology.
 */

/**
 * \ingroup rudp
 * \defgroup rudp-apps RUDP applications
 *
 * Seed 000's file transfer as ns-3 applications: RudpFileSender,
 * RudpFileReceiver, their helpers, the file source and the SHA-256 that
 * checks a transfer end to end.
 */

/**
 * \ingroup rudp
 * \defgroup rudp-impairments Impairments
 *
 * What the network does to packets beyond ns-3's own error models:
 * NetemQueueDisc (Linux netem as a queue disc), RudpCorruptionErrorModel
 * (bits flipped instead of packets dropped) and RudpRelay (seed 000's
 * delaying, sleeping router).
 */

/**
 * \ingroup rudp
 * \defgroup rudp-helpers Scenario tools
 *
 * What the module's scenario programs share: strict command-line parsing
 * and parameter checks, the JSON records, FlowMonitor summaries, and the
 * tracing options (pcap, FlowMonitor XML, congestion-window files).
 */

/**
 * \ingroup rudp
 * \defgroup rudp-examples RUDP examples
 *
 * The scenario programs in examples/ (listed in test/examples-to-run.py).
 */

/**
 * \ingroup rudp
 * \ingroup tests
 * \defgroup rudp-test rudp module tests
 *
 * The rudp-* test suites (./test.py -s rudp-..., or build/bin/test-runner
 * standalone).
 */

/**
 * \ingroup rudp-test
 * \defgroup rudp-fuzz rudp fuzz targets
 *
 * The libFuzzer targets in test/fuzz and their replay driver (make fuzz,
 * make fuzz-replay).
 */

#endif /* RUDP_H */
