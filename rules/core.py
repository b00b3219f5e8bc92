"""The engine contract every game in ``rules/`` satisfies.

A game is one object (a subclass of :class:`Game`) whose methods are pure functions over a JSON state.
Actions are their canonical text (``"forward 12 key"``): the same string is what ``/play`` takes, what the
action log stores and what a replay reads, so there is exactly one language for moves.

Standard library only: this module (and every game package) must import nothing outside it.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules import refusals, rollout, search
from rules.refusals import IllegalAction  # part of this contract, kept in a leaf module the search imports

State = dict[str, Any]
Action = str
#: an AI policy: a seat's choice from its own view among the legal actions, with the host's randomness
Policy = Callable[[dict[str, Any], int, list[Action], random.Random], Action]

AI_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
#: how long the host holds an AI seat due to act while a person may still take an optional action (a challenge)
REACTION_SECONDS = 20
#: actions a ``hard`` rollout plays before it scores the position with ``Game.evaluate`` (a game sets its own)
DEFAULT_HORIZON = 80


@dataclass(frozen=True)
class Option:
    """A table option: a name, a closed list of string values, a default and a line of help."""

    name: str
    choices: tuple[str, ...]
    default: str
    help: str = ""


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    blurb: str = ""
    #: a short, readable rules summary for ``/rules`` (Markdown, under Discord's 4000-character embed limit)
    rules: str = ""
    #: display names per engine seat (colours, ports, roles), longest table first; empty = "Seat N"
    seat_names: tuple[str, ...] = ()
    #: (card name, effect) for every card a player may hold or choose, for ``/rules <game> cards``; empty = none
    cards: tuple[tuple[str, str], ...] = ()

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        raise KeyError(name)


#: ``Event.actor`` of an automatic step (a draw, a refill, the end of a phase): nobody chose it
GAME_ACTOR = "game"


@dataclass(frozen=True)
class Event:
    """One line of narration. ``public`` goes to the channel (None: nothing public);
    ``private`` maps an engine seat to a line only that seat may read.

    ``actor`` says who did what the line tells: an engine seat (the host names that seat's player), ``"game"``
    for an automatic step, or None when the line names its own subject (a character, a ship) and needs no one
    else's name. A private line on an event with no public line whose actor is that same seat echoes the seat's
    own choice ("You chose S3": old news to it); every other private line is news (a card drawn, a hint received,
    a tile seen), even on a line telling the seat's own move."""

    public: str | None = None
    private: dict[int, str] = field(default_factory=dict)
    actor: int | str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"public": self.public, "private": {str(k): v for k, v in self.private.items()}}
        if self.actor is not None:
            data["actor"] = self.actor
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        actor = data.get("actor")
        return cls(
            data.get("public"),
            {int(k): v for k, v in (data.get("private") or {}).items()},
            actor if actor is None or isinstance(actor, str) else int(actor),
        )


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. ``winners`` are engine seats (several on a tie, none on a stall with no
    winner); ``scores`` one number per seat where the game has them; ``ranking`` seats best first."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[float, ...] | None = None
    ranking: tuple[int, ...] | None = None
    # For skill ratings (bot/host/ratings.py). ``teams`` are the sides, each a tuple of seats sharing one result
    # (None: every seat plays for itself); ``places`` give each side's place, 1 best, equal places tied (None:
    # the winners first and everyone else tied second, and a game without winners is not rated).
    teams: tuple[tuple[int, ...], ...] | None = None
    places: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "reason": self.reason,
            "scores": None if self.scores is None else list(self.scores),
            "ranking": None if self.ranking is None else list(self.ranking),
            "teams": None if self.teams is None else [list(t) for t in self.teams],
            "places": None if self.places is None else list(self.places),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        """The inverse of :meth:`to_json`; the rating fields may be absent (outcomes stored before them)."""

        def seq(key: str) -> tuple[Any, ...] | None:
            value = data.get(key)
            return None if value is None else tuple(value)

        teams = data.get("teams")
        return cls(
            tuple(data["winners"]),
            data["reason"],
            seq("scores"),
            seq("ranking"),
            None if teams is None else tuple(tuple(t) for t in teams),
            seq("places"),
        )


def normalize_text(text: str) -> str:
    """Lower-case and collapse whitespace: the first step of every game's ``parse``."""
    return " ".join(str(text).lower().split())


def rng(state: State) -> random.Random:
    """A fresh RNG for the next random operation, advancing the counter kept in ``state``.

    The state holds a seed string and a counter; operation n uses ``random.Random(f"{seed}:{n}")``.
    Seeding ``random.Random`` with a ``str`` hashes it with SHA-512, so it does not depend on
    ``PYTHONHASHSEED``: the same seed and log give byte-identical states in any process.
    Call it only on a state you own (a copy made by ``apply``).
    """
    n = state["rng_n"]
    state["rng_n"] = n + 1
    return random.Random(f"{state['seed']}:{n}")


def clone(state: Any) -> Any:
    """A deep copy of JSON data, so ``apply`` can change it without touching its input.

    States are plain JSON (no sharing, no cycles), so a walk over dicts and lists is exact and about three
    times faster than ``copy.deepcopy``, which matters when one action's budget is a fraction of a millisecond.
    Strings and numbers are shared rather than visited (they are immutable), which saves a fifth again."""
    kind = type(state)
    if kind is dict:
        return {k: clone(v) if (t := type(v)) is dict or t is list else v for k, v in state.items()}
    if kind is list:
        return [clone(v) if (t := type(v)) is dict or t is list else v for v in state]
    return state


class Game:
    """Base class of every engine. Subclasses (a game's ``game.py``) set ``info``, ``version``, ``search_horizon``
    and ``policies`` and implement the abstract methods, ``_apply`` rather than ``apply``; the shared defaults below
    (options, parse, dump/load, label, undo, time-out, the table's voice) may be overridden. ``apply`` and
    ``ai_choose`` are the framework's: the same turn checks and the same dispatch of AI levels for every game.
    """

    info: ClassVar[GameInfo]
    version: ClassVar[int] = 1
    #: actions a ``hard`` rollout plays before :meth:`evaluate` scores the position (rules/search.py)
    search_horizon: ClassVar[int] = DEFAULT_HORIZON
    #: the game's own AI policies by level (its ``ai.py``): ``easy`` and ``normal``; ``hard`` is the search
    policies: ClassVar[Mapping[str, Policy]] = {}

    # -- options -------------------------------------------------------------------------------------
    def resolve_options(self, options: dict[str, str] | None) -> dict[str, str]:
        """Fill defaults and reject unknown names or values with ``IllegalAction('bad_option', ...)``."""
        options = {str(k): str(v).lower() for k, v in (options or {}).items()}
        known = {opt.name: opt for opt in self.info.options}
        for name, value in options.items():
            if name not in known:
                allowed = ", ".join(known) or "none"
                raise IllegalAction("bad_option", f"{self.info.title} has no option '{name}'; options: {allowed}.")
            if value not in known[name].choices:
                raise IllegalAction(
                    "bad_option",
                    f"'{value}' is not allowed for {name}; choose one of: {', '.join(known[name].choices)}.",
                )
        return {opt.name: options.get(opt.name, opt.default) for opt in self.info.options}

    def check_players(self, players: int) -> None:
        lo, hi = self.info.min_players, self.info.max_players
        if not lo <= players <= hi:
            raise IllegalAction("bad_players", f"{self.info.title} takes {lo} to {hi} players, not {players}.")

    def lobby_notes(self, players: int, options: dict[str, str]) -> list[str]:
        """Advice for a lobby of ``players`` seats with these resolved options (``resolve_options``), shown in the
        lobby post: a suggestion, never a rule (the table may start as it is). Empty when there is nothing to say."""
        return []

    def reaction_seconds(self, options: dict[str, str]) -> int:
        """Seconds the host holds an AI seat due to act while a person outside ``to_act`` may still take an
        optional action (see ``legal_actions``), so people get a fair chance to react before the AI closes it.
        A game may make it a table option; 0 never holds."""
        return REACTION_SECONDS

    # -- the contract --------------------------------------------------------------------------------
    def new(self, players: int, options: dict[str, str] | None, seed: str) -> State:
        raise NotImplementedError

    def to_act(self, state: State) -> list[int]:
        """Engine seats that owe a decision now, ascending; empty once the game is over."""
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every legal action of ``seat`` in a fixed order (never from iterating a set)."""
        raise NotImplementedError

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """The next state and its narration. Never mutates ``state``; raises :class:`IllegalAction`.

        The framework's, for every game (games implement :meth:`_apply`). Before any game code runs it refuses, in
        one wording each (rules/refusals.py): any action once the game is over (``game_over``); an action of a seat
        that owes no decision and has no such optional action (``not_your_turn``); an action that is not among the
        seat's legal actions (the game's reason from :meth:`refuse`, by default ``illegal``). Text as a person
        typed it is read with :meth:`parse` first, so ``_apply`` only ever sees an action ``legal_actions`` lists.
        """
        if self.is_legal(state, seat, action):  # so the game is not over and the seat may act
            return self._apply(state, seat, action)
        return self._apply(state, seat, self._legal_text(state, seat, action))

    def _legal_text(self, state: State, seat: int, text: str) -> Action:
        """The legal action ``text`` stands for once parsed, or the refusal, in this order: the game is over, it is
        not the seat's turn, the parser's complaint, the game's reason."""
        acting = self.to_act(state)
        if not acting:
            raise refusals.game_over()
        try:
            action = self.parse(text)
        except IllegalAction:
            if seat not in acting:
                raise self._not_your_turn(state, acting) from None
            raise
        if action != text and self.is_legal(state, seat, action):
            return action
        if seat not in acting:
            raise self._not_your_turn(state, acting)
        raise self.refuse(state, seat, text)

    def _not_your_turn(self, state: State, acting: list[int]) -> IllegalAction:
        public = self.view(state, None)
        names = []
        for s in acting:
            name = self.seat_name(public, s)
            names.append(f"{name} (seat {s + 1})" if name else f"seat {s + 1}")
        return refusals.not_your_turn(names)

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """What ``action`` does: the next state (a copy: ``state`` is never changed) and its narration. Called by
        :meth:`apply` only with an action in ``legal_actions(state, seat)``, so it checks nothing."""
        raise NotImplementedError

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        """Whether ``action`` is in ``legal_actions(state, seat)``. A game whose lists are long may answer faster
        without building them, but must give exactly the same answer: the contract test compares the two at
        positions of seeded playouts."""
        return action in self.legal_actions(state, seat)

    def refuse(self, state: State, seat: int, action: Action) -> IllegalAction:
        """Why ``action`` (as given: the game may parse it) is not legal for ``seat``, which owes a decision: the
        game's own reason where it has one ("you have no skull card"), else the shared wording, which says what the
        seat must do (:meth:`owed`) and what it may play."""
        return refusals.not_legal(action, self.owed(self.view(state, None), seat), self.legal_actions(state, seat))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know, as plain JSON; ``None`` is the public view. No secret of anyone else."""
        raise NotImplementedError

    def outcome(self, state: State) -> Outcome | None:
        raise NotImplementedError

    def seat_count(self, state: State) -> int:
        """How many seats play this game."""
        raise NotImplementedError

    def parse(self, text: str) -> Action:
        """The canonical text of an action typed by a person; raises ``IllegalAction('bad_syntax', ...)``.

        The default only normalises case and spacing; games with richer syntax override it.
        """
        action = normalize_text(text)
        if not action:
            raise IllegalAction("bad_syntax", "Type an action, for example one from the list of legal moves.")
        return action

    def dump(self, state: State) -> dict[str, Any]:
        data = clone(state)
        data["game"] = self.info.id
        data["version"] = self.version
        return data

    def load(self, data: dict[str, Any]) -> State:
        if data.get("game") != self.info.id:
            raise IllegalAction("bad_version", f"this is not a {self.info.title} game")
        if data.get("version") != self.version:
            raise IllegalAction(
                "bad_version", f"{self.info.title} state version {data.get('version')} is not {self.version}"
            )
        return clone(data)

    # -- helpers the host and the AIs use ------------------------------------------------------------
    def label(self, view: dict[str, Any], action: Action) -> str:
        """A human label for a picker (``forward 4 skull → 11``), computed from a view only."""
        return action

    def group(self, view: dict[str, Any], action: Action) -> str:
        """The picker menu an action belongs in, computed from the acting seat's view; by default the action's
        first word (``forward``, ``back``). A menu too big for one list may name a second level after " › "
        (``ride NE › 2–4 mi``): the picker then offers the second-level names first, in natural order."""
        return action.split(" ", 1)[0]

    #: the action that takes the last step of a plan back (Buccaneer's ``undo``): never joined to that step (``joins``)
    take_back: ClassVar[str | None] = None

    def joins(self, view: dict[str, Any], action: Action) -> bool:
        """Whether a picker offers ``action`` only joined to each action the same seat may take right after it, one
        pick for both (Buccaneer's ``sail n`` with each distance, ``turn`` with each facing): a step that decides
        nothing alone, draws nothing and shows nothing hidden (the host lists what may follow it by playing it on the
        table's state). From the acting seat's view. Default: no."""
        return False

    def follows(self, view: dict[str, Any], seat: int, legal: list[Action]) -> Action | None:
        """The action a picker plays by itself right after its player's pick because it is no choice: the seat's
        only action but ``take_back`` (Buccaneer's ``confirm`` of a finished plan, its ``end`` of a turn with nothing
        left to do). From the seat's own view and legal actions after the pick. Default: none."""
        return None

    def groups(self, view: dict[str, Any], actions: list[Action]) -> list[str]:
        """``group`` of each of ``actions``, in order, from one view: a picker needs every action's menu to lay out
        the page it shows. A game with thousands of actions may answer faster than one ``group`` at a time, but must
        give exactly the same answer."""
        return [self.group(view, a) for a in actions]

    def undoable(self, before: State, seat: int, action: Action) -> bool:
        """Whether ``action`` taken in ``before`` revealed nothing (no draw, nothing hidden shown), so the
        host may let its player take it back within the same turn."""
        return False

    def timeout_action(self, state: State, seat: int) -> Action:
        """The documented default when a seat times out and AI takeover is off: the last legal action
        (games order ``end``/``pass`` last); games override where that is wrong."""
        return self.legal_actions(state, seat)[-1]

    def ai_choose(self, view: dict[str, Any], seat: int, legal: list[Action], level: str, rnd: random.Random) -> Action:
        """An AI seat's choice from its own view and the legal actions, with host-supplied randomness.

        The levels are dispatched here, once for every game: ``easy`` and ``normal`` are the game's own
        :attr:`policies`; ``hard`` is the search (rules/search.py), which samples states from the view and plays
        them out with ``normal``; ``random`` (fuzz tests only) picks uniformly."""
        if level == "hard":
            return search.choose(self, view, seat, legal, rnd)
        if level == "random":
            return rnd.choice(legal)
        policy = self.policies.get(level)
        if policy is None:
            raise ValueError(f"unknown AI level {level!r}; levels: {', '.join(AI_LEVELS)}")
        return policy(view, seat, legal, rnd)

    # -- the hard AI (rules/search.py) ----------------------------------------------------------------
    def sample(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        """A full, legal state that ``seat`` cannot tell from the real one: ``self.view(result, seat) == view``.

        The hidden parts (other hands, pile orders, face-down tiles, the treasure) are drawn with ``rng`` from
        what the view still allows, and the seed and RNG counter are fresh, so the future draws are unknown too.
        A pure function of (view, seat, rng): it never sees a real state. The ``hard`` AI searches over such
        samples; a game without one cannot offer ``hard``."""
        raise NotImplementedError(f"{self.info.id} has no sampler")

    def rollout(self, state: State) -> rollout.Rollout:
        """The ``hard`` search's playout of a sampled ``state`` it owns (rules/rollout.py): by default the contract
        with every seat at ``normal``; a game returns its own (``rules/<game>/rollout.py``), which plays the same game
        in place with a cheaper policy, checked against this engine by tests/ai/test_rollouts.py."""
        return rollout.Rollout(self, state)

    def evaluate(self, state: State, seat: int) -> float:
        """The seat's chance to win, in [0, 1], from a (sampled) state that is not over: how the search scores a
        rollout cut off at :attr:`search_horizon`. By default the seat's fair share; a game's own evaluation (its
        ``evaluate.py``) reads the lead it can measure, usually through :func:`logistic`."""
        return 1.0 / max(1, self.seat_count(state))

    def private_summary(self, view: dict[str, Any], seat: int) -> str:
        """A few readable lines of what only ``seat`` knows (its hand, its hints, its secret map), written from
        ``view(state, seat)``, for DMs and ``/hand``. Empty when the seat holds nothing secret."""
        return ""

    # -- the table's voice (issue 12): every method below reads a view only -------------------------------
    def owed(self, view: dict[str, Any], seat: int) -> str:
        """What ``seat`` must do now, in the game's words ("choose your home port", "plan your card"), from the
        PUBLIC view (it is said in the channel, so it never names a secret). Only asked of seats in ``to_act``."""
        return "take your turn"

    def seat_name(self, view: dict[str, Any], seat: int) -> str:
        """The game's current name for ``seat`` from the public view (colour, home port once chosen, crew or
        characters); "" when it has none. The host writes a seat as "<player> (<seat name>)" everywhere."""
        names = self.info.seat_names
        return names[seat] if seat < len(names) else ""

    def describe(self, view: dict[str, Any], action: Action) -> str:
        """At most 100 characters saying what ``action`` does when it plays or chooses a card
        ("S5 Pacing Off: move 5 paces in any direction"); "" for an action that involves no card."""
        return ""

    def secrets(self, state: State) -> list[str]:
        """Strings that must never appear in public output for this state (for leak tests); optional."""
        return []


def logistic(x: float) -> float:
    """A lead measured in "typical swings" as a win chance in (0, 1): 0.5 level, clamped so it never overflows."""
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def canonical_json(data: Any) -> str:
    """One byte-stable JSON text of a state (sorted keys, no spaces), for comparing and storing."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
