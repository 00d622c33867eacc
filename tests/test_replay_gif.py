"""The animated summary (issue 42, item 2): every frame of every game's GIF, decoded as a viewer's program shows it
(Pillow's ``ImageSequence``, each frame composed over the ones before), is the board picture of its moment placed on
the one canvas of the animation, under a caption band with its step, the seats' names and their scores at that
moment — no older board showing through, nothing cut. Colours are compared in 8×8 blocks: the GIF's palette of
256 colours changes a pixel a little, a leftover board or a cut changes a block a lot."""
from __future__ import annotations

import io
from typing import Any, Callable

import pytest
from PIL import Image, ImageChops, ImageSequence

from bot import render
from bot.i18n import join_list, t
from bot.render import review_picture
from bot.replay import Replay
from bot.replay_caption import caption, endings, summary_frames, turn_ends, turn_start
from bot.replay_gif import (
    BACKGROUND,
    GIF_MAX_HEIGHT,
    GIF_WIDTH,
    caption_height,
    caption_lines,
    caption_rows,
    draw_caption,
    drawable_text,
    seat_columns,
    told_text,
)
from bot.replay_show import animated_summary, record_names
from engines import GAMES

from .test_replay_hidden import finished_replay

PICTURED = [game for game in GAMES if review_picture(game) is not None]
BLOCK = 8  # pixels: a block's mean colour may differ by palette rounding, not by a board
MOST_BLOCK_DIFFERENCE = 16  # of 255, in any channel of any block

# each game's score as its board counts it at a moment (the test's own table, read from the public view), and the
# catalog line that gives it its unit
SCORES: dict[str, tuple[Callable[[Any], dict[str, int]], str]] = {
    "rocca": (lambda view: view.hand_sizes, "rocca.caption.score"),
    "pileup": (lambda view: {seat.player: len(seat.minus) for seat in view.seats}, "pileup.caption.score"),
    "diamondbox": (lambda view: {p: view.hand_sizes[p] + view.pile_sizes[p] for p in view.players},
                   "diamondbox.caption.score"),
    "twinpyramid": (lambda view: {seat.player: seat.points for seat in view.table}, "twinpyramid.caption.score"),
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Any]:
    """Each game's seeded bot game, played to its end once for the whole module (``played(game)``)."""
    replays: dict[str, Replay] = {}

    async def replay(game: str) -> Replay:
        if game not in replays:
            replays[game] = await finished_replay(tmp_path_factory.mktemp(game), game, seed=7)
        return replays[game]

    return replay


def decoded_frames(gif: bytes) -> list[Image.Image]:
    with Image.open(io.BytesIO(gif)) as animation:
        return [frame.convert("RGB") for frame in ImageSequence.Iterator(animation)]


def expected_frames(replay: Replay) -> list[Image.Image]:
    """Each moment's board picture, drawn again here, scaled by one factor for the game, placed under the caption
    (its words checked by the tests below)."""
    names = record_names(replay.record, "en").plain()
    draw = review_picture(replay.record.game)
    assert draw is not None
    indexes = summary_frames(replay)
    pictures = []
    for index in indexes:
        action = replay.frame_action(index)
        moved = action.player if action is not None else None  # the seat the caption tells of
        with Image.open(io.BytesIO(draw(replay.view(index, None), names, "en", moved=moved))) as picture:
            pictures.append(picture.convert("RGB"))
    seats = sorted(replay.record.players, key=lambda s: s.seat)
    captions = [caption(replay, index, names, "en", lambda p, n: names(p)) for index in indexes]
    columns = seat_columns(captions[-1].seats, GIF_WIDTH)
    rows = caption_rows(captions, "en")
    band = caption_height(len(seats), columns, rows)
    scale = min(GIF_WIDTH / max(p.width for p in pictures),
                (GIF_MAX_HEIGHT - band) / max(p.height for p in pictures))
    scaled = [p.resize((round(p.width * scale), round(p.height * scale)), Image.Resampling.LANCZOS)
              for p in pictures]
    canvases = []
    for picture, told in zip(scaled, captions, strict=True):
        canvas = Image.new("RGB", (GIF_WIDTH, band + max(p.height for p in scaled)), BACKGROUND)
        canvas.paste(picture, ((GIF_WIDTH - picture.width) // 2, band))
        draw_caption(canvas, told, "en", columns, rows)
        canvases.append(canvas)
    return canvases


def block_difference(a: Image.Image, b: Image.Image) -> int:
    """The largest difference of mean colour in any ``BLOCK``×``BLOCK`` block of two pictures of one size."""
    blocks = ImageChops.difference(a, b).reduce(BLOCK)
    return max(high for _, high in blocks.getextrema())  # type: ignore[misc]  # an RGB picture: one pair per band


@pytest.mark.parametrize("game", PICTURED)
async def test_every_gif_frame_is_the_board_of_its_moment(played: Callable, game: str) -> None:
    replay = await played(game)
    gif = animated_summary(replay, "en")
    assert gif is not None
    frames, expected = decoded_frames(gif), expected_frames(replay)
    assert len(frames) == len(expected) > 1
    assert {f.size for f in frames} == {expected[0].size}
    wrong = [n for n, (frame, picture) in enumerate(zip(frames, expected, strict=True))
             if block_difference(frame, picture) > MOST_BLOCK_DIFFERENCE]
    assert wrong == [], f"{len(wrong)} of {len(frames)} frames differ from their moment's board"


@pytest.mark.parametrize("game", PICTURED)
async def test_the_summary_reads_like_the_game(played: Callable, game: str) -> None:
    """Issue 53: one frame a turn's end (the deal, every deal's end and the result always among them); each
    caption says where in the game it is, tells the turn's public events in order, and gives every seat's score
    as the board counts it, with its unit."""
    replay = await played(game)
    names = record_names(replay.record, "en").plain()
    frames = summary_frames(replay)
    assert {0, len(replay) - 1} | endings(replay) <= set(frames) <= set(turn_ends(replay)) | endings(replay)
    counted, unit = SCORES[game]
    for index in frames:
        told = caption(replay, index, names, "en", lambda p, n: names(p))
        view = replay.view(index, None)
        assert told.heading in (t("summary.dealt", "en", total=len(replay) - 1),
                                t("summary.move", "en", index=index, total=len(replay) - 1),
                                t("summary.over", "en", total=len(replay) - 1))
        scores = counted(view)
        assert [s.score for s in told.seats] == [t(unit, "en", count=scores[p.player]) for p in
                                                sorted(replay.record.players, key=lambda s: s.seat)]
        if index > 0 and not view.over:  # the public events since the turn's first move, each once
            start = max(f for f in [0, *turn_ends(replay), *endings(replay)] if f < index) + 1
            public = [render.terminal_text(line) for f in range(start, index + 1) for ev in replay.frame_events(f)
                      if ev.visible_to is None and (line := render.event_line(game, ev, names, "en")) is not None]
            assert sorted(told.happened) == sorted(public), index
    final = caption(replay, frames[-1], names, "en", lambda p, n: names(p))
    result = replay.view(frames[-1], None).result
    assert result is not None and final.happened[0] == t(
        "summary.first", "en", players=join_list((names(p) for p in result.ranking[0]), "en"))


async def test_a_roll_and_the_play_it_leads_to_are_one_frame(played: Callable) -> None:
    """Pile up: a turn's roll and the play it led to are told in one frame, the one showing the play's board —
    never the roll in one frame and its play in the next."""
    replay = await played("pileup")
    names = record_names(replay.record, "en").plain()
    together = 0
    for index in summary_frames(replay):
        events = [ev for f in range(turn_start(replay, index), index + 1) for ev in replay.frame_events(f)
                  if ev.visible_to is None and index > 0]
        if not {"rolled", "played"} <= {ev.type for ev in events}:
            continue
        told = caption(replay, index, names, "en", lambda p, n: names(p)).happened
        lines = {ev.type: render.terminal_text(render.event_line("pileup", ev, names, "en") or "") for ev in events}
        assert lines["rolled"] in told and lines["played"] in told, index
        together += 1
    assert together > 20


@pytest.mark.parametrize("game", PICTURED)
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_caption_text_is_11_px_tall_when_the_gif_is_shown_280_px_wide(played: Callable, game: str,
                                                                             lang: str) -> None:
    from bench.images import caption_glyphs

    replay = await played(game)
    # the height of capitals, digits and Japanese characters (CAPTION_SIZE): a line of lower-case letters alone
    # ("someone…", a wrapped sentence's tail) inks only their x-height, in the same font as every other line
    glyphs = [(text, height) for text, height in caption_glyphs(replay, lang)
              if any(ch.isupper() or ch.isdigit() or ord(ch) > 0x2E80 for ch in text)]
    assert glyphs and min(height for _, height in glyphs) >= 11, min(glyphs, key=lambda g: g[1])


async def test_a_game_that_draws_no_picture_has_no_summary_and_the_record_promises_none(played: Callable) -> None:
    """Akuma draws no board picture: no GIF, and the record's reply (``record.reply``) promises no animation —
    the line saying one is attached (``record.animated``) comes only with a GIF."""
    replay = await played("akuma")
    assert review_picture("akuma") is None and animated_summary(replay, "en") is None
    for lang in ("en", "ja"):
        assert t("record.animated", lang) not in t("record.reply", lang, id=1, game="x", count=3)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", PICTURED)
async def test_no_caption_is_cut(played: Callable, game: str, lang: str) -> None:
    """A tester found captions ending in "…" — deal ends ("…Payments: ali…") and results among them — and a
    Japanese heading cut at the canvas's edge. The band holds as many lines as the summary's longest caption
    needs, so every frame's heading and words are drawn whole."""
    from PIL import ImageDraw

    replay = await played(game)
    names = record_names(replay.record, lang).plain()
    captions = [caption(replay, index, names, lang, lambda p, n: names(p)) for index in summary_frames(replay)]
    rows = caption_rows(captions, lang)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    for told in captions:
        lines = caption_lines(probe, told, GIF_WIDTH, lang, rows)
        drawn = "".join(lines).replace(" ", "")  # whole: nothing left out, no "…" of a cut added
        assert drawn == (drawable_text(told.heading, lang) + told_text(told.happened, lang)).replace(" ", "")


def test_a_joker_is_said_in_words_and_no_space_is_left_where_a_mark_went() -> None:
    """Emoji no font here draws: a joker read as a plain "2" ("Bot 1 plays 2 from the shown cards"), and a colour
    square left a space in Japanese (「指定色を 黄に決めました」); sentences without a full stop ran on."""
    assert drawable_text("Bot 1 plays 🃏2 from the shown cards.", "en") == "Bot 1 plays Joker 2 from the shown cards."
    assert drawable_text("ボット1が🃏2を出しました。", "ja") == "ボット1がジョーカー2を出しました。"
    assert drawable_text("ボット2が最初の指定色を🟨 黄に決めました。", "ja") == (
        "ボット2が最初の指定色を黄に決めました。")
    assert drawable_text("勝ちました！ ボット4の手札を公開", "ja") == "勝ちました！ボット4の手札を公開"
    assert drawable_text("changes the designated colour from 🟪 purple to 🟨 yellow", "en") == (
        "changes the designated colour from purple to yellow")
    assert told_text(["alice rolls (2 3 4)", "alice plays ★3."], "en") == "alice rolls (2 3 4). alice plays ★3."


async def test_the_captions_seats_are_numbered_as_the_strip_numbers_them(played: Callable) -> None:
    """Twin Pyramid's strip numbers its seats 1–6 while the caption named them only, so the highlighted "5" sat under
    "Bot 4" (bots are named by their own count, not their seat). Each caption cell starts with its seat's number."""
    from bench.images import caption_glyphs

    replay = await played("twinpyramid")
    names = record_names(replay.record, "en").plain()
    drawn = {text for text, _ in caption_glyphs(replay, "en")}
    for seat in replay.record.players:
        assert f"{seat.seat + 1} {names(seat.player)}" in drawn, (seat, sorted(drawn)[:12])
