"""A sweep's progress: a bar at a terminal, a line every few seconds in a log."""

from __future__ import annotations

import io

import pytest

from rudp.sweep.progress import Progress, duration


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_log_gets_a_line_every_interval_and_no_carriage_return() -> None:
    log, clock = io.StringIO(), Clock()
    with Progress("grid", total=10, stream=log, interval_s=5, clock=clock) as bar:
        for _ in range(10):
            clock.now += 1.5  # a run every 1.5 s: a line every fourth run
            bar.update()
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue()
    assert lines == [
        "grid: 4 of 10 runs (40 %), 0 failed, 6 s so far, about 9 s left",
        "grid: 8 of 10 runs (80 %), 0 failed, 12 s so far, about 3 s left",
        "grid: 10 of 10 runs (100 %), 0 failed, 15 s so far",
    ]


def test_the_estimate_counts_only_the_runs_of_this_sweep() -> None:
    # 90 of 100 came from the cache: the 10 that ran took 20 s, so the
    # estimate is for their pace, not 90 runs in no time.
    log, clock = io.StringIO(), Clock()
    bar = Progress("g", total=100, initial=80, stream=log, interval_s=5, clock=clock)
    for _ in range(10):
        clock.now += 2
        bar.update(failed=True)
    assert bar.line() == "g: 90 of 100 runs (90 %), 10 failed, 20 s so far, about 20 s left"


def test_a_terminal_gets_tqdms_bar() -> None:
    terminal, clock = Terminal(), Clock()
    with Progress("grid", total=3, stream=terminal, clock=clock) as bar:
        for _ in range(3):
            bar.update()
    assert "\r" in terminal.getvalue()
    assert "3/3" in terminal.getvalue()


def test_disabled_or_all_cached_writes_nothing() -> None:
    log = io.StringIO()
    with Progress("grid", total=5, stream=log, enabled=False) as bar:
        bar.update()
    with Progress("grid", total=5, initial=5, stream=log):
        pass
    assert log.getvalue() == ""


def test_interval_must_be_positive() -> None:
    with pytest.raises(ValueError, match="interval_s"):
        Progress("grid", total=1, interval_s=0)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0.4, "0 s"), (59.6, "1 min 00 s"), (185, "3 min 05 s"), (3720, "1 h 02 min")],
)
def test_duration(seconds: float, text: str) -> None:
    assert duration(seconds) == text
