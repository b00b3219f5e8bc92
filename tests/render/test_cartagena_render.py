"""Cartagena pictures: valid PNGs of every phase within budget, public bytes blind to secrets, private hands."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from renderers.cartagena import HEIGHT, PANEL_R, PANEL_X, WIDTH, render
from rules.cartagena import GAME
from rules.cartagena.board import SYMBOLS
from rules.playout import ai_chooser, steps

BUDGET = 100 * 1024


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < BUDGET
    Image.open(io.BytesIO(data)).verify()
    return Image.open(io.BytesIO(data))


def _states(players: int, mode: str) -> list[dict]:
    """Every 12th state of a whole AI game, and its last one."""
    options = {"mode": mode}
    chosen = list(steps(GAME, players, options, f"render-{mode}-{players}", ai_chooser(["normal"] * players, "r")))
    return [step.after for step in chosen[::12]] + [chosen[-1].after]


@pytest.mark.parametrize(("players", "mode"), [(2, "jamaica"), (5, "jamaica"), (3, "tortuga"), (5, "tortuga")])
def test_every_phase_renders_public_and_private(players: int, mode: str) -> None:
    states = _states(players, mode)
    assert states[-1]["result"] is not None
    for state in states:
        public = _png(render(GAME.view(state, None)))
        assert public.size == (WIDTH, HEIGHT)
        seat = state["turn_seat"]
        private = _png(render(GAME.view(state, seat), seat=seat))
        assert private.size == (WIDTH, HEIGHT)


def test_public_bytes_are_identical_whatever_the_hidden_hands_and_stock_order() -> None:
    state = _states(3, "jamaica")[2]
    other = GAME.load(GAME.dump(state))
    # trade Red's hand for as many cards from the stock, then shuffle the stock: same sizes, other secrets
    size = sum(other["hands"][0])
    assert len(other["stock"]) >= size
    other["stock"] += [symbol for symbol, n in zip(SYMBOLS, other["hands"][0], strict=True) for _ in range(n)]
    other["hands"][0] = [0] * 6
    for card in other["stock"][:size]:
        other["hands"][0][SYMBOLS.index(card)] += 1
    other["stock"] = other["stock"][size:]
    random.Random(7).shuffle(other["stock"])
    other["seed"] = "another-seed"
    assert other["hands"] != state["hands"] or other["stock"] != state["stock"]
    assert render(GAME.view(state, None)) == render(GAME.view(other, None))
    tortuga = _states(2, "tortuga")[1]
    shuffled = GAME.load(GAME.dump(tortuga))
    random.Random(3).shuffle(shuffled["stock"])
    assert render(GAME.view(tortuga, None)) == render(GAME.view(shuffled, None))


def test_private_picture_shows_the_hand_and_differs_from_the_public_one() -> None:
    state = GAME.new(2, {"board": "fixed"}, "hand")
    public, private = render(GAME.view(state, None)), render(GAME.view(state, 0), seat=0)
    assert public != private
    # the hand sits at the foot of the side panel, over the symbols' legend
    strip = _png(private).convert("RGB").crop((PANEL_X, HEIGHT - 126, PANEL_R, HEIGHT))
    assert strip.tobytes() != _png(public).convert("RGB").crop((PANEL_X, HEIGHT - 126, PANEL_R, HEIGHT)).tobytes()
    assert len(strip.getcolors(maxcolors=4096)) > 10  # six drawn cards, not a blank band
    assert render(GAME.view(state, 0), seat=0) == private  # deterministic


def test_last_move_is_highlighted() -> None:
    state = GAME.new(2, {"board": "fixed"}, "last")
    before = render(GAME.view(state, None))
    seat = state["turn_seat"]
    after, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    image = _png(render(GAME.view(after, None))).convert("RGB")
    assert render(GAME.view(after, None)) != before
    assert (0xFF, 0x2D, 0x95) in {colour for _, colour in image.getcolors(maxcolors=4096)}  # the highlight
