"""RUDP's seed Reno beside ns-2.35's TCP agents (python -m rudp.ns2.tcp).

The real runs hold RUDP Reno with SACK to ns-2's Sack1 where the two do the
same thing, at 1 % loss (doc/reno-model.rst, "Against ns-2.35's TCP"): within
the goal of 15 % in both modes. Before RudpReno stopped inflating its window
on top of RFC 6675's pipe they were 1.20-1.25 x ns-2 there.

ns-2 is Debian's ns2: conftest.py's session fixture ``ns2`` installs it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rudp.ns2 import Ns2Error, tcp
from rudp.ns2.tcp import (
    MODES,
    SENDERS,
    Outcome,
    Point,
    Row,
    grid_points,
    markdown,
    ns2_command,
    parse_ns2_output,
    rudp_outcome,
    rudp_params,
    run_grid,
)

SACK_B1, SACK_B2, NO_SACK_B1, _ = SENDERS


@pytest.mark.usefixtures("ns2")
def test_the_driver_command_line_carries_the_sender_and_the_mode() -> None:
    matched = ns2_command(Point(SACK_B2, 100, 0.02), 3, MODES["matched"], 60, 10)
    # agent, sink, rtt (s), loss, seed, duration, warm-up, segment, window, ssthresh,
    # initial window, min RTO, timer tick, limited transmit, delayed-ACK interval
    assert matched[2:] == [
        *("Sack1", "TCPSink/Sack1/DelAck", "0.1", "0.02", "3", "60", "10", "1448"),
        *("100000", "100000", "10", "1", "0.001", "1", "0.2"),
    ]
    # RUDP without SACK has no limited transmit: a duplicate ACK frees nothing
    no_sack = ns2_command(Point(NO_SACK_B1, 100, 0.02), 3, MODES["matched"], 60, 10)
    assert no_sack[2:4] == ["Reno", "TCPSink"] and no_sack[-2] == "0"
    stock = ns2_command(Point(NO_SACK_B1, 50, 0.05), 1, MODES["stock"], 60, 10)
    assert stock[2:4] == ["Reno", "TCPSink"]
    assert stock[-5:] == ["2", "0.2", "0.01", "1", "0.1"]


def test_the_output_is_read_as_payload_goodput_and_cuts_less_timeouts() -> None:
    outcome = parse_ns2_output("noise\nsegments 5000 timeouts 3 cuts 50 retransmitted 60\n", 50)
    assert outcome.goodput_Mbps == pytest.approx(5000 * 1448 * 8 / 50 / 1e6)
    assert (outcome.timeouts, outcome.fast_retransmits) == (3, 47)
    with pytest.raises(Ns2Error, match="no counts"):
        parse_ns2_output("can't read ack_", 50)


def test_the_rudp_side_is_the_reno_model_presets_run() -> None:
    params = rudp_params(Point(NO_SACK_B1, 200, 0.1), 4, 60, 10)
    assert params["flows"] == "rudp-reno@200ms" and params["transport"] == "rudp"
    assert (params["sack"], params["del-ack-count"], params["RngRun"]) == (0, 1, 4)
    assert params["rate"] == "100Mbps" and params["queue"] == "pfifo"
    record = {
        "segment_size": 1448,
        "flows": [{"throughput_bps": 2.5e6, "timeouts": 1, "fast_retransmits": 9}],
    }
    assert rudp_outcome(record) == Outcome(2.5, 1, 9)
    with pytest.raises(ValueError, match="1000-byte segments"):
        rudp_outcome({**record, "segment_size": 1000})


def test_the_grid_is_the_reno_model_presets() -> None:
    assert len(grid_points([SACK_B1])) == 15
    assert grid_points([SACK_B1, NO_SACK_B1], quick=True) == [
        Point(SACK_B1, 50, 0.01),
        Point(SACK_B1, 50, 0.05),
        Point(NO_SACK_B1, 50, 0.01),
        Point(NO_SACK_B1, 50, 0.05),
    ]


def test_the_table_gives_each_mode_and_sender_its_summary() -> None:
    rows = [
        Row(Point(SACK_B1, 50, 0.01), "matched", [Outcome(2.0, 1, 10)], [Outcome(2.2, 0, 12)]),
        Row(Point(SACK_B1, 50, 0.05), "matched", [Outcome(1.0, 0, 20)], [Outcome(0.7, 0, 20)]),
    ]
    text = markdown(rows, 1, "python -m rudp.ns2.tcp")
    assert f"## matched: {SACK_B1} against ns-2's Sack1 with TCPSink/Sack1" in text
    assert "worst -30.0 % (50/0.05); 50 % of points within 15 %" in text
    assert "| 50/0.01 | 2.000 | 2.200 | 1.10 | 1.0/10.0 | 0.0/12.0 |" in text


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--seeds", "0"], "--seeds=0"),
        (["--modes", "matched,linux"], "'linux'"),
        (["--senders", "0,7"], "'7'"),
        (["--duration", "10", "--warmup", "10"], "--warmup=10.0"),
    ],
)
def test_bad_options_exit_2_naming_the_option(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tcp.main(argv) == 2
    assert named in capsys.readouterr().err


@pytest.mark.usefixtures("ns2")
def test_rudp_reno_with_sack_is_within_15_percent_of_ns2_sack1_at_1_percent(
    tmp_path: Path,
) -> None:
    points = [Point(label, 50, 0.01) for label in (SACK_B1, SACK_B2)]
    rows = run_grid(list(points), list(MODES.values()), 3, duration_s=30, warmup_s=5)
    for row in rows:
        ratio = row.ratio("goodput_Mbps")
        assert abs(ratio - 1) <= tcp.GOODPUT_TOLERANCE, (row.mode, row.point, ratio)
    assert tcp.main(["--quick", "--seeds", "1", "--senders", "0", "--out", str(tmp_path)]) == 0
    assert "| 50/0.05 |" in (tmp_path / "reno-ns2.md").read_text()
    assert (tmp_path / "reno-ns2-runs.csv").read_text().count("\n") == 1 + 2 * 2 * 2
