"""The sweep when runs fail, when it is interrupted, and when its cache or input is bad.

A small stand-in program, ``fake-sim``, plays the scenario programs' part in
a build folder of its own (``$RUDP_BUILD_DIR``): it follows their contract
(``--name=value`` options; with ``--output`` a JSON record with ``ok`` and
``failure``; exit 0 on success, 1 on a failed run with its record written,
2 on a bad parameter) and can also crash or sleep, so every way a run ends
is exercised in milliseconds and without the examples.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from rudp import paths
from rudp.runner import Value
from rudp.sweep import Grid, GridError, load_grids, plan, run_sweep
from rudp.sweep.cache import Cache, build_identity, point_key
from rudp.sweep.cli import main
from rudp.sweep.execute import Outcome
from rudp.sweep.figures import plot_estimates
from rudp.sweep.frame import load, to_frame
from rudp.sweep.grid import Point, expand
from rudp.sweep.presets import seed000, seed001, seed002, seed003
from rudp.sweep.presets.seed000 import report as seed000_report
from rudp.sweep.presets.seed001 import report as seed001_report
from rudp.sweep.presets.seed002 import report as seed002_report
from rudp.sweep.presets.seed003 import report as seed003_report
from rudp.sweep.stats import summarize

FAKE = "fake-sim"

FAKE_SOURCE = """#!{python}
# A stand-in for a scenario program (see test_sweep_faults.py).
import json, os, subprocess, sys
# What the program takes, printed as ns-3's CommandLine prints it.
if sys.argv[1:] == ["--PrintHelp"]:
    print("fake-sim [Program Options] [General Arguments]\\n")
    print("Program Options:")
    print("    --mode:    ok, fail, flaky, crash, slow or bad [ok]")
    print("    --x:       A number reported back [0]")
    print("    --output:  Write the metrics as JSON to this file\\n")
    print("General Arguments:")
    print("    --PrintGlobals:  Print the list of globals.")
    print("    --PrintHelp:     Print this help message.")
    sys.exit(0)
if sys.argv[1:] == ["--PrintGlobals"]:
    print("Global values:")
    print("    --RngRun=[1]\\n        The substream index used for all streams")
    print("    --RngSeed=[1]\\n        The global seed of all rng streams")
    sys.exit(0)
options = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
with open(os.environ["FAKE_SIM_LOG"], "a") as log:
    log.write(json.dumps(options) + "\\n")
mode, run = options.get("mode", "ok"), int(options.get("RngRun", "1"))
if mode == "bad":
    print("error: --mode: must be ok, fail, flaky, crash or slow", file=sys.stderr)
    sys.exit(2)
if mode == "crash":
    print("about to crash", file=sys.stderr, flush=True)
    os.abort()
if mode == "slow":
    # A grandchild too: stopping a run must stop its whole process group.
    child = subprocess.Popen(["sleep", os.environ.get("FAKE_SIM_SLEEP", "300")])
    with open(os.path.join(os.environ["FAKE_SIM_PIDS"], str(os.getpid())), "w") as pids:
        pids.write(f"{{os.getpid()}} {{child.pid}}")
    child.wait()
failed = mode == "fail" or (mode == "flaky" and run % 2 == 0)
record = {{
    "ok": not failed,
    "failure": "the receiver got 300 of 1000 bytes" if failed else "",
    "x": float(options.get("x", "0")),
    "bytes": 300 if failed else 1000,
    "throughput_kBps": 1.0 if failed else 100.0 + run,
}}
if "output" in options:
    with open(options["output"], "w") as output:
        json.dump(record, output)
if failed:
    print("error: transfer failed: the receiver got 300 of 1000 bytes", file=sys.stderr)
    sys.exit(1)
"""


@dataclass(frozen=True)
class Fake:
    """The stand-in's build folder, its log of runs and its folder of process ids."""

    build: Path
    log: Path
    pids: Path

    def executions(self) -> list[dict[str, str]]:
        if not self.log.is_file():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Fake]:
    build = tmp_path / "fake-build"
    (build / "bin").mkdir(parents=True)
    program = build / "bin" / FAKE
    program.write_text(FAKE_SOURCE.format(python=sys.executable))
    program.chmod(0o755)
    log, pids = tmp_path / "runs.log", tmp_path / "pids"
    pids.mkdir()
    monkeypatch.setenv("RUDP_BUILD_DIR", str(build))
    monkeypatch.setenv("FAKE_SIM_LOG", str(log))
    monkeypatch.setenv("FAKE_SIM_PIDS", str(pids))
    yield Fake(build, log, pids)
    # Whatever a failing test left running ends here, not 300 s later.
    for pid in [int(p) for f in pids.iterdir() for p in f.read_text().split()]:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def fake_grid(runs: int = 2, **axes: list[str | int | float]) -> Grid:
    return Grid(FAKE, {}, axes, runs, "fake")


# --- failed runs are rows ------------------------------------------------------------------


def test_a_failed_run_is_a_row_with_its_metrics_and_a_cached_result(fake: Fake) -> None:
    out = fake.build.parent / "out"
    frame = run_sweep(fake_grid(mode=["ok", "fail"]), out=out, progress=False, report=False)
    assert len(frame) == 4 and len(fake.executions()) == 4
    failed = frame[frame["mode"] == "fail"]
    assert list(failed["status"]) == ["failed", "failed"]
    assert list(failed["exit_status"]) == [1, 1]
    assert list(failed["error"]) == ["exit status 1: the receiver got 300 of 1000 bytes"] * 2
    # The metrics it could compute are kept: bytes delivered, its own failure reason.
    assert list(failed["bytes"]) == [300, 300]
    assert list(failed["failure"]) == ["the receiver got 300 of 1000 bytes"] * 2
    assert list(failed["ok"]) == [False, False]
    succeeded = frame[frame["mode"] == "ok"]
    assert list(succeeded["status"]) == ["ok", "ok"] and succeeded["error"].isna().all()
    assert frame.attrs["failed"] == 2 and frame.attrs["errors"] == 0

    # A reported failure is a deterministic result: cached, not run again.
    assert len(Cache(out / "cache")) == 4
    again = run_sweep(fake_grid(mode=["ok", "fail"]), out=out, progress=False, report=False)
    assert len(fake.executions()) == 4 and again.attrs["cached"] == 4
    pd.testing.assert_frame_equal(frame, again)
    assert load(out)["status"].tolist() == frame["status"].tolist()


def test_reported_failures_are_results_and_the_command_succeeds(
    fake: Fake, capsys: pytest.CaptureFixture[str]
) -> None:
    out = fake.build.parent / "out"
    assert main([FAKE, "--axis", "mode=ok,flaky", "--runs", "2", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "1 reported a failure" in err and "the receiver got 300 of 1000 bytes" in err


def test_runs_without_a_result_are_errors_never_cached(
    fake: Fake, capsys: pytest.CaptureFixture[str]
) -> None:
    out = fake.build.parent / "out"
    argv = [FAKE, "--axis", "mode=ok,crash,bad", "--out", str(out), "--quiet"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "killed by signal 6" in err and "exit status 2: error: --mode" in err
    frame = load(out)
    assert frame.set_index("mode")["status"].to_dict() == {
        "ok": "ok",
        "crash": "error",
        "bad": "error",
    }
    assert len(Cache(out / "cache")) == 1
    assert main(argv) == 1
    modes = sorted(run["mode"] for run in fake.executions())
    assert modes == ["bad", "bad", "crash", "crash", "ok"]


def test_the_summary_counts_successes_failures_and_runs_per_group() -> None:
    frame = pd.DataFrame(
        {
            "x": [1, 1, 1, 2, 2],
            "y": [10.0, 20.0, 1.0, 5.0, float("nan")],
            "status": ["ok", "ok", "failed", "failed", "error"],
        }
    )
    summary = summarize(frame, ["x"], "y").set_index("x")
    assert summary.loc[1, "mean"] == 15.0  # the failed run's 1.0 is not averaged in
    assert (summary.loc[1, "n"], summary.loc[1, "failed"], summary.loc[1, "runs"]) == (2, 1, 3)
    assert math.isnan(summary.loc[2, "mean"])
    assert (summary.loc[2, "n"], summary.loc[2, "failed"], summary.loc[2, "runs"]) == (0, 2, 2)


def test_a_figure_marks_the_failed_runs_beside_each_mean() -> None:
    frame = pd.DataFrame(
        {
            "x": [1, 1, 2, 2],
            "y": [10.0, 1.0, 1.0, 1.0],
            "status": ["ok", "failed", "failed", "error"],
        }
    )
    fig, ax = plt.subplots()
    plot_estimates(ax, frame, "x", "y", "series")
    texts = sorted(t.get_text() for t in ax.texts)
    plt.close(fig)
    assert texts == ["1/2 failed", "2/2 failed"]
    assert ax.get_legend_handles_labels()[1] == ["series (3 of 4 runs failed)"]


# --- the presets' reports with failed runs -------------------------------------------------


def _transfer(run: int, variant: str, loss: float, seconds: float | None) -> Outcome:
    """A seed 000 run: a transfer of ``seconds``, or a reported failure if None."""
    params: dict[str, Value] = {
        "delay": "0ms",
        "file": seed000.FILE,
        "loss": loss,
        "router": "delay",
        "rto": "2s",
        "rto-mode": "fixed",
        "variant": variant,
        "window": 30,
    }
    point = Point(seed000.PROGRAM, tuple(sorted(params.items())), run)
    if seconds is None:
        metrics = {"ok": False, "failure": "timeout", "transfer_time_s": 99.0}
        metrics["throughput_kBps"] = 1.0
        return Outcome(point, "cmd", metrics=metrics, error="exit status 1: x", exit_status=1)
    metrics = {"ok": True, "failure": "", "transfer_time_s": seconds}
    metrics["throughput_kBps"] = seed000.FILE_BYTES / seconds / 1000
    return Outcome(point, "cmd", metrics=metrics, exit_status=0)


def test_the_seed000_tables_give_the_failures_beside_the_means(tmp_path: Path) -> None:
    frame = to_frame(
        [
            _transfer(1, "stop-and-wait", 0.0, 1.0),
            _transfer(2, "stop-and-wait", 0.0, 3.0),
            _transfer(1, "stop-and-wait", 0.1, 20.0),
            _transfer(2, "stop-and-wait", 0.1, None),
            _transfer(1, "go-back-n", 0.1, None),
            _transfer(2, "go-back-n", 0.1, None),
            _transfer(1, "go-back-n", 0.0, 0.5),
            _transfer(2, "go-back-n", 0.0, 0.5),
        ]
    )
    seed000_report.write(frame, tmp_path)
    table = (tmp_path / "seed000-table1.md").read_text()
    saw = next(line for line in table.splitlines() if "| stop-and-wait | transfer time" in line)
    # 20 s is the one success at 10 %: the failed run's 99 s is not in its mean.
    assert saw == "| stop-and-wait | transfer time (s) | 2 ± 13 | 20 (1/2 failed) |"
    gbn = next(line for line in table.splitlines() if "| Go-Back-N, N = 30 | transfer" in line)
    assert gbn.endswith("| 0.5000 ± 0 | 2/2 failed |")
    assert "failed" in table.split("| series")[0]  # the caption says what the counts mean
    long = pd.read_csv(tmp_path / "seed000-table1.csv")
    cell = long[(long["series"] == "stop-and-wait") & (long["x"] == 10)].iloc[0]
    assert (cell["n"], cell["failed"], cell["runs"]) == (1, 1, 2)


def test_the_seed001_table_counts_failed_runs(tmp_path: Path) -> None:
    def run(number: int, transport: str, ok: bool) -> Outcome:
        params = (("packets", 10), ("payload", 1472), ("transport", transport))
        point = Point(seed001.PROGRAM, params, number)
        metrics = {"ok": ok, "throughput_Mbps": 100.0 if ok else 5.0, "lost_packets": 0}
        if ok:
            return Outcome(point, "cmd", metrics=metrics, exit_status=0)
        return Outcome(point, "cmd", metrics=metrics, error="exit status 1: x", exit_status=1)

    frame = to_frame([run(1, "udp", True), run(2, "udp", False), run(1, "tcp", True)])
    seed001_report.write(frame, tmp_path)
    table = (tmp_path / "seed001-summary.md").read_text()
    assert "| udp | 10 | 100 | 0 | 1/2 |" in table
    assert "| tcp | 10 | 100 | 0 | 0/1 |" in table


def test_the_seed002_error_table_counts_failed_runs(tmp_path: Path) -> None:
    def run(number: int, rtt: str, blocked: float | None) -> Outcome:
        params = (("loss", 0.01), ("paths", 2), ("rbuf", seed002.BOUNDED), ("rtt", rtt))
        point = Point(seed002.PROGRAM, params, number)
        if blocked is None:  # crashed: no metrics at all
            return Outcome(point, "cmd", error="killed by signal 6", exit_status=-6)
        metrics = {"ok": True, "throughput_Bps": 50000.0, "rtt_s": 0.12, "blocked_time_s": blocked}
        return Outcome(point, "cmd", metrics=metrics, exit_status=0)

    frame = to_frame([run(1, "120ms", 1.0), run(2, "120ms", None)])
    table = seed002_report.error_table(seed002_report._ours(frame))
    (row,) = table.itertuples()
    assert (row.n, row.failed, row.runs, row.mean) == (1, 1, 2, 50.0)
    seed002_report.write(frame, tmp_path)
    assert "| 1/2 |" in (tmp_path / "seed002-model-error.md").read_text()


def test_the_seed003_tables_count_failed_runs(tmp_path: Path) -> None:
    def run(number: int, flows: list[tuple[str, int, float]] | None) -> Outcome:
        option = "cubic@50ms,cubic@200ms" if flows is None or len(flows) == 2 else "cubic@50ms"
        params = (("flows", option), ("loss", 0), ("rate", "100Mbps"), ("transport", "tcp"))
        point = Point(seed003.PROGRAM, params, number)
        if flows is None:
            return Outcome(point, "cmd", error="timed out after 10 s")
        detail = [
            {"index": k, "algorithm": a, "rtt_s": rtt / 1e3, "throughput_bps": mbps * 1e6}
            for k, (a, rtt, mbps) in enumerate(flows)
        ]
        total = sum(mbps for *_, mbps in flows) * 1e6
        metrics = {"rate_bps": 100e6, "flows": detail, "utilization": total / 100e6}
        metrics["jain_index"] = 1.0
        return Outcome(point, "cmd", metrics=metrics, exit_status=0)

    frame = to_frame(
        [
            run(1, [("cubic", 50, 60.0), ("cubic", 200, 30.0)]),
            run(2, None),
            run(1, [("cubic", 50, 90.0)]),
        ]
    )
    flows = seed003_report.flow_rows(frame)
    fairness = seed003_report.fairness_table(flows, "high-bdp")
    (row,) = fairness.itertuples()
    assert (row.mean, row.n, row.failed, row.runs) == (2.0, 1, 1, 2)
    seed003_report.write(frame, tmp_path)
    md = (tmp_path / "seed003-table1-rtt-fairness-high-bdp.md").read_text()
    assert "| cubic | 2 (1/2 failed) |" in md


# --- interruption --------------------------------------------------------------------------


def _alive(pid: int) -> bool:
    """True if ``pid`` runs (a zombie, dead but not yet reaped, does not count)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("how", ["SIGINT to the process group", "SIGINT to the sweep", "SIGTERM"])
def test_an_interrupted_sweep_stops_its_runs_keeps_what_finished_and_resumes(
    fake: Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text(f'program = "{FAKE}"\n[axes]\nmode = ["ok", "slow"]\nx = [1, 2, 3]\n')
    out, scratch = tmp_path / "out", tmp_path / "scratch"
    scratch.mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": str(paths.REPO_ROOT / "python"),
        "TMPDIR": str(scratch),
    }
    argv = [sys.executable, "-m", "rudp.sweep", str(grid), "--out", str(out), "--jobs", "4"]
    # A user's Ctrl-C reaches a sweep that handles SIGINT, also when this
    # test runs in the background of a non-interactive shell (make test
    # under nohup or `&`), which starts it with SIGINT ignored: an ignored
    # signal stays ignored across exec, and the sweep, as it should, leaves
    # it so. A handled one is reset to its default in the child.
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        sweep = subprocess.Popen(
            argv, env=env, stderr=subprocess.PIPE, text=True, start_new_session=True
        )
    finally:
        signal.signal(signal.SIGINT, inherited)
    try:
        cache = Cache(out / "cache")
        # The three fast runs finish; the three slow ones are running.
        assert _wait_for(lambda: len(cache) == 3 and len(list(fake.pids.iterdir())) == 3, 60)
        pids = [int(p) for f in fake.pids.iterdir() for p in f.read_text().split()]
        assert all(_alive(pid) for pid in pids)
        started = time.monotonic()
        if how == "SIGINT to the process group":
            os.killpg(sweep.pid, signal.SIGINT)
        else:
            sweep.send_signal(signal.SIGINT if how == "SIGINT to the sweep" else signal.SIGTERM)
        _, err = sweep.communicate(timeout=30)
        elapsed = time.monotonic() - started
    finally:
        if sweep.poll() is None:
            os.killpg(sweep.pid, signal.SIGKILL)
            sweep.wait()
    assert elapsed < 10, f"took {elapsed:.1f} s to stop"
    assert sweep.returncode == (143 if how == "SIGTERM" else 130), err
    assert "3 of 6 runs are in the cache" in err and "run the same command again" in err, err
    assert _wait_for(lambda: not any(_alive(pid) for pid in pids), 5), "a run survived"
    assert list(scratch.iterdir()) == [], "temporary run folders left behind"
    assert len(cache) == 3 and not list((out / "cache").glob(".*"))

    # The same command again runs the three that did not finish, and only them.
    monkeypatch.setenv("FAKE_SIM_SLEEP", "0")
    assert main([str(grid), "--out", str(out), "--quiet"]) == 0
    modes = sorted(run["mode"] for run in fake.executions())
    assert modes == ["ok"] * 3 + ["slow"] * 6
    frame = load(out)
    assert len(frame) == 6 and (frame["status"] == "ok").all()


def test_runs_that_finish_while_the_sweep_stops_are_cached(fake: Fake, tmp_path: Path) -> None:
    # The consumer stops after the first result; the others finished meanwhile.
    from rudp.sweep.pool import run_local  # noqa: PLC0415

    points = expand([fake_grid(runs=1, x=[1, 2, 3, 4])])
    finished: list[int] = []
    runs = run_local(points, jobs=4, on_finish=lambda i, outcome: finished.append(i))
    next(runs)
    assert _wait_for(lambda: len(finished) == 4, 30)
    runs.close()
    assert sorted(finished) == [0, 1, 2, 3]


# --- the cache -----------------------------------------------------------------------------


def _only_key() -> str:
    (point,) = expand([fake_grid(runs=1)])
    build = build_identity(paths.program(FAKE))
    return point_key(point, build)


@pytest.mark.parametrize(
    "stored",
    [
        '{{"key": "{key}"}}',
        '{{"key": "{key}", "command": "x", "metrics": {{"ok": tru',
        '{{"key": "{key}", "command": 3, "metrics": {{}}}}',
        '{{"key": "{key}", "command": "x", "metrics": [1, 2]}}',
        '{{"key": "{key}", "command": "x", "metrics": {{}}, "seconds": "soon"}}',
        '{{"key": "{key}", "command": "x", "metrics": {{}}, "exit_status": 1.5}}',
        '{{"key": "{key}", "command": "x", "metrics": {{}}, "error": "x"}}',
        '["{key}"]',
        b'{"key": "\xff\xfe"}',
    ],
    ids=[
        "key only",
        "truncated",
        "command not a string",
        "metrics not an object",
        "seconds not a number",
        "exit status not an integer",
        "an error, not a result",
        "not an object",
        "not UTF-8",
    ],
)
def test_a_corrupt_or_incomplete_cache_record_is_run_again(
    fake: Fake, tmp_path: Path, stored: str | bytes
) -> None:
    out = tmp_path / "out"
    key = _only_key()
    (out / "cache").mkdir(parents=True)
    record = out / "cache" / f"{key}.json"
    if isinstance(stored, bytes):
        record.write_bytes(stored)
    else:
        record.write_text(stored.format(key=key))
    frame = run_sweep(fake_grid(runs=1), out=out, progress=False, report=False)
    assert len(fake.executions()) == 1 and frame.attrs["executed"] == 1
    assert (frame["status"] == "ok").all()
    assert Cache(out / "cache").get(key) is not None
    # The dry run agrees that the point is cached now.
    assert main([FAKE, "--runs", "1", "--out", str(out), "--dry-run"]) == 0


def test_orphaned_temporary_files_are_removed_and_writes_are_synced(
    fake: Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "out" / "cache"
    cache.mkdir(parents=True)
    dead = subprocess.Popen(["true"])
    dead.wait()
    orphan = cache / f".abc.{os.uname().nodename}.{dead.pid}.1.tmp"
    orphan.write_text("{")
    old = cache / ".def.elsewhere.1.1.tmp"
    old.write_text("{")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    young = cache / ".ghi.elsewhere.1.1.tmp"  # another machine's sweep, writing now
    young.write_text("{")

    synced: list[int] = []
    replaced: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    def replace(source: str | Path, target: str | Path) -> None:
        assert synced, "renamed before the data reached the disk"
        replaced.append(str(target))
        real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    run_sweep(fake_grid(runs=1), out=tmp_path / "out", progress=False, report=False)
    assert not orphan.exists() and not old.exists() and young.exists()
    # The run's record (and the folder's .written.json stamp) replaced whole.
    records = [target for target in replaced if Path(target).parent.name == "cache"]
    assert len(records) == 1 and len(synced) >= 1


def test_the_cache_key_covers_the_environment_that_changes_results(
    fake: Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    run_sweep(fake_grid(runs=1), out=out, progress=False, report=False)
    monkeypatch.setenv("NS_GLOBAL_VALUE", "RngSeed=7")
    run_sweep(fake_grid(runs=1), out=out, progress=False, report=False)
    monkeypatch.setenv("NS_ATTRIBUTE_DEFAULT", "ns3::RudpSocket::WindowSize=5")
    run_sweep(fake_grid(runs=1), out=out, progress=False, report=False)
    assert len(fake.executions()) == 3
    monkeypatch.delenv("NS_GLOBAL_VALUE")
    monkeypatch.delenv("NS_ATTRIBUTE_DEFAULT")
    run_sweep(fake_grid(runs=1), out=out, progress=False, report=False)
    assert len(fake.executions()) == 3  # the first result again
    # Without those variables, keys are those of earlier versions: old caches stay valid.
    (point,) = expand([fake_grid(runs=1)])
    canonical = json.dumps(
        {"program": FAKE, "build": "b", "params": point.args, "run": 1}, sort_keys=True
    )
    import hashlib  # noqa: PLC0415

    assert point_key(point, "b") == hashlib.sha256(canonical.encode()).hexdigest()


# --- grid files and the command line -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('program = "p"\nruns = true\n', "'runs' must be an integer"),
        ('program = "p"\n[quick]\nruns = "two"\n', "quick.runs"),
        ('program = "p"\n[quick]\nrepeat = 2\n', r"\[quick\] takes only"),
        ('program = "../../bin/sh"\n', "bare program name"),
        ('program = "/bin/sh"\n', "bare program name"),
        ('program = ""\n', "bare program name"),
        (
            'program = "p"\n[axes]\na = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n'
            "b = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nc = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
            "d = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\ne = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
            "f = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\ng = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n",
            "too many runs",
        ),
    ],
    ids=[
        "runs true",
        "quick runs",
        "quick key",
        "relative path",
        "absolute path",
        "empty",
        "10^7 runs",
    ],
)
def test_grid_files_are_checked_whole(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(GridError, match=message):
        load_grids(path)


def test_an_unreadable_grid_file_is_a_grid_error(tmp_path: Path) -> None:
    with pytest.raises(GridError, match=r"no-such\.toml"):
        load_grids(tmp_path / "no-such.toml")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b'program = "p\xff"\n')
    with pytest.raises(GridError, match="UTF-8"):
        load_grids(binary)
    with pytest.raises(GridError, match="bare program name"):
        Grid("../x")


@pytest.mark.parametrize(
    "option",
    [
        ["--jobs", "0"],
        ["--jobs", "-1"],
        ["--timeout", "0"],
        ["--timeout", "-5"],
        ["--timeout", "nan"],
        ["--runs", "0"],
    ],
)
def test_nonsense_counts_and_limits_are_usage_errors(
    option: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["seed000", "--quick", "--dry-run", *option])
    assert done.value.code == 2
    assert option[0] in capsys.readouterr().err


def test_run_sweep_refuses_nonsense_counts_and_limits(fake: Fake, tmp_path: Path) -> None:
    for bad in ({"jobs": 0}, {"jobs": -1}, {"timeout_s": 0.0}, {"timeout_s": float("inf")}):
        with pytest.raises(ValueError, match=r"jobs|timeout"):
            run_sweep(fake_grid(runs=1), out=tmp_path, progress=False, **bad)
    assert fake.executions() == []


# --- parameters checked against the program, before anything runs ------------------------


def test_a_misspelt_parameter_is_refused_before_anything_runs(fake: Fake, tmp_path: Path) -> None:
    with pytest.raises(GridError, match=r"'mod'.*has no option 'mod' \(did you mean 'mode'\?\)"):
        run_sweep(fake_grid(mod=["ok", "fail"]), out=tmp_path, progress=False)
    # An override is a parameter like any other; ns-3's globals are taken.
    with pytest.raises(GridError, match=r"'y': fake-sim has no option 'y'"):
        run_sweep(fake_grid(mode=["ok"]), fixed={"y": 1}, out=tmp_path, progress=False)
    assert fake.executions() == [] and not (tmp_path / "cache").exists()
    frame = run_sweep(fake_grid(runs=1, RngSeed=[3]), out=tmp_path, progress=False, report=False)
    assert frame.attrs["executed"] == 1 and len(fake.executions()) == 1


def test_the_command_line_and_its_dry_run_refuse_an_unknown_parameter(
    fake: Fake, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for dry in ([], ["--dry-run"]):
        argv = [FAKE, "--axis", "mode=ok", "--axis", "xx=1,2", "--out", str(tmp_path), *dry]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "unknown parameter(s), nothing was run" in err
        assert "'xx': fake-sim has no option 'xx' (did you mean 'x'?)" in err
        assert "--PrintHelp lists" in err
    assert fake.executions() == []


def test_a_program_that_cannot_list_its_options_is_refused(fake: Fake, tmp_path: Path) -> None:
    mute = fake.build / "bin" / "mute-sim"
    mute.write_text(f"#!{sys.executable}\nimport sys\nprint('no help here', file=sys.stderr)\n")
    mute.chmod(0o755)
    with pytest.raises(GridError, match=r"mute-sim --PrintHelp exited with status 0"):
        run_sweep(Grid("mute-sim", {}, {"x": [1]}), out=tmp_path, progress=False)


def test_the_dry_run_and_the_sweep_read_the_cache_through_one_plan_status(
    fake: Fake, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    run_sweep(fake_grid(runs=1, mode=["ok", "fail"]), out=out, progress=False, report=False)
    status = plan(fake_grid(runs=2, mode=["ok", "fail"])).status(Cache(out / "cache"))
    assert (status.cached, status.missing) == (2, [1, 3])
    assert [o is not None and o.cached for o in status.outcomes] == [True, False, True, False]
    argv = [FAKE, "--axis", "mode=ok,fail", "--runs", "2", "--out", str(out), "--dry-run"]
    assert main(argv) == 0
    assert "fake-sim: 1 grid(s), 4 runs, 2 cached, 2 to run" in capsys.readouterr().out
    assert main([*argv, "--no-cache"]) == 0
    assert "4 runs, 0 cached, 4 to run" in capsys.readouterr().out
    frame = run_sweep(fake_grid(runs=2, mode=["ok", "fail"]), out=out, progress=False)
    assert (frame.attrs["cached"], frame.attrs["executed"]) == (2, 2)


# --- nothing rewritten or redrawn when nothing changed -------------------------------------


def test_a_cached_rerun_rewrites_and_redraws_nothing(
    fake: Fake, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = fake.build.parent / "out"
    first = run_sweep(fake_grid(x=[1, 2]), out=out, progress=False)
    written = [Path(p) for p in first.attrs["written"]]
    assert len(written) >= 2 and not first.attrs["unchanged"]  # results and a figure
    states = {p: p.stat().st_mtime_ns for p in written}

    from rudp.sweep import manager  # noqa: PLC0415 - the module whose writer is spied on

    def refuse(*args: object, **kwargs: object) -> Path:
        raise AssertionError("the results were written again")

    with monkeypatch.context() as spied:
        spied.setattr(manager, "save", refuse)
        again = run_sweep(fake_grid(x=[1, 2]), out=out, progress=False)
    assert again.attrs["unchanged"] and again.attrs["cached"] == 4
    assert [Path(p) for p in again.attrs["written"]] == written
    assert {p: p.stat().st_mtime_ns for p in written} == states
    pd.testing.assert_frame_equal(first, again)

    # A figure removed by hand is drawn again; so is everything after a new run.
    figure = next(p for p in written if p.suffix == ".png")
    figure.unlink()
    redrawn = run_sweep(fake_grid(x=[1, 2]), out=out, progress=False)
    assert not redrawn.attrs["unchanged"] and figure.is_file()
    more = run_sweep(fake_grid(x=[1, 2, 3]), out=out, progress=False)
    assert not more.attrs["unchanged"] and more.attrs["executed"] == 2
    # Without a report the same results are other files: written again, then kept.
    bare = run_sweep(fake_grid(x=[1, 2, 3]), out=out, progress=False, report=False)
    assert not bare.attrs["unchanged"]
    assert run_sweep(fake_grid(x=[1, 2, 3]), out=out, progress=False, report=False).attrs[
        "unchanged"
    ]
