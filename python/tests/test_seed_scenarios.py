"""Seed 000's and seed 001's findings, reproduced by the scenarios.

Directions and ratios, not exact times: the scenarios are deterministic per
run, but the assertions should survive honest model changes.
"""

from __future__ import annotations

import statistics
from typing import Any

import pytest

from rudp.runner import Value, run_scenario

pytestmark = pytest.mark.programs("rudp-file-transfer", "rudp-tcp-vs-udp")


def mean_time(runs: int, **params: Value) -> float:
    """Mean transfer time (s) of rudp-file-transfer over ``runs`` runs."""
    times = [
        float(run_scenario("rudp-file-transfer", {**params, "RngRun": run})["transfer_time_s"])
        for run in range(1, runs + 1)
    ]
    return statistics.mean(times)


def test_stop_and_wait_is_much_slower_than_go_back_n_at_10_percent_loss() -> None:
    saw = mean_time(3, variant="stop-and-wait", loss=0.1)
    gbn = mean_time(3, variant="go-back-n", window=30, loss=0.1)
    # Seed 000 table 1: 25.1 s against 1.27 s. Every stop-and-wait loss
    # costs a 2 s timeout; Go-Back-N repairs most with duplicate ACKs.
    assert saw > 5 * gbn


@pytest.mark.parametrize("delay", ["20ms", "60ms"])
def test_the_sleeping_router_makes_the_window_slower_than_stop_and_wait(delay: str) -> None:
    saw = mean_time(1, variant="stop-and-wait", router="sleeping", delay=delay)
    gbn = mean_time(1, variant="go-back-n", window=30, router="sleeping", delay=delay)
    # Seed 000 table 2: 18.3 s against 4.3 s at 20 ms. The router serves one
    # datagram per delay and its 8 KiB socket buffer overflows under a
    # 30-segment window: the window loses datagrams stop-and-wait never sends.
    assert gbn > 1.5 * saw


@pytest.mark.parametrize("delay", ["20ms", "60ms"])
def test_a_plain_delay_does_not(delay: str) -> None:
    saw = mean_time(1, variant="stop-and-wait", router="delay", delay=delay)
    gbn = mean_time(1, variant="go-back-n", window=30, router="delay", delay=delay)
    # Thirty segments per round trip instead of one.
    assert gbn < saw / 10


def test_relay_flows_are_measured_per_hop() -> None:
    metrics = run_scenario(
        "rudp-file-transfer", {"router": "delay", "delay": "10ms", "loss": 0.05, "size": 200000}
    )
    assert metrics["relay_dropped"] > 0
    assert metrics["data_rx_packets"] + metrics["relay_dropped"] == metrics["data_tx_packets"]
    assert metrics["relay_residence_mean_s"] == pytest.approx(0.010)
    assert len(metrics["flows"]) == 4  # two hops each way


def tcp_vs_udp(transport: str, packets: int) -> dict[str, Any]:
    return run_scenario("rudp-tcp-vs-udp", {"transport": transport, "packets": packets})


def test_udp_loses_97_of_100_packets_to_arp() -> None:
    metrics = tcp_vs_udp("udp", 100)
    # Seed 001: 97 of 100 lost. ARP holds at most 3 packets (PendingQueueSize)
    # while it resolves the receiver's address; the 2 us sender fills it at once.
    assert metrics["rx_packets"] == 3
    assert metrics["lost_packets"] == 97


def test_udp_throughput_over_line_rate_is_an_artefact_of_the_metric() -> None:
    metrics = tcp_vs_udp("udp", 10)
    rx_span = metrics["rx_span_throughput_Mbps"]
    first_tx = metrics["throughput_Mbps"]
    assert isinstance(rx_span, float) and isinstance(first_tx, float)
    # 3 packets' bytes over the 2 gaps between them: above 1 Gbit/s.
    assert rx_span > 1000
    # Measured from the first transmission, the ARP wait is counted.
    assert first_tx < 100


def test_tcp_settles_near_400_mbps() -> None:
    throughput = tcp_vs_udp("tcp", 20000)["throughput_Mbps"]
    assert isinstance(throughput, float)
    assert 350 < throughput < 450


@pytest.mark.parametrize("transport", ["rudp-stop-and-wait", "rudp-go-back-n", "rudp-reno"])
def test_rudp_delivers_everything_on_the_gigabit_link(transport: str) -> None:
    metrics = tcp_vs_udp(transport, 2000)
    assert metrics["delivered_bytes"] == metrics["bytes"] == 2000 * 1472
    assert metrics["lost_packets"] == 0
    assert metrics["throughput_Mbps"] > 100
