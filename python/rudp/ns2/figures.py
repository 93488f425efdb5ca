"""Seed 002's figures 6-9 with ns-2.35's points beside rudp's and the model.

One figure per mode of :mod:`.compare` and per seed figure: the 2^28-byte
buffer against RTT at loss 0.01 (figure 6) and against loss at RTT 100 ms
(figure 7), the 16 KB buffer likewise (figures 8 and 9). Each number of
paths has its colour: ns-2's mean over the seeds (filled circles, the bar
spanning its runs), rudp's (open squares, likewise) and the n-path model of
:mod:`rudp.models.cmt` (line). Both simulators count 1468-byte data units.
Imported when the figures are drawn; matplotlib is needed then only.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..models import cmt
from ..sweep.figures import dodge, finish, new_figure
from .driver import CHUNK

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from .compare import Row  # compare imports this module (write_figures) when it draws

UNBOUNDED, BOUNDED = 1 << 28, 16384
#: seed figure -> (x axis, receive buffer): the RTT axis is at loss 0.01, the loss axis at 100 ms
FIGURES = {6: ("rtt", UNBOUNDED), 7: ("loss", UNBOUNDED), 8: ("rtt", BOUNDED), 9: ("loss", BOUNDED)}


def model_kBps(paths: int, loss: float, rtt_s: float, rbuf: int) -> float:
    """The n-path model of seed 002 (kB/s of 1468-byte units)."""
    return cmt.throughput(paths, loss, rtt_s, CHUNK, rbuf, fast_retransmit=True) / 1000


def _on_axis(row: Row, axis: str, rbuf: int) -> bool:
    point = row.point
    if point.rbuf != rbuf:
        return False
    return point.loss == 0.01 if axis == "rtt" else point.rtt_ms == 100


def _x(row: Row, axis: str) -> float:
    return float(row.point.rtt_ms) if axis == "rtt" else row.point.loss


def _points(
    ax: Axes, rows: Sequence[Row], axis: str, which: str, shift: float, **style: Any
) -> None:
    """Each row's mean over its runs of ``which`` simulator, the bar spanning the runs."""
    xs = [_x(row, axis) + shift for row in rows]
    runs = [[run.goodput_kBps for run in (row.ns2 if which == "ns2" else row.rudp)] for row in rows]
    means = [row.mean(which, "goodput_kBps") for row in rows]
    below = [m - min(v) for m, v in zip(means, runs, strict=True)]
    above = [max(v) - m for m, v in zip(means, runs, strict=True)]
    ax.errorbar(xs, means, yerr=[below, above], linestyle="none", capsize=3, **style)


def figure(rows: Sequence[Row], mode: str, number: int, out: Path) -> Path | None:
    """Seed figure ``number`` for ``mode``'s rows; None when none of its points was run."""
    axis, rbuf = FIGURES[number]
    part = [row for row in rows if row.mode == mode and _on_axis(row, axis, rbuf)]
    if not part:
        return None
    fig = new_figure(figsize=(8, 5.6))
    ax = fig.subplots()
    values = sorted({_x(row, axis) for row in part})
    span = values[-1] - values[0] if len(values) > 1 else 1.0
    fine = np.linspace(values[0], values[-1], 50) if len(values) > 1 else np.array(values)
    paths = sorted({row.point.paths for row in part})
    for i, n in enumerate(paths):
        color = f"C{i}"
        series = sorted((row for row in part if row.point.paths == n), key=lambda r: _x(r, axis))
        _points(
            ax,
            series,
            axis,
            "ns2",
            dodge(2 * i, 2 * len(paths), span),
            color=color,
            marker="o",
            label=f"ns-2.35, n = {n}",
        )
        _points(
            ax,
            series,
            axis,
            "rudp",
            dodge(2 * i + 1, 2 * len(paths), span),
            color=color,
            marker="s",
            markerfacecolor="none",
            label=f"rudp-cmt, n = {n}",
        )
        curve = [
            model_kBps(n, 0.01, v / 1000, rbuf) if axis == "rtt" else model_kBps(n, v, 0.1, rbuf)
            for v in fine
        ]
        ax.plot(fine, curve, color=color, linewidth=1, label=f"model, n = {n}")
    if axis == "rtt":
        ax.set_xlabel("RTT of every path (ms)")
        setting = "loss 0.01"
    else:
        ax.set_xlabel("loss rate of every path")
        setting = "RTT 100 ms"
    buffer = "2^28 B" if rbuf == UNBOUNDED else "16 KB"
    ax.set_ylabel("goodput (kB/s of 1468-byte data units)")
    ax.set_title(f"Seed 002 figure {number} in ns-2.35 and rudp ({mode}): {setting}, {buffer}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="x-small", ncol=3)
    return finish(fig, out / f"seed002-ns2-{mode}-figure{number}.png")


def write_figures(rows: Sequence[Row], out: Path) -> list[Path]:
    """Figures 6-9 for every mode in ``rows`` (those with points)."""
    written = []
    for mode in dict.fromkeys(row.mode for row in rows):
        for number in FIGURES:
            path = figure(rows, mode, number, out)
            if path is not None:
                written.append(path)
    return written
