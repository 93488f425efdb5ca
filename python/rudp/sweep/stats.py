"""Mean and 95 % confidence interval over runs (Student t)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

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
    """``mean``, ``ci95`` (half-width) and ``n`` of ``metric`` per group of ``by``."""
    grouped = frame.groupby(list(by), sort=True, dropna=False)[metric]
    result = grouped.agg(mean="mean", ci95=ci_half_width, n="count")
    return result.reset_index()
