"""Small helpers for printing benchmark figures."""

from __future__ import annotations

import statistics


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (0–100) by nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def summary_ms(seconds: list[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (
        f"n={len(ms)} median={statistics.median(ms):.3f} ms p95={percentile(ms, 95):.3f} ms "
        f"p99={percentile(ms, 99):.3f} ms max={max(ms):.3f} ms"
    )


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``["mode=tortuga", "reshuffle=on"]`` → a dict."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        out[key.strip()] = value.strip()
    return out
