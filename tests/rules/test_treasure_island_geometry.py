"""Treasure Island map data and exact geometry: the regression numbers (docs/games/treasure_island.md#the-islands) and
edge cases 1–5, 11, 26–29 of docs/games/treasure_island.md#edge-cases-and-the-tests-that-cover-them."""

from __future__ import annotations

from collections import deque

import pytest

from rules.treasure_island import geometry
from rules.treasure_island.board import MAPS

ALL5 = ("anne", "olivier", "jim", "charlotte", "ben")


def hu(x: float, y: float) -> tuple[int, int]:
    return int(x * 2), int(y * 2)


REGRESSION = {
    "treasure": {
        "land": 2356,
        "restricted": 132,
        "legal": 2224,
        "elig5": 2008,
        "elig3": 2094,
        "alt": [1100, 593, 364, 167],
        "terrain": {"forest": 192, "marsh": 59, "beach": 310, "hills": 1098, "grass": 565},
        "sea": [391, 771, 1119, 1418],
        "bank": (1295, 929),
    },
    "revenge": {
        "land": 2298,
        "restricted": 83,
        "legal": 2215,
        "elig5": 2003,
        "elig3": 2093,
        "alt": [1244, 462, 341, 168],
        "terrain": {"forest": 180, "marsh": 54, "town": 50, "beach": 397, "hills": 893, "grass": 641},
        "sea": [482, 958, 1393, 1755],
        "bank": (1153, 1062),
    },
}

DISTRICTS = {
    "treasure": {
        1: (199, [2, 3, 6, 7]),
        2: (204, [1, 3]),
        3: (204, [1, 2, 4, 7, 8]),
        4: (203, [3, 5, 8]),
        5: (200, [4, 8, 9]),
        6: (204, [1, 7, 10]),
        7: (203, [1, 3, 6, 8, 10, 11]),
        8: (203, [3, 4, 5, 7, 9, 11]),
        9: (200, [5, 8, 11]),
        10: (202, [6, 7, 11]),
        11: (202, [7, 8, 9, 10]),
    },
    "revenge": {
        1: (200, [2, 6, 7]),
        2: (201, [1, 3, 7]),
        3: (201, [2, 4, 7]),
        4: (204, [3, 5]),
        5: (203, [4]),
        6: (204, [1, 7, 8]),
        7: (203, [1, 2, 3, 6, 8]),
        8: (200, [6, 7, 9]),
        9: (200, [8, 10]),
        10: (201, [9, 11]),
        11: (198, [10]),
    },
}


@pytest.mark.parametrize("map_id", ["treasure", "revenge"])
def test_regression_numbers(map_id: str) -> None:
    g = geometry.geo(map_id)
    want = REGRESSION[map_id]
    assert sum(g.land) == want["land"]
    assert sum(1 for k in range(geometry.N) if g.land[k] and g.restricted[k]) == want["restricted"]
    assert len(g.legal_nodes) == want["legal"]
    assert geometry.popcount(geometry.eligible_mask(map_id, ALL5)) == want["elig5"]
    assert geometry.popcount(geometry.eligible_mask(map_id, ("anne", "olivier", "jim"))) == want["elig3"]
    assert [geometry.popcount(m) for m in g.alt_mask] == want["alt"]
    assert {t: geometry.popcount(m) for t, m in g.terrain_mask.items()} == want["terrain"]
    assert [geometry.popcount(g.sea_mask[r]) for r in (1, 2, 3, 4)] == want["sea"]
    east = geometry.popcount(g.east_mask)
    assert (len(g.legal_nodes) - east, east) == want["bank"]


@pytest.mark.parametrize("map_id", ["treasure", "revenge"])
def test_district_tables(map_id: str) -> None:
    g = geometry.geo(map_id)
    for d, (count, borders) in DISTRICTS[map_id].items():
        assert geometry.popcount(g.district_mask[d]) == count, d
        assert g.borders[d] == borders, d


@pytest.mark.parametrize("map_id", ["treasure", "revenge"])
def test_map_tables_are_consistent(map_id: str) -> None:
    """Towers, landmarks outside red zones and starting spots stand where their tables say."""
    g = geometry.geo(map_id)
    data = MAPS[map_id]
    assert len(g.towers) == (8 if map_id == "treasure" else 9)
    for t in data["towers"]:
        assert g.legal[geometry.node(*geometry.hu(t["pos"]))], t
    for c, p in data["spots"].items():
        assert g.legal[geometry.node(*geometry.hu(p))], c
    assert g.district[geometry.node(*g.spots["anne"])] == 6


@pytest.mark.parametrize("map_id", ["treasure", "revenge"])
def test_every_legal_location_is_connected_by_half_mile_steps(map_id: str) -> None:
    g = geometry.geo(map_id)
    start = g.legal_nodes[0]
    seen = {start}
    todo = deque([start])
    while todo:
        k = todo.popleft()
        a = geometry.ij(k)
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                b = (a[0] + di, a[1] + dj)
                if (di or dj) and 0 <= b[0] < geometry.W and 0 <= b[1] < geometry.H:
                    kb = geometry.node(*b)
                    if kb not in seen and g.legal[kb] and g.move_error(a, b, 2) is None:
                        seen.add(kb)
                        todo.append(kb)
    assert len(seen) == len(g.legal_nodes)


def test_point_text_round_trip() -> None:
    for text, want in (("12.5,7", (25, 14)), ("(12.5, 7)", (25, 14)), ("12.5 7", (25, 14)), ("0,0", (0, 0))):
        assert geometry.parse_point(text) == want
        assert geometry.fmt(want) in (text, "12.5,7")
    for bad in ("12.3,7", "37,1", "-1,2", "a,b", "1,2,3"):
        assert geometry.parse_point(bad) is None


def test_edge_01_grazing_a_red_vertex_or_running_along_a_red_edge_is_blocked() -> None:
    g = geometry.geo("treasure")
    a, b = hu(8, 8), hu(11, 8)  # passes exactly through R4's vertex (9.5,8)
    assert g.legal[geometry.node(*a)] and g.legal[geometry.node(*b)]
    assert g.move_error(a, b, 12) == "blocked"
    a, b = hu(7.5, 9), hu(10.5, 7.5)  # collinear with R4's edge (8.5,8.5)-(9.5,8)
    assert g.move_error(a, b, 12) == "blocked"
    assert g.move_error(hu(8, 8), hu(8, 11), 12) is None


def test_edge_02_moves_may_not_cross_a_bay_or_touch_the_coast_at_one_point() -> None:
    g = geometry.geo("treasure")
    assert g.move_error(hu(18, 22.5), hu(20.5, 21), 12) == "blocked"
    # the segment only meets the coast at its vertex (10,23.5)
    assert g.move_error(hu(8, 23.5), hu(12, 23.5), 12) == "blocked"
    assert g.move_error(hu(8, 23), hu(12, 23), 12) is None


def test_edge_03_ben_crosses_red_zones_but_not_the_coast() -> None:
    g = geometry.geo("treasure")
    a, b = hu(13, 17), hu(18, 17)  # straight through R1 Spyglass Crater
    assert g.move_error(a, b, 12) == "blocked"
    assert g.move_error(a, b, 12, ben=True) is None
    assert g.move_error(a, hu(15.5, 17), 12, ben=True) == "bad_destination"
    assert g.move_error(hu(18, 22.5), hu(20.5, 21), 12, ben=True) == "blocked"


def test_edge_04_red_zones_split_searches_but_small_blobs_do_not_hide() -> None:
    g = geometry.geo("treasure")
    # R2 Foremast Ridge runs across the whole circle: the east side stays unsearched
    cov = g.covered(hu(28.5, 18.5), 4, hu(27, 18.5))
    assert cov >> geometry.node(*hu(26.5, 18.5)) & 1
    assert not cov >> geometry.node(*hu(30, 18.5)) & 1
    assert geometry.d2(hu(30, 18.5), hu(28.5, 18.5)) <= 16
    # R4 Mizzen Crag lies wholly inside this circle: the fill walks around it
    cov = g.covered(hu(9, 9), 4, hu(7.5, 9))
    assert cov >> geometry.node(*hu(10.5, 9)) & 1
    assert not cov >> geometry.node(*hu(9, 9)) & 1


def test_edge_05_the_rim_counts_and_half_a_mile_further_does_not() -> None:
    g = geometry.geo("treasure")
    c = hu(12, 14)
    cov = g.covered(c, 4, c)
    assert cov >> geometry.node(*hu(14, 14)) & 1
    assert not cov >> geometry.node(*hu(14.5, 14)) & 1
    assert geometry.popcount(cov) == 49
    assert geometry.popcount(g.covered(c, 2, c)) == 13
    assert geometry.popcount(g.covered(c, 5, c)) == 81


def test_edge_11_compass_sectors() -> None:
    p = (20, 20)
    assert geometry.sector(p, (24, 24)) == "NE"
    assert geometry.sector(p, (16, 24)) == "NW"
    assert geometry.sector(p, (30, 24)) == "E"  # 21.8° off the axis: still E
    assert geometry.sector(p, (30, 25)) == "NE"  # 26.6°
    assert geometry.sector(p, (20, 10)) == "S"
    assert geometry.sector(p, (20, 20)) is None


def test_edge_26_revenge_sound() -> None:
    g = geometry.geo("revenge")
    a = hu(18, 11)
    b = hu(18, 17)
    assert g.legal[geometry.node(*a)] and g.legal[geometry.node(*b)] and geometry.d2(a, b) == 144
    assert g.move_error(a, b, 12) == "blocked"
    cov = g.covered(hu(18, 12.5), 4, a)
    assert geometry.popcount(cov) == 14


def test_edge_27_revenge_towns_and_jungle_are_ordinary_ground() -> None:
    g = geometry.geo("revenge")
    town = geometry.node(*hu(14, 23.5))
    assert g.terrain[town] == "town" and g.legal[town]
    assert g.move_error(hu(12, 23.5), hu(16, 23.5), 12) is None  # rides straight through N1
    jungle = hu(10.5, 18.5)
    assert g.terrain[geometry.node(*jungle)] == "forest"
    assert g.covered(hu(10.5, 18), 4, hu(10.5, 18)) >> geometry.node(*jungle) & 1


def test_edge_28_burial_circles() -> None:
    used = ("anne", "olivier", "jim")
    elig = geometry.eligible_mask("treasure", used)
    anne = (9, 18)  # 4.5,9
    assert not elig >> geometry.node(anne[0] + 4, anne[1]) & 1  # exactly 2 miles: on the drawn circle
    assert elig >> geometry.node(anne[0] + 5, anne[1]) & 1
    charlotte = (63, 34)  # 31.5,17 is unused here
    assert not elig >> geometry.node(charlotte[0], charlotte[1] + 4) & 1  # its dotted circle
    assert elig >> geometry.node(charlotte[0], charlotte[1] + 3) & 1  # 1.5 miles: allowed
    assert elig >> geometry.node(*charlotte) & 1
    g = geometry.geo("treasure")
    border = next(
        k
        for k in g.legal_nodes
        if elig >> k & 1 and k + 1 < geometry.N and g.legal[k + 1] and g.district[k + 1] != g.district[k]
    )
    assert elig >> border & 1


def test_edge_29_district_ties_go_to_the_lower_number() -> None:
    g = geometry.geo("treasure")
    seeds = [geometry.hu(d["seed"]) for d in MAPS["treasure"]["districts"]]
    ties = 0
    for k in g.legal_nodes:
        dist = [geometry.d2(geometry.ij(k), s) for s in seeds]
        best = [idx + 1 for idx, x in enumerate(dist) if x == min(dist)]
        if len(best) > 1:
            ties += 1
            assert g.district[k] == best[0]
    assert ties > 0
