"""The text pieces: private summaries, clipping, durations, replay sampling."""

from __future__ import annotations

import io

from PIL import Image

from bot.outputs import clip, duration, private_part, private_text
from bot.replay import gif, sample
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
