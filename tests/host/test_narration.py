"""The channel's narration through the table host (issue 28, point 3): a step with nothing public adds nothing, so no
post and no ``/table history`` of a whole seeded game of any game ever says a vague "X acted."; each whole decision
is told by the engine's own line."""

from __future__ import annotations

import random
import re

import pytest

from bot.host.api import Outputs
from rules import registry
from tests.host.conftest import ANA, BEN, CHANNEL, CID, HostFactory, RecordingRenderer

GAMES = ["cartagena", "martinique", "flagon", "buccaneer", "treasure_island"]
#: the placeholder the host once wrote for a step without a public line
ACTED = re.compile(r"\bacted\b")


def _texts(out: Outputs) -> list[str]:
    texts = [p.text for p in out.public]
    if out.reply_file is not None:
        texts.append(out.reply_file[1])
    return [*texts, out.reply]


@pytest.mark.parametrize("game_id", GAMES)
async def test_a_whole_game_never_says_acted_in_posts_or_history(make_host: HostFactory, game_id: str) -> None:
    game = registry.get(game_id)
    rnd = random.Random(f"narration:{game_id}")
    host = await make_host(renderer=RecordingRenderer(cheap=True), ai_seed=f"narration-{game_id}")
    options = {"round_limit": "50"} if game_id == "buccaneer" else {}
    assert (await host.open(ANA, game_id, options, seed=f"narration-{game_id}")).ok
    assert (await host.join(BEN)).ok
    for _ in range(game.info.min_players - 2):
        assert (await host.ai_add(ANA, "easy")).ok
    posts: list[str] = _texts(await host.start_table(ANA))
    histories: list[str] = []
    steps = 0
    while host.table_for(CHANNEL).status == "running":
        steps += 1
        assert steps < 4000, "no end"
        for caller in (ANA, BEN):
            choices = await host.choices(caller)
            if choices:
                break
        assert choices, "nobody can move"
        # a person's plain choices: never taking a step back, so the game moves on
        picks = [c for c in choices if c.action not in ("undo", "cancel")] or choices
        out = await host.play(caller, rnd.choice(picks).action, host.table_for(CHANNEL).state_no)
        assert out.ok, out.reply
        posts += _texts(out)
        if steps % 25 == 0:
            histories += _texts(await host.history(CID))
    histories += _texts(await host.history(CID))  # the finished game's full record
    said = [line for text in posts + histories for line in text.splitlines() if ACTED.search(line)]
    assert not said, f"{game_id}: {said[:5]}"
    assert any("full record" in h for h in histories)
