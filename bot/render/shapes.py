"""What every board picture shares (Pillow): the default font, colour mixing, PNG encoding, suits and colour symbols
drawn as shapes (the default font has no ♠♥♦♣), and the ink of a suit.

Pictures draw no words: only numbers, ranks and labels the default font can show; everything else is a shape.
Names people chose are the exception: drawn in the default font when it has every character, else in IPAexGothic
(``fonts/``, shipped unmodified under its licence beside it: Japanese, and Latin with accents), else (emoji, other
scripts) not at all — the caller shows the seat's number.
"""
from __future__ import annotations

import io
import math
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
NAME_FONT_FILE = Path(__file__).with_name("fonts") / "ipaexg.ttf"
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
ZWJ = "\u200d"

INK: RGB = (40, 40, 48)
WHITE: RGB = (255, 255, 255)
RED_SUIT: RGB = (196, 30, 40)
BLACK_SUIT: RGB = (28, 28, 36)


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=max(8, size))


def fitted(draw: ImageDraw.ImageDraw, text: str, size: int, room: float) -> str:
    """``text`` at font ``size`` (its ``name_font``), shortened with an ellipsis until it is at most ``room`` px wide,
    by whole characters: a letter goes with its combining marks, and characters joined by a zero-width joiner go
    together."""
    f = name_font(text, size) or font(size)
    if draw.textlength(text, font=f) <= room:
        return text
    while text and draw.textlength(text + "…", font=f) > room:
        text = _without_last(text)
    return text + "…"


def _without_last(text: str) -> str:
    end = len(text)
    while end and _marks(text[end - 1]):  # the marks of the last letter go with it
        end -= 1
    end -= 1
    while end > 1 and text[end - 1] == ZWJ:  # joined to the character before: both go
        end -= 2
        while end and _marks(text[end - 1]):
            end -= 1
    return text[:max(end, 0)]


def _marks(ch: str) -> bool:
    return bool(unicodedata.combining(ch)) or ch in "\ufe0f\ufe0e"


def draw_fitted(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, room: float,
                fill: RGB) -> None:
    """``text`` (a name) drawn left-middle at ``xy`` in its ``name_font``, shortened to fit ``room`` pixels."""
    shown = fitted(draw, text, size, room)
    draw.text(xy, shown, font=name_font(shown, size) or font(size), fill=fill, anchor="lm")


def mix(a: RGB, b: RGB, share: float) -> RGB:
    return tuple(round(x + (y - x) * share) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]  # three channels in, three out


def to_png(img: Image.Image) -> bytes:
    """PNG bytes; a palette (``P``) image with few colours encodes ~10× faster than RGB."""
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def disc(draw: ImageDraw.ImageDraw, cx: float, cy: float, rad: float, fill: RGB) -> None:
    draw.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=fill)


def draw_suit(draw: ImageDraw.ImageDraw, suit: str, x: float, y: float, r: float, fill: RGB) -> None:
    """♠♥♦♣ as polygons and circles in a box of half-size ``r`` (pixels, y down)."""
    if suit == "D":
        draw.polygon([(x, y - r), (x + 0.72 * r, y), (x, y + r), (x - 0.72 * r, y)], fill=fill)
    elif suit == "H":
        disc(draw, x - 0.46 * r, y - 0.3 * r, 0.52 * r, fill)
        disc(draw, x + 0.46 * r, y - 0.3 * r, 0.52 * r, fill)
        draw.polygon([(x - 0.96 * r, y - 0.12 * r), (x + 0.96 * r, y - 0.12 * r), (x, y + r)], fill=fill)
    elif suit == "S":
        disc(draw, x - 0.46 * r, y + 0.18 * r, 0.5 * r, fill)
        disc(draw, x + 0.46 * r, y + 0.18 * r, 0.5 * r, fill)
        draw.polygon([(x - 0.94 * r, y + 0.05 * r), (x + 0.94 * r, y + 0.05 * r), (x, y - r)], fill=fill)
        draw.polygon([(x, y + 0.2 * r), (x - 0.34 * r, y + r), (x + 0.34 * r, y + r)], fill=fill)
    elif suit == "C":
        disc(draw, x, y - 0.45 * r, 0.4 * r, fill)
        disc(draw, x - 0.46 * r, y + 0.14 * r, 0.4 * r, fill)
        disc(draw, x + 0.46 * r, y + 0.14 * r, 0.4 * r, fill)
        draw.polygon([(x, y - 0.1 * r), (x - 0.34 * r, y + r), (x + 0.34 * r, y + r)], fill=fill)


def draw_star(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: RGB) -> None:
    points = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        points.append((x + rad * math.cos(a), y + rad * math.sin(a)))
    draw.polygon(points, fill=fill)


def draw_symbol(draw: ImageDraw.ImageDraw, symbol: str, x: float, y: float, r: float, fill: RGB,
                outline: RGB | None = None) -> None:
    """The colour symbols of the text (``●■▲◆★○``) as shapes, so a card is told by shape as well as colour."""
    width = max(1, round(r / 5))
    if symbol == "●":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)
    elif symbol == "○":
        draw.ellipse((x - r, y - r, x + r, y + r), outline=fill, width=max(2, round(r / 3)))
    elif symbol == "■":
        s = 0.86 * r
        draw.rectangle((x - s, y - s, x + s, y + s), fill=fill, outline=outline, width=width)
    elif symbol == "▲":
        draw.polygon([(x, y - r), (x + r, y + 0.8 * r), (x - r, y + 0.8 * r)], fill=fill, outline=outline,
                     width=width)
    elif symbol == "◆":
        draw.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=fill, outline=outline, width=width)
    elif symbol == "★":
        if outline is not None:
            draw_star(draw, x, y, r * 1.15, outline)
        draw_star(draw, x, y, r, fill)


def suit_ink(suit: str | None) -> RGB:
    return RED_SUIT if suit in ("H", "D") else BLACK_SUIT



# Discord shows an embed's picture about this wide on a phone whose screen is 400 px wide (the avatar column and the
# embed's padding take the rest); a narrower picture is shown at its own size, never enlarged
PHONE_WIDTH = 280
LEGIBLE_PX = 12  # the smallest text height (a digit's ink) a picture keeps at that width
DIGIT_HEIGHT = 0.66  # a digit's ink height per pixel of the default font's size


def legible_size(width: float) -> int:
    """The default font's size whose digits stay ``LEGIBLE_PX`` tall once a picture ``width`` px wide is shown on a
    phone."""
    return math.ceil(LEGIBLE_PX / DIGIT_HEIGHT * max(width, PHONE_WIDTH) / PHONE_WIDTH)


def _missing(f: Font) -> bytes:
    return bytes(f.getmask("\U000f0000"))  # a private-use character no font here draws


@lru_cache(maxsize=64)
def _japanese_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(NAME_FONT_FILE), max(8, size))


@lru_cache(maxsize=1024)
def name_font(text: str, size: int) -> Font | None:
    """The font that draws every character of ``text`` (the default one first), or None when neither does (a
    missing character would be drawn as an empty box)."""
    for f in (font(size), _japanese_font(size)):
        missing = _missing(f)
        if all(ch.isspace() or bytes(f.getmask(ch)) != missing for ch in text):
            return f
    return None


def drawable(text: str) -> bool:
    """Whether a name can be drawn (``name_font``)."""
    return name_font(text, 24) is not None
