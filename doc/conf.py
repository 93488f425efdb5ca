# SPDX-License-Identifier: GPL-2.0-only
"""Sphinx configuration of the rudp module's documentation (``make doc``).

``make doc`` runs ``sphinx-build -W --keep-going -b html doc build-doc/html``.
The chapters are the same files that ns-3's models manual takes from a
module's ``doc/`` folder (see ``index.rst``), so they use nothing ns-3's own
configuration (``doc/models/source/conf.py``) lacks: standard reStructuredText
and Sphinx directives, ``:doc:`` references between the chapters (ns-3 copies
them into one folder), figures under ``figures/``, ``replace.txt`` for
``|ns3|``, and ``:math:``. ns-3 renders math with ``sphinx.ext.imgmath``,
which needs LaTeX; this build uses ``sphinx.ext.mathjax`` (part of Sphinx),
which needs nothing installed.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
with (_ROOT / "pyproject.toml").open("rb") as _pyproject:
    release = str(tomllib.load(_pyproject)["project"]["version"])
version = release

project = "rudp: reliable transport over UDP for ns-3"
author = "rudp contributors"
copyright = "2026, rudp contributors"

extensions = ["sphinx.ext.mathjax"]
root_doc = "index"
source_suffix = {".rst": "restructuredtext"}
# The sweeps' tables that chapters include (figures/*.rst) are no pages of their own.
exclude_patterns: list[str] = ["figures/*.rst"]
# As ns-3's models manual: no language guessed for a bare "::" block unless a
# chapter says ".. highlight:: cpp" (or sh, python) itself.
highlight_language = "none"
pygments_style = "sphinx"

html_theme = "alabaster"
html_title = f"rudp {release}"
html_short_title = "rudp"
html_last_updated_fmt = ""
html_show_sourcelink = False
