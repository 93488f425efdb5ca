"""What one delivered packet costs a CMT association as paths are added (issue 25).

Two tables. The first runs ``rudp-cmt`` (seed 002's applications) with 1 to
``--max-paths`` disjoint paths, each of the same
rate and RTT (100 Mbit/s and 200 ms by default: a window of about 1 700
packets a path), a loss rate low enough that the windows open (2e-5) and
the unbounded receive buffer, one process per run, and prints the CPU time
(user plus system, from the process's rusage) per delivered packet and its
ratio to one path's. A sender whose per-SACK work walks the association's
window shows the ratio growing with the paths, for n paths keep n windows
in flight; the goal is at most 1.3 at four paths.

The second runs ``rudp-transport-cost``: 100 MB over 1 to ``--max-paths``
links of 1 Gbit/s side by side, BulkSend to PacketSink over the multipath
socket (``--transport=rudp-cmt --paths=n``), against the same over the
single-path RudpSocket (``--transport=rudp-reno``, one link), in rounds of
one run of each so that the machine's drift falls on all alike: the goal is
at most 1.3 times the single-path socket's cost per packet, judged on the
median of each round's ratio.

CPU time on a shared or virtual machine varies by 20 % from run to run,
more than the differences the goal is about. ``--instructions`` adds a
third table that does not vary: the instructions per delivered packet that
``valgrind --tool=callgrind`` counts for the same socket runs with 20 MB,
less those of a run that moves one packet (set-up and teardown), and
their ratio to RudpSocket's (about four minutes; needs valgrind). Run by
hand, not a test::

    .venv/bin/python bench/multipath_cost.py [--repeat K] [--max-paths N] [--duration S]
                                             [--instructions]
    make bench-multipath
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys

from measured_run import Cost, run_counted, run_measured

from rudp import paths

SEGMENT_BYTES = 1468
SOCKET_BYTES = 100_000_000
INSTRUCTION_BYTES = 20_000_000
GOAL = 1.3


def options(n: int, rate_mbps: int, rtt_ms: int, duration_s: float) -> list[str]:
    """rudp-cmt's options for ``n`` paths."""
    return [
        f"--paths={n}",
        f"--rate={rate_mbps}Mbps",
        f"--rtt={rtt_ms}ms",
        "--loss=0.00002",
        f"--rbuf={1 << 28}",
        f"--mss={SEGMENT_BYTES}",
        f"--duration={duration_s:g}s",
        "--warmup=1s",
    ]


def measure(n: int, args: argparse.Namespace, build: paths.Build) -> Cost:
    """The median CPU time of ``args.repeat`` runs with ``n`` paths, and its packets."""
    runs = [
        run_measured(build, "rudp-cmt", options(n, args.rate_mbps, args.rtt_ms, args.duration))
        for _ in range(args.repeat)
    ]
    packets = int(runs[0].record["delivered_bytes"]) // SEGMENT_BYTES
    return Cost(statistics.median(run.cpu_s for run in runs), packets)


def measure_sockets(
    max_paths: int, args: argparse.Namespace, build: paths.Build
) -> tuple[Cost, list[Cost], list[float]]:
    """RudpSocket's cost and the multipath socket's with 1 to ``max_paths`` paths.

    The runs go in rounds, one of each transport a round, so that the
    machine's drift (a shared or virtual machine's CPU time varies by 20 %
    over minutes) falls on all of them alike. Returns the median cost of
    each, and each number of paths' median over the rounds of its cost per
    packet against the RudpSocket run of the same round.
    """
    transports = [["--transport=rudp-reno"]] + [
        ["--transport=rudp-cmt", f"--paths={n}"] for n in range(1, max_paths + 1)
    ]
    rounds = [
        [
            run_measured(build, "rudp-transport-cost", [*transport, f"--bytes={SOCKET_BYTES}"])
            for transport in transports
        ]
        for _ in range(args.repeat)
    ]
    costs = [
        Cost(statistics.median(run[i].cpu_s for run in rounds), int(rounds[0][i].record["packets"]))
        for i in range(len(transports))
    ]
    per_packet = [
        [Cost(r.cpu_s, int(r.record["packets"])).us_per_packet for r in run] for run in rounds
    ]
    paired = [
        statistics.median(run[i] / run[0] for run in per_packet) for i in range(1, len(transports))
    ]
    return costs[0], costs[1:], paired


def socket_table(single: Cost, costs: list[Cost], paired: list[float]) -> list[str]:
    """The printed table: a row per number of links, its cost, the ratio to RudpSocket's,
    and the median ratio of the runs paired by round."""
    lines = [f"{'paths':>5}{'packets':>12}{'us/pkt':>10}{'x':>7}{'paired':>8}"]
    lines.append(f"{'RUDP':>5}{single.packets:>12}{single.us_per_packet:>10.1f}{1:>7.2f}{1:>8.2f}")
    for n, (cost, pair) in enumerate(zip(costs, paired, strict=True), 1):
        ratio = cost.us_per_packet / single.us_per_packet
        lines.append(
            f"{n:>5}{cost.packets:>12}{cost.us_per_packet:>10.1f}{ratio:>7.2f}{pair:>8.2f}"
        )
    return lines


def counted_run(build: paths.Build, options: list[str]) -> tuple[int, int]:
    """The instructions of a ``rudp-transport-cost`` run under callgrind, and its packets."""
    count, record = run_counted(build, "rudp-transport-cost", options)
    return count, int(record["packets"])


def instructions_per_packet(transport: list[str], build: paths.Build) -> tuple[float, int]:
    """The instructions per delivered packet of ``INSTRUCTION_BYTES`` over ``transport``,
    less those of a run that moves one packet, and the packets."""
    total, packets = counted_run(build, [*transport, f"--bytes={INSTRUCTION_BYTES}"])
    setup, one = counted_run(build, [*transport, "--bytes=1000"])
    return (total - setup) / (packets - one), packets


def instruction_table(single: tuple[float, int], counts: list[tuple[float, int]]) -> list[str]:
    """The printed table: RudpSocket's and each number of paths' instructions per packet
    and packets, and their ratio to RudpSocket's."""
    lines = [f"{'paths':>5}{'packets':>12}{'instr/pkt':>12}{'x':>7}"]
    for name, (count, packets) in [("RUDP", single), *enumerate(counts, 1)]:
        lines.append(f"{name:>5}{packets:>12}{count:>12.0f}{count / single[0]:>7.2f}")
    return lines


def table(costs: list[Cost]) -> list[str]:
    """The printed table: a row per number of paths, its cost and the ratio to one path's."""
    lines = [f"{'paths':>5}{'packets':>12}{'us/pkt':>10}{'x':>7}"]
    for n, cost in enumerate(costs, 1):
        ratio = cost.us_per_packet / costs[0].us_per_packet
        lines.append(f"{n:>5}{cost.packets:>12}{cost.us_per_packet:>10.1f}{ratio:>7.2f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per row (median)")
    parser.add_argument("--max-paths", type=int, default=4, help="most paths (1..8)")
    parser.add_argument("--rate-mbps", type=int, default=100, help="each path's rate, Mbit/s")
    parser.add_argument("--rtt-ms", type=int, default=200, help="each path's RTT, ms")
    parser.add_argument("--duration", type=float, default=30, help="simulated seconds (> 1)")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count the socket runs' instructions per packet with callgrind",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat: at least 1")
    if not 1 <= args.max_paths <= 8:
        parser.error("--max-paths: allowed [1, 8]")
    if args.rate_mbps < 1 or args.rtt_ms < 1:
        parser.error("--rate-mbps, --rtt-ms: at least 1")
    if args.duration <= 1:
        parser.error("--duration: more than the 1 s warm-up")
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions: needs valgrind (Debian: apt-get install valgrind)")
    build = paths.standalone_build()
    costs = [measure(n, args, build) for n in range(1, args.max_paths + 1)]
    print(
        f"CPU time per delivered packet, rudp-cmt, paths of {args.rate_mbps} Mbit/s and "
        f"{args.rtt_ms} ms, loss 2e-5, {args.duration:g} s, median of {args.repeat}"
    )
    print("\n".join(table(costs)))
    if args.max_paths >= 4:
        ratio = costs[3].us_per_packet / costs[0].us_per_packet
        verdict = "met" if ratio <= GOAL else "MISSED"
        print(f"\n{verdict:>7}  four paths <= {GOAL} x one path: {ratio:.2f}")
    single, sockets, paired = measure_sockets(args.max_paths, args, build)
    print(
        f"\nCPU time per delivered packet, the multipath socket over 1 Gbit/s links against "
        f"RudpSocket (Reno) over one, {SOCKET_BYTES // 1_000_000} MB, median of {args.repeat} "
        f"rounds (paired: the median of each round's ratio)"
    )
    print("\n".join(socket_table(single, sockets, paired)))
    worst = max(paired)
    verdict = "met" if worst <= GOAL else "MISSED"
    print(f"\n{verdict:>7}  every number of paths <= {GOAL} x RudpSocket (paired): {worst:.2f}")
    if args.instructions:
        single_count = instructions_per_packet(["--transport=rudp-reno"], build)
        counts = [
            instructions_per_packet(["--transport=rudp-cmt", f"--paths={n}"], build)
            for n in range(1, args.max_paths + 1)
        ]
        print(
            f"\nInstructions per delivered packet (callgrind), {INSTRUCTION_BYTES // 1_000_000} MB "
            "less a one-packet run, the same socket runs"
        )
        print("\n".join(instruction_table(single_count, counts)))
        worst = max(count for count, _ in counts) / single_count[0]
        verdict = "met" if worst <= GOAL else "MISSED"
        print(f"\n{verdict:>7}  every number of paths <= {GOAL} x RudpSocket: {worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
