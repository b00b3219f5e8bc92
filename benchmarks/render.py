"""Picture speed and size, public and private, sampled along seeded AI games, against the floor of
encoding a blank PNG of the same canvas through the same encoder the renderer used.

    python -m benchmarks.render --game cartagena [--players 4] [--games 3] [--every 3] [--option mode=tortuga] [--cpu]
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from PIL import Image

from benchmarks.stats import describe, median, parse_options, summary_ms
from renderers import render
from renderers.common import PAPER
from rules import registry
from rules.playout import ai_chooser, steps


@dataclass(frozen=True)
class Encoding:
    """How one picture was encoded: the canvas handed to ``quantize`` (its size, mode and arguments, the
    palette image included) and the arguments of the PNG ``save``. None for ``quantize`` when the renderer
    saved its image as it was (then ``mode``/``palette`` describe that image)."""

    size: tuple[int, int]
    mode: str
    quantize: tuple[tuple[Any, ...], dict[str, Any]] | None
    save: tuple[tuple[Any, ...], dict[str, Any]]
    palette: tuple[int, ...] | None = None

    def key(self) -> tuple[Any, ...]:
        def norm(call: tuple[tuple[Any, ...], dict[str, Any]] | None) -> Any:
            if call is None:
                return None
            args, kw = call
            # palette images are cached by the renderers, so their identity names the palette
            return tuple(id(a) if isinstance(a, Image.Image) else a for a in args), tuple(
                sorted((k, id(v) if isinstance(v, Image.Image) else v) for k, v in kw.items())
            )

        return self.size, self.mode, norm(self.quantize), norm(self.save), self.palette


@contextmanager
def capture_encoding() -> Iterator[list[Encoding]]:
    """Record every PNG the code inside the block saves with PIL, with the ``quantize`` call that made the
    saved image. Every renderer ends with ``quantize(...)`` then ``save(..., format="PNG", ...)`` (through
    ``common.to_png`` or its own copy), so this finds the real palette and zlib level whatever the renderer
    chose, without importing its private helpers. Single-threaded use only: it patches PIL's methods."""
    real_quantize, real_save = Image.Image.quantize, Image.Image.save
    made: dict[int, tuple[Image.Image, tuple[int, int], str, tuple[Any, ...], dict[str, Any]]] = {}
    found: list[Encoding] = []

    def quantize(self: Image.Image, *args: Any, **kw: Any) -> Image.Image:
        out = real_quantize(self, *args, **kw)
        made[id(out)] = (out, self.size, self.mode, args, kw)  # holding ``out`` keeps its id unique
        return out

    def save(self: Image.Image, fp: Any, *args: Any, **kw: Any) -> None:
        fmt = (args[0] if args else kw.get("format")) or ""
        if str(fmt).upper() == "PNG" or (isinstance(fp, str) and fp.lower().endswith(".png")):
            source = made.get(id(self))
            if source is not None and source[0] is self:
                _, size, mode, qargs, qkw = source
                found.append(Encoding(size, mode, (qargs, qkw), (args, kw)))
            else:
                palette = tuple(self.getpalette() or ()) if self.mode == "P" else None
                found.append(Encoding(self.size, self.mode, None, (args, kw), palette))
        real_save(self, fp, *args, **kw)

    Image.Image.quantize = quantize  # type: ignore[method-assign]
    Image.Image.save = save  # type: ignore[method-assign]
    try:
        yield found
    finally:
        Image.Image.quantize = real_quantize  # type: ignore[method-assign]
        Image.Image.save = real_save  # type: ignore[method-assign]


Clock = Callable[[], float]


def encode_blank(enc: Encoding, clock: Clock = time.perf_counter) -> tuple[float, bytes]:
    """Seconds to encode a blank parchment canvas like ``enc`` (quantize + PNG save; making the blank is
    not counted), and the bytes."""
    if enc.quantize is not None:
        blank = Image.new(enc.mode if enc.mode in ("RGB", "RGBA", "L") else "RGB", enc.size, PAPER)
        qargs, qkw = enc.quantize
    else:
        blank = Image.new(enc.mode, enc.size)
        if enc.palette:
            blank.putpalette(list(enc.palette))
    out = io.BytesIO()
    sargs, skw = enc.save
    t0 = clock()
    image = blank.quantize(*qargs, **qkw) if enc.quantize is not None else blank
    image.save(out, *sargs, **skw)
    return clock() - t0, out.getvalue()


def blank_floor(enc: Encoding, repeats: int = 10, clock: Clock = time.perf_counter) -> float:
    """Median seconds to encode a blank PNG of ``enc``'s canvas the way the renderer encodes: what any
    picture of that canvas costs at least."""
    return median([encode_blank(enc, clock)[0] for _ in range(repeats)])


def measure_render(
    game_id: str,
    *,
    players: int | None = None,
    games: int = 3,
    every: int = 5,
    options: dict[str, str] | None = None,
    floor_repeats: int = 10,
    clock: Clock = time.perf_counter,
    max_pictures: int | None = None,
) -> dict[str, Any]:
    """Render the public and one private picture of every ``every``-th state of seeded AI games (easy AIs).

    Keys: public / private (``describe`` of seconds), public_bytes (median, max), floor (median seconds of
    the blank floor over the public pictures, each floor measured on that picture's own canvas and encoder),
    ratio (median public time / floor), pictures."""
    game = registry.get(game_id)
    players = players or game.info.min_players
    public_t: list[float] = []
    private_t: list[float] = []
    public_bytes: list[int] = []
    private_bytes: list[int] = []
    floors: list[float] = []
    floor_cache: dict[tuple[Any, ...], float] = {}
    warm = game.new(players, options or {}, "render-warm")
    render(game.info.id, game.view(warm, None))  # imports, fonts and cached backgrounds are not the picture
    for g in range(games):
        chooser = ai_chooser(["easy"] * players, f"render-{g}")
        for i, step in enumerate(steps(game, players, options or {}, f"render-{g}", chooser)):
            if i % every:
                continue
            if max_pictures is not None and len(public_t) >= max_pictures:
                break
            view = game.view(step.after, None)
            with capture_encoding() as found:
                t0 = clock()
                png = render(game.info.id, view)
                public_t.append(clock() - t0)
            public_bytes.append(len(png))
            if found:
                key = found[-1].key()
                if key not in floor_cache:
                    floor_cache[key] = blank_floor(found[-1], floor_repeats, clock)
                floors.append(floor_cache[key])
            t0 = clock()
            png = render(game.info.id, game.view(step.after, step.seat), seat=step.seat)
            private_t.append(clock() - t0)
            private_bytes.append(len(png))
    floor = median(floors)
    return {
        "game": game.info.id,
        "players": players,
        "pictures": len(public_t),
        "public": describe(public_t),
        "private": describe(private_t),
        "public_bytes": {"median": median([float(b) for b in public_bytes]), "max": max(public_bytes, default=0)},
        "private_bytes": {"median": median([float(b) for b in private_bytes]), "max": max(private_bytes, default=0)},
        "floor": floor,
        "ratio": median(public_t) / floor if floors else float("nan"),
        "samples": public_t,
        "private_samples": private_t,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, choices=registry.game_ids())
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--every", type=int, default=5, help="render every Nth state")
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time with this thread's CPU clock: steadier than the wall clock while other processes share the machine",
    )
    args = parser.parse_args(argv)
    r = measure_render(
        args.game,
        players=args.players,
        games=args.games,
        every=args.every,
        options=parse_options(args.option),
        clock=time.thread_time if args.cpu else time.perf_counter,
    )
    print(f"{args.game} pictures, {r['players']} players")
    print(f"  public:  {summary_ms(r['samples'])}")
    print(f"  private: {summary_ms(r['private_samples'])}")
    print(f"  public bytes: median={r['public_bytes']['median']:.0f} max={r['public_bytes']['max']}")
    print(f"  private bytes: median={r['private_bytes']['median']:.0f} max={r['private_bytes']['max']}")
    print(
        f"  floor (blank PNG of the same canvas, same palette and zlib level): {r['floor'] * 1000:.3f} ms;"
        f" public median / floor = {r['ratio']:.1f}x"
    )


if __name__ == "__main__":
    main()
