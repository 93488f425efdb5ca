"""``python -m rudp.sweep``: the command line over :func:`rudp.sweep.run_sweep`, and
its other commands (:data:`COMMANDS`: ``cwnd-figure``, ``seed002-ns2``)."""

from __future__ import annotations

import argparse
import inspect
import math
import signal
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..paths import NS3_BUILD_VARIABLE, current_build
from ..runner import Value
from .cluster import CLUSTERS, SlurmJobs, parse_adaptive, slurm_client
from .execute import command_of
from .grid import GridError
from .manager import cache_of, plan, results_folder, run_sweep
from .pool import default_jobs
from .presets import PRESETS
from .until import UntilCi


@dataclass(frozen=True)
class Command:
    """A command of ``python -m rudp.sweep`` other than a sweep: its first word."""

    summary: str
    #: Its main: the arguments after its name in, the exit status out.
    main: Callable[[Sequence[str]], int]


def _seed002_ns2(argv: Sequence[str]) -> int:
    # Two simulators, not a grid of one program: rudp.ns2 runs it.
    from ..ns2.compare import main  # noqa: PLC0415 - only this command needs it

    return main(argv)


def _cwnd_figure(argv: Sequence[str]) -> int:
    args = cwnd_figure_parser().parse_args(argv)
    from .figures import cwnd_figure  # noqa: PLC0415 - the report layer, on use only

    try:
        written = cwnd_figure(
            args.trace,
            args.out or args.trace.with_suffix(".png"),
            title=args.title,
            segment_size=args.mss,
        )
    except ValueError as error:  # not a cwnd trace
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # a file that cannot be read or written
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(written)
    return 0


#: The commands, by the word that starts them; anything else is a sweep's spec.
COMMANDS: dict[str, Command] = {
    "cwnd-figure": Command(
        "draw a --cwnd-trace file: window, threshold, states, timeouts (cwnd-figure --help)",
        _cwnd_figure,
    ),
    "seed002-ns2": Command(
        "seed 002's grid in ns-2.35's SCTP-CMT and in rudp-cmt, side by side "
        "(python -m rudp.ns2 --help)",
        _seed002_ns2,
    ),
}


def _epilog() -> str:
    presets = "\n".join(
        textwrap.fill(
            p.description, 79, initial_indent=f"  {p.name:9} ", subsequent_indent=" " * 12
        )
        for p in PRESETS.values()
    )
    commands = "\n".join(
        textwrap.fill(c.summary, 79, initial_indent=f"  {name:12} ", subsequent_indent=" " * 15)
        for name, c in COMMANDS.items()
    )
    return EPILOG.format(presets=presets, commands=commands)


EPILOG = """\
presets:
{presets}

other commands (python -m rudp.sweep COMMAND ...):
{commands}

grid file (TOML):
  program = "rudp-file-transfer"
  runs = 3
  [fixed]
  file = "1.jpg"
  [axes]
  variant = ["stop-and-wait", "go-back-n"]
  loss = [0.0, 0.05]
  (several grids: [[grid]] tables with name/fixed/axes/runs/program;
   an optional [quick] table with runs/fixed/axes applies under --quick)

examples:
  python -m rudp.sweep seed000 --quick
  python -m rudp.sweep my-grid.toml --runs 5 --out results/mine
  python -m rudp.sweep rudp-file-transfer --axis variant=reno,go-back-n \\
      --axis loss=0,0.05 --set size=200000 --runs 3
  python -m rudp.sweep seed000 --scheduler tcp://10.0.0.1:8786
  python -m rudp.sweep seed003 --ns3-build ~/ns-3   (the programs of an ns-3
      tree building contrib/rudp, e.g. in its optimized profile)
  python -m rudp.sweep seed003 --cluster slurm --queue batch --account proj \\
      --walltime 02:00:00 --cores 16 --memory 32GB --cluster-jobs 8   (Slurm jobs
      as the Dask workers; the same cache and records as a local run)
  python -m rudp.sweep rudp-distributed --ns3-build ~/ns-3-mpi --mpi-ranks 2 \\
      --axis bytes=1000000,3000000   (each run split across 2 MPI ranks)
  python -m rudp.sweep seed002-ns2 --seeds 3   (seed 002's grid in ns-2.35's
      SCTP-CMT and in rudp-cmt, side by side: python -m rudp.ns2 --help)
  python -m rudp.sweep cwnd-figure cwnd.csv --out cwnd.png   (a --cwnd-trace file
      drawn: window, threshold, states, timeouts; cwnd-figure --help)

results: OUT/results.parquet (or .csv), one row per (point, run): parameters,
metrics, 'status' (ok; failed: the program reported a failed run; error: no
result), 'error' (empty on success), 'exit_status', 'stderr', 'command'.
Tables and figures give means over the successful runs with "k/n failed"
beside them. Results are cached under OUT/cache (keyed by program, its build,
parameters, run and NS_GLOBAL_VALUE/NS_ATTRIBUTE_DEFAULT; the build is the
program and every library it loads): a re-run only runs what is missing.
Before anything runs, every parameter is checked against what its program
takes (PROGRAM --PrintHelp): an unknown one is a usage error (status 2).
A reported failure is a result: a row with its metrics, cached. A run
without a result (a crash, a timeout, a bad parameter) is printed with its
command line and stderr, kept as a row with its 'error', never cached, and
makes the command exit with status 1 (2: bad usage).
Ctrl-C or SIGTERM stops the running programs, keeps every finished run in
the cache and exits (130, 143); the same command again resumes.
"""


def parse_value(text: str) -> Value:
    """A command-line value as a grid holds it: int, float or string."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def _adaptive(text: str) -> tuple[int, int]:
    try:
        return parse_adaptive(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _assignment(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=VALUE")
    return name.lstrip("-"), value


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m rudp.sweep",
        description=(
            "Run a parameter sweep of the rudp scenario programs in parallel, from a cache "
            "where possible, and write its results, tables and figures."
        ),
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "spec",
        metavar="PRESET_OR_GRID_FILE",
        help=f"a preset ({', '.join(PRESETS)}), a TOML grid file, or a built program's name "
        f"(or a command: {', '.join(COMMANDS)})",
    )
    p.add_argument("--quick", action="store_true", help="the preset's small size (demo, tests)")
    p.add_argument(
        "--runs",
        type=_positive_int,
        metavar="N",
        help="runs per point (RngRun 1..N), in place of a preset's runs until the interval is "
        "tight (seed003's lossy points)",
    )
    p.add_argument(
        "--jobs",
        type=_positive_int,
        metavar="N",
        help=f"runs at a time on this machine (default: all {default_jobs()} cores)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDR",
        help="run on this Dask distributed scheduler (tcp://host:8786) instead of locally",
    )
    cluster = p.add_argument_group(
        "a cluster's batch jobs (--cluster slurm: dask-jobqueue, pip install -r "
        "requirements-cluster.txt)"
    )
    cluster.add_argument(
        "--cluster",
        choices=CLUSTERS,
        help="run on Dask workers that are this scheduler's batch jobs, submitted from here",
    )
    cluster.add_argument("--queue", metavar="NAME", help="the partition (default: Slurm's)")
    cluster.add_argument("--account", metavar="NAME", help="the account charged")
    cluster.add_argument(
        "--walltime",
        default="01:00:00",
        metavar="[D-]HH:MM:SS",
        help="each job's time limit (default 01:00:00)",
    )
    cluster.add_argument(
        "--cores",
        type=_positive_int,
        default=1,
        metavar="N",
        help="cores of each job: as many runs at a time (default 1)",
    )
    cluster.add_argument(
        "--memory", default="2GB", metavar="SIZE", help="memory of each job (default 2GB)"
    )
    cluster.add_argument(
        "--cluster-jobs",
        type=_positive_int,
        metavar="N",
        help="keep N jobs (default 1 without --adaptive)",
    )
    cluster.add_argument(
        "--adaptive",
        type=_adaptive,
        metavar="MIN:MAX",
        help="let Dask keep MIN to MAX jobs, as the runs left need",
    )
    cluster.add_argument(
        "--interface",
        metavar="NAME",
        help="the network interface the workers reach this process over (e.g. ib0)",
    )
    p.add_argument("--out", type=Path, metavar="DIR", help="output folder (default results/NAME)")
    p.add_argument("--cache", type=Path, metavar="DIR", help="cache folder (default DIR/cache)")
    p.add_argument(
        "--no-cache",
        dest="use_cache",
        action="store_false",
        help="run everything, store nothing",
    )
    p.add_argument(
        "--format",
        dest="fmt",
        choices=("parquet", "csv"),
        default="parquet",
        help="results file format",
    )
    p.add_argument(
        "--set",
        dest="fixed",
        type=_assignment,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="fix a parameter in every grid (repeatable)",
    )
    p.add_argument(
        "--axis",
        dest="axes",
        type=_assignment,
        action="append",
        default=[],
        metavar="NAME=V1,V2,...",
        help="sweep a parameter over these values in every grid (repeatable)",
    )
    p.add_argument(
        "--timeout",
        dest="timeout_s",
        type=_seconds,
        default=3600,
        metavar="S",
        help="limit of one run (seconds)",
    )
    p.add_argument(
        "--no-report", dest="report", action="store_false", help="write no figures or tables"
    )
    p.add_argument(
        "--dry-run", action="store_true", help="list the runs and what is cached; run nothing"
    )
    p.add_argument(
        "--cached-only",
        action="store_true",
        help="run nothing: write the results, figures and tables of the cached runs "
        "(a long sweep's so far)",
    )
    p.add_argument(
        "--ns3-build",
        type=Path,
        metavar="PATH",
        help="run the programs of this ns-3 tree (or its build folder) that builds "
        f"contrib/rudp, e.g. an optimized one (default: ${NS3_BUILD_VARIABLE}, else the "
        "standalone build)",
    )
    p.add_argument(
        "--mpi-ranks",
        type=_positive_int,
        default=1,
        metavar="N",
        help="run each point split across N MPI ranks (mpiexec -n N PROGRAM --ranks=N): the "
        "programs that take --ranks, of an ns-3 tree configured with --enable-mpi "
        "(--ns3-build); --jobs defaults to the cores over N",
    )
    p.add_argument(
        "--until-ci",
        type=float,
        metavar="FRACTION",
        help="then add runs to each point until the 95 %% interval of --ci-metric is within "
        "FRACTION of its mean (e.g. 0.05), up to --max-runs; grids of one run stay so",
    )
    p.add_argument(
        "--max-runs",
        type=_positive_int,
        default=20,
        metavar="N",
        help="most runs a point gets with --until-ci (default 20)",
    )
    p.add_argument(
        "--ci-metric",
        metavar="NAME",
        help="the metric --until-ci tightens: a key of the programs' JSON records "
        "(e.g. utilization, throughput_kBps)",
    )
    p.add_argument(
        "--quiet", dest="progress", action="store_false", help="no progress bar or summary"
    )
    return p


def cwnd_figure_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m rudp.sweep cwnd-figure",
        description=(
            "Draw a --cwnd-trace file of rudp-file-transfer or rudp-cc-comparison as a PNG: "
            "the congestion window and slow-start threshold over time, the congestion "
            "states shaded, the retransmission timeouts marked."
        ),
    )
    p.add_argument("trace", type=Path, metavar="TRACE", help="the trace (CSV)")
    p.add_argument(
        "--out", type=Path, metavar="PNG", help="the figure to write (default: TRACE with .png)"
    )
    p.add_argument("--title", help="the figure's title (default: the trace's file name)")
    p.add_argument(
        "--mss",
        type=_positive_int,
        metavar="BYTES",
        help="the segment size: adds an axis in segments",
    )
    return p


def _dry_run(
    args: argparse.Namespace, fixed: dict[str, Value], axes: dict[str, list[Value]]
) -> int:
    the_plan = plan(
        args.spec,
        args.quick,
        args.runs,
        fixed,
        axes,
        ns3_build=args.ns3_build,
        mpi_ranks=args.mpi_ranks,
    )
    folder = results_folder(the_plan.name, args.out)
    status = the_plan.status(cache_of(folder, args.cache) if args.use_cache else None)
    missing = status.missing
    print(
        f"{the_plan.name}: {len(the_plan.grids)} grid(s), {len(status.points)} runs, "
        f"{status.cached} cached, {len(missing)} to run ({the_plan.build})"
    )
    until = _until_ci(args) or the_plan.until_ci
    if until is not None:
        print(
            f"  then runs added until each point's {until.metric} is within {until.fraction:g} "
            f"of its mean, at most {until.max_runs} runs a point"
        )
    for i in missing[:10]:
        print("  " + command_of(status.points[i], the_plan.build))
    if len(missing) > 10:
        print(f"  ... and {len(missing) - 10} more")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = COMMANDS.get(argv[0]) if argv else None
    return command.main(argv[1:]) if command is not None else _sweep(argv)


def _sweep(argv: Sequence[str]) -> int:
    args = parser().parse_args(argv)
    fixed = {name: parse_value(value) for name, value in args.fixed}
    axes = {name: [parse_value(v) for v in value.split(",")] for name, value in args.axes}
    try:
        current_build(args.ns3_build)
    except FileNotFoundError as error:  # --ns3-build or $RUDP_NS3_BUILD: no ns-3 build there
        print(f"error: {error}", file=sys.stderr)
        return 2
    return _run(args, fixed, axes)


def _until_ci(args: argparse.Namespace) -> UntilCi | None:
    """The --until-ci options (GridError if they make no sense)."""
    if args.until_ci is None:
        if args.ci_metric is not None:
            raise GridError("--ci-metric goes with --until-ci")
        return None
    return UntilCi(args.until_ci, args.max_runs, args.ci_metric or "")


def sweep_arguments(
    args: argparse.Namespace, fixed: dict[str, Value], axes: dict[str, list[Value]]
) -> dict[str, Any]:
    """:func:`run_sweep`'s keyword arguments from the parsed options: each
    option's ``dest`` is the name of the argument it sets."""
    given = vars(args) | {"fixed": fixed, "axes": axes, "until_ci": _until_ci(args)}
    keywords = [
        name
        for name, parameter in inspect.signature(run_sweep).parameters.items()
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY
    ]
    return {name: given[name] for name in keywords}


def slurm_jobs(args: argparse.Namespace) -> SlurmJobs | None:
    """The Slurm jobs of --cluster slurm (None without --cluster); GridError for
    cluster options that make no sense, or that come without it."""
    given = [
        f"--{name.replace('_', '-')}"
        for name in ("queue", "account", "cluster_jobs", "adaptive", "interface")
        if getattr(args, name) is not None
    ]
    if args.cluster is None:
        if given:
            raise GridError(f"{', '.join(given)}: only with --cluster")
        return None
    if args.scheduler is not None:
        raise GridError("--cluster and --scheduler: the cluster's jobs are the scheduler's workers")
    if args.jobs is not None:
        raise GridError("--jobs: runs on this machine; a cluster job runs --cores at a time")
    if args.mpi_ranks > 1:
        raise GridError(
            "--mpi-ranks with --cluster: a point split across ranks needs an MPI job of its "
            "own, which a Dask worker's job is not; run it on one machine"
        )
    return SlurmJobs(
        queue=args.queue,
        account=args.account,
        walltime=args.walltime,
        cores=args.cores,
        memory=args.memory,
        jobs=args.cluster_jobs if args.adaptive is not None else (args.cluster_jobs or 1),
        adaptive=args.adaptive,
        interface=args.interface,
    )


def _run(args: argparse.Namespace, fixed: dict[str, Value], axes: dict[str, list[Value]]) -> int:
    try:
        jobs = slurm_jobs(args)
        if args.dry_run:
            return _dry_run(args, fixed, axes)
        arguments = sweep_arguments(args, fixed, axes)
        if jobs is None:
            frame = run_sweep(args.spec, **arguments)
        else:
            # Checked first, so that a wrong grid submits no job.
            the_plan = plan(
                args.spec,
                args.quick,
                args.runs,
                fixed,
                axes,
                ns3_build=args.ns3_build,
                mpi_ranks=args.mpi_ranks,
            )
            # The jobs' output files beside the results, not in the folder
            # the sweep was started from.
            logs = results_folder(the_plan.name, args.out) / "slurm-jobs"
            jobs = replace(jobs, log_directory=logs)
            with slurm_client(jobs) as client:
                frame = run_sweep(args.spec, **(arguments | {"scheduler": client}))
    except GridError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # an unreachable scheduler, an unwritable --out
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as interruption:  # the sweep has said what it kept
        return 128 + int(getattr(interruption, "signum", signal.SIGINT))
    if frame.attrs["errors"]:
        print(
            f"FAILED: {frame.attrs['errors']} of {frame.attrs['runs']} runs gave no result "
            "(rows with status 'error' in the results)",
            file=sys.stderr,
        )
        return 1
    return 0
