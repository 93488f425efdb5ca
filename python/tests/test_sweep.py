"""The sweep tool: grids, cache and resume, failures, results, figures, Dask.

Grids here are tiny (20 kB transfers, a handful of points) so the file runs
in well under a minute on two cores.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from distributed import LocalCluster

from rudp import paths
from rudp.runner import Value, run_scenario
from rudp.sweep import Grid, GridError, expand, load_grids, plan, run_sweep
from rudp.sweep import execute as execute_module
from rudp.sweep.cache import Cache, build_identity, point_key
from rudp.sweep.cli import main
from rudp.sweep.execute import Outcome
from rudp.sweep.figures import histogram_cdf
from rudp.sweep.frame import load, save, to_frame
from rudp.sweep.grid import Point
from rudp.sweep.presets import seed000, seed001
from rudp.sweep.presets.seed003 import report as seed003
from rudp.sweep.stats import ci_half_width

PROGRAM = "rudp-file-transfer"
needs_file_transfer = pytest.mark.skipif(
    not (paths.build_dir() / "bin" / PROGRAM).is_file(),
    reason="the examples are not built (make setup)",
)
needs_tcp_vs_udp = pytest.mark.skipif(
    not (paths.build_dir() / "bin" / "rudp-tcp-vs-udp").is_file(),
    reason="rudp-tcp-vs-udp is not built",
)


def tiny(runs: int = 2, **axes: list[Value]) -> Grid:
    """Go-Back-N and Reno moving 20 kB over a lossy link: milliseconds a run."""
    return Grid(
        PROGRAM,
        {"size": 20000, "window": 10},
        {"variant": ["go-back-n", "reno"], "loss": [0.0, 0.05], **axes},
        runs,
        "tiny",
    )


class Counter:
    """Counts the program runs the sweep really starts."""

    def __init__(self) -> None:
        self.calls = 0
        self._lock = threading.Lock()

    def __call__(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        with self._lock:
            self.calls += 1
        return self._real(*args, **kwargs)

    _real = staticmethod(run_scenario)


@pytest.fixture
def executions(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter]:
    counter = Counter()
    monkeypatch.setattr(execute_module, "run_scenario", counter)
    yield counter


# --- grids ---------------------------------------------------------------------------------


def test_a_grid_is_the_product_of_its_axes_times_runs() -> None:
    points = expand([tiny(runs=3)])
    assert len(points) == 2 * 2 * 3
    assert {p.run for p in points} == {1, 2, 3}
    assert {dict(p.params)["variant"] for p in points} == {"go-back-n", "reno"}
    assert all(dict(p.params)["size"] == 20000 for p in points)


def test_points_shared_between_grids_run_once() -> None:
    loss = Grid(PROGRAM, {"delay": "0ms"}, {"loss": [0.0, 0.1]}, 2)
    delay = Grid(PROGRAM, {"loss": 0.0}, {"delay": ["0ms", "20ms"]}, 2)
    points = expand([loss, delay])
    # (loss 0, delay 0) is in both grids: 3 distinct points, 2 runs each.
    assert len(points) == 3 * 2


def test_grid_files_with_several_grids_and_a_quick_size(tmp_path: Path) -> None:
    path = tmp_path / "grid.toml"
    path.write_text(
        """
program = "rudp-file-transfer"
runs = 4
[fixed]
file = "1.jpg"
[[grid]]
name = "loss"
axes = { variant = ["stop-and-wait", "go-back-n"], loss = [0.0, 0.02, 0.04] }
[[grid]]
name = "delay"
runs = 2
fixed = { loss = 0.0 }
axes = { delay = ["0ms", "20ms"] }
[quick]
runs = 1
axes = { loss = [0.0] }
"""
    )
    full = load_grids(path)
    assert [g.name for g in full] == ["loss", "delay"]
    assert full[0].runs == 4 and full[1].runs == 2
    assert full[1].fixed == {"file": "1.jpg", "loss": 0.0}
    assert len(expand(full)) == 2 * 3 * 4 + 2 * 2
    quick = load_grids(path, quick=True)
    assert all(g.runs == 1 for g in quick)
    # The quick axis replaces the fixed loss of the delay grid as well.
    assert all(g.axes["loss"] == [0.0] for g in quick)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("runs = 2\n[axes]\nloss = [0.0]\n", "'program'"),
        ('program = "p"\n[axes]\nloss = 0.1\n', "must be a list"),
        ('program = "p"\n[fixed]\nRngRun = 3\n', "RngRun"),
        ('program = "p"\nrun = 3\n', "unknown key"),
    ],
)
def test_malformed_grid_files_say_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(GridError, match=message):
        load_grids(path)


def test_overrides_replace_axes_and_fixed_values() -> None:
    grid = tiny().with_overrides(runs=5, fixed={"loss": 0.1}, axes={"window": [5, 30]})
    assert grid.runs == 5
    assert "loss" not in grid.axes and grid.fixed["loss"] == 0.1
    assert "window" not in grid.fixed and grid.axes["window"] == [5, 30]


# --- cache and resume ----------------------------------------------------------------------


@needs_file_transfer
def test_a_second_run_executes_nothing_and_gives_the_same_frame(
    tmp_path: Path, executions: Counter
) -> None:
    first = run_sweep(tiny(), out=tmp_path, jobs=2, progress=False, report=False)
    assert executions.calls == len(first) == 8
    assert first.attrs["executed"] == 8 and first.attrs["cached"] == 0
    assert len(Cache(tmp_path / "cache")) == 8

    again = run_sweep(tiny(), out=tmp_path, jobs=2, progress=False, report=False)
    assert executions.calls == 8
    assert again.attrs["executed"] == 0 and again.attrs["cached"] == 8
    pd.testing.assert_frame_equal(first, again)

    # A third run per point: only the new runs execute.
    more = run_sweep(tiny(runs=3), out=tmp_path, jobs=2, progress=False, report=False)
    assert executions.calls == 8 + 4
    assert more.attrs["executed"] == 4 and len(more) == 12


@needs_file_transfer
def test_cached_only_reports_the_runs_so_far_and_runs_nothing(
    tmp_path: Path, executions: Counter
) -> None:
    first = run_sweep(tiny(), out=tmp_path, jobs=2, progress=False, report=False)
    so_far = run_sweep(
        tiny(runs=3), out=tmp_path, jobs=2, progress=False, report=False, cached_only=True
    )
    assert executions.calls == 8
    assert so_far.attrs["cached"] == 8 and so_far.attrs["missing"] == 4
    assert so_far.attrs["executed"] == 0
    pd.testing.assert_frame_equal(first, so_far)
    with pytest.raises(GridError, match="cached_only"):
        run_sweep(tiny(), out=tmp_path, use_cache=False, cached_only=True, progress=False)


def test_the_build_identity_follows_the_programs_bytes(tmp_path: Path) -> None:
    program = tmp_path / "program"
    program.write_bytes(b"one build")
    before = build_identity(program)
    assert build_identity(program) == before
    program.write_bytes(b"another build")
    after = build_identity(program)
    assert after != before
    point = expand([tiny(runs=1)])[0]
    assert point_key(point, before) != point_key(point, after)


# --- failures ------------------------------------------------------------------------------


@needs_file_transfer
def test_a_bad_parameter_fails_its_row_and_the_command(
    tmp_path: Path, executions: Counter, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [PROGRAM, "--axis", "window=0,10", "--set", "size=20000", "--out", str(tmp_path)]
    assert main([*argv, "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "1 of 2 runs FAILED" in err and "--window=0" in err and "must be in" in err

    frame = load(tmp_path)
    failed = frame[frame["window"] == 0].iloc[0]
    assert failed["exit_status"] == 2
    assert failed["error"].startswith("exit status 2")
    assert "--window" in failed["stderr"]
    assert "--window=0" in failed["command"] and "--RngRun=1" in failed["command"]
    assert pd.isna(failed["transfer_time_s"])
    ok = frame[frame["window"] == 10].iloc[0]
    assert pd.isna(ok["error"]) and ok["exit_status"] == 0 and ok["transfer_time_s"] > 0

    # Failures are not cached: the next sweep retries exactly that run.
    calls = executions.calls
    assert main([*argv, "--quiet"]) == 1
    assert executions.calls == calls + 1


@pytest.mark.programs(PROGRAM)
def test_parameters_are_checked_against_the_programs_own_help(
    tmp_path: Path, executions: Counter
) -> None:
    with pytest.raises(GridError, match=r"'los': rudp-file-transfer has no option 'los' \(did"):
        run_sweep(Grid(PROGRAM, {}, {"los": [0.1]}, 3), out=tmp_path, progress=False)
    fixed: dict[str, Value] = {
        "ns3::RudpSocket::Checksum": "Crc32c",  # an attribute default
        "RngSeed": 2,  # a global value
        "ns3::RudpSocket::Bogus": 1,
        "ns3::Nope::X": 1,
    }
    with pytest.raises(GridError) as refused:
        plan(Grid(PROGRAM, fixed, {"loss": [0.0]}))
    message = str(refused.value)
    assert "ns3::RudpSocket has no attribute 'Bogus'" in message
    assert "no TypeId 'ns3::Nope' in rudp-file-transfer" in message
    assert "Checksum" not in message and "RngSeed" not in message
    assert executions.calls == 0 and not (tmp_path / "cache").exists()


def test_a_missing_program_is_a_failed_row_not_a_crash(tmp_path: Path) -> None:
    grid = Grid("rudp-no-such-program", {}, {"x": [1, 2]}, 1)
    frame = run_sweep(grid, out=tmp_path, progress=False)
    assert list(frame["error"].str.contains("does not exist")) == [True, True]
    assert frame.attrs["failed"] == 2


# --- results -------------------------------------------------------------------------------


@needs_file_transfer
def test_the_frame_has_a_row_per_point_and_run_with_parameters_and_metrics(
    tmp_path: Path,
) -> None:
    frame = run_sweep(tiny(), out=tmp_path, progress=False, report=False)
    assert len(frame) == 8
    assert list(frame.columns[:3]) == ["program", "loss", "size"]
    for column in ("variant", "window", "run", "transfer_time_s", "throughput_kBps"):
        assert column in frame.columns
    trailing = ["status", "error", "exit_status", "stderr", "command", "build"]
    assert list(frame.columns[-6:]) == trailing
    assert (frame["status"] == "ok").all()
    assert frame["error"].isna().all() and (frame["exit_status"] == 0).all()
    assert (frame["bytes"] == 20000).all() and frame["sha256_match"].all()
    # RngRun reaches the program: the two runs of a lossy point differ.
    lossy = frame[(frame["loss"] == 0.05) & (frame["variant"] == "reno")]
    assert list(lossy["run"]) == [1, 2] and list(lossy["rng_run"]) == [1, 2]
    assert lossy["segments_sent"].nunique() == 2 or lossy["transfer_time_s"].nunique() == 2
    # Read back, text columns come as pandas' string dtype: the values are the same.
    pd.testing.assert_frame_equal(load(tmp_path / "results.parquet"), frame, check_dtype=False)
    assert frame["error"].map(lambda e: e is None).all()

    as_csv = run_sweep(tiny(), out=tmp_path, fmt="csv", progress=False, report=False)
    assert (tmp_path / "results.csv").is_file()
    assert len(pd.read_csv(tmp_path / "results.csv")) == len(as_csv)


def test_a_metric_named_like_a_parameter_keeps_the_parameter_and_its_detail(
    tmp_path: Path,
) -> None:
    point = Point("rudp-cc-comparison", (("flows", "cubic@50ms,veno@200ms"),), 1)
    flows = [
        {"algorithm": "cubic", "throughput_bps": 6e6},
        {"algorithm": "veno", "throughput_bps": 3e6},
    ]
    ran = Outcome(point, "cmd", metrics={"flows": flows, "utilization": 0.9}, exit_status=0)
    failed = Outcome(Point(point.program, point.params, 2), "cmd", error="exit status 1")
    frame = to_frame([ran, failed])
    assert list(frame["flows"]) == ["cubic@50ms,veno@200ms"] * 2
    assert frame["flows_metrics"][0] == flows and list(frame["flows_metrics"].isna()) == [
        False,
        True,
    ]
    assert list(frame["utilization"][:1]) == [0.9]
    back = load(save(frame, tmp_path))
    assert [f["throughput_bps"] for f in back["flows_metrics"][0]] == [6e6, 3e6]


def _assert_pngs(paths_: list[Path]) -> None:
    for path in paths_:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path
        assert path.stat().st_size > 20000, path  # a drawn figure, not an empty canvas


@needs_file_transfer
def test_the_seed000_preset_writes_its_tables_and_figures(tmp_path: Path) -> None:
    frame = run_sweep("seed000", quick=True, out=tmp_path, fixed={"size": 20000}, progress=False)
    assert frame.attrs["failed"] == 0
    assert set(frame["router"]) == {"none", "delay", "sleeping"}
    assert set(frame["link"].dropna()) == {"p2p"}  # the loopback-like path
    _assert_pngs([tmp_path / f"seed000-figure{n}.png" for n in range(3, 9)])
    _assert_pngs([tmp_path / "seed000-implied-size.png"])
    for n in range(1, 7):
        table = pd.read_csv(tmp_path / f"seed000-table{n}.csv")
        assert set(table["router"]) == {"none", "delay", "sleeping", "loopback"}
        assert (table["n"] == seed000.QUICK_RUNS).all()
        markdown = (tmp_path / f"seed000-table{n}.md").read_text()
        assert f"Table {n} (seed 000)" in markdown and "(seed 000) |" in markdown
        assert "**path: loopback (sleeping router, p2p links of 24Mbps" in markdown
    assert "± " in (tmp_path / "seed000-table1.md").read_text()
    assert "| 1454 B, T = 2 s (as stated) |" in (tmp_path / "seed000-implied.md").read_text()


@needs_file_transfer
def test_the_design_cards_sweep_draws_a_heat_map_per_variant_and_link(tmp_path: Path) -> None:
    frame = run_sweep("seed000-loss-delay", quick=True, out=tmp_path, progress=False)
    assert frame.attrs["failed"] == 0
    _assert_pngs([tmp_path / "seed000-loss-delay.png"])
    long = pd.read_csv(tmp_path / "seed000-loss-delay.csv")
    assert len(long) == 2 * 3 * 2 * 2 and (long["runs"] == 3).all()
    cell = long.set_index(["link", "variant", "loss_pct", "delay_ms"])["mean"]
    for variant in ("stop-and-wait", "go-back-n", "reno"):
        # Without delay the links differ little; at 20 ms the CSMA channel,
        # busy while each frame propagates, carries one frame per 20 ms, and
        # a window loses most of what a point-to-point link gives it.
        assert cell["csma", variant, 0, 20] <= cell["p2p", variant, 0, 20] * 1.05
        assert cell["csma", variant, 5, 20] < cell["csma", variant, 0, 20]
    assert cell["csma", "go-back-n", 0, 20] * 3 < cell["p2p", "go-back-n", 0, 20]
    markdown = (tmp_path / "seed000-loss-delay.md").read_text()
    assert "**link: point-to-point" in markdown and "100000 generated bytes" in markdown


@needs_tcp_vs_udp
def test_the_seed001_preset_writes_its_figures_and_cdfs(tmp_path: Path) -> None:
    frame = run_sweep(
        "seed001", quick=True, out=tmp_path, axes={"packets": [10, 100]}, progress=False
    )
    assert frame.attrs["failed"] == 0 and len(frame) == 5 * 2 * seed001.QUICK_RUNS
    stems = ("throughput", "delay", "jitter", "loss", "delay-cdf", "jitter-cdf")
    _assert_pngs([tmp_path / f"seed001-{stem}.png" for stem in stems])
    assert "| udp | 100 |" in (tmp_path / "seed001-summary.md").read_text()


@needs_file_transfer
def test_a_grid_of_ones_own_gets_a_figure(tmp_path: Path) -> None:
    run_sweep(tiny(), out=tmp_path, progress=False)
    _assert_pngs([tmp_path / "tiny.png"])


# --- Dask ----------------------------------------------------------------------------------


@needs_file_transfer
def test_a_dask_cluster_gives_the_same_results_as_the_local_pool(tmp_path: Path) -> None:
    local = run_sweep(tiny(), out=tmp_path / "local", jobs=2, progress=False, report=False)
    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = run_sweep(
            tiny(),
            out=tmp_path / "dask",
            scheduler=cluster.scheduler_address,
            progress=False,
            report=False,
        )
    assert remote.attrs["executed"] == len(remote) == 8
    pd.testing.assert_frame_equal(local, remote)


# --- pieces --------------------------------------------------------------------------------


def test_the_confidence_interval_is_students_t() -> None:
    # n = 3, s = 1: t(0.975, 2) = 4.3027 -> 4.3027 / sqrt(3)
    assert ci_half_width(pd.Series([1.0, 2.0, 3.0])) == pytest.approx(2.4841, abs=1e-4)
    assert pd.isna(ci_half_width(pd.Series([5.0])))


def test_a_cdf_pools_histograms_given_by_edges_or_by_bin_starts() -> None:
    x, cdf = histogram_cdf([[0.0, 1.0, 2.0], [0.0, 1.0]], [[1, 3], [2, 2]])
    assert list(x) == [1.0, 2.0]
    assert list(cdf) == pytest.approx([3 / 8, 1.0])


def test_the_command_line_explains_itself(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for words in ("seed000", "seed001", "--scheduler", "[axes]", "exit with status 1"):
        assert words in out


@needs_file_transfer
def test_a_dry_run_lists_what_would_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], executions: Counter
) -> None:
    assert main(["seed000", "--quick", "--dry-run", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "seed000-quick: 12 grid(s), 504 runs, 0 cached, 504 to run" in out
    assert "--router=" in out and executions.calls == 0


def test_an_unknown_spec_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["no-such-preset-or-file.toml"]) == 2
    assert "not a preset" in capsys.readouterr().err


def _cc_outcome(
    run: int, transport: str, loss: float, rate: str, flows: list[tuple[str, int, float]]
) -> Outcome:
    """A rudp-cc-comparison run as the sweep stores it: (algorithm, RTT ms, Mbit/s) per flow."""
    option = ",".join(f"{a}@{rtt}ms" for a, rtt, _ in flows)
    params = (("flows", option), ("loss", loss), ("rate", rate), ("transport", transport))
    rate_bps = 100e6 if rate == "100Mbps" else 10e6
    detail = [
        {"index": k, "algorithm": a, "rtt_s": rtt / 1e3, "throughput_bps": mbps * 1e6}
        for k, (a, rtt, mbps) in enumerate(flows)
    ]
    total = sum(mbps for _, _, mbps in flows) * 1e6
    metrics = {
        "rate_bps": rate_bps,
        "flows": detail,
        "utilization": total / rate_bps,
        "jain_index": total**2 / (len(flows) * sum((m * 1e6) ** 2 for *_, m in flows)),
    }
    return Outcome(Point("rudp-cc-comparison", params, run), "cmd", metrics=metrics, exit_status=0)


def test_the_seed003_report_reads_fairness_friendliness_and_utilisation(tmp_path: Path) -> None:
    outcomes = [
        _cc_outcome(1, "tcp", 0, "100Mbps", [("cubic", 50, 90.0)]),
        _cc_outcome(1, "tcp", 0, "100Mbps", [("veno", 50, 45.0)]),
        _cc_outcome(1, "tcp", 0.01, "10Mbps", [("veno", 50, 8.0)]),
        _cc_outcome(1, "tcp", 0.01, "10Mbps", [("cubic", 50, 2.0)]),
        # RTT fairness: the 50 ms flow gets twice, then three times, the 200 ms one's.
        _cc_outcome(1, "tcp", 0, "100Mbps", [("cubic", 50, 60.0), ("cubic", 200, 30.0)]),
        _cc_outcome(2, "tcp", 0, "100Mbps", [("cubic", 50, 67.5), ("cubic", 200, 22.5)]),
        _cc_outcome(1, "tcp", 0.001, "10Mbps", [("cubic", 50, 5.0), ("cubic", 200, 5.0)]),
        # Friendliness: Reno first; at 1e-2 for the lossy setting, not the fairness 1e-3.
        _cc_outcome(1, "tcp", 0.01, "10Mbps", [("newreno", 50, 2.0), ("cubic", 50, 6.0)]),
        _cc_outcome(1, "tcp", 0, "100Mbps", [("newreno", 200, 30.0), ("cubic", 200, 60.0)]),
    ]
    frame = to_frame(outcomes)
    flows = seed003.flow_rows(frame)
    assert len(flows) == 4 + 2 * 5

    table = seed003.fairness_table(flows, "high-bdp")
    (row,) = table.itertuples()
    assert (row.transport, row.algorithm, row.rtt_ms, row.n) == ("tcp", "cubic", 200, 2)
    assert row.mean == pytest.approx(2.5)  # runs: 2 and 3
    assert seed003.fairness_table(flows, "lossy")["mean"].tolist() == [1.0]

    ranks = seed003.rankings(flows)
    high = ranks[ranks["setting"] == "high-bdp"].set_index("algorithm")
    assert high.loc["cubic", "rank"] == 1 and high.loc["veno", "utilization"] == pytest.approx(0.45)
    lossy = ranks[ranks["setting"] == "lossy"].set_index("algorithm")
    assert lossy.loc["veno", "rank"] == 1

    tie = to_frame(
        [
            _cc_outcome(1, "rudp", 0, "100Mbps", [(algorithm, 50, mbps)])
            for algorithm, mbps in (("cubic", 96.41), ("hybla", 96.44), ("westwood", 50.0))
        ]
    )
    tied = seed003.rankings(seed003.flow_rows(tie)).set_index("algorithm")["rank"]
    assert tied.to_dict() == {"cubic": 1, "hybla": 1, "westwood": 3}

    written = seed003.write(frame, tmp_path)
    names = {p.name for p in written}
    assert {"seed003-fig2-utilization-high-bdp.png", "seed003-fig5-friendliness-lossy.png"} <= names
    # two runs, 2.0 and 3.0: the table prints the Student-t half-width beside the mean
    assert (
        "| cubic | 2.500 ± 6.4 |"
        in (tmp_path / "seed003-table1-rtt-fairness-high-bdp.md").read_text()
    )
    rankings_md = (tmp_path / "seed003-rankings.md").read_text()
    assert "| cubic | 90.0 | 1 | 33.3 |" in rankings_md  # Reno's share: 30 of 90 Mbit/s


# --- layers: the core without the report, drawing without side effects ---------------------


def _python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONPATH": str(paths.REPO_ROOT / "python")},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_importing_the_sweep_loads_no_report_layer() -> None:
    """What a notebook's import and a Dask worker (which unpickles run_point) load:
    no matplotlib, no scipy, none of the report modules, no preset it does not use;
    a preset's grids once asked for."""
    loaded_first, loaded = (
        json.loads(line)
        for line in _python(
            "import json, pickle, sys\n"
            "import rudp.sweep, rudp.sweep.cli\n"
            "from rudp.sweep import PRESETS, run_point\n"
            "pickle.loads(pickle.dumps(run_point))\n"
            "print(json.dumps(sorted(sys.modules)))\n"
            "grids = [g for p in PRESETS.values() for g in p.grids(True)]\n"
            "print(json.dumps(sorted(sys.modules)))"
        ).splitlines()
    )
    assert [m for m in loaded_first if m.startswith("rudp.sweep.presets.")] == []
    heavy = [m for m in loaded if m.split(".")[0] in {"matplotlib", "scipy"}]
    report = [
        m
        for m in loaded
        if m in {"rudp.sweep.figures", "rudp.sweep.stats", "rudp.sweep.tables"}
        or m.endswith(".report")
    ]
    assert heavy == [] and report == []
    assert "rudp.sweep.presets.seed003.grid" in loaded


def test_drawing_a_report_keeps_the_callers_matplotlib_backend(tmp_path: Path) -> None:
    """A notebook's backend stays as it was, and no pyplot figure is left open."""
    trace = tmp_path / "cwnd.csv"
    trace.write_text(
        "time_s,cwnd_bytes,ssthresh_bytes,state,timeouts\n"
        "0,1400,65535,SLOW_START,0\n1,2800,65535,SLOW_START,0\n"
    )
    shown = _python(
        "import sys, matplotlib\n"
        "matplotlib.use('svg')\n"
        "from pathlib import Path\n"
        "from rudp.sweep import Grid, Outcome, Point, PRESETS\n"
        "from rudp.sweep.figures import cwnd_figure, generic_report\n"
        "from rudp.sweep.frame import to_frame\n"
        f"out = Path({str(tmp_path)!r})\n"
        "cwnd_figure(out / 'cwnd.csv', out / 'cwnd.png')\n"
        "rows = [Outcome(Point('p', (('x', x),), 1), 'c', metrics={'throughput_kBps': x},"
        " exit_status=0) for x in (1, 2)]\n"
        "written = generic_report(to_frame(rows), [Grid('p', {}, {'x': [1, 2]})], out)\n"
        "seed = [Outcome(Point('rudp-tcp-vs-udp', (('packets', n), ('payload', 1472),"
        " ('transport', 'udp')), 1), 'c', metrics={'throughput_Mbps': 1.0}, exit_status=0)"
        " for n in (10, 100)]\n"
        "written += PRESETS['seed001'].report(to_frame(seed), out)\n"
        "print(matplotlib.get_backend(), 'matplotlib.pyplot' in sys.modules)"
    )
    assert shown == "svg False"
    for png in ("cwnd.png", "p-1.png", "seed001-throughput.png"):
        assert (tmp_path / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_expected_failures_are_named_only_for_reported_failures_they_match() -> None:
    from rudp.sweep.grid import ExpectedFailure  # noqa: PLC0415
    from rudp.sweep.manager import expected_failure_lines  # noqa: PLC0415

    expected = ExpectedFailure({"router": "none", "delay": "100ms"}, "the busy channel")
    frame = pd.DataFrame(
        {
            "router": ["none", "none", "none", "delay", "none"],
            "delay": ["100ms", "100ms", "100ms", "100ms", "20ms"],
            "status": ["failed", "failed", "error", "failed", "failed"],
        }
    )
    # The crash (error) and the failures at other points are not excused.
    assert expected_failure_lines(frame, [expected]) == [
        "2 of these failures are expected: the busy channel"
    ]
    assert expected_failure_lines(frame.iloc[3:], [expected]) == []


def test_seed000s_expected_failures_name_points_of_its_quick_grids_and_the_doc() -> None:
    from rudp.sweep.presets import PRESETS  # noqa: PLC0415

    preset = PRESETS["seed000"]
    assert preset.expected_failures
    points = pd.DataFrame([dict(p.params) for p in expand(preset.grids(True))])
    doc = (paths.REPO_ROOT / "doc" / "scenarios.rst").read_text()
    for failure in preset.expected_failures:
        assert failure.matches(points).any(), failure.where
        assert "doc/scenarios.rst" in failure.why
        section = failure.why.split('"')[1]
        assert section in doc, section
