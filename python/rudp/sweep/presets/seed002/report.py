"""Seed 002's report: figures 6-9 against the analytic model, the RTT-mismatch
figure and the model-error table.

Each figure draws the simulated goodput (mean and 95 % CI over the
successful runs) against the analytic model of :mod:`rudp.models.cmt`; a
table gives the relative error of every grid point. The RTT-mismatch figure,
which the seed lacks, shows the receive-buffer blocking directly. Imported
when a report is drawn, never with :mod:`rudp.sweep`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ....models import cmt
from ....runner import ns3_seconds
from ... import tables
from ...figures import dodge, finish, new_figure, plot_estimates
from ...stats import summarize
from .grid import BOUNDED, MSS, PATHS, PROGRAM, UNBOUNDED

#: figure number -> (varied axis, receive buffer)
FIGURES = {6: ("rtt", UNBOUNDED), 7: ("loss", UNBOUNDED), 8: ("rtt", BOUNDED), 9: ("loss", BOUNDED)}


def _rtt_ms(option: object, which: int) -> float:
    """The RTT of path ``which`` (0 or -1) of an ``--rtt`` option ("100ms", "100ms,200ms")."""
    seconds = ns3_seconds(str(option).split(",")[which])
    return float("nan") if seconds is None else round(seconds * 1000, 6)


def _ours(frame: pd.DataFrame) -> pd.DataFrame:
    """Every run of the program, failed ones too; the x values from the parameters,
    which every row has (a run that gave no result has no metrics)."""
    data = frame[frame["program"] == PROGRAM].copy()
    if data.empty:
        return data
    data["equal_rtt"] = ~data["rtt"].astype(str).str.contains(",")
    data["rtt_ms"] = data["rtt"].map(lambda option: _rtt_ms(option, 0))
    data["second_rtt_ms"] = data["rtt"].map(lambda option: _rtt_ms(option, -1))
    throughput = data["throughput_Bps"] if "throughput_Bps" in data else float("nan")
    data["throughput_kBps"] = pd.to_numeric(throughput, errors="coerce") / 1000
    return data


def model_kBps(paths: int, loss: float, rtt_s: float, rbuf: int) -> float:
    """The analytic model's throughput (kB/s) for seed 002's settings."""
    return cmt.throughput(paths, loss, rtt_s, MSS, rbuf, fast_retransmit=True) / 1000


def _figure(data: pd.DataFrame, number: int, out: Path) -> Path | None:
    axis, rbuf = FIGURES[number]
    part = data[data["equal_rtt"] & (data["rbuf"] == rbuf)]
    part = part[part["loss"] == 0.01] if axis == "rtt" else part[part["rtt_ms"] == 100]
    if part.empty:
        return None
    x = "rtt_ms" if axis == "rtt" else "loss"
    fig = new_figure(figsize=(7, 4.6))
    ax = fig.subplots()
    values = sorted(part[x].unique())
    span = float(values[-1] - values[0]) if len(values) > 1 else 1.0
    fine = np.linspace(values[0], values[-1], 50) if len(values) > 1 else np.array(values)
    for i, n in enumerate(PATHS):
        series = part[part["paths"] == n]
        if series.empty:
            continue
        color = f"C{i}"
        plot_estimates(
            ax,
            series,
            x,
            "throughput_kBps",
            f"simulation, n = {n}",
            x_shift=dodge(i, len(PATHS), span),
            color=color,
            linestyle="none",
        )
        modelled = [
            model_kBps(n, 0.01, v / 1000, rbuf) if axis == "rtt" else model_kBps(n, v, 0.1, rbuf)
            for v in fine
        ]
        ax.plot(fine, modelled, color=color, label=f"model, n = {n}")
    buffer = "2^28 B (unbounded)" if rbuf == UNBOUNDED else "16 KB (bounded)"
    if axis == "rtt":
        ax.set_xlabel("RTT of every path (ms)")
        setting = "loss 0.01"
    else:
        ax.set_xlabel("loss rate of every path")
        setting = "RTT 100 ms"
    ax.set_ylabel("throughput (kB/s, 1 kB = 1000 B)")
    ax.set_title(f"Seed 002 figure {number}: CMT, {setting}, receive buffer {buffer}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", ncol=2)
    return finish(fig, out / f"seed002-figure{number}.png")


def _mismatch(data: pd.DataFrame, out: Path) -> Path | None:
    part = data[~data["equal_rtt"] | ((data["paths"] == 2) & (data["rtt_ms"] == 100))]
    part = part[(part["paths"] == 2) & (part["loss"] == 0.01) & (part["rtt_ms"] == 100)]
    if part.empty:
        return None
    fig = new_figure(figsize=(7, 7))
    top, bottom = fig.subplots(2, 1, sharex=True)
    for i, rbuf in enumerate((UNBOUNDED, BOUNDED)):
        series = part[part["rbuf"] == rbuf]
        name = "2^28 B buffer" if rbuf == UNBOUNDED else "16 KB buffer"
        plot_estimates(top, series, "second_rtt_ms", "throughput_kBps", name, color=f"C{i}")
        plot_estimates(bottom, series, "second_rtt_ms", "blocked_time_s", name, color=f"C{i}")
    top.set_ylabel("throughput (kB/s)")
    top.set_title("Two paths, loss 0.01, first path RTT 100 ms: the second drifts away")
    bottom.set_ylabel("time blocked by the receiver's window (s)")
    bottom.set_xlabel("RTT of the second path (ms)")
    for ax in (top, bottom):
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    return finish(fig, out / "seed002-rtt-mismatch.png")


def error_table(data: pd.DataFrame) -> pd.DataFrame:
    """Simulation (mean over the successful runs; ``failed`` of ``runs`` did not
    succeed) against the model at every equal-RTT grid point."""
    part = data[data["equal_rtt"]]
    summary = summarize(part, ["paths", "rtt_ms", "loss", "rbuf"], "throughput_kBps")
    summary["model_kBps"] = [
        model_kBps(int(row.paths), float(row.loss), float(row.rtt_ms) / 1000, int(row.rbuf))
        for row in summary.itertuples()
    ]
    summary["relative_error"] = summary["mean"] / summary["model_kBps"] - 1
    return summary


def _table(data: pd.DataFrame, out: Path) -> list[Path]:
    summary = error_table(data)
    if summary.empty:
        return []
    wide = pd.DataFrame(
        {
            "rbuf (B)": summary["rbuf"],
            "n": summary["paths"],
            "RTT (ms)": summary["rtt_ms"].round(0),
            "loss": summary["loss"],
            "simulation (kB/s)": [
                tables.estimate(m, c) for m, c in zip(summary["mean"], summary["ci95"], strict=True)
            ],
            "model (kB/s)": summary["model_kBps"].round(1),
            "relative error": (summary["relative_error"] * 100).round(1).astype(str) + " %",
            "runs failed": [
                tables.failures(f, r)
                for f, r in zip(summary["failed"], summary["runs"], strict=True)
            ],
        }
    )
    errors = summary["relative_error"].abs()
    failed = int(summary["failed"].sum())
    note = (
        f"Mean ± 95 % CI over the successful runs against rudp.models.cmt. |relative error|: "
        f"median {errors.median() * 100:.1f} %, worst {errors.max() * 100:.1f} % over "
        f"{int(errors.notna().sum())} points. 'runs failed': k/n, k of the point's n runs "
        "failed (the program reported a failed run, or the run gave no result) and are not "
        f"in the mean; {failed} in all."
    )
    return tables.write(
        out,
        stem="seed002-model-error",
        title="Seed 002: simulation against the analytic model",
        long=summary,
        wide=wide,
        note=note,
    )


def write(frame: pd.DataFrame, out: Path) -> list[Path]:
    """Figures 6-9 with the model, the RTT-mismatch figure and the error table."""
    data = _ours(frame)
    if data.empty:
        return []
    written = [_figure(data, number, out) for number in FIGURES]
    written.append(_mismatch(data, out))
    return [p for p in written if p is not None] + _table(data, out)
