"""The replay viewer's pure parts (issue 33, item 2): whose eyes a frame is seen through (``Perspective``), what
a frame shows from them (``frame_lines``), where its menus and buttons jump (``bot.review_seek``), and a small
bounded cache of rebuilt replays so that stepping does not replay the game again. Nothing here knows Discord.

A seat's perspective shows what that seat saw at that moment and nothing more: the public board, the events
shown to it (``Replay.events_seen``) and its own hand from the engine's view for that seat. *All hands* shows
every seat's hand and every event, private ones included; the cog allows it only once no rule keeps it secret."""
from __future__ import annotations

import enum
from collections import OrderedDict

from engines import Engine, Event, GameState, View, get_engine

from . import render
from .games import engine_hooks, render_hooks
from .i18n import join_list, t
from .replay import GameRecord, RecordAction, Replay, replayed
from .reveal import held_at_end
from .review_seek import (  # noqa: F401  (the viewer's seek parts, read from here too)
    SEEK_OPTIONS,
    SeekKind,
    SeekPoint,
    Step,
    current_point,
    deal_points,
    menu_points,
    menus,
    seek_points,
    seek_window,
    step_buttons,
    thin,
    turn_points,
)

CACHED_REPLAYS = 8  # rebuilt replays kept in memory (the longest game takes seconds to rebuild)
CACHED_FRAMES = 60_000  # and at most this many frames in all: the longest game (~25,000 actions) keeps ~55 MiB
CHECKPOINT_EVERY = 32  # frames between the states a viewer's replay keeps (the others are played again)
PRIVATE = "🔒"


class Perspective(str, enum.Enum):
    """Whose eyes: the clicker's own seat (resolved from who clicks; a viewer following one seat, as a same-deal
    comparison opens it, carries that seat beside it), a spectator's, or every seat's hand at once."""

    MINE = "m"
    SPECTATOR = "s"
    ALL = "a"


class SteppedReplay:
    """A rebuilt replay as the viewer keeps it: every frame's action and events, but only every ``every``-th state
    (a checkpoint); a frame between two is reached by the engine applying the logged actions from the checkpoint
    before it (at most ``every - 1``, a few milliseconds). The full replay of the longest game takes ~68 MiB, so a
    cache of eight would be large; kept this way (its events and checkpoints) it takes ~13 MiB. The last frame
    shown is remembered, so ▶ applies one action."""

    def __init__(self, replay: Replay | GameRecord, every: int = CHECKPOINT_EVERY) -> None:
        """From a rebuilt ``Replay``, or straight from a record, played through once (``bot.replay.replayed``:
        checked the same way) without ever holding more states than its checkpoints."""
        self.record: GameRecord = replay.record if isinstance(replay, Replay) else replay
        self.engine: Engine = get_engine(self.record.game)
        self.every = every
        self.actions: list[RecordAction | None] = []
        self.events: list[list[Event]] = []
        self.checkpoints: dict[int, GameState] = {}
        self.turns: list[int | None] = []  # the turn the game counts at each frame (None: it counts none)
        turn_number = engine_hooks(self.record.game).turn_number
        for frame in (replay.frames if isinstance(replay, Replay) else replayed(replay)):
            self.actions.append(frame.action)
            self.events.append(frame.events)
            self.turns.append(turn_number(frame.state) if turn_number is not None else None)
            if frame.index % every == 0:
                self.checkpoints[frame.index] = frame.state
            final = frame.state
        self.final: GameState = final  # the reveal reads it, and ⏭ shows it
        self._last: tuple[int, GameState] = (0, self.checkpoints[0])  # one tuple: read and replaced atomically

    def __len__(self) -> int:
        return len(self.actions)

    def frame_events(self, index: int) -> list[Event]:
        return self.events[index]

    def frame_action(self, index: int) -> RecordAction | None:
        return self.actions[index]

    def state(self, index: int) -> GameState:
        if index == len(self.actions) - 1:
            return self.final
        last_index, last_state = self._last
        start = index - index % self.every
        if start <= last_index <= index:  # on from the frame shown last rather than from the checkpoint
            start, state = last_index, last_state
        else:
            state = self.checkpoints[start]
        for frame in range(start + 1, index + 1):
            action = self.actions[frame]
            assert action is not None, "every frame after the deal has its action"
            state, _ = self.engine.apply(state, action.player, action.action)
        self._last = (index, state)
        return state

    def view(self, index: int, viewer: str | None) -> View:
        return self.engine.view(self.state(index), viewer)

    def events_seen(self, index: int, viewer: str | None) -> list[Event]:
        return [ev for ev in self.events[index]
                if ev.visible_to is None or (viewer is not None and viewer in ev.visible_to)]


def review_hand(game: str, view: View) -> list[str]:
    """A seat's cards at a moment as its own view shows them: its secret hand, with the cards of that hand the
    game shows openly (the plug-in's ``hand_cards``: Twin Pyramid's shown cards and a revealed hand, Pile up's
    revealed cards)."""
    shows = render_hooks(game).hand_cards
    return shows(view) if shows is not None else list(view.hand or [])


def told_line(event: Event, line: str, perspective: Perspective, lang: str, names: render.Names) -> str:
    """An event as the frame tells it: a private one marked 🔒, and with every hand shown, who saw it (its words
    are those its seat read: "You drew …")."""
    if event.visible_to is None:
        return line
    if perspective is Perspective.ALL:
        line = t("review.seen_by", lang, players=join_list((names(p) for p in event.visible_to), lang), line=line)
    return f"{PRIVATE} {line}"


def frame_lines(replay: SteppedReplay, index: int, perspective: Perspective, player: str | None, lang: str,
                names: render.Names) -> list[str]:
    """Frame ``index`` seen through ``perspective`` (``player``: the seat of *my seat*): what happened since the
    frame before (as that perspective saw it; who moved when nothing is told), the moment's board and whose turn
    it is, then the hands it may see, one line a seat. No heading, no legend of the picture and nothing of a
    live hand view (its instructions are for buttons the viewer does not have)."""
    game, action = replay.record.game, replay.actions[index]
    viewer = player if perspective is Perspective.MINE else None
    events = replay.events[index] if perspective is Perspective.ALL else replay.events_seen(index, viewer)
    happened = [(ev, line) for ev in events if (line := render.event_line(game, ev, names, lang)) is not None]
    lines = []
    if happened:
        lines.append(t("review.happened", lang))
        lines += [told_line(ev, line, perspective, lang, names) for ev, line in happened]
    elif action is not None:
        lines.append(t("review.moved", lang, player=names(action.player)))
    if action is not None and action.stand_in:  # the seat's person did not make this move
        lines.append(t("review.stand_in", lang, player=names(action.player)))
    board = render.board(game, replay.view(index, None), names, lang)
    told = {part for _, line in happened for part in line.split("\n")}  # a deal's end is on the board as well
    lines += ["", *(line for line in board.lines if line not in told), *([board.footer] if board.footer else [])]
    shown = [p.player for p in replay.record.players] if perspective is Perspective.ALL else [viewer]
    card = render_hooks(game).card
    if replay.engine.result(replay.state(index)) is not None:  # over: the cards the final board counts, as Reveal
        held = held_at_end(game, replay.state(index))
        hands = [(seat, held.get(seat, [])) for seat in shown if seat is not None]
    else:
        hands = [(seat, review_hand(game, replay.view(index, seat))) for seat in shown if seat is not None]
    if hands:
        lines.append("")
    for seat, cards in hands:
        lines.append(f"{PRIVATE} " + t("review.hand", lang, player=names(seat), count=len(cards),
                                       cards=" ".join(card(c) for c in cards) or "—"))
    return lines


class ReplayCache:
    """The last ``size`` rebuilt replays by table id, holding at most ``frames`` frames in all (least recently
    used leaves first; the one put last always stays): a stored game never changes once finished, so a rebuilt
    one stays true, and memory stays bounded however long the games are."""

    def __init__(self, size: int = CACHED_REPLAYS, frames: int = CACHED_FRAMES) -> None:
        self.size, self.frames = size, frames
        self._replays: OrderedDict[int, SteppedReplay] = OrderedDict()

    def get(self, table_id: int) -> SteppedReplay | None:
        replay = self._replays.get(table_id)
        if replay is not None:
            self._replays.move_to_end(table_id)
        return replay

    def put(self, table_id: int, replay: SteppedReplay) -> None:
        self._replays[table_id] = replay
        self._replays.move_to_end(table_id)
        while len(self._replays) > 1 and (len(self._replays) > self.size or self.held_frames() > self.frames):
            self._replays.popitem(last=False)

    def held_frames(self) -> int:
        return sum(len(replay) for replay in self._replays.values())

    def __len__(self) -> int:
        return len(self._replays)
