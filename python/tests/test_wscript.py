"""The waf-era wscript lists what the CMake files list.

No waf-era ns-3 tree is reachable here, so the wscript is not built; this
test keeps it from drifting away from CMakeLists.txt.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from rudp.paths import REPO_ROOT


class _Env(dict[str, Any]):
    """waf's ConfigSet: items and attributes alike, [] for a key never set."""

    def __missing__(self, key: str) -> Any:
        return []

    def __getattr__(self, key: str) -> Any:
        return self[key]

    def append_value(self, key: str, value: Any) -> None:
        self.setdefault(key, []).append(value)


class _BuildContext:
    """Stands in for waf's build context; keeps what a wscript declares."""

    def __init__(self) -> None:
        self.env = _Env(ENABLE_EXAMPLES=True, VERSION="3.35")
        self.folder = REPO_ROOT
        self.path = SimpleNamespace(abspath=lambda: str(self.folder))
        self.bldnode = SimpleNamespace(abspath=lambda: "/ns-3/build")
        self.modules: list[SimpleNamespace] = []
        self.test_libraries: list[SimpleNamespace] = []
        self.header_sets: list[SimpleNamespace] = []
        self.libraries: list[SimpleNamespace] = []
        self.programs: dict[str, SimpleNamespace] = {}

    def create_ns3_module(self, name: str, deps: list[str]) -> SimpleNamespace:
        module = SimpleNamespace(name=name, use=[], env=_Env(), source=[])
        self.modules.append(module)
        return module

    def create_ns3_module_test_library(self, name: str) -> SimpleNamespace:
        library = SimpleNamespace(name=name, source=[], use=[])
        self.test_libraries.append(library)
        return library

    def __call__(self, features: str, **attributes: Any) -> SimpleNamespace:
        if "ns3header" in features.split():
            headers = SimpleNamespace(features=features, module=None, source=[])
            self.header_sets.append(headers)
            return headers
        library = SimpleNamespace(features=features, env=_Env(), source=[], **attributes)
        self.libraries.append(library)
        return library

    def create_ns3_program(self, name: str, deps: list[str]) -> SimpleNamespace:
        program = SimpleNamespace(name=name, source=[], use=[f"ns3-{dep}" for dep in deps])
        self.programs[name] = program
        return program

    def recurse(self, folder: str) -> None:
        saved = self.folder
        self.folder = saved / folder
        run_wscript(self.folder, self)
        self.folder = saved


def load_wscript(folder: Path) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    path = folder / "wscript"
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return namespace


def run_wscript(folder: Path, bld: _BuildContext) -> None:
    load_wscript(folder)["build"](bld)


class _ConfigureContext:
    """Stands in for waf's configuration context: pkg-config finds libcrypto or not."""

    def __init__(self, libcrypto: bool) -> None:
        self.env = _Env()
        self.libcrypto = libcrypto
        self.features: list[tuple[str, bool, str]] = []

    def check_cfg(self, package: str, uselib_store: str, args: list[str], mandatory: bool) -> Any:
        assert (package, uselib_store, mandatory) == ("libcrypto", "CRYPTO", False)
        if not self.libcrypto:
            return None  # waf's answer when an optional check fails
        self.env[f"LIB_{uselib_store}"] = ["crypto"]
        return "ok"

    def report_optional_feature(self, name: str, caption: str, enabled: bool, reason: str) -> None:
        self.features.append((caption, enabled, reason))


def cmake_list(text: str, variable: str) -> list[str]:
    match = re.search(rf"set\({variable}\s+(.*?)\)", text, re.S)
    assert match, f"set({variable} ...) not found"
    return match.group(1).split()


def cmake_examples(text: str) -> dict[str, list[str]]:
    examples = {}
    for block in re.findall(r"build_lib_example\((.*?)\n\)", text, re.S):
        name = re.search(r"NAME\s+(\S+)", block)
        sources = re.search(r"SOURCE_FILES\s+(.*?)\s+LIBRARIES_TO_LINK", block, re.S)
        assert name and sources, block
        examples[name.group(1)] = sources.group(1).split()
    return examples


def as_list(source: str | list[str]) -> list[str]:
    return [source] if isinstance(source, str) else list(source)


def test_wscript_lists_the_cmake_files() -> None:
    bld = _BuildContext()
    run_wscript(REPO_ROOT, bld)
    cmake = (REPO_ROOT / "CMakeLists.txt").read_text()
    (module,) = bld.modules
    (tests,) = bld.test_libraries
    (headers,) = bld.header_sets
    (scenario,) = bld.libraries
    assert sorted(module.source) == sorted(cmake_list(cmake, "source_files"))
    # waf has no public header left out of the module header: both lists.
    assert sorted(headers.source) == sorted(
        cmake_list(cmake, "header_files") + cmake_list(cmake, "scenario_headers")
    )
    assert sorted(tests.source) == sorted(cmake_list(cmake, "test_sources"))
    examples = {name: as_list(p.source) for name, p in bld.programs.items()}
    assert examples == cmake_examples((REPO_ROOT / "examples" / "CMakeLists.txt").read_text())
    # The scenario plumbing: a static library of the same sources, which the
    # tests and every program link and the module does not.
    assert scenario.target == "rudp-scenario" and "cxxstlib" in scenario.features.split()
    assert sorted(scenario.source) == sorted(cmake_list(cmake, "scenario_sources"))
    version = (REPO_ROOT / "VERSION").read_text().strip()
    assert scenario.defines == [f'RUDP_VERSION="{version}"']
    assert "rudp-scenario" in tests.use
    assert all("rudp-scenario" in p.use for p in bld.programs.values())
    assert "ns3-flow-monitor" not in module.use


def test_every_module_source_is_listed_and_exists() -> None:
    cmake = (REPO_ROOT / "CMakeLists.txt").read_text()
    variables = ("source_files", "header_files", "scenario_sources", "scenario_headers")
    for variable in (*variables, "test_sources"):
        for name in cmake_list(cmake, variable):
            assert (REPO_ROOT / name).is_file(), name
    on_disk = {str(p.relative_to(REPO_ROOT)) for p in REPO_ROOT.glob("model/*.cc")}
    on_disk |= {str(p.relative_to(REPO_ROOT)) for p in REPO_ROOT.glob("helper/*.cc")}
    assert on_disk == set(cmake_list(cmake, "source_files")), "a source is not built"
    scenario = {str(p.relative_to(REPO_ROOT)) for p in REPO_ROOT.glob("scenario/*.cc")}
    assert scenario == set(cmake_list(cmake, "scenario_sources")), "a scenario source is not built"
    tests_on_disk = {str(p.relative_to(REPO_ROOT)) for p in REPO_ROOT.glob("test/*.cc")}
    # The MPI suites are built only in a tree with ns-3's MPI module (and examples).
    mpi_tests = "test/rudp-mpi-test-suite.cc"
    assert f"set(rudp_mpi_tests {mpi_tests})" in cmake
    assert tests_on_disk == {*cmake_list(cmake, "test_sources"), mpi_tests}, "a test is not built"


def ns3_minor_defines(version: str) -> tuple[list[str], list[str]]:
    """The module's own DEFINES and those it passes on, for ns-3's VERSION file."""
    bld = _BuildContext()
    bld.env["VERSION"] = version
    run_wscript(REPO_ROOT, bld)
    (module,) = bld.modules
    return module.env["DEFINES"], module.export_defines


def test_wscript_passes_the_ns3_version_to_tests_and_examples() -> None:
    # model/rudp-compat.h needs RUDP_NS3_MINOR in the library, the test
    # library and the examples: waf passes export_defines on through 'use'.
    assert ns3_minor_defines("3.35") == (["RUDP_NS3_MINOR=35"], ["RUDP_NS3_MINOR=35"])
    assert ns3_minor_defines("3.34") == (["RUDP_NS3_MINOR=34"], ["RUDP_NS3_MINOR=34"])
    # A waf-era ns-3-dev tree says "3-dev": it is 3.35 or older.
    assert ns3_minor_defines("3-dev") == (["RUDP_NS3_MINOR=35"], ["RUDP_NS3_MINOR=35"])


def test_wscript_uses_openssl_only_when_configure_found_it() -> None:
    for found in (True, False):
        conf = _ConfigureContext(found)
        load_wscript(REPO_ROOT)["configure"](conf)
        # ns-3's configure summary says which SHA-256 the module uses.
        assert conf.features == [
            ("rudp SHA-256 from OpenSSL", found, "libcrypto not found: the portable SHA-256")
        ]
        bld = _BuildContext()
        bld.env.update(conf.env)
        run_wscript(REPO_ROOT, bld)
        (module,) = bld.modules
        assert ("CRYPTO" in module.use) == found
        assert ("RUDP_HAVE_OPENSSL" in module.env["DEFINES"]) == found
