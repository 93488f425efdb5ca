"""Seed 001's comparison: TCP, UDP and the RUDP variants against packet count.

Two parts: :mod:`.grid` (the experiment design) and :mod:`.report` (each
metric against the packet count, the delay and jitter CDFs, a summary table;
imported only to draw them). The seed published figures, no numbers to set
beside ours.
"""

from .grid import PACKETS, PAYLOAD, PROGRAM, QUICK_PACKETS, QUICK_RUNS, RUNS, TRANSPORTS, grids

__all__ = [
    "PACKETS",
    "PAYLOAD",
    "PROGRAM",
    "QUICK_PACKETS",
    "QUICK_RUNS",
    "RUNS",
    "TRANSPORTS",
    "grids",
]
