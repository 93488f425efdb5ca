"""Seed 000's experiments: stop-and-wait, Go-Back-N and Reno sending 1.jpg.

1. stop-and-wait vs Go-Back-N (N = 30): tables 1-2, figures 3-4;
2. Go-Back-N with N = 5, 10, 20, 30: tables 3-4, figures 5-6 (figure 6
   adds stop-and-wait, as the seed did);
3. Reno (N = 30) vs Go-Back-N (N = 30): tables 5-6, figures 7-8.

Every point runs behind both router models: ``delay`` delays each datagram
by D independently; ``sleeping`` is the seed's router, which slept D per
datagram and so passed at most one segment per D.

Three parts: :mod:`.grid` (the experiment design), :mod:`.published` (the
seed's own numbers) and :mod:`.report` (tables and figures: pandas,
matplotlib, scipy; imported only to draw them).
"""

from .grid import (
    DELAYS_MS,
    EXPERIMENTS,
    FILE,
    FILE_BYTES,
    LOSSES,
    PROGRAM,
    QUICK_DELAYS_MS,
    QUICK_LOSSES,
    QUICK_RUNS,
    ROUTERS,
    RUNS,
    Series,
    grids,
)

__all__ = [
    "DELAYS_MS",
    "EXPERIMENTS",
    "FILE",
    "FILE_BYTES",
    "LOSSES",
    "PROGRAM",
    "QUICK_DELAYS_MS",
    "QUICK_LOSSES",
    "QUICK_RUNS",
    "ROUTERS",
    "RUNS",
    "Series",
    "grids",
]
