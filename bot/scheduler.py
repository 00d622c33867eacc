"""Bot seats: after every change, a table whose next decision belongs to a bot gets a task
that waits ``delay`` seconds (so people can follow) and plays the bot's move through the
service, like any player. On start-up ``resume`` kicks every running table again."""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Callable

from engines import Action
from engines.streams import STREAMS_FIELD, Streams

from .errors import HostError
from .service import GameService
from .storage import BotLevel, GameStatus
from .table import Table, Update
from .thinking import Thinker, Thinkers

log = logging.getLogger(__name__)


def seat_level(table: Table, player: str) -> BotLevel:
    """A bot seat's level; a bot standing in for a person (absent, left, kicked) always plays ``normal``."""
    seat = table.seat_of(player)
    return BotLevel.NORMAL if seat is None or seat.user_id is not None else seat.level


def bot_key(table: Table, player: str) -> str:
    """What seeds a bot's choices besides the table's seed and version: its player id; at a table with per-seat
    streams (a same-deal tournament round) its seat number, so the bot in seat i is one and the same bot at every
    table of the round, a constant its seat's holders are compared against (issue 55)."""
    seat = table.seat_of(player)
    streams = Streams(str(table.row.options.get(STREAMS_FIELD, Streams.SHARED)))  # the engine checked its text
    return f"seat{seat.seat}" if seat is not None and streams is Streams.PER_SEAT else player


class BotScheduler:
    def __init__(self, service: GameService, delay: float = 1.5, thinker: Thinker | Thinkers | None = None) -> None:
        self.service = service
        self.delay = delay
        self.thinker = thinker or Thinker()  # not started: everything is decided on the loop
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._closed = False  # after close, updates still being delivered start no bot (the storage closes next)
        self.on_decided: Callable[[float], None] | None = None  # each decision's wait beyond pacing (bot.metrics)
        service.subscribe(self.on_update)

    async def on_update(self, update: Update) -> None:
        if update.table.status is GameStatus.RUNNING:
            self.kick(update.table.id)

    def kick(self, game_id: int) -> None:
        if self._closed:
            return
        task = self._tasks.get(game_id)
        if task is None or task.done():
            task = self._tasks[game_id] = asyncio.create_task(self._play_bots(game_id))
            task.add_done_callback(lambda done: self._drop_task(game_id, done))

    def _drop_task(self, game_id: int, done: asyncio.Task[None]) -> None:
        if self._tasks.get(game_id) is done:  # a table without a bot to move keeps no entry
            del self._tasks[game_id]

    async def resume(self) -> int:
        """After a restart: wake the tables where a bot must move (the others load lazily when touched)."""
        self._closed = False  # resuming (re)opens a closed scheduler
        ids = await self.service.tables_waiting_on_bots()
        for game_id in ids:
            self.kick(game_id)
        return len(ids)

    async def _play_bots(self, game_id: int) -> None:
        while True:
            table = await self.service.table(game_id)
            # paused: the bots wait for a person to come back
            if table.status is not GameStatus.RUNNING or table.paused:
                return
            bots = [p for p in table.to_act() if table.is_bot(p)]
            # A bot may also take an out-of-turn action (Rocca's Bon) while others decide.
            bots += [s.player for s in table.seats if s.is_bot and s.player not in bots
                     and table.engine.out_of_turn_actions(table.state, s.player)]
            if not bots:
                return
            version, player = table.version, bots[0]
            # The bot thinks while it waits its pacing delay: a decision that waited for a busy worker is still
            # ready when the delay is over, so the table moves on time (python -m bench.service_load: the bots'
            # wait beyond pacing).
            thinking = asyncio.ensure_future(self.think(table, player, version))
            try:
                if self.delay:
                    await asyncio.sleep(self.delay)
                if table.version != version:  # someone moved meanwhile: think again about the new position
                    continue
                waited = time.perf_counter()
                action = await thinking
                if self.on_decided is not None:  # the wait beyond pacing (bot.metrics)
                    self.on_decided(time.perf_counter() - waited)
            finally:
                if not thinking.done():
                    thinking.cancel()  # withdrawn from its worker's queue when it is no longer wanted
                elif not thinking.cancelled():
                    thinking.exception()  # a stale decision's error is not this move's: marked as seen
            if table.version != version:
                continue
            try:
                await self.service.act_as(game_id, player, action, expected_version=version)
            except HostError as exc:
                if exc.code not in ("stale", "game_not_running", "table_paused"):
                    raise
            except Exception:
                log.exception("bot %s failed to move at table %s", player, game_id)
                return

    async def think(self, table: Table, player: str, version: int) -> Action:
        """The bot's move at its seat's level, seeded by table, version and seat so a replayed demo makes the same
        choices. The thinker decides in its worker processes once it is started (``bot/thinking.py``): they get the
        table's state and build the seat's view there."""
        seed = f"{table.row.seed}:{version}:{bot_key(table, player)}"
        return await self.thinker.decide(table.engine, table.state, player, seed, seat_level(table, player),
                                         state_text=table.state_text)

    async def idle(self) -> None:
        """Wait until no bot has a move pending and every update is delivered (tests, demo)."""
        while True:
            await self.service.drain()
            pending = [t for t in self._tasks.values() if not t.done()]
            if not pending:
                await self.service.drain()
                if not any(not t.done() for t in self._tasks.values()):
                    return
                continue
            await asyncio.wait(pending)

    async def close(self) -> None:
        self._closed = True
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
