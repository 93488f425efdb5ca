"""The sweep's tables: Markdown for people, reStructuredText for the documentation."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from rudp.sweep import tables


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {"n": [2, 3], "remedy": ["round robin", ""], "goodput": ["117.4 ± 2.9", "92.2"]}
    )


def test_restructured_text_is_a_grid_table_with_every_cell() -> None:
    text = tables.restructured_text(_frame())
    lines = text.splitlines()
    assert lines[0] == lines[-1] == lines[4] == "+---+-------------+-------------+"
    assert lines[2] == "+===+=============+=============+"
    assert lines[1] == "| n | remedy      | goodput     |"
    assert lines[3] == "| 2 | round robin | 117.4 ± 2.9 |"
    # An empty cell stays a cell: a grid table keeps its row apart.
    assert lines[5] == "| 3 |             | 92.2        |"
    assert {len(line) for line in lines} == {len(lines[0])}


def test_write_gives_csv_markdown_and_restructured_text(tmp_path: Path) -> None:
    written = tables.write(
        tmp_path,
        stem="t",
        title="Title",
        long=_frame(),
        wide=[("first", _frame()), ("second", _frame())],
        note="A note.",
    )
    assert [p.name for p in written] == ["t.csv", "t.md", "t.rst"]
    md = (tmp_path / "t.md").read_text()
    assert md.startswith("### Title\n") and "A note." in md
    assert "| 2 | round robin | 117.4 ± 2.9 |" in md
    rst = (tmp_path / "t.rst").read_text()
    assert "Title" not in rst and "A note." not in rst
    assert rst.startswith("**first**\n\n+---")
    assert "**second**" in rst
    assert rst.count("| 2 | round robin | 117.4 ± 2.9 |") == 2
