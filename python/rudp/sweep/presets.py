"""Named sweeps: a seed's grids and the tables and figures it calls for."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from . import seed000, seed001, seed002, seed003
from .grid import Grid


@dataclass(frozen=True)
class Preset:
    """A sweep by name: its grids (full or quick) and its report."""

    name: str
    description: str
    grids: Callable[[bool], list[Grid]]
    report: Callable[[pd.DataFrame, Path], list[Path]]


PRESETS: dict[str, Preset] = {
    "seed000": Preset(
        "seed000",
        "seed 000: stop-and-wait, Go-Back-N (N = 5..30) and Reno sending 1.jpg against "
        "loss 0-10 % and delay 0-100 ms, both router models; tables 1-6, figures 3-8 "
        f"({seed000.RUNS} runs; --quick: 4 x-values a grid, {seed000.QUICK_RUNS} runs)",
        seed000.grids,
        seed000.report,
    ),
    "seed001": Preset(
        "seed001",
        "seed 001: TCP, UDP and the RUDP variants against packet count (10 ... 100000) with "
        f"FlowMonitor; throughput, delay, jitter, loss and CDFs ({seed001.RUNS} runs; "
        f"--quick: 10, 100, 10000 packets, {seed001.QUICK_RUNS} runs)",
        seed001.grids,
        seed001.report,
    ),
    "seed002": Preset(
        "seed002",
        "seed 002: CMT over n = 2, 3, 4 paths against RTT and loss, receive buffer 2^28 B "
        "and 16 KB, against the analytic model; figures 6-9, an RTT-mismatch figure, the "
        f"error table ({seed002.RUNS} runs of {seed002.DURATION}; --quick: "
        f"{seed002.QUICK_RUNS} runs of {seed002.QUICK_DURATION})",
        seed002.grids,
        seed002.report,
    ),
    "seed003": Preset(
        "seed003",
        "seed 003: Reno, Cubic, H-TCP, Hybla, Westwood+, Veno and CVTCP on a dumbbell, over "
        "TCP and over RUDP: utilisation against RTT and loss, RTT fairness, TCP friendliness; "
        f"figures 2-9, tables 1-2 ({len(seed003.TRANSPORTS)} transports, runs of "
        f"{seed003.DURATION} s; --quick: runs of {seed003.QUICK_DURATION} s on a smaller grid)",
        seed003.grids,
        seed003.report,
    ),
}
