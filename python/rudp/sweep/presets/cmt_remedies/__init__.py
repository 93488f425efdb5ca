"""The CMT remedies for receive-buffer blocking, measured on seed 002's settings.

Two parts: :mod:`.grid` (each remedy over the 16 KB case, n = 2..4, and the
RTT-mismatch case) and :mod:`.report` (the goodput and blocked-time figures
and the table for doc/cmt.rst; imported only to draw them).
"""

from .grid import (
    BUFFER,
    DURATION,
    MISMATCH_MS,
    PATHS,
    PROGRAM,
    QUICK_DURATION,
    QUICK_RUNS,
    QUICK_WARMUP,
    REMEDIES,
    RTTS_MS,
    RUNS,
    WARMUP,
    grids,
)

__all__ = [
    "BUFFER",
    "DURATION",
    "MISMATCH_MS",
    "PATHS",
    "PROGRAM",
    "QUICK_DURATION",
    "QUICK_RUNS",
    "QUICK_WARMUP",
    "REMEDIES",
    "RTTS_MS",
    "RUNS",
    "WARMUP",
    "grids",
]
