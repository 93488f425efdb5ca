"""Load the rudp module into ns-3's cppyy bindings.

The wheel's ``from ns import ns`` loads only ns-3's own libraries and has no
hook for extra ones. :func:`load` adds this module's headers and library
afterwards, so that its classes are reachable as ``ns.RudpHeader``,
``ns.CreateObject[ns.RudpSocket]()`` and so on, and its TypeIds are registered.

Importing ns-3 costs several seconds and about 600 MB per process: use the
bindings for interactive work and single runs, and the compiled programs for
sweeps.

Two cppyy habits to know: write an object's public data members through
``ns.PeekPointer(ptr)`` (on the ``Ptr`` proxy an assignment only creates a
Python attribute), and expect cling to print "cannot compile this scalar
expression yet" once when a trace is first connected; the connection works.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from . import paths

# Python callables connected to trace sources must outlive the connection.
_keep_alive: list[Callable[..., None]] = []

_HELPERS = r"""
namespace rudp_python
{
// Connects a Python callable to a trace source: cppyy turns the callable
// into the std::function, and ns-3's Callback wraps that.
template <typename... Args>
bool
ConnectTrace(ns3::ObjectBase* object,
             const std::string& name,
             std::function<void(Args...)> function)
{
    return object->TraceConnectWithoutContext(name, ns3::Callback<void, Args...>(function));
}
} // namespace rudp_python
"""


@functools.cache
def load() -> Any:
    """Import ns-3 and load the rudp module into it; return the ``ns`` namespace.

    Done once per process. Raises FileNotFoundError if the module is not built.
    """
    library = paths.library()
    if not library.is_file():
        raise FileNotFoundError(f"{library} does not exist: build it with 'make setup'")

    import cppyy  # noqa: PLC0415 - heavy imports, done on first use only
    from ns import ns  # noqa: PLC0415

    cppyy.add_include_path(str(paths.include_dir()))
    cppyy.load_library(str(library))
    cppyy.include("ns3/rudp-module.h")
    cppyy.cppdef(_HELPERS)
    return ns


def connect_trace(obj: Any, source: str, callback: Callable[..., None], *arg_types: str) -> bool:
    """Connect ``callback`` to trace source ``source`` of ``obj``.

    Args:
        obj: an ns-3 object (``Ptr<T>`` from the bindings).
        source: the trace source name, e.g. ``"CongestionWindow"``.
        callback: a Python callable taking the trace's arguments.
        arg_types: the C++ argument types of the trace signature, e.g.
            ``"uint32_t", "uint32_t"`` for a ``TracedValue<uint32_t>``.

    Returns:
        True if ns-3 found the trace source and connected it.
    """
    import cppyy  # noqa: PLC0415

    _keep_alive.append(callback)
    ns = load()
    connect = cppyy.gbl.rudp_python.ConnectTrace[",".join(arg_types)]
    return bool(connect(ns.PeekPointer(obj), source, callback))
