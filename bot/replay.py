"""Exact replays of stored games (issue 33): the engine itself rebuilds every frame of a game from its seed, options
and action log, and the rebuilt final state must equal the stored one — otherwise the replay is refused, never
shown wrong.

A ``GameRecord`` is everything a replay needs (the JSON file ``/game record`` hands out, or read from storage);
``rebuild`` plays it through the engine into a ``Replay``: frame 0 is the deal, frame n the state after the n-th
logged action (timeouts, bot moves and Pile up's hand-out in one action are logged like any move; seats handed to
a bot and taken back change who moves, not the log). A game records the engine's ``version`` that dealt it: a game
of another version is refused, one stored before versions were recorded (``LEGACY_ENGINE_VERSION``) is replayed
only if it reproduces its stored final state. Nothing here knows Discord."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Iterator, Literal, Protocol

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, ValidationError, model_serializer

from engines import Engine, EngineError, Event, GameState, Json, View, get_engine

from .errors import HostError
from .games import engine_hooks
from .i18n import LANGUAGES, language
from .storage import LEGACY_ENGINE_VERSION, Storage


class RecordSeat(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    player: str  # the engine's name for the seat
    name: str  # the name shown at the table
    bot: bool  # a bot sat there from the start (no person)


class RecordAction(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    seq: int
    player: str
    action: Json
    time: float  # when it was committed (Unix seconds)
    stand_in: bool = False  # a bot made it for the seat's person (their clock ran out, or they were away)

    @model_serializer(mode="wrap")
    def _own_moves_plain(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A seat's own move is written as before (no ``stand_in``): records of games nobody left keep their size
        and read the same in older versions."""
        data: dict[str, Any] = handler(self)
        if not self.stand_in:
            data.pop("stand_in", None)
        return data


class GameRecord(BaseModel):
    """A finished game as a file to keep: who played, how it was dealt, every action with its time, and a digest
    of the final state the replay must reach."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["gamehost.game-record"] = "gamehost.game-record"
    format_version: Literal[1] = 1
    table: int
    game: str
    engine_version: int
    seed: int
    options: Json
    players: list[RecordSeat]
    actions: list[RecordAction]
    final_state_sha256: str
    lang: str | None = None  # the table's language (``en``, ``ja``); records written before it was kept lack it

    def dump(self) -> bytes:
        return self.model_dump_json(indent=1).encode()

    @classmethod
    def read(cls, data: bytes | str) -> "GameRecord":
        """A record file's content; anything else is refused with ``record_unreadable``."""
        try:
            return cls.model_validate_json(data)
        except ValidationError as error:
            first = error.errors()[0]
            raise HostError("record_unreadable", where=".".join(map(str, first["loc"])) or "-") from None

    def language(self, asked: str | None = None) -> str:
        """The language to show it in: ``asked`` (``--lang``), else the table's own, else English."""
        return asked or (self.lang if self.lang in LANGUAGES else "en")

    def seat_player(self, seat: int | None) -> str | None:
        """The engine's player at this seat number (None: the spectator); an unknown seat is refused."""
        if seat is None:
            return None
        for entry in self.players:
            if entry.seat == seat:
                return entry.player
        raise HostError("replay_no_seat", seat=seat, seats=[p.seat for p in self.players])


def state_digest(state: GameState) -> str:
    """The SHA-256 of a state's canonical JSON (sorted keys): equal digests, equal states."""
    canonical = json.dumps(state.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


async def stored_record(storage: Storage, game_id: int) -> GameRecord:
    """The record of a stored game that was dealt (its state and log as the database holds them)."""
    row = await storage.get_game(game_id)
    if row is None:
        raise HostError("no_such_game", game_id=game_id)
    if row.state is None:
        raise HostError("replay_not_dealt", game_id=game_id)
    engine = get_engine(row.game)
    try:
        final = engine.load(row.state)
    except ValidationError:  # a state the engine of today cannot even read
        raise HostError("replay_mismatch", game_id=game_id) from None
    log = await storage.action_log(game_id)
    return GameRecord(
        table=row.id, game=row.game, engine_version=row.engine_version, seed=row.seed, options=row.options,
        players=[RecordSeat(seat=s.seat, player=s.player, name=s.name, bot=s.is_bot and s.user_id is None)
                 for s in row.seats],
        actions=[RecordAction(seq=a.seq, player=a.player, action=a.action, time=a.created_at, stand_in=a.stand_in)
                 for a in log],
        final_state_sha256=state_digest(final), lang=language(row.locale))


@dataclass(frozen=True)
class Frame:
    """The game after ``action`` (None: the deal), and the events that action caused."""

    index: int
    action: RecordAction | None
    state: GameState
    events: list[Event]


@dataclass(frozen=True)
class Replay:
    record: GameRecord
    engine: Engine
    frames: list[Frame]

    def __len__(self) -> int:
        return len(self.frames)

    def view(self, index: int, viewer: str | None) -> View:
        """What ``viewer`` (a player, or None for a spectator) saw at frame ``index``: the engine's own view."""
        return self.engine.view(self.frames[index].state, viewer)

    def state(self, index: int) -> GameState:
        return self.frames[index].state

    def frame_action(self, index: int) -> RecordAction | None:
        """The logged move that made frame ``index`` (None for the deal)."""
        return self.frames[index].action

    def frame_events(self, index: int) -> list[Event]:
        return self.frames[index].events

    def events_seen(self, index: int, viewer: str | None) -> list[Event]:
        """The events of frame ``index`` shown to ``viewer``: public ones, and private ones meant for them."""
        return [ev for ev in self.frames[index].events
                if ev.visible_to is None or (viewer is not None and viewer in ev.visible_to)]


class Rebuilt(Protocol):
    """A rebuilt game as the summary and the reveal read it: a ``Replay`` (every state) or the viewer's
    ``bot.review.SteppedReplay`` (checkpoints)."""

    @property
    def record(self) -> GameRecord: ...

    def __len__(self) -> int: ...

    def view(self, index: int, viewer: str | None) -> View: ...

    def state(self, index: int) -> GameState: ...

    def frame_action(self, index: int) -> RecordAction | None: ...

    def frame_events(self, index: int) -> list[Event]: ...


def check_version(record: GameRecord, engine: Engine) -> None:
    if record.engine_version not in (engine.version, LEGACY_ENGINE_VERSION, *engine.replays_versions):
        raise HostError("replay_other_version", game_id=record.table, stored=record.engine_version,
                        current=engine.version)


def _refused(record: GameRecord) -> HostError:
    code = "replay_legacy_mismatch" if record.engine_version == LEGACY_ENGINE_VERSION else "replay_mismatch"
    return HostError(code, game_id=record.table)


def replayed(record: GameRecord) -> Iterator[Frame]:
    """Every frame of the game as the engine plays it again, one at a time (a caller keeps what it needs, not
    every state); refused (``HostError``) unless the engine is the one that played it (or the game is legacy) and
    its final state is the stored one — checked after the last frame, so a caller must take them all."""
    try:
        engine = get_engine(record.game)
    except EngineError:
        raise HostError("replay_unknown_game", game=record.game) from None
    check_version(record, engine)
    players = [p.player for p in sorted(record.players, key=lambda p: p.seat)]
    try:
        state = engine.new_game(players, seed=record.seed,
                                options=engine.stored_options(record.options, record.engine_version))
        start_events = engine_hooks(record.game).start_events
        yield Frame(0, None, state, list(start_events(state)) if start_events else [])
        for index, logged in enumerate(record.actions, 1):
            state, events = engine.apply(state, logged.player, logged.action)
            yield Frame(index, logged, state, events)
    except EngineError:  # an action the engine refuses: this log is not what it played
        raise _refused(record) from None
    if state_digest(state) != record.final_state_sha256:
        raise _refused(record)


def rebuild(record: GameRecord) -> Replay:
    """Every frame of the game, played again by the engine and checked (``replayed``), every state kept."""
    frames = list(replayed(record))
    return Replay(record, get_engine(record.game), frames)


async def rebuild_stored(storage: Storage, game_id: int) -> Replay:
    return rebuild(await stored_record(storage, game_id))
