"""Buccaneer pictures: valid PNGs of every phase, within budget, deterministic, and blind to secrets."""

from __future__ import annotations

import io

from PIL import Image

from renderers.buccaneer import render
from rules.buccaneer import GAME
from rules.playout import ai_chooser
from tests.rules.test_buccaneer_fixtures import give_hold, make, play, put, set_hand

PNG = b"\x89PNG\r\n\x1a\n"
BUDGET = 100 * 1024


def _size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_pictures_of_a_whole_game_public_and_private() -> None:
    choose = ai_chooser(["normal", "easy", "easy", "easy"], "pictures")
    state = GAME.new(4, {}, "pictures")
    kinds = set()
    step = 0
    while True:
        frame = state["stack"][-1]["kind"] if state["stack"] else state["phase"]
        if frame not in kinds or step % 97 == 0 or not GAME.to_act(state):
            kinds.add(frame)
            for seat in (None, *range(4)):
                png = render(GAME.view(state, seat), seat=seat)
                assert png[:8] == PNG and len(png) < BUDGET
                assert _size(png) == (1100, 700)  # landscape, public and private
        if not GAME.to_act(state):
            break
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, choose(GAME, state, seat, GAME.legal_actions(state, seat)))
        step += 1
    assert "choose_ports" in kinds and "over" in kinds


def test_public_picture_ignores_secrets_and_is_deterministic() -> None:
    a = make(("amsterdam", "cadiz", "london"))
    set_hand(a, 0, "b3 b3 r1")
    put(a, 0, "m15", "n")
    give_hold(a, 1, "gold")
    b = GAME.load(GAME.dump(a))
    b["players"][0]["hand"] = {"b1": 1, "b2": 0, "b3": 0, "r1": 0, "r2": 1, "r3": 1}  # same size, other cards
    b["pirate_pile"] = list(reversed(b["pirate_pile"]))
    b["chance_pile"] = list(reversed(b["chance_pile"]))
    b["seed"] = "another secret seed"
    pub_a, pub_b = render(GAME.view(a, None)), render(GAME.view(b, None))
    assert pub_a == pub_b
    assert render(GAME.view(a, None)) == pub_a  # same view, same bytes
    priv_a, priv_b = render(GAME.view(a, 0), seat=0), render(GAME.view(b, 0), seat=0)
    assert priv_a != priv_b and priv_a[:8] == PNG


def test_private_picture_shows_plan_basket_and_fight() -> None:
    s = make(("amsterdam", "cadiz", "london"))
    set_hand(s, 0, "b3 b3 r1")
    set_hand(s, 1, "r1 r2")
    put(s, 0, "m20", "s")
    put(s, 1, "m18", "e")
    planning, _ = play(s, 0, "sail s", "go 2 attack cadiz")
    fight, _ = play(planning, 0, "face e", "confirm")
    for state, seat in ((planning, 0), (fight, 0), (fight, 1)):
        png = render(GAME.view(state, seat), seat=seat)
        assert png[:8] == PNG and len(png) < BUDGET
    assert render(GAME.view(fight, 1), seat=1) != render(GAME.view(s, 1), seat=1)
    trade = make(("amsterdam", "cadiz"))
    put(trade, 0, "bombay")
    offer = next(a for a in GAME.legal_actions(trade, 0) if a.startswith("offer"))
    trade, _ = play(trade, 0, offer)
    assert GAME.view(trade, 0)["you"]["basket"]["give"]
    assert render(GAME.view(trade, 0), seat=0)[:8] == PNG


def test_eight_ships_and_crowded_squares_fit() -> None:
    s = make(("amsterdam", "cadiz", "london", "genoa", "venice", "bristol", "marseilles", "bombay"))
    for seat, sq in enumerate(("m15", "m15", "a24", "a24", "x1", "j10", "j10", "o15")):
        put(s, seat, sq, "n")
    put(s, 7, "amsterdam")
    png = render(GAME.view(s, None))
    assert png[:8] == PNG and len(png) < BUDGET
