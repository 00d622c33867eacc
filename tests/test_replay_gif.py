"""The animated summary (issue 42, item 2): every frame of every game's GIF, decoded as a viewer's program shows it
(Pillow's ``ImageSequence``, each frame composed over the ones before), is the board picture of its moment placed on
the one canvas of the animation, under a caption band with its step, the seats' names and their scores at that
moment — no older board showing through, nothing cut. Colours are compared in 8×8 blocks: the GIF's palette of
256 colours changes a pixel a little, a leftover board or a cut changes a block a lot."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Callable

import pytest
from PIL import Image, ImageChops, ImageSequence

from bot.games import render_hooks
from bot.render import review_picture
from bot.replay import Replay
from bot.replay_gif import (
    BACKGROUND,
    GIF_MAX_HEIGHT,
    GIF_WIDTH,
    CaptionSeat,
    caption_height,
    draw_caption,
    summary_frames,
)
from bot.replay_show import animated_summary, record_names
from engines import GAMES

from .test_replay_hidden import finished_replay

PICTURED = [game for game in GAMES if render_hooks(game).image is not None]
BLOCK = 8  # pixels: a block's mean colour may differ by palette rounding, not by a board
MOST_BLOCK_DIFFERENCE = 16  # of 255, in any channel of any block

# each game's score as its board counts it at a moment (the test's own table, read from the public view)
SCORES: dict[str, Callable[[Any], dict[str, int]]] = {
    "rocca": lambda view: view.hand_sizes,
    "pileup": lambda view: {seat.player: len(seat.minus) for seat in view.seats},
    "diamondbox": lambda view: {p: view.hand_sizes[p] + view.pile_sizes[p] for p in view.players},
    "twinpyramid": lambda view: {seat.player: seat.points for seat in view.table},
}


def decoded_frames(gif: bytes) -> list[Image.Image]:
    with Image.open(io.BytesIO(gif)) as animation:
        return [frame.convert("RGB") for frame in ImageSequence.Iterator(animation)]


def expected_frames(replay: Replay) -> list[Image.Image]:
    """Each moment's board picture, drawn again here, scaled by one factor for the game, placed under the caption."""
    names = record_names(replay.record, "en").plain()
    draw = review_picture(replay.record.game)
    assert draw is not None
    indexes = summary_frames(len(replay))
    pictures = []
    for index in indexes:
        with Image.open(io.BytesIO(draw(replay.view(index, None), names, "en"))) as picture:
            pictures.append(picture.convert("RGB"))
    scale = min(GIF_WIDTH / max(p.width for p in pictures), GIF_MAX_HEIGHT / max(p.height for p in pictures))
    scaled = [p.resize((round(p.width * scale), round(p.height * scale)), Image.Resampling.LANCZOS)
              for p in pictures]
    seats = sorted(replay.record.players, key=lambda s: s.seat)
    band = caption_height(len(seats))
    canvases = []
    for index, picture in zip(indexes, scaled, strict=True):
        canvas = Image.new("RGB", (GIF_WIDTH, band + max(p.height for p in scaled)), BACKGROUND)
        canvas.paste(picture, ((GIF_WIDTH - picture.width) // 2, band))
        view = replay.view(index, None)
        scores = SCORES[replay.record.game](view)
        draw_caption(canvas, index, len(replay) - 1, [
            CaptionSeat(names(s.player), scores[s.player], s.player in view.to_act) for s in seats])
        canvases.append(canvas)
    return canvases


def block_difference(a: Image.Image, b: Image.Image) -> int:
    """The largest difference of mean colour in any ``BLOCK``×``BLOCK`` block of two pictures of one size."""
    blocks = ImageChops.difference(a, b).reduce(BLOCK)
    return max(high for _, high in blocks.getextrema())  # type: ignore[misc]  # an RGB picture: one pair per band


@pytest.mark.parametrize("game", PICTURED)
async def test_every_gif_frame_is_the_board_of_its_moment(tmp_path: Path, game: str) -> None:
    replay = await finished_replay(tmp_path, game, seed=7)
    gif = animated_summary(replay, "en")
    assert gif is not None
    frames, expected = decoded_frames(gif), expected_frames(replay)
    assert len(frames) == len(expected) > 1
    assert {f.size for f in frames} == {expected[0].size}
    wrong = [n for n, (frame, picture) in enumerate(zip(frames, expected, strict=True))
             if block_difference(frame, picture) > MOST_BLOCK_DIFFERENCE]
    assert wrong == [], f"{len(wrong)} of {len(frames)} frames differ from their moment's board"
