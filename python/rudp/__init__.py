"""rudp: Python side of the rudp ns-3 module.

Bindings (cppyy), analytic models, parameter sweeps and figures for the
module's scenarios. The simulations themselves are the module's compiled
programs; see :mod:`rudp.paths` for where they are.
"""

__version__ = "0.2.0"  # = VERSION (python/tests/test_release.py)
