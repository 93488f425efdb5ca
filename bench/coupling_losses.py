"""Why a multipath association takes what it takes beside TCP flows: its growth and its cuts.

Reads the traces of ``rudp-coupling --trace`` (every path's and TCP flow's
window, RTT, ssthresh, and the bottleneck's drops) and prints, per flow
and for the association as a whole (its paths together), from ``--warmup``
on:

* the bottleneck's drops of its packets, and the share of the queue's
  *overflows* in which it lost at least one: an overflow is a run of drops
  (of any flow) none more than ``--overflow-gap`` after the one before;
* its cuts (ssthresh set: a fast recovery or a timeout);
* its window, the mean over time (segments of ``--segment-size`` bytes);
* its growth per RTT: all that its window grew, over the measurement's
  length in (mean) RTTs;
* its cut per overflow: all that its window lost, over the overflows, as a
  share of its window.

A flow whose window neither grows nor shrinks over the measurement grows
as much as it loses, so its window is its growth per RTT over its cut per
overflow, times the overflows' spacing in RTTs, which all flows share: the
association's window over a TCP flow's is the product of the two ratios
the last line gives (the growth's, and the inverse of the cut's). Under
losses independent of one another, two paths of equal windows hold a TCP
flow's window when they grow half as fast together: RFC 6356's coupled
increase aims at that, and gives more where the windows differ; what the
association gives up per overflow decides the rest (doc/multipath.rst,
*Growth and cuts*)::

    ./build/bin/rudp-coupling --coupling=lia --queue=fifo --queue-packets=40 --tcp-flows=3 \\
        --tcp=rfc5681-reno --duration=300s --warmup=100s --trace=lia.tsv
    .venv/bin/python bench/coupling_losses.py lia.tsv [more.tsv ...] [--warmup 100]

With several traces (runs of one configuration) it prints each one's table
and the mean of their ratios.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: The name under which the association's paths are summed.
ASSOCIATION = "association"


@dataclass
class FlowTrace:
    """One flow's events in a trace, from the warmup on."""

    drops: list[float] = field(default_factory=list)
    cuts: int = 0
    #: (time, cwnd) from the last value before the warmup on.
    windows: list[tuple[float, float]] = field(default_factory=list)
    rtts: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class FlowSummary:
    """What a flow (or the association) did over the measurement."""

    name: str
    drops: int
    overflows_hit: int
    cuts: int
    window: float
    growth: float
    loss: float
    rtt: float

    def growth_per_rtt(self, duration: float) -> float:
        """Window growth per RTT (bytes)."""
        return self.growth / (duration / self.rtt) if self.rtt > 0 else 0.0

    def cut_per_overflow(self, overflows: int) -> float:
        """Window lost per overflow, as a share of the window."""
        return self.loss / overflows / self.window if overflows and self.window else 0.0


@dataclass(frozen=True)
class TraceSummary:
    """The flows of one trace, their overflows and measurement."""

    flows: list[FlowSummary]
    overflows: int
    duration: float

    def flow(self, name: str) -> FlowSummary:
        return next(flow for flow in self.flows if flow.name == name)

    def tcp_flows(self) -> list[FlowSummary]:
        return [flow for flow in self.flows if flow.name.startswith("tcp")]

    def ratios(self) -> tuple[float, float, float]:
        """The association's window, growth per RTT and cut per overflow,
        each over the TCP flows' mean."""
        tcp = self.tcp_flows()
        association = self.flow(ASSOCIATION)
        window = statistics.fmean(flow.window for flow in tcp)
        growth = statistics.fmean(flow.growth_per_rtt(self.duration) for flow in tcp)
        cut = statistics.fmean(flow.cut_per_overflow(self.overflows) for flow in tcp)
        return (
            association.window / window,
            association.growth_per_rtt(self.duration) / growth,
            association.cut_per_overflow(self.overflows) / cut,
        )


def read_trace(lines: Iterable[str], warmup: float) -> tuple[dict[str, FlowTrace], float]:
    """The flows of a ``rudp-coupling --trace`` TSV, and its last time."""
    flows: dict[str, FlowTrace] = {}
    last = warmup
    for row in csv.DictReader(lines, delimiter="\t"):
        time = float(row["time_s"])
        name = row["flow"]
        event = row["event"]
        trace = flows.setdefault(name, FlowTrace())
        last = max(last, time)
        if event == "cwnd":
            value = float(row["value"])
            if time < warmup:
                trace.windows[:] = [(warmup, value)]
            else:
                trace.windows.append((time, value))
        elif time < warmup:
            continue
        elif event == "drop":
            trace.drops.append(time)
        elif event == "ssthresh":
            trace.cuts += 1
        elif event == "rtt":
            trace.rtts.append(float(row["value"]))
    return {name: trace for name, trace in flows.items() if trace.windows}, last


def overflows(drops: Sequence[float], gap: float) -> list[tuple[float, float]]:
    """The runs of drops (first, last) none more than ``gap`` after the one before."""
    runs: list[tuple[float, float]] = []
    for time in sorted(drops):
        if runs and time - runs[-1][1] <= gap:
            runs[-1] = (runs[-1][0], time)
        else:
            runs.append((time, time))
    return runs


def window_moves(windows: Sequence[tuple[float, float]], end: float) -> tuple[float, float, float]:
    """The mean window over time up to ``end``, all it grew and all it lost."""
    area = grown = lost = 0.0
    for (time, value), (following, next_value) in zip(
        windows, [*windows[1:], (end, None)], strict=True
    ):
        area += value * (following - time)
        if next_value is not None:
            grown += max(0.0, next_value - value)
            lost += max(0.0, value - next_value)
    span = end - windows[0][0]
    return (area / span if span > 0 else windows[-1][1]), grown, lost


def summarize(flows: dict[str, FlowTrace], end: float, gap: float) -> TraceSummary:
    """Each flow's summary, and the association's (the paths' sum)."""
    runs = overflows([time for trace in flows.values() for time in trace.drops], gap)

    def hit(drops: Iterable[float]) -> int:
        times = sorted(drops)
        return sum(1 for first, last in runs if any(first <= t <= last for t in times))

    summaries = []
    for name in sorted(flows):
        trace = flows[name]
        window, grown, lost = window_moves(trace.windows, end)
        summaries.append(
            FlowSummary(
                name,
                len(trace.drops),
                hit(trace.drops),
                trace.cuts,
                window,
                grown,
                lost,
                statistics.fmean(trace.rtts) if trace.rtts else 0.0,
            )
        )
    paths = [summary for summary in summaries if summary.name.startswith("p")]
    path_drops = [time for name in flows if name.startswith("p") for time in flows[name].drops]
    rtts = [rtt for name in flows if name.startswith("p") for rtt in flows[name].rtts]
    summaries.append(
        FlowSummary(
            ASSOCIATION,
            len(path_drops),
            hit(path_drops),
            sum(path.cuts for path in paths),
            sum(path.window for path in paths),
            sum(path.growth for path in paths),
            sum(path.loss for path in paths),
            statistics.fmean(rtts) if rtts else 0.0,
        )
    )
    start = min(trace.windows[0][0] for trace in flows.values())
    return TraceSummary(summaries, len(runs), end - start)


def table(summary: TraceSummary, segment: int) -> list[str]:
    """The printed table of one trace."""
    lines = [
        f"{'flow':<12}{'drops':>7}{'overflows hit':>15}{'cuts':>6}{'window':>8}"
        f"{'growth/RTT':>12}{'cut/overflow':>14}"
    ]
    for flow in summary.flows:
        share = flow.overflows_hit / summary.overflows if summary.overflows else 0.0
        lines.append(
            f"{flow.name:<12}{flow.drops:>7}{flow.overflows_hit:>8}{f'({share:.0%})':>7}"
            f"{flow.cuts:>6}{flow.window / segment:>8.1f}"
            f"{flow.growth_per_rtt(summary.duration) / segment:>12.2f}"
            f"{flow.cut_per_overflow(summary.overflows):>14.1%}"
        )
    window, growth, cut = summary.ratios()
    lines.append(
        f"{summary.overflows} overflows in {summary.duration:.0f} s; the association over a TCP "
        f"flow: window {window:.2f} = growth {growth:.2f} x 1/cut {1 / cut:.2f}"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("traces", nargs="+", type=Path, help="rudp-coupling --trace files")
    parser.add_argument("--warmup", type=float, default=100, help="seconds before measuring")
    parser.add_argument(
        "--overflow-gap", type=float, default=0.1, help="seconds between drops of one overflow"
    )
    parser.add_argument("--segment-size", type=int, default=1448, help="bytes per segment")
    args = parser.parse_args(argv)
    if args.warmup < 0:
        parser.error("--warmup: at least 0")
    if args.overflow_gap <= 0:
        parser.error("--overflow-gap: more than 0")
    if args.segment_size < 1:
        parser.error("--segment-size: at least 1")
    all_ratios = []
    for path in args.traces:
        try:
            with path.open(newline="") as lines:
                flows, end = read_trace(lines, args.warmup)
        except OSError as problem:
            parser.error(f"{path}: {problem.strerror}")
        if end <= args.warmup:
            parser.error(f"{path}: it ends at {end:g} s, not after the warmup")
        if not any(name.startswith("p") for name in flows) or not any(
            name.startswith("tcp") for name in flows
        ):
            parser.error(f"{path}: no path or no TCP flow with a window after the warmup")
        summary = summarize(flows, end, args.overflow_gap)
        print(f"== {path}")
        print("\n".join(table(summary, args.segment_size)))
        all_ratios.append(summary.ratios())
    if len(all_ratios) > 1:
        window, growth, cut = (statistics.fmean(column) for column in zip(*all_ratios, strict=True))
        print(
            f"mean of {len(all_ratios)}: window {window:.2f}, growth {growth:.2f}, "
            f"1/cut {statistics.fmean(1 / ratios[2] for ratios in all_ratios):.2f} "
            f"(cut {cut:.2f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
