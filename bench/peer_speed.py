"""The CPU time of rudp's runs beside ns-2.35's for the same simulated work (issue 44).

The first table runs every point of seed 002's grid (:func:`rudp.ns2.compare.grid_points`:
1-4 paths of 10 Mbit/s, RTT 120-200 ms at 1 % loss and loss 1-5 % at 100 ms,
both receive buffers; ``--quick``: the CI subset) for ``--duration`` simulated
seconds in ns-2.35's SCTP-CMT (``cmt.tcl``, set as rudp's ``--ns2-defaults``
claims) and in ``rudp-cmt --ns2-defaults``, each in its own process, and prints
their CPU seconds (user plus system, from the process's rusage) and the ratio.
Beside them, the floor: ns-3's bare UDP (``rudp-udp-floor``: UdpClient to
UdpServer) carrying the packets the rudp-cmt run carried, counted by a
FlowMonitor of the same run, over the same links. The goals: rudp-cmt at
most 3 times ns-2's CPU at every point, and at most 2 times the floor's.

The second table (``--no-tcp`` leaves it out) runs RUDP's seed Reno with SACK
in ``rudp-cc-comparison`` against ns-2.35's ``Agent/TCP/Sack1`` on the
reno-model path (one flow over a 100 Mbit/s bottleneck, :mod:`rudp.ns2.tcp`,
its matched mode) at RTT 50, 100 and 200 ms and loss 1 % and 5 %, for the
same ``--duration``.

``--instructions`` adds a table of the instructions callgrind counts in the
same rudp-cmt and floor runs, which do not vary with the machine's load
(several minutes a point: with ``--quick`` or ``--paths``); ns-2's are not
counted: valgrind counts every byte of its large memsets (``rep stosb``) as an
instruction, 58 % of its count at 2/100/0.01/2^28.

``--before BUILD`` adds a column of another build's rudp (a standalone build
copied with its libraries, as /work/baseline-3cb4e08: ``bin/``, ``lib/`` and
the wheel's ``ns3-lib64/``), run in the same rounds. The runs of a point go in
rounds (``--repeat``, the median of each), one of each program a round, so
that the machine's drift falls on all of them alike. ns-2.35 is Debian's
``ns2`` (``scripts/install-ns2.sh``). Run by hand, not a test::

    .venv/bin/python bench/peer_speed.py [--quick] [--paths 2,3,4] [--repeat K]
        [--duration S] [--seed N] [--before BUILD] [--ns3-build TREE] [--no-tcp]
        [--instructions]
    make bench-peer
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from measured_run import run_command, run_counted, run_measured

from rudp import paths
from rudp.ns2 import NS2_DEFAULTS, Point, driver, tcp
from rudp.ns2 import compare as cmt_grid
from rudp.runner import Value, format_value

#: rudp-cmt at most this many times ns-2.35's CPU at every point.
GOAL_NS2 = 3.0
#: rudp-cmt at most this many times the CPU of ns-3's bare UDP carrying its packets.
GOAL_FLOOR = 2.0
#: RudpCmtReceiver's Port: where the data goes, whence the SACKs come.
RECEIVER_PORT = 5000
#: FlowMonitor counts a packet's bytes with its IPv4 header; UDP's is 8 more.
IP_UDP_HEADERS = 20 + 8
#: The reno-model points of the TCP table: (RTT ms, loss).
TCP_POINTS = [(rtt, loss) for rtt in (50, 100, 200) for loss in (0.01, 0.05)]
#: The RUDP sender of the TCP table (with SACK, an ACK a segment: ns-2's Sack1).
TCP_SENDER = "RUDP Reno, SACK, b=1"


@dataclass(frozen=True)
class CopiedBuild(paths.Build):
    """A standalone build copied elsewhere with its libraries (``lib/``, and the
    wheel's in ``ns3-lib64/``), which its programs find through the loader path."""

    @property
    def library_folders(self) -> tuple[Path, ...]:
        return tuple(f for f in (self.folder / "lib", self.folder / "ns3-lib64") if f.is_dir())


@dataclass(frozen=True)
class FlowCounts:
    """What a rudp-cmt run carried: packets on each path each way, mean UDP payloads."""

    data: list[int]
    acks: list[int]
    data_size: int
    ack_size: int


@dataclass(frozen=True)
class CpuRow:
    """One point: each program's median CPU seconds (None: not run)."""

    label: str
    ns2_s: float
    rudp_s: float
    before_s: float | None = None
    floor_s: float | None = None


def flow_counts(xml: str, n_paths: int) -> FlowCounts:
    """The packets of a rudp-cmt run's FlowMonitor XML, per path and direction: data
    to the receiver's port, SACKs from it; path i has the addresses 10.(i+1).1.x."""
    root = ET.fromstring(xml)
    stats = {f.get("flowId"): f for f in root.iterfind("FlowStats/Flow")}
    data, acks = [0] * n_paths, [0] * n_paths
    data_bytes, ack_bytes = 0, 0
    for flow in root.iterfind("Ipv4FlowClassifier/Flow"):
        counted = stats[flow.get("flowId")]
        packets, size = int(counted.get("txPackets", 0)), int(counted.get("txBytes", 0))
        to_receiver = int(flow.get("destinationPort", 0)) == RECEIVER_PORT
        receiver = flow.get("destinationAddress" if to_receiver else "sourceAddress", "")
        path = int(receiver.split(".")[1]) - 1
        if not 0 <= path < n_paths:
            raise ValueError(f"a flow of {receiver} is on none of the {n_paths} paths")
        if to_receiver:
            data[path] += packets
            data_bytes += size
        else:
            acks[path] += packets
            ack_bytes += size
    if sum(data) == 0 or sum(acks) == 0:
        raise ValueError("the FlowMonitor saw no data or no SACK")
    return FlowCounts(
        data,
        acks,
        round(data_bytes / sum(data)) - IP_UDP_HEADERS,
        round(ack_bytes / sum(acks)) - IP_UDP_HEADERS,
    )


def arguments(params: dict[str, Value]) -> list[str]:
    """A program's command-line options for ``params``."""
    return [f"--{name}={format_value(value)}" for name, value in params.items()]


def cmt_options(point: Point, seed: int, duration_s: float, warmup_s: float) -> list[str]:
    """rudp-cmt's options at ``point``: what the ns-2 cross-check runs (--ns2-defaults)."""
    return arguments(driver.rudp_params(point, seed, NS2_DEFAULTS, duration_s, warmup_s))


def floor_options(point: Point, counts: FlowCounts, duration_s: float) -> list[str]:
    """rudp-udp-floor's options: the links of ``point`` carrying ``counts``."""
    return [
        f"--paths={point.paths}",
        f"--rtt={point.rtt_ms}ms",
        f"--loss={point.loss:g}",
        "--queue=ns2",
        f"--duration={duration_s:g}s",
        "--data=" + ",".join(str(n) for n in counts.data),
        "--acks=" + ",".join(str(n) for n in counts.acks),
        f"--data-size={counts.data_size}",
        f"--ack-size={counts.ack_size}",
    ]


def ns2_cpu(command: list[str]) -> float:
    """The CPU seconds of one ns-2 run (in a scratch folder: ns-2 may write there)."""
    with tempfile.TemporaryDirectory() as scratch:
        stdout, usage = run_command(command, cwd=Path(scratch))
    if not stdout.strip():
        raise RuntimeError(f"{' '.join(command)} printed nothing")
    return usage.ru_utime + usage.ru_stime


def count_packets(build: paths.Build, options: list[str], n_paths: int) -> FlowCounts:
    """The packets of a rudp-cmt run with ``options`` (run once more, with a FlowMonitor)."""
    with tempfile.TemporaryDirectory() as workdir:
        xml = Path(workdir) / "flows.xml"
        run_measured(build, "rudp-cmt", [*options, f"--flowmon-xml={xml}"])
        return flow_counts(xml.read_text(), n_paths)


def median_rounds(runs: dict[str, Callable[[], float]], repeat: int) -> dict[str, float]:
    """Each run's median over ``repeat`` rounds of one run of each."""
    rounds = [{name: run() for name, run in runs.items()} for _ in range(repeat)]
    return {name: statistics.median(r[name] for r in rounds) for name in runs}


def point_label(point: Point) -> str:
    """A point of the grid as the tables name it: paths/RTT/p/rbuf."""
    return f"{point.label()}/{'2^28' if point.rbuf == 1 << 28 else point.rbuf}"


def measure_cmt(
    point: Point,
    args: argparse.Namespace,
    build: paths.Build,
    before: paths.Build | None,
    counts: FlowCounts,
) -> CpuRow:
    """One point of seed 002's grid in ns-2, rudp-cmt (and ``before``'s), and the floor
    carrying ``counts``."""
    options = cmt_options(point, args.seed, args.duration, args.warmup)
    ns2 = driver.ns2_command(point, args.seed, NS2_DEFAULTS, args.duration, args.warmup)
    floor = floor_options(point, counts, args.duration)
    runs: dict[str, Callable[[], float]] = {
        "ns2": lambda: ns2_cpu(ns2),
        "rudp": lambda: run_measured(build, "rudp-cmt", options).cpu_s,
        "floor": lambda: run_measured(build, "rudp-udp-floor", floor).cpu_s,
    }
    if before is not None:
        runs["before"] = lambda: run_measured(before, "rudp-cmt", options).cpu_s
    cpu = median_rounds(runs, args.repeat)
    return CpuRow(point_label(point), cpu["ns2"], cpu["rudp"], cpu.get("before"), cpu["floor"])


def count_cmt(
    point: Point,
    args: argparse.Namespace,
    build: paths.Build,
    before: paths.Build | None,
    counts: FlowCounts,
) -> CpuRow:
    """The same runs' instructions (callgrind), in billions, in a CpuRow's places; ns-2's
    are not counted (0): valgrind counts its memsets byte by byte."""
    options = cmt_options(point, args.seed, args.duration, args.warmup)
    floor = floor_options(point, counts, args.duration)

    def billions(program: str, of: paths.Build, options: list[str]) -> float:
        return run_counted(of, program, options)[0] / 1e9

    return CpuRow(
        point_label(point),
        0.0,
        billions("rudp-cmt", build, options),
        billions("rudp-cmt", before, options) if before is not None else None,
        billions("rudp-udp-floor", build, floor),
    )


def measure_tcp(
    rtt_ms: int,
    loss: float,
    args: argparse.Namespace,
    build: paths.Build,
    before: paths.Build | None,
) -> CpuRow:
    """One reno-model point: RUDP's seed Reno against ns-2's Sack1."""
    point = tcp.Point(TCP_SENDER, rtt_ms, loss)
    duration, warmup = args.duration, args.warmup
    ns2 = tcp.ns2_command(point, args.seed, tcp.MODES["matched"], duration, warmup)
    options = arguments(tcp.rudp_params(point, args.seed, duration, warmup))
    runs: dict[str, Callable[[], float]] = {
        "ns2": lambda: ns2_cpu(ns2),
        "rudp": lambda: run_measured(build, "rudp-cc-comparison", options).cpu_s,
    }
    if before is not None:
        runs["before"] = lambda: run_measured(before, "rudp-cc-comparison", options).cpu_s
    cpu = median_rounds(runs, args.repeat)
    return CpuRow(point.label(), cpu["ns2"], cpu["rudp"], cpu.get("before"))


def rst_table(header: list[str], cells: list[list[str]]) -> list[str]:
    """An RST simple table: the first column left-aligned, the others right-aligned."""
    widths = [max(len(row[i]) for row in [header, *cells]) for i in range(len(header))]

    def line(row: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()

    rule = "  ".join("=" * w for w in widths)
    return [rule, line(header), rule, *(line(row) for row in cells), rule]


def table(rows: Sequence[CpuRow], first: str) -> list[str]:
    """The printed table: each row's CPU seconds, and rudp's ratio to ns-2's and the
    floor's (and the ``before`` build's seconds and ratio, where measured)."""
    before = any(row.before_s is not None for row in rows)
    floor = any(row.floor_s is not None for row in rows)
    header = [first, "ns-2 s"]
    header += ["before s", "x ns-2"] if before else []
    header += ["rudp s", "x ns-2"]
    header += ["floor s", "x floor"] if floor else []
    cells = []
    for row in rows:
        cell = [row.label, f"{row.ns2_s:.2f}"]
        if before:
            b = row.before_s if row.before_s is not None else float("nan")
            cell += [f"{b:.2f}", f"{b / row.ns2_s:.2f}"]
        cell += [f"{row.rudp_s:.2f}", f"{row.rudp_s / row.ns2_s:.2f}"]
        if floor:
            f = row.floor_s if row.floor_s is not None else float("nan")
            cell += [f"{f:.2f}", f"{row.rudp_s / f:.2f}"]
        cells.append(cell)
    return rst_table(header, cells)


def count_table(rows: Sequence[CpuRow], first: str) -> list[str]:
    """The printed table of instruction counts: rudp's (and ``before``'s) and the floor's,
    and their ratios to the floor."""
    before = any(row.before_s is not None for row in rows)
    header = [first, "floor G"]
    header += ["before G", "x floor"] if before else []
    header += ["rudp G", "x floor"]
    cells = []
    for row in rows:
        floor = row.floor_s if row.floor_s is not None else float("nan")
        cell = [row.label, f"{floor:.2f}"]
        if before:
            b = row.before_s if row.before_s is not None else float("nan")
            cell += [f"{b:.2f}", f"{b / floor:.2f}"]
        cell += [f"{row.rudp_s:.2f}", f"{row.rudp_s / floor:.2f}"]
        cells.append(cell)
    return rst_table(header, cells)


def verdicts(rows: Sequence[CpuRow]) -> list[str]:
    """Whether the goals hold at every point: the worst ratio to ns-2 and to the floor."""
    worst = max(rows, key=lambda row: row.rudp_s / row.ns2_s)
    ratio = worst.rudp_s / worst.ns2_s
    lines = [
        f"{'met' if ratio <= GOAL_NS2 else 'MISSED':>7}  rudp <= {GOAL_NS2:g} x ns-2 at every "
        f"point: worst {ratio:.2f} ({worst.label})"
    ]
    floored = [row for row in rows if row.floor_s is not None]
    if floored:
        worst = max(floored, key=lambda row: row.rudp_s / (row.floor_s or 1))
        ratio = worst.rudp_s / (worst.floor_s or 1)
        lines.append(
            f"{'met' if ratio <= GOAL_FLOOR else 'MISSED':>7}  rudp <= {GOAL_FLOOR:g} x the "
            f"UDP floor at every point: worst {ratio:.2f} ({worst.label})"
        )
    return lines


def grid(args: argparse.Namespace) -> list[Point]:
    """The points of seed 002's grid to run."""
    n_paths = [int(n) for n in args.paths.split(",")]
    if args.quick:
        return [p for p in cmt_grid.QUICK_POINTS if p.paths in n_paths]
    return cmt_grid.grid_points(n_paths)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="the CI subset of the grid only")
    p.add_argument("--paths", default="1,2,3,4", help="numbers of paths, comma-separated (1..4)")
    p.add_argument("--repeat", type=int, default=1, help="rounds per point (median)")
    p.add_argument("--duration", type=float, default=200, help="simulated seconds (> warm-up)")
    p.add_argument("--warmup", type=float, default=20, help="seconds not counted (>= 0)")
    p.add_argument("--seed", type=int, default=11, help="loss substream and RngRun (>= 1)")
    p.add_argument("--before", type=Path, help="another standalone build's bin/ and lib/")
    p.add_argument(
        "--ns3-build",
        metavar="TREE",
        help="run rudp's programs in this ns-3 tree's build (e.g. make ns3-optimized's) "
        "instead of the standalone build on the wheel",
    )
    p.add_argument("--no-tcp", action="store_true", help="leave out the TCP table")
    p.add_argument(
        "--instructions",
        action="store_true",
        help="also count each point's instructions with callgrind (minutes a point)",
    )
    return p


def refusals(args: argparse.Namespace) -> list[str]:
    """What is wrong with the options, each naming the option and its range."""
    errors = []
    if args.repeat < 1:
        errors.append("--repeat: at least 1")
    if args.seed < 1:
        errors.append("--seed: at least 1")
    if not 0 <= args.warmup < args.duration:
        errors.append("--warmup: allowed [0, --duration)")
    if any(n not in {"1", "2", "3", "4"} for n in args.paths.split(",")):
        errors.append(f"--paths: {args.paths!r}: allowed numbers of 1..4, comma-separated")
    if args.before is not None and not (args.before / "bin" / "rudp-cmt").is_file():
        errors.append(f"--before: {args.before} has no bin/rudp-cmt")
    if args.ns3_build is not None:
        try:
            paths.ns3_build(args.ns3_build)
        except FileNotFoundError as error:
            errors.append(f"--ns3-build: {error}")
    if args.instructions and shutil.which("valgrind") is None:
        errors.append("--instructions: needs valgrind (Debian: apt-get install valgrind)")
    return errors


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    status = driver.exit_status(refusals(args), needs_ns=True)
    if status is not None:
        return status
    build = paths.ns3_build(args.ns3_build) if args.ns3_build else paths.standalone_build()
    before = CopiedBuild(args.before.resolve()) if args.before is not None else None
    rows, count_rows = [], []
    for point in grid(args):
        counts = count_packets(
            build, cmt_options(point, args.seed, args.duration, args.warmup), point.paths
        )
        rows.append(measure_cmt(point, args, build, before, counts))
        if args.instructions:
            count_rows.append(count_cmt(point, args, build, before, counts))
    print(
        f"CPU seconds (user + system), ns-2.35's SCTP-CMT and rudp-cmt --ns2-defaults, "
        f"{args.duration:g} s simulated, seed {args.seed}, median of {args.repeat}; floor: "
        f"ns-3's bare UDP carrying rudp-cmt's packets (rudp-udp-floor); {build}"
    )
    print("\n".join(table(rows, "paths/RTT/p/rbuf")))
    print("\n".join(verdicts(rows)))
    if count_rows:
        print("\nInstructions (callgrind, billions) of the same runs; ns-2's are not comparable")
        print("\n".join(count_table(count_rows, "paths/RTT/p/rbuf")))
    if not args.no_tcp:
        tcp_rows = [measure_tcp(rtt, loss, args, build, before) for rtt, loss in TCP_POINTS]
        print(
            f"\nCPU seconds, ns-2.35's Agent/TCP/Sack1 and rudp-cc-comparison's RUDP Reno "
            f"(SACK, b=1) on the reno-model path, {args.duration:g} s simulated, "
            f"seed {args.seed}, median of {args.repeat}"
        )
        print("\n".join(table(tcp_rows, "RTT/p")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
