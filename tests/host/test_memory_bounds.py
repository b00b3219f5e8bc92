"""The main process's capped caches have a stated bound, and it holds: every ``lru_cache`` of the rules and the
host declares what one entry costs at most, and all of them full fit in ``MAIN_CACHE_BOUND_MB``. Once they are
full the bot's memory levels off: the soak (``python -m benchmarks.soak``) shows it, these tests keep the bound
from creeping up unnoticed. The figures per entry are measured with ``python -m benchmarks.caches`` (tracemalloc,
the heap a ``cache_clear`` frees), rounded up; the heaviest ones are measured again here, at capacity."""

from __future__ import annotations

import gc
import importlib
import pkgutil
import sys
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import bot
import rules
from rules.treasure_island.board import MAPS

MB = 2**20
MAIN_CACHE_BOUND_MB = 30

# cache -> (bytes one entry holds at most, how many distinct keys there can be; None: only maxsize bounds it)
BYTES_PER_ENTRY: dict[str, tuple[int, int | None]] = {
    "bot.host.api._natural": (1_000, None),  # a submenu's sort key
    "bot.infra.store.postgres.to_dollars": (5_000, None),  # a query of the store, rewritten (the longest is 2.3 KB)
    "rules.buccaneer.ai.distances": (24_000, None),  # a distance for every square reached
    "rules.buccaneer.ai._goods": (30_000, None),  # a plan's goals: up to a square × facing table (23 KB seen)
    "rules.buccaneer.doubt.short_chance": (300, None),
    "rules.flagon.board.name": (300, None),
    "rules.flagon.board.parse_sq": (300, None),
    "rules.martinique.board.walks": (1_500, None),
    "rules.martinique.tiles._claim_options": (400, None),  # a chest's claim options (300 B seen)
    "rules.treasure_island.ai.step_graph": (2_600_000, len(MAPS)),  # every legal node's neighbours, per map
    "rules.treasure_island.ai.path": (8_000, None),  # a path of nodes across the island
    "rules.treasure_island.geometry.parse_point": (250, None),
    "rules.treasure_island.geometry.mask_from_b64": (1_400, None),  # a decoded bitset (1.3 KB seen)
    "rules.treasure_island.rollout._disc": (900, None),  # a bitset over the 4161 nodes
    "rules.treasure_island.geometry.geo": (600_000, len(MAPS)),
    "rules.treasure_island.geometry._reach": (26_000, None),  # every node within 14 half-miles, as ints
    "rules.treasure_island.geometry._covered": (900, None),  # a bitset over the 4161 nodes
    "rules.treasure_island.geometry.eligible_mask": (900, None),
    "rules.treasure_island.geometry._disc_mask": (900, None),
    "rules.treasure_island.geometry.halfplane_mask": (900, None),
    "rules.treasure_island.geometry.closer_mask": (900, None),
    "rules.treasure_island.geometry.sector_mask": (900, None),
    "rules.treasure_island.hints._region": (900, None),
    "rules.treasure_island.views._legal_b64": (1_000, len(MAPS)),
}


def _import_all(package: Any) -> None:
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        # the gateway's modules: no caches, and discord.py to load
        if not info.name.startswith("bot.transports.discord"):
            importlib.import_module(info.name)


def main_process_caches() -> dict[str, Any]:
    """Every ``lru_cache`` defined at module level in the rules and the host (what the bot's main process runs;
    the renderers' caches live in the render workers)."""
    _import_all(rules)
    _import_all(bot)
    found: dict[str, Any] = {}
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(("rules.", "bot.")):
            continue
        for attr, value in vars(module).items():
            if callable(getattr(value, "cache_info", None)) and getattr(value, "__module__", None) == name:
                found[f"{name}.{attr}"] = value
    return found


def bound_bytes(caches: dict[str, Any]) -> dict[str, int]:
    out = {}
    for name, cached in caches.items():
        per_entry, keys = BYTES_PER_ENTRY[name]
        maxsize = cached.cache_info().maxsize
        out[name] = per_entry * (maxsize if keys is None else min(maxsize, keys))
    return out


def test_every_cache_of_the_main_process_is_capped_and_states_what_an_entry_costs() -> None:
    caches = main_process_caches()
    unstated = set(caches) ^ set(BYTES_PER_ENTRY)
    assert not unstated, f"new, renamed or removed caches: measure them and list them in BYTES_PER_ENTRY: {unstated}"
    unbounded = [name for name, cached in caches.items() if cached.cache_info().maxsize is None]
    assert not unbounded, f"caches without a maxsize grow for ever: {unbounded}"


def test_all_the_main_process_caches_full_fit_in_the_stated_bound() -> None:
    sizes = bound_bytes(main_process_caches())
    total = sum(sizes.values())
    biggest = sorted(sizes.items(), key=lambda kv: -kv[1])[:3]
    assert total <= MAIN_CACHE_BOUND_MB * MB, f"{total / MB:.1f} MB full; the biggest: {biggest}"


def _bytes_per_entry(cached: Any, fill: Callable[[], Iterator[None]]) -> float:
    """The heap one entry holds, averaged over everything ``fill`` puts in (the cache is emptied before and after)."""
    cached.cache_clear()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in fill():
            pass
        entries = cached.cache_info().currsize
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
        cached.cache_clear()
    assert entries
    return held / entries


def test_a_full_reach_cache_holds_no_more_than_its_stated_bound() -> None:
    from rules.treasure_island import geometry

    g = geometry.geo("treasure")
    maxsize = geometry._reach.cache_info().maxsize
    # the widest move (14 half-miles, Ben ignores the red zones) from nodes spread over the whole island
    starts = [geometry.ij(k) for k in g.legal_nodes[:: max(1, len(g.legal_nodes) // (maxsize + 8))]]

    def fill() -> Iterator[None]:
        for p in starts:
            geometry._reach("treasure", p, 14, True, ())
            yield

    per_entry = _bytes_per_entry(geometry._reach, fill)
    assert len(starts) > maxsize and geometry._reach.cache_info().currsize == 0
    assert per_entry <= BYTES_PER_ENTRY["rules.treasure_island.geometry._reach"][0]


@pytest.mark.parametrize("cache", ["_disc_mask", "halfplane_mask"])
def test_a_full_mask_cache_holds_no_more_than_its_stated_bound(cache: str) -> None:
    from rules.treasure_island import geometry

    cached = getattr(geometry, cache)
    maxsize = cached.cache_info().maxsize
    points = [(i, j) for i in range(0, geometry.W, 2) for j in range(0, geometry.H, 2)]

    def fill() -> Iterator[None]:
        for n in range(maxsize):
            p = points[n % len(points)]
            if cache == "_disc_mask":
                cached("treasure", p, 400 + n // len(points))  # big discs: the widest bitsets
            else:
                cached("treasure", p, ("NE", "SE", "SW", "NW")[n // len(points)])
            yield

    per_entry = _bytes_per_entry(cached, fill)
    assert per_entry <= BYTES_PER_ENTRY[f"rules.treasure_island.geometry.{cache}"][0]


def test_the_buccaneer_distances_of_the_whole_sea_hold_no_more_than_their_stated_bound() -> None:
    from rules.buccaneer import ai, board

    def fill() -> Iterator[None]:
        for reach in range(1, 9):  # a search that reaches every square: the biggest table there is
            ai.distances(frozenset([board.ANCHOR_BAY]), reach)
            yield

    assert _bytes_per_entry(ai.distances, fill) <= BYTES_PER_ENTRY["rules.buccaneer.ai.distances"][0]


def test_the_caches_benchmark_replays_calls_through_a_smaller_lru() -> None:
    from benchmarks.caches import lru_hit_rate

    stream = [1, 2, 3, 1, 2, 3, 1]
    assert lru_hit_rate(stream, 3) == 4 / 7  # every repeat is still held
    assert lru_hit_rate(stream, 2) == 0.0  # each key was pushed out just before it came back
    assert lru_hit_rate([5, 5, 5], 1) == 2 / 3
