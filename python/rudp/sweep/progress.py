"""A sweep's progress, for a person at a terminal and for a log alike.

At a terminal (stderr is a TTY) the progress is tqdm's bar: one line
redrawn in place, with the runs done, the rate and tqdm's estimate of the
time left. Anywhere else (a log file, CI, a pipe) a redrawn line would
write thousands of carriage returns onto one line of the log; there the
progress is a line of its own every ``interval`` seconds, and a last one
when the runs end::

    seed000-quick: 120 of 504 runs (24 %), 0 failed, 10 s so far, about 32 s left
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

from tqdm import tqdm

#: Seconds between two progress lines written to a log.
LOG_INTERVAL_S = 5.0


def is_terminal(stream: TextIO) -> bool:
    """True if ``stream`` is a terminal (where a bar can redraw itself)."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())


def duration(seconds: float) -> str:
    """``seconds`` for a person: ``42 s``, ``3 min 05 s``, ``1 h 02 min``."""
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


class Progress:
    """Counts a sweep's runs as they finish and shows how far it is.

    ``total`` runs in all, of which ``initial`` were done before (taken from
    the cache). A context manager: the last line is written on exit.
    """

    def __init__(
        self,
        name: str,
        total: int,
        initial: int = 0,
        *,
        enabled: bool = True,
        stream: TextIO | None = None,
        interval_s: float = LOG_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if interval_s <= 0:
            raise ValueError(f"interval_s must be a positive number of seconds, got {interval_s}")
        self.name = name
        self.total = total
        self.done = initial
        self.failed = 0
        self._initial = initial
        self._stream = stream if stream is not None else sys.stderr
        self._enabled = enabled
        self._interval_s = interval_s
        self._clock = clock
        self._started = clock()
        self._last_line = self._started
        self._bar: tqdm | None = None
        if enabled and is_terminal(self._stream):
            self._bar = tqdm(
                total=total,
                initial=initial,
                desc=name,
                unit="run",
                dynamic_ncols=True,
                file=self._stream,
            )
            self._bar.set_postfix(failed=0, refresh=False)

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def update(self, *, failed: bool = False) -> None:
        """One more run finished (``failed``: it did not succeed)."""
        self.done += 1
        self.failed += failed
        if self._bar is not None:
            self._bar.set_postfix(failed=self.failed, refresh=False)
            self._bar.update()
            return
        now = self._clock()
        if self._enabled and now - self._last_line >= self._interval_s:
            self._write(now)

    def line(self, now: float | None = None) -> str:
        """Where the sweep is, in one line (what a log receives)."""
        now = self._clock() if now is None else now
        elapsed = now - self._started
        share = 100 * self.done // self.total if self.total else 100
        text = (
            f"{self.name}: {self.done} of {self.total} runs ({share} %), "
            f"{self.failed} failed, {duration(elapsed)} so far"
        )
        ran = self.done - self._initial
        left = self.total - self.done
        if ran > 0 and left > 0:
            text += f", about {duration(elapsed / ran * left)} left"
        return text

    def close(self) -> None:
        """Writes the last line (the bar's, or the log's); idempotent."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self._enabled and self.done > self._initial:
            self._write(self._clock())
        self._enabled = False

    def _write(self, now: float) -> None:
        print(self.line(now), file=self._stream, flush=True)
        self._last_line = now
