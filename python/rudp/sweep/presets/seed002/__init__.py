"""Seed 002's experiments: CMT throughput against RTT and loss, simulation and model.

Two parts: :mod:`.grid` (the experiment design) and :mod:`.report` (figures
6-9 against the analytic model :mod:`rudp.models.cmt`, which stands for the
paper's published curves, an RTT-mismatch figure and the model-error table;
imported only to draw them).
"""

from .grid import (
    BOUNDED,
    DURATION,
    LOSSES,
    MISMATCH_MS,
    MODEL_ASSUMPTIONS,
    MSS,
    PATHS,
    PROGRAM,
    QUICK_DURATION,
    QUICK_RUNS,
    QUICK_WARMUP,
    RTTS_MS,
    RUNS,
    UNBOUNDED,
    WARMUP,
    grids,
)

__all__ = [
    "BOUNDED",
    "DURATION",
    "LOSSES",
    "MISMATCH_MS",
    "MODEL_ASSUMPTIONS",
    "MSS",
    "PATHS",
    "PROGRAM",
    "QUICK_DURATION",
    "QUICK_RUNS",
    "QUICK_WARMUP",
    "RTTS_MS",
    "RUNS",
    "UNBOUNDED",
    "WARMUP",
    "grids",
]
