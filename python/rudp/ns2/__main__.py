"""``python -m rudp.ns2``: seed 002's grid in ns-2.35 and in rudp-cmt (:mod:`.compare`)."""

import sys

from .compare import main

sys.exit(main())
