"""Mean and 95 % confidence interval over the successful runs, and how many
runs failed beside it.

Two intervals, one per kind of axis:

* ``linear``: the mean and its two-sided Student-t interval
  (:func:`ci_half_width`), for a metric drawn on a linear axis or printed
  in a table;
* ``log``: the geometric mean and the Student-t interval of the mean of
  the logarithms, mapped back (:func:`log_interval`), for a positive
  metric drawn on a log axis. Its bounds are positive, so no whisker runs
  below the axis's floor, and it suits what log axes are used for here:
  transfer times, delays and jitter that spread by factors, not by
  amounts. A group with a value at or below zero has no such interval:
  its runs are drawn as points instead (:func:`rudp.sweep.figures.plot_estimates`).

A failed run is not averaged in: its throughput or transfer time measures
a transfer that did not complete, a different quantity. It is not dropped
either: every summary counts it (``failed`` of ``runs``), and the tables
and figures print that count beside the mean, so a mean over the few runs
that survived a high loss rate never passes for a mean over all of them.

With n runs the t quantile is large for small n (12.7 at n = 2, 4.30 at
n = 3, 2.78 at n = 5): an interval from two runs is twelve times their
spread, which says little. The presets run at least :data:`MIN_RUNS` runs
a point wherever runs differ, at the quick size too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats

from .frame import success

__all__ = [
    "LEVEL",
    "MIN_RUNS",
    "Scale",
    "ci_half_width",
    "log_interval",
    "ratio_interval",
    "summarize",
    "t_quantile",
]

LEVEL = 0.95
#: The fewest runs a point of a preset gets where runs differ (RngRun draws).
MIN_RUNS = 3
#: The axis a summary is for: ``linear`` (arithmetic mean) or ``log``
#: (geometric mean, interval in log space).
Scale = Literal["linear", "log"]


def t_quantile(n: int) -> float:
    """The two-sided 95 % Student-t quantile for a sample of ``n`` (n - 1 degrees of freedom)."""
    return float(stats.t.ppf(0.5 + LEVEL / 2, n - 1))


def ci_half_width(values: pd.Series) -> float:
    """Half-width of the two-sided 95 % Student-t interval of the mean; NaN for n < 2."""
    sample = values.dropna().to_numpy(dtype=float)
    n = len(sample)
    if n < 2:
        return float("nan")
    return t_quantile(n) * float(np.std(sample, ddof=1)) / float(np.sqrt(n))


def log_interval(values: pd.Series) -> tuple[float, float, float]:
    """The geometric mean of ``values`` and its 95 % interval: the Student-t
    interval of the mean of ``log(values)``, mapped back with ``exp``.

    Returns ``(centre, low, high)``: ``0 < low <= centre <= high``. The centre
    alone for one value (``low = high = NaN``); all three NaN when there is
    no value or a value is not positive (a log axis cannot show it).
    """
    sample = values.dropna().to_numpy(dtype=float)
    n = len(sample)
    nan = float("nan")
    if n == 0 or (sample <= 0).any():
        return nan, nan, nan
    logs = np.log(sample)
    centre = float(np.mean(logs))
    if n < 2:
        return float(np.exp(centre)), nan, nan
    half = t_quantile(n) * float(np.std(logs, ddof=1)) / float(np.sqrt(n))
    return float(np.exp(centre)), float(np.exp(centre - half)), float(np.exp(centre + half))


def ratio_interval(reference: npt.ArrayLike, other: npt.ArrayLike) -> tuple[float, float, float]:
    """The ratio of the means, mean(``other``) / mean(``reference``), of two
    independent samples and its approximate 95 % interval.

    The interval is the Student-t interval of the log of the ratio (the delta
    method: each mean's squared coefficient of variation over its sample
    size, summed) with Welch-Satterthwaite's degrees of freedom, mapped back
    with ``exp``. Returns ``(ratio, low, high)``: ``low = high = NaN`` when a
    sample has fewer than two values, ``low = high = ratio`` when neither
    sample spreads, all three NaN when a mean is not positive.
    """
    a = np.asarray(reference, dtype=float)
    b = np.asarray(other, dtype=float)
    nan = float("nan")
    if len(a) == 0 or len(b) == 0 or a.mean() <= 0 or b.mean() <= 0:
        return nan, nan, nan
    ratio = float(b.mean() / a.mean())
    if len(a) < 2 or len(b) < 2:
        return ratio, nan, nan
    # The variance of each log mean: (sd / mean)^2 / n.
    va = float(np.var(a, ddof=1)) / (len(a) * float(a.mean()) ** 2)
    vb = float(np.var(b, ddof=1)) / (len(b) * float(b.mean()) ** 2)
    if va + vb == 0:
        return ratio, ratio, ratio
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    half = float(stats.t.ppf(0.5 + LEVEL / 2, df)) * float(np.sqrt(va + vb))
    return ratio, ratio * float(np.exp(-half)), ratio * float(np.exp(half))


def summarize(
    frame: pd.DataFrame, by: Sequence[str], metric: str, *, scale: Scale = "linear"
) -> pd.DataFrame:
    """Per group of ``by``: ``mean``, ``ci95`` (half-width), ``low`` and ``high``
    (the interval's bounds) and ``n`` of ``metric`` over the successful runs,
    ``failed`` (runs that did not succeed: reported failures and runs
    without a result) and ``runs`` (all of the group's rows).

    ``scale="log"``: ``mean`` is the geometric mean and ``low``/``high`` the
    interval of :func:`log_interval` (``ci95`` NaN: it is not symmetric);
    NaN where a value is not positive. ``scale="linear"``: the arithmetic
    mean and ``mean -+ ci95``.

    Which rows succeeded: :func:`rudp.sweep.frame.success` (the ``status``
    column); a frame without one counts every row a success.
    """
    ok = success(frame)
    values = pd.to_numeric(frame[metric], errors="coerce")
    data = frame.assign(_ok=ok, _value=values.where(ok))
    grouped = data.groupby(list(by), sort=True, dropna=False)
    if scale == "log":
        bounds = [log_interval(values) for _, values in grouped["_value"]]
        result = grouped["_value"].agg(n="count")
        result["mean"] = [b[0] for b in bounds]
        result["ci95"] = float("nan")
        result["low"] = [b[1] for b in bounds]
        result["high"] = [b[2] for b in bounds]
        result = result[["mean", "ci95", "low", "high", "n"]]
    elif scale == "linear":
        result = grouped["_value"].agg(mean="mean", ci95=ci_half_width, n="count")
        result.insert(2, "low", result["mean"] - result["ci95"])
        result.insert(3, "high", result["mean"] + result["ci95"])
    else:
        raise ValueError(f"scale {scale!r}: allowed: linear, log")
    result["failed"] = grouped["_ok"].agg(lambda s: int((~s.astype(bool)).sum()))
    result["runs"] = grouped["_ok"].size()
    return result.reset_index()
