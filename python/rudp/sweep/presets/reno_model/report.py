"""The reno-model report: measured throughput against Padhye et al. and Mathis et al.

Each run's prediction uses that run's own measurements: the mean RTT its
sender measured (``mean_rtt_s`` of its flow record), the RTO in force at those
samples as ``T0`` (``mean_rto_s``), ``b`` (``--del-ack-count``), ``W_max`` =
socket buffer / segment size and the segment loss rate ``p`` of the grid. A
point's prediction is the mean of its runs' predictions; the ratio is the
measured mean over it. Throughput counts payload bytes (goodput), as the
models count segments.

Three predictions (:mod:`rudp.models.tcp_throughput`): Padhye's full model,
eq. (31), with its own timeout probability ``Q(E[W])``; the same equation
with ``Q`` replaced by the run's measured share of timeouts among its loss
indications (timeouts / (timeouts + fast retransmits)), which tells the
model's window dynamics apart from its assumption about timeouts; and
Mathis' square-root law, which has no timeouts at all.

The figure draws throughput against ``p`` on log-log axes, one panel per RTT:
every run as a small point (a log axis cannot show an interval that reaches
below zero, and the runs themselves never do), the mean as a larger marker,
and the models as lines through the measured ``p`` only.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter, NullFormatter

from rudp.models import tcp_throughput as model
from rudp.runner import ns3_seconds
from rudp.sweep import tables
from rudp.sweep.figures import new_figure
from rudp.sweep.index import with_index
from rudp.sweep.stats import summarize

from .grid import CONFIGS, PROGRAM

#: the goal of issue 16: RUDP Reno within 25 % of Padhye et al.
GOAL = 0.25


def _truthy(value: object) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes", "on"}
    if isinstance(value, bool | int | float) and not (
        isinstance(value, float) and math.isnan(value)
    ):
        return bool(value)
    return False


def _algorithm(flows: object) -> str:
    return str(flows).split("@", 1)[0]


def _rtt_ms(flows: object) -> float:
    text = str(flows).split("@", 1)[-1].split("+", 1)[0]
    seconds = ns3_seconds(text)
    return float("nan") if seconds is None else round(seconds * 1000, 6)


def config_of(row: pd.Series) -> str:
    """The label (:data:`CONFIGS`) of the sender a row ran ("" if none)."""
    algorithm = _algorithm(row.get("flows"))
    sack = _truthy(row.get("sack", 1))
    b = int(float(row.get("del-ack-count", 2)))
    for label, config in CONFIGS.items():
        if (
            config.transport == str(row.get("transport"))
            and config.algorithm == algorithm
            and config.sack == sack
            and config.b == b
        ):
            return label
    return ""


def _flow(metrics: object) -> dict[str, Any]:
    """The first flow's record of a run (``flows_metrics``), or an empty one."""
    if isinstance(metrics, list | tuple | np.ndarray) and len(metrics):
        first = metrics[0]
        if isinstance(first, dict):
            return first
    return {}


def _predictions(row: pd.Series) -> pd.Series:
    """One run's predictions (segments/s times the segment: bit/s) from its measurements."""
    nan = float("nan")
    p, rtt, t0 = row["loss"], row["mean_rtt_s"], row["mean_rto_s"]
    if not (p > 0 and rtt > 0 and t0 > 0):
        return pd.Series(
            {"padhye_bps": nan, "padhye_q_bps": nan, "mathis_bps": nan, "q_model": nan}
        )
    b = int(row["b"])
    bits = 8.0 * float(row["segment_size"])
    w_max = float(row["buffer_bytes"]) / float(row["segment_size"])
    window = model.padhye_mean_window(p, b)
    q_share = row["timeout_share"]
    measured_q = model.padhye_full(p, rtt, t0, b, w_max=w_max, q=q_share) if q_share >= 0 else nan
    return pd.Series(
        {
            "padhye_bps": model.padhye_full(p, rtt, t0, b, w_max=w_max) * bits,
            "padhye_q_bps": measured_q * bits,
            "mathis_bps": model.mathis(p, rtt, b) * bits,
            "q_model": model.timeout_probability(p, min(window, w_max)),
        }
    )


def runs_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Every run of the preset's senders, failed ones too, with its measurements and
    predictions: config, rtt_ms, loss, b, throughput_bps, mean_rtt_s, mean_rto_s,
    timeouts, fast_retransmits, timeout_share and the predictions in bit/s."""
    data = frame[frame["program"] == PROGRAM].copy()
    if data.empty:
        return data
    data["config"] = data.apply(config_of, axis=1)
    data = data[data["config"] != ""].copy()
    if data.empty:
        return data
    records = data["flows_metrics"] if "flows_metrics" in data else pd.Series([{}] * len(data))
    flows = [_flow(m) for m in records]
    for key in ("throughput_bps", "mean_rtt_s", "mean_rto_s", "timeouts", "fast_retransmits"):
        data[key] = pd.to_numeric(
            pd.Series([f.get(key, np.nan) for f in flows], index=data.index), errors="coerce"
        )
    data["rtt_ms"] = data["flows"].map(_rtt_ms)
    data["loss"] = pd.to_numeric(data["loss"], errors="coerce")
    data["b"] = data["config"].map(lambda label: CONFIGS[label].b)
    for key in ("segment_size", "buffer_bytes"):
        data[key] = pd.to_numeric(data[key], errors="coerce") if key in data else np.nan
    indications = data["timeouts"] + data["fast_retransmits"]
    data["timeout_share"] = (data["timeouts"] / indications).where(indications > 0, -1.0)
    predicted = data.apply(_predictions, axis=1)
    data = pd.concat([data, predicted], axis=1)
    data["throughput_Mbps"] = data["throughput_bps"] / 1e6
    return data


def summary_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per sender, RTT and p: measured throughput (mean, CI, n), the mean of its runs'
    measurements and predictions, and the ratios of measured to predicted."""
    keys = ["config", "rtt_ms", "loss"]
    summary = summarize(runs, keys, "throughput_Mbps")
    ok = runs[runs["status"] == "ok"] if "status" in runs else runs
    means = ok.groupby(keys, sort=True)[
        [
            "mean_rtt_s",
            "mean_rto_s",
            "padhye_bps",
            "padhye_q_bps",
            "mathis_bps",
            "q_model",
            "timeouts",
            "fast_retransmits",
        ]
    ].mean()
    summary = summary.merge(means.reset_index(), on=keys, how="left")
    for name in ("padhye", "padhye_q", "mathis"):
        summary[f"{name}_Mbps"] = summary[f"{name}_bps"] / 1e6
        summary[f"ratio_{name}"] = summary["mean"] / summary[f"{name}_Mbps"]
    indications = summary["timeouts"] + summary["fast_retransmits"]
    summary["timeout_share"] = summary["timeouts"] / indications.where(indications > 0)
    order = {label: i for i, label in enumerate(CONFIGS)}
    summary["order"] = summary["config"].map(order)
    return (
        summary.sort_values(["order", "rtt_ms", "loss"])
        .drop(columns=["order", "padhye_bps", "padhye_q_bps", "mathis_bps"])
        .reset_index(drop=True)
    )


def _percent(value: float) -> str:
    return "" if math.isnan(value) else f"{(value - 1) * 100:+.0f} %"


def _wide(summary: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for row in summary.itertuples(index=False):
        rows.append(
            {
                "sender": row.config,
                "RTT (ms)": round(row.rtt_ms),
                "p (%)": f"{row.loss * 100:g}",
                "measured (Mbit/s)": tables.estimate_of_successes(
                    row.mean, row.ci95, int(row.failed), int(row.runs), digits=3
                ),
                "RTT meas. (ms)": tables.number(row.mean_rtt_s * 1000, 3),
                "T0 (s)": tables.number(row.mean_rto_s, 3),
                "Padhye (31)": tables.number(row.padhye_Mbps, 3),
                "vs Padhye": _percent(row.ratio_padhye),
                "Padhye, meas. Q": tables.number(row.padhye_q_Mbps, 3),
                "vs meas. Q": _percent(row.ratio_padhye_q),
                "Mathis": tables.number(row.mathis_Mbps, 3),
                "vs Mathis": _percent(row.ratio_mathis),
                "timeouts: meas. / Q": (
                    f"{row.timeout_share * 100:.0f} % / {row.q_model * 100:.0f} %"
                    if not math.isnan(row.timeout_share)
                    else ""
                ),
            }
        )
    return pd.DataFrame(rows)


def _table(summary: pd.DataFrame, out: Path) -> list[Path]:
    failed = int(summary["failed"].sum())
    note = (
        "Goodput in Mbit/s (10^6 bit/s) of one bulk flow: mean ± 95 % Student-t interval "
        "over the runs. Each run's predictions use its own measured mean RTT and RTO (T0) "
        "and b, W_max = buffer / segment; a point's prediction is the mean over its runs. "
        "'Padhye (31)': Padhye et al. (1998) eq. (31) with its own timeout probability Q; "
        "'Padhye, meas. Q': the same equation with the measured share of timeouts among the "
        "loss indications; 'Mathis': Mathis et al. (1997), sqrt(3/2b)/(RTT sqrt p). 'vs': "
        "measured over predicted, less one. 'timeouts': the measured share of timeouts among "
        f"the loss indications against the model's Q(E[W]). {failed} runs failed in all."
    )
    return tables.write(
        out,
        stem="reno-model",
        title="Reno on one lossy path against Padhye et al. (1998) and Mathis et al. (1997)",
        long=summary,
        wide=_wide(summary),
        note=note,
    )


def _minor_label(value: float, _position: float) -> str:
    """Labels 2, 3 and 5 of each decade of a log axis; the other minor ticks stay bare."""
    if value <= 0:
        return ""
    digit = round(value / 10 ** math.floor(math.log10(value) + 1e-9), 6)
    return f"{value:g}" if digit in {2.0, 3.0, 5.0} else ""


#: marker per sender, colour per sender
_MARKERS = ("o", "s", "^", "v", "D", "P")


def _figure(runs: pd.DataFrame, summary: pd.DataFrame, out: Path) -> Path | None:
    if summary.empty:
        return None
    rtts = sorted(summary["rtt_ms"].unique())
    fig = new_figure(figsize=(max(5.2 * len(rtts), 9.0), 6.6))
    axes = fig.subplots(1, len(rtts), sharey=True, squeeze=False)[0]
    labels = [label for label in CONFIGS if label in set(summary["config"])]
    ok = runs[runs["status"] == "ok"] if "status" in runs else runs
    for ax, rtt in zip(axes, rtts, strict=True):
        for i, label in enumerate(labels):
            color = f"C{i}"
            # A small multiplicative dodge keeps the senders' points apart on the log axis.
            scale = 1.0 + 0.035 * (i - (len(labels) - 1) / 2)
            mine = ok[(ok["config"] == label) & (ok["rtt_ms"] == rtt)]
            ax.scatter(
                mine["loss"] * 100 * scale,
                mine["throughput_Mbps"],
                s=9,
                color=color,
                alpha=0.45,
                marker=_MARKERS[i % len(_MARKERS)],
                linewidths=0,
            )
            point = summary[(summary["config"] == label) & (summary["rtt_ms"] == rtt)]
            ax.plot(
                point["loss"] * 100 * scale,
                point["mean"],
                marker=_MARKERS[i % len(_MARKERS)],
                color=color,
                linestyle="none",
                markersize=6,
                markerfacecolor="none",
                label=label,
            )
            # Padhye (31) with this sender's measured timeout share: a bar beside its mean.
            ax.plot(
                point["loss"] * 100 * scale,
                point["padhye_q_Mbps"],
                marker="_",
                markersize=11,
                markeredgewidth=1.6,
                color=color,
                linestyle="none",
                label="Padhye (31) with its measured Q" if i == len(labels) - 1 else None,
            )
        # The models with b = 1 and 2, at the measured RTT and T0 of the RUDP Reno
        # senders with that b (mean over their runs), over the measured p only.
        for b, dash in ((1, "-"), (2, "--")):
            reno = summary[
                (summary["rtt_ms"] == rtt)
                & summary["config"].map(lambda c, b=b: CONFIGS[c].rudp_reno and CONFIGS[c].b == b)
            ]
            if reno.empty:
                continue
            curve = reno.groupby("loss")[["padhye_Mbps", "mathis_Mbps"]].mean().reset_index()
            ax.plot(
                curve["loss"] * 100,
                curve["padhye_Mbps"],
                color="black",
                linestyle=dash,
                linewidth=1.2,
                label=f"Padhye (31), b = {b}",
            )
            ax.plot(
                curve["loss"] * 100,
                curve["mathis_Mbps"],
                color="grey",
                linestyle=dash,
                linewidth=1.0,
                alpha=0.8,
                label=f"Mathis, b = {b}",
            )
        ax.set_xscale("log")
        ax.set_yscale("log")
        # Plain numbers at the measured p, not powers of ten.
        ax.set_xticks([p * 100 for p in sorted(summary["loss"].unique())])
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
        ax.yaxis.set_minor_formatter(FuncFormatter(_minor_label))
        ax.tick_params(axis="y", which="minor", labelsize="x-small")
        ax.set_title(f"RTT {rtt:g} ms")
        ax.set_xlabel("segment loss rate p (%)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("goodput (Mbit/s); small points: runs, open markers: means")
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, fontsize="small", loc="lower center", ncol=5, frameon=False)

    fig.suptitle(
        "Reno on one lossy path against Padhye et al. (1998) and Mathis et al. (1997)\n"
        "models at the RUDP Reno runs' measured RTT and RTO",
        fontsize="medium",
    )
    # finish()'s layout without the figure legend's band at the foot.
    fig.tight_layout(rect=(0, 0.15, 1, 1))
    path = out / "reno-model.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    return path


def write(frame: pd.DataFrame, out: Path) -> list[Path]:
    """The table (Markdown and CSV) and the figure."""
    runs = runs_table(frame)
    if runs.empty:
        return []
    summary = summary_table(runs)
    written = _table(summary, out)
    figure = _figure(runs, summary, out)
    files = written + ([figure] if figure is not None else [])
    return with_index(out, files, "RUDP Reno and ns-3 TCP against Padhye and Mathis")
