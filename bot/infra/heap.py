"""The event loop's process after start-up: what start-up made kept out of the garbage collector's way.

A bot that has been up a while holds hundreds of thousands of long-lived objects (modules, the games' tables of
moves, fonts, open tables). A full collection walks all of them, 28–33 ms on the event loop in whichever callback
happened to fill the heap (issue 25). Frozen once start-up is done, they are never walked again; the young
generation is collected less often, each time still in well under a millisecond.
"""

from __future__ import annotations

import gc

#: objects allocated (net) between young collections; Python's default is 700, collected every few moves' worth
#: of small dicts at a cost of ~0.1 ms each time
YOUNG = 10_000


def settle() -> None:
    """Collect once, freeze what survives (start-up's objects, for good), and collect the young less often."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
