"""rudp-file-transfer as users and sweeps call it: metrics, failures, bad input."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rudp import paths
from rudp.runner import ScenarioError, Value, run_scenario

pytestmark = pytest.mark.programs("rudp-file-transfer")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(paths.program("rudp-file-transfer")), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _failed_run(tmp_path: Path, *args: str) -> dict[str, Any]:
    """Runs a transfer that must fail; returns its record."""
    output = tmp_path / "run.json"
    done = _run(*args, f"--output={output}")
    # A reported failure: exit status 1, never a signal.
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("error: transfer failed: ")
    record: dict[str, Any] = json.loads(output.read_text())
    assert record["ok"] is False
    assert record["failure"]
    assert record["failure"] in done.stderr
    assert record["sha256_match"] is False
    assert record["transfer_time_s"] is None  # no time for a transfer that did not finish
    for key in ("bytes", "retransmissions", "timeouts", "checksum_errors", "data_tx_packets"):
        assert isinstance(record[key], int), key
    return record


@pytest.mark.parametrize("variant", ["stop-and-wait", "go-back-n", "reno"])
def test_every_variant_reports_its_metrics(variant: str) -> None:
    metrics = run_scenario(
        "rudp-file-transfer", {"variant": variant, "loss": 0.05, "file": "helloworld.txt"}
    )
    assert metrics["variant"] == variant
    assert metrics["bytes"] == 1655808
    assert metrics["sha256_match"] is True
    assert metrics["transfer_time_s"] > 0
    assert metrics["throughput_kBps"] == pytest.approx(
        metrics["bytes"] / metrics["transfer_time_s"] / 1000
    )
    assert metrics["retransmissions"] > 0
    for key in ("timeouts", "checksum_errors", "throughput_Mbps", "fast_retransmits"):
        assert key in metrics
    assert (metrics["ok"], metrics["failure"]) == (True, "")


def test_corruption_is_caught_by_the_checksum() -> None:
    metrics = run_scenario("rudp-file-transfer", {"corruption": 0.05, "size": 300000})
    assert metrics["checksum_errors"] > 0
    assert metrics["sha256_match"] is True


def test_a_failed_transfer_exits_non_zero_with_a_message() -> None:
    with pytest.raises(ScenarioError) as failure:
        run_scenario("rudp-file-transfer", {"loss": 1.0, "size": 1000})
    assert failure.value.returncode == 1
    assert "transfer failed" in failure.value.stderr


def test_a_failed_transfer_still_writes_its_record(tmp_path: Path) -> None:
    record = _failed_run(tmp_path, "--loss=1.0", "--size=1000")
    assert record["failure"] == "the sender's connection failed"
    assert record["bytes"] == 0
    assert record["file_size"] == 1000
    assert record["timeouts"] > 0
    assert record["data_tx_packets"] > 0
    assert record["data_rx_packets"] == 0


def test_max_time_before_the_senders_start_is_a_failure_not_a_crash(tmp_path: Path) -> None:
    # The sender starts at 0.1 s: with --max-time=1ms it never did (this aborted).
    record = _failed_run(tmp_path, "--max-time=1ms")
    assert "had not started" in record["failure"]
    assert record["bytes"] == 0
    assert record["file_size"] == 1857353


def test_an_unfinished_transfer_reports_the_bytes_that_arrived(tmp_path: Path) -> None:
    record = _failed_run(tmp_path, "--max-time=0.15s")
    assert "incomplete" in record["failure"]
    assert 0 < record["bytes"] < record["file_size"] == 1857353


@pytest.mark.parametrize(
    ("argument", "named"),
    [
        ("--window=0", "--window"),
        ("--loss=1.5", "--loss"),
        ("--variant=vegas", "--variant"),
        ("--rto-mode=sometimes", "--rto-mode"),
        ("--mss=2000", "--mss"),
        ("--file=no-such-file.bin", "--file"),
        ("--loss=0.05abc", "--loss"),
        ("--window=0x5", "--window"),
        ("--size=-1", "--size"),
        ("--window=abc", "--window"),
        ("--windw=10", "--windw"),
        ("--delay=5", "--delay"),
        ("--output=/no/such/dir/x.json", "--output"),
    ],
)
def test_bad_input_names_the_parameter(argument: str, named: str) -> None:
    done = _run(argument)
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {named}: ")


def test_same_run_same_numbers_and_another_run_differs() -> None:
    params: dict[str, Value] = {"variant": "reno", "loss": 0.05, "size": 200000}
    first = run_scenario("rudp-file-transfer", {**params, "RngRun": 1})
    again = run_scenario("rudp-file-transfer", {**params, "RngRun": 1})
    other = run_scenario("rudp-file-transfer", {**params, "RngRun": 2})
    assert first == again
    assert first["transfer_time_s"] != other["transfer_time_s"]


def test_the_default_link_is_csma_and_p2p_is_another_path() -> None:
    params: dict[str, Value] = {
        "variant": "go-back-n",
        "loss": 0.02,
        "delay": "20ms",
        "size": 200000,
    }
    default = run_scenario("rudp-file-transfer", params)
    csma = run_scenario("rudp-file-transfer", {**params, "link": "csma", "mtu": 1500})
    p2p = run_scenario("rudp-file-transfer", {**params, "link": "p2p"})
    assert default == csma and default["link"] == "csma" and default["mtu"] == 1500
    # A CSMA channel is busy while a frame propagates: one frame per 20 ms there,
    # a window of them in flight on a point-to-point link.
    assert p2p["link"] == "p2p"
    assert p2p["transfer_time_s"] * 3 < csma["transfer_time_s"]


def test_a_loopback_like_link_carries_datagrams_of_64_kilobytes() -> None:
    params: dict[str, Value] = {"link": "p2p", "mtu": 65535, "mss": 65000, "size": 650000}
    record = run_scenario("rudp-file-transfer", {**params, "variant": "stop-and-wait"})
    assert record["ok"] and record["mss"] == 65000 and record["mtu"] == 65535
    # Ten full segments, the name-and-length segment, the handshake and the close.
    assert 11 <= record["segments_sent"] <= 20
    # Each 65 kB datagram is one packet on the link, not a train of fragments.
    assert record["data_rx_packets"] == record["segments_sent"]


def test_reordering_needs_only_a_netem_delay_as_tc_does() -> None:
    # tc qdisc ... netem delay 10ms reorder 25%: no jitter needed.
    metrics = run_scenario(
        "rudp-file-transfer",
        {
            "variant": "reno",
            "sack": True,
            "size": 100000,
            "netem-delay": "10ms",
            "reorder": 0.25,
        },
    )
    assert metrics["sha256_match"] is True
    assert metrics["netem_delay_s"] == pytest.approx(0.010)
    assert metrics["jitter_s"] == 0
    assert metrics["netem_data_reordered"] > 0
    # The delayed three quarters are 10 ms later than without netem.
    assert metrics["data_delay_mean_s"] > 0.0075


def test_jitter_alone_stays_netems_delay_j_j() -> None:
    metrics = run_scenario("rudp-file-transfer", {"size": 100000, "jitter": "4ms"})
    assert metrics["netem_delay_s"] == pytest.approx(0.004)
    assert metrics["jitter_s"] == pytest.approx(0.004)


def test_sems_none_for_an_option_without_default_is_unset(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            str(paths.program("rudp-file-transfer")),
            "--size=20000",
            "--output=None",
            "--received-dir=None",
            "--cwnd-trace=None",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert list(tmp_path.iterdir()) == []  # no file or folder named None


# --- several paths: one multipath association (RudpCmtSocket) -----------------


def test_several_paths_carry_the_file_through_their_blackouts(tmp_path: Path) -> None:
    """Three paths, each dark for a while (two at once for a second): the file arrives whole."""
    output = tmp_path / "run.json"
    done = _run(
        "--paths=3",
        "--size=1500000",
        "--delay=5ms",
        "--loss=0.01",
        "--path-blackouts=0@300ms+2s,1@1s+1500ms,2@4s+20ms",
        f"--received-dir={tmp_path}",
        f"--output={output}",
    )
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(output.read_text())
    assert record["ok"] is True and record["sha256_match"] is True
    assert (record["transport"], record["paths"]) == ("rudp-cmt", 3)
    assert "variant" not in record and "sack" not in record
    sent = record["paths_sent"]
    assert len(sent) == 3
    assert {p["remote"] for p in sent} == {"10.1.2.2", "10.2.2.2", "10.3.2.2"}
    assert all(p["bytes_sent"] > 100_000 for p in sent), sent  # every path carried data
    assert sum(p["timeouts"] for p in sent[:2]) > 0, sent  # the blackouts were felt
    assert (tmp_path / "generated.bin").stat().st_size == 1500000
    assert record["netem_data_lost"] > 0  # the blackouts' netem


def test_every_path_dark_for_good_is_a_reported_failure(tmp_path: Path) -> None:
    """All paths down beyond the association's retransmissions: exit 1, "ok": false."""
    record = _failed_run(
        tmp_path,
        "--paths=2",
        "--size=3000000",
        "--blackout-start=300ms",
        "--blackout-duration=100000s",
        "--max-time=5000s",
    )
    assert record["failure"] == "the sender's connection failed"
    assert record["paths"] == 2


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (["--paths=9"], "--paths"),
        (["--paths=2", "--variant=go-back-n"], "--variant"),
        (["--paths=2", "--sack=1"], "--sack"),
        (["--paths=2", "--router=delay"], "--router"),
        (["--paths=2", "--path-blackouts=2@1s+1s"], "--path-blackouts"),
        (["--path-blackouts=0@1s"], "--path-blackouts"),
        (["--path-blackouts=0@1s+x"], "--path-blackouts"),
    ],
)
def test_bad_multipath_input_names_the_parameter(arguments: list[str], named: str) -> None:
    done = _run(*arguments, "--size=1000")
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {named}: "), done.stderr


def test_an_association_whose_shutdown_acks_are_lost_still_closes(tmp_path: Path) -> None:
    """30 % loss both ways: the first SHUTDOWN-ACKs are lost. The server resends its
    SHUTDOWN-ACK until SHUTDOWN COMPLETE answers (RFC 9260 9.2); before, it answered only
    within a linger of 3 s, and the client, whose file had arrived whole, reported a failure."""
    output = tmp_path / "run.json"
    done = _run(
        "--paths=2",
        "--router=none",
        "--loss=0.3",
        "--ack-loss=0.3",
        "--size=100000",
        "--RngRun=7",
        f"--output={output}",
    )
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(output.read_text())
    assert record["ok"] is True and record["sha256_match"] is True


def test_a_primary_path_that_fails_for_good_does_not_keep_the_association_from_closing(
    tmp_path: Path,
) -> None:
    """The first path dark from just after the set-up on: the file goes by the second, and the
    SHUTDOWN, resent on the second path, closes the association (before, every SHUTDOWN went
    to the dead primary address: the file arrived whole, the sender reported a failure)."""
    output = tmp_path / "run.json"
    done = _run(
        "--paths=2",
        "--size=3000000",
        "--path-blackouts=0@150ms+100000s",
        f"--received-dir={tmp_path}",
        f"--output={output}",
    )
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(output.read_text())
    assert record["ok"] is True
    primary, second = record["paths_sent"]
    assert primary["timeouts"] > 0 and second["bytes_sent"] > 2_000_000
