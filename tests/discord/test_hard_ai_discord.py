"""``/table ai add`` offers the hard level and a table's own think time for it."""

from __future__ import annotations

from tests.discord.conftest import World, reply


async def test_ai_add_hard_with_its_think_time(world: World) -> None:
    w = world
    await w.mod.slash(w.channel, "table open martinique")
    result = await w.mod.slash(w.channel, "table ai add", level="hard", seconds=2.5)
    assert "hard, 2.5 s" in reply(result), reply(result)
    t = w.host.index.tables[w.summary().table_id]  # noqa: SLF001 - the test reads the stored seat
    assert t.seats[1].ai_level == "hard:2.5"
