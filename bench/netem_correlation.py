"""netem's correlated random loss on NetemQueueDisc, before and after issue 29.

Runs the compiled ``rudp-netem-correlation`` example (the real queue disc, on
its own) for a few loss probabilities over a range of correlations, and draws
``doc/figures/netem-correlated-loss.png``: the effective loss rate and the
mean length of loss runs against the correlation. "Before" is what
NetemQueueDisc did with a testbed's ``loss P% C%`` until it had
LossCorrelation: the correlation was dropped and every draw independent (the
example's runs at correlation 0). "After" is netem's ``get_crandom``: each
draw blended with the previous one, which keeps the draws near 1/2 and so
loses far fewer packets than P. The line is the stationary law of the
blended value, P(C <= P), computed on a grid (the fixed point of
F(x) = E[F((x - (1 - rho) U) / rho)]), with no simulation. Run by hand::

    .venv/bin/python bench/netem_correlation.py [--packets N] [--out PNG]

It writes the measured values beside the figure as CSV.
"""

from __future__ import annotations

import argparse
import csv
import io
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from rudp import paths

LOSSES = (0.01, 0.05, 0.2)
CORRELATIONS = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9)


@dataclass
class Point:
    """One line of the example's output."""

    loss: float
    correlation: float
    packets: int
    lost: int
    rate: float
    mean_run: float


def measure(packets: int, stream: int = 1) -> list[Point]:
    """Run the example once over every loss and correlation."""
    build = paths.standalone_build()
    command = [
        str(build.program("rudp-netem-correlation")),
        "--loss=" + ",".join(str(p) for p in LOSSES),
        "--correlation=" + ",".join(str(c) for c in CORRELATIONS),
        f"--packets={packets}",
        f"--stream={stream}",
    ]
    done = subprocess.run(
        command, check=True, capture_output=True, text=True, env=build.environment()
    )
    return [
        Point(
            loss=float(row["loss"]),
            correlation=float(row["correlation"]),
            packets=int(row["packets"]),
            lost=int(row["lost"]),
            rate=float(row["rate"]),
            mean_run=float(row["mean_run"]),
        )
        for row in csv.DictReader(io.StringIO(done.stdout))
    ]


def correlated_cdf(rho: float, x: float, grid: int = 20001) -> float:
    """P(C <= x) for the stationary value C = (1 - rho) U + rho C' of netem's
    correlated generator (U uniform, C' an independent copy of C): the fixed
    point of F(x) = rho / (1 - rho) (G(x / rho) - G((x - 1 + rho) / rho)), G
    the integral of F, with F piecewise linear on a grid (G then exact)."""
    if rho <= 0:
        return x
    xs = np.linspace(0.0, 1.0, grid)
    h = xs[1] - xs[0]
    f = xs.copy()

    def integral(y: np.ndarray, g: np.ndarray) -> np.ndarray:
        inside = np.clip(y, 0.0, 1.0)
        k = np.minimum((inside / h).astype(int), grid - 2)
        t = inside / h - k
        value = g[k] + h * (f[k] * t + (f[k + 1] - f[k]) * t * t / 2)
        return np.where(y >= 1.0, g[-1] + (y - 1.0), np.where(y <= 0.0, 0.0, value))

    for _ in range(int(np.ceil(np.log(1e-12) / np.log(rho)))):
        g = np.concatenate(([0.0], np.cumsum(h * (f[:-1] + f[1:]) / 2)))
        f = rho / (1 - rho) * (integral(xs / rho, g) - integral((xs - 1 + rho) / rho, g))
    return float(np.interp(x, xs, f))


def draw(points: list[Point], out: Path) -> None:
    """The two panels: loss rate over the nominal one, and mean loss run,
    against the correlation."""
    figure = Figure(figsize=(10, 4.2))
    rate_axes, run_axes = figure.subplots(1, 2)
    colours = ("tab:blue", "tab:orange", "tab:green")
    for loss, colour in zip(LOSSES, colours, strict=True):
        mine = sorted((p for p in points if p.loss == loss), key=lambda p: p.correlation)
        rhos = [p.correlation for p in mine]
        before = next(p for p in mine if p.correlation == 0.0)
        rate_axes.plot(
            rhos,
            [before.rate / loss] * len(rhos),
            linestyle="--",
            color=colour,
            label=f"before, loss {loss:g}: correlation ignored",
        )
        rate_axes.plot(
            rhos,
            [p.rate / loss for p in mine],
            marker="o",
            linestyle="none",
            color=colour,
            label=f"after, loss {loss:g}: netem's get_crandom",
        )
        fine = np.linspace(0.0, max(rhos), 19)
        rate_axes.plot(
            fine,
            [correlated_cdf(float(r), loss, grid=4001) / loss for r in fine],
            color=colour,
            linewidth=0.8,
        )
        run_axes.plot(
            rhos,
            [before.mean_run] * len(rhos),
            linestyle="--",
            color=colour,
            label=f"before, loss {loss:g}",
        )
        with_losses = [p for p in mine if p.lost > 0]
        run_axes.plot(
            [p.correlation for p in with_losses],
            [p.mean_run for p in with_losses],
            marker="o",
            color=colour,
            label=f"after, loss {loss:g}",
        )
    rate_axes.set_xlabel("correlation (tc: loss P% CORRELATION)")
    rate_axes.set_ylabel("effective loss rate / P")
    rate_axes.set_title("Loss rate; line: P(C <= P) / P")
    rate_axes.set_ylim(-0.02, 1.1)
    rate_axes.legend(fontsize=7)
    rate_axes.grid(True, alpha=0.3)
    run_axes.set_xlabel("correlation")
    run_axes.set_ylabel("mean run of consecutive losses (packets)")
    run_axes.set_title("Loss bursts (points with losses only)")
    run_axes.legend(fontsize=7)
    run_axes.grid(True, alpha=0.3)
    packets = points[0].packets if points else 0
    figure.suptitle(f"NetemQueueDisc, random loss with correlation ({packets} packets per point)")
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=110)


def main() -> None:
    """Measure, write the CSV and draw the figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=200000, help="packets per point")
    parser.add_argument(
        "--out",
        type=Path,
        default=paths.REPO_ROOT / "doc" / "figures" / "netem-correlated-loss.png",
        help="the figure (the CSV goes beside it)",
    )
    arguments = parser.parse_args()
    points = measure(arguments.packets)
    with arguments.out.with_suffix(".csv").open("w", newline="") as table:
        writer = csv.writer(table)
        writer.writerow(["loss", "correlation", "packets", "lost", "rate", "mean_run"])
        for p in points:
            writer.writerow([p.loss, p.correlation, p.packets, p.lost, p.rate, p.mean_run])
    draw(points, arguments.out)
    for p in points:
        print(
            f"loss {p.loss:<5g} correlation {p.correlation:<5g} rate {p.rate:.6f} "
            f"mean run {p.mean_run:.3f}"
        )
    print(f"wrote {arguments.out}")


if __name__ == "__main__":
    main()
