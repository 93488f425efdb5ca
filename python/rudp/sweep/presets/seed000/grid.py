"""Seed 000's experiment design: the program, the series and the grids.

The seed sent 1.jpg with a fixed RTO of 2 s and averaged 5 runs per point,
over two grids: loss 0-10 % at delay 0, and delay 0-100 ms at loss 0, in
three experiments (:data:`EXPERIMENTS`). Every point runs over four path
models (:data:`PATHS`): the three router models of ``rudp-file-transfer``
on its 100 Mbit/s CSMA links (:data:`ROUTERS`: ``none``, the design card's
error model and CSMA channel delay; ``delay``; ``sleeping``, the seed's
router), and ``loopback``: the sleeping router on point-to-point links with
a loopback's MTU, carrying the datagram size that the seed's own numbers
imply (:mod:`.implied`; :data:`LOOPBACK`).

:func:`loss_delay_grids` is the design card's own sweep, the ``seed000-loss-
delay`` preset: loss 0-10 % x channel delay 0-100 ms with ``--router=none``,
over CSMA and over point-to-point links.
"""

from __future__ import annotations

from dataclasses import dataclass

from rudp.runner import Value
from rudp.sweep.grid import ExpectedFailure, Grid

PROGRAM = "rudp-file-transfer"
FILE = "1.jpg"
FILE_BYTES = 1857353
ROUTERS = ("none", "delay", "sleeping")
#: Failures the design produces: a window on the design card's 100 ms CSMA
#: channel (doc/scenarios.rst, "The design card's path").
EXPECTED_FAILURES = (
    ExpectedFailure(
        {"router": "none", "variant": "go-back-n", "delay": "100ms"},
        "Go-Back-N on the 100 ms CSMA channel (--router=none) collapses: its frames queue on "
        "the busy channel, exhaust CsmaNetDevice's backoff and are dropped, so a large window "
        'may not finish within --max-time; doc/scenarios.rst, "The design card\'s path"',
    ),
)
#: The path models of the tables and figures: the routers and the loopback.
PATHS = (*ROUTERS, "loopback")
LOSSES = (0.0, 0.02, 0.04, 0.06, 0.08, 0.10)
DELAYS_MS = (0, 20, 40, 60, 80, 100)
QUICK_LOSSES = (0.0, 0.02, 0.06, 0.10)
QUICK_DELAYS_MS = (0, 20, 60, 100)
RUNS, QUICK_RUNS = 5, 3

#: The loopback-like path: the seed's sleeping router between point-to-point
#: links with a loopback's MTU, the datagram payload fitted to the seed's
#: tables with its stated 2 s timer (:func:`.implied.best_fit`: 14741-14858
#: B), and a rate whose serialisation of one datagram is the router's fitted
#: per-datagram cost (5.0 ms: :func:`.implied.loopback_rate_bps`). The relay's
#: socket buffer is 64 KiB, four such datagrams, an assumption: the seed's
#: table 4 (N = 5 at the router's pace, N = 10 far slower) says it held about
#: four and fewer than ten; the seed does not say. The sockets' send and
#: receive buffers are 1 MiB, so that the window limits N = 10..30, not the
#: buffers (128 KiB by default: eight such datagrams); the seed's client read
#: the whole file into memory and its server buffered all of it.
LOOPBACK: dict[str, Value] = {
    "router": "sleeping",
    "link": "p2p",
    "mtu": 65535,
    "mss": 14750,
    "rate": "24Mbps",
    "ns3::RudpRelay::ReceiveBuffer": 65536,
    "ns3::RudpSocket::RcvBufSize": 1 << 20,
    "ns3::RudpSocket::SndBufSize": 1 << 20,
}

#: The design card's sweep (seed000-loss-delay): its variants, links and runs.
CARD_VARIANTS = ("stop-and-wait", "go-back-n", "reno")
CARD_LINKS = ("csma", "p2p")
CARD_RUNS = 3
#: Its simulated-time limit: a transfer of 1.jpg not done by then moved less
#: than 1.5 KB/s (Go-Back-N on a CSMA channel of 100 ms at 10 % loss would
#: take hours of simulated time to fail at the default 3600 s).
CARD_MAX_TIME = "1200s"
#: Its grid: loss 0-10 % x delay 0-100 ms, four values each (seed000's quick
#: x values): Go-Back-N on a CSMA channel of 100 ms runs for minutes.
CARD_LOSSES = QUICK_LOSSES
CARD_DELAYS_MS = QUICK_DELAYS_MS
#: Its quick size: a 100 kB file, two losses and two delays.
CARD_QUICK_BYTES = 100000
CARD_QUICK_LOSSES = (0.0, 0.05)
CARD_QUICK_DELAYS_MS = (0, 20)


@dataclass(frozen=True)
class Series:
    """One line of a figure, two rows of a table: a variant with its window."""

    label: str
    variant: str
    window: int


SAW = Series("stop-and-wait", "stop-and-wait", 30)
GBN = {n: Series(f"Go-Back-N, N = {n}", "go-back-n", n) for n in (5, 10, 20, 30)}
RENO = Series("Reno, N = 30", "reno", 30)

#: The experiments: their series, in the seed's order.
EXPERIMENTS: dict[int, tuple[Series, ...]] = {
    1: (SAW, GBN[30]),
    2: (GBN[5], GBN[10], GBN[20], GBN[30]),
    3: (RENO, GBN[30]),
}


def grids(quick: bool = False) -> list[Grid]:
    """The three experiments over both grids and the four path models."""
    losses = QUICK_LOSSES if quick else LOSSES
    delays = [f"{d}ms" for d in (QUICK_DELAYS_MS if quick else DELAYS_MS)]
    fixed = {"file": FILE, "rto-mode": "fixed", "rto": "2s"}
    out: list[Grid] = []
    for number, series in EXPERIMENTS.items():
        variants: list[Value] = list(dict.fromkeys(s.variant for s in series))
        windows: list[Value] = list(dict.fromkeys(s.window for s in series))
        common: dict[str, list[Value]] = {
            "router": list(ROUTERS),
            "variant": variants,
            "window": windows,
        }
        out.append(
            Grid(
                PROGRAM,
                {**fixed, "delay": "0ms"},
                {**common, "loss": list(losses)},
                QUICK_RUNS if quick else RUNS,
                f"experiment{number}-loss",
            )
        )
        out.append(
            Grid(
                PROGRAM,
                {**fixed, "loss": 0.0},
                {**common, "delay": delays},
                QUICK_RUNS if quick else RUNS,
                f"experiment{number}-delay",
            )
        )
    loopback = {k: v for k, v in LOOPBACK.items() if k != "router"}
    for grid in list(out):
        axes = {k: v for k, v in grid.axes.items() if k != "router"}
        out.append(
            Grid(
                PROGRAM,
                {**grid.fixed, **loopback, "router": LOOPBACK["router"]},
                axes,
                grid.runs,
                f"{grid.name}-loopback",
            )
        )
    return out


def loss_delay_grids(quick: bool = False) -> list[Grid]:
    """The design card's sweep: loss x channel delay, every variant, CSMA and p2p links."""
    losses = CARD_QUICK_LOSSES if quick else CARD_LOSSES
    delays = CARD_QUICK_DELAYS_MS if quick else CARD_DELAYS_MS
    fixed: dict[str, Value] = {"rto-mode": "fixed", "rto": "2s", "router": "none", "window": 30}
    fixed["max-time"] = CARD_MAX_TIME
    fixed |= {"size": CARD_QUICK_BYTES} if quick else {"file": FILE}
    axes: dict[str, list[Value]] = {
        "link": list(CARD_LINKS),
        "variant": list(CARD_VARIANTS),
        "loss": list(losses),
        "delay": [f"{d}ms" for d in delays],
    }
    return [Grid(PROGRAM, fixed, axes, CARD_RUNS, "loss-delay")]
