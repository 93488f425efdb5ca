"""One run of seed 002's CMT experiment in ns-2.35 (``ns cmt.tcl``) or in rudp (``rudp-cmt``).

Both count the same thing: the 1468-byte data units (ns-2's chunks, which
include their 16-byte chunk header; rudp's segment payloads) that reached the
receiver for the first time between the warm-up and the end, per second, in
kB/s; and over the whole run, the retransmission timeouts and the fast
retransmissions. ns-2 counts a fast retransmission per SACK that triggered
one (``frCount_``), rudp per segment fast-retransmitted; on one path the two
are nearly always the same.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import paths
from ..runner import Value, run_scenario

#: The ns-2.35 driver (a Tcl script run by Debian's ``ns``).
TCL_SCRIPT = Path(__file__).with_name("cmt.tcl")

#: The data unit both simulators count (bytes): ns-2's chunk, rudp's payload.
CHUNK = 1468

#: ns-2's numbers of its eCmtRtxPolicy_ (sctp-cmt.h's CmtRtxPolicy_E).
NS2_RTX_POLICY = {"RTX-ASAP": 0, "RTX-SAME": 1, "RTX-SSTHRESH": 2, "RTX-LOSSRATE": 3, "RTX-CWND": 4}

#: Buffers from which on ns-2's chunks are unordered: its ordered delivery
#: falls behind once the 16-bit stream sequence number wraps (65 536 chunks),
#: which only long runs with a large buffer reach. A bounded buffer keeps
#: ordered delivery, since unordered chunks would leave ns-2's buffer at once.
UNORDERED_FROM = 1 << 20


class Ns2Error(RuntimeError):
    """ns-2 is missing, or a run of it failed."""


@dataclass(frozen=True)
class Point:
    """A point of seed 002's grid."""

    paths: int
    rtt_ms: int
    loss: float
    rbuf: int

    def label(self) -> str:
        return f"{self.paths}/{self.rtt_ms}/{self.loss:g}"


@dataclass(frozen=True)
class CmtSettings:
    """The CMT settings both simulators are given (ns-2's names in comments)."""

    name: str
    trigger: int  # fastRtxTrigger_
    rtx_policy: str  # eCmtRtxPolicy_
    cmt_pf: bool  # useCmtPF_
    pf_cwnd: int  # cmtPFCwnd_

    def rudp_options(self) -> dict[str, Value]:
        """rudp-cmt's options on top of ``--ns2-defaults=1`` for these settings."""
        return {
            "ns2-defaults": True,
            "rtx-policy": self.rtx_policy,
            "ns3::RudpCmtSender::ReTxThreshold": self.trigger,
            "ns3::RudpCmtSender::CmtPf": self.cmt_pf,
            "ns3::RudpCmtSender::CmtPfCwnd": self.pf_cwnd,
        }


#: What rudp's --ns2-defaults claims for ns-2 (2.31's CMT defaults).
NS2_DEFAULTS = CmtSettings("ns2-defaults", 4, "RTX-SAME", False, 1)
#: ns-2.35's own Agent/SCTP/CMT defaults (tcl/lib/ns-default.tcl).
NS2_STOCK = CmtSettings("ns2-stock", 3, "RTX-CWND", True, 2)


@dataclass(frozen=True)
class Outcome:
    """What one run counted."""

    goodput_kBps: float
    timeouts: int
    fast_retransmits: int


def ns_program() -> str | None:
    """The ``ns`` program of ns-2 on the PATH (Debian's ns2), or None."""
    return shutil.which("ns")


def exit_status(errors: Sequence[str], *, needs_ns: bool) -> int | None:
    """How a command line of ns-2 runs must stop before it runs anything.

    2 if its options are refused (each error printed), 1 if it needs ns-2
    and ``ns`` is not installed, None if it may go on.
    """
    for error in errors:
        print(f"error: {error}", file=sys.stderr)
    if errors:
        return 2
    if needs_ns and ns_program() is None:
        print("error: ns-2's ns is not installed: scripts/install-ns2.sh", file=sys.stderr)
        return 1
    return None


def ns2_command(
    point: Point, seed: int, settings: CmtSettings, duration_s: float, warmup_s: float
) -> list[str]:
    """The command line of one ns-2 run."""
    program = ns_program()
    if program is None:
        raise Ns2Error("ns-2's ns is not installed: scripts/install-ns2.sh installs Debian's ns2")
    return [
        program,
        str(TCL_SCRIPT),
        str(point.paths),
        f"{point.rtt_ms / 1000:g}",
        f"{point.loss:g}",
        str(point.rbuf),
        str(seed),
        f"{duration_s:g}",
        f"{warmup_s:g}",
        str(settings.trigger),
        str(NS2_RTX_POLICY[settings.rtx_policy]),
        str(int(settings.cmt_pf)),
        str(settings.pf_cwnd),
        str(int(point.rbuf >= UNORDERED_FROM)),
    ]


def parse_counts(text: str, first: str) -> dict[str, int]:
    """The "key N key N ..." counts of a driver's last line that starts with ``first``."""
    lines = [line for line in text.splitlines() if line.startswith(first + " ")]
    if not lines:
        raise Ns2Error(f"ns-2 printed no counts: {text.strip()[-500:]!r}")
    fields = lines[-1].split()
    return dict(zip(fields[::2], (int(v) for v in fields[1::2]), strict=True))


def run_ns(command: list[str], timeout_s: float) -> str:
    """What ``command`` (an ``ns`` run) printed; :class:`Ns2Error` if it failed."""
    # ns-2 writes nothing but its result; it runs in a scratch folder all the same.
    scratch = Path(paths.build_dir() if paths.build_dir().is_dir() else Path.cwd())
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=timeout_s,
        cwd=scratch,
        check=False,
    )
    if done.returncode != 0:
        raise Ns2Error(
            f"{' '.join(command)} exited with status {done.returncode}: {done.stderr[-2000:]}"
        )
    return done.stdout


def parse_ns2_output(text: str, measured_s: float) -> Outcome:
    """The counts of the driver's last line ("chunks N frCount N timeoutCount N")."""
    values = parse_counts(text, "chunks")
    return Outcome(
        goodput_kBps=values["chunks"] * CHUNK / measured_s / 1000,
        timeouts=values["timeoutCount"],
        fast_retransmits=values["frCount"],
    )


def run_ns2(
    point: Point,
    seed: int,
    *,
    settings: CmtSettings = NS2_DEFAULTS,
    duration_s: float = 200,
    warmup_s: float = 20,
    timeout_s: float = 600,
) -> Outcome:
    """One ns-2.35 run of ``point`` with loss substream ``seed`` (1, 2, ...)."""
    command = ns2_command(point, seed, settings, duration_s, warmup_s)
    return parse_ns2_output(run_ns(command, timeout_s), duration_s - warmup_s)


def rudp_params(
    point: Point,
    seed: int,
    settings: CmtSettings | None,
    duration_s: float = 200,
    warmup_s: float = 20,
) -> dict[str, Value]:
    """rudp-cmt's parameters of ``point``: ``settings`` None is the default (RFC) mode."""
    params: dict[str, Value] = {
        "paths": point.paths,
        "rtt": f"{point.rtt_ms}ms",
        "loss": point.loss,
        "rbuf": point.rbuf,
        # cmt.tcl's links: a DropTail queue that never fills, no queue disc.
        "queue": "ns2",
        "mss": CHUNK,
        "duration": f"{duration_s:g}s",
        "warmup": f"{warmup_s:g}s",
        "RngRun": seed,
    }
    if settings is not None:
        params.update(settings.rudp_options())
    return params


def rudp_outcome(metrics: dict[str, Any]) -> Outcome:
    """The counts of a rudp-cmt record."""
    return Outcome(
        goodput_kBps=float(metrics["throughput_Bps"]) / 1000,
        timeouts=int(metrics["timeouts"]),
        # ns-2's frCount_ counts SACKs that triggered a fast retransmission
        fast_retransmits=int(metrics["fast_retransmit_sacks"]),
    )


def run_rudp(
    point: Point,
    seed: int,
    *,
    settings: CmtSettings | None = None,
    duration_s: float = 200,
    warmup_s: float = 20,
    timeout_s: float = 600,
) -> Outcome:
    """One rudp-cmt run of ``point`` (the module's build; ``settings`` as :func:`rudp_params`)."""
    metrics = run_scenario(
        "rudp-cmt", rudp_params(point, seed, settings, duration_s, warmup_s), timeout_s=timeout_s
    )
    return rudp_outcome(metrics)
