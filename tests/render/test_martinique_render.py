"""Martinique pictures: every step drawn from public and private views, valid PNGs under budget, and no secret
reaching a picture that should not hold it."""

from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from renderers.martinique import render
from rules.martinique import GAME

BUDGET = 100 * 1024
STEPS = ("turn", "reveal", "hook", "claim", "dig", "over")


def _snapshots() -> dict[str, dict]:
    """The first state of each step kind met in seeded AI games (with a few random seats to reach every step)."""
    found: dict[str, dict] = {}
    for k in range(30):
        s = GAME.new(2, {"move_after": "2"}, f"render-{k}")
        rnd = random.Random(k)
        while True:
            if s["step"] not in found and (s["step"] != "turn" or s["players"][0]["collection"]):
                found[s["step"]] = s
            if not GAME.to_act(s):
                break
            seat = GAME.to_act(s)[0]
            legal = GAME.legal_actions(s, seat)
            level = "random" if k % 2 else "normal"
            s, _ = GAME.apply(s, seat, GAME.ai_choose(GAME.view(s, seat), seat, legal, level, rnd))
        if len(found) == len(STEPS):
            return found
    raise AssertionError(f"steps never reached: {set(STEPS) - set(found)}")


SNAPSHOTS = _snapshots()


def _swap_secrets(s: dict, keep_seat: int | None = None) -> dict:
    """The same state with every map identity hidden from ``keep_seat`` (all of them when None) permuted, the bag
    reshuffled and another seed: what that seat sees must not change."""
    other = json.loads(json.dumps(s))
    other["seed"] = "another seed"
    hidden = [t for t in GAME.secrets(s) if t.startswith("map:")]
    if keep_seat is not None:
        own = {m["id"] for m in s["players"][keep_seat]["maps"]}
        hidden = [t for t in hidden if t not in own]
    swap = dict(zip(hidden, list(reversed(hidden)), strict=True))
    other["island"] = [swap.get(t, t) if t else t for t in other["island"]]
    other["hook"]["maps"] = [swap.get(t, t) for t in other["hook"]["maps"]]
    if s["phase"] != "over":
        other["lost"] = [swap.get(t, t) for t in other["lost"]]
    for p in other["players"]:
        for m in p["maps"]:
            if not m["revealed"]:
                m["id"] = swap.get(m["id"], m["id"])
    random.Random(2).shuffle(other["bag"])
    return other


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize("step", STEPS)
def test_every_step_draws_valid_pngs_under_budget(step: str) -> None:
    s = SNAPSHOTS[step]
    public = render(GAME.view(s, None))
    img = _png(public)
    assert img.size == (1100, 700) and len(public) < BUDGET
    for seat in (0, 1):
        private = render(GAME.view(s, seat), seat=seat)
        img = _png(private)
        assert img.size == (1100, 700) and len(private) < BUDGET
        assert private != public


@pytest.mark.parametrize("step", STEPS)
def test_public_picture_identical_whatever_the_secrets(step: str) -> None:
    s = SNAPSHOTS[step]
    other = _swap_secrets(s)
    assert other != s
    assert render(GAME.view(other, None)) == render(GAME.view(s, None))


@pytest.mark.parametrize("step", ["turn", "claim", "dig"])
def test_private_picture_ignores_what_the_seat_does_not_know(step: str) -> None:
    s = SNAPSHOTS[step]
    for seat in (0, 1):
        other = _swap_secrets(s, keep_seat=seat)
        assert render(GAME.view(other, seat), seat=seat) == render(GAME.view(s, seat), seat=seat)


def test_private_picture_shows_the_seats_own_map_tiles() -> None:
    s = SNAPSHOTS["dig"]
    seat = 0 if s["players"][0]["maps"] else 1
    assert any(not m["revealed"] for m in s["players"][seat]["maps"])
    changed = json.loads(json.dumps(s))
    # give the seat a different hidden tile: its own picture must change (its tiles and the crossed-out squares)
    mine = {m["id"] for m in changed["players"][seat]["maps"]}
    spare = next(t for t in s["removed"] + s["lost"] if t.startswith("map:") and t not in mine)
    for m in changed["players"][seat]["maps"]:
        if not m["revealed"]:
            m["id"] = spare
            break
    assert render(GAME.view(changed, seat), seat=seat) != render(GAME.view(s, seat), seat=seat)


def test_rendering_is_deterministic_and_reads_only_the_view() -> None:
    s = SNAPSHOTS["claim"]
    view = GAME.view(s, None)
    frozen = json.dumps(view, sort_keys=True)
    assert render(view) == render(json.loads(frozen))
    assert json.dumps(view, sort_keys=True) == frozen  # the renderer does not touch the view


def test_final_picture_marks_the_treasure_square() -> None:
    s = SNAPSHOTS["over"]
    view = GAME.view(s, None)
    square = view["lost_treasure"]["square"]
    hidden = json.loads(json.dumps(view))
    hidden["lost_treasure"] = None
    assert render(view) != render(hidden)
    assert square == s["result"]["treasure"]


def test_a_seat_panels_map_tiles_keep_clear_of_their_label() -> None:
    """Issue 28: the panel read "mapsnone". The tiles (or "none") start a clear gap after the "maps:" label: at
    least 12 px, 6 in Discord's preview."""
    from renderers import martinique as renderer
    from renderers.common import text_width

    assert renderer.MAPS_LABEL_X + text_width("maps:", 20, True) + 12 <= renderer.MAPS_X


def test_a_pirate_digging_on_the_hook_leaves_its_name_readable() -> None:
    """Issue 28: at Sunset a pirate on a Hook square covered the word HOOK; the name then goes small to the block's
    centre, between the pirates, and the emptied Hook shows no counts."""
    from renderers import common
    from renderers import martinique as renderer

    s = json.loads(json.dumps(SNAPSHOTS["dig"]))
    view = GAME.view(s, None)
    view["squares"]["D5"]["pirate"] = "black"
    renderer._base_rgb.cache_clear()
    with common.measuring() as log:
        render(view)
    said = [t for _, texts in log.pictures for _, t in texts]
    assert ("HOOK" in said) and not any(t.startswith("maps ") or t.startswith("jokers ") for t in said)
