"""Seed 003's report: congestion controls on a dumbbell, over TCP and over RUDP.

Each figure or table of the seed has one panel or section per transport:
TCP (the seed's) and RUDP carrying the same ``TcpCongestionOps``.

- figures 2 and 3: link utilisation of each algorithm alone against RTT and
  against the loss rate; figures 6 and 7 repeat them for CVTCP against
  Reno, Cubic and Veno;
- tables 1 and 2: RTT fairness, two flows of one algorithm at 50 ms and at
  50/100/200/400 ms, as the throughput of the 50 ms flow over the other's;
- figures 4 and 5: TCP friendliness, one Reno flow against one flow of each
  algorithm; figures 8 and 9 repeat them for CVTCP;
- a ranking table that checks the seed's conclusions against our runs.

Every mean is over the runs that succeeded; runs that failed (the program
reported a failure, or the run gave no result) are counted beside it as
``k/n failed``, never averaged in and never dropped silently. Imported when
a report is drawn, never with :mod:`rudp.sweep`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
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

from .grid import (
    ALGORITHMS,
    CVTCP_PEERS,
    FAIRNESS_LOSS,
    FRIENDLINESS_LOSS,
    FRIENDLINESS_RTT_MS,
    PROGRAM,
    RTTS_MS,
    SETTINGS,
    TRANSPORTS,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: What the seed published for a point we also run: the mean throughput of the
#: two Reno flows of its friendliness experiment (its text beside figures 4
#: and 5; its figures and tables themselves are images without numbers).
PUBLISHED_RENO_PAIR_MBPS = {"high-bdp": 34.3, "lossy": 1.77}

#: Two algorithms' utilisation lines closer than this (points of %) at every
#: x are drawn as one line, named for all of them.
COINCIDE_POINTS = 0.5

SETTING_TITLES = {
    "high-bdp": "high-BDP: 100 Mbit/s, bFIFO of one BDP, no loss",
    "lossy": "lossy: 10 Mbit/s, RTT 50 ms, pFIFO 1000 packets",
}


# --- the frame, one row per flow ------------------------------------------------------------


_RATE = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*([kKMG]?)b(?:ps|/s)\s*$")
_RATE_UNITS = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}


def _rate_bps(value: object) -> float:
    """An ns-3 data rate option ("100Mbps") in bit/s; NaN if it is not one."""
    match = _RATE.match(str(value))
    if match is None:
        return float("nan")
    return float(match.group(1)) * _RATE_UNITS[match.group(2)]


def _option_flows(option: object) -> list[dict[str, object]]:
    """The flows a ``--flows`` option asks for ("cubic@50ms,veno@200ms"), unmeasured."""
    flows: list[dict[str, object]] = []
    for index, part in enumerate(str(option).split(",")):
        algorithm, _, rtt = part.partition("@")
        seconds = ns3_seconds(rtt)
        flows.append(
            {
                "index": index,
                "algorithm": algorithm.strip(),
                "rtt_s": float("nan") if seconds is None else seconds,
                "throughput_bps": float("nan"),
            }
        )
    return flows


def _number(run: pd.Series, name: str) -> float:
    value = run.get(name)
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


def flow_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per flow of every run, failed runs too: its experiment and its metrics.

    Columns: ``transport``, ``setting`` (high-bdp, lossy), ``loss``, ``run``,
    ``flows`` (the option), ``n_flows``, ``index``, ``algorithm``, ``rtt_ms``,
    ``throughput_Mbps``, the run's ``utilization`` and ``jain_index``, and
    its ``status`` (``ok``, ``failed``, ``error``: see :mod:`rudp.sweep.frame`).
    A run with no per-flow metrics (one that gave no result) has its flows
    from the ``flows`` option, unmeasured (NaN), so that it is counted.
    """
    data = frame[frame["program"] == PROGRAM]
    statuses = success(data).map({True: "ok", False: "failed"})
    if "status" in data:
        statuses = data["status"]
    records: list[dict[str, object]] = []
    for (_, run), status in zip(data.iterrows(), statuses, strict=True):
        detail = run.get("flows_metrics")
        if not isinstance(detail, list | np.ndarray):
            detail = _option_flows(run["flows"])
        rate = _rate_bps(run.get("rate"))
        rate = rate if not np.isnan(rate) else _number(run, "rate_bps")
        for flow in detail:
            rtt_ms = float(flow["rtt_s"]) * 1e3
            records.append(
                {
                    "transport": run["transport"],
                    "setting": "high-bdp" if rate >= 50e6 else "lossy",
                    "loss": float(run["loss"]),
                    "run": int(run["run"]),
                    "flows": run["flows"],
                    "n_flows": len(detail),
                    "index": int(flow["index"]),
                    "algorithm": str(flow["algorithm"]),
                    "rtt_ms": rtt_ms if np.isnan(rtt_ms) else round(rtt_ms),
                    "throughput_Mbps": float(flow["throughput_bps"]) / 1e6,
                    "utilization": _number(run, "utilization"),
                    "jain_index": _number(run, "jain_index"),
                    "status": status,
                }
            )
    return pd.DataFrame.from_records(records)


def _alone(flows: pd.DataFrame, setting: str) -> pd.DataFrame:
    part = flows[(flows["n_flows"] == 1) & (flows["setting"] == setting)]
    return part if setting == "lossy" else part[part["loss"] == 0]


def _pairs(flows: pd.DataFrame, setting: str, *, friendliness: bool) -> pd.DataFrame:
    """The two-flow runs of one experiment, one row per run: both throughputs."""
    part = flows[(flows["n_flows"] == 2) & (flows["setting"] == setting)]
    if setting == "lossy":
        part = part[part["loss"] == (FRIENDLINESS_LOSS if friendliness else FAIRNESS_LOSS)]
    keys = ["transport", "flows", "run"]
    first = part[part["index"] == 0].set_index(keys)
    second = part[part["index"] == 1].set_index(keys)
    joined = first.merge(
        second, left_index=True, right_index=True, suffixes=("_0", "_1")
    ).reset_index()
    if joined.empty:
        return joined
    if friendliness:
        rtt = FRIENDLINESS_RTT_MS[setting]
        joined = joined[(joined["rtt_ms_0"] == rtt) & (joined["rtt_ms_1"] == rtt)]
        joined = joined[joined["algorithm_0"] == "newreno"]
    else:
        joined = joined[
            (joined["algorithm_0"] == joined["algorithm_1"]) & (joined["rtt_ms_0"] == 50)
        ]
    joined = joined.assign(
        status=joined["status_0"],
        algorithm=joined["algorithm_1"],
        ratio=joined["throughput_Mbps_0"] / joined["throughput_Mbps_1"],
        total_Mbps=joined["throughput_Mbps_0"] + joined["throughput_Mbps_1"],
    )
    return joined


def _ordered(algorithms: Sequence[str]) -> list[str]:
    present = list(dict.fromkeys(algorithms))
    return [a for a in ALGORITHMS if a in present] + [a for a in present if a not in ALGORITHMS]


def _transports(flows: pd.DataFrame) -> list[str]:
    present = set(flows["transport"])
    return [t for t in TRANSPORTS if t in present]


# --- figures --------------------------------------------------------------------------------


def _runs_note(setting: str, runs: pd.Series, *, dots: bool = True) -> str:
    """What the marks are, given each point's number of runs (``runs``)."""
    fewest, most = int(runs.min()), int(runs.max())
    if setting == "high-bdp" and most == 1:
        return (
            "one run a point: without random loss every RngRun gives the same run (deterministic)"
        )
    if most == 1:
        return "one run a point, no interval"
    # The full preset adds runs to a point until its interval is tight (UNTIL_CI).
    count = str(most) if fewest == most else f"{fewest} to {most} (runs-per-point.csv)"
    note = f"mean and 95 % CI (Student t) of {count} runs a point"
    return note + (", dots: the runs" if dots else "")


def coinciding(data: pd.DataFrame, x: str, tolerance: float) -> list[list[str]]:
    """The algorithms of ``data`` (one flow alone) in groups whose mean utilisation
    (%) differs by at most ``tolerance`` points at every ``x`` they share (and
    they are measured at the same x values): each group is drawn as one line.

    In order (:func:`_ordered`); an algorithm joins the first group whose
    first member it coincides with.
    """
    ok = data[success(data)]
    means = ok.groupby(["algorithm", x])["utilization"].mean().mul(100).unstack(x)
    groups: list[list[str]] = []
    for algorithm in _ordered(data["algorithm"]):
        if algorithm not in means.index:
            groups.append([algorithm])
            continue
        row = means.loc[algorithm]
        for group in groups:
            head = group[0]
            if head not in means.index:
                continue
            other = means.loc[head]
            same_x = (row.notna() == other.notna()).all() and row.notna().any()
            if same_x and float((row - other).abs().max()) <= tolerance:
                group.append(algorithm)
                break
        else:
            groups.append([algorithm])
    return groups


def _transport_panels(
    data: pd.DataFrame,
) -> tuple[Figure, np.ndarray, list[tuple[Axes, str, pd.DataFrame]]]:
    """One panel a transport, side by side on a shared y axis, with its rows."""
    transports = _transports(data)
    fig = new_figure(figsize=(6.4 * len(transports), 4.6))
    axes = fig.subplots(1, len(transports), squeeze=False, sharey=True)
    panels = [
        (ax, transport, data[data["transport"] == transport])
        for ax, transport in zip(axes[0], transports, strict=True)
    ]
    return fig, axes, panels


def _utilization_figure(
    flows: pd.DataFrame, setting: str, algorithms: Sequence[str], number: int, out: Path
) -> Path | None:
    data = _alone(flows, setting)
    data = data[data["algorithm"].isin(algorithms)]
    if data.empty:
        return None
    x = "rtt_ms" if setting == "high-bdp" else "loss"
    fig, axes, panels = _transport_panels(data)
    runs = data.groupby(["transport", "algorithm", x])["run"].nunique()
    for ax, transport, part in panels:
        groups = coinciding(part, x, COINCIDE_POINTS)
        for i, group in enumerate(groups):
            series = part[part["algorithm"] == group[0]]
            factor = 10 ** dodge(i, len(groups), 0.5)
            name = group[0] if len(group) == 1 else ", ".join(group) + " (one line: they coincide)"
            plot_estimates(
                ax,
                series.assign(_pct=series["utilization"] * 100),
                x,
                "_pct",
                name,
                x_scale=factor,
                show_runs=int(runs.max()) > 1,
                linewidth=2.2 if "cvtcp" in group else 1.3,
            )
        merged = [g for g in groups if len(g) > 1]
        if merged:
            ax.text(
                0.02,
                0.03,
                "\n".join(
                    f"{len(g)} algorithms within {COINCIDE_POINTS:g} points of each other "
                    f"at every {'RTT' if x == 'rtt_ms' else 'loss rate'}: one line"
                    for g in merged
                ),
                transform=ax.transAxes,
                fontsize="x-small",
                bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "grey"},
            )
        ax.set_xscale("log")
        if x == "rtt_ms":
            ax.set_xticks(list(RTTS_MS), [str(r) for r in RTTS_MS])
            from matplotlib.ticker import NullFormatter  # noqa: PLC0415 - on first use only

            ax.xaxis.set_minor_formatter(NullFormatter())
            ax.set_xlabel("RTT (ms, log scale)")
        else:
            ax.set_xlabel("random loss rate (log scale)")
        ax.set_ylim(0, 105)
        ax.set_title(f"over {transport.upper()}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize="small")
    axes[0][0].set_ylabel("link utilisation (%)")
    fig.suptitle(
        f"Seed 003 figure {number}: utilisation, one flow alone; {SETTING_TITLES[setting]};\n"
        + _runs_note(setting, runs)
    )
    return finish(fig, out / f"seed003-fig{number}-utilization-{setting}.png")


def _friendliness_figure(
    flows: pd.DataFrame, setting: str, algorithms: Sequence[str], number: int, out: Path
) -> Path | None:
    pairs = _pairs(flows, setting, friendliness=True)
    if pairs.empty:
        return None
    pairs = pairs[pairs["algorithm"].isin(algorithms)]
    fig, axes, panels = _transport_panels(pairs)
    # Headroom above the tallest bar of either panel keeps the legend off the bars.
    top = 1.2 * float(pairs[["throughput_Mbps_0", "throughput_Mbps_1"]].max().max())
    for ax, transport, part in panels:
        shown = _ordered(part["algorithm"])
        reno_flow = summarize(part, ["algorithm"], "throughput_Mbps_0").set_index("algorithm")
        other_flow = summarize(part, ["algorithm"], "throughput_Mbps_1").set_index("algorithm")
        reno_flow, other_flow = reno_flow.reindex(shown), other_flow.reindex(shown)
        positions = np.arange(len(shown))
        width = 0.38
        for offset, summary, text, color in (
            (-width / 2, reno_flow, "the Reno flow", "tab:gray"),
            (width / 2, other_flow, "the algorithm's flow", "tab:blue"),
        ):
            ax.bar(
                positions + offset,
                summary["mean"],
                width,
                yerr=summary["ci95"].fillna(0.0),
                capsize=3,
                label=text,
                color=color,
            )
        if "newreno" in shown:
            at = shown.index("newreno")
            published = PUBLISHED_RENO_PAIR_MBPS[setting]
            ax.plot(
                [at - width, at + width],
                [published, published],
                color="tab:red",
                linewidth=2.5,
                label=f"seed 003's two Reno flows: {published:g} Mbit/s each (mean)",
            )
        counts = part.groupby("algorithm")["status"].agg(failed=lambda s: int((s != "ok").sum()))
        counts["runs"] = part.groupby("algorithm").size()
        for position, algorithm in zip(positions, shown, strict=True):
            failed, runs = counts.loc[algorithm, "failed"], counts.loc[algorithm, "runs"]
            if failed:
                ax.annotate(
                    f"{tables.failures(failed, runs)} failed",
                    (position, 0.03),
                    xycoords=ax.get_xaxis_transform(),
                    ha="center",
                    fontsize="x-small",
                    color="tab:red",
                )
        ax.set_xticks(positions, shown)
        ax.set_title(f"over {transport.upper()}")
        ax.grid(True, axis="y", alpha=0.3)
        ax.set_ylim(0, top)
        ax.legend(fontsize="small", loc="upper center", ncol=2)
    axes[0][0].set_ylabel("throughput (Mbit/s)")
    runs = pairs.groupby(["transport", "algorithm"])["run"].nunique()
    rtt = FRIENDLINESS_RTT_MS[setting]
    where = SETTING_TITLES[setting].split(":")[1]
    loss = f", loss {FRIENDLINESS_LOSS:g}" if setting == "lossy" else ""
    fig.suptitle(
        f"Seed 003 figure {number}: TCP friendliness, Reno against each algorithm, "
        f"RTT {rtt} ms{loss};\n{where.strip()}; "
        + _runs_note(setting, runs, dots=False)
        + ("; k/n failed: k of n runs did not succeed" if not success(pairs).all() else "")
    )
    return finish(fig, out / f"seed003-fig{number}-friendliness-{setting}.png")


# --- tables ---------------------------------------------------------------------------------


def fairness_table(flows: pd.DataFrame, setting: str) -> pd.DataFrame:
    """Throughput of the 50 ms flow over the other's per transport, algorithm and RTT:
    mean, CI and n over the successful runs, ``failed`` of ``runs`` that did not succeed."""
    pairs = _pairs(flows, setting, friendliness=False)
    if pairs.empty:
        return pd.DataFrame(
            columns=["transport", "algorithm", "rtt_ms", "mean", "ci95", "n", "failed", "runs"]
        )
    pairs = pairs.assign(rtt_ms=pairs["rtt_ms_1"])
    return summarize(pairs, ["transport", "algorithm", "rtt_ms"], "ratio")


def _fairness_tables(flows: pd.DataFrame, out: Path) -> list[Path]:
    written: list[Path] = []
    for number, setting in ((1, "high-bdp"), (2, "lossy")):
        long = fairness_table(flows, setting)
        if long.empty:
            continue
        sections: list[tuple[str, pd.DataFrame]] = []
        for transport in [t for t in TRANSPORTS if t in set(long["transport"])]:
            part = long[long["transport"] == transport]
            part = part.assign(
                cell=[
                    tables.estimate_of_successes(m, c, f, r)
                    for m, c, f, r in zip(
                        part["mean"], part["ci95"], part["failed"], part["runs"], strict=True
                    )
                ]
            )
            wide = part.pivot(index="algorithm", columns="rtt_ms", values="cell")
            wide = wide.reindex(_ordered(part["algorithm"]))
            wide.columns = [f"50 ms : {c} ms" for c in wide.columns]
            sections.append((f"over {transport.upper()}", wide.reset_index()))
        loss = f", loss {FAIRNESS_LOSS:g}" if setting == "lossy" else ""
        written += tables.write(
            out,
            stem=f"seed003-table{number}-rtt-fairness-{setting}",
            title=f"Seed 003 table {number}: RTT fairness, {SETTING_TITLES[setting]}{loss}",
            long=long,
            wide=sections,
            note="Throughput of the 50 ms flow over that of the other flow of the same "
            "algorithm (1 is fair; more favours the short RTT). Mean ± 95 % CI half-width "
            "(Student t) over the successful runs, the mean alone where there is one run "
            f"({_runs_note(setting, long['runs'])}); (k/n failed): k of the n runs "
            "failed (reported a failure or gave no result) and are not in the mean.",
        )
    return written


RANKING_COLUMNS = ["transport", "setting", "algorithm", "utilization", "rank", "failed", "runs"]


def rankings(flows: pd.DataFrame) -> pd.DataFrame:
    """Per transport and setting, each algorithm's mean utilisation alone (over its
    successful runs) and its rank, with ``failed`` of ``runs`` that did not succeed."""
    rows: list[pd.DataFrame] = []
    for setting in SETTINGS:
        data = _alone(flows, setting)
        if data.empty:
            continue
        mean = summarize(data, ["transport", "algorithm"], "utilization")
        mean = mean.rename(columns={"mean": "utilization"})
        # Ranked as shown, to 0.1 %: means that print alike share a rank (1, 1, 3).
        shown = (mean["utilization"] * 100).round(1)
        mean["rank"] = shown.groupby(mean["transport"]).rank(ascending=False, method="min")
        mean["rank"] = mean["rank"].astype("Int64")  # none if every run failed
        rows.append(mean.assign(setting=setting))
    if not rows:
        return pd.DataFrame(columns=RANKING_COLUMNS)
    table = pd.concat(rows, ignore_index=True)
    return table[RANKING_COLUMNS].sort_values(["transport", "setting", "rank"])


UTILIZATION_COLUMN = "mean utilisation alone (%)"
FAILED_COLUMN = "runs failed"
RENO_SHARE_COLUMN = "Reno's share against it (%)"


def _rankings_table(flows: pd.DataFrame, pairs: dict[str, pd.DataFrame], out: Path) -> list[Path]:
    ranks = rankings(flows)
    if ranks.empty:
        return []
    sections: list[tuple[str, pd.DataFrame]] = []
    for (transport, setting), part in ranks.groupby(["transport", "setting"], sort=False):
        wide = part.assign(utilization=(part["utilization"] * 100).round(1))
        wide = wide.rename(columns={"utilization": UTILIZATION_COLUMN})
        friendly = pairs.get(setting)
        if friendly is not None and not friendly.empty:
            friendly = friendly[success(friendly)]
            share = friendly[friendly["transport"] == transport].groupby("algorithm")[
                ["throughput_Mbps_0", "throughput_Mbps_1", "total_Mbps"]
            ]
            means = share.mean()
            wide = wide.merge(
                (means["throughput_Mbps_0"] / means["total_Mbps"] * 100)
                .round(1)
                .rename(RENO_SHARE_COLUMN)
                .reset_index(),
                on="algorithm",
                how="left",
            )
        wide[FAILED_COLUMN] = [
            tables.failures(f, r) for f, r in zip(wide["failed"], wide["runs"], strict=True)
        ]
        sections.append(
            (
                f"over {str(transport).upper()}, {SETTING_TITLES[str(setting)]}",
                wide.drop(columns=["transport", "setting", "failed", "runs"]),
            )
        )
    return tables.write(
        out,
        stem="seed003-rankings",
        title="Seed 003: algorithms ranked by utilisation alone (mean over the grid)",
        long=ranks,
        wide=sections,
        note="High-BDP: mean over RTT 50-400 ms; lossy: mean over loss 1e-5..1e-2; "
        "means over the successful runs, equal to 0.1 % share a rank; "
        f"'{FAILED_COLUMN}': k of the algorithm's n runs alone failed (reported a failure "
        "or gave no result) and are not in its mean. "
        "Reno's share is its part of the two flows' throughput in the friendliness "
        "runs (50 % is perfectly friendly).",
        decimals={UTILIZATION_COLUMN: 1, RENO_SHARE_COLUMN: 1},
    )


def write(frame: pd.DataFrame, out: Path) -> list[Path]:
    """Figures 2-9, tables 1 and 2 and the rankings, each per transport."""
    flows = flow_rows(frame)
    if flows.empty:
        return []
    written: list[Path | None] = [
        _utilization_figure(flows, "high-bdp", ALGORITHMS, 2, out),
        _utilization_figure(flows, "lossy", ALGORITHMS, 3, out),
        _friendliness_figure(flows, "high-bdp", ALGORITHMS, 4, out),
        _friendliness_figure(flows, "lossy", ALGORITHMS, 5, out),
        _utilization_figure(flows, "high-bdp", CVTCP_PEERS, 6, out),
        _utilization_figure(flows, "lossy", CVTCP_PEERS, 7, out),
        _friendliness_figure(flows, "high-bdp", CVTCP_PEERS, 8, out),
        _friendliness_figure(flows, "lossy", CVTCP_PEERS, 9, out),
    ]
    friendliness = {s: _pairs(flows, s, friendliness=True) for s in SETTINGS}
    files = [
        *[p for p in written if p is not None],
        *_fairness_tables(flows, out),
        *_rankings_table(flows, friendliness, out),
    ]
    return with_index(out, files, "Seed 003: congestion controls over TCP and RUDP")
