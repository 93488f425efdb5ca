"""What RUDP costs the simulator, against ns-3's TCP and bare UDP.

Moves the same bytes over the same 1 Gbit/s point-to-point link with each
transport (the compiled ``rudp-transport-cost`` scenario, one process per
run), and prints the wall-clock time per delivered packet, the ratios, and
the peak memory of a 1 GiB transfer of real bytes. Run by hand, not a test::

    .venv/bin/python bench/transport_cost.py [--bytes N] [--repeat K]

Targets (issue 3): RUDP-Reno at most half of ns-3 TCP per packet and at
most twice bare UDP; a 1 GiB transfer peaks below 64 MB. RUDP is measured
with DelAckCount 2, ns-3 TCP's default, and with 1, the seed's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rudp import paths

TRANSPORTS = ("udp", "tcp", "rudp-stop-and-wait", "rudp-go-back-n", "rudp-reno")


@dataclass
class Measurement:
    """One run of rudp-transport-cost."""

    us_per_packet: float
    packets: int
    peak_rss_mb: float


def measure(transport: str, size: int, del_ack: int = 2) -> Measurement:
    """Run one transfer in its own process; its rusage gives the peak memory."""
    with tempfile.TemporaryDirectory() as workdir:
        output = Path(workdir) / "cost.json"
        command = [
            str(paths.program("rudp-transport-cost")),
            f"--transport={transport}",
            f"--bytes={size}",
            f"--del-ack={del_ack}",
            f"--output={output}",
        ]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            stderr = process.stderr.read().decode() if process.stderr else ""
            raise RuntimeError(f"{' '.join(command)} failed: {stderr}")
        figures = json.loads(output.read_text())
        return Measurement(
            us_per_packet=float(figures["wall_us_per_packet"]),
            packets=int(figures["packets"]),
            peak_rss_mb=usage.ru_maxrss / 1024,
        )


def median_cost(transport: str, size: int, repeat: int, del_ack: int = 2) -> float:
    """Median wall time per packet (us) over ``repeat`` runs."""
    return statistics.median(measure(transport, size, del_ack).us_per_packet for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bytes", type=int, default=100_000_000, help="bytes per transfer")
    parser.add_argument("--repeat", type=int, default=3, help="runs per transport (median)")
    parser.add_argument("--memory-bytes", type=int, default=1 << 30, help="bytes of the memory run")
    args = parser.parse_args()

    costs = {t: median_cost(t, args.bytes, args.repeat) for t in TRANSPORTS}
    costs["rudp-reno (DelAckCount 1)"] = median_cost("rudp-reno", args.bytes, args.repeat, 1)
    print(f"wall time per delivered packet, {args.bytes} bytes, median of {args.repeat} runs")
    print(f"{'transport':<28}{'us/packet':>10}{'x TCP':>8}{'x UDP':>8}")
    for transport, cost in costs.items():
        ratio_tcp = cost / costs["tcp"]
        ratio_udp = cost / costs["udp"]
        print(f"{transport:<28}{cost:>10.2f}{ratio_tcp:>8.2f}{ratio_udp:>8.2f}")

    memory = measure("rudp-file", args.memory_bytes)
    print(
        f"\n{args.memory_bytes} bytes of generated file content over RUDP-Reno "
        f"(SHA-256 on both sides): peak RSS {memory.peak_rss_mb:.1f} MB, "
        f"{memory.us_per_packet:.2f} us/packet"
    )
    reno = costs["rudp-reno"]
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
