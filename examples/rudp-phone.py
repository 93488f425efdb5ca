#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A phone with Wi-Fi and a cellular radio walks out of the Wi-Fi's coverage and back, in Python.

::

    phone ))) 802.11n ((( AP ---- 1 Gbit/s, 1 ms ----+
      |                                              router -- 1 Gbit/s, 5 ms -- server
      +------ cellular (--cellular-rate, --cellular-delay) ----+

The Python twin of ``examples/rudp-phone.cc``, through ``rudp.bindings``: the
same network, built by the same calls in the same order, so that a run with
the same options and ``--RngRun`` simulates the same thing and writes the
same record, byte for byte. The phone's BulkSendApplication sends to the
server's PacketSink (one address) over ``ns3::RudpCmtSocketFactory``: with
--path-manager=full-mesh (RudpFullMesh, the default) the association has a
path from each radio's address, with sctp (RudpSctpPaths) one, on the radio
the routing picks (the cellular link: the phone is a host whose default
route goes there). The Wi-Fi is ns-3's 802.11n (Minstrel-HT, log-distance
loss), the "cellular" radio a point-to-point link to the operator's router.

The phone stands 10 m from the AP, walks --distance away at --speed from
--walk-out, and back from --walk-back. Every segment the phone's paths send
(the socket's Tx and Retransmission traces) and every packet the server
receives (PacketSink's Rx) goes to a Python function, which counts them per
radio, per --interval and per phase of the walk; the program prints each
radio's bytes before, during and after the outage, the goodput, and the
failover time (the longest gap between two deliveries to the server).
--trace=FILE writes the bins (TSV: time_s, flow, bytes), --output=FILE the
record (JSON), as the C++ program does.

The options are rudp-phone's, in ns-3's form (``--name=value``, ns-3's units;
``--RngRun``); the C++ program's ``--ns3::Type::Attribute=value`` defaults
are not taken. Standalone (``make setup``)::

    .venv/bin/python examples/rudp-phone.py --trace=phone.tsv --output=phone.json

In an ns-3 tree (``contrib/rudp``, ``./ns3 configure --enable-python-bindings``,
with the wifi and mobility modules)::

    ./ns3 run "contrib/rudp/examples/rudp-phone.py --path-manager=sctp"

Exit status: 0 when the server received data, 1 if it received nothing, 2
for a bad parameter ("error: --<name>: <problem>", as the C++ programs).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def _use_this_checkouts_package() -> None:
    """Import ``rudp`` from this checkout's ``python/`` folder (an ns-3 tree installs none)."""
    package_root = Path(__file__).resolve().parents[1] / "python"
    if (package_root / "rudp" / "__init__.py").is_file() and str(package_root) not in sys.path:
        sys.path.insert(0, str(package_root))


_use_this_checkouts_package()
from rudp.program import (  # noqa: E402 - after the checkout's package is on the path
    StrictParser,
    add_rng_run,
    data_rate,
    in_range,
    one_of,
    output_file,
    time_in,
    write_record,
)

#: --path-manager: the command-line names and RudpCmtSocket's PathManager TypeIds.
PATH_MANAGERS = {"full-mesh": "ns3::RudpFullMesh", "sctp": "ns3::RudpSctpPaths"}
#: --coupling: RudpCmtCoupling's short names (its GetShortNames), checked before ns-3 loads.
COUPLINGS = ("uncoupled", "lia", "olia", "rpv2")
#: The phone's application starts at 1 s (the server listens from 0).
START_S = 1.0
PORT = 7000
#: The phone's place when in the Wi-Fi's reach: 10 m from the AP (x, y, z).
NEAR_M = 10.0
#: The walk's phases: the Wi-Fi in reach, the walk out and back, in reach again.
BEFORE, DURING, AFTER = 0, 1, 2
#: How often the watch looks for the phone's association until it is set up (ns).
WATCH_EVERY_NS = 10_000_000


def _nanoseconds(seconds: float) -> int:
    return round(seconds * 1e9)


def parser() -> argparse.ArgumentParser:
    """rudp-phone's command line, with its ranges."""
    cli = StrictParser("rudp-phone.py", __doc__.split("\n\n")[0] if __doc__ else None)
    cli.add_argument(
        "--path-manager",
        type=one_of(list(PATH_MANAGERS)),
        default="full-mesh",
        help="which paths: full-mesh (RudpFullMesh: one per radio) or sctp (RudpSctpPaths: "
        "one per server address, on the radio the routing picks)",
    )
    cli.add_argument(
        "--coupling",
        type=one_of(COUPLINGS),
        default="uncoupled",
        help=f"coupled congestion control: {'|'.join(COUPLINGS)}",
    )
    cli.add_argument(
        "--cellular-rate",
        type=data_rate("100kbps", "10Gbps"),
        default="8Mbps",
        help="the cellular link's rate, [100kbps, 10Gbps]",
    )
    cli.add_argument(
        "--cellular-delay",
        type=time_in("0s", "1s"),
        default="30ms",
        help="the cellular link's one-way delay, [0s, 1s]",
    )
    cli.add_argument(
        "--duration", type=time_in("2s", "100000s"), default="60s", help="simulated time"
    )
    cli.add_argument(
        "--walk-out",
        type=time_in("0s", "100000s"),
        default="10s",
        help="when the phone starts walking away from the AP",
    )
    cli.add_argument(
        "--walk-back", type=time_in("0s", "100000s"), default="35s", help="when it walks back"
    )
    cli.add_argument(
        "--distance",
        type=in_range(float, 0.0, 10000.0, "a number of metres"),
        default=150.0,
        help="how far it walks (m), [0, 10000]",
    )
    cli.add_argument(
        "--speed",
        type=in_range(float, 0.1, 100.0, "a speed in m/s"),
        default=10.0,
        help="its speed (m/s), [0.1, 100]",
    )
    cli.add_argument(
        "--interval", type=time_in("1ms", "100s"), default="500ms", help="the trace's bin"
    )
    cli.add_argument(
        "--trace",
        type=output_file,
        metavar="FILE.tsv",
        help="write each path's bytes sent and the server's bytes received per interval (TSV)",
    )
    cli.add_argument(
        "--output",
        type=output_file,
        metavar="FILE.json",
        help="write the run's record (JSON), also when the run fails",
    )
    add_rng_run(cli)
    return cli


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The checked command line (exits with status 2 on a bad parameter)."""
    cli = parser()
    args = cli.parse_args(argv)
    # In nanoseconds, as ns-3's Time: the walk's times are compared exactly.
    walking = _nanoseconds(args.distance / args.speed)
    if _nanoseconds(args.walk_out) + walking > _nanoseconds(args.walk_back):
        cli.error("--walk-back: must come after walk-out plus the walk's time (distance / speed)")
    return args


class PhoneMeter:
    """What the phone's paths sent and the server received, per interval and per phase.

    Times are ns-3's nanoseconds, so that the bins and phases are those of
    the C++ program's meter.
    """

    def __init__(self, ns: Any, interval_ns: int, outage_start_ns: int, outage_end_ns: int) -> None:
        self.ns = ns
        self.interval_ns = interval_ns
        self.outage_start_ns = outage_start_ns
        self.outage_end_ns = outage_end_ns
        self.radios: dict[int, str] = {}
        self.bins: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.phases: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        self.last_delivery_ns = -1
        self.longest_gap_ns = 0
        self.longest_gap_end_ns = 0

    def radio_of(self, path: int) -> str:
        return self.radios.get(path, f"path{path}")

    def sent(self, payload: Any, _header: Any, path: int) -> None:
        self.count(self.radio_of(int(path)), int(payload.GetSize()))

    def resent(self, payload: Any, _header: Any, path: int) -> None:
        # Tx traces resends too: first transmissions only.
        self.count(self.radio_of(int(path)), -int(payload.GetSize()))

    def received(self, packet: Any, _from: Any) -> None:
        now = int(self.ns.Simulator.Now().GetNanoSeconds())
        if self.last_delivery_ns >= 0:
            gap = now - self.last_delivery_ns
            if gap > self.longest_gap_ns:
                self.longest_gap_ns = gap
                self.longest_gap_end_ns = now
        self.last_delivery_ns = now
        self.count("server", int(packet.GetSize()), now)

    def count(self, flow: str, size: int, now: int | None = None) -> None:
        if now is None:
            now = int(self.ns.Simulator.Now().GetNanoSeconds())
        self.bins[flow][now // self.interval_ns] += size
        phase = (
            BEFORE if now < self.outage_start_ns else DURING if now < self.outage_end_ns else AFTER
        )
        self.phases[flow][phase] += size

    def flows(self) -> list[str]:
        """The flows counted, "server" among them, in the C++ meter's order."""
        return sorted(self.bins)

    def trace_text(self, interval_s: float) -> str:
        """The bins (TSV), every flow's from the first bin any flow counted to the last."""
        lines = ["time_s\tflow\tbytes"]
        if not self.bins:
            return lines[0] + "\n"
        first = min(min(bins) for bins in self.bins.values())
        last = max(max(bins) for bins in self.bins.values())
        for flow in self.flows():
            bins = self.bins[flow]
            lines += [
                f"{(b + 1) * interval_s:g}\t{flow}\t{bins.get(b, 0)}"
                for b in range(first, last + 1)
            ]
        return "\n".join(lines) + "\n"


@dataclass
class Network:
    """What the scenario needs of the network it built."""

    phone: Any
    server: Any
    server_address: Any
    wifi_address: Any
    cellular_address: Any


def build(ns: Any, args: argparse.Namespace) -> Network:
    """The phone, the AP, the operator's router and the server, as rudp-phone.cc builds them.

    The calls are the C++ program's, in its order: objects that draw random
    numbers get their streams in the order they are made.
    """
    nodes = ns.NodeContainer()
    nodes.Create(4)
    phone, ap, router, server = (nodes.Get(i) for i in range(4))
    wifi, wlan = _wifi(ns, phone, ap)
    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", ns.StringValue("1Gbps"))
    p2p.SetChannelAttribute("Delay", ns.StringValue("1ms"))
    backhaul = p2p.Install(ap, router)
    p2p.SetChannelAttribute("Delay", ns.StringValue("5ms"))
    core = p2p.Install(router, server)
    p2p.SetDeviceAttribute("DataRate", ns.DataRateValue(ns.DataRate(round(args.cellular_rate))))
    p2p.SetChannelAttribute(
        "Delay", ns.TimeValue(ns.NanoSeconds(_nanoseconds(args.cellular_delay)))
    )
    cellular = p2p.Install(phone, router)
    fixed = ns.NodeContainer()
    for node in (ap, router, server):
        fixed.Add(node)
    _walk(ns, args, phone, ap, fixed)

    ns.InternetStackHelper().Install(fixed)
    # The phone is a host, not a router (global routing would send the
    # server's datagrams for its Wi-Fi address through its cellular link):
    # static routes only, in a list as InternetStackHelper's.
    host_routing = ns.Ipv4ListRoutingHelper()
    host_routing.Add(ns.Ipv4StaticRoutingHelper(), 0)
    host = ns.InternetStackHelper()
    host.SetRoutingHelper(host_routing)
    host.Install(phone)
    wlan_addresses, cellular_addresses, _, core_addresses = (
        ns.Ipv4AddressHelper(f"10.{i}.1.0", "255.255.255.0").Assign(devices)
        for i, devices in enumerate((wlan, cellular, backhaul, core), start=1)
    )
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    # The phone's default route: by the cellular link.
    phone_ip = phone.GetObject[ns.Ipv4]()
    ns.Ipv4StaticRoutingHelper().GetStaticRouting(phone_ip).SetDefaultRoute(
        cellular_addresses.GetAddress(1), phone_ip.GetInterfaceForDevice(cellular.Get(0))
    )
    hosts = ns.NodeContainer()
    hosts.Add(phone)
    hosts.Add(server)
    ns.RudpStackHelper().Install(hosts)
    wifi.AssignStreams(wlan, 1)
    return Network(
        phone,
        server,
        core_addresses.GetAddress(1),
        wlan_addresses.GetAddress(0),
        cellular_addresses.GetAddress(0),
    )


def _wifi(ns: Any, phone: Any, ap: Any) -> tuple[Any, Any]:
    """802.11n between the phone (a station) and the AP; return the helper and the devices."""
    wifi = ns.WifiHelper()
    wifi.SetStandard(ns.WIFI_STANDARD_80211n)
    wifi.SetRemoteStationManager("ns3::MinstrelHtWifiManager")
    channel = ns.YansWifiChannelHelper.Default()
    phy = ns.YansWifiPhyHelper()
    phy.SetChannel(channel.Create())
    mac = ns.WifiMacHelper()
    ssid = ns.Ssid("rudp-phone")
    mac.SetType("ns3::StaWifiMac", "Ssid", ns.SsidValue(ssid))
    wlan = wifi.Install(phy, mac, phone)
    mac.SetType("ns3::ApWifiMac", "Ssid", ns.SsidValue(ssid))
    wlan.Add(wifi.Install(phy, mac, ap))
    return wifi, wlan


def _walk(ns: Any, args: argparse.Namespace, phone: Any, ap: Any, fixed: Any) -> None:
    """The AP, router and server stand still; the phone walks out and back."""
    mobility = ns.MobilityHelper()
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel")
    mobility.Install(fixed)
    ap.GetObject[ns.MobilityModel]().SetPosition(ns.Vector(0, 0, 0))
    mobility.SetMobilityModel("ns3::WaypointMobilityModel")
    mobility.Install(phone)
    walk = phone.GetObject[ns.WaypointMobilityModel]()
    near = ns.Vector(NEAR_M, 0, 0)
    far = ns.Vector(NEAR_M + args.distance, 0, 0)
    walk_out = ns.NanoSeconds(_nanoseconds(args.walk_out))
    walk_back = ns.NanoSeconds(_nanoseconds(args.walk_back))
    walking = ns.Seconds(args.distance / args.speed)
    # A waypoint at the time of the one before is the same place (a walk
    # from 0 s, of 0 m, or back as soon as it arrives): WaypointMobilityModel
    # takes strictly later ones only.
    last = -1
    for when, where in (
        (ns.Seconds(0), near),
        (walk_out, near),
        (walk_out + walking, far),
        (walk_back, far),
        (walk_back + walking, near),
    ):
        if int(when.GetNanoSeconds()) > last:
            walk.AddWaypoint(ns.Waypoint(when, where))
            last = int(when.GetNanoSeconds())


@dataclass
class Outcome:
    """What a run measured (times in seconds, as ns-3's Time gives them)."""

    received: int
    goodput_mbps: float
    failover_s: float
    failover_end_s: float
    meter: PhoneMeter


def run(ns: Any, bindings: Any, args: argparse.Namespace) -> Outcome:
    """Build the network, run the walk, and return what it measured."""
    ns.RngSeedManager.SetRun(args.RngRun)
    ns.Config.SetDefault(
        "ns3::RudpCmtSocket::Coupling",
        ns.TypeIdValue(ns.RudpCmtCoupling.LookupByShortName(args.coupling)),
    )
    ns.Config.SetDefault(
        "ns3::RudpCmtSocket::PathManager",
        ns.TypeIdValue(ns.TypeId.LookupByName(PATH_MANAGERS[args.path_manager])),
    )
    network = build(ns, args)
    duration = ns.NanoSeconds(_nanoseconds(args.duration))
    any_address = ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo()
    sink_app = ns.PacketSinkHelper("ns3::RudpCmtSocketFactory", any_address).Install(network.server)
    sink = ns.DynamicCast[ns.PacketSink](sink_app.Get(0))
    bulk = ns.BulkSendHelper(
        "ns3::RudpCmtSocketFactory",
        ns.InetSocketAddress(network.server_address, PORT).ConvertTo(),
    )
    bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
    source_app = bulk.Install(network.phone)
    source_app.Start(ns.Seconds(START_S))
    source_app.Stop(duration)
    source = ns.DynamicCast[ns.BulkSendApplication](source_app.Get(0))

    walking_ns = int(ns.Seconds(args.distance / args.speed).GetNanoSeconds())
    meter = PhoneMeter(
        ns,
        _nanoseconds(args.interval),
        _nanoseconds(args.walk_out),
        _nanoseconds(args.walk_back) + walking_ns,
    )
    packet_types = ("ns3::Ptr<const ns3::Packet>", "const ns3::Address&")
    if not bindings.connect_trace(sink, "Rx", meter.received, *packet_types):
        raise RuntimeError("PacketSink has no trace source Rx")
    segment_types = ("ns3::Ptr<const ns3::Packet>", "const ns3::RudpHeader&", "uint32_t")

    def watch() -> None:
        """Connects the meter to the phone's association once it exists, and names its paths."""
        socket = ns.DynamicCast[ns.RudpCmtSocket](source.GetSocket())
        if not socket or socket.GetState() != ns.RudpCmtSocket.ESTABLISHED:
            bindings.schedule(ns.NanoSeconds(WATCH_EVERY_NS), watch)
            return
        engine = socket.GetSender()
        for path in engine.GetPaths():
            local, index = path.GetLocal(), int(path.GetIndex())
            meter.radios[index] = (
                "wifi"
                if local == network.wifi_address
                else "cellular"
                if local == network.cellular_address
                else f"path{index}"
            )
        for name, callback in (("Tx", meter.sent), ("Retransmission", meter.resent)):
            if not bindings.connect_trace(engine, name, callback, *segment_types):
                raise RuntimeError(f"RudpCmtSendEngine has no trace source {name}")

    bindings.schedule(ns.Seconds(START_S), watch)
    ns.Simulator.Stop(duration)
    ns.Simulator.Run()

    received = int(sink.GetTotalRx())
    goodput = received * 8 / (duration - ns.Seconds(START_S)).GetSeconds() / 1e6
    outcome = Outcome(
        received,
        goodput,
        float(ns.NanoSeconds(meter.longest_gap_ns).GetSeconds()),
        float(ns.NanoSeconds(meter.longest_gap_end_ns).GetSeconds()),
        meter,
    )
    ns.Simulator.Destroy()
    return outcome


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    from rudp import bindings  # noqa: PLC0415 - heavy: after the command line is checked

    ns = bindings.load()
    outcome = run(ns, bindings, args)
    meter = outcome.meter
    walk_out_s = float(ns.NanoSeconds(_nanoseconds(args.walk_out)).GetSeconds())
    walk_back_s = float(ns.NanoSeconds(_nanoseconds(args.walk_back)).GetSeconds())
    print(
        f"rudp-phone.py: {args.path_manager}, {args.coupling}, walks out at {walk_out_s:.3f} s, "
        f"back at {walk_back_s:.3f} s ({args.distance:.3f} m at {args.speed:.3f} m/s)\n"
        f"  server received {outcome.received} bytes, {outcome.goodput_mbps:.3f} Mbit/s"
    )
    radios: list[dict[str, object]] = []
    for flow in meter.flows():
        if flow == "server":
            continue
        before, during, after = meter.phases[flow]
        print(f"  {flow} sent {before} bytes before the outage, {during} during, {after} after")
        radios.append(
            {"radio": flow, "bytes_before": before, "bytes_during": during, "bytes_after": after}
        )
    print(
        f"  failover time (longest gap in delivery) {outcome.failover_s:.3f} s, ending at "
        f"{outcome.failover_end_s:.3f} s",
        flush=True,
    )
    if args.trace:
        try:
            args.trace.write_text(meter.trace_text(args.interval), encoding="utf-8")
        except OSError:
            parser().error(f"--trace: could not write {args.trace}")
    ok = outcome.received > 0
    failure = "" if ok else "the server received nothing"
    if args.output:
        record: dict[str, object] = {
            "scenario": "rudp-phone",
            "ok": ok,
            "failure": failure,
            "path_manager": args.path_manager,
            "coupling": args.coupling,
            "cellular_rate_bps": round(args.cellular_rate),
            "cellular_delay_s": float(
                ns.NanoSeconds(_nanoseconds(args.cellular_delay)).GetSeconds()
            ),
            "duration_s": float(ns.NanoSeconds(_nanoseconds(args.duration)).GetSeconds()),
            "walk_out_s": walk_out_s,
            "walk_back_s": walk_back_s,
            "distance_m": args.distance,
            "speed_mps": args.speed,
            "rng_run": args.RngRun,
            "received_bytes": outcome.received,
            "goodput_mbps": outcome.goodput_mbps,
            "failover_s": outcome.failover_s,
            "failover_end_s": outcome.failover_end_s,
            "radios": radios,
        }
        try:
            write_record(args.output, record)
        except OSError:
            parser().error(f"--output: cannot write '{args.output}'")
    if not ok:
        print(f"error: {failure}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
