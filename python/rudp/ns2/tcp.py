"""RUDP's seed Reno beside ns-2.35's TCP agents on the reno-model preset's path.

``python -m rudp.ns2.tcp`` runs the reno-model grid (one bulk flow over a
100 Mbit/s bottleneck, random loss p = 0.5-10 % of the data, propagation RTT
50-200 ms) in ``rudp-cc-comparison`` with RUDP's seed Reno and in ns-2.35
with the TCP agent that does the same job (:data:`SENDERS`): with SACK,
``Agent/TCP/Sack1`` and ``Agent/TCPSink/Sack1``; without, ``Agent/TCP/Reno``
and ``Agent/TCPSink`` (``/DelAck`` for an ACK every second segment). It
writes per point the means over ``--seeds`` loss substreams of goodput,
timeouts and fast retransmissions, and their ratios (``reno-ns2.md``,
``reno-ns2-runs.csv``).

Modes (``--modes``), what ns-2 is given:

* ``matched``: RUDP's settings in ns-2's names: an initial window of 10
  segments, the RTO at least 1 s (RFC 6298) on a 1 ms timer, a delayed ACK
  of at most 200 ms, and limited transmit (RFC 3042) with SACK only, as
  RUDP has it: with SACK its bytes in flight are RFC 6675's pipe, which
  lets a new segment out for each segment SACKed, duplicates before a fast
  retransmit included; without, a duplicate ACK frees nothing;
* ``stock``: ns-2.35's defaults for these (``windowInit_ 2``, ``minrto_
  0.2``, ``tcpTick_ 0.01``, ``singledup_ 1``, ``interval_ 100ms``).

In both, ns-2's window and initial slow-start threshold never bind (nor do
RUDP's socket buffer and initial threshold: loss alone limits the window).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..runner import Value, run_scenario
from ..sweep.presets.reno_model import grid as reno_grid
from .compare import (
    PairedRuns,
    Section,
    markdown_report,
    run_refusals,
    summary_line,
    write_paired_runs,
)
from .driver import Ns2Error, exit_status, ns_program, parse_counts, run_ns

#: The ns-2.35 driver (a Tcl script run by Debian's ``ns``).
TCL_SCRIPT = Path(__file__).with_name("tcp.tcl")

#: rudp-cc-comparison's segment payload on this path (bytes; its record's segment_size).
SEGMENT = 1448
#: ns-2's window_ and initial ssthresh_ (segments). Neither ever binds, as RUDP's
#: socket buffer (2900 segments and more) and initial threshold (half of it) do not:
#: at p >= 0.5 % the first loss comes within a few hundred segments, and the
#: loss-limited window stays below 200 segments.
WINDOW = 100_000

#: The goal: goodput within 15 % of ns-2, the counts within 30 %.
GOODPUT_TOLERANCE = 0.15
COUNT_TOLERANCE = 0.30


@dataclass(frozen=True)
class Sender:
    """A RUDP Reno sender of the reno-model preset and the ns-2 agent and sink paired with it."""

    label: str
    sack: bool
    b: int
    agent: str
    sink: str


SENDERS = {
    s.label: s
    for s in (
        Sender("RUDP Reno, SACK, b=1", True, 1, "Sack1", "TCPSink/Sack1"),
        Sender("RUDP Reno, SACK, b=2", True, 2, "Sack1", "TCPSink/Sack1/DelAck"),
        Sender("RUDP Reno, no SACK, b=1", False, 1, "Reno", "TCPSink"),
        Sender("RUDP Reno, no SACK, b=2", False, 2, "Reno", "TCPSink/DelAck"),
    )
}


@dataclass(frozen=True)
class Ns2Settings:
    """What ns-2's agent is given besides the path: its names in comments."""

    name: str
    window_init: int  # windowInit_ (segments)
    min_rto_s: float  # minrto_
    tick_s: float  # tcpTick_
    limited_transmit: bool | None  # singledup_ (None: with SACK only, as RUDP)
    delack_s: float  # Agent/TCPSink/DelAck's interval_


MODES = {
    "matched": Ns2Settings("matched", 10, 1.0, 0.001, None, 0.2),
    "stock": Ns2Settings("stock", 2, 0.2, 0.01, True, 0.1),
}


@dataclass(frozen=True)
class Point:
    """A point of the reno-model grid for one sender."""

    sender: str
    rtt_ms: int
    loss: float

    def label(self) -> str:
        return f"{self.rtt_ms}/{self.loss:g}"


@dataclass(frozen=True)
class Outcome:
    """What one run counted: goodput in Mbit/s of segment payload, and over the whole run
    the retransmission timeouts and the fast retransmissions (ns-2: window cuts that were
    not timeouts)."""

    goodput_Mbps: float
    timeouts: int
    fast_retransmits: int


def ns2_command(
    point: Point, seed: int, settings: Ns2Settings, duration_s: float, warmup_s: float
) -> list[str]:
    """The command line of one ns-2 run."""
    program = ns_program()
    if program is None:
        raise Ns2Error("ns-2's ns is not installed: scripts/install-ns2.sh installs Debian's ns2")
    sender = SENDERS[point.sender]
    limited_transmit = (
        sender.sack if settings.limited_transmit is None else settings.limited_transmit
    )
    return [
        program,
        str(TCL_SCRIPT),
        sender.agent,
        sender.sink,
        f"{point.rtt_ms / 1000:g}",
        f"{point.loss:g}",
        str(seed),
        f"{duration_s:g}",
        f"{warmup_s:g}",
        str(SEGMENT),
        str(WINDOW),
        str(WINDOW),
        str(settings.window_init),
        f"{settings.min_rto_s:g}",
        f"{settings.tick_s:g}",
        str(int(limited_transmit)),
        f"{settings.delack_s:g}",
    ]


def parse_ns2_output(text: str, measured_s: float) -> Outcome:
    """The counts of the driver's line ("segments N timeouts N cuts N retransmitted N")."""
    values = parse_counts(text, "segments")
    return Outcome(
        goodput_Mbps=values["segments"] * SEGMENT * 8 / measured_s / 1e6,
        timeouts=values["timeouts"],
        fast_retransmits=values["cuts"] - values["timeouts"],
    )


def run_ns2(
    point: Point,
    seed: int,
    settings: Ns2Settings,
    *,
    duration_s: float,
    warmup_s: float,
    timeout_s: float = 600,
) -> Outcome:
    """One ns-2.35 run of ``point`` with loss substream ``seed`` (1, 2, ...)."""
    command = ns2_command(point, seed, settings, duration_s, warmup_s)
    return parse_ns2_output(run_ns(command, timeout_s), duration_s - warmup_s)


def rudp_params(point: Point, seed: int, duration_s: float, warmup_s: float) -> dict[str, Value]:
    """rudp-cc-comparison's parameters of ``point``: the reno-model preset's run."""
    sender = SENDERS[point.sender]
    return {
        "transport": "rudp",
        "flows": f"rudp-reno@{point.rtt_ms}ms",
        "rate": reno_grid.RATE,
        "queue": "pfifo",
        "loss": point.loss,
        "sack": int(sender.sack),
        "del-ack-count": sender.b,
        "duration": duration_s,
        "warmup": warmup_s,
        "RngRun": seed,
    }


def rudp_outcome(metrics: dict[str, Any]) -> Outcome:
    """The counts of a rudp-cc-comparison record's one flow."""
    if int(metrics["segment_size"]) != SEGMENT:
        raise ValueError(
            f"rudp-cc-comparison ran with {metrics['segment_size']}-byte segments, "
            f"ns-2 is given {SEGMENT}"
        )
    (flow,) = metrics["flows"]
    return Outcome(
        goodput_Mbps=float(flow["throughput_bps"]) / 1e6,
        timeouts=int(flow["timeouts"]),
        fast_retransmits=int(flow["fast_retransmits"]),
    )


def run_rudp(
    point: Point, seed: int, *, duration_s: float, warmup_s: float, timeout_s: float = 600
) -> Outcome:
    """One rudp-cc-comparison run of ``point`` (the module's build)."""
    params = rudp_params(point, seed, duration_s, warmup_s)
    return rudp_outcome(run_scenario("rudp-cc-comparison", params, timeout_s=timeout_s))


class Row(PairedRuns[Point, Outcome]):
    """One point of the reno-model grid for one sender in one mode."""


def grid_points(senders: Sequence[str], quick: bool = False) -> list[Point]:
    """The reno-model grid (or its --quick part) for each sender."""
    rtts = reno_grid.QUICK_RTTS_MS if quick else reno_grid.RTTS_MS
    losses = reno_grid.QUICK_LOSSES if quick else reno_grid.LOSSES
    return [Point(s, rtt, loss) for s in senders for rtt in rtts for loss in losses]


def run_grid(
    points: Sequence[Point],
    modes: Sequence[Ns2Settings],
    seeds: int,
    *,
    duration_s: float,
    warmup_s: float,
    jobs: int = 2,
    progress: Callable[[str], None] | None = None,
) -> list[Row]:
    """Every point in rudp once and in ns-2 once per mode, ``seeds`` runs each."""
    tasks: dict[tuple[str, Point, int], Callable[[], Outcome]] = {}
    for point in points:
        for seed in range(1, seeds + 1):
            tasks[("rudp", point, seed)] = partial(
                run_rudp, point, seed, duration_s=duration_s, warmup_s=warmup_s
            )
            for mode in modes:
                tasks[(mode.name, point, seed)] = partial(
                    run_ns2, point, seed, mode, duration_s=duration_s, warmup_s=warmup_s
                )
    results: dict[tuple[str, Point, int], Outcome] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {key: pool.submit(task) for key, task in tasks.items()}
        for done, (key, future) in enumerate(futures.items(), 1):
            results[key] = future.result()
            if progress is not None and done % 50 == 0:
                progress(f"{done}/{len(futures)} runs")
    seed_range = range(1, seeds + 1)
    return [
        Row(
            point,
            mode.name,
            [results[mode.name, point, s] for s in seed_range],
            [results["rudp", point, s] for s in seed_range],
        )
        for mode in modes
        for point in points
    ]


def markdown(rows: Sequence[Row], seeds: int, command: str) -> str:
    """One table per mode and sender, with a summary line each."""
    sections = []
    for mode in dict.fromkeys(row.mode for row in rows):
        for label in dict.fromkeys(row.point.sender for row in rows):
            part = [row for row in rows if row.mode == mode and row.point.sender == label]
            if not part:
                continue
            sender = SENDERS[label]
            sections.append(
                Section(
                    f"{mode}: {label} against ns-2's {sender.agent} with {sender.sink}",
                    summary_line(part, "goodput_Mbps", GOODPUT_TOLERANCE, COUNT_TOLERANCE),
                    ("RTT/p", "ns-2", "rudp", "ratio", "ns-2 TO/FR", "rudp TO/FR"),
                    [
                        [
                            row.point.label(),
                            f"{row.mean('ns2', 'goodput_Mbps'):.3f}",
                            f"{row.mean('rudp', 'goodput_Mbps'):.3f}",
                            f"{row.ratio('goodput_Mbps'):.2f}",
                            f"{row.mean('ns2', 'timeouts'):.1f}/"
                            f"{row.mean('ns2', 'fast_retransmits'):.1f}",
                            f"{row.mean('rudp', 'timeouts'):.1f}/"
                            f"{row.mean('rudp', 'fast_retransmits'):.1f}",
                        ]
                        for row in part
                    ],
                )
            )
    return markdown_report(
        "RUDP's seed Reno beside ns-2.35's TCP agents (the reno-model path)",
        command,
        f"Mbit/s of segment payload, mean of {seeds} seeds; TO/FR: timeouts and fast "
        "retransmissions per run (ns-2: window cuts that were not timeouts); "
        "ratio = rudp / ns-2.",
        sections,
    )


def write_runs(rows: Sequence[Row], path: Path) -> None:
    """Every run, one line each."""
    write_paired_runs(rows, path, ("sender", "rtt_ms", "loss"), "goodput_Mbps", 4)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m rudp.ns2.tcp",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--out", type=Path, default=Path("results/reno-ns2"), help="output folder")
    p.add_argument("--seeds", type=int, default=reno_grid.RUNS, help="loss substreams (>= 1)")
    p.add_argument("--jobs", type=int, default=2, help="runs at once (>= 1)")
    p.add_argument(
        "--modes", default="matched,stock", help=f"comma-separated, of {', '.join(MODES)}"
    )
    p.add_argument(
        "--senders",
        default=",".join(str(i) for i in range(len(SENDERS))),
        help="comma-separated indices of: "
        + "; ".join(f"{i} {label}" for i, label in enumerate(SENDERS)),
    )
    p.add_argument(
        "--quick", action="store_true", help="the reno-model preset's --quick points only"
    )
    p.add_argument(
        "--duration", type=float, default=reno_grid.DURATION, help="simulated s (> warmup)"
    )
    p.add_argument(
        "--warmup", type=float, default=reno_grid.WARMUP, help="seconds not counted (>= 0)"
    )
    return p


def _refusals(args: argparse.Namespace) -> list[str]:
    """What is wrong with the options, each naming the option and its range."""
    errors = run_refusals(args)
    errors += [
        f"--modes: {name!r} is not one of {', '.join(MODES)}"
        for name in args.modes.split(",")
        if name not in MODES
    ]
    errors += [
        f"--senders: {index!r} is not one of 0..{len(SENDERS) - 1}"
        for index in args.senders.split(",")
        if index not in {str(i) for i in range(len(SENDERS))}
    ]
    return errors


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    status = exit_status(_refusals(args), needs_ns=True)
    if status is not None:
        return status
    labels = list(SENDERS)
    senders = [labels[int(i)] for i in dict.fromkeys(args.senders.split(","))]
    rows = run_grid(
        grid_points(senders, args.quick),
        [MODES[name] for name in dict.fromkeys(args.modes.split(","))],
        args.seeds,
        duration_s=args.duration,
        warmup_s=args.warmup,
        jobs=args.jobs,
        progress=lambda text: print(text, file=sys.stderr),
    )
    args.out.mkdir(parents=True, exist_ok=True)
    command = "python -m rudp.ns2.tcp " + " ".join(sys.argv[1:] if argv is None else argv)
    table = args.out / "reno-ns2.md"
    table.write_text(markdown(rows, args.seeds, command.strip()))
    write_runs(rows, args.out / "reno-ns2-runs.csv")
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
