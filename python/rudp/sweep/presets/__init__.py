"""Named sweeps: the seeds' experiments, each a package of its own.

``presets/seedNNN/`` holds a seed's experiment design (``grid``), its
published numbers where the code compares with them (``published``: seed
000's tables) and its report (``report``: the tables and figures it calls
for). The registry below imports only the grids: a preset's report, and
with it pandas' plotting, matplotlib and scipy, is imported when the report
is drawn (:meth:`Preset.report`), so neither ``import rudp.sweep`` nor a Dask
worker running a point pays for it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..grid import ExpectedFailure, Grid
from ..until import UntilCi
from . import cmt_remedies, reno_model, seed000, seed001, seed002, seed003

if TYPE_CHECKING:
    import pandas as pd

#: A report: results in, the files it wrote out.
Report = Callable[["pd.DataFrame", Path], list[Path]]


@dataclass(frozen=True)
class Preset:
    """A sweep by name: its grids (full or quick) and the module of its report."""

    name: str
    description: str
    grids: Callable[[bool], list[Grid]]
    #: The module whose ``write(frame, out)`` draws the report.
    report_module: str
    #: Failures the preset's design produces on purpose (documented results).
    expected_failures: tuple[ExpectedFailure, ...] = field(default=())
    #: Runs added until each point's interval is tight, in the full size
    #: without ``runs`` (None: the grids' runs).
    until_ci: UntilCi | None = None

    def report(self, frame: pd.DataFrame, out: Path) -> list[Path]:
        """Draw the preset's tables and figures of ``frame`` under ``out``."""
        write: Report = importlib.import_module(self.report_module).write
        return write(frame, out)


def _preset(
    name: str,
    description: str,
    grids: Callable[[bool], list[Grid]],
    expected_failures: tuple[ExpectedFailure, ...] = (),
    until_ci: UntilCi | None = None,
) -> Preset:
    report = f"{__name__}.{name}.report"
    return Preset(name, description, grids, report, expected_failures, until_ci)


PRESETS: dict[str, Preset] = {
    "seed000": _preset(
        "seed000",
        "seed 000: stop-and-wait, Go-Back-N (N = 5..30) and Reno sending 1.jpg against "
        "loss 0-10 % and delay 0-100 ms over four path models (the design card's error model and "
        "CSMA delay, two relay models, a loopback-like link with the seed's implied datagram); "
        "tables 1-6, figures 3-8, the implied size "
        f"({seed000.RUNS} runs; --quick: 4 x-values a grid, {seed000.QUICK_RUNS} runs)",
        seed000.grids,
        seed000.EXPECTED_FAILURES,
    ),
    "seed000-loss-delay": Preset(
        "seed000-loss-delay",
        "the design card's sweep: rudp-file-transfer --router=none, stop-and-wait, Go-Back-N "
        "and Reno sending 1.jpg over loss 0-10 % x delay 0-100 ms (4 x 4) on CSMA and on "
        f"point-to-point links; a heat map per variant and link ({seed000.CARD_RUNS} runs; "
        "--quick: 100 kB over 2 x 2 points)",
        seed000.loss_delay_grids,
        f"{__name__}.seed000.loss_delay",
    ),
    "seed001": _preset(
        "seed001",
        "seed 001: TCP, UDP and the RUDP variants against packet count (10 ... 100000) with "
        f"FlowMonitor; throughput, delay, jitter, loss and CDFs ({seed001.RUNS} runs; "
        f"--quick: 10, 100, 10000 packets, {seed001.QUICK_RUNS} runs)",
        seed001.grids,
    ),
    "seed002": _preset(
        "seed002",
        "seed 002: CMT over n = 2, 3, 4 paths against RTT and loss, receive buffer 2^28 B "
        "and 16 KB, realistic and under the model's assumptions (--model-assumptions=1), "
        "against the analytic model and n x model(n = 1); figures 6-9, an RTT-mismatch "
        f"figure, the error table of both modes ({seed002.RUNS} runs of {seed002.DURATION}; "
        f"--quick: {seed002.QUICK_RUNS} runs of {seed002.QUICK_DURATION})",
        seed002.grids,
    ),
    "seed003": _preset(
        "seed003",
        "seed 003: Reno, Cubic, H-TCP, Hybla, Westwood+, Veno and CVTCP on a dumbbell, over "
        "TCP and over RUDP: utilisation against RTT and loss, RTT fairness, TCP friendliness; "
        f"figures 2-9, tables 1-2 ({len(seed003.TRANSPORTS)} transports, runs of "
        f"{seed003.DURATION} s, lossy points run until their interval is within "
        f"{seed003.UNTIL_CI.fraction:g} of the mean, {seed003.RUNS} to {seed003.UNTIL_CI.max_runs}"
        f" runs; --quick: runs of {seed003.QUICK_DURATION} s on a smaller grid)",
        seed003.grids,
        until_ci=seed003.UNTIL_CI,
    ),
    "cmt-remedies": Preset(
        "cmt-remedies",
        "the CMT remedies for receive-buffer blocking (round robin, receiver-side buffer "
        "splitting, chunk rescheduling, lowest RTT first, buffer-aware, buffer-aware with "
        "rescheduling) on seed 002's 16 KB case (n = 2, 3, 4; RTT 100-200 ms) and two paths "
        "of 100 ms against 100-400 ms; goodput and blocked time, two figures and a table "
        f"({cmt_remedies.RUNS} runs of {cmt_remedies.DURATION}; --quick: "
        f"{cmt_remedies.QUICK_RUNS} runs of {cmt_remedies.QUICK_DURATION})",
        cmt_remedies.grids,
        f"{__name__}.cmt_remedies.report",
    ),
    "reno-model": Preset(
        "reno-model",
        "validation against known models: RUDP's seed Reno (SACK on and off, b = 1 and 2) "
        "and ns-3's TcpNewReno and TcpLinuxReno on one lossy path (p = 0.5-10 %, RTT "
        "50-200 ms) against Padhye et al. (1998) and Mathis et al. (1997), with each run's "
        f"measured RTT and RTO ({reno_model.RUNS} runs of {reno_model.DURATION} s; --quick: "
        f"{len(reno_model.QUICK_CONFIGS)} senders, RTT 50 ms, p = 1 and 5 %, "
        f"{reno_model.QUICK_RUNS} runs of {reno_model.QUICK_DURATION} s)",
        reno_model.grids,
        f"{__name__}.reno_model.report",
    ),
}

__all__ = ["PRESETS", "ExpectedFailure", "Preset", "Report"]
