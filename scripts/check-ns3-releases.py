#!/usr/bin/env python3
"""Compiles the module's sources against the headers of each ns-3 release.

CI builds the module in a few ns-3 trees; the releases in between are checked
here. For each release, the headers of the ns-3 modules rudp uses are laid out
as ns-3's build lays them out (``ns3/<header>.h``, ``ns3/<module>-module.h``,
``ns3/core-config.h``), and every ``.cc`` file of the module (model, helper,
test, examples, scratch) is compiled with ``-fsyntax-only -Wall -Werror`` (ns-3's
debug profile), the release's C++ standard and the ``RUDP_NS3_MINOR`` that
CMakeLists.txt or wscript would define. Nothing is linked or run: this catches
what does not compile, not what behaves differently.

The releases come from a git clone of ns-3-dev (every ``ns-3.N`` tag from
ns-3.35 on, or the tags given) or from unpacked ns-3 source trees. Neither is
modified: headers are read with ``git archive`` or linked from the tree into
a cache directory.

    scripts/check-ns3-releases.py --ns3-git ~/src/ns-3-dev-git
    scripts/check-ns3-releases.py --ns3-git ~/src/ns-3-dev-git ns-3.40 ns-3.41
    scripts/check-ns3-releases.py --tree ~/ns-3.35 --tree ~/ns-3.48
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

MODULE_DIR = Path(__file__).resolve().parent.parent
FIRST_MINOR = 35  # the oldest release the module supports

# The ns-3 modules whose headers the module's sources include, directly or not.
NS3_MODULES = [
    "core",
    "network",
    "internet",
    "applications",
    "point-to-point",
    "csma",
    "traffic-control",
    "flow-monitor",
    "stats",
    "mobility",
    "bridge",
    "config-store",
]
# Headers a module header must not include here: other platforms, other
# int64x64 implementations than the 128-bit one core-config.h selects.
NOT_IN_MODULE_HEADER = {
    "win32-internet.h",
    "int64x64-double.h",
    "int64x64-cairo.h",
    "cairo-wideint-private.h",
}
# What ns-3's configuration writes into core-config.h on Linux with GCC.
CORE_CONFIG = """\
#ifndef NS3_CORE_CONFIG_H
#define NS3_CORE_CONFIG_H
#define HAVE___UINT128_T 1
#define INT64X64_USE_128 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_DIRENT_H 1
#define HAVE_GETENV 1
#define HAVE_SIGNAL_H 1
#define HAVE_STDLIB_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_PTHREAD_H 1
#endif
"""


@dataclass
class Release:
    """One ns-3 release laid out for compilation."""

    name: str  # "ns-3.40"
    source: Path  # a directory holding src/ and VERSION
    include: Path  # the directory holding ns3/
    standard: int  # C++ standard: 17, 20, 23
    minor: int  # RUDP_NS3_MINOR as the build defines it


def release_tags(repo: Path) -> list[str]:
    """Every release tag ns-3.N or ns-3.N.M with N >= FIRST_MINOR, oldest first."""
    out = subprocess.run(
        ["git", "-C", str(repo), "tag", "--list", "ns-3.*"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    tags = []
    for tag in out:
        match = re.fullmatch(r"ns-3\.(\d+)(?:\.(\d+))?", tag)
        if match and int(match.group(1)) >= FIRST_MINOR:
            tags.append((int(match.group(1)), int(match.group(2) or 0), tag))
    return [tag for _, _, tag in sorted(tags)]


def unpack_tag(repo: Path, tag: str, destination: Path) -> None:
    """Writes VERSION, the build settings and the modules' sources of \\p tag."""
    if (destination / "VERSION").exists():
        return
    partial = destination.with_name(destination.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    listed = subprocess.run(
        ["git", "-C", str(repo), "ls-tree", "--name-only", tag, "build-support/", "src/"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    paths = ["VERSION"] + [p for p in listed if p.startswith("build-support/")]
    paths += [f"src/{m}" for m in NS3_MODULES if f"src/{m}" in listed]
    with tempfile.TemporaryFile() as archive:
        # A mirror that lacks blobs of files not archived (a partial clone)
        # complains about them on stderr; the exit status tells what counts.
        subprocess.run(
            ["git", "-C", str(repo), "archive", "--format=tar", tag, *paths],
            check=True,
            stdout=archive,
            stderr=subprocess.DEVNULL,
        )
        archive.seek(0)
        subprocess.run(["tar", "-x", "-C", str(partial)], check=True, stdin=archive)
    partial.rename(destination)


def module_header_names(module_dir: Path) -> list[str]:
    """The public headers a module's build file lists (CMake or waf), in order."""
    build_file = module_dir / "CMakeLists.txt"
    if not build_file.exists():
        build_file = module_dir / "wscript"
    names: list[str] = []
    for path in re.findall(r"((?:model|helper|utils)/[\w.+/-]+\.h)", build_file.read_text()):
        name = Path(path).name
        if name not in NOT_IN_MODULE_HEADER and (module_dir / path).exists() and name not in names:
            names.append(name)
    return names


def lay_out(name: str, source: Path, include: Path) -> Release:
    """Links the headers of \\p source into \\p include/ns3, as ns-3's build does."""
    ns3 = include / "ns3"
    shutil.rmtree(include, ignore_errors=True)
    ns3.mkdir(parents=True)
    for module in NS3_MODULES:
        module_dir = source / "src" / module
        if not module_dir.is_dir():
            continue
        for directory, subdirectories, files in os.walk(module_dir):
            relative = Path(directory).relative_to(module_dir).parts
            if relative and relative[0] in ("test", "examples", "doc", "bindings"):
                subdirectories.clear()
                continue
            for file in files:
                if file.endswith(".h") and not (ns3 / file).exists():
                    (ns3 / file).symlink_to(Path(directory, file).resolve())
        guard = "NS3_MODULE_" + module.replace("-", "_").upper()
        lines = [f"#ifndef {guard}", f"#define {guard}"]
        lines += [f'#include "ns3/{h}"' for h in module_header_names(module_dir)]
        (ns3 / f"{module}-module.h").write_text("\n".join([*lines, "#endif", ""]))
    (ns3 / "core-config.h").write_text(CORE_CONFIG)

    # The C++ standard: CMake trees name their minimum; waf trees (3.35) use C++17.
    standard = 17
    settings = source / "build-support" / "macros-and-definitions.cmake"
    if settings.exists():
        found = re.search(r"set\(CMAKE_CXX_STANDARD_MINIMUM (\d+)\)", settings.read_text())
        standard = int(found.group(1)) if found else standard
    # RUDP_NS3_MINOR: as CMakeLists.txt (999 for ns-3-dev) and wscript derive it.
    version = (source / "VERSION").read_text().strip()
    found = re.match(r"3\.(\d+)", version)
    minor = int(found.group(1)) if found else (999 if settings.exists() else FIRST_MINOR)
    return Release(name, source, include, standard, minor)


def module_include(destination: Path) -> Path:
    """Lays out the module's own headers and rudp-module.h as its build does."""
    cmake = (MODULE_DIR / "CMakeLists.txt").read_text()
    listed = re.search(r"set\(header_files\s+(.*?)\)", cmake, re.S)
    assert listed, "set(header_files ...) not found in CMakeLists.txt"
    ns3 = destination / "ns3"
    shutil.rmtree(destination, ignore_errors=True)
    ns3.mkdir(parents=True)
    lines = ["#ifndef NS3_MODULE_RUDP", "#define NS3_MODULE_RUDP"]
    for header in listed.group(1).split():
        (ns3 / Path(header).name).symlink_to(MODULE_DIR / header)
        lines.append(f'#include "ns3/{Path(header).name}"')
    (ns3 / "rudp-module.h").write_text("\n".join([*lines, "#endif", ""]))
    # The programs' own library (librudp-scenario): its headers are reached as
    # ns3/<header>.h too, but are not part of rudp-module.h.
    for header in sorted((MODULE_DIR / "scenario").glob("*.h")):
        (ns3 / header.name).symlink_to(header)
    return destination


def sources() -> list[Path]:
    """Every C++ source of the module: library, programs' library, tests, examples, scratch."""
    found: list[Path] = []
    for folder in ("model", "helper", "scenario", "test", "examples", "scratch"):
        found += sorted((MODULE_DIR / folder).glob("*.cc"))
    return found


def compile_one(
    compiler: str, release: Release, rudp_include: Path, source: Path, log: Path
) -> bool:
    """Compiles \\p source (syntax only) against \\p release; keeps the output in \\p log."""
    command = [
        compiler,
        f"-std=c++{release.standard}",
        "-fsyntax-only",
        "-Wall",
        "-Werror",
        f"-DRUDP_NS3_MINOR={release.minor}",
        "-DNS3_LOG_ENABLE",
        "-DNS3_ASSERT_ENABLE",
        '-DNS_TEST_SOURCEDIR="test"',
        f"-I{rudp_include}",
        f"-I{release.include}",
        str(source),
    ]
    result = subprocess.run(command, check=False, capture_output=True, text=True)
    log.write_text(" ".join(command) + "\n" + result.stdout + result.stderr)
    return result.returncode == 0


def check(compiler: str, release: Release, rudp_include: Path, logs: Path, jobs: int) -> bool:
    """Compiles every source against \\p release; prints the failures."""
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir(parents=True)
    files = sources()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(
            pool.map(
                lambda f: compile_one(compiler, release, rudp_include, f, logs / (f.name + ".log")),
                files,
            )
        )
    failed = [f for f, ok in zip(files, results, strict=True) if not ok]
    print(
        f"{release.name} (C++{release.standard}, RUDP_NS3_MINOR={release.minor}): "
        f"{len(files) - len(failed)}/{len(files)} files compile"
        + ("" if not failed else f"; logs in {logs}"),
        flush=True,
    )
    for source in failed:
        lines = (logs / (source.name + ".log")).read_text().splitlines()
        errors = [line for line in lines if "error:" in line][:3]
        print(f"  FAIL {source.relative_to(MODULE_DIR)}")
        for line in errors:
            print(f"       {line}")
    return not failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ns3-git", type=Path, help="a clone (or bare mirror) of ns-3-dev")
    parser.add_argument("tags", nargs="*", help="release tags (default: ns-3.35 and later)")
    parser.add_argument(
        "--tree", type=Path, action="append", default=[], help="an unpacked ns-3 source tree"
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(os.environ.get("RUDP_NS3_CACHE", Path.home() / ".cache" / "rudp-ns3"))
        / "release-headers",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    args = parser.parse_args()
    if not args.ns3_git and not args.tree:
        parser.error("give --ns3-git or --tree")

    cache: Path = args.cache
    releases: list[Release] = []
    if args.ns3_git:
        for tag in args.tags or release_tags(args.ns3_git):
            source = cache / tag / "source"
            unpack_tag(args.ns3_git, tag, source)
            releases.append(lay_out(tag, source, cache / tag / "include"))
    for given in args.tree:
        tree = given.resolve()
        name = "tree-" + re.sub(r"[^\w.-]", "_", str(tree).strip("/"))
        releases.append(lay_out(tree.name, tree, cache / name / "include"))

    rudp_include = module_include(cache / "rudp-include")
    ok = True
    for release in releases:
        ok = check(args.cxx, release, rudp_include, cache / "logs" / release.name, args.jobs) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
