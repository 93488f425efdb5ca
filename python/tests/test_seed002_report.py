"""Seed 002's report: both modes, n x model(n = 1), and the counts behind each point.

Synthetic outcomes stand in for ``rudp-cmt`` runs: no simulator is needed.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from rudp.models import cmt
from rudp.runner import Value
from rudp.sweep.execute import Outcome
from rudp.sweep.frame import to_frame
from rudp.sweep.grid import Point
from rudp.sweep.presets import seed002
from rudp.sweep.presets.seed002 import report


def _run(number: int, rbuf: int, mode: bool | None, kbps: float, timeouts: int) -> Outcome:
    params: list[tuple[str, Value]] = [
        ("loss", 0.01),
        ("paths", 2),
        ("rbuf", rbuf),
        ("rtt", "120ms"),
    ]
    if mode is not None:  # the realistic grids leave the option out
        params.append((seed002.MODEL_ASSUMPTIONS, mode))
    point = Point(seed002.PROGRAM, tuple(params), number)
    metrics = {
        "ok": True,
        "throughput_Bps": kbps * 1000,
        "rtt_s": 0.12,
        "blocked_time_s": 1.0,
        "timeouts": timeouts,
        "fast_retransmits": 30,
    }
    return Outcome(point, "cmd", metrics=metrics, exit_status=0)


def _frame() -> pd.DataFrame:
    outcomes = []
    for number in (1, 2):
        outcomes.append(_run(number, seed002.BOUNDED, None, 90.0, 10))
        outcomes.append(_run(number, seed002.BOUNDED, True, 115.0, 0))
        outcomes.append(_run(number, seed002.UNBOUNDED, None, 260.0, 2))
        outcomes.append(_run(number, seed002.UNBOUNDED, True, 300.0, 0))
    return to_frame(outcomes)


def test_error_table_has_both_modes_and_the_counts() -> None:
    table = report.error_table(report._ours(_frame()))
    assert list(table["mode"].unique()) == [report.REALISTIC, report.MODEL]
    assert len(table) == 4
    bounded = table[(table["rbuf"] == seed002.BOUNDED) & (table["mode"] == report.REALISTIC)]
    (row,) = bounded.itertuples()
    assert row.mean == pytest.approx(90.0)
    assert row.timeouts_per_run == pytest.approx(10.0)
    assert row.fast_retransmits_per_run == pytest.approx(30.0)
    assert row.timeout_share == pytest.approx(10 / 40)
    model = cmt.throughput(2, 0.01, 0.12, seed002.MSS, seed002.BOUNDED) / 1000
    independent = 2 * cmt.throughput(1, 0.01, 0.12, seed002.MSS, seed002.BOUNDED / 2) / 1000
    assert row.model_kBps == pytest.approx(model)
    assert row.independent_kBps == pytest.approx(independent)
    assert row.relative_error == pytest.approx(90.0 / model - 1)
    assert row.independent_error == pytest.approx(90.0 / independent - 1)
    assert math.isnan(row.mathis_kBps)  # Mathis' law has no receive buffer


def test_error_table_sets_the_unbounded_buffer_against_n_times_mathis() -> None:
    # Two paths at 120 ms and 1 %: sqrt(3/2 / 0.01) = 12.247 packets of 1468 B an RTT a path.
    table = report.error_table(report._ours(_frame()))
    unbounded = table[(table["rbuf"] == seed002.UNBOUNDED) & (table["mode"] == report.REALISTIC)]
    (row,) = unbounded.itertuples()
    expected = 2 * math.sqrt(1.5 / 0.01) * seed002.MSS / 0.12 / 1000
    assert row.mathis_kBps == pytest.approx(expected)
    assert row.mathis_kBps == pytest.approx(299.65, abs=0.01)
    assert row.mathis_error == pytest.approx(260.0 / expected - 1)
    # The seed's model is below the law: it counts no packet in two RTTs of each cycle.
    assert row.independent_kBps < 0.85 * row.mathis_kBps


def test_report_writes_a_table_per_mode_and_buffer_and_the_figures(tmp_path: Path) -> None:
    written = report.write(_frame(), tmp_path)
    names = {path.name for path in written}
    assert {"seed002-figure6.png", "seed002-figure8.png", "seed002-model-error.md"} <= names
    text = (tmp_path / "seed002-model-error.md").read_text()
    for heading in (
        "**realistic, receive buffer 16 KB**",
        "**realistic, receive buffer 2^28 B**",
        "**model assumptions, receive buffer 16 KB**",
        "**model assumptions, receive buffer 2^28 B**",
    ):
        assert heading in text
    assert "timeouts / run" in text
    # A share is no error: 10 timeouts in 40 recoveries print unsigned.
    assert "| 25.0 % |" in text and "+25.0 %" not in text
    assert "**summary**" in text
    overview = (tmp_path / "seed002-model-error-summary.csv").read_text().splitlines()
    assert overview[0].startswith("mode,buffer,vs model,within ±15 %,median abs.")
    assert len(overview) == 5  # the header, then both modes with both buffers
    assert (tmp_path / "seed002-model-error-summary.rst").exists()


def test_summary_table_ranges_the_errors_and_counts_the_band() -> None:
    table = report.error_table(report._ours(_frame()))
    summary = report.summary_table(table[table["rbuf"] == seed002.BOUNDED].iloc[:1])
    row = summary.iloc[0]
    model = cmt.throughput(2, 0.01, 0.12, seed002.MSS, seed002.BOUNDED) / 1000
    error = f"{(90.0 / model - 1) * 100:+.1f} %"
    assert row["vs model"] == error.replace(" %", "") + " to " + error
    assert row["within ±15 %"] == ("1 of 1" if abs(90.0 / model - 1) <= 0.15 else "0 of 1")
    assert row["vs n x Mathis"] == ""  # the bounded buffer has no Mathis column
    assert row["timeouts / run"] == "10.0 to 10.0"
    assert row["timeout share"] == "25.0 to 25.0 %"
    (unbounded,) = report.summary_table(table[table["rbuf"] == seed002.UNBOUNDED].iloc[:1])[
        "vs n x Mathis"
    ]
    mathis = f"{(260.0 / (2 * 12.2474487 * seed002.MSS / 0.12 / 1000) - 1) * 100:+.1f} %"
    assert unbounded == mathis.replace(" %", "") + " to " + mathis


@pytest.mark.parametrize(
    ("value", "model"),
    [(True, True), ("1", True), ("true", True), (1, True), (False, False), ("0", False)],
)
def test_the_mode_column_reads_the_option(value: object, model: bool) -> None:
    assert report._truthy(value) is model
