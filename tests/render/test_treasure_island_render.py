"""Treasure Island pictures: valid PNGs under budget in every phase, public and private, and a public picture
that does not change when only the secrets do."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from PIL import Image

from renderers import treasure_island as renderer
from rules.treasure_island import GAME

State = dict[str, Any]
BUDGET = 100 * 1024


def check_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < BUDGET
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.size == (1100, 700)
    return img


def states() -> list[State]:
    """A bury state, a hint step, pirate turns, a chest decision, the escape and a finished game."""
    out = []
    s = GAME.new(4, {"silver": "first", "map": "treasure"}, "pics")
    out.append(s)
    rnd = random.Random(2)
    seen: set[str] = set()
    while s["state"] != "over":
        seat = GAME.to_act(s)[0]
        action = GAME.ai_choose(GAME.view(s, seat), seat, GAME.legal_actions(s, seat), "normal", rnd)
        s, _ = GAME.apply(s, seat, action)
        if s["state"] not in seen or (s["state"] == "turn" and s["day"] in (9, 15)):
            seen.add(s["state"])
            out.append(s)
    out.append(s)
    return out


STATES = states()


@pytest.mark.parametrize("idx", range(0, len(STATES), max(1, len(STATES) // 5)))
def test_public_and_private_pictures(idx: int) -> None:
    s = STATES[idx]
    check_png(renderer.render(GAME.view(s, None)))
    pirate = 1 if s["silver"] != 1 else 2
    for seat in (s["silver"], pirate):
        check_png(renderer.render(GAME.view(s, seat), seat=seat))


def test_revenge_island_and_expansion_pictures() -> None:
    s = GAME.new(6, {"map": "revenge", "expansion": "on", "silver": "first"}, "rev")
    s, _ = GAME.apply(s, 0, "bury 20,8")
    check_png(renderer.render(GAME.view(s, None)))
    check_png(renderer.render(GAME.view(s, 0), seat=0))


def test_acting_pirate_sees_where_their_character_can_go() -> None:
    s = next(x for x in STATES if x["state"] == "turn")
    seat = GAME.to_act(s)[0]
    view = GAME.view(s, seat)
    assert view["private"]["reach"]
    without = json.loads(json.dumps(view))
    without["private"]["reach"] = {}
    assert renderer.render(view, seat=seat) != renderer.render(without, seat=seat)


def test_public_picture_is_the_same_whatever_the_secrets() -> None:
    s = next(x for x in STATES if x["state"] == "turn" and x["hints"])
    other = json.loads(json.dumps(s))
    other["treasure"] = [30, 40] if s["treasure"] != [30, 40] else [32, 40]
    other["hand"] = ["B1", "B2", "B3"]
    other["hint_tokens"] = ["truth"] + ["bluff"] * (len(other["hint_tokens"]) - 1)
    other["districts"] = {m: ["D1"] * len(d) for m, d in other["districts"].items()}
    other["chest_tokens"] = ["dig"] * len(other["chest_tokens"])
    assert renderer.render(GAME.view(s, None)) == renderer.render(GAME.view(other, None))


def test_pictures_are_deterministic() -> None:
    s = STATES[len(STATES) // 2]
    assert renderer.render(GAME.view(s, None)) == renderer.render(GAME.view(s, None))
    seat = s["silver"]
    assert renderer.render(GAME.view(s, seat), seat=seat) == renderer.render(GAME.view(s, seat), seat=seat)


def test_movable_tags_cover_no_map_name_no_figure_and_no_other_tag() -> None:
    """Issue 28: search, hint, fog and gallop tags, and a pirate's deductions, each find a free spot on the map (two
    searches side by side once printed their tags over each other, a compass tag over a district's name)."""
    placed_tags = 0
    for s in STATES:
        for seat in (None, *range(GAME.seat_count(s))):
            v = GAME.view(s, seat)
            pirate = v.get("private") if seat is not None and seat != v["silver_seat"] else None
            figures = renderer.figure_boxes(v)
            fixed = [*renderer._static_boxes(json.dumps(v["map"], sort_keys=True)), *figures]
            placed = renderer._place_tags(v, pirate, figures)
            for k, (box, tag) in enumerate(placed):
                assert renderer._inside(box), tag
                assert not any(renderer._overlaps(box, other) for other in fixed), tag
                assert not any(renderer._overlaps(box, other) for other, _ in placed[:k]), tag
            placed_tags += len(placed)
    assert placed_tags > 50
    # two searches a mile apart: their tags are side by side, not one over the other
    v = GAME.view(STATES[-1], None)
    v = {**v, "searches": [{**v["searches"][0], "centre": [12, 12]}, {**v["searches"][0], "centre": [12.5, 12]}]}
    (a, _), (b, _) = renderer._place_tags({**v, "hints": [], "fog": []}, None, [])[:2]
    assert not renderer._overlaps(a, b)
