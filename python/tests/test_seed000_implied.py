"""What seed 000's numbers imply (rudp.sweep.presets.seed000.implied), and the
preset variant built on it."""

from __future__ import annotations

import math

import pytest

from rudp.sweep.presets.seed000 import LOOPBACK, implied
from rudp.sweep.presets.seed000.grid import FILE_BYTES, grids, loss_delay_grids


def test_datagram_counts_and_the_sizes_that_give_them() -> None:
    assert implied.datagrams(1454) == 1279  # 1278 data datagrams and the name's
    assert implied.datagrams(FILE_BYTES) == 2
    for count in (2, 3, 127, 1279):
        low, high = implied.sizes_for(count)
        assert implied.datagrams(low) == implied.datagrams(high) == count
        assert implied.datagrams(low - 1) == count + 1
        if high < FILE_BYTES:
            assert implied.datagrams(high + 1) == count - 1
    with pytest.raises(ValueError, match="segment"):
        implied.datagrams(0)


def test_the_fit_recovers_a_known_size_timer_and_costs(monkeypatch: pytest.MonkeyPatch) -> None:
    # Seed-like tables drawn from the model itself: 8000-byte datagrams, T = 1 s.
    n, c_w, c_r, timeout = implied.datagrams(8000), 0.004, 0.002, 1.0
    truth = [
        implied.Observation(
            o.table,
            o.series,
            o.x,
            n * (o.cw * c_w + o.cr * c_r + o.timeouts * timeout + o.delay),
            o.cw,
            o.cr,
            o.timeouts,
            o.delay,
        )
        for o in implied.observations()
    ]
    monkeypatch.setattr(implied, "observations", lambda: truth)
    found = implied.best_fit(sizes=range(1000, 30000, 7))
    assert found.datagrams == n
    assert found.timeout_s == pytest.approx(timeout)
    assert found.cost_round_trip_s == pytest.approx(c_w)
    assert found.cost_router_s == pytest.approx(c_r)
    assert found.rms == pytest.approx(0.0, abs=1e-9)
    # With the timer held wrong, the same data fit worse.
    assert implied.best_fit(2.0, sizes=range(1000, 30000, 7)).rms > 0.05


def test_the_costs_and_the_timer_are_never_negative() -> None:
    for segment in (500, 1454, 4000, 14750, 65000):
        for timeout in (None, 2.0):
            f = implied.fit(segment, timeout)
            assert min(f.cost_round_trip_s, f.cost_router_s, f.timeout_s) >= 0


def test_a_1454_byte_segment_cannot_explain_the_seed_with_any_timer() -> None:
    stated, shorter, larger, free = implied.hypotheses()
    assert stated.fit.segment == shorter.fit.segment == 1454
    # A shorter timer fits the loss table (table 1) ...
    assert shorter.fit.timeout_s < 0.5 and shorter.fit.table_rms(1) < 0.5
    # ... but not the delay tables: the sleeping router alone needs 1279 x D,
    # nine times what the seed measured at some point.
    for h in (stated, shorter):
        assert h.fit.table_rms(2) > 5 and h.fit.table_rms(4) > 5
        assert h.fit.worst_floor_ratio > 9
    # A datagram of about 14.7 kB with the stated 2 s fits every fitted table
    # within 16 % RMS and respects the router's floor.
    assert 14000 <= larger.fit.segment <= 15500 and larger.fit.timeout_s == 2.0
    assert max(larger.fit.table_rms(t) for t in (1, 2, 4)) < 0.2
    assert larger.fit.worst_floor_ratio <= 1.0
    assert stated.fit.rms > 40 * larger.fit.rms and shorter.fit.rms > 30 * larger.fit.rms
    # Freeing the timer as well improves it little, and keeps it near 2 s.
    assert 1.2 < free.fit.timeout_s < 2.0
    assert larger.fit.rms - free.fit.rms < 0.06


def test_the_router_bounds_the_datagram_count() -> None:
    most = implied.largest_datagram_count()
    assert 130 < most < 150
    assert implied.best_fit(2.0).datagrams <= most


def test_the_loopback_variant_uses_the_implied_size_and_rate() -> None:
    best = implied.best_fit(implied.STATED_TIMEOUT_S)
    low, high = implied.sizes_for(best.datagrams)
    mss = LOOPBACK["mss"]
    assert isinstance(mss, int) and low <= mss <= high
    rate = LOOPBACK["rate"]
    assert isinstance(rate, str) and rate.endswith("Mbps")
    assert float(rate.removesuffix("Mbps")) * 1e6 == pytest.approx(
        implied.loopback_rate_bps(best), rel=0.1
    )
    assert mss + implied.OVERHEAD_BYTES <= int(LOOPBACK["mtu"])  # one datagram, one packet
    # The relay's buffer holds four such datagrams, not ten (table 4: N = 5 kept
    # the router's pace, N = 10 did not).
    buffer = int(LOOPBACK["ns3::RudpRelay::ReceiveBuffer"])
    assert 4 * (mss + 8) <= buffer < 10 * mss


def test_the_seed000_grids_hold_four_path_models() -> None:
    quick = grids(quick=True)
    loopback = [g for g in quick if g.name.endswith("-loopback")]
    assert len(loopback) == len(quick) // 2 == 6
    for grid in loopback:
        assert {k: grid.fixed[k] for k in LOOPBACK} == LOOPBACK
        assert "router" not in grid.axes
    others = [g for g in quick if g not in loopback]
    assert all(g.axes["router"] == ["none", "delay", "sleeping"] for g in others)
    assert all(g.runs >= 3 for g in quick)


def test_the_design_cards_sweep_covers_loss_by_delay_on_both_links() -> None:
    (full,) = loss_delay_grids()
    assert full.axes["loss"] == [0.0, 0.02, 0.06, 0.10]
    assert full.axes["delay"] == ["0ms", "20ms", "60ms", "100ms"]
    assert full.axes["link"] == ["csma", "p2p"] and full.fixed["router"] == "none"
    assert len(full.points()) == 4 * 4 * 3 * 2 and full.runs >= 3
    (quick,) = loss_delay_grids(quick=True)
    assert len(quick.points()) * quick.runs <= 72 and quick.runs >= 3
    assert math.prod(len(v) for v in quick.axes.values()) == len(quick.points())
