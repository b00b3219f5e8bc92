"""The action picker is built generically from host.choices: one menu per group, at most 25 options a menu,
four menus a page with Prev/Next, and big groups split into ranges that open a second level."""

from __future__ import annotations

import pytest

from bot.host.api import menu_order
from bot.host.tables import Choice
from bot.transports.discord.views import MENU_SIZE, menus_for, page_count, picker_view, run_view
from tests.discord.conftest import World, answer, selects


def choices(groups: dict[str, int]) -> list[Choice]:
    return [Choice(f"{g} {i}", f"{g} number {i}", g) for g, n in groups.items() for i in range(n)]


def check_discord_limits(view) -> None:  # type: ignore[no-untyped-def]
    payload = view.to_components()
    assert len(payload) <= 5
    for row in payload:
        for item in row["components"]:
            assert len(item["custom_id"]) <= 100
            for option in item.get("options", []):
                assert len(option["label"]) <= 100 and len(option["value"]) <= 100
            assert len(item.get("options", [])) <= MENU_SIZE


def test_small_groups_make_one_menu_each_on_one_page() -> None:
    cs = choices({"forward": 6, "back": 3, "end": 1})
    menus = menus_for(cs)
    assert [m.title for m in menus] == ["forward", "back", "end"]
    assert [len(m.entries) for m in menus] == [6, 3, 1]
    view = picker_view(7, 3, cs)
    check_discord_limits(view)
    assert [type(c).__name__ for c in view.children] == ["PickSelect"] * 3


def test_many_groups_are_paged_with_prev_and_next() -> None:
    cs = choices({f"g{i}": 2 for i in range(9)})
    menus = menus_for(cs)
    assert page_count(menus) == 3
    first = picker_view(1, 0, cs, page=0)
    check_discord_limits(first)
    buttons = [c for c in first.children if type(c).__name__ == "PageButton"]
    assert [b.item.label for b in buttons] == ["◀ Prev", "Next ▶"]
    assert buttons[0].item.disabled and not buttons[1].item.disabled
    last = picker_view(1, 0, cs, page=2)
    assert len([c for c in last.children if type(c).__name__ == "PickSelect"]) == 1


@pytest.mark.parametrize("n", [26, 60, 625, 700, 51])
def test_a_big_group_becomes_ranges_with_a_second_level(n: int) -> None:
    cs = choices({"move": n})
    menus = menus_for(cs)
    entries = [e for m in menus for e in m.entries]
    # every run of 25 opens a second level; a last run of one action is that action itself
    assert all(e.value.startswith("r") for e in entries if n % MENU_SIZE != 1 or e is not entries[-1])
    assert len(entries) == -(-n // MENU_SIZE)
    covered = []
    for e in entries:
        if e.value.startswith("a"):
            covered.append(int(e.value[1:]))
            continue
        start, end = (int(x) for x in e.value[1:].split("-"))
        covered += list(range(start, end + 1))
        second = run_view(1, 0, cs, 0, start, end)
        check_discord_limits(second)
    assert covered == list(range(n))
    check_discord_limits(picker_view(1, 0, cs))


def test_a_games_second_level_names_become_the_ranges_in_natural_order() -> None:
    legal = [Choice(f"ride {d}{k}", f"ride {d}{k}", f"ride {d} › {band}–{band + 2} mi") for d, band, n in
             (("NE", 10, 3), ("NE", 2, 30), ("SW", 4, 2), ("NE", 0, 1)) for k in range(n)]  # fmt: skip
    ordered = menu_order([*legal, Choice("end", "end", "end")])
    assert [c.submenu for c in ordered[:4]] == ["0–2 mi", "2–4 mi", "2–4 mi", "2–4 mi"]
    menus = menus_for(ordered)
    assert [m.title for m in menus] == ["ride NE", "ride SW", "end"]
    # a second level of one action is that action; a name cut in runs of 25 says which part each run is
    assert [e.label for e in menus[0].entries] == ["ride NE0", "2–4 mi (1 of 2)", "2–4 mi (2 of 2)", "10–12 mi"]
    assert menus[0].entries[0].value.startswith("a")
    for e in menus[0].entries[1:]:
        start, end = (int(x) for x in e.value[1:].split("-"))
        assert len({ordered[i].group for i in range(start, end + 1)}) == 1
        check_discord_limits(run_view(1, 0, ordered, 0, start, end))
    assert menus[1].entries[0].value.startswith("a")  # a small menu lists its actions directly


async def test_the_picker_pages_and_opens_the_second_level_in_discord(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = world
    await w.open_table(w.ana, ai=1)
    actor = w.to_act()[0]
    many = choices({"move": 60, **{f"g{i}": 1 for i in range(5)}})
    real_choices = w.host.choices

    async def fake_choices(caller, joined=False):  # type: ignore[no-untyped-def]
        return many if caller.user_id == actor.id else await real_choices(caller, joined)

    monkeypatch.setattr(w.host, "choices", fake_choices)
    picker = answer(await actor.click(w.current_board(), label="Take your turn"))
    assert [len(s["options"]) for s in selects(picker)] == [3, 1, 1, 1]
    await actor.click(picker, label="Next ▶")
    picker = w.refresh(picker)
    assert [len(s["options"]) for s in selects(picker)] == [1, 1]
    await actor.click(picker, label="◀ Prev")
    picker = w.refresh(picker)
    ranges = selects(picker)[0]
    await actor.select(picker, ["r25-49"], custom_id=ranges["custom_id"])
    picker = w.refresh(picker)
    [second] = selects(picker)
    assert [o["label"] for o in second["options"]] == [f"move number {i}" for i in range(25, 50)]
    await actor.click(picker, label="◀ Back")
    picker = w.refresh(picker)
    assert [len(s["options"]) for s in selects(picker)] == [3, 1, 1, 1]
    # an action the game refuses is answered in the picker; nothing changes
    before = w.summary().state_no
    await actor.select(picker, ["a60"], custom_id=selects(picker)[1]["custom_id"])
    assert w.summary().state_no == before
    refused = w.refresh(picker)
    assert not refused.content.startswith("**Your move") and selects(refused)  # the refusal, then the picker again


async def test_a_second_level_of_one_action_is_picked_from_its_parent_menu(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = world
    await w.open_table(w.ana, ai=1)
    actor = w.to_act()[0]
    real = await w.host.choices(await _caller(w, actor))
    alone = Choice(real[0].action, real[0].label, "move › far away")
    many = [alone, *(Choice(f"filler {i}", f"filler {i}", "move › near") for i in range(30))]
    real_choices = w.host.choices

    async def fake_choices(caller, joined=False):  # type: ignore[no-untyped-def]
        return many if caller.user_id == actor.id else await real_choices(caller, joined)

    monkeypatch.setattr(w.host, "choices", fake_choices)
    picker = answer(await actor.click(w.current_board(), label="Take your turn"))
    [menu] = selects(picker)
    entry = next(o for o in menu["options"] if o["label"] == alone.label)
    assert entry["value"] == "a0"  # the action itself, not a range opening a menu of one
    before = w.summary().state_no
    await actor.select(picker, [entry["value"]], custom_id=menu["custom_id"])
    assert w.summary().state_no > before  # played with one pick


async def _caller(w: World, member):  # type: ignore[no-untyped-def]
    from bot.host.tables import Caller

    return Caller(w.guild.id, w.channel.id, member.id, "x")
