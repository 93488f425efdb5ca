"""The cmt-remedies preset: its grids select each remedy, and its report tells
the remedies apart and draws the figures and the table."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from rudp.sweep import PRESETS
from rudp.sweep.presets import cmt_remedies
from rudp.sweep.presets.cmt_remedies import report


def test_the_preset_is_registered_and_each_remedy_has_both_grids() -> None:
    grids = PRESETS["cmt-remedies"].grids(False)
    assert len(grids) == 2 * len(cmt_remedies.REMEDIES)
    for grid in grids:
        assert grid.program == "rudp-cmt"
        assert grid.fixed["rbuf"] == 16384 and grid.fixed["loss"] == 0.01
    equal = [g for g in grids if "16k" in g.name]
    assert all(list(g.axes["paths"]) == [2, 3, 4] for g in equal)
    mismatch = [g for g in grids if "mismatch" in g.name]
    assert all(g.fixed["paths"] == 2 for g in mismatch)
    assert list(mismatch[0].axes["rtt"]) == [
        "100ms,100ms",
        "100ms,200ms",
        "100ms,300ms",
        "100ms,400ms",
    ]
    quick = PRESETS["cmt-remedies"].grids(True)
    assert all(g.runs == cmt_remedies.QUICK_RUNS for g in quick)


def _row(options: Mapping[str, object], paths: int, rtt: str, goodput: float) -> dict[str, object]:
    return {
        "program": "rudp-cmt",
        "paths": paths,
        "rtt": rtt,
        "duration": "100s",
        "run": 1,
        "status": "ok",
        "throughput_Bps": goodput,
        "blocked_time_s": 50.0,
        **options,
    }


def test_the_report_tells_the_remedies_apart(tmp_path: Path) -> None:
    rows = []
    for i, options in enumerate(cmt_remedies.REMEDIES.values()):
        for paths in (2, 3, 4):
            for run in (1, 2):
                row = _row(options, paths, "100ms", 100_000 + 1000 * i - 5000 * (paths - 2) + run)
                rows.append({**row, "run": run})
        rows.append(_row(options, 2, "100ms,400ms", 40_000.0))
    frame = pd.DataFrame(rows)
    # A column of 1 and NaN is a float column: 1.0 must still read as rescheduling on.
    frame["rescheduling"] = frame["rescheduling"].astype(float)
    data = report._ours(frame)
    assert sorted(set(data["remedy"])) == sorted(cmt_remedies.REMEDIES)
    assert (data["blocked_share"] == 0.5).all()
    written = PRESETS["cmt-remedies"].report(frame, tmp_path)
    names = sorted(p.name for p in written)
    assert names == [
        "cmt-remedies-16k.png",
        "cmt-remedies-mismatch.png",
        "cmt-remedies.csv",
        "cmt-remedies.md",
        "cmt-remedies.rst",
        "index.md",
    ]
    table = (tmp_path / "cmt-remedies.md").read_text()
    assert "chunk rescheduling" in table and "buffer-aware + rescheduling" in table
    # Each remedy loses 5 kB/s per added path here: the worst step says so.
    assert "-5.0 %" in table or "-4.9 %" in table
    # Goodputs carry one decimal whatever their magnitude, so a row reads across.
    cells = re.findall(r"\| (\d+\.\d+) ± ", table)
    assert cells and all(len(cell.split(".")[1]) == 1 for cell in cells)
