"""Validation against known models: Reno on one lossy path against Padhye et al. and Mathis et al.

Two parts: :mod:`.grid` (RUDP's seed Reno with and without SACK, b = 1 and 2,
and ns-3's TcpNewReno and TcpLinuxReno over loss x RTT) and :mod:`.report`
(the table and figure against :mod:`rudp.models.tcp_throughput`; imported only
to draw them).
"""

from .grid import (
    CONFIGS,
    DURATION,
    LOSSES,
    PROGRAM,
    QUICK_CONFIGS,
    QUICK_DURATION,
    QUICK_LOSSES,
    QUICK_RTTS_MS,
    QUICK_RUNS,
    QUICK_WARMUP,
    RATE,
    RTTS_MS,
    RUNS,
    WARMUP,
    Config,
    grids,
)

__all__ = [
    "CONFIGS",
    "DURATION",
    "LOSSES",
    "PROGRAM",
    "QUICK_CONFIGS",
    "QUICK_DURATION",
    "QUICK_LOSSES",
    "QUICK_RTTS_MS",
    "QUICK_RUNS",
    "QUICK_WARMUP",
    "RATE",
    "RTTS_MS",
    "RUNS",
    "WARMUP",
    "Config",
    "grids",
]
