"""Parameter sweeps of the module's scenario programs, in the manner of sem.

A user's first call::

    from rudp.sweep import run_sweep
    frame = run_sweep("seed000", quick=True)   # results/seed000-quick/

The core, one job per module, which ``import rudp.sweep`` loads (and a Dask
worker running a point), without matplotlib or scipy:

- :mod:`~rudp.sweep.grid`: grids (TOML or Python) expanded into points x runs;
- :mod:`~rudp.sweep.options`: what a program takes (``--PrintHelp``), grids
  checked against it before anything runs;
- :mod:`~rudp.sweep.cache`: build identities (a program and the libraries it
  loads) and the per-run JSON cache;
- :mod:`~rudp.sweep.execute`: one run of one point, as an :class:`Outcome`;
- :mod:`~rudp.sweep.pool`: many runs, on local cores or a Dask cluster;
- :mod:`~rudp.sweep.frame`: outcomes as a DataFrame, Parquet or CSV;
- :mod:`~rudp.sweep.manager`: :func:`plan`, its cache status and
  :func:`run_sweep`, tying them together;
- :mod:`~rudp.sweep.cli`: ``python -m rudp.sweep``, a thin layer over it;
- :mod:`~rudp.sweep.presets`: the seeds' experiments by name, ``seed000`` to
  ``seed003``, each a package of its grid, its published numbers where the
  code compares with them, and its report.

The report layer, imported only when a report is drawn:
:mod:`~rudp.sweep.stats` (means with Student-t 95 % confidence intervals,
scipy), :mod:`~rudp.sweep.tables` (Markdown/CSV), :mod:`~rudp.sweep.figures`
(PNG through matplotlib's Figure, never pyplot: no backend is set) and the
presets' ``report`` modules.
"""

from .execute import Outcome, run_point
from .frame import failure_report, load
from .grid import Grid, GridError, Point, expand, load_grids
from .manager import CacheStatus, Plan, plan, run_sweep
from .presets import PRESETS

__all__ = [
    "PRESETS",
    "CacheStatus",
    "Grid",
    "GridError",
    "Outcome",
    "Plan",
    "Point",
    "expand",
    "failure_report",
    "load",
    "load_grids",
    "plan",
    "run_point",
    "run_sweep",
]
