"""The headline scenario: seed 000's variants against loss, with a figure.

``python -m rudp.demo --out results`` runs rudp-file-transfer for
stop-and-wait, Go-Back-N (N = 30) and Reno over loss 0-10 % (the seed's
grid), writes the metrics to ``results/demo.csv`` and the throughput figure
to ``results/demo-throughput-vs-loss.png``.
"""

from __future__ import annotations

import argparse
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from .runner import Value, run_scenario

VARIANTS = ("stop-and-wait", "go-back-n", "reno")
LOSSES = (0.0, 0.02, 0.04, 0.06, 0.08, 0.10)


def run(out: Path, runs: int = 3, jobs: int | None = None) -> pd.DataFrame:
    """Run the grid and write its table and figure under ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    points: list[dict[str, Value]] = [
        {"variant": v, "window": 30, "loss": loss, "RngRun": run}
        for v in VARIANTS
        for loss in LOSSES
        for run in range(1, runs + 1)
    ]
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        rows = list(pool.map(lambda p: run_scenario("rudp-file-transfer", p), points))
    table = pd.DataFrame(rows)
    table.to_csv(out / "demo.csv", index=False)

    summary = table.groupby(["variant", "loss"])["throughput_kBps"].agg(["mean", "std"])
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for variant in VARIANTS:
        part = summary.loc[variant]
        ax.errorbar(
            part.index * 100, part["mean"], yerr=part["std"], marker="o", capsize=3, label=variant
        )
    ax.set_yscale("log")
    ax.set_xlabel("loss rate (%)")
    ax.set_ylabel("throughput (KB/s, log scale)")
    ax.set_title(f"Seed 000: 1.jpg over a lossy path, mean and s.d. of {runs} runs")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "demo-throughput-vs-loss.png", dpi=120)
    plt.close(fig)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("results"))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    table = run(args.out, args.runs)
    print(table.groupby(["variant", "loss"])["throughput_kBps"].mean().unstack(0).round(1))
    print(f"wrote {args.out / 'demo.csv'} and {args.out / 'demo-throughput-vs-loss.png'}")


if __name__ == "__main__":
    main()
