"""The ns-2 cross-check's report, from synthetic rows: seed 002's figures 6-9 with
ns-2's points (rudp.ns2.figures), the table's model column, and redrawing both
from a runs file (python -m rudp.ns2 --from-runs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from rudp.ns2 import Outcome, Point, compare
from rudp.ns2.compare import MODES, Row, UntilCi, main, markdown, read_runs, run_grid, write_runs
from rudp.ns2.figures import figure, model_kBps, write_figures
from rudp.sweep.presets.seed002 import report


def _row(mode: str, point: Point, ns2: float, rudp: float) -> Row:
    return Row(
        point,
        mode,
        [Outcome(ns2 - 5, 1, 10), Outcome(ns2 + 5, 2, 12)],
        [Outcome(rudp, 1, 11), Outcome(rudp, 1, 11)],
    )


def _rows() -> list[Row]:
    rows = []
    for mode in ("ns2-def", "stock"):
        for n in (1, 2):
            # figure 6 (2^28 B against RTT at 1 %) and figure 9 (16 KB against loss at 100 ms)
            rows += [
                _row(mode, Point(n, rtt, 0.01, 1 << 28), 200.0 * n, 190.0 * n) for rtt in (120, 200)
            ]
            rows += [_row(mode, Point(n, 100, p, 16384), 100.0, 95.0) for p in (0.02, 0.05)]
    return rows


def test_each_mode_gets_the_figures_it_has_points_for(tmp_path: Path) -> None:
    written = write_figures(_rows(), tmp_path)
    assert sorted(path.name for path in written) == [
        "seed002-ns2-ns2-def-figure6.png",
        "seed002-ns2-ns2-def-figure9.png",
        "seed002-ns2-stock-figure6.png",
        "seed002-ns2-stock-figure9.png",
    ]
    with Image.open(tmp_path / "seed002-ns2-stock-figure6.png") as image:
        title = image.info["Title"]
    assert title == "Seed 002 figure 6 in ns-2.35 and rudp (stock): loss 0.01, 2^28 B"


def test_a_figure_without_points_is_not_drawn(tmp_path: Path) -> None:
    assert figure(_rows(), "ns2-def", 7, tmp_path) is None
    assert figure(_rows(), "default", 6, tmp_path) is None
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(("paths", "rbuf"), [(1, 1 << 28), (3, 16384)])
def test_the_model_is_the_seed002_reports(paths: int, rbuf: int) -> None:
    # Both count 1468-byte data units: the same curve in both reports.
    assert model_kBps(paths, 0.02, 0.1, rbuf) == pytest.approx(
        report.model_kBps(paths, 0.02, 0.1, rbuf)
    )


def test_a_runs_file_reads_back_as_the_rows_it_was_written_from(tmp_path: Path) -> None:
    rows = _rows()
    write_runs(rows, tmp_path / "runs.csv")
    assert read_runs(tmp_path / "runs.csv") == rows


def test_the_table_sets_the_model_beside_ns2(tmp_path: Path) -> None:
    rows = [row for row in _rows() if row.mode == "stock" and row.point.rbuf == 1 << 28]
    text = markdown(rows, "test")
    line = next(li for li in text.splitlines() if li.startswith("| 2/120/0.01 |"))
    model = report.model_kBps(2, 0.01, 0.12, 1 << 28)
    assert line.split("|")[-3:-1] == [f" {model:.1f} ", f" {model / 400.0:.2f} "]
    assert "the model" in text


def test_from_runs_redraws_without_running_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_runs(_rows(), tmp_path / "runs.csv")
    monkeypatch.setenv("PATH", str(tmp_path))  # no ns, no rudp-cmt: nothing can run
    out = tmp_path / "out"
    assert main(["--from-runs", str(tmp_path / "runs.csv"), "--out", str(out)]) == 0
    assert (out / "seed002-ns2-runs.csv").read_text() == (tmp_path / "runs.csv").read_text()
    assert "## stock, rbuf 16384" in (out / "seed002-ns2.md").read_text()
    assert (out / "seed002-ns2-ns2-def-figure6.png").is_file()


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--from-runs", "missing.csv"], "--from-runs=missing.csv"),
        (["--seeds", "0"], "--seeds=0"),
        (["--modes", "ns2-def,fast"], "'fast'"),
        (["--paths", "9"], "--paths=9"),
        (["--until-ci", "1.5"], "--until-ci=1.5"),
        (["--until-ci", "0.05", "--seeds", "5", "--max-seeds", "4"], "--max-seeds=4"),
    ],
)
def test_a_bad_option_is_refused_by_name(
    args: list[str], named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*args, "--out", str(tmp_path / "out")]) == 2
    assert named in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def _noisy(spread: float):  # type: ignore[no-untyped-def]
    """A stand-in for a simulator: seed k of a point gives 30 kB/s plus a spread
    that alternates sign, as much at every point of ``spread``'s paths."""

    def run(point: Point, seed: int, **_: object) -> Outcome:
        sign = 1 if seed % 2 else -1
        return Outcome(30.0 + sign * spread * (point.paths - 1) * (1 + seed % 3), 1, 1)

    return run


def test_until_ci_adds_seeds_only_where_the_ratio_interval_is_wide(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(compare, "run_ns2", _noisy(1.0))
    monkeypatch.setattr(compare, "run_rudp", _noisy(1.0))
    points = [Point(1, 100, 0.05, 16384), Point(4, 100, 0.05, 16384)]
    rows = run_grid(
        points, [MODES["ns2-def"]], 3, duration_s=1, warmup_s=0, until=UntilCi(0.05, 30)
    )
    quiet, noisy = rows
    assert len(quiet.ns2) == len(quiet.rudp) == 3  # no spread: an interval of its ratio alone
    assert 3 < len(noisy.ns2) == len(noisy.rudp) <= 30
    assert noisy.ratio_spread("goodput_kBps") <= 0.05 or len(noisy.ns2) == 30
    fixed = run_grid(points, [MODES["ns2-def"]], 3, duration_s=1, warmup_s=0)
    assert [len(row.ns2) for row in fixed] == [3, 3]
    assert "3 to " in markdown(rows, "test") and "| 4/100/0.05 |" in markdown(rows, "test")


def test_a_point_is_surely_outside_only_when_its_whole_interval_is() -> None:
    point = Point(3, 100, 0.04, 16384)
    wide = Row(
        point,
        "ns2-def",
        [Outcome(v, 1, 1) for v in (25, 30, 35)],
        [Outcome(v, 1, 1) for v in (30, 36, 42)],
    )
    assert wide.ratio("goodput_kBps") == pytest.approx(1.2)
    assert not wide.surely_outside("goodput_kBps", 0.10)
    narrow = Row(
        point,
        "ns2-def",
        [Outcome(v, 1, 1) for v in (29.9, 30, 30.1)],
        [Outcome(v, 1, 1) for v in (35.9, 36, 36.1)],
    )
    assert narrow.surely_outside("goodput_kBps", 0.10)
