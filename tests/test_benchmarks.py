"""The benchmark command's machinery with tiny parameters: every section runs and prints its rows.

Correctness only: no figure is compared with a budget here (benchmarks are printed, never asserted)."""

from __future__ import annotations

import asyncio
import io
import json
import time
import zlib
from pathlib import Path

import pytest
from PIL import Image

from benchmarks import __main__ as bench
from benchmarks.cpu import LoopWatch, floor_seconds, scanlines
from rules import registry


def tiny_config() -> bench.Config:
    return bench.Config(
        games=["cartagena"],
        engine_games=2,
        ai_games=1,
        render_games=1,
        render_every=10,
        render_max=2,
        floor_repeats=1,
        section_seconds=1.0,
        cpu_moves=3,
        host_points=[bench.HostPoint(2, 0.01, 4)],
        host_game="cartagena",
        processes=0,
        store_tables=[2],
        store_actions=4,
        store_moves=3,
        store_commits=5,
        startup_tables=50,
        memory_tables=2,
        memory_moves=1,
        cluster_tables=2,
        cluster_rates=[2.0],
        cluster_seconds=1.0,
        cluster_min_moves=1,
        clicks_decisions=4,
    )


EXPECTED = [
    "cartagena engine action",
    "cartagena whole game, normal AIs",
    "cartagena public picture CPU time",
    "cartagena CPU per move (3 moves",
    "cartagena pictures per move",
    "cartagena longest event-loop callback",
    "cartagena public picture size",
    "cartagena normal AI decision",
    "2 tables (",
    "one SQLite commit alone",
    "store.append as waited for (2 tables)",
    "sqlite commit (store.append alone",
    "sqlite: 2 live tables (",
    "start-up, ",
    "Python heap per table",
    "resident set per table",
    "one process",
    "cartagena clicks per turn",
]


def test_every_section_prints_its_rows(tmp_path: Path) -> None:
    lines: list[str] = []
    rows, results = bench.run(tiny_config(), log=lines.append)
    errors = [r for r in rows if r.verdict.startswith("ERROR")]
    assert not errors, "\n".join(lines)
    table = bench.render_table(rows)
    for figure in EXPECTED:
        assert sum(figure in line for line in table.splitlines()) == 1, figure
    # aligned columns: every measured row has its value where the VALUE heading starts
    header = table.splitlines()[0]
    at = header.index("VALUE")
    for r in rows:
        if r.value:
            line = next(x for x in table.splitlines() if x.startswith(r.figure))
            assert line[at:].startswith(r.value), line
    picture = next(r for r in rows if "public picture CPU time" in r.figure)
    assert picture.floor.endswith("deflate") and picture.ratio.endswith("×") and picture.verdict in ("OK", "OVER")
    assert results["cpu"][0]["moves"] == 3 and results["cpu"][0]["floor"] > 0
    host = results["host"][0]
    assert host["actions"] == 4 and host["refused"] == 0 and host["internal_errors"] == 0
    # the host's time splits into drawing, commit and its own share, each measured
    assert host["drawing"]["median"] > 0 and host["commit"]["median"] > 0
    assert host["latency"]["median"] >= host["drawing"]["median"]
    assert results["startup"]["tables"] == 50

    out = tmp_path / "figures.json"
    bench.write_json(str(out), tiny_config(), rows, results, 1.0)
    data = json.loads(out.read_text())
    assert {r["figure"] for r in data["rows"]} == {r.figure for r in rows}
    assert "samples" not in json.dumps(data["results"]["games"])


def test_the_floor_deflates_the_pictures_own_pixels() -> None:
    """The floor is the picture's final palette pixels as PNG scanlines, deflated again: nothing drawn, nothing
    mapped, and a picture of more pixels costs more."""
    import renderers

    game = registry.get("cartagena")
    png = renderers.render("cartagena", game.view(game.new(2, {}, "floor"), None))
    picture = Image.open(io.BytesIO(png))
    rows = scanlines(picture)
    assert rows == zlib.decompress(png[png.index(b"IDAT") + 4 : png.index(b"IEND") - 8])
    assert len(rows) == (picture.width + 1) * picture.height and rows[:: picture.width + 1] == bytes(picture.height)
    small = io.BytesIO()
    picture.crop((0, 0, 200, 100)).save(small, format="PNG")
    assert 0 < floor_seconds([small.getvalue()]) < floor_seconds([png, png])


def test_the_loop_watch_names_the_longest_callback() -> None:
    watch = LoopWatch()

    async def heavy() -> None:
        await asyncio.sleep(0)
        end = time.thread_time() + 0.03
        while time.thread_time() < end:
            pass
        await asyncio.sleep(0)

    async def main() -> None:
        watch.active = True
        await asyncio.gather(heavy(), asyncio.sleep(0.01))
        watch.active = False

    watch.install()
    try:
        asyncio.run(main())
    finally:
        watch.uninstall()
    assert watch.longest.cpu >= 0.03 and watch.over == 1
    assert "heavy" in watch.longest.what and "test_benchmarks.py" in watch.longest.what


def test_options_select_sections_and_points() -> None:
    args = bench.parser().parse_args(["--quick", "--only", "host,games", "--games", "flagon", "--tables", "1,7"])
    cfg = bench.config_from(args)
    assert cfg.only == ("host", "games") and cfg.games == ["flagon"]
    assert [p.tables for p in cfg.host_points] == [1, 7]
    with pytest.raises(SystemExit):
        bench.config_from(bench.parser().parse_args(["--only", "nothing"]))


def test_parley_bench_is_the_same_command() -> None:
    from bot.cli.main import main as parley

    with pytest.raises(SystemExit, match="sections are"):
        parley(["bench", "--only", "nothing"])


def test_the_challenge_benchmark_prints_both_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import challenges

    challenges.main(["--games", "2", "--players", "2", "--seed", "smoke"])
    out = capsys.readouterr().out
    assert "honest movers:" in out and "challenges/game" in out and "one bluffer" in out


def test_the_web_benchmark_prints_its_figures() -> None:
    from benchmarks import web

    figures = web.measure(web.WebConfig(tables=2, spectators=4, seconds=2.0, move_every=0.3, pages=5, processes=0))
    lines = web.report(figures)
    text = "\n".join(lines)
    for figure in ("table page", "new board picture", "move committed → its event"):
        assert figure in text, text
    assert figures["moves"] > 0 and figures["delivered"] > 0 and figures["missed"] == figures["twice"] == 0
    assert not figures["errors"]


def test_the_playouts_benchmark_prints_each_game_beside_its_floor(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import playouts

    playouts.main(["--games", "cartagena,treasure_island", "--seconds", "0.2"])
    out = capsys.readouterr().out
    for game_id in ("cartagena", "treasure_island"):
        line = next(row for row in out.splitlines() if row.strip().startswith(f"{game_id}:"))
        assert "playouts/s" in line and "floor" in line and "the target" in line, line
