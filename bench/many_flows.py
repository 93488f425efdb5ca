"""What a connection costs when there are thousands of them: RUDP against ns-3 TCP (issue 43).

Runs ``rudp-many-flows`` (one process per run) with 1 000, 5 000 and 20 000
connections at once moving 100 MB in all (100 kB, 20 kB and 5 kB each),
BulkSend to one PacketSink from client hosts (a host has 16 384 ephemeral
ports: one per 10 000 flows) through a router to one server, 10 Gbit/s
links, every transport on the same topology, and prints for each transport
and number of flows:

* the CPU time (user plus system, from the process's rusage) per delivered
  byte, and its ratio to the same transport's with the fewest flows;
* the peak resident memory per connection: the run's peak less that of a
  one-flow run of the same transport, over the flows;
* the simulator's events per CPU second.

The goal: with the most flows, RUDP's CPU per byte at most 1.5 times its own
with the fewest, and at most ns-3 TCP's CPU per byte and memory per
connection.

CPU time on a shared or virtual machine drifts by 20 % from run to run.
``--instructions`` adds the table's runs counted by
``valgrind --tool=callgrind``: instructions per delivered byte, which do
not drift (slow: callgrind runs 50 times slower). ``--profile`` runs each
transport under callgrind on a smaller run (``--profile-flows`` flows,
``--profile-bytes`` in all) and prints the functions with the most
instructions of their own: where the time goes. Run by hand, not a test::

    .venv/bin/python bench/many_flows.py [--flows 1000,5000,20000] [--transports rudp,tcp]
                                         [--repeat K] [--profile] [--instructions]
    make bench-flows
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from measured_run import MeasuredRun, collected, run_measured

from rudp import paths

PROGRAM = "rudp-many-flows"
TRANSPORTS = ("rudp", "tcp", "rudp-cmt")
NAMES = {"rudp": "RUDP", "tcp": "TCP", "rudp-cmt": "CMT"}
GOAL_SCALING = 1.5


@dataclass(frozen=True)
class Row:
    """One transport with one number of flows: the median run's figures."""

    transport: str
    flows: int
    flow_bytes: int
    cpu_s: float
    delivered: int
    peak_mb: float
    events: int
    concurrent: int

    @property
    def ns_per_byte(self) -> float:
        return 1e9 * self.cpu_s / max(self.delivered, 1)

    @property
    def events_per_cpu_s(self) -> float:
        return self.events / self.cpu_s if self.cpu_s > 0 else 0.0


def flow_options(transport: str, flows: int, flow_bytes: int) -> list[str]:
    """rudp-many-flows's options for one run."""
    return [f"--transport={transport}", f"--flows={flows}", f"--flow-bytes={flow_bytes}"]


def row_of(transport: str, flows: int, flow_bytes: int, runs: list[MeasuredRun]) -> Row:
    """The row of ``runs`` of one transport and number of flows: their median CPU time
    and peak memory."""
    first = runs[0].record
    return Row(
        transport=transport,
        flows=flows,
        flow_bytes=flow_bytes,
        cpu_s=statistics.median(run.cpu_s for run in runs),
        delivered=int(first["bytes"]),
        peak_mb=statistics.median(run.peak_rss_mb for run in runs),
        events=int(first["events"]),
        concurrent=int(first["concurrent"]),
    )


def kb_per_connection(row: Row, baseline_mb: float) -> float:
    """The peak memory of ``row`` above a one-flow run's, per connection, in KiB."""
    return 1024 * (row.peak_mb - baseline_mb) / row.flows


def table(rows: list[Row], baselines: dict[str, float]) -> list[str]:
    """The printed table: a row per transport and number of flows."""
    lines = [
        f"{'transport':<9}{'flows':>7}{'kB/flow':>9}{'concurrent':>11}{'CPU s':>8}"
        f"{'ns/B':>7}{'x':>6}{'peak MB':>9}{'kB/conn':>9}{'Mevents':>9}{'Mev/CPU-s':>10}"
    ]
    fewest: dict[str, Row] = {}
    for row in rows:
        first = fewest.setdefault(row.transport, row)
        lines.append(
            f"{NAMES[row.transport]:<9}{row.flows:>7}{row.flow_bytes / 1000:>9g}"
            f"{row.concurrent:>11}{row.cpu_s:>8.1f}{row.ns_per_byte:>7.1f}"
            f"{row.ns_per_byte / first.ns_per_byte:>6.2f}{row.peak_mb:>9.0f}"
            f"{kb_per_connection(row, baselines[row.transport]):>9.1f}"
            f"{row.events / 1e6:>9.2f}{row.events_per_cpu_s / 1e6:>10.2f}"
        )
    return lines


def verdicts(rows: list[Row], baselines: dict[str, float]) -> list[str]:
    """The goal's lines: RUDP with the most flows against itself with the fewest and
    against TCP with the most."""
    rudp = [row for row in rows if row.transport == "rudp"]
    tcp = [row for row in rows if row.transport == "tcp"]
    if len(rudp) < 2:
        return []
    fewest, most = rudp[0], rudp[-1]
    checks = [
        (
            f"RUDP at {most.flows} flows <= {GOAL_SCALING} x its CPU per byte at {fewest.flows}",
            most.ns_per_byte / fewest.ns_per_byte,
            GOAL_SCALING,
        )
    ]
    if tcp and tcp[-1].flows == most.flows:
        checks.append(
            (
                f"RUDP at {most.flows} flows <= TCP's CPU per byte",
                most.ns_per_byte / tcp[-1].ns_per_byte,
                1.0,
            )
        )
        checks.append(
            (
                f"RUDP at {most.flows} flows <= TCP's memory per connection",
                kb_per_connection(most, baselines["rudp"])
                / max(kb_per_connection(tcp[-1], baselines["tcp"]), 1e-9),
                1.0,
            )
        )
    return [
        f"{'met' if ratio <= goal else 'MISSED':>7}  {what}: {ratio:.2f}"
        for what, ratio, goal in checks
    ]


def callgrind(
    build: paths.Build, options: list[str], out_file: str
) -> tuple[int, dict[str, object]]:
    """A run of rudp-many-flows under callgrind: the instructions it counted and the record."""
    with tempfile.TemporaryDirectory() as workdir:
        output = Path(workdir) / "record.json"
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out_file}",
            str(build.program(PROGRAM)),
            *options,
            f"--output={output}",
        ]
        done = subprocess.run(
            command, capture_output=True, text=True, env=build.environment(), check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {done.stderr[-500:]}")
        return collected(done.stderr), json.loads(output.read_text())


#: A function's line in callgrind_annotate's output: ``1,234 (12.34%)  file:function [object]``.
ANNOTATED = re.compile(r"^\s*([\d,]+)\s+\(\s*([\d.]+)%\)\s+(\S.*)$")


def function_name(entry: str) -> str:
    """The function of an annotated ``file:function [object]`` entry."""
    entry = re.sub(r"\s+\[[^\]]*\]$", "", entry.strip())
    match = re.match(r"^(\?\?\?|[^\s:]*[/.][^\s:]*):(.+)$", entry)
    return match.group(2) if match else entry


def top_functions(annotated: str, count: int) -> list[tuple[float, str]]:
    """The first ``count`` functions of callgrind_annotate's listing (the most
    instructions first) with their share in percent."""
    functions = []
    for line in annotated.splitlines():
        match = ANNOTATED.match(line)
        if match and not line.rstrip().endswith("PROGRAM TOTALS"):
            functions.append((float(match.group(2)), function_name(match.group(3))))
            if len(functions) == count:
                break
    return functions


def profile(build: paths.Build, transport: str, flows: int, total: int, count: int) -> list[str]:
    """The functions with the most instructions of their own in a callgrind run."""
    with tempfile.TemporaryDirectory() as workdir:
        out_file = str(Path(workdir) / "callgrind.out")
        instructions, _ = callgrind(build, flow_options(transport, flows, total // flows), out_file)
        annotated = subprocess.run(
            ["callgrind_annotate", "--inclusive=no", out_file],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    lines = [f"{NAMES[transport]}, {flows} flows: {instructions:,} instructions"]
    lines += [f"{share:>7.1f} %  {name}" for share, name in top_functions(annotated, count)]
    return lines


def flow_counts(text: str) -> list[int]:
    """``--flows``'s list, checked: increasing numbers of flows from 1 to 1 000 000."""
    counts = [int(item) for item in text.split(",")]
    if any(not 1 <= n <= 1_000_000 for n in counts) or counts != sorted(set(counts)):
        raise ValueError(text)
    return counts


def parse(argv: list[str] | None) -> tuple[argparse.Namespace, list[int], list[str]]:
    """The arguments, checked (exit status 2 naming the option at fault), the numbers
    of flows and the transports."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flows", default="1000,5000,20000", help="numbers of flows, increasing")
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--total-bytes", type=int, default=100_000_000, help="bytes of every run")
    sizes.add_argument("--flow-bytes", type=int, help="bytes of every flow instead")
    parser.add_argument("--transports", default="rudp,tcp", help="of rudp, tcp, rudp-cmt")
    parser.add_argument("--repeat", type=int, default=1, help="runs per row (median)")
    parser.add_argument("--profile", action="store_true", help="callgrind profile, smaller run")
    parser.add_argument("--profile-flows", type=int, default=5000, help="flows of the profile")
    parser.add_argument("--profile-bytes", type=int, default=10_000_000, help="its bytes in all")
    parser.add_argument("--top", type=int, default=12, help="functions the profile lists")
    parser.add_argument(
        "--instructions", action="store_true", help="also count the runs' instructions"
    )
    args = parser.parse_args(argv)
    try:
        counts = flow_counts(args.flows)
    except ValueError:
        parser.error("--flows: increasing numbers in [1, 1000000], comma-separated")
    transports = args.transports.split(",")
    if any(t not in TRANSPORTS for t in transports) or len(set(transports)) != len(transports):
        parser.error(f"--transports: allowed a list of {', '.join(TRANSPORTS)}")
    if args.flow_bytes is None and args.total_bytes < counts[-1]:
        parser.error("--total-bytes: at least one byte per flow")
    if args.flow_bytes is not None and args.flow_bytes < 1:
        parser.error("--flow-bytes: at least 1")
    if args.repeat < 1:
        parser.error("--repeat: at least 1")
    if not 1 <= args.profile_flows <= args.profile_bytes:
        parser.error("--profile-flows: from 1 to --profile-bytes")
    if args.top < 1:
        parser.error("--top: at least 1")
    if (args.profile or args.instructions) and shutil.which("valgrind") is None:
        parser.error("--profile, --instructions: need valgrind (Debian: apt-get install valgrind)")
    return args, counts, transports


def bytes_per_flow(args: argparse.Namespace, flows: int) -> int:
    """The bytes each of ``flows`` flows moves: ``--flow-bytes``, else ``--total-bytes``
    shared out."""
    return int(args.flow_bytes) if args.flow_bytes is not None else int(args.total_bytes) // flows


def instruction_table(
    build: paths.Build, counts: list[int], transports: list[str], args: argparse.Namespace
) -> list[str]:
    """The printed table of the runs' instructions per delivered byte, and each one's
    ratio to the same transport's with the fewest flows."""
    lines = [f"{'transport':<9}{'flows':>7}{'instr/B':>9}{'x':>6}"]
    fewest: dict[str, float] = {}
    for flows in counts:
        for transport in transports:
            count, record = callgrind(
                build, flow_options(transport, flows, bytes_per_flow(args, flows)), "/dev/null"
            )
            per_byte = count / max(int(str(record["bytes"])), 1)
            first = fewest.setdefault(transport, per_byte)
            lines.append(f"{NAMES[transport]:<9}{flows:>7}{per_byte:>9.1f}{per_byte / first:>6.2f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    args, counts, transports = parse(argv)
    build = paths.standalone_build()
    baselines = {
        t: run_measured(
            build, PROGRAM, flow_options(t, 1, bytes_per_flow(args, counts[0]))
        ).peak_rss_mb
        for t in transports
    }
    rows = []
    for flows in counts:
        flow_bytes = bytes_per_flow(args, flows)
        for transport in transports:
            options = flow_options(transport, flows, flow_bytes)
            runs = [run_measured(build, PROGRAM, options) for _ in range(args.repeat)]
            rows.append(row_of(transport, flows, flow_bytes, runs))
    moved = (
        f"{args.total_bytes / 1e6:g} MB in all"
        if args.flow_bytes is None
        else f"{args.flow_bytes / 1e3:g} kB a flow"
    )
    print(
        f"{moved} over n connections at once, BulkSend to one PacketSink, "
        f"10 Gbit/s links, median of {args.repeat}; kB/conn: peak memory above a one-flow run's"
    )
    print("\n".join(table(rows, baselines)))
    lines = verdicts(rows, baselines)
    if lines:
        print()
        print("\n".join(lines))
    if args.instructions:
        print("\nInstructions per delivered byte (callgrind), the same runs")
        print("\n".join(instruction_table(build, counts, transports, args)))
    if args.profile:
        print(
            f"\nWhere the time goes: instructions of each function's own (callgrind), "
            f"{args.profile_flows} flows, {args.profile_bytes / 1e6:g} MB in all"
        )
        for transport in transports:
            print()
            print(
                "\n".join(
                    profile(build, transport, args.profile_flows, args.profile_bytes, args.top)
                )
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
