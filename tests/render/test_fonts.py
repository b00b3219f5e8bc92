"""The remembering board font draws exactly the pixels of a plain FreeType face, first time and from memory."""

from __future__ import annotations

from PIL import Image, ImageDraw

from renderers.common import RememberingFont, font, plain_font

WORDS = ["Ana", "move 12", "×3", "Long John Silver", "⚓ Navy", "A1–B7", "Gold 1,250", "é ñ ø", "", "  x  "]


def draw(fnt: object, repeats: int) -> bytes:
    img = Image.new("RGB", (900, 60 * len(WORDS)), "white")
    d = ImageDraw.Draw(img)
    for r in range(repeats):
        for i, word in enumerate(WORDS):
            # fractional positions exercise the sub-pixel start Pillow passes to getmask2
            d.text((10.3 + i * 7.5 + r * 0.37, 5.6 + i * 60 + r * 0.5), word, font=fnt, fill="black", anchor="la")
            d.text((600.5, 30 + i * 60), word, font=fnt, fill="navy", anchor="mm", stroke_width=1, stroke_fill="gold")
            assert d.textlength(word, font=fnt) == plain_font(fnt.size).getlength(word)  # type: ignore[attr-defined]
    return img.tobytes()


def test_the_remembering_font_draws_the_same_pixels_as_the_plain_one() -> None:
    remembering = font(23)
    assert isinstance(remembering, RememberingFont)
    first = draw(remembering, 1)
    assert first == draw(plain_font(23), 1)
    assert draw(remembering, 2) == draw(plain_font(23), 2)  # the second pass comes from memory
    assert remembering._masks  # noqa: SLF001 - it did remember


def test_the_memory_is_bounded() -> None:
    fnt = RememberingFont(font(11).path, 11)
    for i in range(RememberingFont.LIMIT + 10):
        fnt.getmask2(f"n{i}", "L")
    assert len(fnt._masks) <= RememberingFont.LIMIT  # noqa: SLF001
