"""A table: one running (or waiting) game as a live object, separate from any cog."""
from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Unpack

from engines import Action, Engine, Event, Result, View, get_engine
from engines.base import V

from .place import Place, place_of
from .render import seat_names
from .storage import EndReason, GameRow, GameStatus, SeatRow
from .storage.rows import RowChange

ACTIVE = (GameStatus.LOBBY, GameStatus.RUNNING)  # the statuses of a table still in play


def human_player(user_id: int) -> str:
    return f"u{user_id}"


@dataclass
class Table:
    row: GameRow
    _state: Any | None = None  # the game's state (None before the deal): read it as ``state``
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clock_paused: bool = False  # the channel cannot be reached: no turn deadline until it can
    _moving: bool = field(default=False, repr=False)  # a move changed ``_state`` in place; its commit is under way
    _committed: Any | None = field(default=None, repr=False)  # the committed state, read back meanwhile

    @property
    def state(self) -> Any | None:
        """The game's state as last committed (None before the deal). While a move that changed the table's own
        state in place is being committed (``move``), it is the committed one, read back from its stored text
        when first asked for: nothing is shown a state that is not stored (the commit may still fail)."""
        if not self._moving:
            return self._state
        if self._committed is None:
            self._committed = self._stored_state()
        return self._committed

    @state.setter
    def state(self, state: Any | None) -> None:
        """A position set outside the service's commits (tests, the Discord sample): its text follows, as if
        stored (a refused move takes this one back), and the table keeps a copy of its own, which its moves
        change in place (the caller's never changes)."""
        self.row.state = None if state is None else self.engine.dump(state)
        self._state = None if self.row.state is None else self.engine.load(self.row.state)

    @property
    def state_text(self) -> str | None:
        """``state`` as stored (its JSON dump, kept beside it): what a bot's worker process is handed."""
        return self.row.state

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def engine(self) -> Engine:
        return get_engine(self.row.game)

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def moves(self) -> int:
        """The moves its game has logged (a bot's and a timeout's too): the number a board, the record, the viewer
        and the reveal give the latest (``version`` counts every stored change, the lobby's too)."""
        return self.row.moves

    @property
    def status(self) -> GameStatus:
        return self.row.status

    @property
    def place(self) -> Place:
        """Where it plays (``bot.place``: the one reading of its row's channel fields)."""
        return place_of(self.row)

    @property
    def paused(self) -> bool:
        """Every person at this running table is away: no clock runs and no bot moves until one comes back."""
        return self.row.status is GameStatus.RUNNING and self.row.paused_at is not None

    @property
    def seats(self) -> list[SeatRow]:
        return self.row.seats

    def seat_of_user(self, user_id: int) -> SeatRow | None:
        return next((s for s in self.row.seats if s.user_id == user_id and not s.is_bot), None)

    def seat_of(self, player: str) -> SeatRow | None:
        return next((s for s in self.row.seats if s.player == player), None)

    def names(self, locale: object | None = None) -> dict[str, str]:
        """Seat names as the reader sees them on the board (the host's bots as "Bot 1" / 「ボット1」)."""
        return seat_names(self.row.seats, locale).display

    def is_bot(self, player: str) -> bool:
        seat = self.seat_of(player)
        return seat is not None and seat.is_bot

    def to_act(self) -> list[str]:
        return self.engine.to_act(self.state) if self.state is not None else []

    def view(self, viewer: str | None) -> View:
        return self.engine.view(self.state, viewer)

    def view_as(self, kind: type[V], viewer: str | None) -> V:
        """``view`` typed as the game's own view model (a game's controls know which one its engine builds)."""
        view = self.view(viewer)
        if not isinstance(view, kind):
            raise TypeError(f"{self.row.game} views are {type(view).__name__}, not {kind.__name__}")
        return view

    def result(self) -> Result | None:
        return self.engine.result(self.state) if self.state is not None else None

    def committed(self, *, bumped: bool, state: Any = None, state_text: str | None = None,
                  **row: Unpack[RowChange]) -> None:
        """Bring this table in line with a write that has just committed — the one place memory follows the
        database: the game row's columns it wrote (``seats``, ``status``, ``deadline``, ...), the new ``state`` (if
        any, with ``state_text``, the dump stored) and, when the write advanced it, the version. Called only after
        the commit succeeded, so a failed write leaves memory as it was."""
        if (state is None) != (state_text is None):
            raise ValueError("a new state comes with the text stored for it")
        for key, value in row.items():
            if not hasattr(self.row, key):
                raise AttributeError(f"GameRow has no {key!r}")
            setattr(self.row, key, value)
        if state is not None:
            self._state, self.row.state = state, state_text
            self._moving, self._committed = False, None
        if bumped:
            self.row.version += 1

    def move(self, player: str, action: Action) -> list[Event]:
        """Play ``action`` on the table's own state, changed in place (``Engine.apply_in_place``: no copy), under
        the table's lock; ``moved`` is that state until the move is committed (``committed``) or given up
        (``restore``), and ``state`` meanwhile the committed one. A refused move takes the committed state back
        at once (a transition may refuse after changing part of it)."""
        self._moving = True
        try:
            return self.engine.apply_in_place(self._state, player, action)
        except BaseException:
            self.restore()
            raise

    @property
    def moved(self) -> Any:
        """The state a move made, being committed (``move``)."""
        if not self._moving:
            raise RuntimeError("no move is being committed")
        return self._state

    @property
    def moving(self) -> bool:
        """A move changed the table's own state in place and its commit is under way."""
        return self._moving

    def restore(self) -> None:
        """Give up a move (``move``: refused, or its commit failed): the table's state is the committed one again,
        read back from its stored text."""
        self._state = self._stored_state()
        self._moving, self._committed = False, None

    def _stored_state(self) -> Any:
        """The committed state, read back from its stored text (a running table always has one)."""
        if self.row.state is None:
            raise RuntimeError(f"table {self.id} has no stored state")
        return self.engine.load(self.row.state)

    def user_ids_to_act(self) -> list[int]:
        ids = []
        for player in self.to_act():
            seat = self.seat_of(player)
            if seat and not seat.is_bot and seat.user_id is not None:
                ids.append(seat.user_id)
        return ids


class UpdateKind(StrEnum):
    """What changed at a table. Listeners match these exhaustively where it matters (``cogs/outbox.py``)."""

    LOBBY = "lobby"  # a lobby's seats changed
    STARTED = "started"  # the game was dealt
    ACTION = "action"  # a move was committed
    TIMEOUT = "timeout"  # a decision ran out of time and a bot moved for the person
    SEATS = "seats"  # a running table's seats changed (a person left, came back, was kicked)
    ENDED = "ended"  # finished, or ended early (``Update.reason`` says why)
    WARNING = "warning"  # the decision now due is about to run out (nothing stored changed)
    CLOCK = "clock"  # the turn clock paused or resumed (nothing else changed)
    PAUSED = "paused"  # every person is away: the table waits
    RESUMED = "resumed"  # a person came back to a paused table


@dataclass
class Update:
    """What listeners (the Discord cog, the terminal demo, the scheduler) hear after each committed change."""

    table: Table
    kind: UpdateKind
    version: int
    events: list[Event] = field(default_factory=list)
    actor: str | None = None
    reason: EndReason | None = None  # why a table ended early, when it did (set before the update is published)
    logged: bool = False  # this change appended one action to the game's log (a move, a timeout's, a bot's)
    # The state right after this change as stored (None before the deal): the table's own state changes in place
    # with its next move, so an update keeps the text, which nothing changes.
    state_text: str | None = field(default=None, repr=False, compare=False)

    @functools.cached_property
    def public_view(self) -> View | None:
        """The spectator view right after this change, built on first read: most updates are never read so (the
        Discord cog draws its board from the table when it writes)."""
        if self.state_text is None:
            return None
        engine = self.table.engine
        return engine.view(engine.load(self.state_text), None)
