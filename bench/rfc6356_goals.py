"""RFC 6356's goal 2 ("do no harm") of the multipath socket's couplings, as a table.

Runs ``rudp-coupling``: one association of two paths through a 10 Mbit/s,
20 ms bottleneck (base RTT 48 ms, a BDP of 40 packets) beside one or three
TCP flows that grow as RFC 6356's "standard TCP" (ns-3's TcpNewReno, or
with ``--tcp rfc5681-reno`` the standards-track SACK TCP; every segment
acknowledged, as the association's receiver SACKs every segment), for each coupling, bottleneck
queue, number of TCP flows and paths' RTTs, ``--runs`` times (RngRun 1, 2,
...), and prints the association's goodput over one TCP flow's (their
mean's), from ``--warmup`` to ``--duration``: the mean of the runs, and
their lowest and highest. RFC 6356's goal 2 is a ratio of about 1 for LIA
and OLIA; an uncoupled association takes about one TCP flow's share per
path. A row ``one path`` gives the same association with one path, the
reference. Every packet of the senders is jittered by up to one packet's
time at the bottleneck (``rudp-coupling --access-jitter``): without it a
drop-tail queue drops by the flows' phase, not by their congestion control.

The RTTs: ``equal`` (both paths 48 ms, as the TCP flows) and ``unequal``
(the second path's access links 12 ms longer each way: 96 ms; the TCP
flows keep 48 ms, the best path's RTT, which RFC 6356's goal 2 compares
with). ``one path`` rows, the first path alone, come with ``equal``.

The queues: ``default`` (what ns-3 installs: FqCoDel, which gives each path
a flow's share whatever the coupling: goal 2 is out of reach of any
loss-based coupling there, and the verdict says so), ``fifo1`` and
``fifo2.5`` (drop-tail FIFOs of one and 2.5 BDP), ``red`` (RED's
defaults), and ``pfifo-fast`` (ns-3's pfifo_fast of 1000 packets over the
device's 100, its default before 3.29: 27 BDP, where no flow loses a packet
after slow start within minutes, so the ratio is the flows' slow starts').
Run by hand, not a test (each run simulates ``--duration`` seconds)::

    .venv/bin/python bench/rfc6356_goals.py [--runs K] [--duration S] [--warmup S]
                                            [--couplings lia,olia] [--queues fifo1,red]
                                            [--flows 1,3] [--rtts equal,unequal]
                                            [--tcp rfc5681-reno|newreno|linux-reno] [--jobs N]
    make bench-coupling
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from measured_run import run_measured

from rudp import paths

COUPLINGS = ("uncoupled", "lia", "olia", "balia", "rpv2")
#: Each queue's name in the table and its options of rudp-coupling.
QUEUES: dict[str, list[str]] = {
    "default": ["--queue=default"],
    "fifo1": ["--queue=fifo", "--queue-packets=40"],
    "fifo2.5": ["--queue=fifo", "--queue-packets=100"],
    "red": ["--queue=red"],
    "pfifo-fast": ["--queue=pfifo-fast", "--queue-packets=1000"],
}
DEFAULT_QUEUES = ("default", "fifo1", "fifo2.5", "red")
#: The paths' RTTs: a name in the table, and the second path's extra one-way
#: delay on each of its two access links (ms): 48 ms + 4 x 12 ms = 96 ms.
RTTS: dict[str, float] = {"equal": 0.0, "unequal": 12.0}
#: The RTTs' column in the table (ms): the first path's, the second's.
RTT_LABELS: dict[str, str] = {"equal": "48/48", "unequal": "48/96"}
#: rudp-coupling's TCP congestion controls (--tcp); the first is its default.
TCP_VARIANTS = ("newreno", "rfc5681-reno", "linux-reno")
#: RFC 6356's goal 2 for a coupled association: between these times one TCP flow's goodput.
GOAL = (0.8, 1.3)
#: The couplings goal 2 is asked of: uncoupled paths take a flow's share each, by design.
COUPLED = ("lia", "olia", "balia", "rpv2")
#: Queues that schedule each path as a flow of its own: no coupling can meet goal 2 there.
FAIR_QUEUES = ("default",)


@dataclass(frozen=True)
class Cell:
    """The ratios of one coupling, queue and number of TCP flows, one per run."""

    ratios: list[float]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.ratios)

    def text(self) -> str:
        """The mean, and the lowest and highest run if there are several."""
        if len(self.ratios) == 1:
            return f"{self.mean:.2f}"
        return f"{self.mean:.2f} ({min(self.ratios):.2f}-{max(self.ratios):.2f})"


@dataclass(frozen=True)
class Row:
    """A row of the table: a coupling (or ``one path``), its TCP flows, the
    paths' RTTs, and a cell per queue."""

    name: str
    flows: int
    rtts: str
    cells: list[Cell]

    def rtt_label(self) -> str:
        """The paths' RTTs (ms) as the table gives them: one path has the first's."""
        return "48" if self.name == "one path" else RTT_LABELS[self.rtts]


def options(
    coupling: str, paths_n: int, queue: str, flows: int, *, rtts: str, args: argparse.Namespace
) -> list[str]:
    """rudp-coupling's options for one cell's runs (RngRun apart)."""
    return [
        f"--coupling={coupling}",
        f"--paths={paths_n}",
        f"--tcp-flows={flows}",
        f"--tcp={args.tcp}",
        *QUEUES[queue],
        f"--extra-delay={RTTS[rtts]:g}ms",
        f"--duration={args.duration:g}s",
        f"--warmup={args.warmup:g}s",
    ]


def ratio(build: paths.Build, options_run: list[str]) -> float:
    """The association's goodput over a TCP flow's in one run of ``rudp-coupling``."""
    return float(run_measured(build, "rudp-coupling", options_run).record["ratio"])


def measure(cell: list[str], runs: int, build: paths.Build, pool: ThreadPoolExecutor) -> Cell:
    """The ratio of each of ``runs`` runs (RngRun 1 to runs) of one cell's options,
    ``pool`` running them."""
    options_runs = [[*cell, f"--RngRun={run}"] for run in range(1, runs + 1)]
    return Cell(list(pool.map(lambda options_run: ratio(build, options_run), options_runs)))


def table(rows: list[Row], queues: list[str]) -> list[str]:
    """The printed table: a row per coupling, number of TCP flows and RTTs,
    a column per queue."""
    width = max(len(cell.text()) for row in rows for cell in row.cells) + 2
    width = max(width, max(len(queue) for queue in queues) + 2)
    lines = [
        f"{'coupling':<12}{'TCP':>4}{'RTTs':>7}" + "".join(f"{queue:>{width}}" for queue in queues)
    ]
    for row in rows:
        lines.append(
            f"{row.name:<12}{row.flows:>4}{row.rtt_label():>7}"
            + "".join(f"{cell.text():>{width}}" for cell in row.cells)
        )
    return lines


def verdicts(rows: list[Row], queues: list[str]) -> list[str]:
    """Goal 2 for the coupled couplings among the rows: each mean within
    GOAL, or the cells that miss it."""
    low, high = GOAL
    judged = [queue for queue in queues if queue not in FAIR_QUEUES]
    coupled = [name for name in COUPLED if any(row.name == name for row in rows)]
    missed = [
        f"{row.name} with {row.flows} TCP, RTTs {row.rtt_label()} ms, behind {queue}: "
        f"{cell.mean:.2f}"
        for row in rows
        if row.name in coupled
        for queue, cell in zip(queues, row.cells, strict=True)
        if queue in judged and not low <= cell.mean <= high
    ]
    lines = [
        f"  n/a  behind {queue}: each path is a flow of its own to the queue"
        for queue in queues
        if queue in FAIR_QUEUES
    ]
    if not judged or not coupled:
        return lines
    if not missed:
        return [
            *lines,
            f"  met  {', '.join(name.upper() for name in coupled)} within {low}-{high} x a TCP "
            f"flow behind {', '.join(judged)}",
        ]
    return [*lines, *(f"MISSED  {miss} (goal {low}-{high})" for miss in missed)]


def names(text: str, allowed: tuple[str, ...] | list[str], option: str) -> list[str]:
    """A comma-separated list of names, each one of ``allowed``."""
    chosen = [name for name in text.split(",") if name]
    unknown = [name for name in chosen if name not in allowed]
    if not chosen or unknown:
        raise ValueError(f"{option}: {','.join(unknown) or 'none'}; allowed: {','.join(allowed)}")
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per cell (RngRun 1..K)")
    parser.add_argument("--duration", type=float, default=300, help="simulated seconds")
    parser.add_argument("--warmup", type=float, default=100, help="seconds before measuring")
    parser.add_argument("--couplings", default=",".join(COUPLINGS), help="comma-separated")
    parser.add_argument("--queues", default=",".join(DEFAULT_QUEUES), help="comma-separated")
    parser.add_argument("--flows", default="1,3", help="numbers of TCP flows, comma-separated")
    parser.add_argument("--rtts", default=",".join(RTTS), help="the paths' RTTs, comma-separated")
    parser.add_argument(
        "--tcp", default=TCP_VARIANTS[0], help=f"the TCP flows' ({', '.join(TCP_VARIANTS)})"
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at once")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs: at least 1")
    if args.jobs < 1:
        parser.error("--jobs: at least 1")
    if not 0 <= args.warmup < args.duration:
        parser.error("--warmup: at least 0 and less than --duration")
    try:
        couplings = names(args.couplings, COUPLINGS, "--couplings")
        queues = names(args.queues, list(QUEUES), "--queues")
        flows = [int(n) for n in names(args.flows, [str(n) for n in range(1, 33)], "--flows")]
        rtts = names(args.rtts, list(RTTS), "--rtts")
        names(args.tcp, TCP_VARIANTS, "--tcp")
    except ValueError as problem:
        parser.error(str(problem))
    build = paths.standalone_build()
    rows: list[Row] = []

    def row(name: str, paths_n: int, n: int, rtt: str, pool: ThreadPoolExecutor) -> Row:
        coupling = "uncoupled" if paths_n == 1 else name
        cells = [
            measure(options(coupling, paths_n, q, n, rtts=rtt, args=args), args.runs, build, pool)
            for q in queues
        ]
        return Row(name, n, rtt, cells)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for rtt in rtts:
            for n in flows:
                if rtt == "equal":
                    rows.append(row("one path", 1, n, rtt, pool))
                rows.extend(row(coupling, 2, n, rtt, pool) for coupling in couplings)
    print(
        "The association's goodput over one TCP flow's: two paths through one 10 Mbit/s, "
        f"20 ms bottleneck, {args.tcp} TCP, {args.warmup:g} to {args.duration:g} s, mean of "
        f"{args.runs} run(s) (lowest-highest)"
    )
    print("\n".join(table(rows, queues)))
    print()
    print("\n".join(verdicts(rows, queues)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
