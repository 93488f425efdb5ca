"""ns-2.35's SCTP-CMT beside rudp-cmt: seed 002's experiment in the simulator the paper used.

:mod:`.driver` runs one point in either simulator (ns-2 through the Tcl
driver ``cmt.tcl``, rudp through ``rudp-cmt``); :mod:`.compare` runs the
grid and writes the table (``python -m rudp.ns2``, also ``python -m
rudp.sweep seed002-ns2``). ns-2 is Debian's ``ns2`` package
(``scripts/install-ns2.sh``).
"""

from .driver import (
    CHUNK,
    NS2_DEFAULTS,
    NS2_STOCK,
    TCL_SCRIPT,
    CmtSettings,
    Ns2Error,
    Outcome,
    Point,
    ns_program,
    run_ns2,
    run_rudp,
)

__all__ = [
    "CHUNK",
    "NS2_DEFAULTS",
    "NS2_STOCK",
    "TCL_SCRIPT",
    "CmtSettings",
    "Ns2Error",
    "Outcome",
    "Point",
    "ns_program",
    "run_ns2",
    "run_rudp",
]
