"""Steady-state throughput of a Reno sender on a lossy path: Mathis et al. and Padhye et al.

Mathis, Semke, Mahdavi, Ott, "The Macroscopic Behavior of the TCP Congestion Avoidance
Algorithm", ACM SIGCOMM Computer Communication Review 27(3), 1997, eq. (3) with the
constant of its section 2 for delayed ACKs::

    B = MSS / RTT * C / sqrt(p),    C = sqrt(3 / (2 b))

(``C = sqrt(3/2)`` when every segment is acknowledged, ``b = 1``; ``sqrt(3/4)`` with an ACK
every second segment, ``b = 2``). It models the sawtooth of congestion avoidance alone:
every loss is repaired by fast retransmit, none by a timeout.

Padhye, Firoiu, Towsley, Kurose, "Modeling TCP Throughput: A Simple Model and its Empirical
Validation", ACM SIGCOMM 1998, section 2 (numbering of the SIGCOMM paper). It adds the
retransmission timeouts: with probability ``Q`` a loss indication is a timeout, which costs
``T0`` and its exponential backoff. Its inputs: ``p`` the probability that a segment is lost
(a loss indication: the first loss of a round, the rest of the round being lost with it),
``RTT`` the mean round-trip time, ``T0`` the retransmission timeout (before backoff), ``b``
the segments one ACK acknowledges, ``W_max`` the receiver's window in segments.

* eq. (13), the mean window at a loss when the window is not limited::

      E[W] = (2 + b) / (3 b) + sqrt(8 (1 - p) / (3 b p) + ((2 + b) / (3 b))**2)

* eq. (24)-(25), the probability that a loss in a window of ``w`` segments ends in a timeout
  (fewer than three duplicate ACKs come back)::

      Q(w) = min(1, (1 - (1 - p)**3) (1 + (1 - p)**3 (1 - (1 - p)**(w - 3))) / (1 - (1 - p)**w))

* eq. (28), the backoff sum: ``f(p) = 1 + p + 2 p**2 + 4 p**3 + 8 p**4 + 16 p**5 + 32 p**6``

* eq. (31), the full model, in segments per second::

      E[W] <  W_max:  B = ((1-p)/p + E[W] + Q(E[W])/(1-p))
                          / (RTT (b/2 E[W] + 1) + Q(E[W]) T0 f(p) / (1-p))
      E[W] >= W_max:  B = ((1-p)/p + W_max + Q(W_max)/(1-p))
                          / (RTT (b/8 W_max + (1-p)/(p W_max) + 2) + Q(W_max) T0 f(p) / (1-p))

* eq. (32), its closed-form approximation::

      B = min(W_max / RTT, 1 / (RTT sqrt(2 b p / 3) + T0 min(1, 3 sqrt(3 b p / 8)) p (1 + 32 p**2)))

Every function here returns segments per second; multiply by the segment's payload for
bytes. :func:`padhye_full` also takes ``q``, a measured share of timeouts among the loss
indications, in place of the model's ``Q(w)``: that separates the model's window dynamics
from its assumption about how often a loss ends in a timeout.
"""

from __future__ import annotations

import math

__all__ = [
    "backoff_factor",
    "mathis",
    "padhye_approximate",
    "padhye_full",
    "padhye_mean_window",
    "timeout_probability",
]


def _check(p: float, rtt_s: float, b: int) -> None:
    if not 0 < p < 1:
        raise ValueError(f"loss probability p = {p}: allowed 0 < p < 1")
    if not rtt_s > 0:
        raise ValueError(f"RTT = {rtt_s} s: allowed > 0")
    if b < 1:
        raise ValueError(f"b = {b}: allowed >= 1 segment per ACK")


def mathis(p: float, rtt_s: float, b: int = 1) -> float:
    """Mathis et al. (1997), eq. (3): ``sqrt(3 / (2 b)) / (RTT sqrt(p))`` segments per second."""
    _check(p, rtt_s, b)
    return math.sqrt(3.0 / (2.0 * b)) / (rtt_s * math.sqrt(p))


def padhye_mean_window(p: float, b: int = 1) -> float:
    """Padhye et al. (1998), eq. (13): the mean window at a loss indication, in segments."""
    _check(p, 1.0, b)
    k = (2.0 + b) / (3.0 * b)
    return k + math.sqrt(8.0 * (1.0 - p) / (3.0 * b * p) + k * k)


def timeout_probability(p: float, w: float) -> float:
    """Padhye et al. (1998), eqs. (24)-(25): ``Q(w)``, the chance that a loss ends in a timeout.

    ``w`` is the window in segments (``Q = 1`` for a window of at most three: no three
    duplicate ACKs can come back).
    """
    _check(p, 1.0, 1)
    if w <= 3:
        return 1.0
    s = 1.0 - p
    value: float = (1.0 - s**3) * (1.0 + s**3 * (1.0 - s ** (w - 3))) / (1.0 - s**w)
    return min(1.0, value)


def backoff_factor(p: float) -> float:
    """Padhye et al. (1998), eq. (28): ``f(p)``, the backoff of a sequence of timeouts."""
    return 1 + p + 2 * p**2 + 4 * p**3 + 8 * p**4 + 16 * p**5 + 32 * p**6


def padhye_full(
    p: float,
    rtt_s: float,
    t0_s: float,
    b: int = 1,
    *,
    w_max: float = math.inf,
    q: float | None = None,
) -> float:
    """Padhye et al. (1998), eq. (31): segments per second.

    Args:
        p: probability of a loss indication (0 < p < 1).
        rtt_s: mean round-trip time (s).
        t0_s: retransmission timeout before backoff (s).
        b: segments acknowledged by one ACK.
        w_max: the receiver's window in segments (``inf``: unlimited).
        q: the share of loss indications that are timeouts; ``None``: the model's ``Q(w)``.
    """
    _check(p, rtt_s, b)
    if not t0_s > 0:
        raise ValueError(f"T0 = {t0_s} s: allowed > 0")
    if not w_max > 0:
        raise ValueError(f"W_max = {w_max}: allowed > 0 segments")
    if q is not None and not 0 <= q <= 1:
        raise ValueError(f"q = {q}: allowed 0 <= q <= 1")
    timeouts = t0_s * backoff_factor(p) / (1.0 - p)
    window = padhye_mean_window(p, b)
    if window < w_max:
        share = timeout_probability(p, window) if q is None else q
        return ((1.0 - p) / p + window + share / (1.0 - p)) / (
            rtt_s * (b / 2.0 * window + 1.0) + share * timeouts
        )
    share = timeout_probability(p, w_max) if q is None else q
    return ((1.0 - p) / p + w_max + share / (1.0 - p)) / (
        rtt_s * (b / 8.0 * w_max + (1.0 - p) / (p * w_max) + 2.0) + share * timeouts
    )


def padhye_approximate(
    p: float, rtt_s: float, t0_s: float, b: int = 1, w_max: float = math.inf
) -> float:
    """Padhye et al. (1998), eq. (32), the closed-form approximation: segments per second."""
    _check(p, rtt_s, b)
    if not t0_s > 0:
        raise ValueError(f"T0 = {t0_s} s: allowed > 0")
    timeout = t0_s * min(1.0, 3.0 * math.sqrt(3.0 * b * p / 8.0)) * p * (1.0 + 32.0 * p**2)
    return min(w_max / rtt_s, 1.0 / (rtt_s * math.sqrt(2.0 * b * p / 3.0) + timeout))
