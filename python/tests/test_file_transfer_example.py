"""rudp-file-transfer as users and sweeps call it: metrics, failures, bad input."""

from __future__ import annotations

import subprocess

import pytest

from rudp import paths
from rudp.runner import ScenarioError, Value, run_scenario

pytestmark = pytest.mark.skipif(
    not (paths.build_dir() / "bin" / "rudp-file-transfer").is_file(),
    reason="the examples are not built (make setup)",
)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(paths.program("rudp-file-transfer")), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


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


def test_corruption_is_caught_by_the_checksum() -> None:
    metrics = run_scenario("rudp-file-transfer", {"corruption": 0.05, "size": 300000})
    assert metrics["checksum_errors"] > 0
    assert metrics["sha256_match"] is True


def test_a_failed_transfer_exits_non_zero_with_a_message() -> None:
    with pytest.raises(ScenarioError) as failure:
        run_scenario("rudp-file-transfer", {"loss": 1.0, "size": 1000})
    assert failure.value.returncode == 1
    assert "transfer failed" in failure.value.stderr


@pytest.mark.parametrize(
    ("argument", "named"),
    [
        ("--window=0", "--window"),
        ("--loss=1.5", "--loss"),
        ("--variant=vegas", "--variant"),
        ("--rto-mode=sometimes", "--rto-mode"),
        ("--mss=2000", "--mss"),
        ("--file=no-such-file.bin", "--file"),
    ],
)
def test_bad_input_names_the_parameter(argument: str, named: str) -> None:
    done = _run(argument)
    assert done.returncode == 2
    assert named in done.stderr


def test_same_run_same_numbers_and_another_run_differs() -> None:
    params: dict[str, Value] = {"variant": "reno", "loss": 0.05, "size": 200000}
    first = run_scenario("rudp-file-transfer", {**params, "RngRun": 1})
    again = run_scenario("rudp-file-transfer", {**params, "RngRun": 1})
    other = run_scenario("rudp-file-transfer", {**params, "RngRun": 2})
    assert first == again
    assert first["transfer_time_s"] != other["transfer_time_s"]
