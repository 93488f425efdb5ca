#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that every Doxygen ``\\ingroup`` of the module names a group that exists.

The module's groups are defined in ``doc/rudp.h``; a source may also join a
group of ns-3 itself (listed in ``NS3_GROUPS``). ``make doc`` runs this
before Sphinx, since CI runs no Doxygen: a misspelt or removed group would
otherwise go unnoticed until someone builds ns-3's API documentation.
Exit status 1, with each offending ``file:line``, if a group is unknown.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Where the module's C++ sources are.
SOURCE_DIRS = ("model", "helper", "examples", "test", "scratch", "doc")
#: Groups that ns-3 defines and the module's sources join.
NS3_GROUPS = frozenset({"congestionOps", "tests"})
_COMMAND = re.compile(r"[\\@](defgroup|ingroup|addtogroup)\s+([A-Za-z0-9_-]+)")


def scan(root: Path) -> tuple[set[str], list[tuple[Path, int, str]]]:
    """Return the groups defined under ``root`` and every use of a group."""
    defined: set[str] = set()
    used: list[tuple[Path, int, str]] = []
    for folder in SOURCE_DIRS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in {".h", ".cc"} or not path.is_file():
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            for number, line in enumerate(lines, start=1):
                for command, group in _COMMAND.findall(line):
                    if command == "defgroup":
                        defined.add(group)
                    else:
                        used.append((path.relative_to(root), number, group))
    return defined, used


def main() -> int:
    defined, used = scan(ROOT)
    known = defined | NS3_GROUPS
    unknown = [(path, number, group) for path, number, group in used if group not in known]
    for path, number, group in unknown:
        print(f"{path}:{number}: \\ingroup {group}: no such Doxygen group", file=sys.stderr)
    if "rudp" not in defined:
        print("doc/rudp.h: \\defgroup rudp is missing", file=sys.stderr)
        return 1
    if unknown:
        return 1
    print(f"Doxygen groups: {len(used)} uses of {len(defined)} groups, all defined")
    return 0


if __name__ == "__main__":
    sys.exit(main())
