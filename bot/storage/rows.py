"""What the storage seam hands out and takes in: plain rows, no connection."""
from __future__ import annotations

import asyncio
import json
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import TypedDict

from engines import Json

from ..levels import BotLevel


class GameStatus(StrEnum):
    """A stored game's ``status`` (the CHECK of ``0001_init.sql``)."""

    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class TablesIn(StrEnum):
    """Where a server's new tables play (its ``guild_settings.tables``, chosen with ``/config tables``)."""

    THREAD = "thread"  # each in a thread started from its lobby message (the default)
    CHANNEL = "channel"  # in the channel of its lobby


class EndReason(StrEnum):
    """Why a table ended before its game did (a game's ``end_reason``)."""

    ABANDONED = "abandoned"  # every person left
    PAUSED_ENDED = "paused_ended"  # its host (or an admin) ended it while paused
    IDLE = "idle"  # it stayed paused too long and was closed
    CHANNEL_GONE = "channel_gone"  # its channel was deleted
    LOBBY_IDLE = "lobby_idle"  # its lobby stayed unchanged too long without a start and was closed


class VersionConflict(Exception):
    """The game's stored version is not the one the writer expected."""


@dataclass
class SeatRow:
    seat: int
    player: str
    name: str
    user_id: int | None = None
    is_bot: bool = False
    timeouts: int = 0  # decisions in a row that ran out of time
    away: bool = False  # handed to a bot after too many timeouts, until the player comes back
    level: BotLevel = BotLevel.NORMAL  # a bot seat's level (a person's stand-in always plays normal)
    showed_up: bool = False  # its person made a move of their own, or took the seat back (a tournament's no-shows)

    def __post_init__(self) -> None:
        self.level = BotLevel(self.level)  # storage gives its stored text


@dataclass
class BoardShown:
    """What a table's board message shows the players (stored with the table as JSON): a restarted bot knows whose
    turn ping was delivered (``told``), redraws the board with the same lines, and finishes a board post that was
    under way (``posting``: its nonce, written before it is sent, so Discord answers a repeat with the message)."""

    version: int | None = None  # the game version the board was last written at
    told: list[int] = field(default_factory=list)  # the people whose turn the board message was posted for
    lines: list[str] = field(default_factory=list)  # the event lines it shows
    posting: str | None = None  # the nonce of a new board message being sent
    posting_for: list[int] = field(default_factory=list)  # whose turn that message begins (and who it pings)
    # Logged actions whose event lines the board has taken (None: not known, as in records written before): after a
    # restart, the lines of the actions after these are rebuilt from the log (``BoardWriter.catch_up``).
    actions: int | None = None

    def dump(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def load(cls, text: str | None) -> "BoardShown":
        if not text:
            return cls()
        data = json.loads(text)
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    options: Json
    seed: int
    status: GameStatus
    host_id: int
    locale: str = "en"
    version: int = 0
    state: str | None = None
    lobby_message_id: int | None = None
    board_message_id: int | None = None
    turn_seconds: int = 120
    deadline: float | None = None
    rematch_id: int | None = None  # the table its Rematch opened, once someone pressed it
    paused_at: float | None = None  # when every person became away and the table paused (None: not paused)
    open_thread: bool = False  # to move, at its start, to a thread started from its lobby message
    lobby_channel_id: int | None = None  # where its lobby is, when it plays elsewhere (its thread)
    board_shown: BoardShown = field(default_factory=BoardShown)  # what its board message shows the players
    result_shown: bool = False  # the finished table's result was posted
    told_shown: bool = False  # its end was told in its lobby's channel (or there was nothing to tell)
    end_tidied: bool = False  # its lobby shows the end and its thread is archived
    engine_version: int = 0  # the engine's rules version that dealt it (LEGACY_ENGINE_VERSION: not recorded)
    end_reason: EndReason | None = None  # why it ended before its game did
    moves: int = 0  # the actions its game logged (the moves a board, a record and the viewer number)
    seats: list[SeatRow] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.status = GameStatus(self.status)  # storage gives its stored text
        self.end_reason = None if self.end_reason is None else EndReason(self.end_reason)


class RowChange(TypedDict, total=False):
    """Columns of a game row a committed write changed (``Table.committed``): the ``GameRow`` fields a write sets,
    each with its type, so a status given as text is a type error there too."""

    guild_id: int | None
    channel_id: int
    options: Json
    status: GameStatus
    host_id: int
    locale: str
    lobby_message_id: int | None
    board_message_id: int | None
    turn_seconds: int
    deadline: float | None
    rematch_id: int | None
    paused_at: float | None
    open_thread: bool
    lobby_channel_id: int | None
    board_shown: BoardShown
    result_shown: bool
    told_shown: bool
    end_tidied: bool
    engine_version: int
    end_reason: EndReason | None
    moves: int
    seats: list[SeatRow]


LEGACY_ENGINE_VERSION = 0  # a game stored before the engine's version was recorded (migration 0013)


@dataclass(frozen=True)
class LoggedAction:
    """One entry of a game's append-only action log."""
    seq: int
    player: str
    action: Json
    created_at: float
    stand_in: bool = False  # a bot made it for the seat's person (out of time, or away)


@dataclass
class PendingAction:
    """One table's action waiting for the next group commit."""
    game_id: int
    expected_version: int
    player: str
    action: str
    state: str
    status: GameStatus
    bot_to_act: bool
    deadline: float | None
    seat: SeatRow | None  # a seat whose timeout count (or bot flag) changes with this action
    notices: list[tuple[str, str]]
    done: asyncio.Future[None]
    board_shown: str | None = None  # the table's new record of what its players were shown (None: unchanged)
    stand_in: bool = False  # a bot made this move for the seat's person (out of time, or away)


@dataclass(frozen=True)
class ShardFilter:
    """The shards a process owns: a table belongs to shard ``(guild_id >> 22) % count`` (no guild: shard 0)."""
    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int | None) -> bool:
        return ((guild_id or 0) >> 22) % self.count in self.ids

    def sql(self, column: str = "guild_id") -> tuple[str, list[int]]:
        """A WHERE fragment (same text on SQLite and PostgreSQL) and its parameters."""
        marks = ", ".join("?" * len(self.ids))
        return f"((COALESCE({column}, 0) >> 22) % ?) IN ({marks})", [self.count, *self.ids]
