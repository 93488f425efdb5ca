"""Seed 002's experiment design: CMT over n = 2, 3, 4 paths against RTT and loss.

``rudp-cmt`` moves bulk data over n disjoint 10 Mbit/s paths (1468-byte
chunks) into a receive buffer of 2^28 bytes (unbounded) or 16 KB (bounded).
Three grids: every path's RTT at loss 0.01, every path's loss at RTT 100 ms,
and two paths whose RTTs drift apart.
"""

from __future__ import annotations

from ....runner import Value
from ...grid import Grid

PROGRAM = "rudp-cmt"
MSS = 1468
UNBOUNDED, BOUNDED = 1 << 28, 16384
PATHS = (2, 3, 4)
RTTS_MS = (120, 140, 160, 180, 200)
LOSSES = (0.01, 0.02, 0.03, 0.04, 0.05)
MISMATCH_MS = (100, 150, 200, 300, 400)
RUNS, QUICK_RUNS = 5, 2
DURATION, QUICK_DURATION = "200s", "60s"
WARMUP, QUICK_WARMUP = "20s", "10s"


def grids(quick: bool = False) -> list[Grid]:
    """Figures 6-9 and the RTT-mismatch figure."""
    rtts = RTTS_MS[::2] if quick else RTTS_MS
    losses = LOSSES[::2] if quick else LOSSES
    fixed: dict[str, Value] = {
        "mss": MSS,
        "duration": QUICK_DURATION if quick else DURATION,
        "warmup": QUICK_WARMUP if quick else WARMUP,
    }
    runs = QUICK_RUNS if quick else RUNS
    buffers = [UNBOUNDED, BOUNDED]
    return [
        Grid(
            PROGRAM,
            {**fixed, "loss": 0.01},
            {"paths": list(PATHS), "rtt": [f"{r}ms" for r in rtts], "rbuf": buffers},
            runs,
            "cmt-rtt",
        ),
        Grid(
            PROGRAM,
            {**fixed, "rtt": "100ms"},
            {"paths": list(PATHS), "loss": list(losses), "rbuf": buffers},
            runs,
            "cmt-loss",
        ),
        Grid(
            PROGRAM,
            {**fixed, "paths": 2, "loss": 0.01},
            {"rtt": [f"100ms,{r}ms" for r in MISMATCH_MS], "rbuf": buffers},
            runs,
            "cmt-mismatch",
        ),
    ]
