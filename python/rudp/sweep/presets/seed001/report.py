"""Seed 001's report: throughput, delay, jitter and loss against the packet count.

Each metric against N (one line per transport, mean and 95 % CI over the
successful runs, failed runs counted beside each point), the CDFs of delay
and jitter built from the successful runs' FlowMonitor histograms, and a
summary table. Imported when a report is drawn, never with :mod:`rudp.sweep`.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from rudp.sweep import tables
from rudp.sweep.figures import dodge, finish, histogram_cdf, new_figure, plot_estimates
from rudp.sweep.frame import success
from rudp.sweep.index import with_index
from rudp.sweep.stats import Scale, summarize

from .grid import PAYLOAD, PROGRAM, TRANSPORTS

#: metric -> (file stem, axis label, y scale). On the log axes the estimate is
#: the geometric mean with its interval in log space (never below zero);
#: lost packets, often 0, on a linear axis with each run drawn.
METRICS: dict[str, tuple[str, str, Scale]] = {
    "throughput_Mbps": ("throughput", "throughput (Mbit/s)", "linear"),
    "mean_delay_s": ("delay", "mean delay (ms)", "log"),
    "mean_jitter_s": ("jitter", "mean jitter (ms)", "log"),
    "lost_packets": ("loss", "lost packets", "linear"),
}
#: Neighbouring packet counts further apart than this factor are not joined
#: by a line: the seed's grid has nothing between 100 and 10 000.
GAP_RATIO = 10.0
#: What the seed published for points we run (its text; its figures are
#: images): (transport, packets) -> value, with the words it said it in.
PUBLISHED = {
    "lost_packets": {("udp", 100): (97.0, "seed 001: 97 of 100 lost")},
}
#: The seed's TCP throughput, "settling near 400 Mbit/s" over its large counts.
PUBLISHED_TCP_MBPS = 400.0
_MS = {"mean_delay_s", "mean_jitter_s"}
FAILED_COLUMN = "runs failed"


def _ours(frame: pd.DataFrame) -> pd.DataFrame:
    """Every run of the program, failed ones too."""
    return frame[frame["program"] == PROGRAM]


def _transports(data: pd.DataFrame) -> list[str]:
    present = list(dict.fromkeys(data["transport"]))
    return [t for t in TRANSPORTS if t in present] + [t for t in present if t not in TRANSPORTS]


def _against_packets(data: pd.DataFrame, out: Path) -> list[Path]:
    written: list[Path] = []
    runs = int(data.groupby("transport")["run"].nunique().max())
    for metric, (stem, name, scale) in METRICS.items():
        if metric not in data or data[metric].isna().all():
            continue
        fig = new_figure(figsize=(7.5, 4.8))
        ax = fig.subplots()
        values = data.assign(_y=data[metric].astype(float) * (1e3 if metric in _MS else 1.0))
        transports = _transports(values)
        loss = metric == "lost_packets"
        # Series that lost nothing in any run would lie on top of each other at 0: named
        # in a note instead of drawn.
        none_lost = [
            t
            for t in transports
            if loss and (values.loc[success(values) & (values["transport"] == t), "_y"] == 0).all()
        ]
        drawn = [t for t in transports if t not in none_lost]
        for i, transport in enumerate(drawn):
            part = values[values["transport"] == transport]
            # On the log axis a shift is a factor: 1 +- a few percent.
            factor = 10 ** dodge(i, len(drawn), 1.0)
            plot_estimates(
                ax,
                part,
                "packets",
                "_y",
                transport,
                x_scale=factor,
                y_scale=scale,
                max_ratio=GAP_RATIO,
                show_runs=True,
                errorbars=not loss,
            )
        for (transport, packets), (value, text) in PUBLISHED.get(metric, {}).items():
            if transport in drawn and packets in set(values["packets"]):
                ax.plot(
                    [packets],
                    [value],
                    marker="*",
                    markersize=12,
                    color="tab:red",
                    linestyle="none",
                    label=text,
                )
        if metric == "throughput_Mbps":
            ax.axhline(1000, color="grey", linestyle=":", label="link rate 1 Gbit/s")
            large = values["packets"][values["packets"] >= 10_000]
            if "tcp" in drawn and not large.empty:
                ax.plot(
                    [large.min(), large.max()],
                    [PUBLISHED_TCP_MBPS] * 2,
                    color="tab:red",
                    linestyle="--",
                    label=f"seed 001: TCP settles near {PUBLISHED_TCP_MBPS:g} Mbit/s",
                )
        if none_lost:
            ax.text(
                0.02,
                0.97,
                "no packet lost in any run: " + ", ".join(none_lost),
                transform=ax.transAxes,
                va="top",
                fontsize="small",
                bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "grey"},
            )
        ax.set_xscale("log")
        if scale == "linear":
            ax.set_ylim(bottom=0)
        ax.set_xlabel("packets sent (log scale; no line across 100 ... 10 000: not measured)")
        ax.set_ylabel(name + ("" if scale == "linear" else f" ({scale} scale)"))
        estimate = (
            "mean of the successful runs (line), each run a dot"
            if loss
            else (
                "geometric mean and 95 % CI in log space"
                if scale == "log"
                else "mean and 95 % CI (Student t)"
            )
            + f" of the successful runs of {runs}, each run a dot"
        )
        ax.set_title(
            f"Seed 001: {name.split(' (')[0]} against packet count\n"
            f"{PAYLOAD} B payloads, 1 Gbit/s CSMA, 2 µs;\n{estimate}",
            fontsize="medium",
        )
        ax.grid(True, which="both", alpha=0.3)
        if ax.get_legend_handles_labels()[0]:  # nothing to name when no run succeeded
            ax.legend(fontsize="small")
        written.append(finish(fig, out / f"seed001-{stem}.png"))
    return written


def _cdfs(data: pd.DataFrame, out: Path) -> list[Path]:
    written: list[Path] = []
    failed = int((~success(data)).sum())
    data = data[success(data)]
    if data.empty:
        return written
    counts = sorted(data["packets"].unique())
    # Three packet counts tell the story: the smallest, a middle one, the largest.
    shown = list(dict.fromkeys([counts[0], counts[len(counts) // 2], counts[-1]]))

    for quantity in ("delay", "jitter"):
        edges, hist = f"{quantity}_hist_edges_s", f"{quantity}_hist_counts"
        if edges not in data or hist not in data:
            continue
        fig = new_figure(figsize=(5.2 * len(shown), 4.4))
        axes = fig.subplots(1, len(shown), squeeze=False, sharey=True)
        for ax, packets in zip(axes[0], shown, strict=True):
            for transport in _transports(data):
                part = data[(data["packets"] == packets) & (data["transport"] == transport)]
                part = part.dropna(subset=[edges, hist])
                x, cdf = histogram_cdf(list(part[edges]), list(part[hist]))
                if len(x):
                    ax.step(x * 1e3, cdf, where="post", label=transport)
            ax.set_xscale("log")
            ax.set_title(f"{packets} packets")
            ax.set_xlabel(f"{quantity} (ms, log scale; histogram bin upper edges)")
            ax.grid(True, which="both", alpha=0.3)
            if ax.has_data():
                ax.legend(fontsize="small")
        axes[0][0].set_ylabel("fraction of packets ≤ x")
        left_out = f"; {failed} failed run(s) left out" if failed else ""
        fig.suptitle(
            f"Seed 001: CDF of per-packet {quantity} from FlowMonitor histograms "
            f"(successful runs pooled{left_out})"
        )
        written.append(finish(fig, out / f"seed001-{quantity}-cdf.png"))
    return written


def _table(data: pd.DataFrame, out: Path) -> list[Path]:
    metrics = [m for m in METRICS if m in data]
    if not metrics:
        return []
    long = pd.concat(
        [summarize(data, ["transport", "packets"], m).assign(metric=m) for m in metrics],
        ignore_index=True,
    )
    wide_rows: list[dict[str, object]] = []
    for (transport, packets), part in long.groupby(["transport", "packets"], sort=False):
        row: dict[str, object] = {"transport": transport, "packets": packets}
        for _, cell in part.iterrows():
            scale = 1e3 if cell["metric"] in _MS else 1.0
            name = METRICS[cell["metric"]][1]
            row[name] = tables.estimate(cell["mean"] * scale, cell["ci95"] * scale)
        first = part.iloc[0]  # every metric of a point counts the same runs
        row[FAILED_COLUMN] = tables.failures(first["failed"], first["runs"])
        wide_rows.append(row)
    order = {t: i for i, t in enumerate(_transports(data))}
    wide = pd.DataFrame(wide_rows)
    wide = wide.sort_values(
        ["transport", "packets"], key=lambda c: c.map(order) if c.name == "transport" else c
    )
    return tables.write(
        out,
        stem="seed001-summary",
        title="Seed 001: TCP, UDP and RUDP against packet count",
        long=long[["transport", "packets", "metric", "mean", "ci95", "n", "failed", "runs"]],
        wide=wide,
        note="Mean ± 95 % CI half-width (Student t) over the successful runs; FlowMonitor's "
        f"data flow. '{FAILED_COLUMN}': k/n, k of the point's n runs failed (the program "
        "reported a failed run, or the run gave no result) and are not in the means.",
    )


def write(frame: pd.DataFrame, out: Path) -> list[Path]:
    """The figures against packet count, the delay and jitter CDFs and a summary table."""
    data = _ours(frame)
    if data.empty:
        return []
    files = [*_against_packets(data, out), *_cdfs(data, out), *_table(data, out)]
    return with_index(out, files, "Seed 001: TCP, UDP and RUDP against packet count")
