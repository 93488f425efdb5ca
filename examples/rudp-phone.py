#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A phone with Wi-Fi and a cellular radio walks out of the Wi-Fi's coverage and back, in Python.

::

    phone ))) 802.11n ((( AP ---- 1 Gbit/s, 1 ms ----+
      |                                              router -- 1 Gbit/s, 5 ms -- server
      +------ cellular (--cellular) ---------------------+

The Python twin of ``examples/rudp-phone.cc``, through ``rudp.bindings``: the
same network, built by the same calls in the same order, so that a run with
the same options and ``--RngRun`` simulates the same thing and writes the
same record, byte for byte. The phone's BulkSendApplication sends to the
server's PacketSink (one address) over ``ns3::RudpCmtSocketFactory``: with
--path-manager=full-mesh (RudpFullMesh, the default) the association has a
path from each radio's address, with sctp (RudpSctpPaths) one, on the radio
the routing picks (the cellular link: the phone is a host whose default
route goes there). The Wi-Fi is ns-3's 802.11n (Minstrel-HT, log-distance
loss); the cellular radio a point-to-point link to the operator's router
(--cellular=p2p, the default: --cellular-rate, --cellular-delay) or ns-3's
LTE (--cellular=lte: a UE of an eNB 500 m from the walk's line, whose EPC's
PGW is wired to the router).

The phone stands 10 m from the AP, walks --distance away at --speed from
--walk-out, and back from --walk-back. Every segment the phone's paths send
(the socket's Tx and Retransmission traces) and every packet the server
receives (PacketSink's Rx) goes to a Python function, which counts them per
radio, per --interval and per phase of the walk; the program prints each
radio's bytes before, during and after the outage, the goodput, and the
failover time (the longest gap between two deliveries to the server of
those ending during the walk) and the run's longest gap.
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
COUPLINGS = ("uncoupled", "lia", "olia", "balia", "rpv2")
#: --cellular: the phone's cellular radio.
CELLULAR = ("p2p", "lte")
#: The point-to-point cellular link's options (--cellular=p2p only): their checks and defaults.
P2P_OPTIONS = {
    "cellular-rate": (data_rate("100kbps", "10Gbps"), "8Mbps"),
    "cellular-delay": (time_in("0s", "1s"), "30ms"),
}
#: The UEs' network of ns-3's EPC (EpcHelper's 7.0.0.0/8).
UE_NETWORK, UE_MASK = "7.0.0.0", "255.0.0.0"
#: The eNB's distance from the walk's line (m).
ENB_OFFSET_M = 500.0
#: The UE's RLC buffer (bytes), rudp-phone.cc's kLteRlcBuffer: about the uplink's BDP.
LTE_RLC_BUFFER = 64 * 1024
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
        "--cellular",
        type=one_of(CELLULAR),
        default="p2p",
        help="the cellular radio: p2p (a point-to-point link to the router) or lte (ns-3's "
        "LTE and EPC; where the lte module is built)",
    )
    cli.add_argument(
        "--cellular-rate",
        type=P2P_OPTIONS["cellular-rate"][0],
        help="the cellular link's rate (cellular p2p only), [100kbps, 10Gbps], 8Mbps",
    )
    cli.add_argument(
        "--cellular-delay",
        type=P2P_OPTIONS["cellular-delay"][0],
        help="the cellular link's one-way delay (cellular p2p only), [0s, 1s], 30ms",
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
    # Given with lte, a link's option would be ignored: refused instead.
    for name, (check, default) in P2P_OPTIONS.items():
        attribute = name.replace("-", "_")
        if getattr(args, attribute) is None:
            setattr(args, attribute, check(default))
        elif args.cellular == "lte":
            cli.error(f"--{name}: applies to --cellular=p2p only")
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
        #: by the phase the gap ended in
        self.longest_gap_ns = [0, 0, 0]
        self.longest_gap_end_ns = [0, 0, 0]

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
            phase = self.phase_at(now)
            if gap > self.longest_gap_ns[phase]:
                self.longest_gap_ns[phase] = gap
                self.longest_gap_end_ns[phase] = now
        self.last_delivery_ns = now
        self.count("server", int(packet.GetSize()), now)

    def count(self, flow: str, size: int, now: int | None = None) -> None:
        if now is None:
            now = int(self.ns.Simulator.Now().GetNanoSeconds())
        self.bins[flow][now // self.interval_ns] += size
        self.phases[flow][self.phase_at(now)] += size

    def phase_at(self, now: int) -> int:
        return (
            BEFORE if now < self.outage_start_ns else DURING if now < self.outage_end_ns else AFTER
        )

    def longest_gap_phase(self) -> int:
        """The phase whose gap is the longest of all (the first of equal ones)."""
        return max(range(3), key=lambda phase: self.longest_gap_ns[phase])

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
    #: The LTE radio's helpers, kept for the run as rudp-phone.cc keeps them (None with p2p).
    lte: PhoneLte | None


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
    if args.cellular == "p2p":
        p2p.SetDeviceAttribute("DataRate", ns.DataRateValue(ns.DataRate(round(args.cellular_rate))))
        p2p.SetChannelAttribute(
            "Delay", ns.TimeValue(ns.NanoSeconds(_nanoseconds(args.cellular_delay)))
        )
        cellular = p2p.Install(phone, router)
    fixed = ns.NodeContainer()
    for node in (ap, router, server):
        fixed.Add(node)
    _walk(ns, args, phone, ap, fixed)
    lte = None
    if args.cellular == "lte":
        lte = PhoneLte(ns, phone, router, ns.Vector(NEAR_M + args.distance / 2, ENB_OFFSET_M, 0))
        cellular = lte.ue_device

    ns.InternetStackHelper().Install(fixed)
    # The phone is a host: static routes only, in a list as InternetStackHelper's.
    host_routing = ns.Ipv4ListRoutingHelper()
    host_routing.Add(ns.Ipv4StaticRoutingHelper(), 0)
    host = ns.InternetStackHelper()
    host.SetRoutingHelper(host_routing)
    host.Install(phone)
    wlan_addresses = _subnet(ns, 1).Assign(wlan)
    if lte is None:
        cellular_addresses = _subnet(ns, 2).Assign(cellular)
        gateway = cellular_addresses.GetAddress(1)
    backhaul_addresses = _subnet(ns, 3).Assign(backhaul)
    core_addresses = _subnet(ns, 4).Assign(core)
    if lte is not None:
        cellular_addresses = lte.connect()
        gateway = lte.gateway()
    # Static routes (ns-3's global routing cannot run beside the EPC: its
    # PGW's tunnel is a point-to-point device without a channel). The AP and
    # the server send everything by the router, which reaches the Wi-Fi's
    # network by the AP; the phone's default route is by the cellular radio.
    routing = ns.Ipv4StaticRoutingHelper()
    for node, device, via in (
        (ap, backhaul.Get(0), backhaul_addresses.GetAddress(1)),
        (server, core.Get(1), core_addresses.GetAddress(0)),
        (phone, cellular.Get(0), gateway),
    ):
        ip = node.GetObject[ns.Ipv4]()
        routing.GetStaticRouting(ip).SetDefaultRoute(via, ip.GetInterfaceForDevice(device))
    router_ip = router.GetObject[ns.Ipv4]()
    mask = ns.Ipv4Mask("255.255.255.0")
    routing.GetStaticRouting(router_ip).AddNetworkRouteTo(
        wlan_addresses.GetAddress(0).CombineMask(mask),
        mask,
        backhaul_addresses.GetAddress(0),
        router_ip.GetInterfaceForDevice(backhaul.Get(1)),
    )
    hosts = ns.NodeContainer()
    hosts.Add(phone)
    hosts.Add(server)
    ns.RudpStackHelper().Install(hosts)
    wifi.AssignStreams(wlan, 1)
    if lte is not None:
        lte.assign_streams(100)
    return Network(
        phone,
        server,
        core_addresses.GetAddress(1),
        wlan_addresses.GetAddress(0),
        cellular_addresses.GetAddress(0),
        lte,
    )


def _subnet(ns: Any, number: int) -> Any:
    """The address helper of the scenario's 10.<number>.1.0/24."""
    return ns.Ipv4AddressHelper(f"10.{number}.1.0", "255.255.255.0")


class PhoneLte:
    """The phone's LTE radio: a UE of one eNB, whose EPC's PGW is wired to the
    operator's router (rudp-phone.cc's PhoneLte). Made before the nodes'
    internet stacks, :meth:`connect` after."""

    def __init__(self, ns: Any, phone: Any, router: Any, enb_position: Any) -> None:
        """The EPC, the eNB at ``enb_position``, the phone's UE device (the
        phone needs its mobility model) and the PGW's link to the router."""
        self.ns = ns
        self.lte = ns.CreateObject[ns.LteHelper]()
        self.epc = ns.CreateObject[ns.PointToPointEpcHelper]()
        self.lte.SetEpcHelper(self.epc)
        enb = ns.CreateObject[ns.Node]()
        mobility = ns.MobilityHelper()
        mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel")
        mobility.Install(enb)
        enb.GetObject[ns.MobilityModel]().SetPosition(enb_position)
        self.enb_device = self.lte.InstallEnbDevice(ns.NodeContainer(enb))
        self.ue_device = self.lte.InstallUeDevice(ns.NodeContainer(phone))
        self.router = router
        sgi = ns.PointToPointHelper()
        sgi.SetDeviceAttribute("DataRate", ns.StringValue("1Gbps"))
        sgi.SetChannelAttribute("Delay", ns.StringValue("1ms"))
        self.sgi = sgi.Install(self.epc.GetPgwNode(), router)

    def connect(self) -> Any:
        """Addresses the UE (the EPC's 7.0.0.0/8) and the PGW's link, routes the
        UEs' network from the router and everything else from the PGW by the
        router, attaches the UE to the eNB; returns the UE's address."""
        ns = self.ns
        ue = self.epc.AssignUeIpv4Address(self.ue_device)
        sgi = _subnet(ns, 5).Assign(self.sgi)
        routing = ns.Ipv4StaticRoutingHelper()
        router_ip = self.router.GetObject[ns.Ipv4]()
        routing.GetStaticRouting(router_ip).AddNetworkRouteTo(
            ns.Ipv4Address(UE_NETWORK),
            ns.Ipv4Mask(UE_MASK),
            sgi.GetAddress(0),
            router_ip.GetInterfaceForDevice(self.sgi.Get(1)),
        )
        pgw_ip = self.epc.GetPgwNode().GetObject[ns.Ipv4]()
        routing.GetStaticRouting(pgw_ip).SetDefaultRoute(
            sgi.GetAddress(1), pgw_ip.GetInterfaceForDevice(self.sgi.Get(0))
        )
        self.lte.Attach(self.ue_device, self.enb_device.Get(0))
        return ue

    def gateway(self) -> Any:
        """The UE's default gateway (the PGW's end of the EPC's tunnel)."""
        return self.epc.GetUeDefaultGatewayAddress()

    def assign_streams(self, stream: int) -> None:
        """Fixes the random streams of the eNB's and the UE's devices from ``stream``."""
        devices = self.ns.NetDeviceContainer(self.enb_device, self.ue_device)
        self.lte.AssignStreams(devices, stream)


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
    #: the longest gap in delivery of those ending during the walk, and its end
    failover_s: float
    failover_end_s: float
    #: the longest gap of the run, and its end
    longest_gap_s: float
    longest_gap_end_s: float
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
    if args.cellular == "lte":
        ns.Config.SetDefault("ns3::LteRlcUm::MaxTxBufferSize", ns.UintegerValue(LTE_RLC_BUFFER))
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
    longest = meter.longest_gap_phase()

    def seconds(nanoseconds: int) -> float:
        return float(ns.NanoSeconds(nanoseconds).GetSeconds())

    outcome = Outcome(
        received,
        goodput,
        seconds(meter.longest_gap_ns[DURING]),
        seconds(meter.longest_gap_end_ns[DURING]),
        seconds(meter.longest_gap_ns[longest]),
        seconds(meter.longest_gap_end_ns[longest]),
        meter,
    )
    ns.Simulator.Destroy()
    return outcome


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    from rudp import bindings  # noqa: PLC0415 - heavy: after the command line is checked

    ns = bindings.load()
    if args.cellular == "lte" and not hasattr(ns, "LteHelper"):
        parser().error("--cellular: lte needs ns-3's lte module, absent from this build")
    outcome = run(ns, bindings, args)
    meter = outcome.meter
    walk_out_s = float(ns.NanoSeconds(_nanoseconds(args.walk_out)).GetSeconds())
    walk_back_s = float(ns.NanoSeconds(_nanoseconds(args.walk_back)).GetSeconds())
    print(
        f"rudp-phone.py: {args.path_manager}, {args.coupling}, {args.cellular} cellular, "
        f"walks out at {walk_out_s:.3f} s, "
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
        f"  failover time (longest gap in delivery during the walk) {outcome.failover_s:.3f} s, "
        f"ending at {outcome.failover_end_s:.3f} s\n"
        f"  longest gap in delivery {outcome.longest_gap_s:.3f} s, ending at "
        f"{outcome.longest_gap_end_s:.3f} s",
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
            "cellular": args.cellular,
            **(
                {}
                if args.cellular == "lte"
                else {
                    "cellular_rate_bps": round(args.cellular_rate),
                    "cellular_delay_s": float(
                        ns.NanoSeconds(_nanoseconds(args.cellular_delay)).GetSeconds()
                    ),
                }
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
            "longest_gap_s": outcome.longest_gap_s,
            "longest_gap_end_s": outcome.longest_gap_end_s,
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
