"""The text pieces: private summaries, clipping, durations, replay sampling."""

from __future__ import annotations

import io

from PIL import Image

from bot.host.outputs import clip, duration, escape_name, fold_repeats, private_part, private_text
from bot.infra.replay import gif, sample
from tests.host import toygame


def test_private_part_keeps_only_the_secret_leaves() -> None:
    public = {"hands": {"0": {"count": 2}, "1": {"count": 1}}, "turn": 0}
    mine = {"hands": {"0": {"count": 2, "cards": {"key": 2}}, "1": {"count": 1}}, "turn": 0, "viewer": 0}
    assert private_part(public, mine) == {"hands 0 cards": {"key": 2}, "viewer": 0}
    assert private_text(public, mine) == "**hands cards**: key ×2"


def test_private_text_prefers_the_games_own_summary_and_skips_empty_fields() -> None:
    assert private_text({}, {"you": {"seat": 1, "text": "Hand: B3 R1", "hand": {"b3": 1}}}) == "Hand: B3 R1"
    text = private_text({}, {"private": {"seat": 0, "maps": [], "plan": None, "minis": ["jim", "ben"]}})
    assert text == "**minis**: jim, ben"
    long = private_text({}, {"secret": "x" * 500})
    assert len(long) <= 200 and long.endswith("…")


def test_clip_keeps_the_newest_lines_and_cuts_a_single_long_line() -> None:
    text = "\n".join(f"line {i}" for i in range(1000))
    cut = clip(text, 200)
    assert len(cut) <= 200 and cut.startswith("… (") and cut.endswith("line 999")
    assert len(clip("y" * 5000, 100)) == 100
    assert clip("short") == "short"


def test_duration_reads_well() -> None:
    assert (duration(86400), duration(5400), duration(600), duration(12)) == ("24 h", "1 h 30 min", "10 min", "12 s")


def test_replay_sampling_and_gif() -> None:
    assert sample(list(range(10)), 4) == [0, 3, 6, 9]
    assert sample([1, 2], 60) == [1, 2]
    game = toygame.GAME
    state = game.new(2, None, "s")
    frames = [toygame.render(game.view(state, None)), toygame.render({**game.view(state, None), "pile": 5})]
    img = Image.open(io.BytesIO(gif(frames.__getitem__, len(frames))))
    assert img.format == "GIF" and img.n_frames == 2


def test_narrate_names_the_true_actor_never_whoever_set_it_off() -> None:
    """Issue 12: "Ben (Red): Black takes rum:2 from C3" (Red's reveal finished Black's move) and "carol (seat 3):
    Drawn: Swashbuckler" must not happen: a line is credited to its own actor, automatic steps to nobody."""
    from bot.host.outputs import narrate
    from rules import registry
    from rules.core import Event

    game = registry.get("martinique")  # seats Black, Red
    view = {"step": "turn"}
    who = {0: "Ana (Black)", 1: "Ben (Red)"}.__getitem__
    player = {0: "Ana", 1: "Ben"}.__getitem__
    events = [
        Event("Red reveals map tile C (passed at A2).", actor=1),
        Event("Black takes rum:2 from C3.", actor=0),
        Event("chest2 refilled: rum:3 parrot:1.", actor="game"),
        Event("Black's pirate ends on A3.", {0: "Your map tile is C."}),
    ]
    lines = narrate(game, [view, view], events, who, player)
    assert lines == [
        "Ben (Red) reveals map tile C (passed at A2).",
        "Ana (Black) takes rum:2 from C3.",
        "chest2 refilled: rum:3 parrot:1.",
        "Black's pirate ends on A3.",
    ]
    flagon = registry.get("flagon")
    fview = {"chars": [{"seat": 3, "crew": "west", "name": "", "idx": 0}], "crews": {"west": {"name": "Gulls"}}}
    picked = narrate(flagon, [fview, fview], [Event("Seat 4 picks the Wizard for the Gulls.", actor=3)],
                     lambda s: "Dan (Gulls)", lambda s: "Dan")  # fmt: skip
    assert picked == ["Dan picks the Wizard for the Gulls."]
    ti = registry.get("treasure_island")
    tview = {"silver_seat": 1, "players": [{"minis": ["jim", "olivier"]}, {"minis": []}]}
    searched = narrate(ti, [tview, tview], [Event("Olivier Levasseur searches (4,5): nothing.", actor=0)],
                       lambda s: "Cy (Jim Hawkins & Olivier Levasseur)", lambda s: "Cy")  # fmt: skip
    assert searched == ["Cy (Olivier Levasseur) searches (4,5): nothing."]
    # a step with nothing public adds nothing (issue 28): never a vague "Ben (Red) acted."
    assert narrate(game, [view, view], [Event(None, {1: "secret"}, actor=1)], who, player) == []


def test_narrate_tells_the_seat_of_a_single_reader_in_the_second_person() -> None:
    """Issue 28: the terminal's "You (Red) plays …", "You takes London as home port", "You has planned for the
    Wizard." read "You play …", "You take …", "You have planned …"; a channel still reads the third person."""
    from bot.host.outputs import narrate, second_person
    from rules import registry
    from rules.core import Event

    game = registry.get("cartagena")  # seats Red, Blue
    view: dict = {}
    who = {0: "You (Red)", 1: "Bo (Blue)"}.__getitem__
    player = {0: "You", 1: "Bo"}.__getitem__
    events = [
        Event("Red plays skull: pirate START → 1.", actor=0),
        Event("Red moves a pirate back 21 → 18 and draws 1 card.", actor=0),
        Event("Red's sixth pirate boards the sloop. Red escapes and wins!", actor=0),
        Event("Blue plays key: pirate 3 → 5.", actor=1),
        Event("Red's turn ends (3 actions).", actor="game"),
    ]
    assert narrate(game, [view, view], events, who, player, you=lambda s: s == 0) == [
        "You play skull: pirate START → 1.",
        "You move a pirate back 21 → 18 and draw 1 card.",
        "Your sixth pirate boards the sloop. Red escapes and wins!",
        "Bo (Blue) plays key: pirate 3 → 5.",
        "Red's turn ends (3 actions).",
    ]
    assert narrate(game, [view, view], events[:1], who, player) == ["You (Red) plays skull: pirate START → 1."]
    flagon = registry.get("flagon")
    fview = {"chars": [{"seat": 0, "crew": "west", "name": "", "idx": 0}], "crews": {"west": {"name": "Gulls"}}}
    assert narrate(flagon, [fview, fview], [Event("Seat 1 has planned for the Wizard.", actor=0)],
                   lambda s: "You (Gulls)", lambda s: "You", you=lambda s: True) == [  # fmt: skip
        "You have planned for the Wizard."
    ]
    ti = registry.get("treasure_island")
    tview = {"silver_seat": 1, "players": [{"minis": ["jim", "olivier"]}, {"minis": []}]}
    searched = narrate(ti, [tview, tview], [Event("Olivier Levasseur searches (4,5) and strikes the chest!", actor=0)],
                       lambda s: "You (Jim Hawkins & Olivier Levasseur)", lambda s: "You", you=lambda s: True)  # fmt: skip
    assert searched == ["You (Olivier Levasseur) search (4,5) and strike the chest!"]
    assert second_person(" takes London as home port") == " take London as home port"
    assert second_person(" at Marseilles gives B1, gets pearl") == " at Marseilles give B1, get pearl"
    assert second_person(" buries 1 crew and passes.") == " bury 1 crew and pass."
    assert second_person(" ends its turn") == " end your turn"
    # a card named with a verb-like word stays as it is; later sentences have their own subject
    assert second_person(" draws chance card 18, Treasure and recruits") == " draw chance card 18, Treasure and recruits"
    assert second_person(" has no pirates left; Black plays again.") == " have no pirates left; Black plays again."
    from bot.host.outputs import outcome_text
    from rules.core import Outcome

    won = Outcome((0,), "escaped")
    assert outcome_text(game, won, ["You (Red)", "Bo (Blue)"], you=[0]).startswith("🏆 **You** win (escaped).")
    assert outcome_text(game, won, ["You (Red)", "Bo (Blue)"]).startswith("🏆 **You (Red)** wins (escaped).")


def test_private_news_skips_a_seats_echo_of_its_own_choice_only() -> None:
    from bot.host.outputs import private_news
    from rules.core import Event

    events = [
        Event(None, {0: "You chose S3 Long Walk."}, actor=0),  # Silver's own choice: old news to him
        Event("Long John Silver shows a Compass Hint.", {1: "Compass at (4,5)…"}, actor=0),  # news to seat 1
        Event("Red draws 2 cards.", {0: "You draw key, hat."}, actor=0),  # news although seat 0 moved
    ]
    assert private_news(events, 0, chosen_by_player=True) == {1: ["Compass at (4,5)…"], 0: ["You draw key, hat."]}
    # a move the AI took for a timed-out player: their own choices are news to them too
    assert private_news(events, 0, chosen_by_player=False)[0][0] == "You chose S3 Long Walk."


def test_prompts_say_what_is_owed_and_list_every_seat_of_a_simultaneous_phase() -> None:
    from bot.host.posts import prompt_line
    from rules import registry

    flagon = registry.get("flagon")
    view = {
        "phase": "plan",
        "chars": [
            {"idx": 0, "seat": 0, "name": "Monk", "owed": 1},
            {"idx": 1, "seat": 1, "name": "Rogue", "owed": 2},
            {"idx": 2, "seat": 0, "name": "Wizard", "owed": 0},
        ],
    }
    names = {0: "Ana", 1: "Bo"}
    line = prompt_line(flagon, view, [0, 1], lambda s: f"{names[s]} ({flagon.seat_name(view, s)})")
    assert line == "▶ Plan your cards in secret — waiting for: Ana (Monk), Bo (Rogue)."
    bucc = registry.get("buccaneer")
    view = {"awaiting": {"kind": "PORT_CHOICE"}, "players": [{"harbour": None}]}
    assert prompt_line(bucc, view, [0], lambda s: "Ana") == "▶ Ana: choose your home port."


def test_repeated_lines_in_a_row_are_told_once_with_a_count() -> None:
    planned = "Bo has planned for the Monk."
    assert fold_repeats(["A moved.", planned, planned, "Cy dug.", planned]) == [
        "A moved.",
        f"{planned} (×2)",
        "Cy dug.",
        planned,
    ]
    assert fold_repeats([]) == []


def test_escape_name_shows_a_name_as_written_never_as_markdown_or_a_mention() -> None:
    assert escape_name("ana") == "ana" and escape_name("AI 1 (hard, 3 s)") == "AI 1 (hard, 3 s)"
    assert escape_name("@everyone <@&77> **B** ||x||") == "@\u200beveryone \\<@\u200b&77> \\*\\*B\\*\\* \\|\\|x\\|\\|"
    assert escape_name("__u__ ~~s~~ `c` [l](https://x.y) \\") == (
        "\\_\\_u\\_\\_ \\~\\~s\\~\\~ \\`c\\` \\[l\\](https://x.y) \\\\"
    )
    # a name may begin a line: nothing that is markdown only there (a heading, subtext, a quote, a list)
    for name, shown in (("# Big", "\\# Big"), ("-# small", "\\-# small"), ("> q", "\\> q"), ("1. x", "1\\. x")):
        assert escape_name(name) == shown
    assert escape_name("two\nlines\x00") == "two lines" and escape_name("@here") == "@\u200bhere"
    assert escape_name("</cmd:1> <t:1> <:e:1> <#9>") == "\\</cmd:1> \\<t:1> \\<:e:1> \\<#\u200b9>"
