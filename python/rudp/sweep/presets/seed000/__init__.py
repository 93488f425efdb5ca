"""Seed 000's experiments: stop-and-wait, Go-Back-N and Reno sending 1.jpg.

1. stop-and-wait vs Go-Back-N (N = 30): tables 1-2, figures 3-4;
2. Go-Back-N with N = 5, 10, 20, 30: tables 3-4, figures 5-6 (figure 6
   adds stop-and-wait, as the seed did);
3. Reno (N = 30) vs Go-Back-N (N = 30): tables 5-6, figures 7-8.

Every point runs over four path models: ``none``, the design card's error
model and CSMA channel delay; ``delay``, a router that delays each datagram
by D independently; ``sleeping``, the seed's router, which slept D per
datagram and so passed at most one segment per D; and ``loopback``, the
sleeping router on loopback-like links with the datagram size the seed's
numbers imply. The ``seed000-loss-delay`` preset is the design card's own
sweep: loss x CSMA channel delay, against the same grid on point-to-point
links.

Parts: :mod:`.grid` (the experiment design), :mod:`.published` (the seed's
own numbers), :mod:`.implied` (what those numbers imply about its datagram
size and timer), :mod:`.report` and :mod:`.loss_delay` (tables and figures:
pandas, matplotlib, scipy; imported only to draw them).
"""

from .grid import (
    CARD_LINKS,
    CARD_RUNS,
    CARD_VARIANTS,
    DELAYS_MS,
    EXPECTED_FAILURES,
    EXPERIMENTS,
    FILE,
    FILE_BYTES,
    LOOPBACK,
    LOSSES,
    PATHS,
    PROGRAM,
    QUICK_DELAYS_MS,
    QUICK_LOSSES,
    QUICK_RUNS,
    ROUTERS,
    RUNS,
    Series,
    grids,
    loss_delay_grids,
)

__all__ = [
    "CARD_LINKS",
    "CARD_RUNS",
    "CARD_VARIANTS",
    "DELAYS_MS",
    "EXPECTED_FAILURES",
    "EXPERIMENTS",
    "FILE",
    "FILE_BYTES",
    "LOOPBACK",
    "LOSSES",
    "PATHS",
    "PROGRAM",
    "QUICK_DELAYS_MS",
    "QUICK_LOSSES",
    "QUICK_RUNS",
    "ROUTERS",
    "RUNS",
    "Series",
    "grids",
    "loss_delay_grids",
]
