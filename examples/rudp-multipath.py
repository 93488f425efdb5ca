#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A multipath transfer written in Python: a phone with two links sends to a server.

::

    phone --- wlan (20 Mbit/s, 10 ms) --- access point --+
      |                                                  +--- server (two addresses)
      +------ cell (5 Mbit/s, 40 ms) ---- base station --+

The phone's BulkSendApplication and the server's PacketSink use
``ns3::RudpCmtSocketFactory``: one association (RudpCmtSocket) that learns the
server's second address from its INIT-ACK and sends on both paths at once.
--coupling chooses the coupled congestion control (the socket's Coupling
attribute). Every path's congestion window is traced into a Python function
through the socket's PathCongestionWindow trace, which names the path; the
socket exists once the application has started, so the connection is made
then, by a Python function scheduled in simulated time. --figure draws the
windows (matplotlib). The C++ twin of this program is
``examples/rudp-multipath.cc``.

Standalone (``make setup``)::

    .venv/bin/python examples/rudp-multipath.py --coupling=lia --figure=paths.png

In an ns-3 tree (``contrib/rudp``, ``./ns3 configure --enable-python-bindings``)::

    ./ns3 run "contrib/rudp/examples/rudp-multipath.py --coupling=olia"

Exit status: 0 when every byte arrived, 1 otherwise, 2 for a bad parameter.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

#: --coupling: RudpCmtCoupling's short names (its GetShortNames, the one table of them), listed
#: here so that a bad name fails before ns-3 is loaded; the C++ table gives the TypeIds.
COUPLINGS = ("uncoupled", "lia", "olia", "balia", "rpv2")
#: The phone's two links: name, rate, one-way delay (the access routers' own links are fast).
LINKS = (("wlan", "20Mbps", "10ms"), ("cell", "5Mbps", "40ms"))
PORT = 9000
START_S = 1.0


def _whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number in [low, high]."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"'{text}' is not a whole number; allowed: [{low}, {high}]"
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"'{text}' is out of range: must be in [{low}, {high}]"
            )
        return value

    return parse


def parser() -> argparse.ArgumentParser:
    """The program's command line (argparse: a bad value exits with status 2, naming it)."""
    cli = argparse.ArgumentParser(
        prog="rudp-multipath.py",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        allow_abbrev=False,
    )
    cli.add_argument(
        "--coupling",
        choices=list(COUPLINGS),
        default="uncoupled",
        help="coupled congestion control",
    )
    cli.add_argument(
        "--bytes", type=_whole_number(1, 10**10), default=5_000_000, help="bytes the phone sends"
    )
    cli.add_argument(
        "--max-time",
        type=_whole_number(2, 10**6),
        default=120,
        help="simulated seconds after which an unfinished transfer fails",
    )
    cli.add_argument("--figure", type=Path, help="draw every path's window to this PNG file")
    return cli


def _use_this_checkouts_package() -> None:
    """Import ``rudp`` from this checkout's ``python/`` folder (an ns-3 tree installs none)."""
    package_root = Path(__file__).resolve().parents[1] / "python"
    if (package_root / "rudp" / "__init__.py").is_file() and str(package_root) not in sys.path:
        sys.path.insert(0, str(package_root))


def build(ns: Any, bindings: Any) -> tuple[Any, Any, Any]:
    """Phone, server and two access routers; return the phone, the server and its first address.

    Static routes keep each path on its own link (global routing would send
    both through one router, the server's two networks being equally far).
    """
    phone, server = bindings.create_object(ns.Node), bindings.create_object(ns.Node)
    routers = [bindings.create_object(ns.Node) for _ in LINKS]
    nodes = ns.NodeContainer()
    for node in (phone, server, *routers):
        nodes.Add(node)
    ns.InternetStackHelper().Install(nodes)
    core = ns.PointToPointHelper()
    core.SetDeviceAttribute("DataRate", ns.StringValue("1Gbps"))
    core.SetChannelAttribute("Delay", ns.StringValue("5ms"))
    routing = ns.Ipv4StaticRoutingHelper()
    mask = ns.Ipv4Mask("255.255.255.0")
    phone_ip, server_ip = phone.GetObject[ns.Ipv4](), server.GetObject[ns.Ipv4]()
    server_addresses = []
    for index, ((_, rate, delay), router) in enumerate(zip(LINKS, routers, strict=True)):
        radio = ns.PointToPointHelper()
        radio.SetDeviceAttribute("DataRate", ns.StringValue(rate))
        radio.SetChannelAttribute("Delay", ns.StringValue(delay))
        air = ns.Ipv4AddressHelper(f"10.{index + 1}.1.0", "255.255.255.0").Assign(
            radio.Install(phone, router)
        )
        wire = ns.Ipv4AddressHelper(f"10.{index + 1}.2.0", "255.255.255.0").Assign(
            core.Install(router, server)
        )
        routing.GetStaticRouting(phone_ip).AddNetworkRouteTo(
            ns.Ipv4Address(f"10.{index + 1}.2.0"),
            mask,
            air.GetAddress(1),
            phone_ip.GetInterfaceForAddress(air.GetAddress(0)),
        )
        routing.GetStaticRouting(server_ip).AddNetworkRouteTo(
            ns.Ipv4Address(f"10.{index + 1}.1.0"),
            mask,
            wire.GetAddress(0),
            server_ip.GetInterfaceForAddress(wire.GetAddress(1)),
        )
        server_addresses.append(wire.GetAddress(1))
    stack = ns.RudpStackHelper()
    stack.Install(phone)
    stack.Install(server)
    return phone, server, server_addresses[0]


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    _use_this_checkouts_package()
    from rudp import bindings  # noqa: PLC0415 - after the checkout's package is on the path

    ns = bindings.load()
    ns.Config.SetDefault(
        "ns3::RudpCmtSocket::Coupling",
        ns.TypeIdValue(ns.RudpCmtCoupling.LookupByShortName(args.coupling)),
    )
    phone, server, server_address = build(ns, bindings)
    any_address = ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo()
    sink = ns.DynamicCast[ns.PacketSink](
        ns.PacketSinkHelper("ns3::RudpCmtSocketFactory", any_address).Install(server).Get(0)
    )
    bulk = ns.BulkSendHelper(
        "ns3::RudpCmtSocketFactory", ns.InetSocketAddress(server_address, PORT).ConvertTo()
    )
    bulk.SetAttribute("MaxBytes", ns.UintegerValue(args.bytes))
    sender = ns.DynamicCast[ns.BulkSendApplication](bulk.Install(phone).Get(0))
    sender.SetStartTime(ns.Seconds(START_S))

    windows: dict[int, list[tuple[float, int]]] = {}

    def on_window(path: int, _old: int, new: int) -> None:
        windows.setdefault(int(path), []).append((ns.Simulator.Now().GetSeconds(), int(new)))

    def attach() -> None:
        socket = sender.GetSocket()
        if not bindings.connect_trace(
            socket, "PathCongestionWindow", on_window, "uint32_t", "uint32_t", "uint32_t"
        ):
            raise RuntimeError("the phone's socket has no PathCongestionWindow trace")

    # One nanosecond after the application's start, its socket exists.
    bindings.schedule(ns.Seconds(START_S) + ns.NanoSeconds(1), attach)
    ns.Simulator.Stop(ns.Seconds(args.max_time))
    ns.Simulator.Run()

    received = int(sink.GetTotalRx())
    association = ns.DynamicCast[ns.RudpCmtSocket](sender.GetSocket())
    print(f"rudp-multipath.py: coupling {args.coupling}, {received} of {args.bytes} bytes")
    for path in association.GetSender().GetPaths():
        index = int(path.GetIndex())
        stats = path.GetStats()
        name = LINKS[index][0] if index < len(LINKS) else str(index)
        samples = windows.get(index, [])
        print(
            f"  path {index} ({name}): {int(stats.bytesSent)} bytes sent, "
            f"{int(stats.retransmissions)} resent, largest window "
            f"{max((w for _, w in samples), default=0)} bytes"
        )
    ns.Simulator.Destroy()
    if args.figure:
        draw(windows, args.coupling, args.figure)
    return 0 if received == args.bytes else 1


def draw(windows: dict[int, list[tuple[float, int]]], coupling: str, path: Path) -> None:
    """Every path's congestion window over time, to ``path``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    figure = Figure(figsize=(7, 3.5), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for index, samples in sorted(windows.items()):
        label = LINKS[index][0] if index < len(LINKS) else f"path {index}"
        axes.step(
            [t for t, _ in samples], [w / 1000 for _, w in samples], where="post", label=label
        )
    axes.set_xlabel("time (s)")
    axes.set_ylabel("congestion window (kB)")
    axes.set_title(f"RudpCmtSocket, coupling {coupling}")
    axes.grid(alpha=0.3)
    axes.legend(loc="upper right")
    figure.savefig(path, dpi=120)


if __name__ == "__main__":
    sys.exit(main())
