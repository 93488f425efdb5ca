"""Padhye et al. (1998) and Mathis et al. (1997) against values computed by hand.

Each expected value below was worked out from the printed equation with the
numbers given (a calculator, not this module); the comments show the steps.
"""

from __future__ import annotations

import math

import pytest

from rudp.models import tcp_throughput as model


def test_mathis_is_the_square_root_law_with_b() -> None:
    # sqrt(3/2) / (0.1 s * sqrt(0.01)) = 1.224745 / 0.01
    assert model.mathis(0.01, 0.1, b=1) == pytest.approx(122.474487, rel=1e-6)
    # sqrt(3/4) / 0.01: delayed ACKs cost a factor sqrt(2)
    assert model.mathis(0.01, 0.1, b=2) == pytest.approx(86.602540, rel=1e-6)


def test_the_mean_window_of_eq_13() -> None:
    # b = 2: 2/3 + sqrt(8 * 0.99 / 0.06 + 4/9) = 2/3 + sqrt(132.4444) = 12.175118,
    # which is also (2/3)(1 + sqrt(3 (1-p)/p + 1)), the b = 2 form often quoted.
    assert model.padhye_mean_window(0.01, b=2) == pytest.approx(12.175118, rel=1e-6)
    assert model.padhye_mean_window(0.01, b=2) == pytest.approx(
        2 / 3 * (1 + math.sqrt(3 * 99 + 1)), rel=1e-12
    )


def test_the_timeout_probability_of_eqs_24_25() -> None:
    # p = 1/2, w = 4: (1 - 1/8)(1 + 1/8 * (1 - 1/2)) / (1 - 1/16) = 0.9296875 / 0.9375
    assert model.timeout_probability(0.5, 4) == pytest.approx(119 / 120, rel=1e-12)
    # No three duplicate ACKs from a window of three: always a timeout.
    assert model.timeout_probability(0.01, 3) == 1.0
    # Small p: Q tends to 3 / w.
    assert model.timeout_probability(1e-6, 30) == pytest.approx(3 / 30, rel=1e-3)


def test_the_backoff_sum_of_eq_28() -> None:
    # 1 + 1/2 + 2/4 + 4/8 + 8/16 + 16/32 + 32/64 = 4
    assert model.backoff_factor(0.5) == pytest.approx(4.0, rel=1e-12)


def test_the_full_model_of_eq_31_below_and_at_the_window_limit() -> None:
    # p = 0.01, RTT 0.1 s, T0 1 s, b = 2, no limit: E[W] = 12.175118,
    # Q(E[W]) = 0.279922, f = 1.010204:
    # (99 + 12.175118 + 0.279922/0.99) / (0.1 (12.175118 + 1) + 0.279922 * 1.010204 / 0.99)
    assert model.padhye_full(0.01, 0.1, 1.0, b=2) == pytest.approx(69.524463, rel=1e-6)
    # W_max = 6 < E[W]: Q(6) = 0.029701 * 1.028819 / 0.058520 = 0.522164;
    # (99 + 6 + Q/0.99) / (0.1 (6/4 + 0.99/0.06 + 2) + Q * f / 0.99) = 105.52744 / 2.53283
    assert model.padhye_full(0.01, 0.1, 1.0, b=2, w_max=6) == pytest.approx(41.664006, rel=1e-6)


def test_a_measured_timeout_share_replaces_q() -> None:
    # q = 0: no timeout term, ((1-p)/p + W) / (RTT (b/2 W + 1)) = 111.175118 / 1.3175118
    assert model.padhye_full(0.01, 0.1, 1.0, b=2, q=0.0) == pytest.approx(84.382637, rel=1e-6)
    # More timeouts, less throughput; q = Q(E[W]) is the model itself.
    assert model.padhye_full(0.01, 0.1, 1.0, b=2, q=0.5) < model.padhye_full(0.01, 0.1, 1.0, b=2)
    q = model.timeout_probability(0.01, model.padhye_mean_window(0.01, 2))
    assert model.padhye_full(0.01, 0.1, 1.0, b=2, q=q) == model.padhye_full(0.01, 0.1, 1.0, b=2)


def test_without_timeouts_the_full_model_tends_to_mathis() -> None:
    # Padhye's eq. (19): at small p the TD-only model is sqrt(3 / (2 b p)) / RTT.
    for b in (1, 2):
        full = model.padhye_full(1e-6, 0.05, 1.0, b=b, q=0.0)
        assert full == pytest.approx(model.mathis(1e-6, 0.05, b), rel=2e-3)


def test_the_approximation_of_eq_32() -> None:
    # 1 / (0.1 sqrt(4 * 0.01 / 3) + 1 * 3 sqrt(0.06 / 8) * 0.01 * (1 + 32e-4))
    # = 1 / (0.0115470 + 0.0026064)
    assert model.padhye_approximate(0.01, 0.1, 1.0, b=2) == pytest.approx(70.654424, rel=1e-6)
    # Capped by the receiver's window: W_max / RTT = 5 / 0.1
    assert model.padhye_approximate(0.01, 0.1, 1.0, b=2, w_max=5) == 50.0
    # It stays within a few per cent of the full model here.
    assert model.padhye_approximate(0.01, 0.1, 1.0, b=2) == pytest.approx(
        model.padhye_full(0.01, 0.1, 1.0, b=2), rel=0.03
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda: model.mathis(0.0, 0.1),
        lambda: model.mathis(1.0, 0.1),
        lambda: model.mathis(0.01, 0.0),
        lambda: model.mathis(0.01, 0.1, b=0),
        lambda: model.padhye_full(0.01, 0.1, 0.0),
        lambda: model.padhye_full(0.01, 0.1, 1.0, w_max=0),
        lambda: model.padhye_full(0.01, 0.1, 1.0, q=1.5),
        lambda: model.padhye_approximate(0.01, 0.1, -1.0),
    ],
)
def test_inputs_outside_the_model_are_refused(call: object) -> None:
    with pytest.raises(ValueError):
        call()  # type: ignore[operator]
