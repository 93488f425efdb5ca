"""Which build a sweep runs, and what identifies it in the cache.

A sweep runs the programs of the standalone build or of an ns-3 tree that
builds the module (``--ns3-build PATH``, ``$RUDP_NS3_BUILD``). The tree is a
stand-in here: the layout ``./ns3 configure && ./ns3 build`` leaves
(``build/contrib/rudp/examples/ns3.<version>-<program>-<profile>``, the
tree's libraries in ``build/lib``, the lock file in the tree's root), filled
with a script or with copies of the standalone build's programs and libraries.
A build's identity covers the program and every library it loads: a changed
ns-3 library (a wheel upgrade, a rebuilt tree) is another build.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from rudp import paths
from rudp.sweep import Grid, GridError, plan, run_sweep
from rudp.sweep.cache import build_identity, linked_libraries, parse_ldd
from rudp.sweep.cli import main

PROGRAM = "rudp-file-transfer"

#: A stand-in scenario program: ns-3's help, and a record of where it ran.
SCRIPT = """#!{python}
import json, os, sys
if sys.argv[1:] == ["--PrintHelp"]:
    print("stand-in [Program Options] [General Arguments]\\n\\nProgram Options:")
    print("    --x:       A number [0]\\n    --output:  The record\\n\\nGeneral Arguments:")
if sys.argv[1:2] and sys.argv[1].startswith("--Print"):  # no globals, no attributes
    sys.exit(0)
options = dict(a[2:].split("=", 1) for a in sys.argv[1:] if "=" in a)
with open(os.environ["STAND_IN_LOG"], "a") as log:
    log.write(sys.argv[0] + "\\n")
record = {{
    "ok": True,
    "x": float(options["x"]),
    "executable": os.path.basename(sys.argv[0]),
    "loader_path": os.environ.get("{variable}", ""),
}}
with open(options["output"], "w") as output:
    json.dump(record, output)
"""


def _lock(tree: Path, version: str, profile: str, out_dir: Path | None = None) -> None:
    """The lock file ``./ns3 configure`` writes (Python syntax; only literals read)."""
    (tree / "ns3").write_text("#!/bin/sh\n")
    paths.lock_file(tree).write_text(
        f"#! /usr/bin/env python3\n\nout_dir = {str(out_dir or tree / 'build')!r}\n"
        f"NS3_ENABLED_CONTRIBUTED_MODULES = ['ns3-rudp', ]\nBUILD_PROFILE = {profile!r}\n"
        f"VERSION = {version!r} \n"
    )


def _executable(path: Path, text: str = "#!/bin/sh\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def _tree(tmp_path: Path, version: str = "3.48", profile: str = "optimized") -> Path:
    tree = tmp_path / "ns-3"
    (tree / "build" / "lib").mkdir(parents=True)
    _lock(tree, version, profile)
    return tree


# --- finding a tree's programs -------------------------------------------------------------


def test_an_ns3_tree_names_its_programs_by_version_and_profile(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    examples = tree / "build" / "contrib" / "rudp" / "examples"
    wanted = _executable(examples / "ns3.48-rudp-cmt-optimized")
    _executable(examples / "ns3.48-rudp-cmt-debug")  # a stale build of another profile
    runner = _executable(tree / "build" / "utils" / "ns3.48-test-runner-optimized")
    for where in (tree, tree / "build"):  # the tree or its build folder
        build = paths.ns3_build(where)
        assert (build.folder, build.version, build.profile) == (tree / "build", "3.48", "optimized")
        assert build.program("rudp-cmt") == wanted
        assert build.program("test-runner") == runner
    with pytest.raises(FileNotFoundError, match=r"ns3\.48-rudp-tcp-vs-udp-optimized.*ns3 build"):
        build.program("rudp-tcp-vs-udp")
    with pytest.raises(ValueError, match="bare program name"):
        build.program("../rudp-cmt")
    # The release profile has no suffix.
    release = _tree(tmp_path / "release", profile="release")
    program = _executable(release / "build/contrib/rudp/examples/ns3.48-rudp-cmt")
    assert paths.ns3_build(release).program("rudp-cmt") == program


def test_a_build_folder_without_its_lock_file_is_searched_by_name(tmp_path: Path) -> None:
    build = tmp_path / "copy-of-build"
    (build / "lib").mkdir(parents=True)
    examples = build / "contrib" / "rudp" / "examples"
    program = _executable(examples / "ns3.35-rudp-cmt-debug")  # waf, no lock file
    _executable(examples / "ns3.35-rudp-cmt-receiver-debug")  # another program's name
    assert paths.ns3_build(build).program("rudp-cmt") == program
    _executable(examples / "ns3.35-rudp-cmt-optimized")
    with pytest.raises(FileNotFoundError, match="several builds of 'rudp-cmt'"):
        paths.ns3_build(build).program("rudp-cmt")
    with pytest.raises(FileNotFoundError, match="neither a configured ns-3 tree"):
        paths.ns3_build(tmp_path / "copy-of-build" / "contrib")
    with pytest.raises(FileNotFoundError, match="no such folder"):
        paths.ns3_build(tmp_path / "nowhere")


def test_the_environment_variable_chooses_the_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = _tree(tmp_path)
    program = _executable(tree / "build/contrib/rudp/examples/ns3.48-rudp-cmt-optimized")
    monkeypatch.setenv(paths.NS3_BUILD_VARIABLE, str(tree))
    assert paths.current_build().ns3_tree and paths.program("rudp-cmt") == program
    assert paths.current_build(tree / "build") == paths.current_build()
    monkeypatch.setenv(paths.NS3_BUILD_VARIABLE, "")
    assert paths.current_build() == paths.standalone_build()
    # The tree's libraries come first on the loader path, as './ns3 run' sets them.
    env = paths.ns3_build(tree).environment({paths.LOADER_PATH_VARIABLE: "/opt/lib"})
    assert env[paths.LOADER_PATH_VARIABLE] == f"{tree / 'build' / 'lib'}{os.pathsep}/opt/lib"


# --- sweeping a tree's programs ------------------------------------------------------------


@pytest.fixture
def stand_in_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tree whose stand-in program logs each run to $STAND_IN_LOG; no standalone build."""
    tree = _tree(tmp_path)
    script = SCRIPT.format(python=sys.executable, variable=paths.LOADER_PATH_VARIABLE)
    _executable(tree / "build/contrib/rudp/examples/ns3.48-stand-in-optimized", script)
    monkeypatch.setenv("STAND_IN_LOG", str(tmp_path / "runs.log"))
    monkeypatch.setenv("RUDP_BUILD_DIR", str(tmp_path / "no-standalone-build"))
    monkeypatch.delenv(paths.NS3_BUILD_VARIABLE, raising=False)
    return tree


def _runs(tree: Path) -> list[str]:
    log = tree.parent / "runs.log"
    return log.read_text().splitlines() if log.is_file() else []


def test_a_sweep_runs_the_trees_programs_with_its_libraries(
    stand_in_tree: Path, tmp_path: Path
) -> None:
    grid = Grid("stand-in", {}, {"x": [1, 2]}, 1, "tree")
    out = tmp_path / "out"
    frame = run_sweep(grid, out=out, ns3_build=stand_in_tree, progress=False, report=False)
    assert frame.attrs["executed"] == 2 and list(frame["status"]) == ["ok", "ok"]
    assert set(frame["executable"]) == {"ns3.48-stand-in-optimized"}
    lib = str(stand_in_tree / "build" / "lib")
    assert all(p.split(os.pathsep)[0] == lib for p in frame["loader_path"])
    assert frame["command"].str.startswith(str(stand_in_tree / "build" / "contrib")).all()
    # Same cache rules: the same build again is found in the cache...
    again = run_sweep(grid, out=out, ns3_build=stand_in_tree, progress=False, report=False)
    assert again.attrs["cached"] == 2 and len(_runs(stand_in_tree)) == 2
    # ... another build of the program is another identity, its points run again.
    program = stand_in_tree / "build/contrib/rudp/examples/ns3.48-stand-in-optimized"
    program.write_text(program.read_text() + "# rebuilt\n")
    rebuilt = run_sweep(grid, out=out, ns3_build=stand_in_tree, progress=False, report=False)
    assert rebuilt.attrs["executed"] == 2 and len(_runs(stand_in_tree)) == 4


def test_the_command_line_takes_the_tree_as_an_option_or_from_the_environment(
    stand_in_tree: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = str(tmp_path / "out")
    argv = ["stand-in", "--axis", "x=1,2", "--out", out, "--quiet", "--no-report"]
    assert main([*argv, "--ns3-build", str(stand_in_tree)]) == 0
    assert len(_runs(stand_in_tree)) == 2
    monkeypatch.setenv(paths.NS3_BUILD_VARIABLE, str(stand_in_tree / "build"))
    assert main([*argv, "--dry-run"]) == 0
    shown = capsys.readouterr().out
    assert "2 runs, 2 cached, 0 to run (the ns-3 build" in shown and "optimized" in shown
    # Checked like any program: an unknown parameter runs nothing.
    assert main([*argv, "--axis", "y=1"]) == 2
    assert "stand-in has no option 'y'" in capsys.readouterr().err
    assert main([*argv, "--ns3-build", str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert len(_runs(stand_in_tree)) == 2


def test_a_tree_without_the_program_fails_each_run_with_how_to_build_it(
    stand_in_tree: Path, tmp_path: Path
) -> None:
    grid = Grid("rudp-cmt", {}, {"paths": [2]}, 1)
    frame = run_sweep(grid, out=tmp_path, ns3_build=stand_in_tree, progress=False)
    assert frame["error"].str.contains("./ns3 build rudp-cmt").all()
    with pytest.raises(GridError, match="not a preset"):
        plan("rudp-cmt", ns3_build=stand_in_tree)


# --- the identity covers the libraries ------------------------------------------------------


def test_ldd_output_is_read_whole() -> None:
    text = (
        "\tlinux-vdso.so.1 (0x00007ffd)\n"
        "\tlibrudp.so => /b/lib/librudp.so (0x00007f01)\n"
        "\tlibns3.44-csma.so => /w/ns3/lib64/libns3.44-csma.so (0x00007f02)\n"
        "\tlibgone.so => not found\n"
        "\t/lib64/ld-linux-x86-64.so.2 (0x00007f03)\n"
    )
    assert parse_ldd(text) == (
        ("librudp.so", Path("/b/lib/librudp.so")),
        ("libns3.44-csma.so", Path("/w/ns3/lib64/libns3.44-csma.so")),
        ("libgone.so", None),
        ("ld-linux-x86-64.so.2", Path("/lib64/ld-linux-x86-64.so.2")),
    )


@pytest.mark.programs(PROGRAM)
def test_a_changed_ns3_library_is_another_build(tmp_path: Path) -> None:
    """The real program, run from a stand-in tree holding copies of librudp and of
    one of ns-3's libraries (CSMA's: the ones it needs are the program's own):
    changing ns-3's library (an upgrade) changes the identity and runs the points
    again; the program and the model library are unchanged."""
    standalone = paths.standalone_build()
    original = standalone.program(PROGRAM)
    found = dict(linked_libraries(original, standalone.environment()) or ())
    assert found, "ldd lists no library"
    csma = next(path for name, path in found.items() if "-csma" in name and path is not None)
    assert found["librudp.so"] == paths.library()

    tree = _tree(tmp_path, version="3.44")
    program = tree / "build/contrib/rudp/examples" / f"ns3.44-{PROGRAM}-optimized"
    program.parent.mkdir(parents=True)
    shutil.copy2(original, program)
    for library in (paths.library(), csma):
        shutil.copy2(library, tree / "build" / "lib" / library.name)
    build = paths.ns3_build(tree)
    in_tree = dict(linked_libraries(program, build.environment()) or ())
    assert in_tree["librudp.so"] == tree / "build" / "lib" / "librudp.so"
    assert in_tree[csma.name] == tree / "build" / "lib" / csma.name

    grid = Grid(PROGRAM, {"size": 20000}, {"variant": ["reno"]}, 1, "tree")
    out = tmp_path / "out"
    first = run_sweep(grid, out=out, ns3_build=tree, progress=False, report=False)
    assert first.attrs["executed"] == 1 and first["status"].tolist() == ["ok"]
    before = build_identity(program, build)
    assert first["build"].tolist() == [before]
    assert run_sweep(grid, out=out, ns3_build=tree, progress=False).attrs["cached"] == 1

    with (tree / "build" / "lib" / csma.name).open("ab") as upgraded_library:
        upgraded_library.write(b"\0")  # an upgrade of ns-3, the program and librudp unchanged
    after = build_identity(program, build)
    assert after != before
    upgraded = run_sweep(grid, out=out, ns3_build=tree, progress=False, report=False)
    assert upgraded.attrs["executed"] == 1 and upgraded["build"].tolist() == [after]


# --- points split across MPI ranks (--mpi-ranks) -------------------------------------------

#: A stand-in that takes --ranks, started by a real mpiexec: each rank notes itself, rank 0
#: writes the record, as the module's programs do.
MPI_SCRIPT = """#!{python}
import json, os, sys
if sys.argv[1:] == ["--PrintHelp"]:
    print("stand-in [Program Options] [General Arguments]\\n\\nProgram Options:")
    print("    --x:       A number [0]\\n    --ranks:   MPI ranks [1]")
    print("    --output:  The record\\n\\nGeneral Arguments:")
if sys.argv[1:2] and sys.argv[1].startswith("--Print"):
    sys.exit(0)
options = dict(a[2:].split("=", 1) for a in sys.argv[1:] if "=" in a)
rank = os.environ.get("OMPI_COMM_WORLD_RANK", "-")
with open(os.environ["STAND_IN_LOG"], "a") as log:
    log.write(f"rank {{rank}} of {{os.environ.get('OMPI_COMM_WORLD_SIZE', '-')}}\\n")
if rank in ("0", "-"):
    with open(options["output"], "w") as output:
        json.dump({{"ok": True, "x": float(options["x"]), "ranks": int(options["ranks"])}}, output)
"""


def _mpi_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mpi: bool = True) -> Path:
    tree = _tree(tmp_path)
    modules = "['ns3-core', 'ns3-mpi', ]" if mpi else "['ns3-core', ]"
    lock = paths.lock_file(tree)
    lock.write_text(lock.read_text() + f"NS3_ENABLED_MODULES = {modules}\n")
    script = MPI_SCRIPT.format(python=sys.executable)
    _executable(tree / "build/contrib/rudp/examples/ns3.48-stand-in-optimized", script)
    monkeypatch.setenv("STAND_IN_LOG", str(tmp_path / "runs.log"))
    monkeypatch.setenv("RUDP_BUILD_DIR", str(tmp_path / "no-standalone-build"))
    monkeypatch.delenv(paths.NS3_BUILD_VARIABLE, raising=False)
    return tree


@pytest.mark.skipif(shutil.which("mpiexec") is None, reason="no mpiexec (Debian: openmpi-bin)")
def test_mpi_ranks_run_each_point_under_mpiexec_with_its_ranks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = _mpi_tree(tmp_path, monkeypatch)
    assert paths.ns3_build(tree).mpi
    grid = Grid("stand-in", {}, {"x": [1, 2]}, 1, "ranks")
    frame = run_sweep(
        grid, out=tmp_path / "out", ns3_build=tree, mpi_ranks=2, progress=False, report=False
    )
    assert list(frame["status"]) == ["ok", "ok"] and list(frame["ranks"]) == [2, 2]
    assert frame["command"].str.startswith("mpiexec -n 2 ").all()
    assert frame["command"].str.contains("--ranks=2").all()
    assert sorted(_runs(tree)) == ["rank 0 of 2"] * 2 + ["rank 1 of 2"] * 2
    # One rank is one process, without mpiexec; its points are others in the cache.
    one = run_sweep(grid, out=tmp_path / "out", ns3_build=tree, progress=False, report=False)
    assert one.attrs["executed"] == 2 and not one["command"].str.contains("mpiexec").any()


def test_mpi_ranks_need_a_tree_built_with_mpi(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    without = _mpi_tree(tmp_path / "without", monkeypatch, mpi=False)
    with pytest.raises(GridError, match=r"--mpi-ranks 2: .*--enable-mpi.*has no MPI"):
        plan("stand-in", ns3_build=without, mpi_ranks=2)
    with pytest.raises(GridError, match="the ns-3 wheel has none"):
        plan(PROGRAM, mpi_ranks=2, check=False)
    with pytest.raises(GridError, match="--mpi-ranks 0"):
        plan("stand-in", ns3_build=without, mpi_ranks=0)


def test_a_grid_cannot_set_the_ranks_mpiexec_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = _mpi_tree(tmp_path, monkeypatch)
    fixed, axis = (
        Grid("stand-in", {"ranks": 4}, {"x": [1]}, 1),
        Grid("stand-in", {}, {"ranks": [1, 2]}, 1),
    )
    for grid in (fixed, axis):
        with pytest.raises(GridError, match="a point runs on the MPI ranks --mpi-ranks gives it"):
            plan(grid, ns3_build=tree, mpi_ranks=2)
    assert plan(Grid("stand-in", {"ranks": 2}, {"x": [1]}, 1), ns3_build=tree, mpi_ranks=2)
