"""What seed 000's own numbers imply about the datagram size and the timer.

The seed ran on a laptop's loopback (MTU 65 535 bytes) behind a
single-threaded Python router that slept D for every client datagram it
forwarded, with a fixed 2 s timeout, and sent 1.jpg (1 857 353 B). If its
datagrams carried 1454 bytes, 1.jpg is 1279 datagrams, and the router alone
needs 1279 x D to forward them: 25.6 s at D = 20 ms, where the seed's
stop-and-wait took 4.3 s and its Go-Back-N (N = 5) 3.4 s. Its tables instead
fit about 130 datagrams of about 14 KB.

The model, per hypothesis of a datagram payload ``s`` (n = ceil(F / s) data
datagrams and the first one, which carries the file's name and length) and a
timeout ``T``, with the per-datagram costs of the host fitted:

* table 1, stop-and-wait against loss p at D = 0:
  ``t = n c_w + n p / (1 - p) T`` (each lost datagram costs one timeout;
  ``c_w`` is a round trip's cost on the host);
* table 2, stop-and-wait against D at loss 0: ``t = n (c_w + D)`` (each
  datagram waits D in the sleeping router);
* table 4, Go-Back-N with N = 5 against D at loss 0: ``t = n (c_r + D)``
  (five datagrams keep the router busy: it forwards one per D plus its own
  per-datagram cost ``c_r``; larger windows overflow its socket buffer);
* every other series of tables 2, 4 and 6 (N = 10, 20, 30, Reno): only the
  bound ``t >= n D``, since the router sleeps D per datagram it forwards and
  forwards each of the n datagrams at least once.

The costs (and T when it is free) are fitted by least squares on relative
residuals, ``(model - seed) / seed``, with costs and T kept non-negative.
Tables 3 and 5 (Go-Back-N and Reno against loss at D = 0) do not constrain
``s`` in this model: their times scale with n c_r at every loss, so the
ratio to the lossless time depends on the window's recovery, not on n.

Pure Python and numpy, no ns-3: ``python -m rudp.sweep.presets.seed000.implied``
prints the finding.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .grid import DELAYS_MS, FILE_BYTES, GBN, LOSSES, RENO, SAW
from .published import TIME_DELAY, TIME_LOSS

#: What the RUDP header, UDP and IPv4 add to a segment on the wire (bytes).
OVERHEAD_BYTES = 18 + 8 + 20
#: The seed's stated fixed timeout (s).
STATED_TIMEOUT_S = 2.0
#: The datagram payload a 1500-byte Ethernet MTU carries (bytes).
ETHERNET_SEGMENT = 1500 - OVERHEAD_BYTES
#: The largest payload the model's socket takes (RudpSocket::SegmentSize).
MAX_SEGMENT = 65000

FloatArray = npt.NDArray[np.float64]


def datagrams(segment: int, file_bytes: int = FILE_BYTES) -> int:
    """Datagrams that carry a file: ceil(file / segment) and the name-and-length one."""
    if segment < 1:
        raise ValueError(f"segment must be >= 1 byte, got {segment}")
    return math.ceil(file_bytes / segment) + 1


def sizes_for(count: int, file_bytes: int = FILE_BYTES) -> tuple[int, int]:
    """The datagram sizes (smallest, largest) that carry the file in ``count`` datagrams."""
    data = count - 1
    if data < 1 or data > file_bytes:
        raise ValueError(f"no size carries {file_bytes} B in {count} datagrams")
    smallest = math.ceil(file_bytes / data)
    largest = file_bytes if data == 1 else math.ceil(file_bytes / (data - 1)) - 1
    return smallest, largest


@dataclass(frozen=True)
class Observation:
    """One of the seed's transfer times with the model's terms for it.

    The model's time is ``n * (cw * c_w + cr * c_r + timeouts * T + delay)``.
    """

    table: int
    series: str
    x: float  # loss (fraction) or delay (s)
    seconds: float
    cw: float = 0.0  # how many c_w each datagram costs
    cr: float = 0.0  # how many c_r
    timeouts: float = 0.0  # timeouts per datagram: p / (1 - p)
    delay: float = 0.0  # D, paid once per datagram


def observations() -> list[Observation]:
    """The points the model fits: tables 1 and 2 (stop-and-wait), 4 (N = 5)."""
    out = [
        Observation(1, SAW.label, p, t, cw=1.0, timeouts=p / (1 - p))
        for p, t in zip(LOSSES, TIME_LOSS[SAW], strict=True)
    ]
    out += [
        Observation(2, SAW.label, d / 1e3, t, cw=1.0, delay=d / 1e3)
        for d, t in zip(DELAYS_MS, TIME_DELAY[SAW], strict=True)
        if d > 0  # D = 0 is table 1's lossless point
    ]
    out += [
        Observation(4, GBN[5].label, d / 1e3, t, cr=1.0, delay=d / 1e3)
        for d, t in zip(DELAYS_MS, TIME_DELAY[GBN[5]], strict=True)
    ]
    return out


@dataclass(frozen=True)
class Bound:
    """A series' time at one delay against the router's floor n D."""

    table: int
    series: str
    delay_s: float
    seconds: float
    floor_s: float

    @property
    def ratio(self) -> float:
        """floor / measured: above 1 the hypothesis cannot have produced the number."""
        return self.floor_s / self.seconds


def bounds(segment: int) -> list[Bound]:
    """Every series of tables 2, 4 and 6 at D > 0 against n D."""
    n = datagrams(segment)
    tables = {2: (SAW, GBN[30]), 4: (GBN[5], GBN[10], GBN[20], GBN[30]), 6: (RENO, GBN[30])}
    return [
        Bound(table, series.label, d / 1e3, t, n * d / 1e3)
        for table, members in tables.items()
        for series in members
        for d, t in zip(DELAYS_MS, TIME_DELAY[series], strict=True)
        if d > 0
    ]


@dataclass(frozen=True)
class Fit:
    """A hypothesis fitted: its size, costs and timeout, and how far it misses."""

    segment: int
    datagrams: int
    timeout_s: float
    cost_round_trip_s: float  # c_w
    cost_router_s: float  # c_r
    residuals: tuple[float, ...]  # (model - seed) / seed, in observations() order
    tables: tuple[int, ...]  # each residual's table

    @property
    def rms(self) -> float:
        """Root-mean-square relative residual over every fitted point."""
        return math.sqrt(sum(r * r for r in self.residuals) / len(self.residuals))

    def table_rms(self, table: int) -> float:
        """Root-mean-square relative residual of one table's points."""
        chosen = [r for r, t in zip(self.residuals, self.tables, strict=True) if t == table]
        return math.sqrt(sum(r * r for r in chosen) / len(chosen))

    @property
    def worst_floor_ratio(self) -> float:
        """The largest floor / measured over tables 2, 4 and 6 (above 1: impossible)."""
        return max(b.ratio for b in bounds(self.segment))


def _design(timeout_s: float | None) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Per datagram, the fit's matrix of unknowns (c_w, c_r[, T]), the known
    seconds (delay, and a fixed timeout's), the seed's seconds and the weight
    that makes residuals relative."""
    points = observations()
    seconds = np.array([o.seconds for o in points])
    a = np.array([[o.cw, o.cr, o.timeouts] for o in points])
    known = np.array([o.delay for o in points])
    if timeout_s is not None:
        known = known + a[:, 2] * timeout_s
        a = a[:, :2]
    return a, known, seconds, 1.0 / seconds


def _fit_counts(counts: FloatArray, timeout_s: float | None) -> tuple[FloatArray, FloatArray]:
    """The non-negative least-squares unknowns (one column per count) and each count's
    residual sum of squares.

    The model is n (A x + d) = t, so with relative weights w the problem for
    each n is min |A_w x - (t / n - d) w| with x >= 0: every subset of free
    unknowns is solved for all counts at once, the best feasible one kept.
    """
    a, known, seconds, weight = _design(timeout_s)
    aw = a * weight[:, None]
    rhs = (seconds[:, None] / counts[None, :] - known[:, None]) * weight[:, None]
    columns = a.shape[1]
    best = np.zeros((columns, len(counts)))
    best_cost = np.sum(rhs * rhs, axis=0)
    for size in range(1, columns + 1):
        for free in itertools.combinations(range(columns), size):
            part = np.linalg.pinv(aw[:, free]) @ rhs
            x = np.zeros((columns, len(counts)))
            x[list(free), :] = part
            cost = np.sum((aw @ x - rhs) ** 2, axis=0)
            better = np.all(part >= 0, axis=0) & (cost < best_cost)
            best[:, better] = x[:, better]
            best_cost = np.where(better, cost, best_cost)
    # The residual of n (A x + d) - t over t is n times that of the scaled problem.
    return best, best_cost * counts**2


def fit(segment: int, timeout_s: float | None = None) -> Fit:
    """Fits the costs (and the timeout, if ``timeout_s`` is None) for a datagram size."""
    n = datagrams(segment)
    x = _fit_counts(np.array([float(n)]), timeout_s)[0][:, 0]
    a, known, seconds, _ = _design(timeout_s)
    model = n * (a @ x + known)
    return Fit(
        segment=segment,
        datagrams=n,
        timeout_s=float(x[2]) if timeout_s is None else timeout_s,
        cost_round_trip_s=float(x[0]),
        cost_router_s=float(x[1]),
        residuals=tuple(float(r) for r in (model - seconds) / seconds),
        tables=tuple(o.table for o in observations()),
    )


def best_fit(
    timeout_s: float | None = None, sizes: Iterable[int] = range(500, MAX_SEGMENT + 1)
) -> Fit:
    """The datagram size (of ``sizes``) whose fit has the smallest RMS residual.

    Sizes that need as many datagrams fit alike: each count is fitted once, at
    its smallest size of ``sizes`` (:func:`sizes_for` gives the whole range).
    """
    first: dict[int, int] = {}
    for size in sizes:
        first.setdefault(datagrams(size), size)
    counts = np.array(sorted(first), dtype=float)
    cost = _fit_counts(counts, timeout_s)[1]
    return fit(first[int(counts[int(np.argmin(cost))])], timeout_s)


def profile(timeout_s: float | None, sizes: Sequence[int]) -> list[float]:
    """The RMS relative residual of the fit at each size (a figure's curve)."""
    counts = np.array([datagrams(s) for s in sizes], dtype=float)
    cost = _fit_counts(counts, timeout_s)[1]
    return [math.sqrt(c / len(observations())) for c in cost]


def largest_datagram_count() -> float:
    """The most datagrams the sleeping router could have forwarded: min over t / D."""
    return min(b.seconds / b.delay_s for b in bounds(ETHERNET_SEGMENT))


def loopback_rate_bps(best: Fit) -> float:
    """A point-to-point rate whose serialisation of a datagram costs the router's c_r.

    A window of N = 5 at D = 0 was limited by the router's per-datagram cost;
    on a two-hop point-to-point path it is the serialisation of one datagram
    (with its headers and PPP's 2 bytes) on one hop.
    """
    return (best.segment + OVERHEAD_BYTES + 2) * 8 / best.cost_router_s


@dataclass(frozen=True)
class Hypothesis:
    """One explanation of the seed's numbers."""

    name: str
    fit: Fit


@functools.cache
def hypotheses() -> tuple[Hypothesis, ...]:
    """1454 B with the stated 2 s; 1454 B with the timer free; the size free with 2 s;
    both free."""
    return (
        Hypothesis("1454 B, T = 2 s (as stated)", fit(ETHERNET_SEGMENT, STATED_TIMEOUT_S)),
        Hypothesis("1454 B, T fitted (a shorter timer)", fit(ETHERNET_SEGMENT)),
        Hypothesis("size fitted, T = 2 s (a larger datagram)", best_fit(STATED_TIMEOUT_S)),
        Hypothesis("size and T fitted", best_fit()),
    )


def _sizes(f: Fit) -> str:
    low, high = sizes_for(f.datagrams)
    return str(f.segment) if f.segment == ETHERNET_SEGMENT else f"{low}-{min(high, MAX_SEGMENT)}"


def report_lines() -> list[str]:
    """The finding as a Markdown table and notes."""
    lines = [
        "| hypothesis | datagram (B) | datagrams | T (s) | c_w (ms) | c_r (ms) "
        "| RMS table 1 | RMS table 2 | RMS table 4 | RMS all | worst n D / t |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for h in hypotheses():
        f = h.fit
        lines.append(
            f"| {h.name} | {_sizes(f)} | {f.datagrams} | {f.timeout_s:.2f} "
            f"| {f.cost_round_trip_s * 1e3:.2f} | {f.cost_router_s * 1e3:.2f} "
            f"| {f.table_rms(1):.0%} | {f.table_rms(2):.0%} | {f.table_rms(4):.0%} "
            f"| {f.rms:.0%} | {f.worst_floor_ratio:.2f} |"
        )
    most = largest_datagram_count()
    lines += [
        "",
        "RMS: root-mean-square of (model - seed) / seed. worst n D / t: the router's floor "
        "over the seed's time, the largest over tables 2, 4 and 6; above 1 the hypothesis "
        "cannot have produced the seed's number.",
        f"The sleeping router forwarded at most {most:.0f} datagrams (min t / D), so a "
        f"datagram carried at least {FILE_BYTES / (most - 1):.0f} B.",
    ]
    return lines


if __name__ == "__main__":
    print("\n".join(report_lines()))
