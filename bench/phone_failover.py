"""A phone's two radios through a Wi-Fi outage: each path's bytes over time, and the failover.

Runs the compiled ``rudp-phone`` example (802.11n and a cellular radio to a
server with one address; the phone walks out of the Wi-Fi's coverage and
back) with both path managers and each ``--cellular`` radio (an 8 Mbit/s
point-to-point link, ns-3's LTE), and draws ``doc/figures/rudp-phone.png``:
the bytes each radio's path sent, and the server received, per
``--interval``, one panel per run. It prints each radio's bytes before,
during and after the outage and the failover time (the longest gap between
two deliveries to the server), the table of doc/multipath.rst. Run by hand::

    .venv/bin/python bench/phone_failover.py [--duration S] [--cellular p2p,lte] [--out PNG]
    make bench-phone
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from matplotlib.figure import Figure

from rudp import paths

#: The path managers compared, as rudp-phone's --path-manager names them.
MANAGERS = ("full-mesh", "sctp")
#: The cellular radios, as rudp-phone's --cellular names them.
CELLULAR = ("p2p", "lte")


@dataclass
class PhoneRun:
    """One run of rudp-phone: its record and its trace."""

    manager: str
    record: dict[str, object]
    #: rudp-phone's --cellular
    cellular: str = "p2p"
    #: bytes per bin, by flow ("wifi", "cellular", "path0", "server"): (bin end s, bytes)
    series: dict[str, list[tuple[float, int]]] = field(default_factory=dict)


def run(manager: str, arguments: list[str], scratch: Path, cellular: str = "p2p") -> PhoneRun:
    """Run rudp-phone once with ``--path-manager=manager`` and ``--cellular=cellular``."""
    trace = scratch / f"{manager}-{cellular}.tsv"
    output = scratch / f"{manager}-{cellular}.json"
    program = paths.standalone_build().program("rudp-phone")
    subprocess.run(
        [
            str(program),
            f"--path-manager={manager}",
            f"--cellular={cellular}",
            f"--trace={trace}",
            f"--output={output}",
            *arguments,
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    record: dict[str, object] = json.loads(output.read_text())
    series: dict[str, list[tuple[float, int]]] = defaultdict(list)
    with trace.open() as lines:
        for row in csv.DictReader(lines, delimiter="\t"):
            series[row["flow"]].append((float(row["time_s"]), int(row["bytes"])))
    return PhoneRun(manager, record, cellular, {k: sorted(v) for k, v in series.items()})


def table(runs: list[PhoneRun]) -> str:
    """Each radio's bytes before, during and after the outage, the failover time (the
    longest gap in delivery of those ending during the walk) and the run's longest gap."""
    lines = [
        f"{'paths':<10} {'cellular':<9} {'radio':<9} {'before MB':>10} {'during MB':>10}"
        f" {'after MB':>9}"
        f" {'goodput Mbit/s':>15} {'failover s':>11} {'longest gap s':>14}"
    ]
    for phone in runs:
        radios = phone.record["radios"]
        assert isinstance(radios, list)
        for radio in radios:
            lines.append(
                f"{phone.manager:<10} {phone.cellular:<9} {radio['radio']:<9}"
                f" {radio['bytes_before'] / 1e6:>10.2f}"
                f" {radio['bytes_during'] / 1e6:>10.2f} {radio['bytes_after'] / 1e6:>9.2f}"
                f" {phone.record['goodput_mbps']:>15.2f} {phone.record['failover_s']:>11.3f}"
                f" {phone.record['longest_gap_s']:>14.3f}"
            )
    return "\n".join(lines)


def draw(runs: list[PhoneRun], interval: float, out: Path) -> None:
    """One panel per run: each path's Mbit/s sent and the server's received."""
    figure = Figure(figsize=(10, 3.2 * len(runs)))
    axes_list = figure.subplots(len(runs), 1, sharex=True, squeeze=False)[:, 0]
    colours = {"wifi": "tab:blue", "cellular": "tab:orange", "server": "black"}
    for axes, phone in zip(axes_list, runs, strict=True):
        for flow, points in phone.series.items():
            axes.plot(
                [t for t, _ in points],
                [b * 8 / interval / 1e6 for _, b in points],
                label="received by the server" if flow == "server" else f"sent on the {flow} path",
                color=colours.get(flow),
                linewidth=1.6 if flow == "server" else 1.0,
                linestyle="--" if flow == "server" else "-",
            )
        walk_out = float(str(phone.record["walk_out_s"]))
        walk_back = float(str(phone.record["walk_back_s"]))
        walking = float(str(phone.record["distance_m"])) / float(str(phone.record["speed_mps"]))
        axes.axvspan(
            walk_out, walk_back + walking, color="grey", alpha=0.12, label="walking away and back"
        )
        axes.set_ylabel("Mbit/s")
        failover = float(str(phone.record["failover_s"]))
        axes.set_title(
            f"--path-manager={phone.manager} --cellular={phone.cellular}:"
            f" failover {failover:.2f} s",
            fontsize=10,
        )
        axes.grid(True, alpha=0.3)
        axes.legend(fontsize=7, loc="upper right")
    axes_list[-1].set_xlabel("time (s)")
    figure.suptitle(
        "rudp-phone: 802.11n and a cellular radio (an 8 Mbit/s link, LTE) to a one-address server"
    )
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=100)


def main(argv: list[str] | None = None) -> None:
    """Run both path managers with each cellular radio, print the table, draw the figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=70.0, help="simulated seconds")
    parser.add_argument("--interval", type=float, default=0.5, help="the figure's bin (s)")
    parser.add_argument(
        "--out",
        type=Path,
        default=paths.REPO_ROOT / "doc" / "figures" / "rudp-phone.png",
        help="the figure",
    )
    parser.add_argument(
        "--cellular",
        default=",".join(CELLULAR),
        help=f"the cellular radios, comma-separated, of {', '.join(CELLULAR)}",
    )
    options = parser.parse_args(argv)
    radios = options.cellular.split(",")
    if not radios or any(radio not in CELLULAR for radio in radios):
        parser.error(f"--cellular: a comma-separated list of {', '.join(CELLULAR)}")
    if options.duration < 40 or options.interval <= 0:
        parser.error("--duration must be at least 40 s (the walk) and --interval positive")
    arguments = [f"--duration={options.duration}s", f"--interval={options.interval}s"]
    with tempfile.TemporaryDirectory() as scratch:
        runs = [
            run(manager, arguments, Path(scratch), cellular)
            for cellular in radios
            for manager in MANAGERS
        ]
    print(table(runs))
    draw(runs, options.interval, options.out)
    print(f"wrote {options.out}")


if __name__ == "__main__":
    main()
