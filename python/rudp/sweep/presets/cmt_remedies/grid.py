"""The remedies' experiment design: seed 002's 16 KB case and an RTT mismatch.

``rudp-cmt`` over n disjoint 10 Mbit/s paths (1468-byte chunks, loss 0.01)
into a 16 KB receive buffer, once per remedy: today's round robin, buffer
splitting on the receiver's side, chunk rescheduling, the lowest-RTT-first
and buffer-aware schedulers, and buffer-aware with rescheduling. Two grids
per remedy: n = 2, 3, 4 equal paths at RTT 100, 150 and 200 ms, and two
paths, 100 ms against 100..400 ms.

Sender-side splitting is not among them: it splits the sender's buffer
(SndBufSize, 2^26 B here), which never limits these runs, so it would repeat
round robin's numbers (the rudp-cmt-remedies suite tests it with a small
send buffer).
"""

from __future__ import annotations

from rudp.runner import Value
from rudp.sweep.grid import Grid

PROGRAM = "rudp-cmt"
MSS = 1468
BUFFER = 16384
PATHS = (2, 3, 4)
RTTS_MS = (100, 150, 200)
MISMATCH_MS = (100, 200, 300, 400)
RUNS, QUICK_RUNS = 5, 3
DURATION, QUICK_DURATION = "100s", "40s"
WARMUP, QUICK_WARMUP = "10s", "5s"

#: remedy name -> the rudp-cmt options that select it
REMEDIES: dict[str, dict[str, Value]] = {
    "round robin": {},
    "receiver-side splitting": {"buffer-splitting": "receiver"},
    "chunk rescheduling": {"rescheduling": 1},
    "lowest RTT first": {"scheduler": "lowest-rtt-first"},
    "buffer-aware": {"scheduler": "buffer-aware"},
    "buffer-aware + rescheduling": {"scheduler": "buffer-aware", "rescheduling": 1},
}


def grid_name(remedy: str) -> str:
    """A grid name for ``remedy`` (no spaces or signs)."""
    return "".join(c if c.isalnum() else "-" for c in remedy).replace("---", "-")


def grids(quick: bool = False) -> list[Grid]:
    """Each remedy over the 16 KB grid (n x RTT) and the RTT-mismatch grid."""
    rtts = RTTS_MS[::2] if quick else RTTS_MS
    mismatch = MISMATCH_MS[::3] if quick else MISMATCH_MS
    fixed: dict[str, Value] = {
        "mss": MSS,
        "loss": 0.01,
        "rbuf": BUFFER,
        "duration": QUICK_DURATION if quick else DURATION,
        "warmup": QUICK_WARMUP if quick else WARMUP,
    }
    runs = QUICK_RUNS if quick else RUNS
    result: list[Grid] = []
    for remedy, options in REMEDIES.items():
        name = grid_name(remedy)
        result.append(
            Grid(
                PROGRAM,
                {**fixed, **options},
                {"paths": list(PATHS), "rtt": [f"{r}ms" for r in rtts]},
                runs,
                f"remedies-16k-{name}",
            )
        )
        result.append(
            Grid(
                PROGRAM,
                {**fixed, **options, "paths": 2},
                {"rtt": [f"100ms,{r}ms" for r in mismatch]},
                runs,
                f"remedies-mismatch-{name}",
            )
        )
    return result
