"""Intervals and figures that do not mislead, and the index of a results folder.

Synthetic frames stand in for the programs' runs, except in the determinism
test, which runs ``rudp-cc-comparison``. A report's figures are caught at
``finish`` (monkeypatched) to look at what was drawn.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection
from matplotlib.container import ErrorbarContainer

from rudp.runner import run_scenario
from rudp.sweep import figures
from rudp.sweep.grid import Grid
from rudp.sweep.index import INDEX, png_title, with_index, write_index
from rudp.sweep.presets import PRESETS, seed001, seed003
from rudp.sweep.presets.seed000 import report as seed000_report
from rudp.sweep.presets.seed001 import report as seed001_report
from rudp.sweep.presets.seed003 import report as seed003_report
from rudp.sweep.stats import MIN_RUNS, log_interval, ratio_interval, summarize

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.text import Text


# --- helpers --------------------------------------------------------------------------------


class Drawn:
    """What a report wrote (``files``, under ``folder``) and the figures it drew,
    by file name."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files: list[Path] = []
        self.figures: dict[str, Figure] = {}


def _draw(module: Any, frame: pd.DataFrame, folder: Path) -> Drawn:
    """Run ``module.write`` once, catching each figure at ``finish``."""
    drawn = Drawn(folder)
    real = figures.finish

    def keep(fig: Figure, path: Path, **options: Any) -> Path:
        drawn.figures[path.name] = fig
        return real(fig, path, **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "finish", keep)
        drawn.files = module.write(frame, folder)
    return drawn


def _error_bar_lows(ax: Axes) -> list[float]:
    """The lower ends of every error bar drawn on ``ax``."""
    lows: list[float] = []
    for container in ax.containers:
        if isinstance(container, ErrorbarContainer):
            for collection in container.lines[2]:
                if isinstance(collection, LineCollection):
                    lows += [float(min(seg[:, 1])) for seg in collection.get_segments()]
    return lows


def _legend(ax: Axes) -> list[Text]:
    legend = ax.get_legend()
    assert legend is not None
    return list(legend.get_texts())


def _joined_pairs(ax: Axes) -> list[tuple[float, float]]:
    """Every pair of neighbouring x values a drawn line joins."""
    pairs: list[tuple[float, float]] = []
    for line in ax.get_lines():
        if line.get_linestyle() in ("None", "none", "", " "):
            continue
        xs = np.asarray(line.get_xdata(), dtype=float)
        if len(xs) < 2 or line.get_transform() is not ax.transData:
            continue
        pairs += list(zip(xs[:-1].tolist(), xs[1:].tolist(), strict=True))
    return pairs


# --- stats ----------------------------------------------------------------------------------


def test_a_log_space_interval_stays_above_zero_where_students_t_does_not() -> None:
    skewed = pd.Series([0.6, 1.0, 30.0])  # heavy tail: one slow transfer
    centre, low, high = log_interval(skewed)
    assert 0 < low < centre < high
    assert centre == pytest.approx((0.6 * 1.0 * 30.0) ** (1 / 3))
    frame = pd.DataFrame({"x": [1, 1, 1], "y": skewed})
    linear = summarize(frame, ["x"], "y")
    assert float(linear["low"].iloc[0]) < 0  # what a log axis cannot draw
    logs = summarize(frame, ["x"], "y", scale="log")
    assert float(logs["low"].iloc[0]) == pytest.approx(low)
    assert pd.isna(log_interval(pd.Series([0.0, 1.0, 2.0]))[0])  # no log of 0


def test_a_ratio_interval_covers_the_true_ratio_about_95_times_in_100() -> None:
    rng = np.random.default_rng(7)
    trials = 4000
    covered = 0
    for _ in range(trials):
        reference = rng.normal(30.0, 3.0, size=3)  # 10 % a run, as ns-2 at 16 KB, 5 %
        other = rng.normal(36.0, 2.0, size=5)
        _, low, high = ratio_interval(reference, other)
        covered += low <= 1.2 <= high
    assert 0.93 <= covered / trials <= 0.97


def test_a_ratio_interval_narrows_with_more_runs_and_reports_what_it_cannot_say() -> None:
    rng = np.random.default_rng(3)
    few = ratio_interval(rng.normal(30, 3, 3), rng.normal(30, 3, 3))
    many = ratio_interval(rng.normal(30, 3, 30), rng.normal(30, 3, 30))
    assert few[1] < many[1] <= 1.0 <= many[2] < few[2]
    assert ratio_interval([2.0, 2.0], [3.0, 3.0]) == (1.5, 1.5, 1.5)
    ratio, low, high = ratio_interval([2.0], [3.0, 4.0])
    assert ratio == 1.75 and np.isnan(low) and np.isnan(high)
    assert all(np.isnan(v) for v in ratio_interval([0.0, 0.0], [1.0, 2.0]))


def test_every_presets_quick_size_runs_enough_to_give_an_interval() -> None:
    for preset in PRESETS.values():
        for grid in preset.grids(True):
            deterministic = (
                preset.name == "seed003" and grid.fixed.get("loss") == 0 and "loss" not in grid.axes
            )
            assert grid.runs >= MIN_RUNS or (deterministic and grid.runs == 1), (
                preset.name,
                grid.name,
                grid.runs,
            )


def test_seed003_runs_until_tight_where_loss_is_random_and_one_where_runs_agree() -> None:
    for grid in seed003.grids(False):
        random_loss = grid.fixed.get("loss", 0) != 0 or "loss" in grid.axes
        assert grid.runs == (seed003.RUNS if random_loss else 1), grid.name
        assert ("lossy" in grid.name) == random_loss
    # Lossy points start with three runs (an interval to project from) and get
    # more until the utilisation and the two flows' ratio are tight.
    assert seed003.RUNS == 3
    assert seed003.UNTIL_CI.metrics == ("utilization", "throughput_ratio")
    assert seed003.UNTIL_CI.fraction == 0.05 and seed003.UNTIL_CI.max_runs == 10


# --- segments -------------------------------------------------------------------------------


def test_a_gap_in_x_breaks_the_line() -> None:
    xs = [10, 100, 10_000, 20_000, 30_000]
    assert figures.segments(xs, 10.0) == [[0, 1], [2, 3, 4]]
    assert figures.segments(xs) == [[0, 1, 2, 3, 4]]
    assert figures.segments([]) == []


def test_series_drawn_with_their_runs_keep_distinct_colours() -> None:
    """A series' run dots take its colour and do not move the axes' colour
    cycle on: otherwise seven series with four points each come out in two
    colours (C0, C5, C0, ...), and the legend names nothing."""
    from matplotlib.figure import Figure  # noqa: PLC0415 - as the report imports it

    rows = [
        {"algorithm": f"a{series}", "x": x, "run": run, "status": "ok", "y": series + 0.1 * run}
        for series in range(7)
        for x in (1.0, 2.0, 3.0, 4.0)
        for run in (1, 2, 3)
    ]
    frame = pd.DataFrame(rows)
    ax = Figure().add_subplot()
    for name, series in frame.groupby("algorithm"):
        figures.plot_estimates(ax, series, "x", "y", str(name), show_runs=True)
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    colours = [str(container.lines[0].get_color()) for container in bars]
    assert len(set(colours)) == 7, colours
    for container in bars:
        colour = container.lines[0].get_color()
        dots = [
            line
            for line in ax.lines
            if line.get_linestyle() == "None" and line.get_markeredgecolor() == colour
        ]
        assert len(dots) >= 4, (container.get_label(), colour)


# --- seed 001 -------------------------------------------------------------------------------

_SEED001_PACKETS = (10, 100, 10_000, 20_000)


def _seed001_frame() -> pd.DataFrame:
    rows: list[dict[str, Any]] = []
    rng = np.random.default_rng(1)
    for transport in seed001.TRANSPORTS:
        for packets in _SEED001_PACKETS:
            for run in (1, 2, 3):
                udp = transport == "udp"
                rows.append(
                    {
                        "program": seed001.PROGRAM,
                        "transport": transport,
                        "packets": packets,
                        "run": run,
                        "status": "ok",
                        "throughput_Mbps": 400.0 + 20 * run,
                        # heavy-tailed: one run ten times the others
                        "mean_delay_s": 1e-4 * (10.0 if run == 3 else 1.0 + 0.1 * run),
                        "mean_jitter_s": 0.0
                        if transport == "rudp-stop-and-wait" and run == 1
                        else 1e-5 * (20.0 if run == 2 else 1.0),
                        "lost_packets": (
                            float(rng.integers(0, 3000)) if udp and packets >= 100 else 0.0
                        ),
                    }
                )
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def seed001_drawn(tmp_path_factory: pytest.TempPathFactory) -> Drawn:
    return _draw(seed001_report, _seed001_frame(), tmp_path_factory.mktemp("seed001"))


@pytest.fixture(scope="module")
def seed003_drawn(tmp_path_factory: pytest.TempPathFactory) -> Drawn:
    return _draw(seed003_report, _seed003_frame(), tmp_path_factory.mktemp("seed003"))


def test_seed001_log_axes_have_no_interval_below_zero(seed001_drawn: Drawn) -> None:
    caught = seed001_drawn
    for name in ("seed001-delay.png", "seed001-jitter.png"):
        ax = caught.figures[name].axes[0]
        assert ax.get_yscale() == "log"
        lows = _error_bar_lows(ax)
        assert lows and min(lows) > 0, name


def test_seed001_lines_skip_the_unmeasured_range(seed001_drawn: Drawn) -> None:
    caught = seed001_drawn
    for name in ("seed001-throughput.png", "seed001-delay.png"):
        pairs = _joined_pairs(caught.figures[name].axes[0])
        assert pairs, name
        # dodged x values are within a few % of the grid's: 100 -> 10 000 is a factor 100
        assert all(b / a < 20 for a, b in pairs), (name, pairs)


def test_seed001_loss_is_linear_from_zero_and_names_what_lost_nothing(seed001_drawn: Drawn) -> None:
    caught = seed001_drawn
    ax = caught.figures["seed001-loss.png"].axes[0]
    assert ax.get_yscale() == "linear"
    assert ax.get_ylim()[0] == 0
    assert all(low >= 0 for low in _error_bar_lows(ax))
    labels = [text.get_text() for text in _legend(ax)]
    assert any(label.startswith("udp") for label in labels)
    assert not any(label.startswith(("tcp", "rudp")) for label in labels)  # all zero: a note
    notes = " ".join(t.get_text() for t in ax.texts)
    assert "no packet lost in any run" in notes and "rudp-reno" in notes and "tcp" in notes
    assert any("seed 001" in label for label in labels)  # its 97 of 100 at 100 packets


def test_seed000_figures_use_log_space_intervals_and_show_the_seeds_numbers(
    tmp_path: Path,
) -> None:
    rows: list[dict[str, Any]] = []
    for loss in (0.0, 2.0, 4.0):
        for run in (1, 2, 3):
            slow = run == 3 and loss > 0  # one transfer stuck in timeouts
            time_s = (0.7 + 0.1 * run) * (12.0 if slow else 1.0)
            rows.append(
                {
                    "program": "rudp-file-transfer",
                    "variant": "stop-and-wait",
                    "window": 1,
                    "router": "sleeping",
                    "link": "p2p",  # the loopback path, where the seed's numbers are drawn
                    "loss": loss / 100,
                    "delay": "0ms",
                    "run": run,
                    "status": "ok",
                    "transfer_time_s": time_s,
                    "throughput_kBps": 1000.0 / time_s,
                }
            )
    caught = _draw(seed000_report, pd.DataFrame(rows), tmp_path)
    drawn = [f for n, f in caught.figures.items() if n.startswith("seed000-figure")]
    assert drawn
    for fig in drawn:
        for ax in fig.axes:
            if ax.has_data():
                assert ax.get_yscale() == "log"
                assert all(low > 0 for low in _error_bar_lows(ax))
    labels = [
        t.get_text() for fig in drawn for ax in fig.axes if ax.get_legend() for t in _legend(ax)
    ]
    assert seed000_report.SEED_LABEL in labels


# --- seed 003 -------------------------------------------------------------------------------


def _seed003_frame(runs_lossy: int = 5) -> pd.DataFrame:
    rows: list[dict[str, Any]] = []

    def add(
        transport: str,
        rate: str,
        loss: float,
        run: int,
        flows: list[tuple[str, int, float]],
    ) -> None:
        capacity = 100.0 if rate == "100Mbps" else 10.0
        rows.append(
            {
                "program": seed003.PROGRAM,
                "transport": transport,
                "rate": rate,
                "loss": loss,
                "run": run,
                "flows": ",".join(f"{a}@{r}ms" for a, r, _ in flows),
                "flows_metrics": [
                    {"index": i, "algorithm": a, "rtt_s": r / 1e3, "throughput_bps": m * 1e6}
                    for i, (a, r, m) in enumerate(flows)
                ],
                "utilization": sum(m for _, _, m in flows) / capacity,
                "jain_index": 1.0,
                "status": "ok",
            }
        )

    for transport in seed003.TRANSPORTS:
        for algorithm in seed003.ALGORITHMS:
            for rtt in seed003.RTTS_MS:
                # six algorithms fill the link alike; westwood does not
                mbps = 96.4 - 30 * (algorithm == "westwood") * rtt / 400
                add(transport, "100Mbps", 0, 1, [(algorithm, rtt, mbps)])
            add(transport, "100Mbps", 0, 1, [("newreno", 200, 50.0), (algorithm, 200, 46.0)])
            for run in range(1, runs_lossy + 1):
                for loss in seed003.LOSSES:
                    add(
                        transport,
                        "10Mbps",
                        loss,
                        run,
                        [(algorithm, 50, 9.0 - 200 * loss - 0.1 * run)],
                    )
                add(
                    transport,
                    "10Mbps",
                    seed003.FRIENDLINESS_LOSS,
                    run,
                    [("newreno", 50, 3.0 + 0.1 * run), (algorithm, 50, 3.0 - 0.1 * run)],
                )
                for rtt in seed003.RTTS_MS:
                    add(
                        transport,
                        "10Mbps",
                        seed003.FAIRNESS_LOSS,
                        run,
                        [(algorithm, 50, 4.0 + 0.1 * run), (algorithm, rtt, 200 / rtt)],
                    )
    return pd.DataFrame(rows)


def test_seed003_coinciding_lines_are_drawn_once_and_said_so(seed003_drawn: Drawn) -> None:
    flows = seed003_report.flow_rows(_seed003_frame())
    alone = flows[(flows["n_flows"] == 1) & (flows["setting"] == "high-bdp")]
    groups = seed003_report.coinciding(alone[alone["transport"] == "tcp"], "rtt_ms", 0.5)
    assert sorted(map(len, groups)) == [1, 6]
    fig = seed003_drawn.figures["seed003-fig2-utilization-high-bdp.png"]
    for ax in fig.axes:
        labels = [t.get_text() for t in _legend(ax)]
        assert len(labels) == 2 and any("coincide" in label for label in labels)
        assert any("6 algorithms" in t.get_text() for t in ax.texts)
    assert "deterministic" in figures.title_of(fig)


def test_seed003_friendliness_shows_the_seeds_reno_pair_and_intervals(
    seed003_drawn: Drawn,
) -> None:
    caught, tmp_path = seed003_drawn, seed003_drawn.folder
    for name, published in (
        ("seed003-fig4-friendliness-high-bdp.png", "34.3"),
        ("seed003-fig5-friendliness-lossy.png", "1.77"),
    ):
        ax = caught.figures[name].axes[0]
        labels = [t.get_text() for t in _legend(ax)]
        assert any("seed 003" in label and published in label for label in labels), name
    lossy = caught.figures["seed003-fig5-friendliness-lossy.png"].axes[0]
    assert any(len(c.lines[2]) for c in lossy.containers if isinstance(c, ErrorbarContainer))
    table = (tmp_path / "seed003-table2-rtt-fairness-lossy.md").read_text()
    assert "± " in table  # five runs: intervals in the table, not only in its CSV


# --- index.md -------------------------------------------------------------------------------


def _linked(index: Path) -> list[str]:
    return re.findall(r"\]\(([^)]+)\)", index.read_text())


@pytest.mark.parametrize("name", ["seed001_drawn", "seed003_drawn"])
def test_index_lists_every_file_the_report_wrote(name: str, request: pytest.FixtureRequest) -> None:
    drawn: Drawn = request.getfixturevalue(name)
    written, tmp_path = drawn.files, drawn.folder
    index = tmp_path / INDEX
    assert written[-1] == index
    linked = _linked(index)
    assert sorted(linked) == sorted(p.name for p in written if p != index)
    assert sorted(linked) == sorted(p.name for p in tmp_path.iterdir() if p.name != INDEX)
    for line in index.read_text().splitlines():
        if line.startswith("- ["):
            assert re.match(r"- \[[^]]+\]\([^)]+\): \S", line), line  # one line on each


def test_index_describes_figures_by_their_title(tmp_path: Path) -> None:
    fig = figures.new_figure(figsize=(3, 2))
    fig.subplots().plot([1, 2], [1, 2])
    fig.suptitle("Utilisation against RTT")
    png = figures.finish(fig, tmp_path / "a.png")
    assert png_title(png) == "Utilisation against RTT"
    (tmp_path / "results.parquet").write_bytes(b"")
    index = write_index(tmp_path, [png, png], "Test")
    text = index.read_text()
    assert "- [a.png](a.png): Utilisation against RTT" in text
    assert text.count("a.png") == 2 and "results.parquet" in text  # once, and the runs first
    assert with_index(tmp_path, [], "nothing") == []


def test_a_grid_of_ones_own_gets_an_index(tmp_path: Path) -> None:
    frame = pd.DataFrame(
        {
            "program": ["p"] * 6,
            "loss": [0.0, 0.0, 0.0, 0.1, 0.1, 0.1],
            "run": [1, 2, 3] * 2,
            "status": ["ok"] * 6,
            "throughput_kBps": [10.0, 11.0, 12.0, 5.0, 6.0, 7.0],
        }
    )
    grid = Grid("p", {}, {"loss": [0.0, 0.1]}, 3, "mine")
    written = figures.generic_report(frame, [grid], tmp_path)
    assert [p.name for p in written] == ["mine.png", INDEX]
    assert _linked(tmp_path / INDEX) == ["mine.png"]


# --- determinism of the high-BDP runs -------------------------------------------------------

CC_PROGRAM = "rudp-cc-comparison"


@pytest.mark.programs(CC_PROGRAM)
@pytest.mark.parametrize("transport", seed003.TRANSPORTS)
def test_seed003_high_bdp_deterministic(transport: str) -> None:
    """Without random loss a run draws nothing: RngRun 1 and 2 give the same run,
    one flow or two (what lets seed 003's high-BDP grids keep one run)."""
    params = {
        **seed003.SETTINGS["high-bdp"],
        "flows": "cubic@50ms,cubic@100ms",
        "duration": 2,
        "warmup": 0.5,
        "transport": transport,
    }
    first = run_scenario(CC_PROGRAM, {**params, "RngRun": 1})
    second = run_scenario(CC_PROGRAM, {**params, "RngRun": 2})
    assert first.pop("rng_run") == 1 and second.pop("rng_run") == 2
    assert first == second
    # (that random loss makes runs differ: test_cc_comparison.py)
