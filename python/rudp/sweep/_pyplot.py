"""matplotlib's pyplot on the Agg backend, for the figure code only.

Import it inside the functions that draw (``from ._pyplot import plt``), never
at a module's top: ``import rudp.sweep`` then stays free of matplotlib (about
two seconds of imports), which only drawing a figure needs.
"""

from __future__ import annotations

import matplotlib

# Files only: sweeps run on servers and in workers without a display; chosen
# before pyplot is imported.
matplotlib.use("Agg")
from matplotlib import pyplot as plt

__all__ = ["plt"]
