"""What the animated summary shows and says (issue 53, item 5): which moments of a game its frames are, and each
frame's caption in words — pure, from the rebuilt game alone (``bot.replay_gif`` draws them).

A frame is the end of a turn (the last move before someone else moves): a cause and its effect — Pile up's roll
and the play it led to, a play and the stones it let a seat build — are one turn, so they are one frame, and its
caption tells the whole turn as the table read it (its public events, in order). A game of more turns than
``GIF_MAX_FRAMES`` keeps them evenly spaced, and always the deal, the end of every deal (Twin Pyramid's "Deal 1:
alice completes the field pyramid") and the final result. Each seat's score at that moment reads with its unit
("3 cards", "2 minus cards", "40 pts": the plug-in's ``caption_scores``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import render
from .games import render_hooks
from .i18n import join_list, t
from .replay import Rebuilt

GIF_MAX_FRAMES = 60  # a long game is summed up by at most this many moments (its first and last included)
RUN_EVENTS = 3  # a run of one seat's moves telling more public events than this is cut into frames of this many
# (Diamond Box's chains of bonus turns): a caption of a few sentences is read in a frame's time, and drawn whole
# the events that end a part of a game: their frame is always in the summary
ENDING_EVENTS = frozenset({"deal_ended", "match_over", "game_over", "round_over"})


def turn_ends(replay: Rebuilt) -> list[int]:
    """The frames where a turn ends: the deal (frame 0), each frame after which someone else moves (or after
    ``RUN_EVENTS`` public events of one seat's run, or at a deal's end), the last."""
    last = len(replay) - 1
    ends = [0]
    told = 0
    ending = endings(replay)  # a deal's end ends its frame: its caption is that end, not the next deal's start
    for index in range(1, last):
        here, after = replay.frame_action(index), replay.frame_action(index + 1)
        told += sum(1 for event in replay.frame_events(index) if event.visible_to is None)
        if here is not None and after is not None and (here.player != after.player or told >= RUN_EVENTS
                                                       or index in ending):
            ends.append(index)
            told = 0
    return [*ends, last] if last > 0 else ends


def endings(replay: Rebuilt) -> set[int]:
    """The frames whose events end a deal (or the game)."""
    return {index for index in range(len(replay)) for event in replay.frame_events(index)
            if event.type in ENDING_EVENTS}


def summary_frames(replay: Rebuilt, most: int = GIF_MAX_FRAMES) -> list[int]:
    """Which frames the summary shows: every turn's end, or ``most`` of them evenly spaced with every deal's end,
    the deal and the final result kept."""
    ends = turn_ends(replay)
    kept = {0, ends[-1]} | endings(replay)
    if len(ends) <= most:
        return sorted(set(ends) | kept)
    room = max(0, most - len(kept))
    others = [frame for frame in ends if frame not in kept]
    if room and others:
        step = len(others) / room
        kept |= {others[min(len(others) - 1, int(i * step))] for i in range(room)}
    return sorted(kept)


@dataclass(frozen=True)
class CaptionSeat:
    name: str  # as the picture shows it
    score: str | None  # with its unit ("3 cards"); None: the game counts no score the caption shows
    acting: bool


@dataclass(frozen=True)
class Caption:
    """A frame's words: where in the game (move n of N), what happened in the turn it ends, and the seats."""

    heading: str
    happened: list[str]
    seats: list[CaptionSeat]


def turn_start(replay: Rebuilt, index: int, ends: list[int] | None = None) -> int:
    """The first frame of the turn that ends at ``index`` (the frame after the previous mover's last move, or
    after the part of a long run before it; ``ends``: ``turn_ends(replay)``, when known)."""
    action = replay.frame_action(index)
    cut = set(ends if ends is not None else turn_ends(replay))
    start = index
    while action is not None and start > 1 and start - 1 not in cut:
        before = replay.frame_action(start - 1)
        if before is None or before.player != action.player:
            break
        start -= 1
    return start


def happened(replay: Rebuilt, index: int, names: render.Names, lang: str, ends: list[int] | None = None) -> list[str]:
    """The public events of the turn ending at ``index``, as the table read them (no Discord markup), the end of
    a deal first."""
    game = replay.record.game
    frames = range(turn_start(replay, index, ends), index + 1) if index > 0 else range(0, 1)
    events = [event for frame in frames for event in replay.frame_events(frame) if event.visible_to is None]
    events.sort(key=lambda event: event.type not in ENDING_EVENTS)  # how a deal ended first: it must show
    return [render.terminal_text(line) for event in events
            if (line := render.event_line(game, event, names, lang)) is not None]


def caption(replay: Rebuilt, index: int, names: render.Names, lang: str,
            drawn_name: Callable[[str, int], str], ends: list[int] | None = None) -> Caption:
    """Frame ``index``'s caption; ``drawn_name``: a seat's name as the picture can draw it (seat, number);
    ``ends``: ``turn_ends(replay)``, when known."""
    view = replay.view(index, None)
    counted = render_hooks(replay.record.game).caption_scores
    scores = counted(view, lang) if counted is not None else {}
    acting = set(view.to_act) if not view.over else set()
    last = len(replay) - 1
    heading = (t("summary.dealt", lang, total=last) if index == 0 else
               t("summary.over", lang, total=last) if view.over else t("summary.move", lang, index=index, total=last))
    seats = sorted(replay.record.players, key=lambda s: s.seat)
    told = happened(replay, index, names, lang, ends)
    if view.over and view.result is not None:  # the result first: who won, and why a first place is shared
        notes = render_hooks(replay.record.game).result_notes
        told = [t("summary.first", lang, players=join_list((names(p) for p in view.result.ranking[0]), lang)),
                *(render.terminal_text(line) for line in (notes(view, names, lang) if notes else [])), *told]
    return Caption(heading, told,
                   [CaptionSeat(drawn_name(s.player, s.seat + 1), scores.get(s.player), s.player in acting)
                    for s in seats])
