"""Every leak check can fail: inject a leak of each kind and see the check that guards it go red.

The sweep and the host tests pass only if these fail where they should, so a check that silently stopped
looking (a wrong key, a skipped branch) shows up here.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
from collections.abc import Callable
from typing import Any

import pytest

import renderers
from bot.host.tables import Outputs, TableHost
from rules import registry
from rules.core import Event, Game, IllegalAction, State
from tests.host.conftest import HostFactory, RecordingRenderer
from tests.secrets import checks, test_host
from tests.secrets.checks import Leak, players_of, private_lines
from tests.secrets.sweep import sweep_game

GAMES = registry.game_ids()


def _peek(gid: str, state: State) -> Any:
    """Per game, a secret in no spelling that ``secrets()`` lists: only the scramble can see it leak."""
    pick: dict[str, Callable[[State], Any]] = {
        "cartagena": lambda s: s["stock"][:1] + s["hands"][0],
        "buccaneer": lambda s: s["players"][0]["hand"],
        "flagon": lambda s: [c["queue"] for c in s["chars"]] + [s["navy"]],
        "martinique": lambda s: [m["id"] for p in s["players"] for m in p["maps"] if not m["revealed"]] + s["lost"],
        "treasure_island": lambda s: s["treasure"],
    }
    return hashlib.md5(json.dumps(pick[gid](state)).encode()).hexdigest()[:6]


def _wrap_apply(monkeypatch: pytest.MonkeyPatch, game: Game, extra: Callable[[State, State, int], Event]) -> None:
    real = type(game).apply

    def apply(state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        after, events = real(game, state, seat, action)
        return after, [*events, extra(state, after, seat)]

    monkeypatch.setattr(game, "apply", apply)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_seed_in_a_public_line_is_caught(monkeypatch: pytest.MonkeyPatch, game_id: str) -> None:
    game = registry.get(game_id)
    _wrap_apply(monkeypatch, game, lambda before, after, seat: Event(f"(rolled with {after['seed']})"))
    with pytest.raises(Leak, match="public event"):
        sweep_game(game_id, 1)


def test_the_treasure_as_a_line_writes_points_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules.treasure_island import geometry as G

    game = registry.get("treasure_island")
    _wrap_apply(monkeypatch, game, lambda before, after, seat: Event(f"Silver grins at ({G.fmt(after['treasure'])})."))
    with pytest.raises(Leak, match="public event"):
        sweep_game("treasure_island", 1)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_hand_line_in_a_public_line_is_caught(monkeypatch: pytest.MonkeyPatch, game_id: str) -> None:
    game = registry.get(game_id)

    def tell(before: State, after: State, seat: int) -> Event:
        lines = private_lines(game, after, range(players_of(game, after)))
        return Event(lines[-1] if lines else None)

    _wrap_apply(monkeypatch, game, tell)
    # without the line spellings of forms.py, which would catch some of these lines first
    monkeypatch.setattr(checks, "text_forms", lambda game_id, state: [])
    with pytest.raises(Leak, match="private line"):
        sweep_game(game_id, 2, lines_every=1)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_secret_in_any_spelling_in_the_public_view_is_caught_by_the_scramble(
    monkeypatch: pytest.MonkeyPatch, game_id: str
) -> None:
    game = registry.get(game_id)
    real = type(game).view

    def view(state: State, seat: int | None) -> dict[str, Any]:
        v = real(game, state, seat)
        if seat is None:
            v["peek"] = _peek(game_id, state)
        return v

    monkeypatch.setattr(game, "view", view)
    with pytest.raises(Leak, match="public view depends on a secret"):
        sweep_game(game_id, 1)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_refusal_that_names_a_secret_is_caught(monkeypatch: pytest.MonkeyPatch, game_id: str) -> None:
    game = registry.get(game_id)
    real = type(game).apply

    def apply(state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        try:
            return real(game, state, seat, action)
        except IllegalAction as exc:
            raise IllegalAction(exc.code, f"{exc.message} (the seed is {state['seed']})") from None

    monkeypatch.setattr(game, "apply", apply)
    with pytest.raises(Leak, match="refusal"):
        sweep_game(game_id, 1, refusal_every=1)


def test_a_picture_drawn_from_more_than_the_view_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = renderers.render
    calls = iter(range(1_000_000))

    def render(game_id: str, view: dict[str, Any], seat: int | None = None) -> bytes:
        return real(game_id, view, seat=seat) + bytes([next(calls) % 2])  # not a function of the view alone

    monkeypatch.setattr(renderers, "render", render)
    with pytest.raises(Leak, match="public picture"):
        sweep_game("martinique", 1, picture_every=1)


# -- through the table host ------------------------------------------------------------------------------------
async def _host_game(make_host: HostFactory, caplog: pytest.LogCaptureFixture, game_id: str = "martinique") -> None:
    caplog.set_level(logging.DEBUG)
    await test_host._play_one(make_host, game_id, 0, caplog)


async def test_host_a_secret_in_a_channel_post_is_caught(
    make_host: HostFactory, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = registry.get("martinique")
    _wrap_apply(monkeypatch, game, lambda before, after, seat: Event(f"Lost treasure: {after['lost']}"))
    with pytest.raises(Leak, match="channel post"):
        await _host_game(make_host, caplog)


async def test_host_a_secret_in_a_log_line_is_caught(
    make_host: HostFactory, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = registry.get("martinique")

    def log(before: State, after: State, seat: int) -> Event:
        logging.getLogger("rules.martinique").debug("rng %s:%s", after["seed"], after["rng_n"])
        return Event(None)

    _wrap_apply(monkeypatch, game, log)
    with pytest.raises(Leak, match="log line"):
        await _host_game(make_host, caplog)


async def test_host_a_dm_with_another_seats_secret_is_caught(
    make_host: HostFactory, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = registry.get("martinique")

    def whisper(before: State, after: State, seat: int) -> Event:
        theirs = [m["id"] for m in after["players"][1]["maps"] if not m["revealed"]]
        return Event(None, {0: f"Psst: Blue holds {theirs}"})

    _wrap_apply(monkeypatch, game, whisper)
    with pytest.raises(Leak, match="DM to seat 0"):
        await _host_game(make_host, caplog)


async def test_host_a_secret_in_a_refusal_is_caught(
    make_host: HostFactory, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = registry.get("martinique")
    real = type(game).apply

    def apply(state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        try:
            return real(game, state, seat, action)
        except IllegalAction as exc:
            raise IllegalAction(exc.code, f"{exc.message} (the Hook holds {state['hook']['maps']})") from None

    monkeypatch.setattr(game, "apply", apply)
    with pytest.raises(Leak, match="refusal"):
        await _host_game(make_host, caplog)


async def test_host_a_spectator_hand_with_a_private_line_is_caught(
    make_host: HostFactory, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = TableHost.hand

    async def hand(self: TableHost, caller: Any) -> Outputs:
        out = await real(self, caller)
        t = self.index.tables[self.table_for(caller.channel_id).table_id]  # noqa: SLF001
        lines = private_lines(t.game, t.state, range(len(t.seats)))
        return Outputs(ok=out.ok, reply=out.reply + "\n" + "\n".join(lines))

    monkeypatch.setattr(TableHost, "hand", hand)
    with pytest.raises(Leak, match="spectator"):
        await _host_game(make_host, caplog, "cartagena")


async def test_host_history_with_a_secret_is_caught(
    make_host: HostFactory, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = TableHost.history

    async def history(self: TableHost, caller: Any) -> Outputs:
        out = await real(self, caller)
        t = self.index.tables[self.table_for(caller.channel_id).table_id]  # noqa: SLF001
        return Outputs(ok=out.ok, reply=out.reply + f"\n(seed {t.seed})")

    monkeypatch.setattr(TableHost, "history", history)
    with pytest.raises(Leak, match="history"):
        await _host_game(make_host, caplog)


async def test_host_a_public_picture_of_another_view_is_caught(
    make_host: HostFactory, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = RecordingRenderer.__call__

    def record(self: RecordingRenderer, game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
        png = real(self, game_id, view, seat)
        if seat is None:
            self.calls[-1] = (game_id, {**view, "peek": random.random()}, seat)
        return png

    monkeypatch.setattr(RecordingRenderer, "__call__", record)
    with pytest.raises(Leak, match="public picture"):
        await _host_game(make_host, caplog)
