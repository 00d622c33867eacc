"""The viewer's frames read like the game (issue 42, item 3): a frame tells what happened since the frame before
once (who moved only when no event says it), then the moment's board and whose turn it is, then the hands its
perspective may see, one line a seat — no terminal heading, no picture legend, nothing of a live hand view (its
instructions are for buttons a viewer does not have, and it says "your" to one seat); the seek menu lists deals /
tricks / turns one after another with the numbers the game gives them, and the step buttons move by one, ten and a
whole deal / trick / turn; at six seats every hand is shown, split between embeds, never cut."""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from bot import literal, render
from bot.i18n import catalog, join_list, t
from bot.replay import Replay
from bot.replay_show import record_names
from bot.review import Perspective, SteppedReplay, current_point, frame_lines, seek_points, seek_window, step_buttons
from cogs.review import EMBED_CHARS, embed_parts
from engines import GAMES

from .discord_helpers import longest_fixed_part
from .test_replay_hidden import finished_replay

LIVE_ONLY = 12  # a hand-view line is told by a fixed part of at least this many characters


def hand_view_parts(game: str) -> list[str]:
    """The fixed parts of the game's hand-view lines (its instructions, its "your …"), in both languages."""
    return [part for lang in ("en", "ja") for key, line in catalog(lang).items() if key.startswith(f"{game}.hand.")
            if len(part := longest_fixed_part(line)) >= LIVE_ONLY]


def check_frames(replay: Replay, perspective: Perspective, lang: str) -> list[str]:
    stepped = SteppedReplay(replay)
    names = record_names(replay.record, lang, literal.markdown)
    game = replay.record.game
    live = hand_view_parts(game)
    problems = []
    for index in range(len(stepped)):
        lines = frame_lines(stepped, index, perspective, None, lang, names)
        text = "\n".join(lines)
        board = render.board(game, stepped.view(index, None), names, lang)
        events = stepped.events[index] if perspective is Perspective.ALL else stepped.events_seen(index, None)
        told = [line if ev.visible_to is None else "🔒 " + t("review.seen_by", lang, line=line, players=join_list(
            (names(p) for p in ev.visible_to), lang)) for ev in events
            if (line := render.event_line(game, ev, names, lang)) is not None]
        if any(line.startswith("== ") for line in lines) or (board.legend and board.legend in text):
            problems.append(f"{index}: a heading or the picture's legend")
        problems += [f"{index}: live hand view {part!r}" for part in live if part in text]
        if told and any(line == catalog(lang)["review.moved"].format(player=names(stepped.actions[index].player))
                        for line in lines if stepped.actions[index] is not None):
            problems.append(f"{index}: who moved, said again over its events")
        problems += [f"{index}: told {lines.count(line)} times: {line}" for line in set(told)
                     if lines.count(line) != told.count(line)]
        if lang == "en" and re.search(r"\byour?\b", "\n".join(set(lines) - set(told)), re.IGNORECASE):
            problems.append(f"{index}: 'you' in a view of every seat: {text}")
    return problems


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_frames_of_every_hand_read_like_the_game(tmp_path: Path, game: str, lang: str) -> None:
    replay = await finished_replay(tmp_path, game, seed=7)
    problems = check_frames(replay, Perspective.ALL, lang) + check_frames(replay, Perspective.SPECTATOR, lang)
    assert problems == [], problems[:5]


async def test_seek_menu_lists_consecutive_turns_numbered_as_the_game_does(tmp_path: Path) -> None:
    """Pile up's turns (the board's own "turn n"): every menu shows at most 25 turns one after another, the one
    being shown among them, each numbered as the board of its frame numbers it."""
    replay = SteppedReplay(await finished_replay(tmp_path, "pileup", seed=7))
    kind, points = seek_points(replay)
    assert kind.value == "turn" and len(points) > 25 and points[0].frame == 0
    for point in points:
        assert replay.view(point.frame, None).turn == point.number, point  # the board's "turn n"
    for index in range(0, len(replay), 7):
        window = seek_window(points, index)
        assert len(window) == 25 and [b.number - a.number for a, b in itertools.pairwise(window)] == [1] * 24
        assert points[current_point(points, index)] in window


@pytest.mark.parametrize("game", ["pileup", "twinpyramid", "akuma"])
async def test_steps_move_by_one_ten_and_a_whole_deal_trick_or_turn(tmp_path: Path, game: str) -> None:
    replay = SteppedReplay(await finished_replay(tmp_path, game, seed=7))
    kind, points = seek_points(replay)
    starts = [p.frame for p in points]
    last = len(replay) - 1
    for index in range(0, len(replay), 5):
        targets = {step.target for step in step_buttons(points, kind, index, last, "en") if step.enabled}
        expected = {0, last, max(index - 1, 0), min(index + 1, last), max(index - 10, 0), min(index + 10, last)}
        expected |= {max(f for f in starts if f < index)} if any(f < index for f in starts) else set()
        expected |= {min(f for f in starts if f > index)} if any(f > index for f in starts) else set()
        assert targets == expected - ({index} if index in (0, last) else set()), index


async def test_all_hands_at_six_seats_are_shown_whole(tmp_path: Path) -> None:
    """Split between embeds of at most 4,096 characters (6,000 in all), at line ends, nothing left out."""
    lines = [f"🔒 line {n} " + "x" * (n % 300) for n in range(120)] + ["y" * 5000]
    parts = embed_parts(lines)
    assert all(len(part) <= EMBED_CHARS for part in parts) and len(parts) > 2
    assert "".join(parts).replace("\n", "") == "".join(lines)
