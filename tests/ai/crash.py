"""A stand-in for a search that kills its worker process (imported by the worker, by name)."""

from __future__ import annotations

import os


def crash(*args: object) -> str:
    os._exit(3)
