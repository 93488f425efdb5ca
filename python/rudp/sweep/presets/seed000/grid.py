"""Seed 000's experiment design: the program, the series and the grids.

The seed sent 1.jpg with a fixed RTO of 2 s and averaged 5 runs per point,
over two grids: loss 0-10 % at delay 0, and delay 0-100 ms at loss 0, in
three experiments (:data:`EXPERIMENTS`). Every point runs behind both router
models (:data:`ROUTERS`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ....runner import Value
from ...grid import Grid

PROGRAM = "rudp-file-transfer"
FILE = "1.jpg"
FILE_BYTES = 1857353
ROUTERS = ("delay", "sleeping")
LOSSES = (0.0, 0.02, 0.04, 0.06, 0.08, 0.10)
DELAYS_MS = (0, 20, 40, 60, 80, 100)
QUICK_LOSSES = (0.0, 0.02, 0.06, 0.10)
QUICK_DELAYS_MS = (0, 20, 60, 100)
RUNS, QUICK_RUNS = 5, 3


@dataclass(frozen=True)
class Series:
    """One line of a figure, two rows of a table: a variant with its window."""

    label: str
    variant: str
    window: int


SAW = Series("stop-and-wait", "stop-and-wait", 30)
GBN = {n: Series(f"Go-Back-N, N = {n}", "go-back-n", n) for n in (5, 10, 20, 30)}
RENO = Series("Reno, N = 30", "reno", 30)

#: The experiments: their series, in the seed's order.
EXPERIMENTS: dict[int, tuple[Series, ...]] = {
    1: (SAW, GBN[30]),
    2: (GBN[5], GBN[10], GBN[20], GBN[30]),
    3: (RENO, GBN[30]),
}


def grids(quick: bool = False) -> list[Grid]:
    """The three experiments over both grids and both router models."""
    losses = QUICK_LOSSES if quick else LOSSES
    delays = [f"{d}ms" for d in (QUICK_DELAYS_MS if quick else DELAYS_MS)]
    fixed = {"file": FILE, "rto-mode": "fixed", "rto": "2s"}
    out: list[Grid] = []
    for number, series in EXPERIMENTS.items():
        variants: list[Value] = list(dict.fromkeys(s.variant for s in series))
        windows: list[Value] = list(dict.fromkeys(s.window for s in series))
        common: dict[str, list[Value]] = {
            "router": list(ROUTERS),
            "variant": variants,
            "window": windows,
        }
        out.append(
            Grid(
                PROGRAM,
                {**fixed, "delay": "0ms"},
                {**common, "loss": list(losses)},
                QUICK_RUNS if quick else RUNS,
                f"experiment{number}-loss",
            )
        )
        out.append(
            Grid(
                PROGRAM,
                {**fixed, "loss": 0.0},
                {**common, "delay": delays},
                QUICK_RUNS if quick else RUNS,
                f"experiment{number}-delay",
            )
        )
    return out
