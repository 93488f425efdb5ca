"""``python -m rudp.sweep``: see :mod:`rudp.sweep.cli`."""

from .cli import main

raise SystemExit(main())
