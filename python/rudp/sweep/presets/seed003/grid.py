"""Seed 003's experiment design: congestion controls on a dumbbell, over TCP and RUDP.

``rudp-cc-comparison`` runs one or two bulk flows through a bottleneck in the
seed's two settings (:data:`SETTINGS`): high-BDP (100 Mbit/s, RTT 50-400 ms,
a bFIFO of one BDP, no loss) and lossy, the seed's "wireless" (10 Mbit/s,
RTT 50 ms, a pFIFO of 1000 packets, random loss). Each experiment runs over
both transports: TCP (the seed's) and RUDP carrying the same
``TcpCongestionOps``.
"""

from __future__ import annotations

from rudp.runner import Value
from rudp.sweep.grid import Grid
from rudp.sweep.until import UntilCi

PROGRAM = "rudp-cc-comparison"
#: The Reno baseline first, then the seed's five, then CVTCP.
ALGORITHMS = ("newreno", "cubic", "htcp", "hybla", "westwood", "veno", "cvtcp")
#: Seed figures 6-9 compare CVTCP with these.
CVTCP_PEERS = ("newreno", "cubic", "veno", "cvtcp")
TRANSPORTS = ("tcp", "rudp")
RTTS_MS = (50, 100, 200, 400)
LOSSES = (1e-5, 1e-4, 1e-3, 1e-2)
QUICK_RTTS_MS = (50, 200)
QUICK_LOSSES = (1e-4, 1e-2)
FAIRNESS_LOSS = 1e-3
FRIENDLINESS_RTT_MS = {"high-bdp": 200, "lossy": 50}
FRIENDLINESS_LOSS = 1e-2
DURATION, QUICK_DURATION = 600, 20
WARMUP, QUICK_WARMUP = 10, 5
#: Runs per point where runs differ: the lossy setting's random loss (RngRun
#: 1..N draws other losses), one flow or two. The full size starts with RUNS
#: and adds runs until the interval is tight (UNTIL_CI); --quick keeps QUICK_RUNS.
RUNS, QUICK_RUNS = 3, 3
#: Until the 95 % interval of the utilisation, and of the two flows' ratio
#: where there are two, is within 5 % of its mean, at most 10 runs.
UNTIL_CI = UntilCi(0.05, 10, "utilization,throughput_ratio")
#: Runs per point of the high-BDP setting: without random loss nothing in a run
#: draws a random number, so every RngRun gives the same run (tested:
#: ``test_seed003_high_bdp_deterministic``); one run is the whole sample.
DETERMINISTIC_RUNS = 1

SETTINGS: dict[str, dict[str, Value]] = {
    "high-bdp": {"rate": "100Mbps", "queue": "bfifo", "loss": 0},
    "lossy": {"rate": "10Mbps", "queue": "pfifo"},
}


def _flows(*parts: tuple[str, int]) -> str:
    return ",".join(f"{algorithm}@{rtt}ms" for algorithm, rtt in parts)


def grids(quick: bool = False) -> list[Grid]:
    """Utilisation, RTT fairness and TCP friendliness in both settings, both transports."""
    rtts = QUICK_RTTS_MS if quick else RTTS_MS
    losses = QUICK_LOSSES if quick else LOSSES
    timing: dict[str, Value] = {
        "duration": QUICK_DURATION if quick else DURATION,
        "warmup": QUICK_WARMUP if quick else WARMUP,
    }
    random_runs = QUICK_RUNS if quick else RUNS
    transports = list(TRANSPORTS)
    high, lossy = SETTINGS["high-bdp"], SETTINGS["lossy"]
    friendly = FRIENDLINESS_RTT_MS

    def grid(name: str, setting: dict[str, Value], axes: dict[str, list[Value]]) -> Grid:
        random_loss = setting.get("loss", 0) != 0 or any(v != 0 for v in axes.get("loss", []))
        runs = random_runs if random_loss else DETERMINISTIC_RUNS
        return Grid(PROGRAM, {**setting, **timing}, {**axes, "transport": transports}, runs, name)

    # Longest first, so that the last runs of a parallel sweep are short ones:
    # ns-3's TCP costs most at the largest RTT (see doc/cc-comparison.rst).
    longest_first = sorted(rtts, reverse=True)

    return [
        grid(
            "utilization-high-bdp",
            high,
            {"flows": [_flows((a, r)) for r in longest_first for a in ALGORITHMS]},
        ),
        grid(
            "utilization-lossy",
            lossy,
            {"flows": [_flows((a, 50)) for a in ALGORITHMS], "loss": list(losses)},
        ),
        grid(
            "rtt-fairness-high-bdp",
            high,
            {"flows": [_flows((a, 50), (a, r)) for r in longest_first for a in ALGORITHMS]},
        ),
        grid(
            "rtt-fairness-lossy",
            {**lossy, "loss": FAIRNESS_LOSS},
            {"flows": [_flows((a, 50), (a, r)) for r in longest_first for a in ALGORITHMS]},
        ),
        grid(
            "friendliness-high-bdp",
            high,
            {
                "flows": [
                    _flows(("newreno", friendly["high-bdp"]), (a, friendly["high-bdp"]))
                    for a in ALGORITHMS
                ]
            },
        ),
        grid(
            "friendliness-lossy",
            {**lossy, "loss": FRIENDLINESS_LOSS},
            {
                "flows": [
                    _flows(("newreno", friendly["lossy"]), (a, friendly["lossy"]))
                    for a in ALGORITHMS
                ]
            },
        ),
    ]
