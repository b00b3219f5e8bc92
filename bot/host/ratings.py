"""Skill ratings: a finished game's outcome turned into openskill sides and places, and the new ratings.

Pure: no database, no Discord. The store reads the current ratings, calls :func:`rate` (handed to it as
:data:`RATER`) inside the transaction of the game-ending move and writes what it returns, so a game is never
finished without its rating update. The records (:class:`Rating`, :class:`Change`, ...) are the store's rows.

The model is openskill's Plackett–Luce (Weng–Lin Bayesian ratings) with its default parameters: every rating
starts at μ = 25, σ = 25/3, and tables rank players by the conservative rating μ − 3σ. One rating exists per
server, game and player; a player is a Discord user, or an AI level ("Parley AI · normal"), so people can see
how they measure up against each level.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

from bot.host.outputs import escape_name
from bot.infra.store.rows import Change, Entry, RatedGame, Rater, Rating
from rules.core import Outcome

#: the one model of the whole bot: ratings computed with other parameters would not be comparable
MODEL = PlackettLuce()
#: games a player needs before a leaderboard lists them: the first few leave σ too wide to mean much
MIN_GAMES = 3
AI_PREFIX = "ai:"

DEFAULT = Rating(MODEL.mu, MODEL.sigma, 0)


def ai_player(level: str) -> str:
    return f"{AI_PREFIX}{level}"


def ai_name(level: str) -> str:
    return f"Parley AI · {level}"


def seat_player(user_id: int | None, name: str, ai_level: str | None, vacated: bool) -> tuple[str, int | None, str]:
    """``(key, user id, display name)`` of whoever a seat is rated for, or ``("", None, "")`` for nobody.

    A player who left stays rated for the seat they left (the AI that finished it played in their name), so
    leaving a losing game does not dodge the loss; a seat an AI held from the start rates that AI level.
    """
    if user_id is not None and (ai_level is None or vacated):
        return str(user_id), user_id, name
    if ai_level is not None:
        return ai_player(ai_level), None, ai_name(ai_level)
    return "", None, ""


def sides(outcome: Outcome, seats: int) -> list[tuple[tuple[int, ...], int]] | None:
    """``[(seats, place)]`` of a finished game, or None when it is not rated.

    The game says so in its outcome (``teams`` and ``places``); without ``places`` the winners come first and
    everyone else is tied second, and a game with no winner (a stall, a round limit) ranks nobody.
    """
    teams = outcome.teams if outcome.teams is not None else tuple((s,) for s in range(seats))
    if outcome.places is not None:
        places = tuple(outcome.places)
    elif outcome.winners:
        places = tuple(1 if any(s in outcome.winners for s in team) else 2 for team in teams)
    else:
        return None
    out = [(tuple(team), int(place)) for team, place in zip(teams, places, strict=True) if team]
    return out if len(out) >= 2 else None


def rated_game(
    *,
    table_id: int,
    guild_id: int,
    game_id: str,
    finished: float,
    seats: Sequence[tuple[int, int | None, str, str | None, bool]],
    outcome: Outcome | None,
) -> RatedGame | None:
    """The rating input of a finished table; ``seats`` are ``(seat, user id, name, AI level, vacated)``.

    None when nothing is rated: no outcome, a game its rules rank nobody in, fewer than two sides with
    someone to rate, or a single player in every rated seat.
    """
    if outcome is None:
        return None
    ranked = sides(outcome, len(seats))
    if ranked is None:
        return None
    by_seat = {s[0]: s for s in seats}
    entries: list[Entry] = []
    teams_seen: set[int] = set()
    for team, (members, place) in enumerate(ranked):
        for seat in members:
            row = by_seat.get(seat)
            if row is None:
                continue
            player, user_id, name = seat_player(row[1], row[2], row[3], row[4])
            if player:
                entries.append(Entry(seat, player, user_id, name, team, place))
                teams_seen.add(team)
    if len(teams_seen) < 2 or len({e.player for e in entries}) < 2:
        # one side, or one player on every side (an AI level playing only itself): nothing is learnt
        return None
    return RatedGame(table_id, guild_id, game_id, finished, tuple(sorted(entries, key=lambda e: e.seat)))


def rate(game: RatedGame, current: Mapping[str, Rating]) -> tuple[list[Change], dict[str, Rating]]:
    """Rate one game: the per-seat changes and every player's new rating.

    ``current`` holds the players' ratings before the game (a missing player starts at the default). The
    sides and places go to openskill as they are. A player who holds several seats of one game (three
    ``normal`` AIs at one table) is rated once per seat from the same prior, and their new rating is the
    mean of those results: the game counts once, and no seat's result is lost.
    """
    teams: dict[int, list[Entry]] = {}
    for e in game.entries:
        teams.setdefault(e.team, []).append(e)
    order = sorted(teams)
    prior = {p: current.get(p, DEFAULT) for p in game.players}
    rated = MODEL.rate(
        [[MODEL.rating(mu=prior[e.player].mu, sigma=prior[e.player].sigma) for e in teams[t]] for t in order],
        ranks=[float(teams[t][0].place) for t in order],
    )
    results: dict[str, list[tuple[float, float]]] = {}
    for t, new_team in zip(order, rated, strict=True):
        for e, r in zip(teams[t], new_team, strict=True):
            results.setdefault(e.player, []).append((r.mu, r.sigma))
    new = {
        p: Rating(
            sum(mu for mu, _ in rs) / len(rs),
            sum(sigma for _, sigma in rs) / len(rs),
            prior[p].games + 1,
        )
        for p, rs in results.items()
    }
    changes = [Change(e.seat, e.player, e.user_id, e.name, prior[e.player], new[e.player]) for e in game.entries]
    return changes, new


#: the model as the store applies it inside a commit (bot/infra/store/ratings.py)
RATER = Rater(DEFAULT, rate)


def replay(games: Sequence[RatedGame]) -> dict[tuple[int, str, str], Rating]:
    """Every rating from scratch: ``{(guild, game, player): rating}`` after ``games`` in the order given."""
    ratings: dict[tuple[int, str, str], Rating] = {}
    for g in games:
        current = {p: ratings[(g.guild_id, g.game_id, p)] for p in g.players if (g.guild_id, g.game_id, p) in ratings}
        _, new = rate(g, current)
        for p, r in new.items():
            ratings[(g.guild_id, g.game_id, p)] = r
    return ratings


def change_line(changes: Sequence[Change]) -> str:
    """The end-of-game line: "Ratings: alice 24.8 → 26.1, Parley AI · easy 25.0 → 23.9" (μ, one per player)."""
    seen: set[str] = set()
    parts: list[str] = []
    for c in changes:
        if c.player in seen:
            continue
        seen.add(c.player)
        parts.append(f"{escape_name(c.name)} {c.before.mu:.1f} → {c.after.mu:.1f}")
    return "Ratings: " + ", ".join(parts) if parts else ""
