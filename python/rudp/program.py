"""What the module's Python programs share with its C++ ones: the command line and the record.

The C++ programs read their options through ``RudpCommandLine`` (ns-3's
CommandLine, strictly: ``--name=value``, ns-3's units, a range per option) and
write their record through ``RudpScenarioRecord`` and ``RudpJson``. The Python
examples (``examples/rudp-python-scenario.py``, ``examples/rudp-phone.py``)
do the same here, before ns-3 is imported, so that a bad parameter costs no
15-second import:

* :class:`StrictParser`: argparse with RudpCommandLine's error form,
  ``error: --<name>: <problem>`` on stderr and exit status 2, no
  abbreviations, an unknown option refused;
* the value types :func:`in_range`, :func:`data_rate`, :func:`time_in`,
  :func:`one_of`, :func:`boolean`, :func:`output_file`: a number, an ns-3
  data rate (``8Mbps``) or time (``30ms``; a bare number is seconds) read
  whole and checked against the range that makes physical sense;
* :func:`record_text`: a record as ``RudpJson::Write`` writes it (the same
  members in the same order give the same bytes: doubles as ``%.17g``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import NoReturn, TypeVar

from . import __version__

#: Spellings of a boolean, as ns-3's CommandLine takes them.
BOOLEANS = {"1": True, "true": True, "0": False, "false": False}
#: Units of a data rate, in bit/s (ns-3's DataRate spellings the examples use).
RATE_UNITS = {"bps": 1.0, "kbps": 1e3, "Kbps": 1e3, "Mbps": 1e6, "Gbps": 1e9}
#: Units of a time, in seconds (a bare number is seconds, as in ns-3).
TIME_UNITS = {"": 1.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"

T = TypeVar("T", int, float)


class StrictParser(argparse.ArgumentParser):
    """argparse with the module's error form: "error: --<name>: <problem>", exit 2."""

    def __init__(self, prog: str, description: str | None) -> None:
        super().__init__(
            prog=prog,
            description=description,
            formatter_class=argparse.ArgumentDefaultsHelpFormatter,
            allow_abbrev=False,
        )

    def error(self, message: str) -> NoReturn:
        unknown = "unrecognized arguments: "
        if message.startswith(unknown):
            message = f"{message.removeprefix(unknown)}: not an option (--help lists them)"
        self.exit(2, f"error: {message.removeprefix('argument ')}\n")


def in_range(kind: Callable[[str], T], low: T, high: T, what: str) -> Callable[[str], T]:
    """An argparse type: a ``kind`` number in [low, high]."""

    def parse(text: str) -> T:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"'{text}' is not {what}; allowed: {what} in [{low:g}, {high:g}]"
            ) from None
        if not low <= value <= high:  # also refuses nan
            raise argparse.ArgumentTypeError(
                f"'{text}' is out of range: must be in [{low:g}, {high:g}]"
            )
        return value

    return parse


def _with_unit(text: str, units: Mapping[str, float], form: str) -> float:
    match = re.fullmatch(rf"({_NUMBER})\s*([A-Za-z]*)", text.strip())
    if match is None or match.group(2) not in units:
        raise argparse.ArgumentTypeError(f"'{text}' is not {form}")
    return float(match.group(1)) * units[match.group(2)]


def _quantity(
    units: Mapping[str, float], example: str, low: str, high: str
) -> Callable[[str], float]:
    bounds = f"[{low}, {high}]"
    form = f"{example} in {bounds}"
    lowest, highest = _with_unit(low, units, form), _with_unit(high, units, form)

    def parse(text: str) -> float:
        value = _with_unit(text, units, form)
        if not lowest <= value <= highest:
            raise argparse.ArgumentTypeError(f"'{text}' is out of range: must be in {bounds}")
        return value

    return parse


def data_rate(low: str, high: str) -> Callable[[str], float]:
    """An argparse type: a data rate such as 10Mbps in [low, high]; the value is in bit/s."""
    return _quantity(RATE_UNITS, "a data rate (e.g. 500kbps, 10Mbps, 1Gbps)", low, high)


def time_in(low: str, high: str) -> Callable[[str], float]:
    """An argparse type: a time such as 20ms (a bare number is seconds) in [low, high]; in s."""
    return _quantity(TIME_UNITS, "a time (e.g. 20ms, 0.5s)", low, high)


def one_of(choices: Sequence[str]) -> Callable[[str], str]:
    """An argparse type: one of ``choices``."""

    def parse(text: str) -> str:
        if text not in choices:
            raise argparse.ArgumentTypeError(
                f"'{text}' is not a choice; allowed: one of {'|'.join(choices)}"
            )
        return text

    return parse


def boolean(text: str) -> bool:
    """An argparse type: 1|0|true|false."""
    if text.lower() not in BOOLEANS:
        raise argparse.ArgumentTypeError(f"'{text}' is not a boolean; allowed: 1|0|true|false")
    return BOOLEANS[text.lower()]


def output_file(text: str) -> Path:
    """An argparse type: a file in an existing folder."""
    path = Path(text)
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"'{text}': the folder {path.parent} does not exist")
    return path


def add_rng_run(cli: argparse.ArgumentParser) -> None:
    """``--RngRun``: ns-3's run number (its global value), as every C++ program takes it."""
    cli.add_argument(
        "--RngRun",
        type=in_range(int, 1, 2**31 - 1, "a whole number"),
        default=1,
        help="ns-3's run number (random streams), [1, 2^31-1]",
    )


def _json_value(value: object) -> str:  # noqa: PLR0911 - one return per JSON type
    """``value`` as RudpJson writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "%.17g" % value if math.isfinite(value) else "null"  # noqa: UP031 - C's format
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, Mapping):
        members = (f"{json.dumps(str(key))}: {_json_value(item)}" for key, item in value.items())
        return "{" + ", ".join(members) + "}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_json_value(item) for item in value) + "]"
    if value is None:
        return "null"
    raise TypeError(f"no JSON form for {type(value).__name__}")


def record_text(record: Mapping[str, object]) -> str:
    """The text ``RudpJson::Write`` writes for ``record``: ``rudp_version`` added last."""
    return _json_value({**record, "rudp_version": __version__}) + "\n"


def write_record(path: Path, record: Mapping[str, object]) -> None:
    """Writes ``record`` to ``path`` as RudpJson does: beside it, then renamed over it."""
    partial = path.with_name(f"{path.name}.partial-{os.getpid()}")
    try:
        partial.write_text(record_text(record), encoding="utf-8")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
