"""Seed 002's report: figures 6-9 against the analytic model, the RTT-mismatch
figure and the model-error table.

Each figure draws the simulated goodput (mean and 95 % CI over the
successful runs) of both modes -- realistic, and under the model's own
assumptions (``--model-assumptions=1``) -- against the analytic model of
:mod:`rudp.models.cmt` and against ``n x model(n = 1)``
(:func:`rudp.models.cmt.independent_paths_throughput`); a table gives, per
mode, the relative error of every grid point with the timeouts and fast
retransmits behind it. The RTT-mismatch figure, which the seed lacks, shows
the receive-buffer blocking directly. Imported when a report is drawn, never
with :mod:`rudp.sweep`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from rudp.models import cmt, tcp_throughput
from rudp.runner import ns3_seconds
from rudp.sweep import tables
from rudp.sweep.figures import dodge, finish, new_figure, plot_estimates, stacked_panels
from rudp.sweep.index import with_index
from rudp.sweep.stats import summarize

from .grid import BOUNDED, MODEL_ASSUMPTIONS, MSS, PATHS, PROGRAM, UNBOUNDED

#: figure number -> (varied axis, receive buffer)
FIGURES = {6: ("rtt", UNBOUNDED), 7: ("loss", UNBOUNDED), 8: ("rtt", BOUNDED), 9: ("loss", BOUNDED)}

#: the two modes of the simulation, in the order they are reported
REALISTIC, MODEL = "realistic", "model assumptions"
MODES = (REALISTIC, MODEL)

#: the ±15 % band of the issue's goal
BAND = 0.15


def _truthy(value: object) -> bool:
    """An option's value as the sweep gives it back (True, 1, "1", "true"); NaN: absent."""
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes", "on"}
    if isinstance(value, bool | int):
        return bool(value)
    return False


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
    flags = data[MODEL_ASSUMPTIONS] if MODEL_ASSUMPTIONS in data else pd.Series(False, data.index)
    data["mode"] = [MODEL if _truthy(flag) else REALISTIC for flag in flags]
    for counter in ("timeouts", "fast_retransmits"):
        if counter not in data:
            data[counter] = float("nan")
    return data


def model_kBps(paths: int, loss: float, rtt_s: float, rbuf: int) -> float:
    """The analytic model's throughput (kB/s) for seed 002's settings."""
    return cmt.throughput(paths, loss, rtt_s, MSS, rbuf, fast_retransmit=True) / 1000


def independent_kBps(paths: int, loss: float, rtt_s: float, rbuf: int) -> float:
    """``n x model(n = 1)`` (kB/s): each path alone with its share of the buffer."""
    return cmt.independent_paths_throughput(paths, loss, rtt_s, MSS, rbuf) / 1000


def mathis_kBps(paths: int, loss: float, rtt_s: float, rbuf: int) -> float:
    """``n x`` Mathis et al.'s square-root law (kB/s), b = 1 (SCTP counts bytes,
    so delayed SACKs do not slow the climb): each path's sawtooth counting every
    packet of its cycle. NaN for a bounded buffer, which the law does not have."""
    if rbuf != UNBOUNDED:
        return float("nan")
    return paths * tcp_throughput.mathis(loss, rtt_s) * MSS / 1000


def _figure(data: pd.DataFrame, number: int, out: Path) -> Path | None:
    axis, rbuf = FIGURES[number]
    part = data[data["equal_rtt"] & (data["rbuf"] == rbuf)]
    part = part[part["loss"] == 0.01] if axis == "rtt" else part[part["rtt_ms"] == 100]
    if part.empty:
        return None
    x = "rtt_ms" if axis == "rtt" else "loss"
    fig = new_figure(figsize=(8, 5.6))
    ax = fig.subplots()
    values = sorted(part[x].unique())
    span = float(values[-1] - values[0]) if len(values) > 1 else 1.0
    fine = np.linspace(values[0], values[-1], 50) if len(values) > 1 else np.array(values)
    share = "" if rbuf == UNBOUNDED else ", buffer/n each"
    series_count = len(PATHS) * len(MODES)
    for i, n in enumerate(PATHS):
        color = f"C{i}"
        for j, mode in enumerate(MODES):
            series = part[(part["paths"] == n) & (part["mode"] == mode)]
            if series.empty:
                continue
            plot_estimates(
                ax,
                series,
                x,
                "throughput_kBps",
                f"simulation, n = {n}" + (", model assumptions" if mode == MODEL else ""),
                x_shift=dodge(i * len(MODES) + j, series_count, span),
                color=color,
                linestyle="none",
                marker="o" if mode == REALISTIC else "s",
                markerfacecolor=color if mode == REALISTIC else "none",
            )

        def at(v: float, curve: Callable[[int, float, float, int], float], n: int = n) -> float:
            return curve(n, 0.01, v / 1000, rbuf) if axis == "rtt" else curve(n, v, 0.1, rbuf)

        ax.plot(fine, [at(v, model_kBps) for v in fine], color=color, label=f"model, n = {n}")
        ax.plot(
            fine,
            [at(v, independent_kBps) for v in fine],
            color=color,
            linestyle="--",
            label=f"{n} x model(n = 1{share})",
        )
        if rbuf == UNBOUNDED:
            ax.plot(
                fine,
                [at(v, mathis_kBps) for v in fine],
                color=color,
                linestyle=":",
                label=f"{n} x Mathis",
            )
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
    ax.legend(fontsize="x-small", ncol=2)
    return finish(fig, out / f"seed002-figure{number}.png")


def _mismatch(data: pd.DataFrame, out: Path) -> Path | None:
    data = data[data["mode"] == REALISTIC]
    part = data[~data["equal_rtt"] | ((data["paths"] == 2) & (data["rtt_ms"] == 100))]
    part = part[(part["paths"] == 2) & (part["loss"] == 0.01) & (part["rtt_ms"] == 100)]
    if part.empty:
        return None
    fig, top, bottom = stacked_panels(
        "Two paths, loss 0.01, first path RTT 100 ms: the second drifts away",
        "throughput (kB/s)",
        "time blocked by the receiver's window (s)",
        "RTT of the second path (ms)",
    )
    for i, rbuf in enumerate((UNBOUNDED, BOUNDED)):
        series = part[part["rbuf"] == rbuf]
        name = "2^28 B buffer" if rbuf == UNBOUNDED else "16 KB buffer"
        plot_estimates(top, series, "second_rtt_ms", "throughput_kBps", name, color=f"C{i}")
        plot_estimates(bottom, series, "second_rtt_ms", "blocked_time_s", name, color=f"C{i}")
    for ax in (top, bottom):
        ax.legend(fontsize="small")
    return finish(fig, out / "seed002-rtt-mismatch.png")


def error_table(data: pd.DataFrame) -> pd.DataFrame:
    """Simulation (mean over the successful runs; ``failed`` of ``runs`` did not
    succeed) against the model at every equal-RTT grid point of each mode, with
    ``n x model(n = 1)`` and the mean timeouts and fast retransmits per run."""
    part = data[data["equal_rtt"]]
    keys = ["mode", "paths", "rtt_ms", "loss", "rbuf"]
    summary = summarize(part, keys, "throughput_kBps")
    if summary.empty:
        return summary
    for counter in ("timeouts", "fast_retransmits"):
        counts = summarize(part, keys, counter)
        summary[f"{counter}_per_run"] = counts["mean"].to_numpy()
    recoveries = summary["timeouts_per_run"] + summary["fast_retransmits_per_run"]
    summary["timeout_share"] = summary["timeouts_per_run"] / recoveries.where(recoveries > 0)
    points = list(summary.itertuples())
    summary["model_kBps"] = [
        model_kBps(int(r.paths), float(r.loss), float(r.rtt_ms) / 1000, int(r.rbuf)) for r in points
    ]
    summary["independent_kBps"] = [
        independent_kBps(int(r.paths), float(r.loss), float(r.rtt_ms) / 1000, int(r.rbuf))
        for r in points
    ]
    summary["mathis_kBps"] = [
        mathis_kBps(int(r.paths), float(r.loss), float(r.rtt_ms) / 1000, int(r.rbuf))
        for r in points
    ]
    summary["relative_error"] = summary["mean"] / summary["model_kBps"] - 1
    summary["independent_error"] = summary["mean"] / summary["independent_kBps"] - 1
    summary["mathis_error"] = summary["mean"] / summary["mathis_kBps"] - 1
    order = {mode: i for i, mode in enumerate(MODES)}
    summary = summary.sort_values(
        ["mode", "rbuf", "paths", "loss", "rtt_ms"],
        key=lambda column: column.map(order) if column.name == "mode" else column,
        ascending=[True, False, True, True, True],
    )
    return summary.reset_index(drop=True)


def _percent(values: pd.Series, signed: bool = True) -> list[str]:
    """Percentages: an error carries its sign, a share does not."""
    form = "+.1f" if signed else ".1f"
    return [f"{v * 100:{form}} %" if pd.notna(v) else "" for v in values]


def _buffer_name(rbuf: int) -> str:
    return "2^28 B" if rbuf == UNBOUNDED else "16 KB" if rbuf == BOUNDED else f"{rbuf} B"


def _range(values: pd.Series, percent: bool = True, signed: bool = True) -> str:
    """``min to max`` of ``values``: percentages (signed for errors) or counts."""
    low, high = values.min(), values.max()
    if not percent:
        return f"{low:.1f} to {high:.1f}"
    form = "+.1f" if signed else ".1f"
    return f"{low * 100:{form}} to {high * 100:{form}} %"


def summary_table(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per mode and buffer of :func:`error_table`: the error against the
    model and against ``n x model(1)``, the points within ±15 %, and the range
    of timeouts per run and of their share among the loss recoveries."""
    rows = []
    for (mode, rbuf), group in summary.groupby(["mode", "rbuf"], sort=False):
        errors = group["relative_error"].dropna()
        within = int((errors.abs() <= BAND).sum())
        mathis = group["mathis_error"].dropna()
        rows.append(
            {
                "mode": mode,
                "buffer": _buffer_name(int(rbuf)),
                "vs model": _range(errors),
                f"within ±{BAND * 100:.0f} %": f"{within} of {len(errors)}",
                "median abs.": f"{errors.abs().median() * 100:.1f} %",
                "vs n x model(1)": _range(group["independent_error"].dropna()),
                "vs n x Mathis": _range(mathis) if not mathis.empty else "",
                "timeouts / run": _range(group["timeouts_per_run"], percent=False),
                "timeout share": _range(group["timeout_share"].fillna(0.0), signed=False),
            }
        )
    return pd.DataFrame(rows)


def _table(data: pd.DataFrame, out: Path) -> list[Path]:
    summary = error_table(data)
    if summary.empty:
        return []
    sections: list[tuple[str, pd.DataFrame]] = []
    for (mode, rbuf), group in summary.groupby(["mode", "rbuf"], sort=False):
        wide = pd.DataFrame(
            {
                "n": group["paths"],
                "RTT (ms)": group["rtt_ms"].round(0),
                "loss": group["loss"],
                "simulation (kB/s)": [
                    tables.estimate(m, c) for m, c in zip(group["mean"], group["ci95"], strict=True)
                ],
                "model (kB/s)": group["model_kBps"].round(1),
                "error": _percent(group["relative_error"]),
                "n x model(1) (kB/s)": group["independent_kBps"].round(1),
                "error vs n x model(1)": _percent(group["independent_error"]),
                **(
                    {
                        "n x Mathis (kB/s)": group["mathis_kBps"].round(1),
                        "error vs n x Mathis": _percent(group["mathis_error"]),
                    }
                    if group["mathis_kBps"].notna().any()
                    else {}
                ),
                "timeouts / run": group["timeouts_per_run"].round(1),
                "fast rtx / run": group["fast_retransmits_per_run"].round(1),
                "timeout share": _percent(group["timeout_share"], signed=False),
                "runs failed": [
                    tables.failures(f, r)
                    for f, r in zip(group["failed"], group["runs"], strict=True)
                ],
            }
        )
        sections.append((f"{mode}, receive buffer {_buffer_name(int(rbuf))}", wide))
    failed = int(summary["failed"].sum())
    note = (
        "Mean ± 95 % CI over the successful runs against rudp.models.cmt (the n-path model, "
        "default variant) and n x model(n = 1) (independent_paths_throughput: each path alone "
        "with 1/n of the buffer); with the unbounded buffer also n x Mathis et al.'s "
        "square-root law (sqrt(3/(2p)) packets per RTT a path, b = 1), which counts every "
        "packet of a loss cycle where the model leaves two RTTs a cycle uncounted. "
        "'timeouts / run' and 'fast rtx / run' are the sender's T3 "
        "expiries and loss detections (missing reports; in the model-assumptions mode the "
        "oracle's) per run, over the whole run including the warm-up; 'timeout share' is "
        "timeouts / (timeouts + fast rtx). 'runs failed': k/n, k of the point's n runs failed "
        f"(the program reported a failed run, or the run gave no result) and are not in the "
        f"mean; {failed} in all."
    )
    overview = summary_table(summary)
    return tables.write(
        out,
        stem="seed002-model-error",
        title="Seed 002: simulation against the analytic model, both modes",
        long=summary,
        wide=[("summary", overview), *sections],
        note=note,
    ) + tables.write(
        out,
        stem="seed002-model-error-summary",
        title="Seed 002: the error against the model, per mode and buffer",
        long=overview,
        wide=overview,
        note=f"{len(summary)} points; the details are in seed002-model-error.md.",
    )


def write(frame: pd.DataFrame, out: Path) -> list[Path]:
    """Figures 6-9 with the model, the RTT-mismatch figure and the error table."""
    data = _ours(frame)
    if data.empty:
        return []
    written = [_figure(data, number, out) for number in FIGURES]
    written.append(_mismatch(data, out))
    files = [p for p in written if p is not None] + _table(data, out)
    return with_index(out, files, "Seed 002: CMT against the model, figures 6-9")
