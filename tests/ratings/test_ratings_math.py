"""Ratings, the pure part (bot/host/ratings.py): each game's outcome as sides and places, and the numbers, which
must be openskill's own (Plackett–Luce, default parameters) for small worked cases."""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuce

from bot.host import ratings
from rules import playout, registry
from rules.core import Outcome

ALICE, BOB, CARL, DORA = (1, 11, "alice"), (2, 12, "bob"), (3, 13, "carl"), (4, 14, "dora")


def seats(*people: tuple[int, int, str], ai: dict[int, str] | None = None) -> list:
    rows = [(i, uid, name, None, False) for i, (_, uid, name) in enumerate(people)]
    for seat, level in (ai or {}).items():
        rows.append((seat, None, f"AI {seat}", level, False))
    return sorted(rows)


def game(outcome: Outcome, rows: list, game_id: str = "toy") -> ratings.RatedGame:
    g = ratings.rated_game(table_id=1, guild_id=5, game_id=game_id, finished=1.0, seats=rows, outcome=outcome)
    assert g is not None
    return g


def mus(changes: list[ratings.Change]) -> list[tuple[float, float]]:
    return [(c.after.mu, c.after.sigma) for c in changes]


def test_two_players_match_a_hand_worked_plackett_luce_update_and_openskill() -> None:
    changes, new = ratings.rate(game(Outcome((0,), "won"), seats(ALICE, BOB)), {})
    # by hand, Weng & Lin (2011) algorithm 4 with openskill's defaults: σ² grows by τ² first; c² = Σ(σ² + β²)
    mu, beta, tau = 25.0, 25.0 / 6, 25.0 / 300
    s2 = (25.0 / 3) ** 2 + tau**2
    c = math.sqrt(2 * (s2 + beta**2))
    p = 0.5  # equal μ: each is first with probability 1/2
    delta = s2 / c * (1 - p)
    gamma = math.sqrt(s2) / c
    eta = gamma * s2 / c**2 * p * (1 - p)
    sigma = math.sqrt(s2 * max(1 - eta, 1e-4))
    assert changes[0].after.mu == pytest.approx(mu + delta, abs=1e-9)
    assert changes[1].after.mu == pytest.approx(mu - delta, abs=1e-9)
    assert changes[0].after.sigma == pytest.approx(sigma, abs=1e-9)
    # and openskill's own numbers, from a fresh model, to the last digit
    model = PlackettLuce()
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert mus(changes) == [(a.mu, a.sigma), (b.mu, b.sigma)]
    assert (round(a.mu, 1), round(b.mu, 1)) == (27.6, 22.4)
    assert new["11"].games == new["12"].games == 1
    assert ratings.change_line(changes) == "Ratings: alice 25.0 → 27.6, bob 25.0 → 22.4"


def test_three_players_with_a_tie_for_second_from_earlier_ratings() -> None:
    before = {
        "11": ratings.Rating(30.0, 6.0, 4),
        "12": ratings.Rating(22.0, 7.5, 2),
        "13": ratings.Rating(25.0, 25.0 / 3, 0),
    }
    rated = game(Outcome((2,), "won", places=(2, 2, 1)), seats(ALICE, BOB, CARL))
    assert [(e.team, e.place) for e in rated.entries] == [(0, 2), (1, 2), (2, 1)]
    changes, new = ratings.rate(rated, before)
    model = PlackettLuce()
    want = model.rate(
        [[model.rating(mu=30.0, sigma=6.0)], [model.rating(mu=22.0, sigma=7.5)], [model.rating()]], ranks=[2, 2, 1]
    )
    assert mus(changes) == [(t[0].mu, t[0].sigma) for t in want]
    assert [new[p].games for p in ("11", "12", "13")] == [5, 3, 1]
    assert changes[2].after.mu > 25.0 and changes[0].after.mu < 30.0


def test_two_teams_of_two_as_flagon_crews() -> None:
    outcome = Outcome((1, 3), "navy", teams=((0, 2), (1, 3)), places=(2, 1))
    changes, _ = ratings.rate(game(outcome, seats(ALICE, BOB, CARL, DORA)), {"11": ratings.Rating(28.0, 5.0, 9)})
    model = PlackettLuce()
    [[a, c], [b, d]] = model.rate(
        [[model.rating(mu=28.0, sigma=5.0), model.rating()], [model.rating(), model.rating()]], ranks=[2, 1]
    )
    assert mus(changes) == [(a.mu, a.sigma), (b.mu, b.sigma), (c.mu, c.sigma), (d.mu, d.sigma)]


def test_without_places_the_winners_come_first_and_a_game_without_winners_is_not_rated() -> None:
    rated = game(Outcome((1,), "won"), seats(ALICE, BOB, CARL))
    assert [e.place for e in rated.entries] == [2, 1, 2]
    rows = seats(ALICE, BOB)
    assert ratings.rated_game(table_id=1, guild_id=5, game_id="toy", finished=1.0, seats=rows, outcome=None) is None
    stall = Outcome((), "stall")
    assert ratings.rated_game(table_id=1, guild_id=5, game_id="toy", finished=1.0, seats=rows, outcome=stall) is None


def test_ai_levels_are_players_and_a_player_who_left_is_rated_for_the_seat() -> None:
    rows = [(0, 11, "alice", "normal", True), (1, None, "AI 1", "easy", False), (2, None, "AI 2", "easy", False)]
    rated = game(Outcome((1,), "won"), rows)
    assert [(e.player, e.user_id, e.name) for e in rated.entries] == [
        ("11", 11, "alice"),
        ("ai:easy", None, "Parley AI · easy"),
        ("ai:easy", None, "Parley AI · easy"),
    ]
    changes, new = ratings.rate(rated, {})
    # two seats of one level: rated once per seat from the same prior, the mean kept, one game counted
    model = PlackettLuce()
    [[a], [e1], [e2]] = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[2, 1, 2])
    assert new["ai:easy"].mu == pytest.approx((e1.mu + e2.mu) / 2) and new["ai:easy"].games == 1
    assert changes[0].after.mu == a.mu
    assert (
        ratings.change_line(changes)
        == f"Ratings: alice 25.0 → {a.mu:.1f}, Parley AI · easy 25.0 → {new['ai:easy'].mu:.1f}"
    )


def test_an_ai_level_playing_only_itself_is_not_rated() -> None:
    rows = [(0, None, "AI 0", "normal", False), (1, None, "AI 1", "normal", False)]
    assert (
        ratings.rated_game(table_id=1, guild_id=5, game_id="toy", finished=1.0, seats=rows, outcome=Outcome((0,), "x"))
        is None
    )


def test_a_lone_side_is_not_rated() -> None:
    rows = [(0, None, "AI", "easy", False), (1, None, "", None, False)]
    assert (
        ratings.rated_game(table_id=1, guild_id=5, game_id="toy", finished=1.0, seats=rows, outcome=Outcome((0,), "x"))
        is None
    )


def test_replay_equals_rating_one_game_at_a_time() -> None:
    games = [
        ratings.RatedGame(i, 5, "toy", float(i), game(Outcome((i % 3,), "won"), seats(ALICE, BOB, CARL)).entries)
        for i in range(6)
    ]
    current: dict[str, ratings.Rating] = {}
    for g in games:
        _, new = ratings.rate(g, current)
        current.update(new)
    assert ratings.replay(games) == {(5, "toy", p): r for p, r in current.items()}


# -- each game's outcome as sides and places (docs/games/<game>.md, "Ratings") -------------------------------
def outcome_of(game_id: str, state: dict) -> Outcome:
    out = registry.get(game_id).outcome(state)
    assert out is not None
    return out


def sides(out: Outcome, n: int) -> list[tuple[tuple[int, ...], int]] | None:
    return ratings.sides(out, n)


@pytest.mark.parametrize(
    ("winners", "traitor", "want"),
    [
        # Silver (seat 0) escapes to the gold: he and his traitor share the win; each other pirate lost alone
        ([0, 2], 2, [((0, 2), 1), ((1,), 2), ((3,), 2)]),
        # a pirate finds it: he alone wins; Silver and his traitor lost together, like the other pirate
        ([1], 2, [((0, 2), 2), ((1,), 1), ((3,), 2)]),
        # the traitor finds it himself: he wins alone, against Silver
        ([2], 2, [((0,), 2), ((1,), 2), ((2,), 1), ((3,), 2)]),
        ([0], None, [((0,), 1), ((1,), 2), ((2,), 2), ((3,), 2)]),
    ],
)
def test_treasure_island_sides(winners: list[int], traitor: int | None, want: list) -> None:
    state = {"outcome": {"winners": winners, "reason": "x"}, "n": 4, "silver": 0, "traitor": traitor}
    got = sides(outcome_of("treasure_island", state), 4)
    assert got is not None and sorted(got) == sorted(want)


def test_treasure_island_round_cap_is_not_rated() -> None:
    state = {"outcome": {"winners": [], "reason": "provisions"}, "n": 3, "silver": 1, "traitor": None}
    assert sides(outcome_of("treasure_island", state), 3) is None


def test_cartagena_winner_first_the_rest_tied() -> None:
    state = {"result": {"winners": [2], "reason": "sloop", "ranking": [[2, 6], [0, 4], [1, 1]]}}
    assert sides(outcome_of("cartagena", state), 3) == [((0,), 2), ((1,), 2), ((2,), 1)]


def martinique_state(totals: tuple[int, int], winners: list[int]) -> dict:
    return {
        "result": {"winners": winners, "reason": "x", "scores": {str(i): {"total": t} for i, t in enumerate(totals)}}
    }


def test_martinique_a_tie_is_a_draw() -> None:
    assert sides(outcome_of("martinique", martinique_state((30, 30), [])), 2) == [((0,), 1), ((1,), 1)]
    assert sides(outcome_of("martinique", martinique_state((20, 31), [1])), 2) == [((0,), 2), ((1,), 1)]


def test_buccaneer_ranked_by_treasure_landed_even_at_the_round_limit() -> None:
    won = {"winners": [1], "reason": "landed_20", "scores": [12, 21, 12, 3], "ranking": [1, 0, 2, 3]}
    assert sides(outcome_of("buccaneer", {"outcome": won}), 4) == [((0,), 2), ((1,), 1), ((2,), 2), ((3,), 4)]
    limit = {"winners": [], "reason": "round_limit", "scores": [5, 9, 0], "ranking": [1, 0, 2]}
    assert sides(outcome_of("buccaneer", {"outcome": limit}), 3) == [((0,), 2), ((1,), 1), ((2,), 3)]


def flagon_state(crews: dict[str, list[int]], totals: dict[str, int], winners: list[int], tavern: bool) -> dict:
    scores = {c: {"total": t, "chests": 0, "rep": t} for c, t in totals.items()}
    return {
        "phase": "over",
        "players": sum(len(s) for s in crews.values()),
        "crews": crews,
        "map": "tavern" if tavern else "ships",
        "result": {"winners": winners, "scores": scores},
    }


def test_flagon_crews_are_teams_and_the_tavern_is_a_free_for_all() -> None:
    ships = flagon_state({"a": [0, 2], "b": [1, 3]}, {"a": 14, "b": 9}, [0, 2], tavern=False)
    assert sides(outcome_of("flagon", ships), 4) == [((0, 2), 1), ((1, 3), 2)]
    tavern = flagon_state({"p0": [0], "p1": [1], "p2": [2]}, {"p0": 5, "p1": 8, "p2": 8}, [2], tavern=True)
    # p2 holds the Flagon: it wins the tie for first; p1 is second, p0 third
    assert sides(outcome_of("flagon", tavern), 3) == [((0,), 3), ((1,), 2), ((2,), 1)]


def test_outcome_round_trips_its_rating_fields() -> None:
    out = Outcome((1,), "x", (1.0, 2.0), (1, 0), teams=((0,), (1,)), places=(2, 1))
    assert Outcome.from_json(out.to_json()) == out
    assert Outcome.from_json({"winners": [0], "reason": "x"}) == Outcome((0,), "x")


# -- whole games: every game's real outcomes give well-formed sides -----------------------------------------
@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [
        ("cartagena", 4, {}),
        ("buccaneer", 3, {"round_limit": "50"}),
        ("martinique", 2, {}),
        ("treasure_island", 4, {}),
        ("flagon", 4, {"length": "short"}),
        ("flagon", 3, {"length": "short", "map": "tavern"}),
    ],
)
def test_seeded_games_end_with_every_seat_on_one_side_and_the_winners_first(
    game_id: str, players: int, options: dict[str, str]
) -> None:
    game = registry.get(game_id)
    for seed in ("r1", "r2"):
        state, _ = playout.play(game, players, options, seed, playout.ai_chooser(["easy"] * players, seed))
        out = playout.final_outcome(game, state)
        ranked = ratings.sides(out, players)
        if ranked is None:  # only a game its rules rank nobody in
            assert game_id == "treasure_island" and out.reason == "provisions", out
            continue
        seats = sorted(s for team, _ in ranked for s in team)
        assert seats == list(range(players)), out
        first = {s for team, place in ranked if place == 1 for s in team}
        assert set(out.winners) <= first and (not out.winners or first <= set(out.winners)), out
        if game_id == "flagon" and options.get("map") != "tavern":
            assert any(len(team) > 1 for team, _ in ranked), out  # crews are sides
