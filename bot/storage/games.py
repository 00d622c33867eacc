"""Games, seats, the append-only action log, notices, timers and server settings, on either backend.

Every write is one transaction; an action, its new state and its version bump land together or not at all, and
the caller is answered only after the commit. Writes that can race carry the version they expect."""
from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Callable

from engines import Json

from .backend import Database, Param, Tx
from .rows import (
    LEGACY_ENGINE_VERSION,
    BoardShown,
    GameRow,
    GameStatus,
    LoggedAction,
    PendingAction,
    SeatRow,
    ShardFilter,
    TablesIn,
    VersionConflict,
)

_GAME_COLUMNS = ("id, guild_id, channel_id, game, options, seed, status, host_id, locale, version, state, "
                 "lobby_message_id, board_message_id, turn_seconds, deadline, rematch_id, paused_at, open_thread, "
                 "lobby_channel_id, board_shown, result_shown, told_shown, end_tidied, engine_version, end_reason")
_MOVES = "(SELECT COUNT(*) FROM actions WHERE actions.game_id = games.id) AS moves"  # the moves logged so far
_UPDATABLE = {"status", "state", "lobby_message_id", "board_message_id", "locale", "deadline", "turn_seconds",
              "host_id", "bot_to_act", "rematch_id", "paused_at", "open_thread",
              "channel_id", "lobby_channel_id", "end_reason"}


def _where_shards(sql: str, params: list[Any], shards: ShardFilter | None, column: str = "guild_id") -> str:
    if shards is None:
        return sql
    fragment, values = shards.sql(column)
    params.extend(values)
    return f"{sql} AND {fragment}"


class GameStore:
    db: Database

    def _init_games(self) -> None:
        self._pending: list[PendingAction] = []
        self._flusher: asyncio.Task[None] | None = None
        self.on_commit: Callable[[float], None] | None = None  # each group commit's seconds (bot.metrics)

    # ---- games and seats -----------------------------------------------------------
    async def create_game(self, *, guild_id: int | None, channel_id: int, game: str, options: Json,
                          seed: int, host_id: int, locale: str, seats: list[SeatRow], turn_seconds: int = 120,
                          open_thread: bool = False) -> int:
        now = time.time()
        async with self.db.transaction() as tx:
            game_id = await tx.fetchval(
                "INSERT INTO games (guild_id, channel_id, game, options, seed, status, host_id, locale, "
                "turn_seconds, open_thread, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING id",
                guild_id, channel_id, game, json.dumps(options), seed, host_id, locale, turn_seconds,
                int(open_thread), now, now)
            await self._write_seats(tx, game_id, seats)
        return int(game_id)

    @staticmethod
    async def _write_seats(tx: Tx, game_id: int, seats: list[SeatRow]) -> None:
        await tx.execute("DELETE FROM seats WHERE game_id = ?", game_id)
        await tx.executemany(
            "INSERT INTO seats (game_id, seat, player, user_id, is_bot, name, timeouts, away, level, showed_up) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.player, s.user_id, int(s.is_bot), s.name, s.timeouts, int(s.away), s.level,
              int(s.showed_up)) for s in seats],
        )

    async def replace_seats(self, game_id: int, seats: list[SeatRow], *, expected_version: int,
                            host_id: int | None = None, bot_to_act: bool | None = None,
                            deadline: float | bool | None = False, paused_at: float | bool | None = False) -> None:
        """Rewrite a table's seats (lobby changes, a seat handed to a bot or back); bumps the version.
        ``deadline=False`` and ``paused_at=False`` leave the stored deadline and pause as they are."""
        extra: dict[str, Param] = {} if host_id is None else {"host_id": host_id}
        if bot_to_act is not None:
            extra["bot_to_act"] = int(bot_to_act)
        if deadline is not False:
            extra["deadline"] = deadline
        if paused_at is not False:
            extra["paused_at"] = paused_at
        async with self.db.transaction() as tx:
            await self._bump_version(tx, game_id, expected_version, **extra)
            await self._write_seats(tx, game_id, seats)

    async def update_game(self, game_id: int, *, expected_version: int, bump: bool = False, **fields: Any) -> None:
        """Write some columns of a game whose stored version is ``expected_version`` (else ``VersionConflict``);
        ``bump`` also advances the version (a change of the game, not just of its bookkeeping)."""
        unknown = set(fields) - _UPDATABLE
        if unknown:
            raise ValueError(f"not updatable: {unknown}")
        async with self.db.transaction() as tx:
            if bump:
                await self._bump_version(tx, game_id, expected_version, **fields)
                return
            sets = "".join(f"{k} = ?, " for k in fields)
            if await tx.execute(f"UPDATE games SET {sets}updated_at = ? WHERE id = ? AND version = ?",
                                *fields.values(), time.time(), game_id, expected_version) != 1:
                raise VersionConflict(game_id)

    @staticmethod
    async def _bump_version(tx: Tx, game_id: int, expected: int, **fields: Any) -> None:
        sets = "".join(f", {k} = ?" for k in fields)
        changed = await tx.execute(
            f"UPDATE games SET version = version + 1, updated_at = ?{sets} WHERE id = ? AND version = ?",
            time.time(), *fields.values(), game_id, expected)
        if changed != 1:
            raise VersionConflict(game_id)

    async def note_output(self, game_id: int, *, board_message_id: int | bool | None = False,
                          board_shown: BoardShown | None = None, result_shown: bool | None = None,
                          told_shown: bool | None = None, end_tidied: bool | None = None) -> None:
        """Record what a table's players were shown. Not a change of the game: no version check or bump (one
        process owns a table's output; a move committed meanwhile does not make it wrong)."""
        fields: dict[str, Param] = {}
        if board_message_id is not False:
            fields["board_message_id"] = board_message_id
        if board_shown is not None:
            fields["board_shown"] = board_shown.dump()
        for name, flag in (("result_shown", result_shown), ("told_shown", told_shown), ("end_tidied", end_tidied)):
            if flag is not None:
                fields[name] = int(flag)
        if fields:
            sets = ", ".join(f"{k} = ?" for k in fields)
            async with self.db.transaction() as tx:
                await tx.execute(f"UPDATE games SET {sets} WHERE id = ?", *fields.values(), game_id)

    async def tables_to_show(self, shards: ShardFilter | None = None) -> list[int]:
        """Tables whose players may not have seen everything yet: every lobby and running table (redrawn at a
        start), and ended tables whose result, end line or tidy end was not delivered."""
        params: list[Any] = []
        sql = _where_shards("SELECT id FROM games WHERE (status IN ('lobby', 'running') "
                            "OR (status = 'finished' AND result_shown = 0) OR told_shown = 0 OR end_tidied = 0)",
                            params, shards)
        return [r[0] for r in await self.db.fetch(sql + " ORDER BY id", *params)]

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self.db.fetchrow(f"SELECT {_GAME_COLUMNS}, {_MOVES} FROM games WHERE id = ?", game_id)
        if row is None:
            return None
        game = GameRow(**{k: row[k] for k in row.keys()} | {
            "options": json.loads(row["options"]), "open_thread": bool(row["open_thread"]),
            "board_shown": BoardShown.load(row["board_shown"]), "result_shown": bool(row["result_shown"]),
            "told_shown": bool(row["told_shown"]), "end_tidied": bool(row["end_tidied"])})
        rows = await self.db.fetch("SELECT seat, player, name, user_id, is_bot, timeouts, away, level, showed_up "
                                   "FROM seats WHERE game_id = ? ORDER BY seat", game_id)
        game.seats = [SeatRow(r["seat"], r["player"], r["name"], r["user_id"], bool(r["is_bot"]), r["timeouts"],
                              bool(r["away"]), r["level"], bool(r["showed_up"])) for r in rows]
        return game

    async def game_ids(self, *, status: tuple[GameStatus, ...], channel_id: int | None = None) -> list[int]:
        """Games of these statuses; with ``channel_id``, those playing there or whose lobby is there (a table
        playing in a thread started from its lobby message belongs to both)."""
        marks = ", ".join("?" * len(status))
        sql = f"SELECT id FROM games WHERE status IN ({marks})"
        params: list[Any] = list(status)
        if channel_id is not None:
            sql += " AND (channel_id = ? OR lobby_channel_id = ?)"
            params += [channel_id, channel_id]
        return [r[0] for r in await self.db.fetch(sql + " ORDER BY id", *params)]

    # ---- server settings -------------------------------------------------------------
    async def guild_language(self, guild_id: int) -> str | None:
        return await self.db.fetchval("SELECT language FROM guild_settings WHERE guild_id = ?", guild_id)

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        async with self.db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings (guild_id, language) VALUES (?, ?) "
                             "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language", guild_id, language)

    async def guild_tables(self, guild_id: int) -> TablesIn | None:
        """Where this server's tables play, or None (never chosen: a thread)."""
        tables = await self.db.fetchval("SELECT tables FROM guild_settings WHERE guild_id = ?", guild_id)
        return None if tables is None else TablesIn(tables)

    async def set_guild_tables(self, guild_id: int, tables: TablesIn) -> None:
        async with self.db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings (guild_id, tables) VALUES (?, ?) "
                             "ON CONFLICT (guild_id) DO UPDATE SET tables = excluded.tables", guild_id, tables)

    # ---- per-person settings -----------------------------------------------------------
    async def muted_pings(self, user_ids: list[int]) -> set[int]:
        """Which of these people asked not to be @mentioned for their turns."""
        if not user_ids:
            return set()
        marks = ", ".join("?" for _ in user_ids)
        rows = await self.db.fetch(f"SELECT user_id FROM user_settings WHERE mute_pings = 1 AND user_id IN ({marks})",
                                   *user_ids)
        return {int(row[0]) for row in rows}

    async def set_mute_pings(self, user_id: int, muted: bool) -> None:
        async with self.db.transaction() as tx:
            await tx.execute("INSERT INTO user_settings (user_id, mute_pings) VALUES (?, ?) "
                             "ON CONFLICT (user_id) DO UPDATE SET mute_pings = excluded.mute_pings", user_id,
                             int(muted))

    # ---- the action log --------------------------------------------------------------
    async def start_game(self, game_id: int, *, state: str, expected_version: int, bot_to_act: bool,
                         deadline: float | None, engine_version: int = LEGACY_ENGINE_VERSION,
                         options: Json | None = None) -> None:
        """The game is dealt: its first state, the version of the engine's rules that plays it (unknown if not
        given) and, when the game starts with other options than the lobby's (a quick length chosen at Start),
        those options."""
        changed = {} if options is None else {"options": json.dumps(options)}
        async with self.db.transaction() as tx:
            await self._bump_version(tx, game_id, expected_version, status=GameStatus.RUNNING, state=state,
                                     bot_to_act=int(bot_to_act), deadline=deadline, engine_version=engine_version,
                                     **changed)

    async def commit_action(self, game_id: int, *, expected_version: int, player: str, action: Json,
                            state: str, status: GameStatus, notices: list[tuple[str, str]], bot_to_act: bool = False,
                            deadline: float | None = None, seat: SeatRow | None = None,
                            board_shown: BoardShown | None = None, stand_in: bool = False) -> None:
        """Append the action, write the state and bump the version atomically; returns once committed.

        Group commit: actions of different tables that arrive while a commit is under way are written
        together in the next transaction, so many busy tables share one commit instead of queueing behind
        each other. Each action is still all-or-nothing, checked against its own version, and only
        acknowledged after its commit.
        """
        done = asyncio.get_running_loop().create_future()
        self._pending.append(PendingAction(game_id, expected_version, player, json.dumps(action), state, status,
                                           bot_to_act, deadline, seat, notices, done,
                                           board_shown.dump() if board_shown is not None else None, stand_in))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_pending())
        await done

    def _next_batch(self) -> list[PendingAction]:
        """The pending actions of distinct tables (a second action of a table waits for the next batch)."""
        batch: list[PendingAction] = []
        rest: list[PendingAction] = []
        seen: set[int] = set()
        for item in self._pending:
            (rest if item.game_id in seen else batch).append(item)
            seen.add(item.game_id)
        self._pending = rest
        return batch

    async def _flush_pending(self) -> None:
        while self._pending:
            batch = self._next_batch()
            try:
                started = time.perf_counter()
                ok = await self.db.write_actions(batch, time.time())
                if self.on_commit is not None:
                    self.on_commit(time.perf_counter() - started)
            except Exception as error:
                if len(batch) == 1:
                    batch[0].done.set_exception(error)
                    continue
                for item in batch:  # find the one that failed: the others still commit, one by one
                    try:
                        ok = await self.db.write_actions([item], time.time())
                    except Exception as single:
                        item.done.set_exception(single)
                    else:
                        self._settle([item], ok)
                continue
            self._settle(batch, ok)

    @staticmethod
    def _settle(batch: list[PendingAction], ok: set[int]) -> None:
        for item in batch:
            if item.game_id in ok:
                item.done.set_result(None)
            else:
                item.done.set_exception(VersionConflict(item.game_id))

    async def with_deadlines(self, shards: ShardFilter | None = None) -> list[int]:
        """Running tables waiting on a person's decision under a turn timer (what a restart must time again)."""
        params: list[Any] = []
        sql = _where_shards("SELECT id FROM games WHERE status = 'running' AND deadline IS NOT NULL", params, shards)
        return [r[0] for r in await self.db.fetch(sql + " ORDER BY deadline", *params)]

    async def paused(self, shards: ShardFilter | None = None) -> list[int]:
        """Running tables paused because every person at them is away (what a restart must close once idle)."""
        params: list[Any] = []
        sql = _where_shards("SELECT id FROM games WHERE status = 'running' AND paused_at IS NOT NULL", params, shards)
        return [r[0] for r in await self.db.fetch(sql + " ORDER BY paused_at", *params)]

    async def lobbies(self, shards: ShardFilter | None = None) -> list[tuple[int, float]]:
        """Open lobbies and when each last changed (what a restart must time to close once idle)."""
        params: list[Any] = []
        sql = _where_shards("SELECT id, updated_at FROM games WHERE status = 'lobby'", params, shards)
        return [(r[0], float(r[1])) for r in await self.db.fetch(sql + " ORDER BY updated_at", *params)]

    async def waiting_on_bots(self, shards: ShardFilter | None = None) -> list[int]:
        """Running tables whose next decision belongs to a bot seat (what a restart must wake)."""
        params: list[Any] = []
        sql = _where_shards("SELECT id FROM games WHERE status = 'running' AND bot_to_act = 1", params, shards)
        return [r[0] for r in await self.db.fetch(sql + " ORDER BY id", *params)]

    async def actions(self, game_id: int) -> list[tuple[str, Json]]:
        rows = await self.db.fetch("SELECT player, action FROM actions WHERE game_id = ? ORDER BY seq", game_id)
        return [(r[0], json.loads(r[1])) for r in rows]

    async def action_count(self, game_id: int) -> int:
        """How many actions the game's log holds."""
        return int(await self.db.fetchval("SELECT COUNT(*) FROM actions WHERE game_id = ?", game_id))

    async def action_log(self, game_id: int) -> list[LoggedAction]:
        """The game's actions in the order they were committed, with when each was."""
        rows = await self.db.fetch("SELECT seq, player, action, created_at, stand_in FROM actions WHERE game_id = ? "
                                   "ORDER BY seq", game_id)
        return [LoggedAction(int(r[0]), r[1], json.loads(r[2]), float(r[3]), bool(r[4])) for r in rows]

    async def peek_notices(self, game_id: int, player: str) -> list[tuple[int, str]]:
        """Pending private events for a player, oldest first, with their ids; nothing is removed."""
        rows = await self.db.fetch("SELECT id, event FROM notices WHERE game_id = ? AND player = ? ORDER BY id",
                                   game_id, player)
        return [(int(r[0]), r[1]) for r in rows]

    async def drop_notices(self, game_id: int, player: str, up_to_id: int) -> None:
        """Remove a player's notices up to ``up_to_id`` (once the message showing them was delivered)."""
        await self.db.execute("DELETE FROM notices WHERE game_id = ? AND player = ? AND id <= ?",
                              game_id, player, up_to_id)

    async def count_running(self, shards: ShardFilter | None = None) -> int:
        """The running tables (of these shards): what ``/metrics`` reports."""
        params: list[Any] = []
        sql = _where_shards("SELECT COUNT(*) FROM games WHERE status = 'running'", params, shards)
        return int(await self.db.fetchval(sql, *params))
