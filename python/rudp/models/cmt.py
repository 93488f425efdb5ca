"""Analytic throughput model of concurrent multipath transfer (seed 002).

Song Fei, Wang Bo, Zhang Hongke, Zhang Sidong, "Research on Receive Buffer Blocking in
CMT" (多路径并行传输中接收缓存阻塞问题的研究), Acta Electronica Sinica 38(3), 2010,
section 3, equations (1)-(12).

The model
---------
An association sends over ``n`` paths. ``W_n`` is the sum of the paths' congestion windows
just before a loss, so each path holds ``W_n / n``. A loss on one path cuts that path's
window by the factor ``beta``: the sum drops by ``beta * W_n / n`` to ``(n - beta) * W_n / n``.
Every path adds ``alpha`` per RTT, the sum ``n * alpha``. The window then climbs back to its
peak and the next loss happens; one such cycle carries ``1 / p`` packets. ``W_r`` (the receive
buffer, in packets) caps the sum. Four cases, numbered as the paper's sections 3.1-3.4:

====  ===============  ==============  ===================================================
case  fast retransmit  buffer          equations
====  ===============  ==============  ===================================================
1     no               ``W_n < W_r``   (1)-(3): ``W_n`` closed form (2)
2     no               ``W_n >= W_r``  (4)-(5): ``T_1`` RTTs at the cap ``W_r``
3     yes              ``W_n < W_r``   (6)-(9): ``T_2`` from ``W_n`` (6), ``W_n`` from (8)
4     yes              ``W_n >= W_r``  (10)-(12): ``T_3`` (10), ``T_4`` RTTs at the cap (11)
====  ===============  ==============  ===================================================

With fast retransmit the lossy path does not grow for one RTT (until the retransmission is
acknowledged) while the other ``n - 1`` paths add ``(n - 1) * alpha``; ``T_2`` (``T_3``) more
RTTs at ``n * alpha`` finish the climb. Every cycle also has one RTT that the packet count
leaves out: the ``+ 1`` of eqs (3) and (5), and in the ``+ 2`` of eqs (9) and (12) the RTT
besides the fast-retransmit one. Throughput is ``(1/p) * MSS`` bytes per cycle of
``cycle * RTT`` seconds; windows are in packets, so ``W_r = wr_bytes / mss_bytes``.

Solving eqs (6) and (8)
-----------------------
Eq (6) gives ``T_2`` from ``W_n`` and eq (8) ``W_n`` from ``T_2``. Eq (8) is eq (7) solved
for ``W_n``; putting ``T_2 = beta W / (n**2 alpha) - (n - 1) / n`` (eq (6)) into twice eq (7)
and multiplying by ``n**3 * alpha`` leaves a quadratic in ``W = W_n``::

    beta*(2n - beta) * W**2 + 2*n*alpha*(n - beta) * W - n**2 * alpha * D = 0,
    D = 2n/p - (n - 1)*alpha.

Both leading coefficients are positive, so there is exactly one positive root when ``D > 0``
(always, for ``alpha <= 2``), and none otherwise. It is evaluated in the cancellation-free form
``W = 2*n**2*alpha*D / (b + sqrt(b**2 + 4*a*n**2*alpha*D))`` with ``a``, ``b`` the first two
coefficients.

Where the printed equations stop being physical
-----------------------------------------------
* Eq (11), as printed, has ``(1 + T_3)(n - 1)alpha`` where the packet balance it comes from
  (eq (7) written for ``W_r``, plus ``T_4 W_r``, times ``2n``; compare eq (8), which keeps the
  ``n``) has ``n(1 + T_3)(n - 1)alpha``. As printed, ``T_4`` is
  not 0 at ``W_r = W_n`` and the model jumps between cases 3 and 4 by
  ``(n - 1)**2 * alpha * (1 + T_2) / (2 n W_n)`` RTTs of ``T_4``. The default
  ``variant="consistent"`` uses the factor ``n``; ``variant="printed"`` keeps the paper's text.
* ``T_2 < 0`` (``T_3 < 0``) when ``beta * W / n < (n - 1) * alpha``: the other paths win back
  the whole loss within the fast-retransmit RTT, so no RTT at ``n * alpha`` follows and eqs
  (7)-(12) describe a climb of negative length. This happens inside the paper's own grids
  (``n = 4``, ``p = 0.05``; ``W_r = 16 KB`` with ``n = 3, 4``). ``variant="consistent"`` then
  follows the same packet balance with the climb cut short: the sum grows at ``(n - 1) * alpha``
  per RTT and reaches its peak after ``tau = beta * W / (n (n - 1) alpha) < 1`` RTT, so
  ``1/p = tau (2n - beta) W / (2n)`` (eq (1) with ``n * alpha`` replaced by ``(n - 1) * alpha``)
  and the cycle is ``tau + 1`` (case 3) or ``tau + T_4 + 1`` (case 4, with
  ``T_4 = 1/(p W_r) - tau (2n - beta) / (2n)``) RTTs. At ``T = 0``, ``tau = 1 + T``: it equals
  the paper's equations there and is continuous. ``variant="printed"`` evaluates the printed
  formulas with the negative ``T``. Both set :attr:`CmtModelResult.short_recovery`.
* Cases 1 and 2 have no such region: ``T_1 >= 0`` exactly when ``W_n >= W_r``.

The model knows no link bandwidth: it is the loss-limited (and buffer-limited) rate and never
caps at a bottleneck.

n independent paths
-------------------
The n-path cycle charges every path the RTT that the packet count leaves out (the ``+ 1`` of
eqs (3), (5); one RTT of the ``+ 2`` of eqs (9), (12)) on every loss of the association, so its
per-path throughput falls as ``n`` grows. In CMT a loss stalls only the path that lost it (split
fast retransmit and the per-path windows keep the others going) unless the receive buffer
blocks them all: with an unbounded buffer the association is ``n`` independent single-path
associations. :func:`independent_paths_throughput` is that reference, ``n`` times the same
equations at ``n = 1``, each path with ``1/n`` of the buffer (for an unbounded buffer simply
``n * model(1)``; for a bounded one the share a buffer-splitting sender would give each path).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Literal, get_args

__all__ = [
    "CmtModelResult",
    "Variant",
    "evaluate",
    "independent_paths_throughput",
    "short_recovery_loss_rate",
    "throughput",
    "window_sum",
]

Variant = Literal["consistent", "printed"]
"""``"consistent"``: eq (11) as derived and the short-recovery region handled (default);
``"printed"``: eqs (1)-(12) exactly as printed."""


@dataclass(frozen=True)
class CmtModelResult:
    """One evaluation of the model. Windows in packets, durations in RTTs.

    Attributes:
        case: 1-4, the paper's section 3.1-3.4 (see the module docstring).
        short_recovery: ``T_2`` (case 3) or ``T_3`` (case 4) is negative: the loss is won back
            within the fast-retransmit RTT. Always ``False`` in cases 1 and 2.
        w_n: peak sum of the congestion windows without the buffer cap (eq (2), or eqs
            (6)+(8)), packets.
        w_r: receive buffer, packets (``wr_bytes / mss_bytes``).
        t1: eq (4), RTTs at the cap ``W_r``; case 2 only.
        t2: eq (6) at ``W_n``; case 3 only. Reported as computed, negative in short recovery.
        t3: eq (10) at ``W_r``; case 4 only. Reported as computed, negative in short recovery.
        t4: RTTs at the cap (eq (11), or its short-recovery form); case 4 only.
        recovery_rtts: RTTs from the loss back to the peak whose packets the cycle counts:
            ``beta*W/(n**2*alpha)`` (cases 1, 2), ``1 + T`` (cases 3, 4), ``tau`` in
            short recovery.
        cycle_rtts: length of one loss cycle, RTTs (the denominators of eqs (3), (5), (9),
            (12) without the ``RTT``).
        throughput: bytes per second.
    """

    case: int
    short_recovery: bool
    w_n: float
    w_r: float
    t1: float | None
    t2: float | None
    t3: float | None
    t4: float | None
    recovery_rtts: float
    cycle_rtts: float
    throughput: float


def _require(ok: bool, name: str, allowed: str, value: object) -> None:
    if not ok:
        raise ValueError(f"{name} must be {allowed}, got {value!r}")


def _is_real(value: object) -> bool:
    # bool is an Integral; a flag passed by position must not read as 0 or 1.
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _check_window_params(n: int, p: float, alpha: float, beta: float, variant: str) -> None:
    _require(
        isinstance(n, numbers.Integral) and not isinstance(n, bool) and n >= 1,
        "n",
        "an integer >= 1",
        n,
    )
    _require(_is_real(p) and 0.0 < p < 1.0, "p", "a loss rate with 0 < p < 1", p)
    _require(
        _is_real(alpha) and math.isfinite(alpha) and alpha > 0.0, "alpha", "finite and > 0", alpha
    )
    _require(_is_real(beta) and 0.0 < beta < 1.0, "beta", "in 0 < beta < 1", beta)
    _require(variant in get_args(Variant), "variant", f"one of {get_args(Variant)}", variant)


def short_recovery_loss_rate(n: int, alpha: float = 1.0, beta: float = 0.5) -> float:
    """Loss rate above which ``T_2`` of eq (6) is negative (unbounded buffer, fast retransmit).

    At this ``p`` the quadratic's ``W_n`` is ``n (n - 1) alpha / beta``, where ``T_2 = 0``;
    it is ``2 beta / ((n - 1) alpha (2n - beta))``, ``inf`` for ``n = 1`` (no other path grows
    during the fast-retransmit RTT). For ``alpha = 1``, ``beta = 0.5``: 0.286, 0.0909 and
    0.0444 for 2, 3 and 4 paths.
    """
    _check_window_params(n, 0.5, alpha, beta, "consistent")
    if n == 1:
        return math.inf
    return 2.0 * beta / ((n - 1) * alpha * (2 * n - beta))


def _fr_window_quadratic(n: int, p: float, alpha: float, beta: float) -> float:
    """Positive root of eqs (6)+(8) (see the module docstring), packets."""
    d = 2.0 * n / p - (n - 1) * alpha
    if d <= 0.0:
        raise ValueError(
            f"p: eqs (6)+(8) have no positive W_n when p*(n-1)*alpha >= 2n "
            f"(p={p!r}, n={n}, alpha={alpha!r}); use variant='consistent'"
        )
    a = beta * (2 * n - beta)
    b = 2.0 * n * alpha * (n - beta)
    c_abs = n * n * alpha * d
    # Rationalised root: -b + sqrt(b**2 + 4ac) would cancel when 4ac << b**2 (large p).
    return 2.0 * c_abs / (b + math.sqrt(b * b + 4.0 * a * c_abs))


def _short_window(n: int, p: float, alpha: float, beta: float) -> float:
    """Peak window of the short-recovery cycle: eq (2) with ``(n - 1) alpha`` growth, packets."""
    return n * math.sqrt(2.0 * (n - 1) * alpha / ((2 * n - beta) * p * beta))


def _short_tau(n: int, w: float, alpha: float, beta: float) -> float:
    """RTTs the other ``n - 1`` paths need to win back ``beta * w / n`` (< 1 when T < 0)."""
    return beta * w / (n * (n - 1) * alpha)


def window_sum(
    n: int,
    p: float,
    alpha: float = 1.0,
    beta: float = 0.5,
    fast_retransmit: bool = True,
    *,
    variant: Variant = "consistent",
) -> float:
    """``W_n``: the peak sum of the paths' congestion windows with no buffer cap, packets.

    Without fast retransmit this is eq (2), ``n sqrt(2 n alpha / ((2n - beta) p beta))``.
    With it, the positive root of eqs (6)+(8) (see the module docstring); with
    ``variant="consistent"`` and ``p`` above :func:`short_recovery_loss_rate`, the
    short-recovery peak ``n sqrt(2 (n - 1) alpha / ((2n - beta) p beta))`` instead.

    Raises:
        ValueError: a parameter out of range (the message names it), or
            ``variant="printed"`` with ``p (n - 1) alpha >= 2n`` (eq (8) has no positive root).
    """
    _check_window_params(n, p, alpha, beta, variant)
    if not fast_retransmit:
        return n * math.sqrt(2.0 * n * alpha / ((2 * n - beta) * p * beta))
    if variant == "consistent" and p > short_recovery_loss_rate(n, alpha, beta):
        return _short_window(n, p, alpha, beta)
    return _fr_window_quadratic(n, p, alpha, beta)


# The positional signature is the project's agreed interface for the model.
def evaluate(  # noqa: PLR0917
    n: int,
    p: float,
    rtt_s: float,
    mss_bytes: float,
    wr_bytes: float,
    alpha: float = 1.0,
    beta: float = 0.5,
    fast_retransmit: bool = True,
    *,
    variant: Variant = "consistent",
) -> CmtModelResult:
    """Evaluate the model: which case applies, the intermediate values and the throughput.

    Args:
        n: number of paths, an integer >= 1.
        p: packet loss rate (every path), 0 < p < 1.
        rtt_s: round-trip time (every path), seconds, > 0.
        mss_bytes: bytes per packet (the paper's MSS / data chunk), > 0.
        wr_bytes: receive buffer, bytes, > 0; ``math.inf`` for no cap. Converted to packets
            as ``wr_bytes / mss_bytes``.
        alpha: per-path additive increase, packets per RTT, > 0.
        beta: per-path multiplicative decrease, 0 < beta < 1.
        fast_retransmit: cases 3-4 if true, 1-2 if false.
        variant: ``"consistent"`` (default) or ``"printed"``; see the module docstring.

    Raises:
        ValueError: a parameter out of range; the message names it.
    """
    _check_window_params(n, p, alpha, beta, variant)
    _require(
        _is_real(rtt_s) and math.isfinite(rtt_s) and rtt_s > 0.0, "rtt_s", "finite and > 0", rtt_s
    )
    _require(
        _is_real(mss_bytes) and math.isfinite(mss_bytes) and mss_bytes > 0.0,
        "mss_bytes",
        "finite and > 0",
        mss_bytes,
    )
    _require(_is_real(wr_bytes) and wr_bytes > 0.0, "wr_bytes", "> 0 (inf allowed)", wr_bytes)

    n = int(n)
    w_r = wr_bytes / mss_bytes
    w_n = window_sum(n, p, alpha, beta, fast_retransmit, variant=variant)
    packets = 1.0 / p
    t1 = t2 = t3 = t4 = None
    short = False

    if not fast_retransmit and w_n < w_r:  # case 1, eq (3)
        case = 1
        recovery = beta * w_n / (n * n * alpha)
        cycle = recovery + 1.0
    elif not fast_retransmit:  # case 2, eqs (4)-(5)
        case = 2
        recovery = beta * w_r / (n * n * alpha)
        t1 = (2 * n**3 * alpha - (2 * n - beta) * w_r**2 * beta * p) / (2 * n**3 * alpha * p * w_r)
        cycle = recovery + t1 + 1.0
    elif w_n < w_r:  # case 3, eqs (6)-(9)
        case = 3
        t2 = (beta * w_n - n * (n - 1) * alpha) / (n * n * alpha)
        short = t2 < 0.0
        if short and variant == "consistent":
            recovery = _short_tau(n, w_n, alpha, beta)
        else:
            recovery = 1.0 + t2
        cycle = recovery + 1.0  # eq (9): T_2 + 2
    else:  # case 4, eqs (10)-(12)
        case = 4
        t3 = (beta * w_r - n * (n - 1) * alpha) / (n * n * alpha)
        short = t3 < 0.0
        if short and variant == "consistent":
            recovery = _short_tau(n, w_r, alpha, beta)
            t4 = (packets - recovery * (2 * n - beta) * w_r / (2 * n)) / w_r
        else:
            recovery = 1.0 + t3
            # The factor the printed eq (11) lacks; see the module docstring.
            k = n if variant == "consistent" else 1
            balance = (2 + t3) * (n - beta) * w_r + k * (1 + t3) * (n - 1) * alpha + n * w_r * t3
            t4 = (2 * n - p * balance) / (2 * p * n * w_r)
        cycle = recovery + t4 + 1.0  # eq (12): T_3 + T_4 + 2

    return CmtModelResult(
        case=case,
        short_recovery=short,
        w_n=w_n,
        w_r=w_r,
        t1=t1,
        t2=t2,
        t3=t3,
        t4=t4,
        recovery_rtts=recovery,
        cycle_rtts=cycle,
        throughput=packets * mss_bytes / (cycle * rtt_s),
    )


# The positional signature is the project's agreed interface for the model.
def throughput(  # noqa: PLR0917
    n: int,
    p: float,
    rtt_s: float,
    mss_bytes: float,
    wr_bytes: float,
    alpha: float = 1.0,
    beta: float = 0.5,
    fast_retransmit: bool = True,
    *,
    variant: Variant = "consistent",
) -> float:
    """Throughput of the association, bytes per second: ``(1/p) MSS / (cycle RTT)``.

    Picks the case by ``fast_retransmit`` and ``W_n < W_r`` (``W_r = wr_bytes / mss_bytes``
    packets) and applies eq (3), (5), (9) or (12). With fast retransmit, ``W_n`` is the positive
    root of the quadratic that eqs (6)+(8) reduce to, not an iteration. Arguments, variants and
    errors as :func:`evaluate`; the module docstring gives the equations and where the model is
    extended past the printed ones.
    """
    return evaluate(
        n, p, rtt_s, mss_bytes, wr_bytes, alpha, beta, fast_retransmit, variant=variant
    ).throughput


# The positional signature is the project's agreed interface for the model.
def independent_paths_throughput(  # noqa: PLR0917
    n: int,
    p: float,
    rtt_s: float,
    mss_bytes: float,
    wr_bytes: float,
    alpha: float = 1.0,
    beta: float = 0.5,
    fast_retransmit: bool = True,
    *,
    variant: Variant = "consistent",
) -> float:
    """``n x model(n = 1)``: ``n`` independent paths, each with ``1/n`` of the buffer, bytes/s.

    ``n * throughput(1, p, rtt_s, mss_bytes, wr_bytes / n, ...)``: what the association would
    carry if a loss stalled only its own path (see "n independent paths" in the module
    docstring). With ``wr_bytes = math.inf`` it is exactly ``n`` times the single-path
    model; at ``n = 1`` it is :func:`throughput`. Arguments, variants and errors as
    :func:`evaluate`.
    """
    _require(
        isinstance(n, numbers.Integral) and not isinstance(n, bool) and n >= 1,
        "n",
        "an integer >= 1",
        n,
    )
    _require(_is_real(wr_bytes) and wr_bytes > 0.0, "wr_bytes", "> 0 (inf allowed)", wr_bytes)
    per_path = evaluate(
        1, p, rtt_s, mss_bytes, wr_bytes / int(n), alpha, beta, fast_retransmit, variant=variant
    )
    return int(n) * per_path.throughput
