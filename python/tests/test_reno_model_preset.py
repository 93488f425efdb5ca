"""The reno-model preset: rudp-cc-comparison's switches for it, its grids, its report,
and at quick size RUDP's seed Reno held to Padhye et al.'s model.

What the quick test holds (and the full preset measures, doc/reno-model.rst): every RUDP
Reno point within :data:`TOLERANCE` of Padhye et al.'s eq. (31) evaluated with the run's
measured RTT, RTO and share of timeouts; Padhye's own timeout probability Q(E[W]) is far
above what the senders measure (RUDP's recovery rarely times out), so eq. (31) with it
under-predicts, and that is asserted too, so that a change which makes the model's
assumption true shows here.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from rudp import paths
from rudp.runner import Value, run_scenario
from rudp.sweep import PRESETS, run_sweep
from rudp.sweep.presets import reno_model
from rudp.sweep.presets.reno_model import report

PROGRAM = "rudp-cc-comparison"

#: The goal of issue 16, which RUDP Reno meets against Padhye (31) with the measured
#: timeout share at every point of the full preset with p <= 2 % (worst -14 %; 54 of 60
#: points in all, doc/reno-model.rst) and at every quick point (3 runs of 30 s, RTT 50 ms,
#: p = 1 and 5 %; worst -22 %, SACK at 5 %).
TOLERANCE = 0.25

#: A short run of the preset's path.
PATH: dict[str, Value] = {"rate": "100Mbps", "queue": "pfifo", "duration": 20, "warmup": 5}

needs_program = pytest.mark.programs(PROGRAM)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(paths.program(PROGRAM)), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_preset_is_registered_with_every_sender_over_loss_and_rtt() -> None:
    full = PRESETS["reno-model"].grids(False)
    assert len(full) == len(reno_model.CONFIGS)
    for grid in full:
        assert grid.program == PROGRAM and grid.runs == reno_model.RUNS
        assert grid.axes["loss"] == list(reno_model.LOSSES)
        assert [str(f).split("@")[1] for f in grid.axes["flows"]] == ["50ms", "100ms", "200ms"]
    quick = PRESETS["reno-model"].grids(True)
    assert all(g.runs >= 3 for g in quick)  # a Student-t interval needs a few runs
    assert {str(f).split("@")[0] for g in quick for f in g.axes["flows"]} >= {"rudp-reno"}


@needs_program
def test_rudp_reno_runs_with_its_switches_and_records_rtt_and_rto() -> None:
    one = run_scenario(
        PROGRAM,
        {
            **PATH,
            "transport": "rudp",
            "flows": "rudp-reno@100ms",
            "loss": 0.01,
            "sack": 0,
            "del-ack-count": 1,
        },
    )
    two = run_scenario(
        PROGRAM,
        {
            **PATH,
            "transport": "rudp",
            "flows": "rudp-reno@100ms",
            "loss": 0.01,
            "sack": 1,
            "del-ack-count": 2,
        },
    )
    assert one["rudp_variant"] == "Reno" and one["sack"] is False and one["del_ack_count"] == 1
    assert two["sack"] is True and two["del_ack_count"] == 2
    for metrics in (one, two):
        (flow,) = metrics["flows"]
        assert flow["type_id"] == "ns3::RudpReno"
        # The RTT the sender measured: the propagation RTT and a little queueing.
        assert 0.1 <= flow["mean_rtt_s"] < 0.13
        # Karn's rule samples only the ACKs of segments sent once: 97 in the run with
        # SACK and b = 2, the sender that sends the fewest segments.
        assert flow["rtt_samples"] > 50
        assert flow["mean_rto_s"] >= 1.0  # RFC 6298's 1 s floor (MinRto)
        assert flow["fast_retransmits"] > 0 and flow["timeouts"] >= 0
    assert one["flows"][0]["throughput_bps"] != two["flows"][0]["throughput_bps"]


@needs_program
@pytest.mark.parametrize("algorithm", ["ns3::TcpNewReno", "ns3::TcpLinuxReno"])
def test_tcp_takes_the_same_switches(algorithm: str) -> None:
    base: dict[str, Value] = {**PATH, "transport": "tcp", "flows": f"{algorithm}@50ms"}
    runs: dict[int, dict[str, Any]] = {
        b: run_scenario(PROGRAM, {**base, "loss": 0.01, "del-ack-count": b}) for b in (1, 2)
    }
    for b, metrics in runs.items():
        (flow,) = metrics["flows"]
        assert metrics["del_ack_count"] == b and flow["type_id"] == algorithm
        assert 0.05 <= flow["mean_rtt_s"] < 0.3 and flow["mean_rto_s"] >= 1.0
    assert runs[1]["flows"][0]["rtt_samples"] > runs[2]["flows"][0]["rtt_samples"]


@needs_program
@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (("--transport=tcp", "--flows=rudp-reno@50ms"), "--flows"),
        (("--del-ack-count=0",), "--del-ack-count"),
        (("--del-ack-count=65",), "--del-ack-count"),
        (("--sack=maybe",), "--sack"),
        (("--transport=rudp", "--ns3::RudpSocket::Sack=false"), "--sack"),
        (("--ns3::TcpSocket::DelAckCount=1",), "--del-ack-count"),
    ],
)
def test_bad_input_names_the_parameter(arguments: tuple[str, ...], named: str) -> None:
    done = _run("--rate=10Mbps", "--duration=10", *arguments)
    assert done.returncode == 2, done.stderr
    assert named in done.stderr


def _frame() -> pd.DataFrame:
    """Two runs of a RUDP Reno point and one of TCP, as the sweep gives them back."""

    def row(
        transport: str, flows: str, *, sack: int, b: int, bps: float, run: int
    ) -> dict[str, Any]:
        return {
            "program": PROGRAM,
            "transport": transport,
            "flows": flows,
            "sack": sack,
            "del-ack-count": b,
            "loss": 0.01,
            "run": run,
            "segment_size": 1448,
            "buffer_bytes": 4_000_000,
            "flows_metrics": [
                {
                    "throughput_bps": bps,
                    "mean_rtt_s": 0.1,
                    "mean_rto_s": 1.0,
                    "timeouts": 0,
                    "fast_retransmits": 50,
                }
            ],
            "status": "ok",
        }

    return pd.DataFrame(
        [
            row("rudp", "rudp-reno@100ms", sack=1, b=2, bps=1.0e6, run=1),
            row("rudp", "rudp-reno@100ms", sack=1, b=2, bps=1.2e6, run=2),
            row("tcp", "ns3::TcpNewReno@100ms", sack=1, b=2, bps=0.9e6, run=1),
            row(
                "tcp", "cubic@100ms", sack=1, b=2, bps=0.9e6, run=1
            ),  # not one of the preset's senders
        ]
    )


def test_the_report_predicts_from_each_runs_measurements(tmp_path: Path) -> None:
    runs = report.runs_table(_frame())
    assert list(runs["config"]) == ["RUDP Reno, SACK, b=2"] * 2 + ["TCP NewReno (b=2)"]
    summary = report.summary_table(runs)
    reno = summary[summary["config"] == "RUDP Reno, SACK, b=2"].iloc[0]
    assert reno["mean"] == pytest.approx(1.1) and reno["n"] == 2
    # p = 0.01, RTT 0.1 s, b = 2, no timeouts measured: (99 + E[W]) / (0.1 (E[W] + 1))
    # segments/s (test_tcp_throughput_model), times 1448 * 8 bits.
    assert reno["padhye_q_Mbps"] == pytest.approx(84.382637 * 1448 * 8 / 1e6, rel=1e-6)
    assert reno["padhye_Mbps"] == pytest.approx(69.524463 * 1448 * 8 / 1e6, rel=1e-6)
    assert reno["ratio_padhye"] == pytest.approx(1.1 / reno["padhye_Mbps"])
    assert reno["timeout_share"] == 0.0
    written = report.write(_frame(), tmp_path)
    assert {p.name for p in written} == {
        "reno-model.csv",
        "reno-model.md",
        "reno-model.rst",
        "reno-model.png",
        "index.md",
    }
    assert "| RUDP Reno, SACK, b=2 | 100 | 1 | 1.10 ± " in (tmp_path / "reno-model.md").read_text()


@needs_program
def test_quick_preset_holds_rudp_reno_to_padhye_with_the_measured_timeouts(
    tmp_path: Path,
) -> None:
    frame = run_sweep("reno-model", quick=True, out=tmp_path, jobs=2, progress=False)
    assert frame.attrs["failed"] == 0
    summary = pd.read_csv(tmp_path / "reno-model.csv")
    assert (tmp_path / "reno-model.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (summary["runs"] >= 3).all()
    reno = summary[summary["config"].str.startswith("RUDP Reno")]
    assert len(reno) == 4
    deviation = (reno["ratio_padhye_q"] - 1).abs()
    assert (deviation <= TOLERANCE).all(), reno[["config", "loss", "ratio_padhye_q"]]
    # Padhye's own Q(E[W]) expects far more timeouts than the senders have, so with it
    # eq. (31) under-predicts every point: the deviation doc/reno-model.rst explains.
    assert (reno["timeout_share"] < reno["q_model"] / 2).all()
    assert (reno["ratio_padhye"] > 1).all()
