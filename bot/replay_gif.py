"""A finished game's animated summary (issue 42, item 2; issue 53, item 5): a GIF that reads like the game — one
frame a turn (``bot.replay_caption``: the cause and its effect together, every deal's end and the final result
kept), the board of that moment as the viewer draws it (``render.review_picture``), under a caption in words: where
in the game it is, what happened in that turn, and each seat with its score and the score's unit (the seats to act
on a band).

The board pictures of one game differ in size (Rocca's tower and Diamond Box's centre grow), and a GIF has one
canvas: each picture is scaled by one factor for the whole game (so the board grows as it did, and the largest,
the tower at its tallest, fits whole) and placed on a canvas of the largest size with a fixed background, below
the caption band. The caption's letters stay ``CAPTION_INK_PX`` px tall once a phone shows the GIF 280 px wide.
Every frame is written whole (no frame is a difference from the one before, no transparency), so no older board
shows through and nothing is cut."""
from __future__ import annotations

import io
import math
import re
from typing import Callable, Iterable, Iterator

from PIL import Image, ImageDraw

from .i18n import language, sentences, t
from .render import Names, review_picture
from .render.shapes import Font, draw_fitted, drawable, font, name_font
from .replay import Rebuilt
from .replay_caption import GIF_MAX_FRAMES, Caption, CaptionSeat, caption, summary_frames, turn_ends

GIF_WIDTH = 360  # pixels: a phone shows it 280-300 wide; the board pictures are drawn for that width
GIF_MAX_HEIGHT = 960  # a phone shows it whole, 280 wide
GIF_FRAME_MS = 1400  # a turn's caption is a sentence or two: time to read it
GIF_LAST_FRAME_MS = 5000
GIF_COLOURS = 256  # fast octree: every colour of a small mark (a card's suit) keeps its own entry
BACKGROUND = (250, 249, 245)
CAPTION_INK = (40, 40, 48)
ACTING = (255, 214, 102)  # the band behind the seats that are to act
PHONE_WIDTH = 280
CAPTION_SIZE = 21  # the caption's font: a name's capitals and digits 11.4 px tall once shown 280 px wide
CAPTION_ROW = 29  # pixels per caption line
CLOSING = "。、」）！？,.)!?"  # never the first character of a line
HAPPENED_LINES = 3  # lines of what happened a band keeps room for at least
MOST_CAPTION_LINES = 12  # and at most (heading included): a turn of more words ends in "…" after its ending events
SENTENCE_END = "。．.!?！？…"  # a line ending in one of these is a closed sentence
# marks no font here draws, said in words instead (the others — a colour square beside its colour's name — go)
MARK_WORDS = {"🃏": "summary.mark.joker"}
SEATS_PER_ROW = 2
PAD = 6

__all__ = ["GIF_MAX_FRAMES", "CaptionSeat", "animated_summary", "caption_height", "draw_caption", "encode_gif",
           "summary_canvases", "summary_frames"]


def caption_font(text: str) -> Font:
    """The font the caption draws ``text`` in: the default one, else the shipped Japanese one (``name_font``)."""
    return name_font(text, CAPTION_SIZE) or font(CAPTION_SIZE)


def drawable_text(text: str, lang: str = "en") -> str:
    """``text`` as a font here draws it: a mark no font draws said in words where it carries the meaning (a joker:
    "🃏2" is "Joker 2", not a 2), else left out (a colour square beside its colour's name; the marks beside them —
    ♠, ●, ★ — stay), and no space left where one went (after an opening bracket, or between Japanese words)."""
    for mark, key in MARK_WORDS.items():
        text = text.replace(mark, t(key, lang))
    text = re.sub("[\ufe0f\u20e3\u200d]", "", text)  # an emoji's variation selector, keycap and joiner
    kept = " ".join("".join(ch for ch in text if ch.isspace() or drawable(ch)).split())
    kept = re.sub(r"([（(「]) ", r"\1", kept)
    if language(lang) == "ja":  # Japanese puts no space between its words, nor after 。！？
        kept = re.sub(r"(?<=[^\x00-\x7f]) (?=[^\x00-\x7f])", "", kept)
    return kept


def told_text(happened: list[str], lang: str) -> str:
    """What happened as one run of sentences, each closed (an event line without its full stop — "alice rolls
    (2 3 4)" — no longer runs into the next)."""
    closed = [line if line.rstrip()[-1:] in SENTENCE_END else line.rstrip() + t("summary.full_stop", lang)
              for line in happened if line.strip()]
    return drawable_text(sentences(closed, lang), lang)


def tokens(text: str) -> list[str]:
    """``text`` as the pieces a line may break between: words, and each Japanese character on its own — a closing
    mark (。、」) kept with the piece before it — each word with the space that follows it."""
    pieces: list[str] = []
    for word in text.split(" "):
        parts: list[str] = []
        for ch in word:
            if parts and (ch in CLOSING or (ord(ch) < 0x2E80 and ord(parts[-1][-1]) < 0x2E80)):
                parts[-1] += ch  # Latin letters, digits and marks stay one piece; so does a closing mark
            else:
                parts.append(ch)
        if parts:
            parts[-1] += " "
        pieces += parts
    return pieces


def wrapped(draw: ImageDraw.ImageDraw, text: str, room: float, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of at most ``room`` px, broken between words (between characters in
    Japanese, never before a closing mark), the last shortened with "…" when the text does not fit."""
    f = caption_font(text + "…")  # one font for the whole text (it draws every character of it)
    out: list[str] = []
    current = ""
    pieces = tokens(text)
    for number, piece in enumerate(pieces):
        trial = current + piece
        if not current or draw.textlength(trial.rstrip(), font=f) <= room:
            current = trial
            continue
        out.append(current.rstrip())
        if len(out) == lines:
            rest = out[-1] + " " + "".join(pieces[number:])
            while rest and draw.textlength(rest + "…", font=f) > room:
                rest = rest[:-1]
            return out[:-1] + [rest.rstrip() + "…"]
        current = piece
    return [*out, current.rstrip()][:lines] if current.strip() else out


def caption_lines(draw: ImageDraw.ImageDraw, shown: Caption, width: int, lang: str,
                  most: int = MOST_CAPTION_LINES) -> list[str]:
    """The heading and what happened, as drawn: wrapped to the canvas, in at most ``most`` lines."""
    room = width - 2 * PAD
    heading = wrapped(draw, drawable_text(shown.heading, lang), room, most)
    told = told_text(shown.happened, lang)
    return [*heading, *(wrapped(draw, told, room, most - len(heading)) if told and most > len(heading) else [])]


def caption_rows(captions: list[Caption], lang: str, width: int = GIF_WIDTH) -> int:
    """The lines of words one band holds for a whole summary: its longest caption's, so no frame's words are cut
    (at least ``1 + HAPPENED_LINES``, at most ``MOST_CAPTION_LINES``)."""
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    longest = max((len(caption_lines(probe, shown, width, lang)) for shown in captions), default=0)
    return max(1 + HAPPENED_LINES, min(MOST_CAPTION_LINES, longest))


def seat_columns(seats: list[CaptionSeat], width: int) -> int:
    """Two seats a row when each one's name and score fit half the band, else one."""
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    widest = max((probe.textlength(seat_label(9, s.name), font=caption_font(s.name)) +
                  probe.textlength(s.score or "", font=caption_font(s.score or "")) for s in seats), default=0)
    return SEATS_PER_ROW if widest + 24 <= (width - 2 * PAD) / SEATS_PER_ROW else 1


def seat_label(number: int, name: str) -> str:
    """A seat's cell in the caption: its number in seat order, then its name."""
    return f"{number} {name}"


def caption_height(seats: int, columns: int = SEATS_PER_ROW, lines: int = 1 + HAPPENED_LINES) -> int:
    return CAPTION_ROW * (lines + max(1, math.ceil(seats / columns))) + PAD


def draw_caption(canvas: Image.Image, shown: Caption, lang: str, columns: int = SEATS_PER_ROW,
                 lines: int = 1 + HAPPENED_LINES) -> None:
    """The band at the top of a frame: where in the game, what happened, then each seat's name and score with its
    unit, ``columns`` seats a row (those to act on a band)."""
    draw = ImageDraw.Draw(canvas)
    text = caption_lines(draw, shown, canvas.width, lang, lines)
    for row, line in enumerate(text):
        draw.text((PAD, row * CAPTION_ROW + CAPTION_ROW / 2), line, font=caption_font(line), fill=CAPTION_INK,
                  anchor="lm")
    cell = (canvas.width - 2 * PAD) / columns
    for number, seat in enumerate(shown.seats):
        row, column = divmod(number, columns)
        left, top = PAD + column * cell, (lines + row) * CAPTION_ROW
        if seat.acting:
            draw.rounded_rectangle((left + 1, top + 2, left + cell - 2, top + CAPTION_ROW - 2), radius=5,
                                   fill=ACTING)
        score = seat.score or ""
        room = cell - 14 - (draw.textlength(score, font=caption_font(score)) if score else 0)
        # numbered as the board numbers its seats (Twin Pyramid's strip "1 … 6"): "5 Bot 4" is the fifth seat
        draw_fitted(draw, (left + 5, top + CAPTION_ROW / 2), seat_label(number + 1, seat.name), CAPTION_SIZE, room,
                    CAPTION_INK)
        if score:
            draw.text((left + cell - 6, top + CAPTION_ROW / 2), score, font=caption_font(score), fill=CAPTION_INK,
                      anchor="rm")


def board_pictures(replay: Rebuilt, indexes: list[int], names: Callable[[str], str],
                   lang: str) -> list[bytes] | None:
    """The board picture of each of these frames as the viewer draws it (PNG: kept compressed until its frame is
    composed), or None for a game that draws none."""
    draw = review_picture(replay.record.game)
    if draw is None:
        return None
    return [draw(replay.view(index, None), names, lang, moved=mover(replay, index)) for index in indexes]


def mover(replay: Rebuilt, index: int) -> str | None:
    """The seat whose move led to frame ``index`` (None at the deal): the one its caption tells of."""
    action = replay.frame_action(index)
    return action.player if action is not None else None


def common_scale(sizes: list[tuple[int, int]], room_height: int = GIF_MAX_HEIGHT) -> float:
    """One factor for every picture: the widest fits ``GIF_WIDTH``, the tallest ``room_height``."""
    return min(GIF_WIDTH / max(w for w, _ in sizes), room_height / max(h for _, h in sizes))


def _size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as picture:  # reads the header only
        return picture.size


def summary_canvases(replay: Rebuilt, names: Names, lang: str,
                     most: int = GIF_MAX_FRAMES) -> Iterator[Image.Image] | None:
    """Every frame of the summary as RGB pictures of one size, one at a time: caption band, then the board of
    that moment (``names``: the seats' names for the captions' words; the pictures and the seat cells draw them
    as written)."""
    indexes = summary_frames(replay, most)
    plain = names.plain()

    def seat_name(player: str, number: int) -> str:
        shown = plain(player)
        return shown if shown.strip() and drawable(shown) else str(number)

    pictures = board_pictures(replay, indexes, plain, lang)
    if pictures is None:
        return None
    seats = [CaptionSeat(seat_name(s.player, s.seat + 1), None, False) for s in replay.record.players]
    ends = turn_ends(replay)
    captions = [caption(replay, index, plain, lang, seat_name, ends) for index in indexes]
    widest = captions[-1].seats  # the scores' longest words: at the end
    columns = seat_columns([CaptionSeat(s.name, w.score, False) for s, w in zip(seats, widest, strict=True)],
                           GIF_WIDTH)
    rows = caption_rows(captions, lang)
    band = caption_height(len(seats), columns, rows)
    sizes = [_size(png) for png in pictures]
    scale = common_scale(sizes, GIF_MAX_HEIGHT - band)
    scaled = [(max(1, round(w * scale)), max(1, round(h * scale))) for w, h in sizes]
    canvas_size = (GIF_WIDTH, band + max(h for _, h in scaled))

    def composed() -> Iterator[Image.Image]:
        for shown, png, size in zip(captions, pictures, scaled, strict=True):
            with Image.open(io.BytesIO(png)) as drawn:
                picture = drawn.convert("RGB").resize(size, Image.Resampling.LANCZOS)
            canvas = Image.new("RGB", canvas_size, BACKGROUND)
            canvas.paste(picture, ((GIF_WIDTH - picture.width) // 2, band))
            draw_caption(canvas, shown, lang, columns, rows)
            yield canvas

    return composed()


def encode_gif(canvases: Iterable[Image.Image]) -> bytes:
    """The frames as a looping GIF, each written whole with its own palette (no differences, no transparency);
    each RGB canvas is let go once quantised."""
    frames = [c.quantize(colors=GIF_COLOURS, method=Image.Quantize.FASTOCTREE) for c in canvases]
    durations = [GIF_FRAME_MS] * (len(frames) - 1) + [GIF_LAST_FRAME_MS]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   disposal=2, optimize=False)
    return out.getvalue()


def animated_summary(replay: Rebuilt, names: Names, lang: str, most: int = GIF_MAX_FRAMES) -> bytes | None:
    """The game as an animated GIF of its board pictures with their captions, or None for a game that draws no
    board picture."""
    canvases = summary_canvases(replay, names, lang, most)
    return None if canvases is None else encode_gif(canvases)
