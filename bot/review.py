"""The replay viewer's pure parts (issue 33, item 2): whose eyes a frame is seen through (``Perspective``), what
a frame shows from them (``frame_lines``), where the seek menu jumps (``seek_points``), and a small bounded cache
of rebuilt replays so that stepping does not replay the game again. Nothing here knows Discord.

A seat's perspective shows what that seat saw at that moment and nothing more: the public board, the events
shown to it (``Replay.events_seen``) and its own hand from the engine's view for that seat. *All hands* shows
every seat's hand and every event, private ones included; the cog allows it only once no rule keeps it secret."""
from __future__ import annotations

import enum
from collections import OrderedDict
from dataclasses import dataclass

from engines import Engine, Event, GameState, View

from . import render
from .i18n import t
from .replay import GameRecord, RecordAction, Replay

SEEK_OPTIONS = 25  # Discord's limit of options in one select
CACHED_REPLAYS = 8  # rebuilt replays kept in memory (the longest game takes ~1.3 s to rebuild)
CHECKPOINT_EVERY = 32  # frames between the states a viewer's replay keeps (the others are played again)
PRIVATE = "🔒"


class Perspective(str, enum.Enum):
    """Whose eyes: the clicker's own seat (resolved from who clicks, never carried as a seat number), a
    spectator's, or every seat's hand at once."""

    MINE = "m"
    SPECTATOR = "s"
    ALL = "a"


class SeekKind(str, enum.Enum):
    DEAL = "deal"
    TRICK = "trick"
    TURN = "turn"


# the event that starts a seek point, by kind, in the order a game's events are looked for
SEEK_EVENTS = (("deal_started", SeekKind.DEAL), ("trick_started", SeekKind.TRICK), ("turn_started", SeekKind.TURN))


class SteppedReplay:
    """A rebuilt replay as the viewer keeps it: every frame's action and events, but only every ``every``-th state
    (a checkpoint); a frame between two is reached by the engine applying the logged actions from the checkpoint
    before it (at most ``every - 1``, a few milliseconds). The full replay of the longest game takes ~68 MiB, so a
    cache of eight would be large; kept this way (its events and checkpoints) it takes ~13 MiB. The last frame
    shown is remembered, so ▶ applies one action."""

    def __init__(self, replay: Replay, every: int = CHECKPOINT_EVERY) -> None:
        self.record: GameRecord = replay.record
        self.engine: Engine = replay.engine
        self.every = every
        self.actions: list[RecordAction | None] = [f.action for f in replay.frames]
        self.events: list[list[Event]] = [f.events for f in replay.frames]
        self.checkpoints = {f.index: f.state for f in replay.frames if f.index % every == 0}
        self._last: tuple[int, GameState] = (0, self.checkpoints[0])  # one tuple: read and replaced atomically

    def __len__(self) -> int:
        return len(self.actions)

    def state(self, index: int) -> GameState:
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


@dataclass(frozen=True)
class SeekPoint:
    frame: int
    number: int  # the deal / trick / turn it starts, from 1


def thin(points: list[SeekPoint], most: int = SEEK_OPTIONS) -> list[SeekPoint]:
    """At most ``most`` of ``points``, evenly spaced, the first and last kept."""
    if len(points) <= most:
        return points
    step = (len(points) - 1) / (most - 1)
    return [points[round(i * step)] for i in range(most)]


def seek_points(replay: SteppedReplay) -> tuple[SeekKind, list[SeekPoint]]:
    """Where the seek menu jumps: the frames where a deal starts (else a trick, else a turn, as the game's events
    say); a game whose events mark none of them seeks by turn, a turn being a change of who moves."""
    for event_type, kind in SEEK_EVENTS:
        frames = [i for i, events in enumerate(replay.events) if any(ev.type == event_type for ev in events)]
        if len(frames) > 1:
            return kind, thin([SeekPoint(frame, n) for n, frame in enumerate(frames, 1)])
    frames, last_player = [0], None
    for index, action in enumerate(replay.actions[1:], 1):
        player = action.player if action is not None else None
        if player != last_player:
            frames.append(index)
            last_player = player
    return SeekKind.TURN, thin([SeekPoint(frame, n) for n, frame in enumerate(frames, 1)])


def frame_lines(replay: SteppedReplay, index: int, perspective: Perspective, player: str | None, lang: str,
                names: render.Names) -> list[str]:
    """Frame ``index`` seen through ``perspective`` (``player``: the seat of *my seat*): who moved, the public
    board, what happened as that perspective saw it, and the hands it may see."""
    game, action = replay.record.game, replay.actions[index]
    viewer = player if perspective is Perspective.MINE else None
    lines = []
    if action is not None:
        lines.append(t("review.moved", lang, player=names(action.player)))
    lines.append(render.board(game, replay.view(index, None), names, lang).text())
    events = replay.events[index] if perspective is Perspective.ALL else replay.events_seen(index, viewer)
    happened = [(ev, line) for ev in events if (line := render.event_line(game, ev, names, lang)) is not None]
    if happened:
        lines += ["", t("review.happened", lang)]
        lines += [line if ev.visible_to is None else f"{PRIVATE} {line}" for ev, line in happened]
    shown = [p.player for p in replay.record.players] if perspective is Perspective.ALL else [viewer]
    for seat in shown:
        if seat is not None:
            hand = render.hand(game, replay.view(index, seat), names, lang)
            lines += ["", f"{PRIVATE} {t('review.hand_of', lang, player=names(seat))}", hand]
    return lines


class ReplayCache:
    """The last ``size`` rebuilt replays by table id (least recently used leaves first): a stored game never
    changes once finished, so a rebuilt one stays true."""

    def __init__(self, size: int = CACHED_REPLAYS) -> None:
        self.size = size
        self._replays: OrderedDict[int, SteppedReplay] = OrderedDict()

    def get(self, table_id: int) -> SteppedReplay | None:
        replay = self._replays.get(table_id)
        if replay is not None:
            self._replays.move_to_end(table_id)
        return replay

    def put(self, table_id: int, replay: SteppedReplay) -> None:
        self._replays[table_id] = replay
        self._replays.move_to_end(table_id)
        while len(self._replays) > self.size:
            self._replays.popitem(last=False)

    def __len__(self) -> int:
        return len(self._replays)
