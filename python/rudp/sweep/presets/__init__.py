"""Named sweeps: the seeds' experiments, each a package of its own.

``presets/seedNNN/`` holds a seed's experiment design (``grid``), its
published numbers where the code compares with them (``published``: seed
000's tables) and its report (``report``: the tables and figures it calls
for). The registry below names them and imports none: a preset's package is
imported when its grids or description are asked for, its report (and with
it pandas' plotting, matplotlib and scipy) when the report is drawn
(:meth:`Preset.report`), so neither ``import rudp.sweep`` nor a Dask worker
running a point pays for the presets it does not use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from ..grid import ExpectedFailure, Grid
from ..until import UntilCi

if TYPE_CHECKING:
    import pandas as pd

#: A report: results in, the files it wrote out.
Report = Callable[["pd.DataFrame", Path], list[Path]]


@dataclass(frozen=True)
class Preset:
    """A sweep by name: a package of ``rudp.sweep.presets`` and what it takes from it.

    Nothing is imported until asked for: the grids and description from the
    package (its ``grid`` module's constants), the report from its module.
    """

    name: str
    #: The package under ``rudp.sweep.presets``.
    package: str
    #: The one-paragraph description, from the package's constants.
    describe: Callable[[ModuleType], str]
    #: The package's function of ``quick`` returning the grids.
    grids_function: str = "grids"
    #: The package's module whose ``write(frame, out)`` draws the report.
    report_module: str = "report"
    #: The package's tuple of failures its design produces on purpose
    #: (documented results), if any.
    expected_failures_constant: str | None = None
    #: The package's :class:`UntilCi`: runs added until each point's interval
    #: is tight, in the full size without ``runs`` (None: the grids' runs).
    until_ci_constant: str | None = None

    def module(self) -> ModuleType:
        """The preset's package (imported on first use)."""
        return importlib.import_module(f"{__name__}.{self.package}")

    @property
    def description(self) -> str:
        return self.describe(self.module())

    def grids(self, quick: bool = False) -> list[Grid]:
        """The grids of the full size, or of the quick one."""
        make: Callable[[bool], list[Grid]] = getattr(self.module(), self.grids_function)
        return make(quick)

    @property
    def expected_failures(self) -> tuple[ExpectedFailure, ...]:
        if self.expected_failures_constant is None:
            return ()
        failures: tuple[ExpectedFailure, ...] = getattr(
            self.module(), self.expected_failures_constant
        )
        return failures

    @property
    def until_ci(self) -> UntilCi | None:
        if self.until_ci_constant is None:
            return None
        until: UntilCi = getattr(self.module(), self.until_ci_constant)
        return until

    def report(self, frame: pd.DataFrame, out: Path) -> list[Path]:
        """Draw the preset's tables and figures of ``frame`` under ``out``."""
        module = importlib.import_module(f"{__name__}.{self.package}.{self.report_module}")
        write: Report = module.write
        return write(frame, out)


PRESETS: dict[str, Preset] = {
    "seed000": Preset(
        "seed000",
        "seed000",
        lambda m: (
            "seed 000: stop-and-wait, Go-Back-N (N = 5..30) and Reno sending 1.jpg against "
            "loss 0-10 % and delay 0-100 ms over four path models (the design card's error "
            "model and CSMA delay, two relay models, a loopback-like link with the seed's "
            "implied datagram); "
            "tables 1-6, figures 3-8, the implied size "
            f"({m.RUNS} runs; --quick: 4 x-values a grid, {m.QUICK_RUNS} runs)"
        ),
        expected_failures_constant="EXPECTED_FAILURES",
    ),
    "seed000-loss-delay": Preset(
        "seed000-loss-delay",
        "seed000",
        lambda m: (
            "the design card's sweep: rudp-file-transfer --router=none, stop-and-wait, "
            "Go-Back-N and Reno sending 1.jpg over loss 0-10 % x delay 0-100 ms (4 x 4) on "
            "CSMA and on point-to-point links; a heat map per variant and link "
            f"({m.CARD_RUNS} runs; --quick: 100 kB over 2 x 2 points)"
        ),
        grids_function="loss_delay_grids",
        report_module="loss_delay",
    ),
    "seed001": Preset(
        "seed001",
        "seed001",
        lambda m: (
            "seed 001: TCP, UDP and the RUDP variants against packet count (10 ... 100000) "
            "with FlowMonitor; throughput, delay, jitter, loss and CDFs "
            f"({m.RUNS} runs; --quick: 10, 100, 10000 packets, {m.QUICK_RUNS} runs)"
        ),
    ),
    "seed002": Preset(
        "seed002",
        "seed002",
        lambda m: (
            "seed 002: CMT over n = 2, 3, 4 paths against RTT and loss, receive buffer "
            "2^28 B and 16 KB, realistic and under the model's assumptions "
            "(--model-assumptions=1), against the analytic model and n x model(n = 1); "
            "figures 6-9, an RTT-mismatch figure, the error table of both modes "
            f"({m.RUNS} runs of {m.DURATION}; "
            f"--quick: {m.QUICK_RUNS} runs of {m.QUICK_DURATION})"
        ),
    ),
    "seed003": Preset(
        "seed003",
        "seed003",
        lambda m: (
            "seed 003: Reno, Cubic, H-TCP, Hybla, Westwood+, Veno and CVTCP on a dumbbell, "
            "over TCP and over RUDP: utilisation against RTT and loss, RTT fairness, TCP "
            f"friendliness; figures 2-9, tables 1-2 ({len(m.TRANSPORTS)} transports, runs of "
            f"{m.DURATION} s, lossy points run until their interval is within "
            f"{m.UNTIL_CI.fraction:g} of the mean, {m.RUNS} to {m.UNTIL_CI.max_runs} runs; "
            f"--quick: runs of {m.QUICK_DURATION} s on a smaller grid)"
        ),
        until_ci_constant="UNTIL_CI",
    ),
    "cmt-remedies": Preset(
        "cmt-remedies",
        "cmt_remedies",
        lambda m: (
            "the CMT remedies for receive-buffer blocking (round robin, receiver-side "
            "buffer splitting, chunk rescheduling, lowest RTT first, buffer-aware, buffer-aware "
            "with rescheduling) on seed 002's 16 KB case (n = 2, 3, 4; RTT 100-200 ms) and two "
            "paths of 100 ms against 100-400 ms; goodput and blocked time, two figures and a table "
            f"({m.RUNS} runs of {m.DURATION}; --quick: {m.QUICK_RUNS} runs of {m.QUICK_DURATION})"
        ),
    ),
    "reno-model": Preset(
        "reno-model",
        "reno_model",
        lambda m: (
            "validation against known models: RUDP's seed Reno (SACK on and off, b = 1 "
            "and 2) and ns-3's TcpNewReno and TcpLinuxReno on one lossy path (p = 0.5-10 %, RTT "
            "50-200 ms) against Padhye et al. (1998) and Mathis et al. (1997), with each run's "
            f"measured RTT and RTO ({m.RUNS} runs of {m.DURATION} s; --quick: "
            f"{len(m.QUICK_CONFIGS)} senders, RTT 50 ms, p = 1 and 5 %, "
            f"{m.QUICK_RUNS} runs of {m.QUICK_DURATION} s)"
        ),
    ),
}

__all__ = ["PRESETS", "ExpectedFailure", "Preset", "Report"]
