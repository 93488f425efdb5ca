"""ns-3.35 API limits that CI's trees (3.37, 3.48, the 3.44 wheel) do not catch.

CI builds the module in ns-3.37 and 3.48 only; ns-3.35 (waf) is checked by
hand (README, "What is verified"). One slip got through that way: a lambda
given to ``Simulator::Schedule``, which ns-3.35's ``MakeEvent`` cannot take
(it accepts functions and member functions only, 3.36 on any callable). This
scan keeps it out of every C++ source in ``make test``.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FOLDERS = ("model", "helper", "scenario", "test", "examples", "scratch")
#: Simulator::Schedule, ScheduleNow, ScheduleWithContext, ScheduleDestroy whose
#: arguments (up to the statement's end) hold a lambda: a capture list, then
#: a parameter list or a body.
LAMBDA_SCHEDULE = re.compile(r"Simulator::Schedule\w*\s*\([^;]*?\[[^\]\[]*\]\s*(?:\([^)]*\)\s*)?\{")


def lambda_schedules(text: str) -> list[int]:
    """Line numbers of the Simulator::Schedule* calls in ``text`` that pass a lambda."""
    return [text.count("\n", 0, match.start()) + 1 for match in LAMBDA_SCHEDULE.finditer(text)]


def test_the_scan_finds_a_lambda_and_passes_the_rest() -> None:
    assert lambda_schedules("Simulator::Schedule(t, [&x] { x = 1; });") == [1]
    assert lambda_schedules("x;\nSimulator::ScheduleNow([this](int a) { F(a); }, 3);") == [2]
    assert lambda_schedules("Simulator::Schedule(t, &A::B, this, v[2]);") == []
    assert lambda_schedules("Simulator::Schedule(t, &F, m[k]);\nauto g = [] { };") == []


def test_no_source_schedules_a_lambda() -> None:
    found = [
        f"{path.relative_to(REPO)}:{line}"
        for folder in FOLDERS
        for path in sorted((REPO / folder).glob("*.[ch]*"))
        for line in lambda_schedules(path.read_text(errors="replace"))
    ]
    assert not found, "ns-3.35's Simulator::Schedule takes no lambdas: " + ", ".join(found)
