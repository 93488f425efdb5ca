"""The cold path of every script that prepares an ns-3 tree or installs tools.

CI runs on the developers' own machine, where ``~/.cache/rudp-ns3`` already
holds configured trees and the tools are installed, so a step that works only
because a tree was configured before never fails there. These tests run the
scripts' preparation steps the way a new machine does: an empty cache
(``HOME`` in a fresh folder), a stub ns-3 tree that was never configured (its
``./ns3`` or ``./waf`` records how it was called and lays out what a configure
writes), and the install scripts with the tools absent from ``PATH`` and a stub
``apt-get``. Each test takes well under a second, except the first on a
machine without the ns-3 build tools, which installs them.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import tarfile
from pathlib import Path

import pytest

from rudp.paths import REPO_ROOT

SCRIPTS = REPO_ROOT / "scripts"

# A CMake-era ./ns3: `configure` checks that the module is linked in, says
# whether a stale forwarding header of the module was still there, and writes
# the forwarding headers as ns-3's configure does.
STUB_NS3 = """#!/usr/bin/env bash
set -eu
tree=$(cd "$(dirname "$0")" && pwd)
echo "ns3 $* (in $tree)" >>"$STUB_LOG"
[ "${1:-}" = configure ] || { echo "stub ns3: only configure is expected, got: $*" >&2; exit 3; }
[ -f "$tree/contrib/rudp/CMakeLists.txt" ] || { echo "stub ns3: no contrib/rudp" >&2; exit 3; }
include=$tree/build/include/ns3
if [ -f "$include/rudp-moved.h" ]; then echo "stale header present" >>"$STUB_LOG"; fi
mkdir -p "$include" "$tree/cmake-cache"
echo '#include "/somewhere/contrib/rudp/model/rudp-moved.h"' >"$include/rudp-moved.h"
echo '#include "/somewhere/src/core/model/object.h"' >"$include/object.h"
"""

STUB_WAF = """#!/usr/bin/env bash
set -eu
tree=$(cd "$(dirname "$0")" && pwd)
echo "waf $* (in $tree)" >>"$STUB_LOG"
[ "${1:-}" = configure ] || { echo "stub waf: only configure is expected, got: $*" >&2; exit 3; }
[ -f "$tree/contrib/rudp/wscript" ] || { echo "stub waf: contrib/rudp not linked" >&2; exit 3; }
"""


def _stub_tree(parent: Path, name: str, driver: str, version: str) -> Path:
    """An ns-3 source tree that was never configured: no build/, no cmake-cache/."""
    tree = parent / name
    (tree / "contrib").mkdir(parents=True)
    (tree / "VERSION").write_text(f"{version}\n")
    program = tree / ("ns3" if driver == "cmake" else "waf")
    program.write_text(STUB_NS3 if driver == "cmake" else STUB_WAF)
    program.chmod(program.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return tree


def _tarball(tree: Path, into: Path) -> Path:
    archive = into / f"{tree.name}.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(tree, arcname=tree.name)  # as a release tarball: ns-3.N/
    return archive


def _cold_env(home: Path, source: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "RUDP_NS3_CACHE"}
    env.update(HOME=str(home), NS3_SOURCE=str(source), JOBS="1", STUB_LOG=str(_log(home)))
    return env


def _log(home: Path) -> Path:
    """Where the stub ./ns3 or ./waf writes its calls (outside the trees it runs in)."""
    return home.parent / "calls.log"


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=600, check=False)


def _cache_tree(home: Path, name: str) -> Path:
    found = sorted((home / ".cache" / "rudp-ns3").glob(f"*/**/{name}/VERSION"))
    assert found, f"no prepared copy of {name} in the empty cache"
    assert f"(in {found[0].parent})" in _log(home).read_text(), "configured in the cache"
    return found[0].parent


def test_in_tree_check_configures_a_never_configured_tarball_with_an_empty_cache(
    tmp_path: Path,
) -> None:
    archive = _tarball(_stub_tree(tmp_path / "src", "ns-3.99", "cmake", "3.99"), tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    result = _run(
        ["bash", str(SCRIPTS / "check-ns3-tree.sh"), "--configure-only"], _cold_env(home, archive)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "stopping before the build" in result.stdout
    tree = _cache_tree(home, "ns-3.99")
    calls = _log(home).read_text()
    assert "ns3 configure" in calls and "--enable-modules=rudp;" in calls
    assert "--build-profile=debug" in calls and "-DCMAKE_CXX_FLAGS_DEBUG=-Og -g1" in calls
    assert (tree / "contrib" / "rudp").resolve() == REPO_ROOT.resolve()
    # A source without LICENSE (the ns-3.48 subset) gets ns-3's in the cache's
    # copy: ns-3's test runner finds the source root by VERSION and LICENSE.
    if Path("/usr/share/common-licenses/GPL-2").is_file():
        assert "GNU GENERAL PUBLIC LICENSE" in (tree / "LICENSE").read_text()


@pytest.mark.parametrize("mode", ["off", "on", "auto"])
def test_in_tree_check_configures_ns3_mpi_when_openmpi_is_there(mode: str, tmp_path: Path) -> None:
    # Looked up when the test runs, not when it is collected: another test's
    # setup may install OpenMPI meanwhile (Slurm's packages bring it), as on
    # a new machine's first `make test`. The script's rule: mpiexec and mpicxx.
    openmpi = shutil.which("mpiexec") is not None and shutil.which("mpicxx") is not None
    if mode == "on" and not openmpi:
        pytest.skip("no OpenMPI (Debian: openmpi-bin libopenmpi-dev)")
    enabled = {"off": False, "on": True, "auto": openmpi}[mode]
    archive = _tarball(_stub_tree(tmp_path / "src", "ns-3.99", "cmake", "3.99"), tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    env = _cold_env(home, archive) | {"RUDP_NS3_MPI": mode}
    result = _run(["bash", str(SCRIPTS / "check-ns3-tree.sh"), "--configure-only"], env)
    assert result.returncode == 0, result.stdout + result.stderr
    calls = _log(home).read_text()
    assert ("--enable-mpi" in calls) == enabled
    assert (";mpi" in calls) == enabled


def test_in_tree_check_refuses_an_unknown_mpi_setting_with_status_2(tmp_path: Path) -> None:
    archive = _tarball(_stub_tree(tmp_path / "src", "ns-3.99", "cmake", "3.99"), tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    env = _cold_env(home, archive) | {"RUDP_NS3_MPI": "maybe"}
    result = _run(["bash", str(SCRIPTS / "check-ns3-tree.sh"), "--configure-only"], env)
    assert result.returncode == 2
    assert "RUDP_NS3_MPI: 'maybe'; allowed: auto, on or off" in result.stderr


@pytest.mark.parametrize(
    ("driver", "version", "enabled"),
    [
        ("cmake", "3.99", "traffic-control;wifi;mobility"),
        ("waf", "3.35", "traffic-control,wifi,mobility"),
    ],
)
def test_in_tree_check_enables_the_modules_asked_for(
    driver: str, version: str, enabled: str, tmp_path: Path
) -> None:
    """RUDP_NS3_MODULES: the modules rudp-phone needs, for a tree that builds it."""
    name = f"ns-{version}"
    archive = _tarball(_stub_tree(tmp_path / "src", name, driver, version), tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    env = _cold_env(home, archive) | {"RUDP_NS3_MODULES": "wifi;mobility", "RUDP_NS3_MPI": "off"}
    result = _run(["bash", str(SCRIPTS / "check-ns3-tree.sh"), "--configure-only"], env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert enabled in _log(home).read_text()


@pytest.mark.parametrize("modules", ["wifi mobility", "wifi;$(id)"])
def test_in_tree_check_refuses_a_malformed_module_list_with_status_2(
    modules: str, tmp_path: Path
) -> None:
    archive = _tarball(_stub_tree(tmp_path / "src", "ns-3.99", "cmake", "3.99"), tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    env = _cold_env(home, archive) | {"RUDP_NS3_MODULES": modules}
    result = _run(["bash", str(SCRIPTS / "check-ns3-tree.sh"), "--configure-only"], env)
    assert result.returncode == 2
    assert f"RUDP_NS3_MODULES: '{modules}'; allowed: ns-3 module names" in result.stderr
    assert not _log(home).exists()


def test_in_tree_check_removes_the_module_stale_forwarding_headers_only(tmp_path: Path) -> None:
    source = _stub_tree(tmp_path / "src", "ns-3.99", "cmake", "3.99")
    home = tmp_path / "home"
    home.mkdir()
    env = _cold_env(home, source)
    for _ in range(2):  # the first run is cold, the second finds the first's headers
        result = _run(["bash", str(SCRIPTS / "check-ns3-tree.sh"), "--configure-only"], env)
        assert result.returncode == 0, result.stdout + result.stderr
    tree = _cache_tree(home, "ns-3.99")
    calls = _log(home).read_text()
    assert calls.count("ns3 configure") == 2
    assert "stale header present" not in calls  # removed before the second configure
    assert (tree / "build" / "include" / "ns3" / "object.h").is_file()  # ns-3's own kept
    assert not (source / "build").exists() and not (source / "contrib" / "rudp").exists()


def test_in_tree_check_configures_a_never_configured_waf_tree(tmp_path: Path) -> None:
    archive = _tarball(_stub_tree(tmp_path / "src", "ns-3.35", "waf", "3.35"), tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    result = _run(
        ["bash", str(SCRIPTS / "check-ns3-tree.sh"), "--configure-only"], _cold_env(home, archive)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    _cache_tree(home, "ns-3.35")
    assert "waf configure" in _log(home).read_text()


def test_optimized_build_configures_a_never_configured_tree_with_an_empty_cache(
    tmp_path: Path,
) -> None:
    archive = _tarball(_stub_tree(tmp_path / "src", "ns-3.99", "cmake", "3.99"), tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    result = _run(
        ["bash", str(SCRIPTS / "build-ns3-optimized.sh"), "--configure-only"],
        _cold_env(home, archive),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    _cache_tree(home, "ns-3.99")
    assert "--build-profile=optimized" in _log(home).read_text()


# What a configure of the optimized tree adds to the stub: ns-3's lock file,
# listing the programs the configuration builds ($STUB_PROGRAMS).
STUB_LOCK_FILE = """
programs=
for name in $STUB_PROGRAMS; do
  programs="$programs'$tree/build/contrib/rudp/examples/ns3.99-$name-optimized', "
done
echo "ns3_runnable_programs = [$programs]" >"$tree/.lock-ns3_linux_build"
"""

# A cmake that records the build it is asked for.
STUB_CMAKE = """#!/usr/bin/env bash
echo "cmake $*" >>"$STUB_LOG"
"""


@pytest.mark.parametrize("configured", ["rudp-cmt rudp-udp-floor", ""])
def test_optimized_build_builds_the_examples_its_configuration_defines(
    configured: str, tmp_path: Path
) -> None:
    # The optimized tree enables no radios: rudp-phone is not a target there,
    # and a build asked for it fails.
    source = _stub_tree(tmp_path / "src", "ns-3.99", "cmake", "3.99")
    (source / "ns3").write_text(STUB_NS3 + STUB_LOCK_FILE)
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "cmake").write_text(STUB_CMAKE)
    (tools / "cmake").chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    env = _cold_env(home, source) | {
        "PATH": f"{tools}:{os.environ['PATH']}",
        "STUB_PROGRAMS": configured,
    }
    result = _run(["bash", str(SCRIPTS / "build-ns3-optimized.sh")], env)
    assert "rudp-phone: not configured (the modules it needs are not enabled)" in result.stderr
    builds = [c for c in _log(home).read_text().splitlines() if c.startswith("cmake --build")]
    if configured:
        assert result.returncode == 0, result.stdout + result.stderr
        assert len(builds) == 1 and builds[0].endswith("--target rudp-cmt rudp-udp-floor")
    else:
        assert result.returncode == 1
        assert "configuration builds none of the module's examples" in result.stderr
        assert not builds


NEXTSEG = REPO_ROOT / "patches" / "tcp-tx-buffer-nextseg"
TX_BUFFER = Path("src/internet/model/tcp-tx-buffer.cc")


def _unpatched_source(patch: Path) -> str:
    """The text a patch changes, as the release has it: each hunk's context and
    removed lines (patch finds a hunk at any offset)."""
    lines = patch.read_text().splitlines()
    body = [line[1:] for line in lines if line[:1] in (" ", "-") and not line.startswith("---")]
    return "\n".join(["// before", *body, "// after"]) + "\n"


def _stub_release(parent: Path, patch: Path) -> Path:
    tree = _stub_tree(parent, "ns-3.99", "cmake", "3.99")
    (tree / TX_BUFFER).parent.mkdir(parents=True)
    (tree / TX_BUFFER).write_text(_unpatched_source(patch))
    return tree


@pytest.mark.parametrize("form", sorted(p.name for p in NEXTSEG.glob("*.patch")))
def test_optimized_build_applies_the_fitting_patch_once_and_removes_it_when_off(
    form: str, tmp_path: Path
) -> None:
    source = _stub_release(tmp_path / "src", NEXTSEG / form)
    original = (source / TX_BUFFER).read_text()
    home = tmp_path / "home"
    home.mkdir()
    env = _cold_env(home, _tarball(source, tmp_path))
    script = ["bash", str(SCRIPTS / "build-ns3-optimized.sh"), "--configure-only"]
    first = _run(script, env)
    assert first.returncode == 0, first.stdout + first.stderr
    assert f"applying patches/tcp-tx-buffer-nextseg/{form}" in first.stderr
    copy = _cache_tree(home, "ns-3.99") / TX_BUFFER
    patched = copy.read_text()
    assert patched.count("const bool anyLost = m_lostOut > 0;") == 1
    second = _run(script, env)  # the cache's copy keeps it: not applied twice
    assert second.returncode == 0 and "applying" not in second.stderr, second.stderr
    assert copy.read_text() == patched
    off = _run(script, {**env, "RUDP_NS3_PATCHES": "off"})
    assert off.returncode == 0 and "removing tcp-tx-buffer-nextseg" in off.stderr, off.stderr
    assert copy.read_text() == original
    assert (source / TX_BUFFER).read_text() == original  # the source is never patched


def test_optimized_build_says_when_no_form_of_a_patch_fits(tmp_path: Path) -> None:
    source = _stub_tree(tmp_path / "src", "ns-3.99", "cmake", "3.99")
    (source / TX_BUFFER).parent.mkdir(parents=True)
    (source / TX_BUFFER).write_text("// a NextSeg the patches do not know\n")
    home = tmp_path / "home"
    home.mkdir()
    result = _run(
        ["bash", str(SCRIPTS / "build-ns3-optimized.sh"), "--configure-only"],
        _cold_env(home, source),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "patches/tcp-tx-buffer-nextseg: no form fits this ns-3" in result.stderr


def test_in_tree_check_builds_ns3_as_released(tmp_path: Path) -> None:
    source = _stub_release(tmp_path / "src", sorted(NEXTSEG.glob("*.patch"))[0])
    home = tmp_path / "home"
    home.mkdir()
    result = _run(
        ["bash", str(SCRIPTS / "check-ns3-tree.sh"), "--configure-only"], _cold_env(home, source)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    copy = _cache_tree(home, "ns-3.99") / TX_BUFFER
    assert copy.read_text() == (source / TX_BUFFER).read_text()


def test_in_tree_check_takes_out_a_patch_a_killed_patch_check_left(tmp_path: Path) -> None:
    # check-ns3-patches applies the patches to the in-tree check's own tree
    # and takes them out at its end; killed in between, it leaves them in.
    patch = sorted(NEXTSEG.glob("*.patch"))[0]
    source = _stub_release(tmp_path / "src", patch)
    released = (source / TX_BUFFER).read_text()
    home = tmp_path / "home"
    home.mkdir()
    env = _cold_env(home, _tarball(source, tmp_path))
    script = ["bash", str(SCRIPTS / "check-ns3-tree.sh"), "--configure-only"]
    assert _run(script, env).returncode == 0
    tree = _cache_tree(home, "ns-3.99")
    subprocess.run(["patch", "-d", str(tree), "-p1", "-s", "-i", str(patch)], check=True)
    assert (tree / TX_BUFFER).read_text() != released
    again = _run(script, env)
    assert again.returncode == 0, again.stdout + again.stderr
    assert (tree / TX_BUFFER).read_text() == released
    calls = _log(home).read_text()
    assert "--filter-module-examples-and-tests=rudp" in calls


def test_in_tree_check_stops_after_the_build_when_asked(tmp_path: Path) -> None:
    # --build-only (what check-ns3-patches runs): the tree is configured and
    # built, and no suite runs. The stub tree's build fails for want of a
    # real ns-3: the script says where it stopped.
    source = _stub_tree(tmp_path / "src", "ns-3.99", "cmake", "3.99")
    home = tmp_path / "home"
    home.mkdir()
    result = _run(
        ["bash", str(SCRIPTS / "check-ns3-tree.sh"), "--build-only"], _cold_env(home, source)
    )
    assert result.returncode != 2, result.stderr  # the option is known
    assert "building ns-3.99" in result.stdout
    assert "test.py" not in result.stdout


@pytest.mark.parametrize(("target", "release"), [("libinternet", "3.37"), ("internet", "3.48")])
def test_patch_check_finds_the_internet_library_target(
    tmp_path: Path, target: str, release: str
) -> None:
    # check-ns3-patches rebuilds the internet library by its target, renamed
    # in ns-3.48: a Ninja build with only that name must give it.
    build = tmp_path / "cmake-cache"
    build.mkdir()
    (build / "build.ninja").write_text(
        f"rule touch\n  command = touch $out\nbuild internet-apps: phony\nbuild {target}: phony\n"
    )
    shell = f". '{SCRIPTS / 'ns3-source.sh'}' && ns3_internet_target '{tmp_path}'"
    found = subprocess.run(["bash", "-c", shell], check=False, capture_output=True, text=True)
    assert found.returncode == 0, f"ns-3.{release}: {found.stderr}"
    assert found.stdout == f"{target}\n"
    (build / "build.ninja").write_text("build internet-apps: phony\n")
    missing = subprocess.run(["bash", "-c", shell], check=False, capture_output=True, text=True)
    assert missing.returncode != 0
    assert "no internet library target" in missing.stderr


def test_in_tree_check_lists_the_suites_of_the_runner_its_build_linked(tmp_path: Path) -> None:
    # A tree built in the default profile, then in debug: the old runner stays
    # beside the new one, and its list lacks the suites added since.
    utils = tmp_path / "build" / "utils"
    utils.mkdir(parents=True)
    for age, name in ((1000, "ns3.48-test-runner-default"), (10, "ns3.48-test-runner-debug")):
        runner = utils / name
        runner.write_text("#!/bin/sh\n")
        runner.chmod(0o755)
        os.utime(runner, (runner.stat().st_atime - age, runner.stat().st_mtime - age))
    (utils / "ns3.48-bench-scheduler-debug").write_text("")  # not a runner
    shell = f". '{SCRIPTS / 'ns3-source.sh'}' && ns3_test_runner '{tmp_path}'"
    found = subprocess.run(["bash", "-c", shell], check=False, capture_output=True, text=True)
    assert found.returncode == 0, found.stderr
    assert found.stdout == f"{utils / 'ns3.48-test-runner-debug'}\n"
    shutil.rmtree(utils)
    missing = subprocess.run(["bash", "-c", shell], check=False, capture_output=True, text=True)
    assert missing.returncode != 0 and "no test runner" in missing.stderr


@pytest.mark.parametrize(
    ("script", "env", "named"),
    [
        ("build-ns3-optimized.sh", {"RUDP_NS3_PATCHES": "maybe"}, "RUDP_NS3_PATCHES"),
        ("check-ns3-patches.sh", {"NS3_SOURCE": ""}, "NS3_SOURCE"),
    ],
)
def test_patch_settings_are_checked_with_status_2(
    script: str, env: dict[str, str], named: str, tmp_path: Path
) -> None:
    source = _stub_tree(tmp_path / "src", "ns-3.99", "cmake", "3.99")
    home = tmp_path / "home"
    home.mkdir()
    result = _run(["bash", str(SCRIPTS / script)], {**_cold_env(home, source), **env})
    assert result.returncode == 2, result.stdout + result.stderr
    assert named in result.stderr


@pytest.mark.parametrize("script", ["check-ns3-tree.sh", "build-ns3-optimized.sh"])
def test_tree_scripts_refuse_an_unknown_option_with_status_2(script: str, tmp_path: Path) -> None:
    result = _run(["bash", str(SCRIPTS / script), "--bogus"], _cold_env(tmp_path, tmp_path))
    assert result.returncode == 2
    assert "--bogus" in result.stderr and "--configure-only" in result.stderr


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--parallel", "0"], "--parallel"),
        (["--parallel", "65"], "--parallel"),
        (["--parallel"], "--parallel"),
        (["--jobs", "0"], "--jobs"),
        (["--jobs", "two"], "--jobs"),
        (["--jobs"], "--jobs"),
        (["--runs", "many"], "--runs"),
        (["--seed", "0"], "--seed"),
        (["--bogus"], "--bogus"),
        (["10", "rudp-nothing"], "rudp-nothing"),
        (["soon"], "FUZZ_SECONDS"),
    ],
)
def test_fuzz_script_refuses_bad_arguments_before_building(
    args: list[str], named: str, tmp_path: Path
) -> None:
    # FUZZ_BUILD in an empty folder: a refusal must come before any build.
    env = {**_cold_env(tmp_path, tmp_path), "FUZZ_BUILD": str(tmp_path / "build-fuzz")}
    result = _run(["bash", str(SCRIPTS / "fuzz.sh"), *args], env)
    assert result.returncode == 2, result.stderr
    assert named in result.stderr
    assert not (tmp_path / "build-fuzz").exists()


def test_fuzz_script_runs_every_target_there_is_unless_named(tmp_path: Path) -> None:
    env = {**_cold_env(tmp_path, tmp_path), "FUZZ_BUILD": str(tmp_path / "build-fuzz")}
    every = _run(["bash", str(SCRIPTS / "fuzz.sh"), "--list"], env)
    assert every.returncode == 0, every.stderr
    sources = sorted((SCRIPTS.parent / "test" / "fuzz").glob("*-fuzzer.cc"))
    assert every.stdout.split() == [p.name.removesuffix("-fuzzer.cc") for p in sources]
    assert "rudp-cmt-sender" in every.stdout.split()
    named = _run(["bash", str(SCRIPTS / "fuzz.sh"), "--list", "5", "rudp-header"], env)
    assert named.stdout.split() == ["rudp-header"]
    assert not (tmp_path / "build-fuzz").exists()


def test_every_apt_get_that_changes_the_system_waits_for_dpkgs_lock() -> None:
    # Two setups at once (make fuzz while make test installs ns2) would
    # otherwise fail on the lock the first one holds.
    calls = []
    for script in sorted(SCRIPTS.glob("*.sh")):
        for number, line in enumerate(script.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            if re.search(r"\bapt-get\b.*\b(update|install)\b", code) and "echo" not in code:
                calls.append((script.name, number, code))
    assert calls, "the installers call apt-get"
    late = [call for call in calls if "-o DPkg::Lock::Timeout=" not in call[2]]
    assert not late, late


def _bare_path(tmp_path: Path, keep: list[str]) -> tuple[Path, Path]:
    """A PATH with only the named commands and a stub apt-get that logs its calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for command in keep:
        real = shutil.which(command)
        assert real, command
        (bin_dir / command).symlink_to(real)
    log = tmp_path / "apt.log"
    apt = bin_dir / "apt-get"
    apt.write_text(f'#!/bin/sh\necho "$*" >>{log}\n')
    apt.chmod(0o755)
    return bin_dir, log


@pytest.mark.skipif(os.geteuid() != 0, reason="the stub apt-get stands in for root's apt-get")
def test_install_system_deps_installs_the_ns3_tree_tools_a_new_machine_lacks(
    tmp_path: Path,
) -> None:
    bin_dir, log = _bare_path(tmp_path, ["bash", "id", "sort", "python3"])
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path)}
    result = _run(["bash", str(SCRIPTS / "install-system-deps.sh"), "ns3-tree"], env)
    assert result.returncode == 0, result.stdout + result.stderr
    install = [line for line in log.read_text().splitlines() if "install" in line.split()]
    assert len(install) == 1
    for package in ["cmake", "ninja-build", "g++", "ccache", "bzip2", "rsync", "patch"]:
        assert package in install[0].split()
    for package in ["openmpi-bin", "libopenmpi-dev"]:
        assert package in install[0].split()


@pytest.mark.skipif(os.geteuid() != 0, reason="the stub apt-get stands in for root's apt-get")
def test_install_system_deps_installs_a_one_node_slurm_a_new_machine_lacks(
    tmp_path: Path,
) -> None:
    bin_dir, log = _bare_path(tmp_path, ["bash", "id", "sort", "python3"])
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path)}
    result = _run(["bash", str(SCRIPTS / "install-system-deps.sh"), "slurm"], env)
    assert result.returncode == 0, result.stdout + result.stderr
    install = [line for line in log.read_text().splitlines() if "install" in line.split()]
    assert len(install) == 1
    for package in ["slurmctld", "slurmd", "slurm-client", "munge"]:
        assert package in install[0].split()


@pytest.mark.skipif(os.geteuid() != 0, reason="the stub apt-get stands in for root's apt-get")
def test_install_tool_deps_installs_clang_when_the_fuzz_probe_fails(tmp_path: Path) -> None:
    bin_dir, log = _bare_path(tmp_path, ["bash", "id", "mktemp", "rm", "env"])
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path)}
    result = _run(["bash", str(SCRIPTS / "install-tool-deps.sh"), "fuzz"], env)
    # The stub installs nothing, so the probe still fails afterwards: the script says so.
    assert result.returncode == 1
    assert "still does not work" in result.stderr
    assert "install -y -qq clang libclang-rt-dev" in log.read_text()


@pytest.mark.skipif(os.geteuid() != 0, reason="the stub apt-get stands in for root's apt-get")
def test_install_ns2_installs_the_package_when_ns_is_missing(tmp_path: Path) -> None:
    bin_dir, log = _bare_path(tmp_path, ["bash", "id", "mktemp", "rm", "printf", "grep"])
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path)}
    result = _run(["bash", str(SCRIPTS / "install-ns2.sh")], env)
    # The stub installs nothing, so ns is still missing afterwards: the script says so.
    assert result.returncode == 1
    assert "cannot run an Agent/SCTP/CMT" in result.stderr
    calls = log.read_text().splitlines()
    assert "-o DPkg::Lock::Timeout=600 install -y -qq ns2" in calls
    assert "-o DPkg::Lock::Timeout=600 update -qq" in calls


def test_install_ns2_leaves_a_machine_that_has_it_alone(tmp_path: Path) -> None:
    # A stub ns that runs the probe: no apt-get is called (none is on PATH).
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for command in ["bash", "mktemp", "rm", "printf", "grep"]:
        real = shutil.which(command)
        assert real, command
        (bin_dir / command).symlink_to(real)
    ns = bin_dir / "ns"
    ns.write_text('#!/bin/sh\ngrep -q "Agent/SCTP/CMT" "$1" && echo ok\n')
    ns.chmod(0o755)
    result = _run(["bash", str(SCRIPTS / "install-ns2.sh")], {"PATH": str(bin_dir)})
    assert result.returncode == 0, result.stderr
    assert "installing" not in result.stdout


def test_install_ns2_probe_reads_all_of_ns_output(tmp_path: Path) -> None:
    # ns says ok, then writes more: a probe that stops reading at "ok" kills
    # ns with SIGPIPE, which pipefail counts as a failed probe, and the script
    # would reinstall a working ns2 (here: no apt-get, so it would exit 1).
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for command in ["bash", "mktemp", "rm", "printf", "grep", "sleep", "seq"]:
        real = shutil.which(command)
        assert real, command
        (bin_dir / command).symlink_to(real)
    ns = bin_dir / "ns"
    ns.write_text(
        "#!/bin/bash\necho ok\nsleep 0.2\nfor i in $(seq 2000); do echo warning $i; done\n"
    )
    ns.chmod(0o755)
    result = _run(["bash", str(SCRIPTS / "install-ns2.sh")], {"PATH": str(bin_dir)})
    assert result.returncode == 0, result.stderr
    assert "installing" not in result.stdout


# A reader that stops before its writer is done: the writer dies of SIGPIPE.
_EARLY_EXIT_READER = re.compile(r"\|\s*(grep\s+(-\w*\s+)*-\w*q|head\b)")


@pytest.mark.parametrize("script", sorted(p.name for p in SCRIPTS.glob("*.sh")))
def test_no_pipeline_of_a_script_ends_in_a_reader_that_stops_early(script: str) -> None:
    # Under pipefail (every script sets it, or is sourced by one that does),
    # `ldd prog | grep -q lib` fails whenever grep exits before ldd has written
    # everything: make check-ns3-patches failed so in CI on a busy machine.
    # Read a whole output into a variable, or use find -quit and grep -m.
    text = (SCRIPTS / script).read_text()
    lines = [
        f"{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), 1)
        if not line.lstrip().startswith("#") and _EARLY_EXIT_READER.search(line)
    ]
    assert not lines, "\n".join(lines)
