"""The table's voice at the host: refusals (one reason, one short list, nearest first, nothing twice, the picker's
order) and confirmations that echo the chosen label."""

from __future__ import annotations

import re

from bot.host.api import Choice, menu_order
from bot.host.refusals import allowed, refusal, why
from bot.host.turns import confirmation


def ride_table() -> list[Choice]:
    """Buccaneer-like: a handful of small menus and a ride menu of thousands of targets."""
    rides = [Choice(f"ride {d} {n}", f"ride {d} {n}", f"ride › {d}") for d in ("ne", "sw") for n in range(1258)]
    small = [Choice("place a1", "place a1", "place"), Choice("place a2", "place a2", "place")]
    return menu_order([*small, *rides, Choice("end", "end", "end")])


def named(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def test_the_engines_own_list_is_cut_and_the_reason_is_one_sentence() -> None:
    assert why("`x` is not possible now; choose one of: a, b, c.") == "`x` is not possible now."
    assert why("'x' is not allowed now. Choose one of: a, b.") == "'x' is not allowed now."
    assert why("'x' is not a Cartagena action; say e.g. `a`, `b` or `c`.") == "'x' is not a Cartagena action."
    assert why("Not your move") == "Not your move."


def test_a_refusal_lists_the_typed_verbs_actions_first_and_no_action_twice() -> None:
    choices = ride_table()
    text = refusal("`ride ne 9999` is not possible here; choose one of: place a1, place a2, ride ne 0.", choices,
                   "ride ne 9999")
    reason, listed = text.split("\n")
    assert "choose one of" not in text.lower() and "You can play" not in reason
    items = named(listed)
    # the typed words' actions first: how they are typed and how many, never a sample of thousands
    assert items[:2] == ["ride ne 0", "ride ne …"] and "`ride ne 0` and 1257 more `ride ne …`" in listed
    assert "2510 more" not in listed
    actions = [i for i in items if not i.endswith("…")]
    assert len(actions) == len(set(actions))  # nothing twice
    assert "`ride sw 0` and 1257 more `ride …`" in listed and "`place a1`, `place a2`" in listed and "`end`" in listed
    assert len(text) < 400


def test_a_misspelt_verb_finds_the_nearest_and_nonsense_lists_the_menus_in_order() -> None:
    choices = ride_table()
    assert named(allowed(choices, "plaec b7"))[:2] == ["place a1", "place a2"]
    assert named(allowed(choices, "placea2"))[0] == "place a2"  # typed without its space
    menus = named(allowed(choices, "fly to the moon"))
    assert menus == ["place a1", "place a2", "ride ne 0", "ride …", "end"]  # the picker's order, a big menu counted


def test_a_confirmation_echoes_the_label_and_the_canonical_text_in_small_print() -> None:
    assert confirmation("N 6 → O14", "go 6") == "Played: N 6 → O14\n-# `go 6`"
    assert confirmation("end", "end") == "Played `end`."
