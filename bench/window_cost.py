"""What one delivered packet costs as the window grows (issue 26).

Runs one Cubic flow of ``rudp-cc-comparison`` over bottlenecks whose
bandwidth-delay product is 417 to 66 700 full-size packets (the window the
flow must keep open), one process per run, and prints the CPU time (user plus
system, from the process's rusage) per delivered packet, and its ratio to the
smallest window's. A sender whose per-ACK work walks its window shows the
ratio growing with the window; the goal is at most 1.3 at 16 700 packets.
ns-3's TCP runs beside RUDP up to ``--tcp-max-window`` (its SACK scoreboard
walks the window: about an hour of CPU at 16 700). Run by hand, not a test::

    .venv/bin/python bench/window_cost.py [--repeat K] [--rtts N] [--tcp-max-window W]
    make bench-window
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass

from measured_run import Cost, run_measured

from rudp import paths

PACKET_BYTES = 1500
SEGMENT_BYTES = 1448


@dataclass(frozen=True)
class Bottleneck:
    """A bottleneck: its rate and the flow's round-trip time."""

    rate_bps: int
    rtt_ms: int

    @property
    def window(self) -> int:
        """Bandwidth-delay product in full-size (1500-byte) packets."""
        return round(self.rate_bps * self.rtt_ms / 1000 / 8 / PACKET_BYTES)

    @property
    def label(self) -> str:
        rate = (
            f"{self.rate_bps // 10**9} Gbit/s"
            if self.rate_bps % 10**9 == 0
            else f"{self.rate_bps // 10**6} Mbit/s"
        )
        return f"{rate} x {self.rtt_ms} ms"


BOTTLENECKS = (
    Bottleneck(100 * 10**6, 50),
    Bottleneck(100 * 10**6, 400),
    Bottleneck(10**9, 200),
    Bottleneck(10**9, 800),
)


def simulated_seconds(path: Bottleneck, rtts: int) -> float:
    """Long enough for ``rtts`` round trips after slow start (log2 of the
    window in round trips), and at least 10 s."""
    slow_start = max(path.window, 2).bit_length()
    return max(10.0, (rtts + slow_start) * path.rtt_ms / 1000)


def measure(path: Bottleneck, transport: str, rtts: int, build: paths.Build) -> Cost:
    """One run in its own process; its rusage gives the CPU time."""
    run = run_measured(
        build,
        "rudp-cc-comparison",
        [
            f"--transport={transport}",
            f"--rate={path.rate_bps}bps",
            f"--flows=cubic@{path.rtt_ms}ms",
            f"--duration={simulated_seconds(path, rtts)}s",
        ],
    )
    delivered = sum(int(flow["total_bytes"]) for flow in run.record["flows"])
    return Cost(run.cpu_s, delivered // SEGMENT_BYTES)


def table(costs: dict[str, list[Cost | None]]) -> list[str]:
    """The printed table: a row a path, per transport the cost and its ratio
    to the first row's."""
    header = f"{'bottleneck':<22}{'window':>8}"
    for transport in costs:
        header += f"{transport + ' us/pkt':>18}{'x':>7}"
    lines = [header]
    for row, path in enumerate(BOTTLENECKS[: len(next(iter(costs.values())))]):
        line = f"{path.label:<22}{path.window:>8}"
        for column in costs.values():
            cost, base = column[row], column[0]
            if cost is None or base is None:
                line += f"{'(not run)':>18}{'':>7}"
            else:
                line += (
                    f"{cost.us_per_packet:>18.1f}{cost.us_per_packet / base.us_per_packet:>7.2f}"
                )
        lines.append(line)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per cell (median)")
    parser.add_argument(
        "--rtts", type=int, default=40, help="round trips simulated after slow start"
    )
    parser.add_argument(
        "--max-window",
        type=int,
        default=max(p.window for p in BOTTLENECKS),
        help="largest window (packets) to run",
    )
    parser.add_argument(
        "--tcp-max-window",
        type=int,
        default=3333,
        help="largest window (packets) ns-3's TCP runs at (0: RUDP only)",
    )
    args = parser.parse_args(argv)
    for name in ("repeat", "rtts"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')}: at least 1")
    build = paths.standalone_build()
    chosen = [p for p in BOTTLENECKS if p.window <= args.max_window]
    if not chosen:
        parser.error(f"--max-window: at least {BOTTLENECKS[0].window} (the smallest window)")
    costs: dict[str, list[Cost | None]] = {"rudp": [], "tcp": []}
    for path in chosen:
        for transport, column in costs.items():
            if transport == "tcp" and path.window > args.tcp_max_window:
                column.append(None)
                continue
            runs = [measure(path, transport, args.rtts, build) for _ in range(args.repeat)]
            column.append(Cost(statistics.median(r.cpu_s for r in runs), runs[0].packets))
    if all(c is None for c in costs["tcp"]):
        del costs["tcp"]
    print(
        f"CPU time per delivered packet, one Cubic flow (rudp-cc-comparison), "
        f"{args.rtts} RTTs after slow start, median of {args.repeat}"
    )
    print("\n".join(table(costs)))
    rudp = costs["rudp"]
    goal = next((rudp[k] for k, p in enumerate(chosen) if p.window == 16667), None)
    if goal is not None and rudp[0] is not None:
        ratio = goal.us_per_packet / rudp[0].us_per_packet
        verdict = "met" if ratio <= 1.3 else "MISSED"
        print(f"\n{verdict:>7}  RUDP at 16 667 packets <= 1.3 x at 417: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
