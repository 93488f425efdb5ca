"""Seed 002's experiment design: CMT over n = 2, 3, 4 paths against RTT and loss.

``rudp-cmt`` moves bulk data over n disjoint 10 Mbit/s paths (1468-byte
chunks) into a receive buffer of 2^28 bytes (unbounded) or 16 KB (bounded).
Three grids: every path's RTT at loss 0.01, every path's loss at RTT 100 ms,
and two paths whose RTTs drift apart. The first two run twice: as SCTP-CMT
would (realistic), and with ``--model-assumptions=1`` (each loss known one RTT
after its send, retransmissions never lost: the analytic model's own
assumptions).
"""

from __future__ import annotations

from rudp.runner import Value
from rudp.sweep.grid import Grid

PROGRAM = "rudp-cmt"
MSS = 1468
UNBOUNDED, BOUNDED = 1 << 28, 16384
PATHS = (2, 3, 4)
RTTS_MS = (120, 140, 160, 180, 200)
LOSSES = (0.01, 0.02, 0.03, 0.04, 0.05)
MISMATCH_MS = (100, 150, 200, 300, 400)
#: the option of the model-assumptions mode (absent: the realistic mode)
MODEL_ASSUMPTIONS = "model-assumptions"
RUNS, QUICK_RUNS = 5, 3
DURATION, QUICK_DURATION = "200s", "60s"
WARMUP, QUICK_WARMUP = "20s", "10s"


def grids(quick: bool = False) -> list[Grid]:
    """Figures 6-9 in both modes and the RTT-mismatch figure."""
    rtts = RTTS_MS[::2] if quick else RTTS_MS
    losses = LOSSES[::2] if quick else LOSSES
    fixed: dict[str, Value] = {
        "mss": MSS,
        "duration": QUICK_DURATION if quick else DURATION,
        "warmup": QUICK_WARMUP if quick else WARMUP,
    }
    runs = QUICK_RUNS if quick else RUNS
    buffers = [UNBOUNDED, BOUNDED]
    # The realistic grids leave the option out, so that their points (and
    # cached runs) are those of before the mode existed.
    modes: list[tuple[str, dict[str, Value]]] = [("", {}), ("-model", {MODEL_ASSUMPTIONS: True})]
    figures = []
    for suffix, mode in modes:
        figures += [
            Grid(
                PROGRAM,
                {**fixed, **mode, "loss": 0.01},
                {"paths": list(PATHS), "rtt": [f"{r}ms" for r in rtts], "rbuf": buffers},
                runs,
                f"cmt-rtt{suffix}",
            ),
            Grid(
                PROGRAM,
                {**fixed, **mode, "rtt": "100ms"},
                {"paths": list(PATHS), "loss": list(losses), "rbuf": buffers},
                runs,
                f"cmt-loss{suffix}",
            ),
        ]
    return [
        *figures,
        Grid(
            PROGRAM,
            {**fixed, "paths": 2, "loss": 0.01},
            {"rtt": [f"100ms,{r}ms" for r in MISMATCH_MS], "rbuf": buffers},
            runs,
            "cmt-mismatch",
        ),
    ]
