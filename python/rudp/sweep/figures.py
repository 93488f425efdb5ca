"""Figure helpers (matplotlib, PNG): mean and 95 % CI lines, CDFs, a generic plot,
and the congestion-window figure of a ``--cwnd-trace`` file (:func:`cwnd_figure`).

The presets' own figures are in their reports; what they share is here.
Every mean is over a point's successful runs; a point where runs failed is
marked ``k/n failed`` beside its mean (at the foot of the axes if none
succeeded), and the series' legend entry counts its failed runs.

Part of the report layer, which ``import rudp.sweep`` does not load.
matplotlib itself is imported by the functions that draw, and only its
object-oriented API (:class:`matplotlib.figure.Figure`): no pyplot, so
drawing sets no backend and keeps no figure open, in a notebook as on a
server without a display.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..runner import ns3_seconds
from . import tables
from .frame import success
from .grid import Grid
from .index import with_index
from .stats import Scale, summarize

__all__ = [
    "LABELS",
    "cwnd_figure",
    "dodge",
    "finish",
    "generic_report",
    "histogram_cdf",
    "label",
    "new_figure",
    "ns3_seconds",
    "plot_estimates",
    "read_cwnd_trace",
    "segments",
    "stacked_panels",
    "title_of",
]

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: Metrics worth plotting first, and their axis labels.
LABELS = {
    "throughput_kBps": "throughput (KB/s, 1 KB = 1000 B)",
    "transfer_time_s": "transfer time (s)",
    "throughput_Mbps": "throughput (Mbit/s)",
    "mean_delay_s": "mean delay (s)",
    "mean_jitter_s": "mean jitter (s)",
    "lost_packets": "lost packets",
    "retransmissions": "retransmitted segments",
}


def label(metric: str) -> str:
    """An axis label with units for ``metric``."""
    if metric in LABELS:
        return LABELS[metric]
    for suffix, unit in (("_s", "s"), ("_kBps", "KB/s"), ("_Mbps", "Mbit/s"), ("_bytes", "B")):
        if metric.endswith(suffix):
            return f"{metric[: -len(suffix)].replace('_', ' ')} ({unit})"
    return metric.replace("_", " ")


def segments(xs: Sequence[float], max_ratio: float | None = None) -> list[list[int]]:
    """The indices of ``xs`` (increasing) split where a line must not join them.

    A line between two neighbouring points claims the values between them
    were measured. Where they are more than ``max_ratio`` apart (the larger
    over the smaller: a log axis's distance) that range was not measured, and
    the line breaks there. ``None``: one segment.
    """
    if not len(xs):
        return []
    parts: list[list[int]] = [[0]]
    for i in range(1, len(xs)):
        a, b = float(xs[i - 1]), float(xs[i])
        if max_ratio is not None and a > 0 and b / a > max_ratio:
            parts.append([i])
        else:
            parts[-1].append(i)
    return parts


def _plot_runs(
    ax: Axes,
    data: pd.DataFrame,
    columns: tuple[str, str],
    at_x: dict[Any, float],
    color: Any,
    *,
    log: bool,
    every: bool,
) -> None:
    """The successful runs of each x as dots (``every``), and on a log axis, where
    a run is at or below zero (no log-space interval), the positive ones as
    open markers with ``m/n ≤ 0`` beside them. ``columns``: (x, metric)."""
    x, metric = columns
    values = pd.to_numeric(data[metric], errors="coerce").where(success(data))
    for value, at in at_x.items():
        point = values[data[x] == value].dropna()
        shown = point[point > 0] if log else point
        hidden = len(point) - len(shown)
        unsummarised = log and hidden > 0
        if every or unsummarised:
            ax.plot(
                [at] * len(shown),
                shown,
                linestyle="none",
                marker="o",
                # the series' colour, given as color: otherwise each call takes
                # the next colour of the axes' cycle from the series after it
                color=color,
                markersize=5 if unsummarised else 2.5,
                markerfacecolor="none" if unsummarised else color,
                markeredgecolor=color,
                alpha=1.0 if unsummarised else 0.5,
            )
        if not unsummarised:
            continue
        text = f"{hidden}/{len(point)} ≤ 0"
        if len(shown):
            ax.annotate(
                text,
                (at, float(shown.min())),
                xytext=(0, -10),
                textcoords="offset points",
                ha="center",
                fontsize="x-small",
                color=color,
            )
        else:
            foot = ax.get_xaxis_transform()
            ax.annotate(
                text, (at, 0.03), xycoords=foot, ha="center", fontsize="x-small", color=color
            )


def plot_estimates(
    ax: Axes,
    frame: pd.DataFrame,
    x: str,
    metric: str,
    series_label: str,
    *,
    x_scale: float = 1.0,
    x_shift: float = 0.0,
    y_scale: Scale = "linear",
    max_ratio: float | None = None,
    show_runs: bool = False,
    errorbars: bool = True,
    **style: Any,
) -> None:
    """One line of ``metric``'s mean against ``x``, with 95 % CI error bars.

    ``frame`` holds every run, failed ones too (its ``status`` column tells
    them apart): the mean and CI are over the successful runs, and each
    point where k of n runs failed is labelled ``k/n failed``; the legend
    entry says how many of the series' runs failed. Plotted at
    ``x * x_scale + x_shift``: a small shift (or, on a log axis, a scale
    near 1) per series keeps overlapping error bars apart.

    ``y_scale="log"`` sets the axis to log and draws the geometric mean with
    its interval in log space (:func:`rudp.sweep.stats.log_interval`): no
    bound at or below zero. A point with a run at or below zero has no such
    interval: its positive runs are drawn as open markers, and ``m/n ≤ 0``
    beside them says how many runs the axis cannot show. ``show_runs``
    draws every successful run as a small dot beside the estimate;
    ``errorbars=False`` leaves the interval out (the runs tell the spread).

    The line joins neighbouring points, except where the next x is more than
    ``max_ratio`` times the last (:func:`segments`): a range that was not
    measured gets no line.
    """
    data = frame.dropna(subset=[x])
    if data.empty or metric not in data:
        return
    summary = summarize(data, [x], metric, scale=y_scale)
    if y_scale == "log":
        ax.set_yscale("log")
    failed, runs = int(summary["failed"].sum()), int(summary["runs"].sum())
    label_text = series_label + (f" ({failed} of {runs} runs failed)" if failed else "")
    xs = summary[x].astype(float) * x_scale + x_shift
    measured = summary["mean"].notna().to_numpy()
    low = (summary["mean"] - summary["low"]).where(summary["low"].notna(), 0.0)
    high = (summary["high"] - summary["mean"]).where(summary["high"].notna(), 0.0)
    line_style = style.pop("linestyle", style.pop("ls", "-"))
    wanted_color = style.pop("color", style.pop("c", None))
    bars = ax.errorbar(
        xs[measured],
        summary["mean"][measured],
        yerr=[low[measured], high[measured]] if errorbars else None,
        marker=style.pop("marker", "o"),
        markersize=style.pop("markersize", 4),
        capsize=3,
        linestyle="none",
        label=label_text,
        color=wanted_color,
        **style,
    )
    color = bars.lines[0].get_color()
    line_x, line_y = xs[measured].to_numpy(), summary["mean"][measured].to_numpy()
    for part in segments(summary[x].astype(float)[measured].to_numpy(), max_ratio):
        if len(part) > 1:
            ax.plot(line_x[part], line_y[part], color=color, linestyle=line_style, **style)
    _plot_runs(
        ax,
        data,
        (x, metric),
        dict(zip(summary[x], xs, strict=True)),
        color,
        log=y_scale == "log",
        every=show_runs,
    )
    for at, row in zip(xs, summary.itertuples(index=False), strict=True):
        if not row.failed:
            continue
        text = f"{tables.failures(row.failed, row.runs)} failed"
        if np.isnan(row.mean):
            # No success to place it by: a cross at the foot of the axes.
            foot = ax.get_xaxis_transform()
            ax.plot([at], [0.03], marker="x", color=color, linestyle="none", transform=foot)
            ax.annotate(
                text,
                (at, 0.03),
                xycoords=foot,
                xytext=(0, 5),
                textcoords="offset points",
                ha="center",
                fontsize="x-small",
                color=color,
            )
        else:
            ax.annotate(
                text,
                (at, row.mean),
                xytext=(0, 5),
                textcoords="offset points",
                ha="center",
                fontsize="x-small",
                color=color,
            )


def dodge(index: int, count: int, span: float) -> float:
    """Offset of series ``index`` of ``count`` so their error bars do not overlap."""
    return (index - (count - 1) / 2) * 0.012 * span


def new_figure(**options: Any) -> Figure:
    """A matplotlib Figure of its own (``figsize=...``), outside pyplot: nothing
    global changes (backend, open figures), and it is freed with its last reference."""
    from matplotlib.figure import Figure  # noqa: PLC0415 - matplotlib on first use only

    return Figure(**options)


def stacked_panels(
    title: str, top_label: str, bottom_label: str, x_label: str, *, height: float = 7.0
) -> tuple[Figure, Axes, Axes]:
    """A figure of two panels, one above the other, sharing the x axis:
    titled, labelled and gridded, for the caller to plot into."""
    fig = new_figure(figsize=(7, height))
    top, bottom = fig.subplots(2, 1, sharex=True)
    top.set_title(title)
    top.set_ylabel(top_label)
    bottom.set_ylabel(bottom_label)
    bottom.set_xlabel(x_label)
    for ax in (top, bottom):
        ax.grid(True, alpha=0.3)
    return fig, top, bottom


def title_of(fig: Figure) -> str:
    """What ``fig`` shows, in one line: its suptitle, else its axes' titles."""
    texts: list[str] = []
    suptitle = getattr(fig, "_suptitle", None)
    if suptitle is not None and suptitle.get_text():
        texts.append(suptitle.get_text())
    else:
        for ax in fig.axes:
            for where in ("center", "left", "right"):
                text = ax.get_title(where)
                if text and text not in texts:
                    texts.append(text)
    return " ".join(" ".join(texts).split())


def finish(fig: Figure, path: Path, *, description: str | None = None) -> Path:
    """Lay out and save ``fig`` as PNG, its title (or ``description``) stored in
    the file as its ``Title`` (what :mod:`rudp.sweep.index` lists)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    title = description if description is not None else title_of(fig)
    fig.savefig(path, dpi=120, metadata={"Title": title} if title else None)
    return path


def histogram_cdf(
    edges: Sequence[Sequence[float]], counts: Sequence[Sequence[float]]
) -> tuple[np.ndarray, np.ndarray]:
    """The CDF of several histograms of the same quantity, summed bin by bin.

    Each histogram is its bin edges (one more than its counts) or its bins'
    left edges (as many as its counts, uniform width: FlowMonitor's). The
    CDF is evaluated at the bins' right edges.
    """
    totals: dict[float, float] = {}
    for bin_edges, bin_counts in zip(edges, counts, strict=True):
        e = np.asarray(bin_edges, dtype=float)
        c = np.asarray(bin_counts, dtype=float)
        if len(c) == 0:
            continue
        if len(e) == len(c) + 1:
            right = e[1:]
        elif len(e) == len(c):
            width = float(np.min(np.diff(e))) if len(e) > 1 else max(float(e[0]), 1e-9)
            right = e + width
        else:
            raise ValueError(f"{len(e)} edges for {len(c)} counts")
        for r, n in zip(right, c, strict=True):
            key = round(float(r), 15)
            totals[key] = totals.get(key, 0.0) + float(n)
    if not totals:
        return np.array([]), np.array([])
    xs = np.array(sorted(totals))
    ns = np.array([totals[x] for x in xs])
    total = ns.sum()
    return xs, (np.cumsum(ns) / total if total > 0 else ns)


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def generic_report(frame: pd.DataFrame, grids: Sequence[Grid], out: Path) -> list[Path]:
    """For a grid of one's own: the main metrics against its first varying axis.

    One PNG per grid (``<name or program>.png``); one line per combination
    of the other varying axes; mean and 95 % CI over the successful runs,
    failed runs counted beside each point.
    """
    written: list[Path] = []
    for number, grid in enumerate(grids, start=1):
        varying = [name for name, values in grid.axes.items() if len(values) > 1]
        if not varying or frame.empty:
            continue
        x = next((name for name in varying if _numeric(grid.axes[name])), None)
        x_scale, x_label = 1.0, x or varying[0]
        if x is None and all(ns3_seconds(v) is not None for v in grid.axes[varying[0]]):
            x, x_scale, x_label = varying[0], 1e3, f"{varying[0]} (ms)"
        in_grid = frame[frame["program"] == grid.program]
        for name, value in grid.fixed.items():
            if name in in_grid:
                in_grid = in_grid[in_grid[name] == value]
        metrics = [m for m in LABELS if m in in_grid and in_grid[m].notna().any()][:2]
        if x is None or not metrics or in_grid.empty:
            continue
        in_grid = in_grid.assign(_x=in_grid[x].map(ns3_seconds))
        others = [name for name in varying if name != x]
        fig = new_figure(figsize=(6.5 * len(metrics), 4.5))
        axes = fig.subplots(1, len(metrics), squeeze=False)
        groups = list(in_grid.groupby(others, sort=False)) if others else [((), in_grid)]
        span = float(in_grid["_x"].max() - in_grid["_x"].min()) * x_scale
        for i, (key, part) in enumerate(groups):
            keys = key if isinstance(key, tuple) else (key,)
            series = ", ".join(f"{n}={v}" for n, v in zip(others, keys, strict=True)) or "all"
            shift = dodge(i, len(groups), span)
            for ax, metric in zip(axes[0], metrics, strict=True):
                plot_estimates(ax, part, "_x", metric, series, x_scale=x_scale, x_shift=shift)
        for ax, metric in zip(axes[0], metrics, strict=True):
            ax.set_xlabel(x_label)
            ax.set_ylabel(label(metric))
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize="small")
        title = grid.name or grid.program
        fig.suptitle(
            f"{title}: mean and 95 % CI of the successful runs of {grid.runs} a point; "
            "k/n failed: runs that did not succeed"
        )
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", grid.name or f"{grid.program}-{number}")
        written.append(finish(fig, out / f"{stem}.png"))
    return with_index(out, written, "Sweep results")


# --- congestion-window traces ---------------------------------------------------------------

#: The columns of a ``--cwnd-trace`` file (``RudpCwndTrace``), in order.
CWND_COLUMNS = ("time_s", "cwnd_bytes", "ssthresh_bytes", "state", "timeouts")

#: Congestion states a trace may name: shading colour and legend label. RUDP's
#: (``RudpSenderState``) first, then ns-3 TCP's (``TcpSocketState``).
CWND_STATES: dict[str, tuple[str, str]] = {
    "SLOW_START": ("#cfe2f3", "slow start"),
    "CONGESTION_AVOIDANCE": ("#d9ead3", "congestion avoidance"),
    "FAST_RECOVERY": ("#fce5cd", "fast recovery"),
    "FIXED_WINDOW": ("#eeeeee", "fixed window (no congestion control)"),
    "CA_OPEN": ("#d9ead3", "CA_OPEN (TCP)"),
    "CA_DISORDER": ("#fff2cc", "CA_DISORDER (TCP)"),
    "CA_CWR": ("#e6d8ee", "CA_CWR (TCP)"),
    "CA_RECOVERY": ("#fce5cd", "CA_RECOVERY (TCP)"),
    "CA_LOSS": ("#f4cccc", "CA_LOSS (TCP)"),
}


@dataclass(frozen=True)
class CwndTrace:
    """A ``--cwnd-trace`` file: one row per instant at which a value changed.

    Columns as the C++ ``RudpCwndTrace`` writes them: time (s), congestion
    window and slow-start threshold (bytes), congestion state, and the
    retransmission timeouts so far.
    """

    time_s: tuple[float, ...]
    cwnd_bytes: tuple[int, ...]
    ssthresh_bytes: tuple[int, ...]
    state: tuple[str, ...]
    timeouts: tuple[int, ...]

    def timeout_rows(self) -> list[int]:
        """Rows at which a retransmission timeout happened (its count grew)."""
        return [i for i in range(1, len(self.timeouts)) if self.timeouts[i] > self.timeouts[i - 1]]

    def state_spans(self) -> list[tuple[str, float, float]]:
        """Each stretch of one state: (state, start, end) in seconds; the last ends at the
        trace's last instant."""
        spans: list[tuple[str, float, float]] = []
        for i, state in enumerate(self.state):
            if spans and spans[-1][0] == state:
                continue
            if spans:
                spans[-1] = (spans[-1][0], spans[-1][1], self.time_s[i])
            spans.append((state, self.time_s[i], self.time_s[-1]))
        return spans


def read_cwnd_trace(path: Path | str) -> CwndTrace:
    """Reads a ``--cwnd-trace`` file (``rudp-file-transfer``, ``rudp-cc-comparison``).

    Raises:
        ValueError: the file is not such a trace (columns, values, time order),
            with the line at fault.
        OSError: the file cannot be read.
    """
    path = Path(path)
    with path.open(newline="") as stream:
        reader = csv.reader(stream)
        header = next(reader, None)
        if header is None or tuple(header) != CWND_COLUMNS:
            raise ValueError(
                f"{path}: not a cwnd trace: its first line must be {','.join(CWND_COLUMNS)}"
            )
        times: list[float] = []
        cwnds: list[int] = []
        ssthreshs: list[int] = []
        states: list[str] = []
        timeouts: list[int] = []
        for number, row in enumerate(reader, start=2):
            try:
                time_text, cwnd_text, ssthresh_text, state, timeouts_text = row
                time_s = float(time_text)
                cwnd, ssthresh, count = int(cwnd_text), int(ssthresh_text), int(timeouts_text)
            except ValueError:
                raise ValueError(
                    f"{path}:{number}: not {','.join(CWND_COLUMNS)}: {','.join(row)!r}"
                ) from None
            if times and time_s < times[-1]:
                raise ValueError(f"{path}:{number}: time {time_text} goes back")
            if state not in CWND_STATES:
                raise ValueError(f"{path}:{number}: unknown state {state!r}")
            times.append(time_s)
            cwnds.append(cwnd)
            ssthreshs.append(ssthresh)
            states.append(state)
            timeouts.append(count)
    if not times:
        raise ValueError(f"{path}: the trace has no line after its header")
    return CwndTrace(tuple(times), tuple(cwnds), tuple(ssthreshs), tuple(states), tuple(timeouts))


def cwnd_figure(
    trace: Path | str,
    out: Path | str,
    *,
    title: str | None = None,
    segment_size: int | None = None,
) -> Path:
    """Draws a ``--cwnd-trace`` file: the congestion window and slow-start threshold
    over time, the congestion states shaded, the retransmission timeouts marked.

    Args:
        trace: the trace file.
        out: the PNG to write (its folder is created).
        title: the figure's title (default: the trace's file name).
        segment_size: the MSS in bytes, if known: adds an axis in segments.

    Returns:
        ``out`` as a Path.

    Raises:
        ValueError: ``trace`` is not a cwnd trace.
        OSError: a file cannot be read or written.
    """
    from matplotlib.patches import Patch  # noqa: PLC0415 - matplotlib on first use only

    data = read_cwnd_trace(trace)
    t = np.asarray(data.time_s)
    cwnd = np.asarray(data.cwnd_bytes, dtype=float) / 1e3
    # An unset threshold (TCP's 2^32-1, "none") would squash the window: leave it out.
    ssthresh = np.asarray(data.ssthresh_bytes, dtype=float) / 1e3
    ssthresh[ssthresh > 10 * max(float(cwnd.max()), 1.0)] = np.nan

    fig = new_figure(figsize=(9.0, 5.0))
    ax = fig.subplots()
    shown_states: list[str] = []
    for state, start, end in data.state_spans():
        ax.axvspan(start, end, color=CWND_STATES[state][0], linewidth=0, zorder=0)
        if state not in shown_states:
            shown_states.append(state)
    ax.step(t, cwnd, where="post", color="#1f4e9c", linewidth=1.5, label="congestion window")
    if not np.isnan(ssthresh).all():
        ax.step(
            t,
            ssthresh,
            where="post",
            color="#c0392b",
            linestyle="--",
            linewidth=1.3,
            label="slow-start threshold",
        )
    timeouts = data.timeout_rows()
    for row in timeouts:
        ax.axvline(t[row], color="black", linestyle=":", linewidth=1.0, zorder=1)
    if timeouts:
        ax.plot(
            t[timeouts],
            cwnd[timeouts],
            linestyle="none",
            marker="X",
            markersize=9,
            color="black",
            label=f"retransmission timeout ({len(timeouts)})",
        )
    ax.set_xlim(float(t[0]), float(t[-1]) if t[-1] > t[0] else float(t[0]) + 1e-3)
    ax.set_ylim(0, None)
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("window (kB, 1 kB = 1000 bytes)")
    if segment_size:
        scale = 1e3 / segment_size

        def to_segments(kb: ArrayLike) -> ArrayLike:
            return np.asarray(kb, dtype=float) * scale

        def to_kb(segments: ArrayLike) -> ArrayLike:
            return np.asarray(segments, dtype=float) / scale

        right = ax.secondary_yaxis("right", functions=(to_segments, to_kb))
        right.set_ylabel(f"segments of {segment_size} bytes")
    ax.grid(True, axis="y", alpha=0.3)
    lines, names = ax.get_legend_handles_labels()
    patches = [Patch(color=CWND_STATES[s][0], label=CWND_STATES[s][1]) for s in shown_states]
    ax.legend(
        handles=[*lines, *patches],
        labels=[*names, *(p.get_label() for p in patches)],
        loc="upper center",
        bbox_to_anchor=(0.5, -0.13),
        ncol=3,
        fontsize="small",
        frameon=False,
    )
    ax.set_title(title if title is not None else f"{Path(trace).name}: congestion window")
    return finish(fig, Path(out))
