"""What RUDP costs the simulator, against ns-3's TCP and bare UDP.

Moves the same bytes over the same 1 Gbit/s point-to-point link with each
transport (the compiled ``rudp-transport-cost`` scenario, one process per
run), and prints the wall-clock time per delivered packet, the ratios, the
simulator's events per wall-clock second (``Simulator::GetEventCount`` over
the run's wall time: what the build and the host do per event, whatever the
transport), and the peak memory of a 1 GiB transfer of real bytes. Run by
hand, not a test::

    .venv/bin/python bench/transport_cost.py [--bytes N] [--repeat K]
    .venv/bin/python bench/transport_cost.py --ns3-build TREE   (also an ns-3
        tree's build, e.g. make ns3-optimized's, runs interleaved with the wheel's)

Targets (issue 3): RUDP-Reno at most half of ns-3 TCP per packet and at
most twice bare UDP; a 1 GiB transfer peaks below 64 MB. RUDP is measured
with DelAckCount 2, ns-3 TCP's default, and with 1, the seed's.
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass

from measured_run import run_measured

from rudp import paths

TRANSPORTS = ("udp", "tcp", "rudp-stop-and-wait", "rudp-go-back-n", "rudp-reno")


@dataclass
class Measurement:
    """One run of rudp-transport-cost."""

    us_per_packet: float
    packets: int
    peak_rss_mb: float
    events_per_s: float


def measure(
    transport: str, size: int, del_ack: int = 2, build: paths.Build | None = None
) -> Measurement:
    """Run one transfer in its own process; its rusage gives the peak memory."""
    build = build if build is not None else paths.standalone_build()
    run = run_measured(
        build,
        "rudp-transport-cost",
        [f"--transport={transport}", f"--bytes={size}", f"--del-ack={del_ack}"],
    )
    return Measurement(
        us_per_packet=float(run.record["wall_us_per_packet"]),
        packets=int(run.record["packets"]),
        peak_rss_mb=run.peak_rss_mb,
        events_per_s=float(run.record["events_per_s"]),
    )


def median_costs(
    transport: str, size: int, repeat: int, builds: list[paths.Build], del_ack: int = 2
) -> list[Measurement]:
    """Per build, the median wall time per packet (us) and events per second over
    ``repeat`` runs, the builds' runs interleaved (each repeat runs every build
    once), so that a change in the host's load reaches every build alike."""
    runs: list[list[Measurement]] = [[] for _ in builds]
    for _ in range(repeat):
        for k, build in enumerate(builds):
            runs[k].append(measure(transport, size, del_ack, build))
    return [
        Measurement(
            us_per_packet=statistics.median(m.us_per_packet for m in kept),
            packets=kept[0].packets,
            peak_rss_mb=max(m.peak_rss_mb for m in kept),
            events_per_s=statistics.median(m.events_per_s for m in kept),
        )
        for kept in runs
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bytes", type=int, default=100_000_000, help="bytes per transfer")
    parser.add_argument("--repeat", type=int, default=3, help="runs per transport (median)")
    parser.add_argument("--memory-bytes", type=int, default=1 << 30, help="bytes of the memory run")
    parser.add_argument(
        "--ns3-build",
        metavar="TREE",
        help="also run this ns-3 tree's build (e.g. make ns3-optimized's), interleaved",
    )
    args = parser.parse_args()

    builds = [paths.standalone_build()]
    if args.ns3_build:
        builds.append(paths.ns3_build(args.ns3_build))
    names = ["wheel" if not b.ns3_tree else f"ns-3 {b.version} {b.profile}" for b in builds]
    rows = {t: median_costs(t, args.bytes, args.repeat, builds) for t in TRANSPORTS}
    rows["rudp-reno (DelAckCount 1)"] = median_costs(
        "rudp-reno", args.bytes, args.repeat, builds, 1
    )
    print(f"wall time per delivered packet, {args.bytes} bytes, median of {args.repeat} runs")
    for k, name in enumerate(names):
        costs = {t: row[k].us_per_packet for t, row in rows.items()}
        print(f"\n{name}: {builds[k]}")
        print(f"{'transport':<28}{'us/packet':>10}{'x TCP':>8}{'x UDP':>8}{'Mevents/s':>11}")
        for transport, row in rows.items():
            cost = row[k].us_per_packet
            print(
                f"{transport:<28}{cost:>10.2f}{cost / costs['tcp']:>8.2f}"
                f"{cost / costs['udp']:>8.2f}{row[k].events_per_s / 1e6:>11.3f}"
            )
    if len(builds) > 1:
        print(f"\n{names[1]} against the wheel (time per packet, same runs interleaved)")
        for transport, row in rows.items():
            print(f"{transport:<28}{row[1].us_per_packet / row[0].us_per_packet:>10.2f}")

    memory = measure("rudp-file", args.memory_bytes)
    print(
        f"\n{args.memory_bytes} bytes of generated file content over RUDP-Reno "
        f"(SHA-256 on both sides): peak RSS {memory.peak_rss_mb:.1f} MB, "
        f"{memory.us_per_packet:.2f} us/packet"
    )
    reno, costs = (
        rows["rudp-reno"][0].us_per_packet,
        {t: r[0].us_per_packet for t, r in rows.items()},
    )
    checks = {
        "RUDP-Reno <= 0.5 x TCP per packet": reno <= 0.5 * costs["tcp"],
        "RUDP-Reno <= 2 x UDP per packet": reno <= 2 * costs["udp"],
        "1 GiB transfer peaks below 64 MB": memory.peak_rss_mb < 64,
    }
    print()
    for claim, holds in checks.items():
        print(f"{'met' if holds else 'MISSED':>7}  {claim}")


if __name__ == "__main__":
    main()
