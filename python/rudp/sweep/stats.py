"""Mean and 95 % confidence interval over the successful runs (Student t), and
how many runs failed beside it.

A failed run is not averaged in: its throughput or transfer time measures
a transfer that did not complete, a different quantity. It is not dropped
either: every summary counts it (``failed`` of ``runs``), and the tables
and figures print that count beside the mean, so a mean over the few runs
that survived a high loss rate never passes for a mean over all of them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from .frame import success

LEVEL = 0.95


def ci_half_width(values: pd.Series) -> float:
    """Half-width of the two-sided 95 % Student-t interval of the mean; NaN for n < 2."""
    sample = values.dropna().to_numpy(dtype=float)
    n = len(sample)
    if n < 2:
        return float("nan")
    quantile = float(stats.t.ppf(0.5 + LEVEL / 2, n - 1))
    return quantile * float(np.std(sample, ddof=1)) / float(np.sqrt(n))


def summarize(frame: pd.DataFrame, by: Sequence[str], metric: str) -> pd.DataFrame:
    """Per group of ``by``: ``mean``, ``ci95`` (half-width) and ``n`` of ``metric``
    over the successful runs, ``failed`` (runs that did not succeed: reported
    failures and runs without a result) and ``runs`` (all of the group's rows).

    Which rows succeeded: :func:`rudp.sweep.frame.success` (the ``status``
    column); a frame without one counts every row a success.
    """
    ok = success(frame)
    values = pd.to_numeric(frame[metric], errors="coerce")
    data = frame.assign(_ok=ok, _value=values.where(ok))
    grouped = data.groupby(list(by), sort=True, dropna=False)
    result = grouped["_value"].agg(mean="mean", ci95=ci_half_width, n="count")
    result["failed"] = grouped["_ok"].agg(lambda s: int((~s.astype(bool)).sum()))
    result["runs"] = grouped["_ok"].size()
    return result.reset_index()
