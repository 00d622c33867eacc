"""The viewer's frames read like the game (issue 42, item 3): a frame tells what happened since the frame before
once (who moved only when no event says it), then the moment's board and whose turn it is, then the hands its
perspective may see, one line a seat — no terminal heading, no picture legend, nothing of a live hand view (its
instructions are for buttons a viewer does not have, and it says "your" to one seat); the seek menu lists deals /
tricks / turns one after another with the numbers the game gives them, and the step buttons move by one, ten and a
whole deal / trick / turn; at six seats every hand is shown, split between embeds, never cut."""
from __future__ import annotations

import re
from collections import deque
from pathlib import Path
from typing import Any, Callable

import pytest

from bot import literal, render
from bot.games import render_hooks
from bot.i18n import catalog, join_list, t
from bot.replay import Replay
from bot.replay_show import record_names
from bot.review import Perspective, SteppedReplay, frame_lines
from bot.review_seek import (
    SeekKind,
    menus,
    my_turns,
    point_label,
    seek_points,
    step_buttons,
    targets,
    turn_points,
)
from cogs.review import EMBED_CHARS, embed_parts
from engines import GAMES, get_engine

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
        said = [part for line in lines for part in line.split("\n")]  # an event of several lines, line by line
        parts = [part for line in told for part in line.split("\n")]
        problems += [f"{index}: told {said.count(part)} times: {part}" for part in set(parts)
                     if said.count(part) != parts.count(part)]
        if lang == "en" and re.search(r"\byour?\b", "\n".join(set(lines) - set(told)), re.IGNORECASE):
            problems.append(f"{index}: 'you' in a view of every seat: {text}")
    return problems


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_frames_of_every_hand_read_like_the_game(tmp_path: Path, game: str, lang: str) -> None:
    replay = await finished_replay(tmp_path, game, seed=7)
    problems = check_frames(replay, Perspective.ALL, lang) + check_frames(replay, Perspective.SPECTATOR, lang)
    assert problems == [], problems[:5]


async def test_the_turn_menu_numbers_turns_as_the_board_does(tmp_path: Path) -> None:
    """Pile up's turns are its board's "turn n"; Twin Pyramid's the turn of the deal its board counts (from 1 each
    deal), listed within the deal being shown; every menu holds at most 25 options, the frame shown among them."""
    pileup = SteppedReplay(await finished_replay(tmp_path, "pileup", seed=7))
    kind, points = turn_points(pileup)
    assert kind is SeekKind.TURN and len(points) > 25 and points[0].frame == 0
    assert all(pileup.view(p.frame, None).turn == p.number for p in points)
    twin = SteppedReplay(await finished_replay(tmp_path, "twinpyramid", seed=7))
    kind, points = turn_points(twin)
    assert kind is SeekKind.TURN and all(twin.view(p.frame, None).turn + 1 == p.number for p in points)
    for replay in (pileup, twin):
        for index in range(0, len(replay), 3):
            shown = menus(replay, index, "en")
            assert len(shown.parts) <= 25 and len(shown.turns) <= 25
            assert index in {p.frame for p in shown.turns} | {p.frame for p in shown.parts} or any(
                p.frame < index for p in shown.turns), index
    rocca = SteppedReplay(await finished_replay(tmp_path, "rocca", seed=7))
    kind, points = turn_points(rocca)  # Rocca counts no turns: each change of who moves, named by its move
    assert kind is SeekKind.MOVE and all(p.number == p.frame for p in points)
    assert point_label(points[1], kind, "en", "Bot 2") == t("review.seek.move", "en", player="Bot 2",
                                                               index=points[1].frame)


@pytest.mark.parametrize("game", ["rocca", "diamondbox", "akuma"])
async def test_a_game_without_turns_names_each_move_by_its_mover(tmp_path: Path, game: str) -> None:
    """A tester read "alice (move 64)" where move 64 was Bot 1's (the label named the seat to act next), a button
    "⇤ — (move 41)", and a part menu of 19 entries all "alice (move N)". Every option and button of a game that
    counts no turns names the move its frame shows by the seat that made it; the part menu's pages are ranges of
    moves; no label is a dash."""
    replay = SteppedReplay(await finished_replay(tmp_path, game, seed=7, players=get_engine(game).min_players))
    names = record_names(replay.record, "en").plain()
    for index in range(0, len(replay), 2):
        shown = menus(replay, index, "en", replay.record.players[0].player, names)
        for p in shown.turns:
            if p.frame > 0:
                mover = replay.actions[p.frame].player
                label = point_label(p, shown.turn_kind, "en", names(p.player) if p.player else None)
                assert p.player == mover and label == t("review.seek.move", "en", player=names(mover),
                                                        index=p.frame), (index, label)
        for p in shown.parts:
            assert p.deal is not None or point_label(p, shown.part_kind or shown.turn_kind, "en", None) == t(
                "review.seek.moves", "en", first=p.frame, last=p.last)
        labels = [s.label for s in shown.steps]
        assert not any("—" in label for label in labels), labels
        for s in shown.steps:
            if s.label.startswith("⇤ ") and shown.turn_kind is SeekKind.MOVE and shown.part_kind is SeekKind.MOVE:
                assert s.label == "⇤ " + t("review.seek.move", "en", player=names(
                    replay.actions[s.target].player), index=s.target)


def fewest_presses(replay: SteppedReplay, player: str | None = None) -> dict[int, int]:
    """The fewest presses from the first frame (where the viewer opens) to each frame, with every button and both
    menus the viewer offers at each frame (``bot.review_seek.targets``: what the cog builds its controls from)."""
    seen, queue = {0: 0}, deque([0])
    while queue:
        index = queue.popleft()
        for target in targets(replay, index, player):
            if target not in seen:
                seen[target] = seen[index] + 1
                queue.append(target)
    return seen


@pytest.mark.parametrize(("game", "seed"), [(game, 3) for game in GAMES] + [("twinpyramid", 7)])
async def test_every_moment_of_a_game_is_at_most_three_presses_away(tmp_path: Path, game: str, seed: int) -> None:
    """Issue 53: from the frame the viewer opens at, any frame of a whole game — one round of Twin Pyramid at three
    seats, a Pile up of five seats — is reached in three presses or fewer: a part (a deal, a trick, or a page of
    turns), a turn, a move. Seed 7's round has pages of 21 turns: thinned to 20 beside a turn's moves, they put
    23 moments a fourth press away (t53)."""
    players = {"pileup": 5, "twinpyramid": 3}.get(game)
    replay = SteppedReplay(await finished_replay(tmp_path, game, seed=seed, players=players))
    presses = fewest_presses(replay)
    assert len(presses) == len(replay) and max(presses.values()) <= 3, (len(replay), max(presses.values()))


@pytest.mark.parametrize("game", ["pileup", "twinpyramid", "akuma"])
async def test_steps_move_by_one_by_a_deal_and_to_my_own_turns(tmp_path: Path, game: str) -> None:
    """⏮ ◀ ▶ ⏭, the deal (trick, turn) before and after this one, and from *my seat* the seat's own turn before
    and after: the frames where it is that seat's turn to move, its board showing it to act."""
    replay = SteppedReplay(await finished_replay(tmp_path, game, seed=7))
    kind, points = seek_points(replay)
    _, turns = turn_points(replay)
    player = replay.record.players[1].player
    mine = my_turns(turns, player)
    if turn_points(replay)[0] is SeekKind.MOVE:  # a game without turns: the frame of the seat's own move
        assert mine and all(replay.actions[frame].player == player for frame in mine)
    else:  # the frame whose board shows the seat's turn starting, the seat to act
        assert mine and all(player in replay.view(frame, None).to_act for frame in mine)
    starts = [p.frame for p in points]
    last = len(replay) - 1
    for index in range(0, len(replay), 5):
        targets = {step.target for step in step_buttons(points, kind, index, last, "en", mine) if step.enabled}
        expected = {0, last, max(index - 1, 0), min(index + 1, last)}
        for frames in (starts, mine):
            expected |= {max(f for f in frames if f < index)} if any(f < index for f in frames) else set()
            expected |= {min(f for f in frames if f > index)} if any(f > index for f in frames) else set()
        assert targets == expected - ({index} if index in (0, last) else set()), index


# every card a seat holds at a moment, read from the state (the test's own table): its hand, and Twin Pyramid's
# shown cards and field pyramid
HELD: dict[str, Callable[[Any], dict[str, list[str]]]] = {
    "akuma": lambda state: state.hands,
    "rocca": lambda state: state.hands,
    "pileup": lambda state: state.hands,
    "diamondbox": lambda state: state.hands,
    "twinpyramid": lambda state: {p: [*seat.held, *seat.shown, *seat.stones.values()]
                                  for p, seat in state.seats.items()},
}


@pytest.mark.parametrize("game", GAMES)
async def test_all_hands_shows_every_card_of_every_seat_at_every_frame(tmp_path: Path, game: str) -> None:
    """At the fewest and the most seats, every frame seen with every hand names each card every seat holds —
    the last frame of a game too (Akuma's final view holds no hand: the cards the final board counts, as Reveal)."""
    engine = get_engine(game)
    card = render_hooks(game).card
    for players in (engine.min_players, engine.max_players):
        options = {"deals": 1} if game == "twinpyramid" else None
        replay = await finished_replay(tmp_path, game, seed=3, players=players, options=options)
        stepped = SteppedReplay(replay)
        missing = []
        for lang in ("en", "ja"):
            names = record_names(replay.record, lang, literal.markdown)
            for index in range(len(stepped)):
                text = "\n".join(frame_lines(stepped, index, Perspective.ALL, None, lang, names))
                missing += [f"{players} seats, {lang}, frame {index}: {p}'s {c}"
                            for p, held in HELD[game](stepped.state(index)).items() for c in held
                            if card(c) not in text]
        assert missing == [], f"{len(missing)} cards not shown, the first: {missing[:3]}"
        if game == "akuma":  # the last frame's counts and hands agree
            last = "\n".join(frame_lines(stepped, len(stepped) - 1, Perspective.ALL, None, "en",
                                         record_names(replay.record, "en")))
            for p, held in stepped.final.hands.items():
                assert t("review.hand", "en", player=record_names(replay.record, "en")(p), count=len(held),
                         cards=" ".join(card(c) for c in held) or "—") in last


async def test_all_hands_at_six_seats_are_shown_whole(tmp_path: Path) -> None:
    """Split between embeds of at most 4,096 characters (6,000 in all), at line ends, nothing left out."""
    lines = [f"🔒 line {n} " + "x" * (n % 300) for n in range(120)] + ["y" * 5000]
    parts = embed_parts(lines)
    assert all(len(part) <= EMBED_CHARS for part in parts) and len(parts) > 2
    assert "".join(parts).replace("\n", "") == "".join(lines)


class StoredMatch:
    """What the seek menus read of a rebuilt game (its events, turn numbers and movers), for a match longer than
    any test plays: ``deals`` deals of ``turns`` turns of two moves each, two seats taking turns."""

    def __init__(self, deals: int, turns: int) -> None:
        from bot.replay import RecordAction
        from engines import Event

        self.events: list[list] = [[Event(type="deal_started", data={"deal": 1})]]
        self.turns: list[int | None] = [1]
        self.actions: list = [None]
        for deal in range(deals):
            for turn in range(turns):
                for move in range(2):
                    last = move == 1 and turn == turns - 1
                    self.events.append([Event(type="deal_started", data={"deal": deal + 2})]
                                       if last and deal + 1 < deals else [])
                    self.turns.append(1 if last else turn + 1 + move)
                    player = "ab"[(deal + turn) % 2]
                    self.actions.append(RecordAction(seq=len(self.actions), player=player, action={}, time=0.0))

    def __len__(self) -> int:
        return len(self.actions)


def test_a_match_of_more_deals_than_a_menu_holds_stays_a_few_presses_away() -> None:
    """Thirty deals (a menu holds 25): the deals are paged, two choices away, and the deal being shown is cut into
    pages of turns in the same menu — any frame within six presses of the first."""
    match = StoredMatch(deals=30, turns=40)
    presses = fewest_presses(match)  # type: ignore[arg-type]  # reads what a SteppedReplay holds for the menus
    assert len(presses) == len(match) and max(presses.values()) <= 6, max(presses.values())
    shown = menus(match, len(match) // 2, "en")  # type: ignore[arg-type]
    assert len(shown.parts) <= 25 and len(shown.turns) <= 25
