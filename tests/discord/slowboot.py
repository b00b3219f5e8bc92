"""A render worker's boot that waits for a gate: the slow-starting pool of the lost-board test, in which no worker
is ready until the test opens the gate (a file named by ``PARLEY_TEST_BOOT_GATE``)."""

from __future__ import annotations

import os
import time
from pathlib import Path

GATE = "PARLEY_TEST_BOOT_GATE"


def wait_for_gate() -> None:
    """Runs in the spawned worker before it says it is ready: returns once the gate file exists (at most 120 s)."""
    gate = Path(os.environ[GATE])
    deadline = time.monotonic() + 120
    while not gate.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
