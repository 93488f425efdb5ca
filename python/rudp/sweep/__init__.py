"""Parameter sweeps of the module's scenario programs, in the manner of sem.

A user's first call::

    from rudp.sweep import run_sweep
    frame = run_sweep("seed000", quick=True)   # results/seed000-quick/

One job per module:

- :mod:`~rudp.sweep.grid`: grids (TOML or Python) expanded into points x runs;
- :mod:`~rudp.sweep.cache`: build identities and the per-run JSON cache;
- :mod:`~rudp.sweep.execute`: one run of one point, as an :class:`Outcome`;
- :mod:`~rudp.sweep.pool`: many runs, on local cores or a Dask cluster;
- :mod:`~rudp.sweep.frame`: outcomes as a DataFrame, Parquet or CSV;
- :mod:`~rudp.sweep.stats`, :mod:`~rudp.sweep.tables`, :mod:`~rudp.sweep.figures`:
  means with 95 % confidence intervals, Markdown/CSV tables, PNG figures;
- :mod:`~rudp.sweep.seed000`, :mod:`~rudp.sweep.seed001`,
  :mod:`~rudp.sweep.presets`: the seeds' experiments and reports;
- :mod:`~rudp.sweep.manager`: :func:`run_sweep`, tying them together;
- :mod:`~rudp.sweep.cli`: ``python -m rudp.sweep``, a thin layer over it.
"""

from .execute import Outcome, run_point
from .frame import failure_report, load
from .grid import Grid, GridError, Point, expand, load_grids
from .manager import plan, run_sweep
from .presets import PRESETS

__all__ = [
    "PRESETS",
    "Grid",
    "GridError",
    "Outcome",
    "Point",
    "expand",
    "failure_report",
    "load",
    "load_grids",
    "plan",
    "run_point",
    "run_sweep",
]
