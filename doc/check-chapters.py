#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that every chapter of the model documentation follows ns-3's template.

ns-3's model chapters (``src/*/doc/*.rst``) have one chapter title (``---``)
and the sections Model Description (with the subsections Design, Scope and
Limitations, References), Usage (Helpers, Attributes, Traces, Examples) and
Validation, in the heading hierarchy ``-`` chapter, ``*`` section, ``=``
subsection, ``#`` paragraph. ``make doc`` runs this before Sphinx; Sphinx
itself accepts a chapter without them. Exit status 1, naming each chapter
and what it lacks, otherwise 0.
"""

from __future__ import annotations

import re
import sys
from itertools import pairwise
from pathlib import Path

DOC = Path(__file__).resolve().parent
#: Section -> the subsections it must have.
TEMPLATE = {
    "Model Description": ("Design", "Scope and Limitations", "References"),
    "Usage": ("Helpers", "Attributes", "Traces", "Examples"),
    "Validation": (),
}
LEVELS = "-*=#"
_UNDERLINE = re.compile(r"([-*=#~^\"+])\1{3,}")


def headings(text: str) -> list[tuple[str, str]]:
    """The (underline character, title) of every heading, in order."""
    lines = text.splitlines()
    found: list[tuple[str, str]] = []
    for above, line in pairwise(lines):
        if _UNDERLINE.fullmatch(line) and above.strip() and not _UNDERLINE.fullmatch(above):
            found.append((line[0], above.strip()))
    return found


def problems(path: Path) -> list[str]:
    """What ``path`` lacks of the template (empty if nothing)."""
    found = headings(path.read_text(encoding="utf-8"))
    result = [f"heading '{t}' underlined with '{c}'" for c, t in found if c not in LEVELS]
    chapters = [t for c, t in found if c == "-"]
    if not found or found[0][0] != "-" or len(chapters) != 1:
        result.append(f"one chapter title underlined with '-' first (found {chapters})")
    sections: dict[str, list[str]] = {}
    current = None
    for char, title in found:
        if char == "*":
            current = title
            sections.setdefault(title, [])
        elif char == "=" and current is not None:
            sections[current].append(title)
    for section, subsections in TEMPLATE.items():
        if section not in sections:
            result.append(f"no section '{section}'")
            continue
        result += [
            f"no subsection '{section}' / '{sub}'"
            for sub in subsections
            if sub not in sections[section]
        ]
    return result


def main() -> int:
    chapters = sorted(p for p in DOC.glob("*.rst") if p.name != "index.rst")
    failed = False
    for chapter in chapters:
        for problem in problems(chapter):
            print(f"doc/{chapter.name}: {problem}", file=sys.stderr)
            failed = True
    if failed:
        return 1
    print(f"chapters: {len(chapters)} follow ns-3's model template")
    return 0


if __name__ == "__main__":
    sys.exit(main())
