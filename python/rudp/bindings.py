"""Load the rudp module into ns-3's cppyy bindings.

:func:`load` imports ns-3 (``from ns import ns``) and makes the module's
classes reachable as ``ns.RudpSocket``, ``ns.RudpHeader``,
``ns.CreateObject[ns.RudpSocket]()`` and so on, with its TypeIds registered,
on both hosts of the module:

* Standalone, over the ns-3 wheel (``pip install ns3``; ``make setup``): the
  wheel loads only ns-3's own libraries and has no hook for extra ones;
  :func:`load` adds ``build/lib/librudp.so`` and ``build/include`` afterwards.
* In an ns-3 tree (``contrib/rudp``) configured with
  ``./ns3 configure --enable-python-bindings``: ns-3.42 and later load the
  enabled contrib modules themselves, so the module is already there and
  :func:`load` loads nothing (loading the library a second time would register
  its TypeIds twice, which ns-3 refuses). ns-3.37 to 3.41 load only the
  modules of ``src/``: :func:`load` then loads the tree's own build of the
  module (``libns3.<version>-rudp[-<profile>].so``), found from the tree's
  lock file as ns-3's loader finds its own libraries.

Which of these applies is decided after the import: if ``ns3::RudpSocket`` is
a registered TypeId, the module is loaded; otherwise the ns-3 that was
imported says where it was built (a lock file: a tree; none: the wheel).

Importing ns-3 costs several seconds and about 600 MB per process: use the
bindings for interactive work and single runs, and the compiled programs for
sweeps.

A cppyy habit to know: write an object's public data members through
:func:`peek` (on the ``Ptr`` proxy an assignment only creates a Python
attribute). ``ns.PeekPointer(ptr)`` does the same, but cling then reports
"error: cannot compile this scalar expression yet" (in ns-3's ``ptr.h``, once
per pointee type: it tries conversions between ``Ptr`` types while resolving
the overload) although the call works; :func:`peek` and :func:`connect_trace`
name the type and so avoid that report.
"""

from __future__ import annotations

import functools
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import paths
from .paths import read_lock_file

#: The module's name in an ns-3 tree's lock file (ns-3 prefixes "ns3-").
MODULE = "rudp"

# Python callables handed to ns-3 (traces, events) must outlive their use.
_keep_alive: list[Callable[..., None]] = []

_HELPERS = r"""
namespace rudp_python
{
// Connects a Python callable to a trace source of object (a Ptr<T> or a T*):
// cppyy turns the callable into the std::function, and ns-3's Callback wraps
// that.
template <typename P, typename... Args>
bool
ConnectTrace(const P& object, const std::string& name, std::function<void(Args...)> function)
{
    return object->TraceConnectWithoutContext(name, ns3::Callback<void, Args...>(function));
}

// The object a Ptr<T> points to.
template <typename T>
T*
Peek(const ns3::Ptr<T>& pointer)
{
    return ns3::PeekPointer(pointer);
}

inline void
CallFunction(std::function<void()> function)
{
    function();
}

// Schedules a Python callable (as a std::function) after delay.
inline ns3::EventId
Schedule(const ns3::Time& delay, std::function<void()> function)
{
    return ns3::Simulator::Schedule(delay, &CallFunction, function);
}
} // namespace rudp_python
"""


@functools.cache
def load() -> Any:
    """Import ns-3 and make the rudp module available in it; return the ``ns`` namespace.

    Done once per process. Loads the module's library only if ns-3 has not
    loaded it (see the module's documentation for the hosts).

    Raises:
        FileNotFoundError: the module is not built for the ns-3 that was imported.
    """
    import cppyy  # noqa: PLC0415 - heavy imports, done on first use only
    from ns import ns  # noqa: PLC0415

    if not is_registered(ns):
        library, include = module_library(sys.modules["ns"])
        cppyy.add_include_path(str(include))
        cppyy.load_library(str(library))
    if not hasattr(cppyy.gbl.ns3, "RudpSocket"):
        cppyy.include("ns3/rudp-module.h")
    if not hasattr(cppyy.gbl, "rudp_python"):
        cppyy.cppdef(_HELPERS)
    return ns


def is_registered(ns: Any) -> bool:
    """True if this process has the module's TypeIds, i.e. its library is loaded."""
    return bool(ns.TypeId.LookupByNameFailSafe("ns3::RudpSocket", ns.TypeId()))


def module_library(ns_module: Any) -> tuple[Path, Path]:
    """The module's library to load for the ns-3 that was imported, and its headers' folder.

    Args:
        ns_module: the imported ``ns`` Python module (``sys.modules["ns"]``).

    Raises:
        FileNotFoundError: the library is not built, or the ns-3 tree was
            configured without the module.
    """
    init = getattr(ns_module, "__file__", None)
    lock = ns3_lock_file(Path(init)) if init else None
    if lock is None:  # the wheel, or an installed ns-3: the standalone build
        library = paths.library()
        if not library.is_file():
            raise FileNotFoundError(f"{library} does not exist: build it with 'make setup'")
        return library, paths.include_dir()
    return tree_library(lock)


def ns3_lock_file(ns_init: Path) -> Path | None:
    """The lock file of the ns-3 tree whose bindings ``ns_init`` belongs to, if any.

    Searched as ns-3's own loader does: upwards from the folder of
    ``ns/__init__.py`` to the first folder holding an entry named ``ns3``
    (the tree's ``ns3`` script), which has ``.lock-ns3_<platform>_build``
    once the tree is configured.
    """
    folder = Path(os.path.abspath(ns_init)).parent
    while "ns3" not in os.listdir(folder) and folder.parent != folder:
        folder = folder.parent
    lock = paths.lock_file(folder)
    return lock if lock.is_file() else None


def tree_library(lock: Path) -> tuple[Path, Path]:
    """The module's library in the ns-3 tree of ``lock``, and the tree's headers' folder.

    ns-3 names a module's library ``libns<VERSION>-<module>[-<profile>]``
    (no profile suffix for the release profile) in ``<out_dir>/lib`` or
    ``lib64``, and writes every module's headers to ``<out_dir>/include``.

    Raises:
        FileNotFoundError: the tree was configured without the module, or has
            not built it.
    """
    values = read_lock_file(lock)
    tree = lock.parent
    if f"ns3-{MODULE}" not in values.get("NS3_ENABLED_CONTRIBUTED_MODULES", []):
        raise FileNotFoundError(
            f"the ns-3 tree {tree} is configured without the {MODULE} module: "
            f"./ns3 configure --enable-modules={MODULE} --enable-python-bindings"
        )
    out_dir = Path(values["out_dir"])
    profile = values.get("BUILD_PROFILE", "release")
    suffix = "" if profile == "release" else f"-{profile}"
    extension = "dylib" if sys.platform == "darwin" else "so"
    name = f"libns{values['VERSION']}-{MODULE}{suffix}.{extension}"
    candidates = [out_dir / lib / name for lib in ("lib", "lib64")]
    for library in candidates:
        if library.is_file():
            return library, out_dir / "include"
    raise FileNotFoundError(f"{candidates[0]} does not exist: build it with './ns3 build'")


def create_object(cls: Any) -> Any:
    """ns-3's ``CreateObject<T>()`` for the class ``cls`` (e.g. ``ns.Node``), on every host.

    That is ``ns.CreateObject[cls]()`` on the wheel and from ns-3.42 on; the
    bindings of ns-3.37 to 3.41 replace ``ns.CreateObject`` with a Python
    function taking the class's name.
    """
    ns = load()
    if isinstance(ns.CreateObject, types.FunctionType):
        return ns.CreateObject(cls.__name__)
    return ns.CreateObject[cls]()


def connect_trace(obj: Any, source: str, callback: Callable[..., None], *arg_types: str) -> bool:
    """Connect ``callback`` to trace source ``source`` of ``obj``.

    Args:
        obj: an ns-3 object: a ``Ptr<T>`` from the bindings, or the object itself.
        source: the trace source name, e.g. ``"CongestionWindow"``.
        callback: a Python callable taking the trace's arguments.
        arg_types: the C++ argument types of the trace signature, e.g.
            ``"uint32_t", "uint32_t"`` for a ``TracedValue<uint32_t>``.

    Returns:
        True if ns-3 found the trace source and connected it.
    """
    import cppyy  # noqa: PLC0415

    _keep_alive.append(callback)
    load()
    connect = cppyy.gbl.rudp_python.ConnectTrace[",".join((_pointer_type(obj), *arg_types))]
    return bool(connect(obj, source, callback))


def peek(pointer: Any) -> Any:
    """The object an ns-3 ``Ptr`` points to (ns-3's ``PeekPointer``): write data members here."""
    import cppyy  # noqa: PLC0415

    load()
    return cppyy.gbl.rudp_python.Peek[_pointee_type(pointer)](pointer)


def _pointer_type(obj: Any) -> str:
    """The C++ type through which ``obj`` is passed: its ``Ptr<T>``, or ``T*``."""
    name = str(type(obj).__cpp_name__)
    return name if name.startswith("ns3::Ptr<") else f"{name}*"


def _pointee_type(pointer: Any) -> str:
    """``T`` of a ``Ptr<T>`` proxy."""
    name = str(type(pointer).__cpp_name__)
    if not (name.startswith("ns3::Ptr<") and name.endswith(">")):
        raise TypeError(f"{name} is not an ns3::Ptr")
    return name.removeprefix("ns3::Ptr<").removesuffix(">").strip()


def schedule(delay: Any, callback: Callable[[], None]) -> Any:
    """Run the Python callable ``callback`` ``delay`` after the current simulated time.

    ``Simulator::Schedule`` from Python takes only C++ events; this wraps the
    callable into one.

    Args:
        delay: an ``ns.Time`` (``ns.Seconds(1.5)``).
        callback: a Python callable without arguments.

    Returns:
        The event's ``ns.EventId`` (``ns.Simulator.Cancel`` takes it).
    """
    import cppyy  # noqa: PLC0415

    _keep_alive.append(callback)
    load()
    return cppyy.gbl.rudp_python.Schedule(delay, callback)
