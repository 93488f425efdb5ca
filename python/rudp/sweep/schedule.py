"""The order in which a sweep starts its runs: the longest first.

A parallel sweep ends when its last run does. Started in the grids' order,
one long run (600 s of a 100 Mbit/s high-BDP flow over ns-3's TCP) that
happens to come last runs alone while the other cores idle. Starting the
runs longest first (Graham's LPT rule, sem's ``LptRunner``) keeps the end
within 4/3 of the best order for any number of cores, and in practice
close to it.

Each run's cost is estimated, in seconds:

- from the cache: the mean wall time of the same point's runs already
  there (other ``RngRun`` values of a point take about as long);
- else from its parameters (:func:`work`, the packets it simulates, more
  per packet as the window grows), times the seconds per unit of work
  measured on the program's cached runs (their median), or
  :data:`SECONDS_PER_PACKET` if none is cached.

The order changes nothing but when each run starts: every run is
independent, and the results are filed by point.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Mapping, Sequence

from ..runner import Value
from .execute import Outcome
from .grid import Point

#: Seconds one simulated packet costs when nothing is measured (the order of
#: magnitude of doc/cc-comparison.rst's cost table: 19-38 µs a packet).
SECONDS_PER_PACKET = 30e-6

#: Window (segments) beyond which ns-3's TCP spends more on each packet than
#: on the packet itself (its send buffer is walked per ACK: doc/cc-comparison.rst).
TCP_WINDOW_SCALE = 1000.0

_TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "min": 60.0, "h": 3600.0}
_RATE_UNITS = {"bps": 1.0, "kbps": 1e3, "Mbps": 1e6, "Gbps": 1e9}
_NUMBER = r"([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)"


def _quantity(value: Value, units: dict[str, float], what: str) -> float:
    """``value`` (a number, or a number and one of ``units``) in the base unit."""
    if isinstance(value, int | float):
        return float(value)
    match = re.fullmatch(_NUMBER + r"\s*([A-Za-z]*)", value.strip())
    if match is None or match.group(2) not in {"", *units}:
        raise ValueError(f"not a {what}: {value!r}")
    return float(match.group(1)) * units.get(match.group(2), 1.0)


def seconds(value: Value) -> float:
    """A time as the programs take it (``600``, ``"600s"``, ``"50ms"``), in seconds."""
    return _quantity(value, _TIME_UNITS, "time")


def bits_per_second(value: Value) -> float:
    """A data rate (``"100Mbps"``, or bits per second as a number)."""
    return _quantity(value, _RATE_UNITS, "data rate")


def _cc_comparison(p: Mapping[str, Value]) -> float:
    rate = bits_per_second(p.get("rate", "100Mbps"))
    segment = float(p.get("segment-size", 1448))
    packets = seconds(p.get("duration", 60)) * rate / (8 * segment)
    if p.get("transport", "tcp") != "tcp":
        return packets
    rtts = [seconds(rtt) for rtt in re.findall(r"@([0-9.]+[a-z]*)", str(p.get("flows", "@50ms")))]
    window = rate * max(rtts, default=0.05) / (8 * segment)
    return packets * (1 + window / TCP_WINDOW_SCALE)


def _cmt(p: Mapping[str, Value]) -> float:
    rate = bits_per_second(p.get("rate", "10Mbps"))
    paths = float(p.get("paths", 2))
    return seconds(p.get("duration", 100)) * rate * paths / (8 * float(p.get("mss", 1468)))


def _file_transfer(p: Mapping[str, Value]) -> float:
    # size 0 sends the named file: seed 000's images are ~100-400 kB.
    size = float(p.get("size", 0)) or 300e3
    return size / float(p.get("mss", 1400))


#: Work of a run of each program (packets, weighted), from its parameters.
WORK: dict[str, Callable[[Mapping[str, Value]], float]] = {
    "rudp-cc-comparison": _cc_comparison,
    "rudp-cmt": _cmt,
    "rudp-file-transfer": _file_transfer,
    "rudp-tcp-vs-udp": lambda p: float(p.get("packets", 1000)),
}


def work(point: Point) -> float | None:
    """The point's work (simulated packets, weighted), or None if unknown."""
    model = WORK.get(point.program)
    if model is None:
        return None
    try:
        return model(dict(point.params))
    except (ValueError, TypeError):  # a value the program will refuse: it runs fast
        return None


def estimated_seconds(
    points: Sequence[Point], cached: Sequence[Outcome | None]
) -> list[float | None]:
    """Each point's estimated wall time (see the module), None if nothing tells."""
    measured: dict[tuple[str, tuple[tuple[str, str], ...]], list[float]] = {}
    per_work: dict[str, list[float]] = {}
    for point, outcome in zip(points, cached, strict=True):
        if outcome is None or outcome.seconds <= 0:
            continue
        measured.setdefault((point.program, point.args), []).append(outcome.seconds)
        units = work(point)
        if units:
            per_work.setdefault(point.program, []).append(outcome.seconds / units)
    scale = {program: statistics.median(ratios) for program, ratios in per_work.items()}

    estimates: list[float | None] = []
    for point in points:
        same = measured.get((point.program, point.args))
        units = work(point)
        if same:
            estimates.append(statistics.fmean(same))
        elif units is not None:
            estimates.append(units * scale.get(point.program, SECONDS_PER_PACKET))
        else:
            estimates.append(None)
    return estimates


def longest_first(
    points: Sequence[Point], pending: Sequence[int], cached: Sequence[Outcome | None]
) -> list[int]:
    """``pending`` (indexes into ``points``) with the longest estimated runs first.

    Runs without an estimate keep their place relative to each other, after
    the estimated ones; equal estimates keep the grids' order.
    """
    estimates = estimated_seconds(points, cached)

    def key(i: int) -> tuple[bool, float]:
        estimate = estimates[i]
        return (estimate is None, -(estimate or 0.0))

    return sorted(pending, key=key)


def makespan(durations: Sequence[float], order: Sequence[int], workers: int) -> float:
    """When a sweep of ``workers`` parallel workers ends, starting runs in ``order``.

    Each run starts, in ``order``, on the first worker to be free (as the
    sweep's pool takes them); ``durations`` are the runs' wall times.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    free = [0.0] * workers
    for i in order:
        first = min(range(workers), key=free.__getitem__)
        free[first] += durations[i]
    return max(free)
