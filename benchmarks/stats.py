"""Small helpers shared by the benchmarks: percentiles, summaries, interval unions and option parsing."""

from __future__ import annotations

import statistics
from collections.abc import Iterable


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (0–100) by nearest rank; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def median(values: list[float]) -> float:
    """The median; NaN for no values (a benchmark section that measured nothing still prints its row)."""
    return statistics.median(values) if values else float("nan")


def summary_ms(seconds: list[float]) -> str:
    if not seconds:
        return "n=0"
    ms = [s * 1000 for s in seconds]
    return (
        f"n={len(ms)} median={statistics.median(ms):.3f} ms p95={percentile(ms, 95):.3f} ms "
        f"p99={percentile(ms, 99):.3f} ms max={max(ms):.3f} ms"
    )


def describe(seconds: list[float]) -> dict[str, float]:
    """n, median, p50/p95/p99, mean and max of durations in seconds (the figures the reports print)."""
    return {
        "n": len(seconds),
        "median": median(seconds),
        "p50": percentile(seconds, 50),
        "p95": percentile(seconds, 95),
        "p99": percentile(seconds, 99),
        "mean": statistics.fmean(seconds) if seconds else float("nan"),
        "max": max(seconds) if seconds else float("nan"),
    }


def union_length(intervals: Iterable[tuple[float, float]]) -> float:
    """Total length covered by ``(start, end)`` intervals, overlaps counted once (parallel pictures)."""
    total = 0.0
    end = float("-inf")
    for a, b in sorted(intervals):
        if b <= end:
            continue
        total += b - max(a, end)
        end = b
    return total


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``["mode=tortuga", "reshuffle=on"]`` → a dict."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        out[key.strip()] = value.strip()
    return out
