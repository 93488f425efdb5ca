"""Seed 000's report: its tables 1-6 (CSV and Markdown, ours beside the seed's
numbers) and figures 3-8 (PNG), one column per path model (the ``router``
column: ``none``, ``delay``, ``sleeping``, and ``loopback`` for the sleeping
router on loopback-like links, where the seed's own numbers are drawn too),
and the implied-size figure (:mod:`.implied`).

Imported when a report is drawn, never with :mod:`rudp.sweep`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from rudp.runner import ns3_seconds
from rudp.sweep import tables
from rudp.sweep.figures import dodge, finish, new_figure, plot_estimates
from rudp.sweep.frame import success
from rudp.sweep.index import with_index
from rudp.sweep.stats import summarize

from . import implied
from .grid import EXPERIMENTS, FILE_BYTES, LOOPBACK, PATHS, PROGRAM, SAW, Series
from .published import seed_value

if TYPE_CHECKING:
    from matplotlib.axes import Axes

METRICS = {"transfer_time_s": "transfer time (s)", "throughput_kBps": "throughput (KB/s)"}


@dataclass(frozen=True)
class Panel:
    """One of the seed's tables and the figure drawn from it."""

    table: int
    figure: int
    experiment: int
    axis: str  # "loss" (delay 0) or "delay" (loss 0)
    series: tuple[Series, ...]
    title: str


PANELS = (
    Panel(1, 3, 1, "loss", EXPERIMENTS[1], "stop-and-wait vs Go-Back-N (N = 30) against loss"),
    Panel(2, 4, 1, "delay", EXPERIMENTS[1], "stop-and-wait vs Go-Back-N (N = 30) against delay"),
    Panel(3, 5, 2, "loss", EXPERIMENTS[2], "Go-Back-N window sizes against loss"),
    Panel(4, 6, 2, "delay", (*EXPERIMENTS[2], SAW), "Go-Back-N window sizes against delay"),
    Panel(5, 7, 3, "loss", EXPERIMENTS[3], "Reno vs no congestion control (N = 30) against loss"),
    Panel(6, 8, 3, "delay", EXPERIMENTS[3], "Reno vs no congestion control (N = 30) against delay"),
)


def _panel_rows(frame: pd.DataFrame, panel: Panel) -> pd.DataFrame:
    """Every run of ``panel``'s grid, failed ones too, with ``x`` in % or ms and ``router``."""
    data = frame[frame["program"] == PROGRAM]
    if panel.axis == "loss":
        data = data[data["delay"].map(ns3_seconds) == 0.0]
        x = data["loss"].astype(float) * 100
    else:
        data = data[data["loss"].astype(float) == 0.0]
        x = data["delay"].map(ns3_seconds) * 1e3
    router = data["router"] if "router" in data else pd.Series("default", index=data.index)
    router = router.fillna("default")
    if "link" in data:  # the loopback-like path: point-to-point links
        router = router.where(data["link"].fillna("csma") != "p2p", "loopback")
    return data.assign(x=x.round(9), router=router)


def _series_rows(data: pd.DataFrame, series: Series) -> pd.DataFrame:
    chosen = data["variant"] == series.variant
    if series.variant != "stop-and-wait":  # the window does not matter to stop-and-wait
        chosen &= data["window"].astype(int) == series.window
    return data[chosen]


def _x_label(axis: str) -> str:
    return "client-to-server loss rate (%)" if axis == "loss" else "client-to-server delay D (ms)"


def _summaries(frame: pd.DataFrame, panel: Panel) -> pd.DataFrame:
    """Long table: router, series, metric, x, mean, ci95, n, failed, runs, seed.

    ``mean``, ``ci95`` and ``n`` are over the successful runs; ``failed`` of
    ``runs`` did not succeed (a transfer that failed, or a run with no result).
    """
    data = _panel_rows(frame, panel)
    parts: list[pd.DataFrame] = []
    for series in panel.series:
        rows = _series_rows(data, series)
        for metric in METRICS:
            if rows.empty or metric not in rows:
                continue
            summary = summarize(rows, ["router", "x"], metric)
            summary.insert(1, "series", series.label)
            summary.insert(2, "metric", metric)
            summary["seed000"] = [seed_value(series, panel.axis, metric, x) for x in summary["x"]]
            parts.append(summary)
    columns = ["router", "series", "metric", "x", "mean", "ci95", "n", "failed", "runs", "seed000"]
    if not parts:
        return pd.DataFrame(columns=columns)
    return pd.concat(parts, ignore_index=True)[columns]


def _wide(long: pd.DataFrame, panel: Panel, router: str) -> pd.DataFrame:
    """One router's table as the seed laid it out: a column per x, ours then the seed's."""
    part = long[long["router"] == router]
    xs = sorted(part["x"].unique())
    unit = "%" if panel.axis == "loss" else "ms"
    rows: list[dict[str, str]] = []
    for series in panel.series:
        for metric, name in METRICS.items():
            cells = part[(part["series"] == series.label) & (part["metric"] == metric)]
            if cells.empty:
                continue
            by_x = cells.set_index("x")
            ours = {
                f"{x:g} {unit}": tables.estimate_of_successes(
                    *by_x.loc[x, ["mean", "ci95", "failed", "runs"]]
                )
                for x in xs
                if x in by_x.index
            }
            rows.append({"series": series.label, "metric": name, **ours})
            seed = {
                f"{x:g} {unit}": tables.number(seed_value(series, panel.axis, metric, x))
                for x in xs
            }
            if any(seed.values()):
                rows.append({"series": f"{series.label} (seed 000)", "metric": name, **seed})
    return pd.DataFrame(rows).fillna("")


def _runs(frame: pd.DataFrame) -> str:
    counts = frame.groupby(["program", *[c for c in ("router", "variant") if c in frame]])["run"]
    n = int(counts.nunique().max()) if len(frame) else 0
    return f"{n} run{'s' if n != 1 else ''}"


SEED_LABEL = "seed 000's numbers (open stars)"


def _plot_published(
    ax: Axes, rows: pd.DataFrame, series: Series, *, axis: str, metric: str, shift: float
) -> None:
    """The seed's number for each x of ``rows`` it published, as an open star in the
    series' colour (the last line drawn), named once in the legend."""
    xs = sorted(float(x) for x in rows["x"].dropna().unique())
    values = [(x, seed_value(series, axis, metric, x)) for x in xs]
    shown = [(x + shift, v) for x, v in values if v is not None and not pd.isna(v)]
    if not shown or not ax.lines:
        return
    ax.plot(
        [x for x, _ in shown],
        [v for _, v in shown],
        linestyle="none",
        marker="*",
        markersize=9,
        markerfacecolor="none",
        markeredgecolor=ax.lines[-1].get_color(),
        label="_seed" if any(line.get_label() == SEED_LABEL for line in ax.lines) else SEED_LABEL,
    )


def _figure(long: pd.DataFrame, data: pd.DataFrame, panel: Panel, out: Path) -> Path:
    routers = [r for r in (*PATHS, "default") if r in set(data["router"])]
    routers = routers or ["default"]
    fig = new_figure(figsize=(6.2 * len(routers), 8.0))
    axes = fig.subplots(2, len(routers), squeeze=False, sharex=True, sharey="row")
    for column, router in enumerate(routers):
        for row, (metric, name) in enumerate(METRICS.items()):
            ax = axes[row][column]
            span = float(data["x"].max()) if len(data) else 0.0
            for i, series in enumerate(panel.series):
                rows = _series_rows(data[data["router"] == router], series)
                shift = dodge(i, len(panel.series), span)
                plot_estimates(ax, rows, "x", metric, series.label, x_shift=shift, y_scale="log")
                if router == "loopback":  # the seed ran on a loopback
                    _plot_published(ax, rows, series, axis=panel.axis, metric=metric, shift=shift)
            ax.set_yscale("log")
            ax.set_ylabel(f"{name}, log scale")
            ax.grid(True, which="both", alpha=0.3)
            if row == 0:
                ax.set_title(TITLES.get(router, "router: the program's default"), fontsize="medium")
            if row == 1:
                ax.set_xlabel(_x_label(panel.axis))
            if ax.has_data():
                ax.legend(fontsize="small")
    other = "delay 0 ms" if panel.axis == "loss" else "loss 0 %"
    fig.suptitle(
        f"Figure {panel.figure} (seed 000): {panel.title}, {other}\n"
        f"1.jpg ({FILE_BYTES} B), fixed RTO 2 s; geometric mean and 95 % CI (log space) of "
        f"the completed transfers of {_runs(data)} a point; open stars: the seed's own "
        "numbers (loopback)"
        + (
            "\nk/n failed: k of the point's n transfers did not complete (not in the mean)"
            if not success(data).all()
            else ""
        )
    )
    return finish(fig, out / f"seed000-figure{panel.figure}.png")


#: Each path model's column title.
TITLES = {
    "none": "router 'none' (the design card's):\nerror model, CSMA channel delay D",
    "delay": "router 'delay':\neach datagram delayed by D",
    "sleeping": "router 'sleeping' (the seed's):\none datagram per D",
    "loopback": f"'loopback': sleeping router, p2p, MTU {LOOPBACK['mtu']},\n"
    f"{LOOPBACK['mss']} B datagrams, {LOOPBACK['rate']}; stars: the seed's numbers",
}


def _implied_figure(out: Path) -> Path:
    """The RMS residual of the seed's tables against the datagram size, T = 2 s and free."""
    sizes = sorted({int(s) for s in np.geomspace(1000, implied.MAX_SEGMENT, 160)})
    fig = new_figure(figsize=(7.5, 4.5))
    ax = fig.subplots()
    for timeout, label in ((implied.STATED_TIMEOUT_S, "T = 2 s (stated)"), (None, "T fitted")):
        ax.plot(sizes, implied.profile(timeout, sizes), label=label)
    for h in implied.hypotheses():
        ax.plot(h.fit.segment, h.fit.rms, "o", label=f"{h.name}: {h.fit.rms:.0%}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("datagram payload (bytes), log scale")
    ax.set_ylabel("RMS relative residual, log scale")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title(
        "Seed 000's tables 1, 2, 4 against a model of its loopback runs:\n"
        "time = n x (per-datagram cost + D) + losses x T, n = ceil(1.jpg / size) + 1",
        fontsize="medium",
    )
    return finish(fig, out / "seed000-implied-size.png")


def write(frame: pd.DataFrame, out: Path) -> list[Path]:
    """Tables 1-6 (CSV and Markdown) and figures 3-8 (PNG) under ``out``."""
    written: list[Path] = []
    combined: list[str] = []
    for panel in PANELS:
        data = _panel_rows(frame, panel)
        long = _summaries(frame, panel)
        if long.empty:
            continue
        routers = [r for r in (*PATHS, "default") if r in set(long["router"])]
        wide: Sequence[tuple[str, pd.DataFrame]] = [
            (
                f"path: loopback ({_loopback()})" if r == "loopback" else f"router: {r}",
                _wide(long, panel, r),
            )
            for r in routers
        ]
        other = "delay 0 ms" if panel.axis == "loss" else "loss 0 %"
        title = f"Table {panel.table} (seed 000): {panel.title}, {other}"
        note = (
            f"Ours: mean ± 95 % CI half-width (Student t) of {_runs(data)} a point, 1.jpg, "
            "fixed RTO 2 s, ns-3 100 Mbit/s CSMA links (the loopback path: as its title "
            "says). A cell with (k/n failed) had k of its n runs "
            "fail (the transfer failed, or the run gave no result): its mean is over the "
            "n - k that completed, and a cell with only k/n failed had none. "
            "Rows marked (seed 000): the seed's loopback measurements, "
            "for comparing trends only."
        )
        paths = tables.write(
            out, stem=f"seed000-table{panel.table}", title=title, long=long, wide=wide, note=note
        )
        written.extend(paths)
        combined.append(paths[1].read_text())
        written.append(_figure(long, data, panel, out))
    if combined:
        summary = out / "seed000-tables.md"
        summary.write_text("\n".join(combined))
        written.append(summary)
        finding = out / "seed000-implied.md"
        finding.write_text(
            "# What seed 000's numbers imply: datagram size and timer\n\n"
            + "\n".join(implied.report_lines())
            + "\n"
        )
        written += [finding, _implied_figure(out)]
    return with_index(out, written, "Seed 000: tables 1-6 and figures 3-8")


def _loopback() -> str:
    return (
        f"sleeping router, p2p links of {LOOPBACK['rate']}, MTU {LOOPBACK['mtu']}, "
        f"{LOOPBACK['mss']}-byte datagrams"
    )
