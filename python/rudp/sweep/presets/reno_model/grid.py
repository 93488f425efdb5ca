"""The reno-model preset's experiment design: Reno on one lossy path, against the models.

``rudp-cc-comparison`` runs one bulk flow through a bottleneck of
:data:`RATE` with a pFIFO of 1000 packets and random loss ``p`` of the data
segments, at a propagation RTT of 50, 100 or 200 ms. The bottleneck is at
least 20 times the largest throughput the models predict on this grid (4.0
Mbit/s at p = 0.5 %, RTT 50 ms, b = 1), and the socket buffers are twice the
path's BDP plus the queue (RudpDumbbellSizing: 4.2 MB at 50 ms, 2900 segments,
and more): neither the link nor the receive window ever limits the window,
loss alone does, as Mathis et al. and Padhye et al. assume.

Six senders (:data:`CONFIGS`): RUDP's seed Reno (``rudp-reno``:
ns3::RudpReno) with and without SACK (without: seed 000's Go-Back-N receiver,
which discards out-of-order segments) and with an ACK for every segment (b =
1) or every second (b = 2); ns-3's TcpNewReno and TcpLinuxReno, with ns-3's
defaults (SACK, DelAckCount 2).
"""

from __future__ import annotations

from dataclasses import dataclass

from rudp.runner import Value
from rudp.sweep.grid import Grid

PROGRAM = "rudp-cc-comparison"
RATE = "100Mbps"
LOSSES = (0.005, 0.01, 0.02, 0.05, 0.1)
RTTS_MS = (50, 100, 200)
QUICK_LOSSES = (0.01, 0.05)
QUICK_RTTS_MS = (50,)
RUNS, QUICK_RUNS = 5, 3
DURATION, QUICK_DURATION = 60, 30
WARMUP, QUICK_WARMUP = 10, 5


@dataclass(frozen=True)
class Config:
    """One sender: its transport, algorithm (``--flows``), SACK and ACK ratio b."""

    transport: str
    algorithm: str
    sack: bool
    b: int

    @property
    def rudp_reno(self) -> bool:
        """RUDP's seed Reno (the points the preset's test holds to the model)."""
        return self.algorithm == "rudp-reno"


#: label -> sender, in the order the table and figure show them
CONFIGS: dict[str, Config] = {
    "RUDP Reno, SACK, b=1": Config("rudp", "rudp-reno", True, 1),
    "RUDP Reno, SACK, b=2": Config("rudp", "rudp-reno", True, 2),
    "RUDP Reno, no SACK, b=1": Config("rudp", "rudp-reno", False, 1),
    "RUDP Reno, no SACK, b=2": Config("rudp", "rudp-reno", False, 2),
    "TCP NewReno (b=2)": Config("tcp", "ns3::TcpNewReno", True, 2),
    "TCP LinuxReno (b=2)": Config("tcp", "ns3::TcpLinuxReno", True, 2),
}
#: --quick: the RUDP Reno senders with b = 1 and one TCP
QUICK_CONFIGS = ("RUDP Reno, SACK, b=1", "RUDP Reno, no SACK, b=1", "TCP NewReno (b=2)")


def grid_name(label: str) -> str:
    """A grid name for a sender's label (no spaces or signs)."""
    text = "".join(c if c.isalnum() else "-" for c in label.lower())
    while "--" in text:
        text = text.replace("--", "-")
    return "reno-model-" + text.strip("-")


def grids(quick: bool = False) -> list[Grid]:
    """Each sender over loss x RTT."""
    losses = QUICK_LOSSES if quick else LOSSES
    rtts = QUICK_RTTS_MS if quick else RTTS_MS
    labels = QUICK_CONFIGS if quick else tuple(CONFIGS)
    fixed: dict[str, Value] = {
        "rate": RATE,
        "queue": "pfifo",
        "duration": QUICK_DURATION if quick else DURATION,
        "warmup": QUICK_WARMUP if quick else WARMUP,
    }
    result: list[Grid] = []
    for label in labels:
        config = CONFIGS[label]
        result.append(
            Grid(
                PROGRAM,
                {
                    **fixed,
                    "transport": config.transport,
                    "sack": int(config.sack),
                    "del-ack-count": config.b,
                },
                {
                    "flows": [f"{config.algorithm}@{rtt}ms" for rtt in rtts],
                    "loss": list(losses),
                },
                QUICK_RUNS if quick else RUNS,
                grid_name(label),
            )
        )
    return result
