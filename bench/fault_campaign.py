"""Fault campaign: many file transfers under random faults, each one judged.

Runs N transfers of ``rudp-file-transfer`` with parameters drawn at random
from a seed (variant, SACK, checksum, file size 0 B .. 3 MB, loss, ACK loss,
1..8-bit corruption, reordering, duplication, jitter, blackouts, RngRun) and
classifies each by what the program did and what it wrote to disk::

    .venv/bin/python bench/fault_campaign.py --transfers 2000 --seed 1 --jobs 2

A share of the transfers (``--multipath``, 0.2 by default) is multipath:
``--paths`` 2 or 3 (one RudpCmtSocket association over that many paths, each
with the drawn impairments of its own), and blackouts of single paths at
random times (``--path-blackouts``): the association's paths fail and
return, beside the blackout of every path the others may draw. Which
transfers are multipath, and their paths and blackouts, are drawn from a
generator of their own: the single-path transfers of a seed are those the
campaign drew before multipath transfers existed.

- byte-identical: exit 0, and the file in --received-dir has the SHA-256 of
  the bytes sent (recomputed here from disk, against content generated
  here);
- reported failure: exit 1 with a JSON record saying "ok": false;
- silent corruption: exit 0 with a wrong or missing file, or a record that
  says the file is complete while it differs;
- hang: no exit within the wall-clock timeout;
- crash: a signal, an exit status above 2, exit 2 (a parameter rejected,
  though the campaign only draws legal ones), or no JSON record.

The last line is always ``N transfers: A byte-identical, B reported
failures, C silent corruptions, D hangs, E crashes``; before it, failures by
reason and by loss band, and the command line that reproduces every silent
corruption, hang and crash. The exit status is 1 if C + D + E > 0.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import enum
import hashlib
import json
import math
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

#: The repository: bench/fault_campaign.py -> ..
REPO_ROOT = Path(__file__).resolve().parents[1]

#: Variants of ``--variant``.
VARIANTS = ("stop-and-wait", "go-back-n", "reno")
#: Values of ``--checksum``.
CHECKSUMS = ("internet", "crc32c")
#: Largest file a transfer sends by default (bytes).
MAX_SIZE = 3_000_000
#: Options of rudp-file-transfer the campaign draws beyond the seed's own
#: (contracts: the netem and checksum options of issue 12).
NEW_OPTIONS = (
    "checksum",
    "reorder",
    "duplicate",
    "jitter",
    "ack-loss",
    "corruption-bits",
    "blackout-start",
    "blackout-duration",
)
#: Kinds of impairment a transfer may have, and the options that make each.
IMPAIRMENTS: dict[str, tuple[str, ...]] = {
    "loss": ("loss",),
    "ack-loss": ("ack-loss",),
    "corruption": ("corruption", "corruption-bits"),
    "reorder": ("reorder",),
    "duplicate": ("duplicate",),
    "jitter": ("jitter",),
    "blackout": ("blackout-start", "blackout-duration"),
    "path-blackout": ("path-blackouts",),
}
#: Loss bands of the breakdown: (label, upper bound, exclusive).
LOSS_BANDS = (("0", 0.0), ("<10%", 0.1), ("10-20%", 0.2), ("20-30%", 0.3), ("30-50%", 1.0))
#: Name of the empty file a 0-byte transfer sends.
EMPTY_NAME = "empty.bin"
#: Name rudp-file-transfer gives generated content (--size).
GENERATED_NAME = "generated.bin"
#: The share of multipath transfers by default (--multipath).
MULTIPATH_SHARE = 0.2
#: Options of rudp-file-transfer a multipath transfer needs.
MULTIPATH_OPTIONS = ("paths", "path-blackouts")
#: RudpSocket's options, which a multipath transfer (RudpCmtSocket) does not take.
SINGLE_PATH_OPTIONS = ("variant", "sack", "window", "rto-mode")


class Verdict(enum.Enum):
    """What one transfer came to."""

    IDENTICAL = "byte-identical"
    FAILED = "reported failure"
    CORRUPT = "silent corruption"
    HANG = "hang"
    CRASH = "crash"

    @property
    def short(self) -> str:
        """A one-word name, for table columns."""
        return {"byte-identical": "identical", "reported failure": "failed"}.get(
            self.value, self.value.split()[-1]
        )


@dataclass(frozen=True)
class Transfer:
    """One drawn transfer: the program's options, in order."""

    index: int
    options: tuple[tuple[str, str], ...]
    size: int
    content_seed: int

    def get(self, name: str, default: str = "0") -> str:
        """The value of option ``name``, or ``default`` if not drawn."""
        return next((value for key, value in self.options if key == name), default)

    def impairments(self) -> set[str]:
        """The kinds of impairment this transfer has (IMPAIRMENTS' keys)."""
        drawn = {key for key, _ in self.options}
        return {kind for kind, names in IMPAIRMENTS.items() if names[0] in drawn}

    def paths(self) -> int:
        """The number of paths (1: RudpSocket, more: a multipath association)."""
        return int(self.get("paths", "1"))

    def loss(self) -> float:
        """The larger of the data and the ACK loss probability."""
        return max(float(self.get("loss")), float(self.get("ack-loss")))

    def loss_band(self) -> str:
        """The label of this transfer's loss band."""
        loss = self.loss()
        if loss == 0:
            return LOSS_BANDS[0][0]
        return next(label for label, upper in LOSS_BANDS[1:] if loss < upper or upper == 1.0)

    def file_name(self) -> str:
        """The name the receiver writes the file under."""
        return EMPTY_NAME if self.size == 0 else GENERATED_NAME

    def arguments(self, workdir: str) -> list[str]:
        """The program's arguments; files go into ``workdir``."""
        args = [f"--{key}={value}" for key, value in self.options]
        if self.size == 0:
            args.append(f"--file={os.path.join(workdir, EMPTY_NAME)}")
        else:
            args += [f"--size={self.size}", f"--content-seed={self.content_seed}"]
        args += [
            f"--received-dir={os.path.join(workdir, 'received')}",
            f"--output={os.path.join(workdir, 'run.json')}",
        ]
        return args

    def reproduction(self, program: str) -> str:
        """A shell line that repeats this transfer in a scratch directory."""
        setup = f"mkdir -p received && : > {EMPTY_NAME} && " if self.size == 0 else ""
        args = [arg.replace(os.path.join(".", ""), "") for arg in self.arguments(".")]
        return setup + shlex.join([program, *args])


@dataclass
class Outcome:
    """A transfer, what it came to and why."""

    transfer: Transfer
    verdict: Verdict
    reason: str
    elapsed_s: float
    wrong_file_left: bool = False


def _log_uniform(rng: random.Random, low: float, high: float) -> float:
    return math.exp(rng.uniform(math.log(low), math.log(high)))


def _draw_size(rng: random.Random, max_size: int) -> int:
    """A file size: log-uniform, plus the edges 0, 1 and the largest."""
    edge = rng.random()
    if edge < 0.05:
        return 0
    if edge < 0.10:
        return 1
    if edge < 0.13:
        return max_size
    return min(max_size, round(_log_uniform(rng, 2, max_size)))


def draw(
    rng: random.Random,
    index: int,
    *,
    checksum: str | None = None,
    max_size: int = MAX_SIZE,
    max_time: str | None = None,
    available: Iterable[str] | None = None,
) -> Transfer:
    """Draws transfer ``index``'s parameters from ``rng``.

    Args:
        rng: the campaign's generator (draws happen in a fixed order).
        index: the transfer's number, for reporting.
        checksum: fix ``--checksum`` instead of drawing it.
        max_size: the largest file size (bytes, at least 2).
        max_time: ``--max-time`` for every transfer (the program's default if None).
        available: the program's options; impairments it lacks are not drawn
            (None: all of them).
    """
    offered = set(available) if available is not None else None

    def has(name: str) -> bool:
        return offered is None or name in offered

    options: list[tuple[str, str]] = [
        ("variant", rng.choice(VARIANTS)),
        ("sack", rng.choice(("0", "1"))),
    ]
    chosen_checksum = checksum if checksum is not None else rng.choice(CHECKSUMS)
    if has("checksum"):
        options.append(("checksum", chosen_checksum))
    options += [
        ("window", str(round(_log_uniform(rng, 1, 128)))),
        # The largest segment that fits a 1500-byte MTU: CRC32c's header is 2 bytes longer.
        ("mss", str(rng.choice((536, 1000, 1400, 1452 if chosen_checksum == "crc32c" else 1454)))),
        ("rto-mode", rng.choice(("fixed", "adaptive"))),
        ("delay", f"{rng.randrange(0, 50_001) if rng.random() < 0.7 else 0}us"),
    ]

    size = _draw_size(rng, max_size)
    # The data direction either drops or corrupts (one error model per device).
    data = rng.random()
    if data < 0.5:
        options.append(("loss", f"{rng.uniform(0, 0.5):.4f}"))
    elif data < 0.8 and has("corruption-bits"):
        options.append(("corruption", f"{rng.uniform(0, 0.3):.4f}"))
        options.append(("corruption-bits", str(rng.randint(1, 8))))
    if rng.random() < 0.35 and has("ack-loss"):
        options.append(("ack-loss", f"{rng.uniform(0, 0.5):.4f}"))
    reorder = rng.random() < 0.3 and has("reorder")
    if reorder:
        options.append(("reorder", f"{rng.uniform(0, 0.3):.4f}"))
    if rng.random() < 0.25 and has("duplicate"):
        options.append(("duplicate", f"{rng.uniform(0, 0.2):.4f}"))
    # Netem reorders by letting some datagrams skip the delay the others
    # wait: --reorder needs --jitter.
    if (rng.random() < 0.3 or reorder) and has("jitter"):
        options.append(("jitter", f"{rng.randrange(1, 20_001)}us"))
    if rng.random() < 0.2 and has("blackout-start"):
        options.append(("blackout-start", f"{rng.randrange(0, 3001)}ms"))
        options.append(("blackout-duration", f"{round(_log_uniform(rng, 1, 60_000))}ms"))
    if max_time is not None:
        options.append(("max-time", max_time))
    options.append(("RngRun", str(rng.randint(1, 1_000_000_000))))
    return Transfer(index, tuple(options), size, rng.randrange(0, 1 << 32))


def path_blackouts(rng: random.Random, paths: int) -> str:
    """``--path-blackouts``: none, one or two blackouts of each path, at random times.

    Blackouts start in the first 3 s (the transfers are short) and last 1 ms
    to 20 s; those of one path may overlap, and those of different paths
    too (all paths dark at once).
    """
    blackouts = []
    for path in range(paths):
        for _ in range(rng.choice((0, 1, 1, 2))):
            start = rng.randrange(0, 3001)
            duration = round(_log_uniform(rng, 1, 20_000))
            blackouts.append(f"{path}@{start}ms+{duration}ms")
    return ",".join(blackouts)


def multipath(rng: random.Random, transfer: Transfer) -> Transfer:
    """``transfer`` over 2 or 3 paths whose links fail and return, drawn from ``rng``.

    RudpSocket's options are left out (the association is RudpCmtSocket);
    the impairments stay, each path drawing its own losses.
    """
    paths = rng.choice((2, 3))
    options = [(k, v) for k, v in transfer.options if k not in SINGLE_PATH_OPTIONS]
    blackouts = path_blackouts(rng, paths)
    extra = [("paths", str(paths))] + ([("path-blackouts", blackouts)] if blackouts else [])
    # Before RngRun, the last option, so that a reproduction reads in order.
    return Transfer(
        transfer.index, (*options[:-1], *extra, options[-1]), transfer.size, transfer.content_seed
    )


def draw_campaign(
    transfers: int,
    seed: int,
    *,
    checksum: str | None = None,
    max_size: int = MAX_SIZE,
    max_time: str | None = None,
    available: Iterable[str] | None = None,
    multipath_share: float = 0.0,
) -> list[Transfer]:
    """The ``transfers`` transfers of the campaign of ``seed``.

    ``multipath_share`` of them (drawn by a generator of their own, so that
    the others are the same whatever the share) are multipath.
    """
    rng = random.Random(seed)
    paths_rng = random.Random(f"multipath {seed}")
    offered = list(available) if available is not None else None
    drawn = []
    for i in range(transfers):
        transfer = draw(
            rng,
            i,
            checksum=checksum,
            max_size=max_size,
            max_time=max_time,
            available=offered,
        )
        if paths_rng.random() < multipath_share:
            transfer = multipath(paths_rng, transfer)
        drawn.append(transfer)
    return drawn


def generated_content(size: int, seed: int) -> bytes:
    """The bytes ``--size=size --content-seed=seed`` sends.

    RudpFileSource's generator: SplitMix64 from ``seed``, one 64-bit word per
    eight bytes, least significant byte first. The campaign checks this
    against the program before it starts (:func:`self_check`).
    """
    words = (size + 7) // 8
    with np.errstate(over="ignore"):
        k = np.arange(1, words + 1, dtype=np.uint64)
        z = np.uint64(seed) + k * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return z.astype("<u8").tobytes()[:size]


def sha256_of(path: Path) -> str | None:
    """The SHA-256 of the file at ``path``, or None if it is not a file."""
    if not path.is_file():
        return None
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


def _process_problem(  # noqa: PLR0911 - one return per rule, in order
    returncode: int | None, record: object, stderr: str
) -> str | None:
    """What is wrong with how the program ended, or None if nothing is."""
    if returncode is None:
        return "no exit within the timeout"
    if returncode < 0:
        return f"killed by {_signal_name(-returncode)}"
    if returncode == 2:
        return f"exit 2, a drawn parameter rejected: {_last_line(stderr)}"
    if returncode not in (0, 1):
        return f"exit {returncode}"
    if record is None:
        return f"exit {returncode} without a JSON record"
    if not isinstance(record, dict):
        return f"exit {returncode} with an unreadable JSON record"
    return None


def classify(  # noqa: PLR0911 - one return per rule, in order
    *,
    returncode: int | None,
    record: object,
    received_sha: str | None,
    expected_sha: str,
    stderr: str = "",
) -> tuple[Verdict, str]:
    """Judges one transfer.

    Args:
        returncode: the exit status (negative: killed by that signal), or
            None if the wall-clock timeout expired.
        record: the parsed JSON record, None if none was written, or the
            exception met reading it.
        received_sha: the SHA-256 of the file the receiver wrote, or None.
        expected_sha: the SHA-256 of the file sent.
        stderr: the program's standard error.

    Returns:
        the verdict and its reason (for failures, the record's reason).
    """
    problem = _process_problem(returncode, record, stderr)
    if problem is not None or not isinstance(record, dict):
        return (Verdict.HANG if returncode is None else Verdict.CRASH), str(problem)
    if returncode == 0:
        if received_sha is None:
            return Verdict.CORRUPT, "exit 0 without the file in --received-dir"
        if received_sha != expected_sha:
            return Verdict.CORRUPT, "exit 0 with a file that differs from the one sent"
        if record.get("ok", True) is not True:
            return Verdict.CRASH, "exit 0 with a record that says ok=false"
        return Verdict.IDENTICAL, ""
    if record.get("complete") is True and received_sha != expected_sha:
        return Verdict.CORRUPT, "the record says complete, the file differs from the one sent"
    if record.get("ok") is not False:
        return Verdict.CRASH, "exit 1 with a record that does not say ok=false"
    failure = record.get("failure")
    return Verdict.FAILED, str(failure) if failure else "(the record gives no reason)"


class Runner:
    """Runs transfers of one program; stops them all on request."""

    def __init__(self, program: Path, timeout_s: float) -> None:
        self.program = program
        self.timeout_s = timeout_s
        self._running: set[subprocess.Popen[bytes]] = set()
        self._lock = threading.Lock()
        self._stopping = False

    def stop(self) -> None:
        """Kills every running transfer (their process groups)."""
        with self._lock:
            self._stopping = True
            for process in self._running:
                _kill_group(process)

    def run(self, transfer: Transfer) -> Outcome:
        """Runs ``transfer`` in a scratch directory and judges it."""
        with tempfile.TemporaryDirectory(prefix="rudp-campaign-") as workdir:
            received = Path(workdir) / "received"
            received.mkdir()
            if transfer.size == 0:
                (Path(workdir) / EMPTY_NAME).write_bytes(b"")
                expected = hashlib.sha256(b"").hexdigest()
            else:
                content = generated_content(transfer.size, transfer.content_seed)
                expected = hashlib.sha256(content).hexdigest()
            start = time.monotonic()
            returncode, stderr = self._execute(
                [str(self.program), *transfer.arguments(workdir)], workdir
            )
            elapsed = time.monotonic() - start
            record = _read_record(Path(workdir) / "run.json")
            received_sha = sha256_of(received / transfer.file_name())
            verdict, reason = classify(
                returncode=returncode,
                record=record,
                received_sha=received_sha,
                expected_sha=expected,
                stderr=stderr,
            )
            if verdict is Verdict.HANG:
                reason = f"no exit within {self.timeout_s:g} s"
            wrong_left = (
                verdict is Verdict.FAILED and received_sha is not None and received_sha != expected
            )
            return Outcome(transfer, verdict, reason, elapsed, wrong_left)

    def _execute(self, command: list[str], workdir: str) -> tuple[int | None, str]:
        process = subprocess.Popen(
            command,
            cwd=workdir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        with self._lock:
            if self._stopping:
                _kill_group(process)
            self._running.add(process)
        try:
            _, err = process.communicate(timeout=self.timeout_s)
            returncode: int | None = process.returncode
        except subprocess.TimeoutExpired:
            _kill_group(process)
            _, err = process.communicate()
            returncode = None
        finally:
            with self._lock:
                self._running.discard(process)
        return returncode, err.decode(errors="replace")


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _read_record(path: Path) -> object:
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as error:
        return error


def program_options(program: Path) -> set[str]:
    """The options ``program --PrintHelp`` lists."""
    done = subprocess.run(
        [str(program), "--PrintHelp"], capture_output=True, text=True, timeout=60, check=False
    )
    return set(re.findall(r"^\s+--([A-Za-z0-9-]+)", done.stdout + done.stderr, re.MULTILINE))


def self_check(runner: Runner) -> str | None:
    """Checks that :func:`generated_content` is what the program sends.

    Returns:
        None if it is, else what is wrong.
    """
    transfer = Transfer(-1, (("variant", "reno"),), 4099, 12345)
    outcome = runner.run(transfer)
    if outcome.verdict is Verdict.IDENTICAL:
        return None
    return (
        f"a plain 4099-byte transfer came to '{outcome.verdict.value}' ({outcome.reason}): "
        "either the program is broken or its generated content (RudpFileSource) is no "
        "longer SplitMix64 as generated_content() assumes"
    )


def _normalise(reason: str) -> str:
    """A failure reason with its numbers and hashes replaced, for grouping."""
    reason = re.sub(r"[0-9a-f]{64}", "<sha256>", reason)
    return re.sub(r"\d+(\.\d+)?", "N", reason)


def summary(outcomes: Sequence[Outcome], program: str) -> list[str]:
    """The report's lines; the last is the closing line."""
    counts = Counter(outcome.verdict for outcome in outcomes)
    lines = ["outcomes by loss band (the larger of --loss and --ack-loss):"]
    header = f"  {'band':<8}{'n':>6}" + "".join(f"{v.short:>11}" for v in Verdict)
    lines.append(header)
    for label, _ in LOSS_BANDS:
        band = [o for o in outcomes if o.transfer.loss_band() == label]
        if band:
            by = Counter(o.verdict for o in band)
            lines.append(f"  {label:<8}{len(band):>6}" + "".join(f"{by[v]:>11}" for v in Verdict))
    by_paths = sorted({o.transfer.paths() for o in outcomes})
    if by_paths != [1]:
        lines.append("outcomes by paths (1: RudpSocket; more: one multipath association):")
        lines.append(f"  {'paths':<8}{'n':>6}" + "".join(f"{v.short:>11}" for v in Verdict))
        for n in by_paths:
            group = [o for o in outcomes if o.transfer.paths() == n]
            by = Counter(o.verdict for o in group)
            lines.append(f"  {n:<8}{len(group):>6}" + "".join(f"{by[v]:>11}" for v in Verdict))
    for verdict, title in (
        (Verdict.FAILED, "reported failures"),
        (Verdict.CORRUPT, "silent corruptions"),
        (Verdict.HANG, "hangs"),
        (Verdict.CRASH, "crashes"),
    ):
        reasons = Counter(_normalise(o.reason) for o in outcomes if o.verdict is verdict)
        if reasons:
            lines.append(f"{title} by reason:")
            lines += [f"  {n:>6}  {reason}" for reason, n in reasons.most_common()]
    left = sum(o.wrong_file_left for o in outcomes)
    if left:
        lines.append(f"reported failures that left a wrong file under its final name: {left}")
    bad = [o for o in outcomes if o.verdict in (Verdict.CORRUPT, Verdict.HANG, Verdict.CRASH)]
    if bad:
        lines.append("to reproduce (in a scratch directory):")
        for o in sorted(bad, key=lambda o: o.transfer.index):
            lines.append(f"  #{o.transfer.index} {o.verdict.value}: {o.reason}")
            lines.append(f"    {o.transfer.reproduction(program)}")
    lines.append(
        f"{len(outcomes)} transfers: {counts[Verdict.IDENTICAL]} byte-identical, "
        f"{counts[Verdict.FAILED]} reported failures, {counts[Verdict.CORRUPT]} silent "
        f"corruptions, {counts[Verdict.HANG]} hangs, {counts[Verdict.CRASH]} crashes"
    )
    return lines


def run_campaign(
    transfers: Sequence[Transfer],
    runner: Runner,
    jobs: int,
    progress: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Runs ``transfers`` on ``jobs`` workers; outcomes in transfer order.

    Ctrl-C stops the running programs and drops what has not started.
    """
    outcomes: list[Outcome] = []
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    try:
        futures = [pool.submit(runner.run, transfer) for transfer in transfers]
        for future in concurrent.futures.as_completed(futures):
            outcome = future.result()
            outcomes.append(outcome)
            if progress:
                progress(outcome)
    except BaseException:
        runner.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()
    return sorted(outcomes, key=lambda o: o.transfer.index)


@dataclass
class Arguments:
    """The command line, parsed."""

    transfers: int
    seed: int
    jobs: int
    checksum: str | None
    program: Path
    timeout: float
    max_size: int
    max_time: str | None
    results: Path | None
    multipath: float
    allow_missing_options: bool
    quiet: bool
    extra: list[str] = field(default_factory=list)


def parse_arguments(argv: Sequence[str] | None = None) -> Arguments:
    """Parses the command line (exits 2 on a bad one)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--transfers", type=int, required=True, help="how many transfers")
    parser.add_argument("--seed", type=int, required=True, help="seed of the parameter draws")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel runs")
    parser.add_argument("--checksum", choices=CHECKSUMS, help="fix --checksum (default: drawn)")
    parser.add_argument(
        "--program",
        type=Path,
        help="rudp-file-transfer to run (default: $RUDP_BUILD_DIR or build/ of this repository)",
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="wall-clock s per transfer")
    parser.add_argument("--max-size", type=int, default=MAX_SIZE, help="largest file (bytes)")
    parser.add_argument("--max-time", help="--max-time of every transfer (default: the program's)")
    parser.add_argument("--results", type=Path, help="write every outcome to this JSON-lines file")
    parser.add_argument(
        "--multipath",
        type=float,
        default=MULTIPATH_SHARE,
        help="share of multipath transfers, 0 to 1 (--paths 2 or 3, blackouts of single paths)",
    )
    parser.add_argument(
        "--allow-missing-options",
        action="store_true",
        help="draw only the impairments the program offers (for builds before issue 12)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    if args.transfers < 1:
        parser.error("--transfers: at least 1")
    if args.jobs < 1:
        parser.error("--jobs: at least 1")
    if args.timeout <= 0:
        parser.error("--timeout: a positive number of seconds")
    if args.max_size < 2:
        parser.error("--max-size: at least 2 bytes")
    if not 0 <= args.multipath <= 1:
        parser.error("--multipath: a share in [0, 1]")
    build = Path(os.environ.get("RUDP_BUILD_DIR", REPO_ROOT / "build"))
    program = args.program or build / "bin" / "rudp-file-transfer"
    if not program.is_file():
        parser.error(f"--program: {program} does not exist (build it with 'make setup')")
    return Arguments(
        transfers=args.transfers,
        seed=args.seed,
        jobs=args.jobs,
        checksum=args.checksum,
        program=program,
        timeout=args.timeout,
        max_size=args.max_size,
        max_time=args.max_time,
        results=args.results,
        multipath=args.multipath,
        allow_missing_options=args.allow_missing_options,
        quiet=args.quiet,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: runs a campaign, prints its report, returns the exit status."""
    args = parse_arguments(argv)
    offered = program_options(args.program)
    missing = [name for name in NEW_OPTIONS if name not in offered]
    if missing and not args.allow_missing_options:
        print(
            f"error: {args.program} lacks --{', --'.join(missing)} (issue 12's options): build "
            "the current sources, or pass --allow-missing-options to draw only what it offers",
            file=sys.stderr,
        )
        return 2
    if missing:
        print(
            f"WARNING: {args.program} lacks --{', --'.join(missing)}: "
            "those impairments are NOT drawn",
            file=sys.stderr,
        )
    multipath_share = args.multipath
    if multipath_share > 0 and not set(MULTIPATH_OPTIONS) <= offered:
        if not args.allow_missing_options:
            print(
                f"error: {args.program} lacks --paths or --path-blackouts (multipath "
                "transfers): build the current sources, or pass --multipath 0",
                file=sys.stderr,
            )
            return 2
        print(f"WARNING: {args.program} lacks --paths: NO multipath transfers", file=sys.stderr)
        multipath_share = 0.0
    runner = Runner(args.program, args.timeout)
    problem = self_check(runner)
    if problem:
        print(f"error: self-check failed: {problem}", file=sys.stderr)
        return 2
    transfers = draw_campaign(
        args.transfers,
        args.seed,
        checksum=args.checksum,
        max_size=args.max_size,
        max_time=args.max_time,
        available=offered,
        multipath_share=multipath_share,
    )
    done = 0

    def progress(outcome: Outcome) -> None:
        nonlocal done
        done += 1
        if not args.quiet and (
            done % 50 == 0 or outcome.verdict not in (Verdict.IDENTICAL, Verdict.FAILED)
        ):
            print(
                f"[{done}/{len(transfers)}] #{outcome.transfer.index}: {outcome.verdict.value}",
                file=sys.stderr,
            )

    start = time.monotonic()
    try:
        outcomes = run_campaign(transfers, runner, args.jobs, progress)
    except KeyboardInterrupt:
        print("interrupted: running transfers stopped", file=sys.stderr)
        return 130
    if args.results:
        with args.results.open("w") as out:
            for o in outcomes:
                out.write(
                    json.dumps(
                        {
                            "index": o.transfer.index,
                            "verdict": o.verdict.value,
                            "reason": o.reason,
                            "elapsed_s": round(o.elapsed_s, 3),
                            "size": o.transfer.size,
                            "paths": o.transfer.paths(),
                            "loss_band": o.transfer.loss_band(),
                            "impairments": sorted(o.transfer.impairments()),
                            "command": o.transfer.reproduction(str(args.program)),
                        }
                    )
                    + "\n"
                )
    print(
        f"campaign seed {args.seed}, checksum {args.checksum or 'drawn'}, multipath share "
        f"{multipath_share:g}, {args.jobs} jobs, {time.monotonic() - start:.0f} s"
    )
    for line in summary(outcomes, str(args.program)):
        print(line)
    bad = sum(o.verdict in (Verdict.CORRUPT, Verdict.HANG, Verdict.CRASH) for o in outcomes)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
