#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A complete RUDP scenario written in Python, through ns-3's cppyy bindings.

::

    client ------------------- router =================== server
            100 Mbit/s, 1 ms           --rate, --delay
                                       FIFO of --queue packets,
                                       --loss on arrival at the server

A BulkSendApplication on the client sends --size bytes to a PacketSink on the
server over ``ns3::RudpSocketFactory``: RUDP with a variant of the module
(--variant=stop-and-wait|go-back-n|reno) or any ns-3 TCP congestion control
(--congestion=cubic, ns3::TcpBic, ...: RudpSocket's WindowPolicy set to the
TcpCongestionOps). The client's socket traces its congestion window and
slow-start threshold into Python functions (``rudp.bindings.connect_trace``);
the socket exists once the application has started, so the connection is
made then, by a Python function scheduled in simulated time
(``rudp.bindings.schedule``). The goodput (bytes delivered over the time from
the client's start to the last byte's arrival) is printed, and --figure draws
the congestion window (matplotlib).

By default RUDP is seed 000's protocol: a fixed 2 s retransmission timeout
and a go-back-N receiver, so a burst of losses (a slow start overflowing the
queue) costs a timeout and whole windows resent. --sack and
--rto-mode=adaptive give selective repeat and RFC 6298's timer.

Standalone (``make setup``; any working folder)::

    .venv/bin/python examples/rudp-python-scenario.py --variant=reno --figure=cwnd.png
    .venv/bin/python examples/rudp-python-scenario.py --congestion=cubic --sack --loss=0.001

In an ns-3 tree (``contrib/rudp``, ``./ns3 configure --enable-python-bindings``)::

    ./ns3 run "contrib/rudp/examples/rudp-python-scenario.py --variant=go-back-n"

Exit status: 0 on success, 1 if the transfer failed, 2 for a bad parameter
("error: --<name>: <problem>", as the module's C++ examples). --output=FILE
writes the metrics as JSON whenever the simulation ran.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: --variant: the command-line names and RudpSocket's WindowPolicy values.
VARIANTS = {
    "stop-and-wait": "ns3::RudpStopAndWait",
    "go-back-n": "ns3::RudpGoBackN",
    "reno": "ns3::RudpReno",
}
#: --rto-mode: the command-line names and RudpSocket's RtoMode values.
RTO_MODES = {"fixed": "Fixed", "adaptive": "Adaptive"}
#: The client's start; the sink listens from time 0.
START_S = 1.0
#: The access link: fast and short, so that the bottleneck decides.
ACCESS_RATE = "100Mbps"
ACCESS_DELAY_S = 0.001
PORT = 9


def _use_this_checkouts_package() -> None:
    """Import ``rudp`` from this checkout's ``python/`` folder.

    In an ns-3 tree nothing installs the package; standalone, the package
    installed in ``.venv`` is this folder anyway.
    """
    package_root = Path(__file__).resolve().parents[1] / "python"
    if (package_root / "rudp" / "__init__.py").is_file() and str(package_root) not in sys.path:
        sys.path.insert(0, str(package_root))


_use_this_checkouts_package()
from rudp.program import (  # noqa: E402 - after the checkout's package is on the path
    StrictParser,
    add_rng_run,
    boolean,
    in_range,
    one_of,
    output_file,
    time_in,
)
from rudp.program import data_rate as rate_in  # noqa: E402

# --- The command line -------------------------------------------------------------

#: --rate: a data rate in [1kbps, 100Gbps], in bit/s.
data_rate = rate_in("1kbps", "100Gbps")
#: --delay: a time in [0s, 1s], in seconds.
delay = time_in("0s", "1s")


def congestion_name(text: str) -> str:
    """--congestion: the form of a name; whether ns-3 has it is checked once ns-3 is loaded."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_:]*", text):
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a congestion control name (e.g. cubic, ns3::TcpBic)"
        )
    return text


def figure_file(text: str) -> Path:
    """--figure: a file in an existing folder, of a format matplotlib writes."""
    path = Path(text)
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"'{text}': the folder {path.parent} does not exist")
    try:
        from matplotlib.figure import Figure  # noqa: PLC0415 - only with --figure
    except ImportError:
        raise argparse.ArgumentTypeError("needs matplotlib (pip install matplotlib)") from None
    formats = Figure().canvas.get_supported_filetypes()
    if path.suffix[1:].lower() not in formats:
        raise argparse.ArgumentTypeError(
            f"'{text}' has no image suffix; allowed: one of {'|'.join(sorted(formats))}"
        )
    return path


def parser() -> argparse.ArgumentParser:
    """The scenario's command line."""
    cli = StrictParser("rudp-python-scenario.py", __doc__.split("\n\n")[0] if __doc__ else None)
    cli.add_argument(
        "--variant",
        type=one_of(list(VARIANTS)),
        help=f"RUDP variant: {'|'.join(VARIANTS)} (default: reno)",
    )
    cli.add_argument(
        "--congestion",
        type=congestion_name,
        help="an ns-3 TCP congestion control instead of a variant (not with --variant): "
        "newreno, reno, cubic, htcp, hybla, westwood, veno, cvtcp, or a TcpCongestionOps "
        "TypeId (ns3::TcpBic)",
    )
    cli.add_argument(
        "--size",
        type=in_range(int, 1, 10**9, "a whole number of bytes"),
        default=1_000_000,
        help="bytes to send, in [1, 10^9]",
    )
    cli.add_argument(
        "--rate", type=data_rate, default="10Mbps", help="bottleneck data rate, [1kbps, 100Gbps]"
    )
    cli.add_argument(
        "--delay", type=delay, default="20ms", help="bottleneck one-way delay, [0s, 1s]"
    )
    cli.add_argument(
        "--queue",
        type=in_range(int, 1, 100_000, "a whole number of packets"),
        default=20,
        help="router's FIFO queue in packets, [1, 100000]",
    )
    cli.add_argument(
        "--loss",
        type=in_range(float, 0.0, 0.5, "a probability"),
        default=0.0,
        help="probability that a packet arriving at the server is lost, [0, 0.5]",
    )
    cli.add_argument(
        "--window",
        type=in_range(int, 1, 65535, "a whole number of segments"),
        default=100,
        help="RudpSocket WindowSize: Go-Back-N's window, the other variants' cap, [1, 65535]",
    )
    cli.add_argument(
        "--sack",
        type=boolean,
        nargs="?",
        const=True,
        default=False,
        help="selective repeat with SACK (RudpSocket Sack) instead of the seed's "
        "go-back-N receiver: 1|0|true|false, or --sack alone",
    )
    cli.add_argument(
        "--rto-mode",
        type=one_of(list(RTO_MODES)),
        default="fixed",
        help="retransmission timeout (RudpSocket RtoMode): fixed (2 s, the seed's) or "
        "adaptive (RFC 6298)",
    )
    cli.add_argument(
        "--max-time",
        type=in_range(float, 1.0, 1e6, "a number of seconds"),
        default=600.0,
        help="simulated seconds after which an unfinished transfer fails, [1, 10^6]",
    )
    add_rng_run(cli)
    cli.add_argument(
        "--figure",
        type=figure_file,
        metavar="FILE.png",
        help="draw the congestion window to this file (matplotlib)",
    )
    cli.add_argument(
        "--output",
        type=output_file,
        metavar="FILE.json",
        help="write the metrics as JSON, also when the transfer fails",
    )
    return cli


# --- The scenario -----------------------------------------------------------------


@dataclass
class WindowTrace:
    """The sender's congestion window and slow-start threshold over time (s, bytes)."""

    cwnd: list[tuple[float, int]] = field(default_factory=list)
    ssthresh: list[tuple[float, int]] = field(default_factory=list)


@dataclass
class Outcome:
    """What a run measured."""

    received: int = 0
    last_rx_s: float = math.nan
    failure: str = ""
    segment_size: int = 1
    stats: dict[str, int] = field(default_factory=dict)
    trace: WindowTrace = field(default_factory=WindowTrace)


def configure_protocol(ns: Any, args: argparse.Namespace) -> str:
    """Set RudpSocket's defaults for the chosen protocol; return its label."""
    ns.Config.SetDefault("ns3::RudpSocket::WindowSize", ns.UintegerValue(args.window))
    ns.Config.SetDefault("ns3::RudpSocket::Sack", ns.BooleanValue(args.sack))
    ns.Config.SetDefault("ns3::RudpSocket::RtoMode", ns.StringValue(RTO_MODES[args.rto_mode]))
    if args.congestion is None:
        name = args.variant or "reno"
        ns.Config.SetDefault("ns3::RudpSocket::WindowPolicy", ns.StringValue(VARIANTS[name]))
        return str(name)
    names = ns.RudpCongestionNames
    if not names.IsKnown(args.congestion):
        allowed = "|".join(str(n) for n in names.GetNames())
        parser().error(
            f"--congestion: '{args.congestion}' is not a congestion control of this ns-3; "
            f"allowed: one of {allowed}, or a TcpCongestionOps TypeId (ns3::TcpBic)"
        )
    names.SetDefaults(args.congestion)
    ns.Config.SetDefault(
        "ns3::RudpSocket::WindowPolicy", ns.TypeIdValue(names.GetTypeId(args.congestion))
    )
    return f"congestion {args.congestion}"


def build_network(ns: Any, bindings: Any, args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """Client, router and server with RUDP installed; return the client, server and its address."""
    client, router, server = (bindings.create_object(ns.Node) for _ in range(3))
    nodes = ns.NodeContainer()
    for node in (client, router, server):
        nodes.Add(node)

    access = ns.PointToPointHelper()
    access.SetDeviceAttribute("DataRate", ns.StringValue(ACCESS_RATE))
    access.SetChannelAttribute("Delay", ns.TimeValue(ns.Seconds(ACCESS_DELAY_S)))
    access_devices = access.Install(client, router)

    bottleneck = ns.PointToPointHelper()
    bottleneck.SetDeviceAttribute("DataRate", ns.StringValue(f"{round(args.rate)}bps"))
    bottleneck.SetChannelAttribute("Delay", ns.TimeValue(ns.NanoSeconds(round(args.delay * 1e9))))
    # The queue is the router's FIFO queue disc; the device holds one packet.
    bottleneck.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns.StringValue("1p"))
    bottleneck_devices = bottleneck.Install(router, server)
    loss = bindings.create_object(ns.RateErrorModel)
    loss.SetAttribute("ErrorRate", ns.DoubleValue(args.loss))
    loss.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
    loss.AssignStreams(10)
    bottleneck_devices.Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(loss))

    ns.InternetStackHelper().Install(nodes)
    rudp_stack = ns.RudpStackHelper()
    rudp_stack.Install(nodes)
    rudp_stack.AssignStreams(nodes, 100)
    fifo = ns.TrafficControlHelper()
    fifo.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", ns.StringValue(f"{args.queue}p"))
    fifo.Install(bottleneck_devices.Get(0))
    ns.Ipv4AddressHelper("10.1.1.0", "255.255.255.0").Assign(access_devices)
    server_address = (
        ns.Ipv4AddressHelper("10.1.2.0", "255.255.255.0").Assign(bottleneck_devices).GetAddress(1)
    )
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    return client, server, server_address


class Probe:
    """The Python ends of the traces: the sink's arrivals, the client socket's window."""

    def __init__(self, ns: Any, bindings: Any) -> None:
        self.ns = ns
        self.bindings = bindings
        self.outcome = Outcome()
        self.socket: Any = None

    def now(self) -> float:
        return float(self.ns.Simulator.Now().GetSeconds())

    def on_rx(self, _packet: Any, _from: Any) -> None:
        self.outcome.last_rx_s = self.now()

    def on_cwnd(self, _old: int, new: int) -> None:
        self.outcome.trace.cwnd.append((self.now(), int(new)))

    def on_ssthresh(self, _old: int, new: int) -> None:
        self.outcome.trace.ssthresh.append((self.now(), int(new)))

    def on_failure(self, reason: str) -> None:
        self.outcome.failure = f"the client's RUDP connection gave up ({reason})"

    def attach_to_sink(self, sink: Any) -> None:
        packet_types = ("ns3::Ptr<const ns3::Packet>", "const ns3::Address&")
        if not self.bindings.connect_trace(sink, "Rx", self.on_rx, *packet_types):
            raise RuntimeError("PacketSink has no trace source Rx")

    def attach_to_sender(self, sender: Any) -> None:
        """Connect to the socket of the BulkSendApplication ``sender``, once it has one.

        The application makes its socket when it starts; the socket sets its
        window when the handshake completes, one round trip later. Between
        the two, no value is missed.
        """
        socket = self.ns.DynamicCast[self.ns.RudpSocket](sender.GetSocket())
        if not socket:
            raise RuntimeError("the client's application has no RUDP socket yet")
        self.socket = socket
        segment_size = self.ns.UintegerValue()
        socket.GetAttribute("SegmentSize", segment_size)
        self.outcome.segment_size = int(segment_size.Get())
        traces = (
            ("CongestionWindow", self.on_cwnd, ("uint32_t", "uint32_t")),
            ("SlowStartThreshold", self.on_ssthresh, ("uint32_t", "uint32_t")),
            ("Failure", self.on_failure, ("const std::string&",)),
        )
        for name, callback, types in traces:
            if not self.bindings.connect_trace(socket, name, callback, *types):
                raise RuntimeError(f"RudpSocket has no trace source {name}")


def run(ns: Any, bindings: Any, args: argparse.Namespace) -> Outcome:
    """Build the network, run the transfer, and return what it measured."""
    ns.RngSeedManager.SetRun(args.RngRun)
    client, server, server_address = build_network(ns, bindings, args)
    probe = Probe(ns, bindings)

    any_address = ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo()
    sink_apps = ns.PacketSinkHelper("ns3::RudpSocketFactory", any_address).Install(server)
    sink = ns.DynamicCast[ns.PacketSink](sink_apps.Get(0))
    probe.attach_to_sink(sink)

    server_socket_address = ns.InetSocketAddress(server_address, PORT).ConvertTo()
    bulk = ns.BulkSendHelper("ns3::RudpSocketFactory", server_socket_address)
    bulk.SetAttribute("MaxBytes", ns.UintegerValue(args.size))
    sender = ns.DynamicCast[ns.BulkSendApplication](bulk.Install(client).Get(0))
    sender.SetStartTime(ns.Seconds(START_S))
    # A Python function in simulated time. Events scheduled before
    # Simulator::Run come before the application's start event of the same
    # time (scheduled as the nodes are initialized at time 0): one nanosecond
    # after the start, the socket exists.
    bindings.schedule(
        ns.Seconds(START_S) + ns.NanoSeconds(1), lambda: probe.attach_to_sender(sender)
    )
    ns.Simulator.Stop(ns.Seconds(args.max_time))
    ns.Simulator.Run()

    outcome = probe.outcome
    if probe.socket is not None:
        stats = probe.socket.GetStats()
        outcome.stats = {
            "retransmissions": int(stats.retransmissions),
            "timeouts": int(stats.timeouts),
            "fast_retransmits": int(stats.fastRetransmits),
        }
    outcome.received = int(sink.GetTotalRx())
    if not outcome.failure and outcome.received != args.size:
        outcome.failure = (
            f"{outcome.received} of {args.size} bytes arrived within {args.max_time:g} s"
        )
    ns.Simulator.Destroy()
    return outcome


def draw(trace: WindowTrace, segment_size: int, title: str, path: Path) -> None:
    """Draw the congestion window (and the slow-start threshold) to ``path``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    figure = Figure(figsize=(7, 3.5), layout="constrained")
    FigureCanvasAgg(figure)  # Agg for this figure only: no global backend is set
    axes = figure.add_subplot()
    times = [t for t, _ in trace.cwnd]
    axes.step(times, [w / segment_size for _, w in trace.cwnd], where="post", label="cwnd")
    top = max((w for _, w in trace.cwnd), default=segment_size) / segment_size
    # The threshold starts far above the window (Reno: 64 KB, TCP: 2^32-1): draw
    # it where it is within reach of the window.
    near = [(t, s / segment_size) for t, s in trace.ssthresh if s / segment_size <= 2 * top]
    if near:
        axes.step(
            [t for t, _ in near],
            [s for _, s in near],
            where="post",
            linestyle="--",
            label="ssthresh",
        )
    axes.set_xlabel("time (s)")
    axes.set_ylabel("segments")
    axes.set_title(title)
    axes.set_ylim(bottom=0)
    axes.grid(alpha=0.3)
    axes.legend(loc="upper right")
    figure.savefig(path, format=path.suffix[1:].lower(), dpi=120)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The checked command line (exits with status 2 on a bad parameter)."""
    cli = parser()
    args = cli.parse_args(argv)
    if args.variant is not None and args.congestion is not None:
        cli.error(
            "--congestion: cannot be combined with --variant (a TcpCongestionOps replaces "
            "RUDP's variant)"
        )
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    from rudp import bindings  # noqa: PLC0415 - after the checkout's package is on the path

    ns = bindings.load()
    label = configure_protocol(ns, args)
    outcome = run(ns, bindings, args)

    seconds = outcome.last_rx_s - START_S
    goodput = outcome.received * 8 / seconds / 1e6 if outcome.received else 0.0
    cwnd = [w for _, w in outcome.trace.cwnd]
    mss = outcome.segment_size
    record: dict[str, Any] = {
        "scenario": "rudp-python-scenario",
        "ok": not outcome.failure,
        "failure": outcome.failure,
        "protocol": label,
        "size": args.size,
        "rate_bps": args.rate,
        "delay_s": args.delay,
        "queue_packets": args.queue,
        "loss": args.loss,
        "window": args.window,
        "sack": args.sack,
        "rto_mode": args.rto_mode,
        "rng_run": args.RngRun,
        "bytes": outcome.received,
        "transfer_time_s": seconds if outcome.received else None,
        "goodput_Mbps": goodput,
        **outcome.stats,
        "cwnd_samples": len(cwnd),
        "max_cwnd_segments": max(cwnd, default=0) / mss,
    }
    if args.output:
        args.output.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    if outcome.failure:
        print(f"error: the transfer failed: {outcome.failure}", file=sys.stderr)
        return 1
    recovery = f"{'SACK' if args.sack else 'go-back-N'}, {args.rto_mode} RTO"
    print(
        f"rudp-python-scenario: {label} ({recovery}), {args.rate / 1e6:g} Mbit/s, delay "
        f"{args.delay * 1e3:g} ms, queue {args.queue} packets, loss {args.loss:g}\n"
        f"  {outcome.received} bytes in {seconds:.3f} s: goodput {goodput:.3f} Mbit/s\n"
        f"  retransmissions {outcome.stats.get('retransmissions', 0)}, timeouts "
        f"{outcome.stats.get('timeouts', 0)}, fast retransmits "
        f"{outcome.stats.get('fast_retransmits', 0)}\n"
        f"  cwnd: {len(cwnd)} values traced, largest {max(cwnd, default=0) / mss:.1f} segments"
    )
    if args.figure:
        title = f"RUDP {label}: {args.rate / 1e6:g} Mbit/s, queue {args.queue}, loss {args.loss:g}"
        draw(outcome.trace, mss, title, args.figure)
        print(f"  figure: {args.figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
