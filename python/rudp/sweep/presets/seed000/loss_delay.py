"""The design card's sweep (``seed000-loss-delay``): heat maps of throughput
over loss x channel delay, one per variant, on CSMA and point-to-point links.

``rudp-file-transfer --router=none``: a ``RateErrorModel`` on the server's
device drops client-to-server datagrams (``--loss``), and ``--delay`` is the
router-server link's delay, which ACKs see too. On ``--link=csma`` that is
ns-3's CSMA channel, busy while a frame propagates; on ``--link=p2p`` a
full-duplex point-to-point link, where it is pure propagation.

Imported when the report is drawn, never with :mod:`rudp.sweep`.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from rudp.runner import ns3_seconds
from rudp.sweep import tables
from rudp.sweep.figures import new_figure
from rudp.sweep.index import with_index
from rudp.sweep.stats import summarize

from .grid import CARD_LINKS, CARD_MAX_TIME, CARD_VARIANTS, PROGRAM

METRIC = "throughput_kBps"
LINK_TITLES = {
    "csma": "CSMA (half duplex: the channel is busy while a frame propagates)",
    "p2p": "point-to-point (full duplex: the delay is pure propagation)",
}


def summaries(frame: pd.DataFrame) -> pd.DataFrame:
    """Per link, variant, loss (%) and delay (ms): throughput's mean, ci95, n, failed, runs."""
    data = frame[(frame["program"] == PROGRAM) & frame["link"].notna()]
    data = data.assign(
        loss_pct=(data["loss"].astype(float) * 100).round(9),
        delay_ms=(data["delay"].map(ns3_seconds) * 1e3).round(9),
    )
    columns = ["link", "variant", "loss_pct", "delay_ms", "mean", "ci95", "n", "failed", "runs"]
    if data.empty:
        return pd.DataFrame(columns=columns)
    return summarize(data, ["link", "variant", "loss_pct", "delay_ms"], METRIC)[columns]


def _cell_text(row: pd.Series) -> str:
    text = "-" if row["n"] == 0 else f"{row['mean']:.3g}"
    if row["failed"]:
        text += f"\n{int(row['failed'])}/{int(row['runs'])} failed"
    return text


def _heat_maps(long: pd.DataFrame, out: Path, size: str) -> Path:
    from matplotlib.colors import LogNorm  # noqa: PLC0415 - matplotlib on first use only

    links = [link for link in CARD_LINKS if link in set(long["link"])]
    variants = [v for v in CARD_VARIANTS if v in set(long["variant"])]
    losses = sorted(long["loss_pct"].unique())
    delays = sorted(long["delay_ms"].unique())
    means = long["mean"][long["n"] > 0]
    low = float(means.min()) if len(means) else 1.0
    high = float(means.max()) if len(means) else 10.0
    norm = LogNorm(vmin=low, vmax=max(high, low * 1.01))
    fig = new_figure(figsize=(5.2 * len(variants) + 1.2, 4.6 * len(links) + 1.0))
    axes = fig.subplots(len(links), len(variants), squeeze=False)
    image = None
    for row, link in enumerate(links):
        for column, variant in enumerate(variants):
            ax = axes[row][column]
            part = long[(long["link"] == link) & (long["variant"] == variant)]
            grid = np.full((len(losses), len(delays)), np.nan)
            for _, cell in part.iterrows():
                i, j = losses.index(cell["loss_pct"]), delays.index(cell["delay_ms"])
                if cell["n"] > 0:
                    grid[i, j] = cell["mean"]
                # Dark text on bright cells and on empty ones (none completed).
                bright = cell["n"] == 0 or cell["mean"] > math.sqrt(low * high)
                colour = "black" if bright else "white"
                ax.text(j, i, _cell_text(cell), ha="center", va="center", fontsize=7, color=colour)
            image = ax.imshow(grid, origin="lower", aspect="auto", norm=norm, cmap="viridis")
            ax.set_xticks(range(len(delays)), [f"{d:g}" for d in delays])
            ax.set_yticks(range(len(losses)), [f"{p:g}" for p in losses])
            ax.set_xlabel("router-server link delay (ms)")
            ax.set_ylabel("client-to-server loss (%)")
            ax.set_title(f"{variant}: {link}", fontsize="medium")
        axes[row][0].annotate(
            LINK_TITLES.get(link, link),
            xy=(0, 1.12),
            xycoords="axes fraction",
            fontsize="medium",
            fontweight="bold",
        )
    # tight_layout does not place a colour bar beside a grid of axes: by hand.
    fig.subplots_adjust(top=0.86, bottom=0.07, left=0.06, hspace=0.45, wspace=0.3, right=0.88)
    if image is not None:
        bar = fig.add_axes((0.91, 0.1, 0.015, 0.72))
        fig.colorbar(image, cax=bar, label="throughput (KB/s), log colour scale")
    fig.suptitle(
        "The design card's sweep: rudp-file-transfer --router=none, loss (error model on the "
        f"server's device) x delay, {size}, fixed RTO 2 s, N = 30\n"
        f"mean throughput of the completed transfers of {int(long['runs'].max())} runs a cell "
        f"(k/n failed: k of n did not complete within --max-time = {CARD_MAX_TIME}; "
        "white: none did)"
    )
    path = out / "seed000-loss-delay.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path


def _wide(long: pd.DataFrame, link: str) -> pd.DataFrame:
    part = long[long["link"] == link]
    rows: list[dict[str, str]] = []
    for variant in CARD_VARIANTS:
        for loss, cells in part[part["variant"] == variant].groupby("loss_pct"):
            row = {"variant": variant, "loss": f"{loss:g} %"}
            for _, cell in cells.sort_values("delay_ms").iterrows():
                row[f"{cell['delay_ms']:g} ms"] = tables.estimate_of_successes(
                    cell["mean"], cell["ci95"], cell["failed"], cell["runs"], digits=3
                )
            rows.append(row)
    return pd.DataFrame(rows).fillna("")


def write(frame: pd.DataFrame, out: Path) -> list[Path]:
    """The heat maps (PNG) and the table (CSV and Markdown) under ``out``."""
    long = summaries(frame)
    if long.empty:
        return []
    sizes = frame["size"].dropna() if "size" in frame else pd.Series(dtype=float)
    size = f"{int(sizes.iloc[0])} generated bytes" if len(sizes) else "1.jpg"
    written = tables.write(
        out,
        stem="seed000-loss-delay",
        title=f"The design card's sweep: throughput (KB/s) over loss x delay, {size}",
        long=long,
        wide=[
            (f"link: {LINK_TITLES[link]}", _wide(long, link))
            for link in CARD_LINKS
            if link in set(long["link"])
        ],
        note=(
            "Mean ± 95 % CI half-width (Student t) of the completed transfers; a cell with "
            f"(k/n failed) had k of its n runs not complete within --max-time = {CARD_MAX_TIME}."
        ),
    )
    written.append(_heat_maps(long, out, size))
    return with_index(out, written, "Seed 000: the design card's loss x channel-delay sweep")
