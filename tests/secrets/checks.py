"""The leak checks shared by the sweep (engine level) and the table-host tests.

Two kinds of evidence:
- *text*: no public output holds a string of ``game.secrets(state)`` that was hidden before and after the output
  (a played card becomes public at its play), nor a line of some seat's private summary (its ``/hand``);
- *structure*: the public view, the board post's caption, the public picture and the Zoom close-up of a state equal
  those of the same state with every secret re-dealt (tests/secrets/scramblers.py), so no public output can depend on
  a secret in any spelling at all.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

import renderers
from rules.core import Event, Game, IllegalAction, State
from tests.secrets.forms import text_forms
from tests.secrets.scramblers import SCRAMBLERS

#: a private-summary line shorter than this could be an innocent phrase ("hand empty.")
MIN_LINE = 16


class Leak(AssertionError):
    """A secret reached a public output."""


@dataclass
class Tally:
    """How much was checked, for the sweep's report and for tests that insist the checks ran."""

    games: int = 0
    states: int = 0
    checks: int = 0
    scrambles: int = 0
    scrambles_with_teeth: int = 0
    pictures: int = 0
    refusals: int = 0
    truncated: int = 0

    def add(self, other: Tally) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def leaks(text: str, secrets: Iterable[str]) -> list[str]:
    return [s for s in secrets if s and s in text]


def assert_clean(where: str, text: str, secrets: Iterable[str]) -> None:
    found = leaks(text, secrets)
    if found:
        raise Leak(f"{where}: secret {found[0]!r} in {text[:400]!r}")


def secrets_of(game: Game, state: State) -> list[str]:
    """The game's own list of secret spellings and the line spellings of tests/secrets/forms.py."""
    return game.secrets(state) + text_forms(game.info.id, state)


def private_lines(game: Game, state: State, seats: Iterable[int]) -> list[str]:
    """The lines of these seats' private summaries (their ``/hand``) that say something the public view does not."""
    public = json.dumps(game.view(state, None), ensure_ascii=False)
    out = []
    for seat in seats:
        for line in game.private_summary(game.view(state, seat), seat).splitlines():
            line = line.strip()
            if len(line) >= MIN_LINE and line not in public:
                out.append(line)
    return out


def private_event_lines(events: list[Event]) -> list[str]:
    return [line for e in events for line in e.private.values() if len(line) >= MIN_LINE]


def unseen_by(game: Game, state: State, seat: int) -> list[str]:
    """Secrets of ``state`` that ``seat`` does not know (absent from its own view and its ``/hand`` text): what
    its replies may not say."""
    view = game.view(state, seat)
    mine = json.dumps(view, ensure_ascii=False) + "\n" + game.private_summary(view, seat)
    return [s for s in secrets_of(game, state) if s not in mine]


def without_seed(state: State) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in ("seed", "rng_n")}


def check_scramble(
    game: Game, state: State, rnd: random.Random, tally: Tally, picture: bool = False, public: Any = None
) -> None:
    """The public view (and, if asked, the public PNG) of ``state`` equals that of a secret-scrambled copy."""
    scrambled = SCRAMBLERS[game.info.id](state, rnd)
    tally.scrambles += 1
    if without_seed(scrambled) != without_seed(state):
        tally.scrambles_with_teeth += 1
    if scrambled["seed"] == state["seed"]:
        raise AssertionError("the scramble must change the seed")
    view = game.view(state, None) if public is None else public
    other = game.view(scrambled, None)
    tally.checks += 1
    if view != other:  # deep equality of the JSON data (C speed; a canonical text compare costs 3x more)
        diff = sorted(k for k in set(view) | set(other) if view.get(k) != other.get(k))
        raise Leak(f"{game.info.id}: the public view depends on a secret (keys {diff})")
    gid = game.info.id
    tally.checks += 1
    if renderers.caption(gid, view) != renderers.caption(gid, other):
        raise Leak(f"{gid}: the board post's caption depends on a secret")
    if picture:
        tally.pictures += 1
        tally.checks += 1
        if renderers.render(gid, view, seat=None) != renderers.render(gid, other, seat=None):
            raise Leak(f"{gid}: the public picture depends on a secret")
        # the Zoom button's close-up, for a spectator and for a seat (whose pieces it may centre on)
        for seat in (None, 0):
            tally.checks += 1
            if renderers.zoom(gid, view, seat) != renderers.zoom(gid, other, seat):
                raise Leak(f"{gid}: the close-up for seat {seat} depends on a secret")


@dataclass
class Seen:
    """What ``check_step`` worked out about the state after a step, for the checks that follow."""

    view: dict[str, Any]
    secrets: list[str]


def check_step(
    game: Game,
    before: State,
    after: State,
    events: list[Event],
    tally: Tally,
    lines_before: list[str] | None = None,
    secrets_before: list[str] | None = None,
) -> Seen:
    """Public view of ``after`` and the public event lines against the secrets and, when ``lines_before`` (the
    seats' private lines before the step) is given, against the private lines before and after the step."""
    gid = game.info.id
    view = game.view(after, None)
    public = json.dumps(view, ensure_ascii=False)
    secrets_after = secrets_of(game, after)
    assert_clean(f"{gid} public view", public, secrets_after)
    assert_clean(f"{gid} caption", renderers.caption(gid, view), secrets_after)
    earlier = set(secrets_of(game, before) if secrets_before is None else secrets_before)
    hidden = [s for s in secrets_after if s in earlier]
    said = "\n".join(e.public for e in events if e.public)
    assert_clean(f"{gid} public event", said, hidden)
    tally.checks += 2
    if lines_before is not None:
        # a line private before and after this step (still in some seat's /hand) is not for the channel
        lines_after = private_lines(game, after, range(players_of(game, after)))
        keep = [line for line in lines_after if line in set(lines_before)]
        keep += [line for line in private_event_lines(events) if line not in public]
        assert_clean(f"{gid} public event (private line)", said, keep)
        assert_clean(f"{gid} public view (private line)", public, [line for line in lines_after if line in keep])
        tally.checks += 2
    return Seen(view, secrets_after)


def check_refusals(game: Game, state: State, pool: list[str], rnd: random.Random, tally: Tally, tries: int = 3) -> None:
    """Actions seen elsewhere in the game, offered where they are illegal: each refusal says nothing its seat
    may not know (an engine explaining "that card is in the Hook" would be a leak).

    A secret's spelling found in a refusal counts only if the refusal changes when the secrets are re-dealt: a
    fixed help text ("for example `plan monk step`") cannot tell anything, whatever the monk has planned."""
    n = players_of(game, state)
    for _ in range(tries):
        seat = rnd.randrange(n)
        action = pool[rnd.randrange(len(pool))] if pool and rnd.random() < 0.8 else _odd_text(rnd)
        said = _refusal(game, state, seat, action)
        if said is None:
            continue
        tally.refusals += 1
        tally.checks += 1
        if leaks(said, unseen_by(game, state, seat)):
            other = _refusal(game, SCRAMBLERS[game.info.id](state, rnd), seat, action)
            if other != said:
                assert_clean(f"{game.info.id} refusal of {action!r} to seat {seat}", said, unseen_by(game, state, seat))


def _refusal(game: Game, state: State, seat: int, action: str) -> str | None:
    """The refusal's text with the typed action blanked out (an echo is no leak); None if it was legal."""
    try:
        game.apply(state, seat, action)
    except IllegalAction as exc:
        return exc.message.replace(action, "…") if action else exc.message
    return None


def _odd_text(rnd: random.Random) -> str:
    return rnd.choice(["", "seed", "show hand", "reveal all", "peek", "dig 11,9.5", "play 💰", "\u202e" * 3, "x" * 300])


def players_of(game: Game, state: State) -> int:
    for key in ("players", "n"):
        v = state.get(key)
        if isinstance(v, int):
            return v
        if isinstance(v, list):
            return len(v)
    raise KeyError(f"{game.info.id}: number of players")
