"""The module's classes from Python through ns-3's cppyy bindings, on both hosts.

The tests marked ``built`` use the real bindings and the standalone build. The
others fake ``cppyy`` and ``ns`` to check what :func:`rudp.bindings.load`
does on each host, the in-tree ones included (no ns-3 tree with Python
bindings is built here).
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import pytest

from rudp import bindings, paths

built = pytest.mark.skipif(
    not paths.library().is_file(), reason="the module is not built (make setup)"
)


@pytest.fixture(scope="module")
def ns() -> Any:
    return bindings.load()


# --- The real bindings, standalone ------------------------------------------------


@built
def test_socket_attribute_reads_back(ns: Any) -> None:
    socket = ns.CreateObject[ns.RudpSocket]()
    window = ns.UintegerValue()
    socket.GetAttribute("WindowSize", window)
    assert window.Get() == 30
    socket.SetAttribute("WindowSize", ns.UintegerValue(5))
    socket.GetAttribute("WindowSize", window)
    assert window.Get() == 5


#: What cling reports when ns.PeekPointer is called from Python (the call works).
SPURIOUS_CLING_ERROR = "error: cannot compile this scalar expression yet"


@built
def test_python_callback_sees_traced_congestion_window(
    ns: Any, capfd: pytest.CaptureFixture[str]
) -> None:
    state = ns.CreateObject[ns.RudpSenderState]()
    # Data members are written through the object: on the Ptr proxy an
    # assignment would only create a Python attribute.
    raw = bindings.peek(state)
    raw.m_segmentSize = 1000
    raw.m_windowSegments = 30
    raw.m_initialCwnd = 2
    raw.m_initialSsThresh = 64000
    raw.m_dupAckThreshold = 3
    seen: list[tuple[int, int]] = []
    assert bindings.connect_trace(
        state, "CongestionWindow", lambda old, new: seen.append((old, new)), "uint32_t", "uint32_t"
    )
    # The object itself (not its Ptr) connects as well.
    thresholds: list[int] = []
    assert bindings.connect_trace(
        raw, "SlowStartThreshold", lambda _old, new: thresholds.append(new), "uint32_t", "uint32_t"
    )
    assert not bindings.connect_trace(state, "NoSuchTrace", lambda: None)
    socket = ns.CreateObject[ns.RudpSocket]()
    assert bindings.connect_trace(socket, "RTT", lambda _old, _new: None, "ns3::Time", "ns3::Time")
    reno = ns.CreateObject[ns.RudpReno]()
    reno.Init(state)  # cwnd = 2 MSS, ssthresh = the initial one
    reno.OnNewAck(state, 1)  # slow start: + 1 MSS
    assert seen == [(0, 2000), (2000, 3000)]
    assert thresholds == [64000]
    assert raw.CwndInSegments() == 3
    assert SPURIOUS_CLING_ERROR not in capfd.readouterr().err


@built
def test_header_round_trip_from_python(ns: Any) -> None:
    header = ns.RudpHeader()
    header.SetSequenceNumber(ns.SequenceNumber32(41))
    header.SetFlags(ns.RudpHeader.SYN)
    packet = ns.Packet()
    header.ComputeChecksum(packet)
    packet.AddHeader(header)
    back = ns.RudpHeader()
    packet.RemoveHeader(back)
    assert back.GetSequenceNumber().GetValue() == 41
    assert back.IsChecksumOk(packet)
    assert ns.RudpHeader.FlagsToString(back.GetFlags()) == "SYN"


@built
def test_python_function_runs_at_its_simulated_time(ns: Any) -> None:
    times: list[float] = []
    bindings.schedule(ns.Seconds(1.5), lambda: times.append(ns.Simulator.Now().GetSeconds()))
    cancelled = bindings.schedule(ns.Seconds(2), lambda: times.append(-1))
    ns.Simulator.Cancel(cancelled)
    ns.Simulator.Run()
    ns.Simulator.Destroy()
    assert times == [1.5]


@built
def test_a_module_already_in_ns3_is_not_loaded_again(
    ns: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What an ns-3.42+ tree presents: the TypeIds registered and the classes
    # declared before load() runs. Here the first load() did that; with no
    # library to find, a second load() must use what is there.
    monkeypatch.setenv("RUDP_BUILD_DIR", str(tmp_path))
    assert bindings.is_registered(ns)
    assert bindings.load.__wrapped__() is ns
    assert ns.CreateObject[ns.RudpSocket]()


# --- Each host, with fakes --------------------------------------------------------


class FakeTypeId:
    """ns.TypeId: LookupByNameFailSafe answers from ``registered``."""

    registered: ClassVar[set[str]] = set()

    @staticmethod
    def LookupByNameFailSafe(name: str, _tid: object) -> bool:
        return name in FakeTypeId.registered


class FakeCppyy(types.ModuleType):
    """cppyy: records what load() asks of it; include() declares the classes."""

    def __init__(self, declared: bool) -> None:
        super().__init__("cppyy")
        self.calls: list[tuple[str, str]] = []
        self.gbl = types.SimpleNamespace(ns3=types.SimpleNamespace())
        if declared:
            self.gbl.ns3.RudpSocket = object()

    def add_include_path(self, path: str) -> None:
        self.calls.append(("add_include_path", path))

    def load_library(self, path: str) -> None:
        self.calls.append(("load_library", path))
        FakeTypeId.registered.add("ns3::RudpSocket")

    def include(self, header: str) -> None:
        self.calls.append(("include", header))
        self.gbl.ns3.RudpSocket = object()

    def cppdef(self, code: str) -> None:
        self.calls.append(("cppdef", "rudp_python" if "namespace rudp_python" in code else code))
        self.gbl.rudp_python = object()


def fake_host(
    monkeypatch: pytest.MonkeyPatch, ns_init: Path, *, registered: bool, declared: bool
) -> tuple[FakeCppyy, Any]:
    """Install fake ``cppyy`` and ``ns`` modules; the latter's file is ``ns_init``."""
    cppyy = FakeCppyy(declared)
    namespace = types.SimpleNamespace(TypeId=FakeTypeId)
    ns_module = types.ModuleType("ns")
    ns_module.__file__ = str(ns_init)
    ns_module.ns = namespace  # type: ignore[attr-defined]
    monkeypatch.setattr(FakeTypeId, "registered", {"ns3::RudpSocket"} if registered else set())
    monkeypatch.setitem(sys.modules, "cppyy", cppyy)
    monkeypatch.setitem(sys.modules, "ns", ns_module)
    return cppyy, namespace


def wheel(tmp_path: Path) -> Path:
    """The wheel's layout: site-packages/ns3/ns/__init__.py, no lock file."""
    init = tmp_path / "site-packages" / "ns3" / "ns" / "__init__.py"
    init.parent.mkdir(parents=True)
    init.touch()
    return init


def ns3_tree(
    tmp_path: Path, version: str, profile: str, contrib: list[str], lib: str = "lib"
) -> tuple[Path, Path]:
    """A configured ns-3 tree with Python bindings: its ns/__init__.py and out_dir."""
    tree = tmp_path / f"ns-{version}"
    out_dir = tree / "build"
    init = out_dir / "bindings" / "python" / "ns" / "__init__.py"
    init.parent.mkdir(parents=True)
    init.touch()
    (tree / "ns3").touch()
    (out_dir / lib).mkdir()
    (out_dir / "include" / "ns3").mkdir(parents=True)
    modules = ", ".join(f"'ns3-{m}'" for m in contrib)
    (tree / f".lock-ns3_{sys.platform}_build").write_text(
        "#! /usr/bin/env python3\n\n"
        f"top_dir = '{tree}'\n"
        f"out_dir = '{out_dir}'\n"
        "NS3_ENABLED_MODULES = ['ns3-core', 'ns3-network', ]\n"
        f"NS3_ENABLED_CONTRIBUTED_MODULES = [{modules}]\n"
        "ENABLE_PYTHON_BINDINGS = True\n"
        f"BUILD_PROFILE = '{profile}'\n"
        f"VERSION = '{version}' \n"
        "PYTHON = ['/usr/bin/python3']\n",
        encoding="utf-8",
    )
    return init, out_dir


@pytest.fixture
def unbuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty standalone build folder."""
    build = tmp_path / "standalone-build"
    build.mkdir()
    monkeypatch.setenv("RUDP_BUILD_DIR", str(build))
    return build


def test_in_tree_ns3_that_loaded_the_module_gets_only_the_helpers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unbuilt: Path
) -> None:
    # ns-3.42+: its loader loaded libns3.x-rudp and included rudp-module.h.
    init, _ = ns3_tree(tmp_path, "3.48", "default", ["rudp"])
    cppyy, namespace = fake_host(monkeypatch, init, registered=True, declared=True)
    assert bindings.load.__wrapped__() is namespace
    assert cppyy.calls == [("cppdef", "rudp_python")]


def test_in_tree_ns3_without_contrib_loading_gets_the_trees_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unbuilt: Path
) -> None:
    # ns-3.37 to 3.41: the loader took only src/ modules; the tree built rudp.
    init, out_dir = ns3_tree(tmp_path, "3.40", "default", ["rudp"])
    library = out_dir / "lib" / "libns3.40-rudp-default.so"
    library.touch()
    cppyy, _ = fake_host(monkeypatch, init, registered=False, declared=False)
    bindings.load.__wrapped__()
    assert cppyy.calls == [
        ("add_include_path", str(out_dir / "include")),
        ("load_library", str(library)),
        ("include", "ns3/rudp-module.h"),
        ("cppdef", "rudp_python"),
    ]


@pytest.mark.parametrize(
    ("profile", "lib", "name"),
    [
        ("release", "lib", "libns3.41-rudp.so"),
        ("debug", "lib64", "libns3.41-rudp-debug.so"),
        ("optimized", "lib", "libns3.41-rudp-optimized.so"),
    ],
)
def test_in_tree_library_name_follows_the_build_profile(
    tmp_path: Path, profile: str, lib: str, name: str
) -> None:
    init, out_dir = ns3_tree(tmp_path, "3.41", profile, ["rudp", "other"], lib=lib)
    (out_dir / lib / name).touch()
    lock = bindings.ns3_lock_file(init)
    assert lock == tmp_path / "ns-3.41" / f".lock-ns3_{sys.platform}_build"
    assert bindings.tree_library(lock) == (out_dir / lib / name, out_dir / "include")


def test_in_tree_without_the_module_says_how_to_configure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unbuilt: Path
) -> None:
    init, _ = ns3_tree(tmp_path, "3.40", "default", ["other"])
    fake_host(monkeypatch, init, registered=False, declared=False)
    with pytest.raises(FileNotFoundError, match="--enable-modules=rudp"):
        bindings.load.__wrapped__()


def test_in_tree_module_not_built_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unbuilt: Path
) -> None:
    init, out_dir = ns3_tree(tmp_path, "3.40", "default", ["rudp"])
    fake_host(monkeypatch, init, registered=False, declared=False)
    expected = str(out_dir / "lib" / "libns3.40-rudp-default.so")
    with pytest.raises(FileNotFoundError, match=rf"{expected} does not exist: build it"):
        bindings.load.__wrapped__()


def test_wheel_loads_the_standalone_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unbuilt: Path
) -> None:
    (unbuilt / "lib").mkdir()
    (unbuilt / "lib" / "librudp.so").touch()
    cppyy, _ = fake_host(monkeypatch, wheel(tmp_path), registered=False, declared=False)
    bindings.load.__wrapped__()
    assert cppyy.calls == [
        ("add_include_path", str(unbuilt / "include")),
        ("load_library", str(unbuilt / "lib" / "librudp.so")),
        ("include", "ns3/rudp-module.h"),
        ("cppdef", "rudp_python"),
    ]


def test_wheel_without_a_build_says_how_to_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unbuilt: Path
) -> None:
    fake_host(monkeypatch, wheel(tmp_path), registered=False, declared=False)
    with pytest.raises(FileNotFoundError, match="build it with 'make setup'"):
        bindings.load.__wrapped__()


def test_create_object_on_both_generations_of_bindings(monkeypatch: pytest.MonkeyPatch) -> None:
    class Node:
        __cpp_name__ = "ns3::Node"

    names: list[str] = []

    def create_by_name(name: str) -> str:  # ns-3.37 to 3.41: ns.CreateObject("Node")
        names.append(name)
        return "by name"

    monkeypatch.setattr(
        bindings, "load", lambda: types.SimpleNamespace(CreateObject=create_by_name)
    )
    assert bindings.create_object(Node) == "by name"
    assert names == ["Node"]

    class Template:  # ns-3.42 on, and the wheel: ns.CreateObject[ns.Node]()
        def __getitem__(self, cls: type) -> Any:
            return lambda: ("template", cls)

    monkeypatch.setattr(bindings, "load", lambda: types.SimpleNamespace(CreateObject=Template()))
    assert bindings.create_object(Node) == ("template", Node)


@built
def test_create_object_with_the_wheel(ns: Any) -> None:
    node = bindings.create_object(ns.Node)
    assert node.GetId() == ns.NodeList.GetNNodes() - 1


def test_a_tree_without_a_lock_file_is_not_a_tree(tmp_path: Path) -> None:
    init, _ = ns3_tree(tmp_path, "3.40", "default", ["rudp"])
    (tmp_path / "ns-3.40" / f".lock-ns3_{sys.platform}_build").unlink()  # not configured
    assert bindings.ns3_lock_file(init) is None
    assert bindings.ns3_lock_file(wheel(tmp_path)) is None


def test_lock_file_is_read_without_running_it(tmp_path: Path) -> None:
    lock = tmp_path / "lock"
    marker = tmp_path / "ran"
    lock.write_text(
        f"VERSION = '3.40'\nimport pathlib\npathlib.Path({str(marker)!r}).touch()\n"
        "PATHS = [x for x in 'ab']\nBUILD_PROFILE = 'debug'\n",
        encoding="utf-8",
    )
    assert paths.read_lock_file(lock) == {"VERSION": "3.40", "BUILD_PROFILE": "debug"}
    assert not marker.exists()
