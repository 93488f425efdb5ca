"""The remedies' report: goodput and blocked time of each remedy, a figure for
each case and a table for doc/cmt.rst.

Each point is the mean and 95 % CI over the successful runs. The blocked
time is ``blocked_time_s`` of the rudp-cmt record (the time the receiver's
window kept a sender with data and room in a path's window from sending,
over the whole run) as a share of the run. Imported when a report is drawn,
never with :mod:`rudp.sweep`.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pandas as pd

from rudp.runner import ns3_seconds
from rudp.sweep import tables
from rudp.sweep.figures import dodge, finish, new_figure, plot_estimates, stacked_panels
from rudp.sweep.index import with_index
from rudp.sweep.stats import summarize

from .grid import PATHS, PROGRAM, REMEDIES

#: The options that select a remedy, and their values when not given.
OPTIONS = {"scheduler": "round-robin", "buffer-splitting": "none", "rescheduling": 0}


def _rtt_ms(option: object, which: int) -> float:
    """The RTT of path ``which`` (0 or -1) of an ``--rtt`` option ("100ms", "100ms,200ms")."""
    seconds = ns3_seconds(str(option).split(",")[which])
    return float("nan") if seconds is None else round(seconds * 1000, 6)


def _canonical(value: object) -> str:
    """An option's value as text, whatever the column made of it (1, 1.0, True: "1")."""
    if isinstance(value, bool | int | float) and float(value).is_integer():
        return str(int(value))
    return str(value)


def remedy_of(row: pd.Series) -> str:
    """The name of the remedy a row ran with ("" if none of :data:`REMEDIES`)."""
    chosen = {
        key: _canonical(row[key] if key in row and pd.notna(row[key]) else default)
        for key, default in OPTIONS.items()
    }
    for name, options in REMEDIES.items():
        wanted = {key: _canonical(options.get(key, default)) for key, default in OPTIONS.items()}
        if wanted == chosen:
            return name
    return ""


def _ours(frame: pd.DataFrame) -> pd.DataFrame:
    """The remedies' runs, failed ones too, with the remedy and the x values."""
    data = frame[frame["program"] == PROGRAM].copy()
    if data.empty:
        return data
    data["remedy"] = data.apply(remedy_of, axis=1)
    data = data[data["remedy"] != ""]
    data["mismatch"] = data["rtt"].astype(str).str.contains(",")
    data["rtt_ms"] = data["rtt"].map(lambda option: _rtt_ms(option, 0))
    data["second_rtt_ms"] = data["rtt"].map(lambda option: _rtt_ms(option, -1))
    throughput = data["throughput_Bps"] if "throughput_Bps" in data else float("nan")
    data["goodput_kBps"] = pd.to_numeric(throughput, errors="coerce") / 1000
    blocked = data["blocked_time_s"] if "blocked_time_s" in data else float("nan")
    duration = data["duration"].map(lambda option: ns3_seconds(str(option)) or float("nan"))
    data["blocked_share"] = pd.to_numeric(blocked, errors="coerce") / duration
    return data


def _remedies(data: pd.DataFrame) -> list[str]:
    present = set(data["remedy"])
    return [name for name in REMEDIES if name in present]


def _figure_16k(data: pd.DataFrame, out: Path) -> Path | None:
    part = data[~data["mismatch"]]
    if part.empty:
        return None
    rtts = sorted(part["rtt_ms"].unique())
    fig = new_figure(figsize=(4 * len(rtts), 7.4))
    axes = fig.subplots(2, len(rtts), sharex=True, sharey="row", squeeze=False)
    remedies = _remedies(part)
    for column, rtt in enumerate(rtts):
        top, bottom = axes[0][column], axes[1][column]
        for i, remedy in enumerate(remedies):
            series = part[(part["rtt_ms"] == rtt) & (part["remedy"] == remedy)]
            shift = dodge(i, len(remedies), 2.0)
            for ax, metric in ((top, "goodput_kBps"), (bottom, "blocked_share")):
                plot_estimates(ax, series, "paths", metric, remedy, x_shift=shift, color=f"C{i}")
        top.set_title(f"RTT {rtt:g} ms")
        bottom.set_xlabel("paths n")
        bottom.set_xticks(list(PATHS))
        for ax in (top, bottom):
            ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("goodput (kB/s)")
    axes[1][0].set_ylabel("share of the run blocked by the receiver's window")
    axes[0][0].legend(fontsize="x-small")
    fig.suptitle("Remedies for receive-buffer blocking: 16 KB buffer, loss 0.01, equal paths")
    return finish(fig, out / "cmt-remedies-16k.png")


def _figure_mismatch(data: pd.DataFrame, out: Path) -> Path | None:
    part = data[data["mismatch"]]
    if part.empty:
        return None
    fig, top, bottom = stacked_panels(
        "Two paths, 16 KB buffer, loss 0.01: 100 ms against a slower second path",
        "goodput (kB/s)",
        "share of the run blocked by the receiver's window",
        "RTT of the second path (ms)",
        height=7.4,
    )
    remedies = _remedies(part)
    span = float(part["second_rtt_ms"].max() - part["second_rtt_ms"].min()) or 1.0
    for i, remedy in enumerate(remedies):
        series = part[part["remedy"] == remedy]
        shift = dodge(i, len(remedies), span)
        for ax, metric in ((top, "goodput_kBps"), (bottom, "blocked_share")):
            plot_estimates(
                ax, series, "second_rtt_ms", metric, remedy, x_shift=shift, color=f"C{i}"
            )
    top.legend(fontsize="x-small")
    return finish(fig, out / "cmt-remedies-mismatch.png")


def summary_table(data: pd.DataFrame) -> pd.DataFrame:
    """Goodput and blocked share per remedy and point (mean, CI, failures)."""
    keys = ["remedy", "mismatch", "paths", "rtt_ms", "second_rtt_ms"]
    goodput = summarize(data, keys, "goodput_kBps")
    blocked = summarize(data, keys, "blocked_share")[[*keys, "mean"]]
    merged = goodput.merge(blocked.rename(columns={"mean": "blocked_share"}), on=keys)
    order = {name: i for i, name in enumerate(REMEDIES)}
    merged["order"] = merged["remedy"].map(order)
    return merged.sort_values(["mismatch", "order", "rtt_ms", "paths", "second_rtt_ms"]).drop(
        columns="order"
    )


def _cell(row: pd.Series) -> str:
    failed = int(row["failed"])
    # One decimal throughout (126.8 beside 95.3, not 95.30): goodputs are compared across a row.
    text = f"{row['mean']:.1f}" + (f" ± {row['ci95']:.1f}" if pd.notna(row["ci95"]) else "")
    share = f"{row['blocked_share'] * 100:.0f} %" if pd.notna(row["blocked_share"]) else "-"
    suffix = f", {tables.failures(failed, int(row['runs']))} failed" if failed else ""
    return f"{text} ({share}){suffix}"


def _verdicts(summary: pd.DataFrame) -> pd.DataFrame:
    """Per remedy and RTT of the 16 KB grid: does adding paths ever lower the goodput?"""
    rows = []
    equal = summary[~summary["mismatch"]]
    for (remedy, rtt), group in equal.groupby(["remedy", "rtt_ms"], sort=False):
        means = group.sort_values("paths")["mean"].to_list()
        drops = [later / earlier - 1 for earlier, later in itertools.pairwise(means)]
        worst = min(drops) if drops else float("nan")
        rows.append({"remedy": remedy, "rtt_ms": rtt, "worst_step": worst})
    return pd.DataFrame(rows)


def _table(data: pd.DataFrame, out: Path) -> list[Path]:
    summary = summary_table(data)
    if summary.empty:
        return []
    sections: list[tuple[str, pd.DataFrame]] = []
    equal = summary[~summary["mismatch"]]
    if not equal.empty:
        verdicts = _verdicts(summary)
        wide = equal.assign(cell=equal.apply(_cell, axis=1)).pivot_table(
            index=["remedy", "rtt_ms"], columns="paths", values="cell", aggfunc="first", sort=False
        )
        wide.columns = [f"n = {int(n)}" for n in wide.columns]
        wide = wide.reset_index().merge(verdicts, on=["remedy", "rtt_ms"], how="left")
        wide["worst step n -> n+1"] = [f"{v * 100:+.1f} %" for v in wide.pop("worst_step")]
        wide = wide.rename(columns={"rtt_ms": "RTT (ms)"})
        wide["RTT (ms)"] = wide["RTT (ms)"].round(0).astype(int)
        sections.append(("16 KB buffer, equal paths, loss 0.01", wide))
    mismatch = summary[summary["mismatch"]]
    if not mismatch.empty:
        wide = mismatch.assign(cell=mismatch.apply(_cell, axis=1)).pivot_table(
            index="remedy", columns="second_rtt_ms", values="cell", aggfunc="first", sort=False
        )
        wide.columns = [f"100 / {int(r)} ms" for r in wide.columns]
        sections.append(
            ("Two paths, 16 KB buffer, loss 0.01, RTT 100 ms against", wide.reset_index())
        )
    failed = int(summary["failed"].sum())
    note = (
        "Goodput in kB/s (1 kB = 1000 B): mean ± 95 % CI over the successful runs, and in "
        "brackets the mean share of the run during which the receiver's window blocked the "
        "sender (blocked_time_s over the run). 'worst step': the largest fall of the mean "
        "goodput from n to n + 1 paths (negative: adding a path lowered it). "
        f"{failed} runs failed in all."
    )
    return tables.write(
        out,
        stem="cmt-remedies",
        title="CMT: remedies for receive-buffer blocking",
        long=summary,
        wide=sections,
        note=note,
    )


def write(frame: pd.DataFrame, out: Path) -> list[Path]:
    """The 16 KB and RTT-mismatch figures and the table."""
    data = _ours(frame)
    if data.empty:
        return []
    written = [_figure_16k(data, out), _figure_mismatch(data, out)]
    files = [p for p in written if p is not None] + _table(data, out)
    return with_index(out, files, "CMT remedies: figures and table")
