"""Flagon pictures: every phase drawn from public and private views, valid PNGs under budget, and public bytes that
do not depend on secrets (planned cards, hands, the Navy's space)."""

from __future__ import annotations

import io
import random

from PIL import Image

from renderers.flagon import render
from rules.core import clone
from rules.flagon import GAME
from rules.playout import ai_chooser

PNG = b"\x89PNG\r\n\x1a\n"
BUDGET = 100 * 1024


def _check(png: bytes) -> Image.Image:
    assert png[:8] == PNG and len(png) < BUDGET
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def test_every_phase_public_and_private() -> None:
    st = GAME.new(4, {"crews": "seats", "length": "short"}, "render-phases")
    choose = ai_chooser(["normal", "easy", "easy", "normal"], "render-ai")
    seen: set[str] = set()
    n = 0
    while True:
        key = f"{st['phase']}:{(st['pending'] or {}).get('step')}"
        if key not in seen or n % 40 == 0:
            seen.add(key)
            view = GAME.view(st, None)
            assert _check(render(view)).size == (1100, 700)
            for seat in range(4):
                _check(render(GAME.view(st, seat), seat=seat))
        seats = GAME.to_act(st)
        if not seats:
            break
        legal = GAME.legal_actions(st, seats[0])
        st, _ = GAME.apply(st, seats[0], choose(GAME, st, seats[0], legal))
        n += 1
    assert {"pick:pick", "start:start", "plan:None", "over:None"} <= seen
    assert any(k.startswith("act:") for k in seen)


def test_public_picture_ignores_secrets_and_is_deterministic() -> None:
    st = GAME.new(2, {"setup": "random"}, "render-secret")
    for seat in (0, 1):
        st, _ = GAME.apply(st, seat, GAME.legal_actions(st, seat)[0])
    other = clone(st)
    # a different plan, a different hand, a different Navy space: nothing public changes
    for c in other["chars"]:
        if c["queue"]:
            c["hand"].append(c["queue"][0])
            c["queue"][0] = c["hand"].pop(5)
    other["navy"] = other["end_spaces"][0] if st["navy"] != other["end_spaces"][0] else other["end_spaces"][1]
    assert GAME.view(st, None) == GAME.view(other, None)
    assert render(GAME.view(st, None)) == render(GAME.view(other, None))
    assert render(GAME.view(st, None)) == render(GAME.view(st, None))


def test_private_picture_differs_by_seat_and_shows_the_plan() -> None:
    st = GAME.new(2, {"setup": "random"}, "render-private")
    st, _ = GAME.apply(st, 0, GAME.legal_actions(st, 0)[3])
    a = render(GAME.view(st, 0), seat=0)
    b = render(GAME.view(st, 1), seat=1)
    _check(a)
    _check(b)
    assert a != b
    changed = clone(st)
    c = next(c for c in changed["chars"] if c["queue"])
    c["hand"].append(c["queue"][0])
    c["queue"][0] = c["hand"].pop(0)
    assert render(GAME.view(changed, 0), seat=0) != a  # the private picture does show the planned card


def test_last_move_marks_and_overboard_splash() -> None:
    rnd = random.Random(3)
    st = GAME.new(8, {"setup": "random", "length": "short"}, "render-splash")
    splashed = False
    while GAME.to_act(st) and not splashed:
        seat = GAME.to_act(st)[0]
        legal = GAME.legal_actions(st, seat)
        st, _ = GAME.apply(st, seat, legal[rnd.randrange(len(legal))])
        splashed = bool(st["last"]["splash"])
    view = GAME.view(st, None)
    plain = clone(view)
    plain["last"] = {"char": None, "card": None, "touched": [], "arrows": [], "splash": []}
    assert render(view) != render(plain)


def test_tavern_pictures() -> None:
    st = GAME.new(5, {"map": "tavern", "setup": "random"}, "render-tavern")
    for seat in GAME.to_act(st):
        st, _ = GAME.apply(st, seat, GAME.legal_actions(st, seat)[1])
    public = render(GAME.view(st, None))
    assert _check(public).size == (1100, 700)
    for seat in range(5):
        _check(render(GAME.view(st, seat), seat=seat))
    other = clone(st)
    for c in other["chars"]:
        if c["queue"]:
            c["hand"].append(c["queue"][0])
            c["queue"][0] = c["hand"].pop(7)
    assert render(GAME.view(other, None)) == public
    ships = render(GAME.view(GAME.new(5, {"setup": "random"}, "render-tavern"), None))
    assert ships != public
