"""Every hint card's truth value against its text on hand-made treasure positions (docs/games/treasure_island.md#hints),
and the region bitsets agree with the pointwise predicates."""

from __future__ import annotations

import random

import pytest

from rules.treasure_island import geometry, hints


def hu(x: float, y: float) -> tuple[int, int]:
    return int(x * 2), int(y * 2)


CTX = hints.Ctx(
    "treasure",
    (("anne", hu(4.5, 9)), ("olivier", hu(13.5, 24)), ("jim", hu(28.5, 4.5))),
    ("T1", hu(19, 14)),
)

# card, treasure (miles), parameters, expected truth
CASES = [
    ("S1", (15.5, 19.5), ("level-3",), True),
    ("S1", (15.5, 19.5), ("level-0",), False),
    ("S2", (12, 9), ("anne", "N"), True),
    ("S2", (12, 9), ("anne", "S"), True),
    ("S2", (12, 9), ("anne", "W"), False),
    ("S3", (12, 9), ("anne", "within-8"), True),
    ("S3", (12, 9), ("anne", "within-4"), False),
    ("S3", (12, 9), ("anne", "beyond-4"), True),
    ("S4", (3.5, 12), ("within-1",), True),
    ("S4", (12, 12), ("beyond-4",), True),
    ("S4", (12, 12), ("within-4",), False),
    ("S5", (12, 9), ("L6", "within-4"), True),
    ("S5", (12, 9), ("L6", "beyond-4"), False),
    ("S6", (5, 14), ("in-forest",), True),
    ("S6", (5, 14), ("notin-forest",), False),
    ("S6", (5, 14), ("in-hills",), False),
    ("S7", (19, 18), ("within-5",), True),
    ("S7", (19, 18), ("beyond-10",), False),
    ("S8", (15.5, 19.5), ("above-3",), True),
    ("S8", (15.5, 19.5), ("below-1",), False),
    ("B1", (12, 9), ("anne", "NE"), True),
    ("B1", (12, 9), ("anne", "SE"), True),
    ("B1", (12, 9), ("anne", "NW"), False),
    ("B2", (12, 9), ("anne", "olivier"), True),
    ("B2", (12, 9), ("olivier", "anne"), False),
    ("B3", (12, 9), ("L6", "L3"), True),
    ("B3", (12, 9), ("L3", "L6"), False),
    ("B4", (6, 11), ("anne",), True),
    ("B4", (6, 11), ("none",), False),
    ("B4", (6, 11), ("jim",), False),
    ("B4", (20, 18), ("none",), True),
    ("B5", (12, 9), ("D10",), True),
    ("B5", (12, 9), ("D6",), True),
    ("B5", (12, 9), ("D5",), False),
    ("B6", (12, 9), ("L5", "W"), True),
    ("B6", (12, 9), ("L5", "E"), False),
    ("B7", (12, 9), ("anne", "same"), True),
    ("B7", (12, 9), ("jim", "other"), True),
    ("B7", (12, 9), ("jim", "same"), False),
    ("B8", (6, 10), ("anne",), True),
    ("B8", (6, 10), ("none",), False),
    ("B8", (6, 10), ("olivier",), False),
    ("B9", (12, 9), ("D6", "D10"), False),
    ("B9", (12, 9), ("D1", "D2"), True),
    ("B10", (12, 9), ("L6",), True),
    ("B10", (12, 9), ("none",), False),
    ("B10", (12, 9), ("L1",), False),
    ("B11", (12, 9), ("anne", "6-9"), True),
    ("B11", (12, 9), ("anne", "3-6"), False),
    ("B11", (12, 9), ("anne", "12+"), False),
    ("B12", (15.5, 19.5), ("anne", "higher"), True),
    ("B12", (15.5, 19.5), ("anne", "same"), False),
]


@pytest.mark.parametrize(("card", "t", "vals", "want"), CASES)
def test_card_truth_matches_its_text(card: str, t: tuple[float, float], vals: tuple[str, ...], want: bool) -> None:
    g = geometry.geo("treasure")
    node = hu(*t)
    assert g.legal[geometry.node(*node)], t
    assert hints.holds(card, vals, CTX, node) is want
    assert bool(hints.region(card, vals, CTX) >> geometry.node(*node) & 1) is want
    assert vals in hints.completions(card, CTX)
    assert hints.text(card, vals, CTX).startswith("The treasure") or hints.text(card, vals, CTX).startswith("No pirate")


def test_every_card_is_covered_by_a_case() -> None:
    assert {c for c, *_ in CASES} == set(hints.CARDS)


@pytest.mark.parametrize("map_id", ["treasure", "revenge"])
def test_region_agrees_with_the_predicate_everywhere_sampled(map_id: str) -> None:
    g = geometry.geo(map_id)
    spots = g.spots
    ctx = hints.Ctx(
        map_id, (("anne", spots["anne"]), ("jim", spots["jim"]), ("ben", spots["ben"])), ("T2", g.towers["T2"])
    )
    rnd = random.Random(7)
    for card in hints.CARDS:
        comps = hints.completions(card, ctx)
        for comp in comps:
            m = hints.region(card, comp, ctx)
            assert m & ~g.legal_mask == 0
            for k in rnd.sample(g.legal_nodes, 15):
                assert bool(m >> k & 1) == hints.holds(card, comp, ctx, geometry.ij(k)), (card, comp, k)


def test_every_card_has_a_true_and_a_false_option_in_a_normal_position() -> None:
    g = geometry.geo("treasure")
    t = hu(20, 8)
    for card in hints.CARDS:
        comps = hints.completions(card, CTX)
        truths = [hints.holds(card, c, CTX, t) for c in comps]
        assert any(truths) and not all(truths), card
    assert g.legal[geometry.node(*t)]


def test_parameter_orders() -> None:
    assert hints.values("dist3", CTX, ()) == ["within-4", "within-8", "within-12", "beyond-4", "beyond-8", "beyond-12"]
    assert hints.values("mini|none", CTX, ()) == ["anne", "olivier", "jim", "none"]
    assert hints.values("mini2", CTX, ("olivier",)) == ["anne", "jim"]
    assert hints.values("district2", CTX, ("D9",)) == ["D10", "D11"]
    assert hints.values("terrain", CTX, ())[:2] == ["in-forest", "in-marsh"]
    revenge = hints.Ctx("revenge", CTX.minis, CTX.tower)
    assert "in-town" in hints.values("terrain", revenge, ())
    assert len(hints.completions("B3", CTX)) == 90
    assert hints.sort_ids(["B10", "B2", "S4"]) == ["B2", "B10", "S4"]


def test_compass_cards_exactly_two_false_per_position() -> None:
    p = hu(15, 10)
    rnd = random.Random(3)
    g = geometry.geo("treasure")
    for k in rnd.sample(g.legal_nodes, 200):
        t = geometry.ij(k)
        false = [c for c in hints.COMPASS if not hints.compass_true(c, p, t)]
        assert len(false) == (0 if t == p else 2)
    assert all(hints.compass_true(c, p, p) for c in hints.COMPASS)


def test_edge_10_lines_count_on_both_sides() -> None:
    t = (20, 18)  # same row as anne (4.5,9)
    assert hints.holds("S2", ("anne", "N"), CTX, t) and hints.holds("S2", ("anne", "S"), CTX, t)


def test_edge_18_frozen_nodes_keep_the_meaning() -> None:
    vals = ("anne", "within-4")
    before = hints.region("S3", vals, CTX)
    moved = hints.Ctx("treasure", (("anne", hu(20, 20)), *CTX.minis[1:]), CTX.tower)
    assert hints.region("S3", vals, moved) != before
    assert hints.frozen("S3", vals, CTX) == {"anne": "4.5,9"}
    assert "(4.5,9)" in hints.text("S3", vals, CTX)
