"""Seed 003's experiments: congestion controls on a dumbbell, over TCP and over RUDP.

Two parts: :mod:`.grid` (the experiment design: utilisation, RTT fairness and
TCP friendliness in both settings) and :mod:`.report` (figures 2-9, tables
1-2 and a ranking that checks the seed's conclusions; imported only to draw
them). The seed's conclusions are text, weighed against ours in
``doc/cc-comparison.rst``, not numbers to set beside ours.
"""

from .grid import (
    ALGORITHMS,
    CVTCP_PEERS,
    DETERMINISTIC_RUNS,
    DURATION,
    FAIRNESS_LOSS,
    FRIENDLINESS_LOSS,
    FRIENDLINESS_RTT_MS,
    LOSSES,
    PROGRAM,
    QUICK_DURATION,
    QUICK_LOSSES,
    QUICK_RTTS_MS,
    QUICK_RUNS,
    QUICK_WARMUP,
    RTTS_MS,
    RUNS,
    SETTINGS,
    TRANSPORTS,
    UNTIL_CI,
    WARMUP,
    grids,
)

__all__ = [
    "ALGORITHMS",
    "CVTCP_PEERS",
    "DETERMINISTIC_RUNS",
    "DURATION",
    "FAIRNESS_LOSS",
    "FRIENDLINESS_LOSS",
    "FRIENDLINESS_RTT_MS",
    "LOSSES",
    "PROGRAM",
    "QUICK_DURATION",
    "QUICK_LOSSES",
    "QUICK_RTTS_MS",
    "QUICK_RUNS",
    "QUICK_WARMUP",
    "RTTS_MS",
    "RUNS",
    "SETTINGS",
    "TRANSPORTS",
    "UNTIL_CI",
    "WARMUP",
    "grids",
]
