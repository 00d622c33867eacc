"""Each table's channel output: one bounded, coalescing writer per table (:class:`TableOutbox`).

The game never waits for Discord. The service's listener only records what changed (``push``) and returns; the
writer brings the channel up to date in its own task: the lobby and the board are redrawn from the table as it is
when they are written (the latest board wins), event lines are batched into one message that ends with the turn
ping, transient failures are retried with backoff, a deleted board or lobby is posted again, an archived thread is
unarchived, and while the channel cannot be reached the table's clock is paused and its host is told what is
missing. New messages carry a nonce Discord enforces, so a post retried after Discord already stored it (a 502 on
the way back) is not shown twice.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot import render
from bot.i18n import t
from bot.table import Table, Update

from .board import board_message_kwargs
from .common import NO_MENTIONS, names_for
from .lobby import lobby_embed, lobby_view
from .permissions import TABLE_PERMISSIONS, missing_in_channel, permission_names
from .table_post import compose, fit, table_view, turn_lines
from .table_result import result_message
from .table_thread import open_thread, post_result

if TYPE_CHECKING:
    from bot.client import GameHostBot

log = logging.getLogger(__name__)
REQUEST_TIMEOUT = 20.0  # seconds one Discord call may take before it counts as failed (and is retried)
MAX_LINES = 40  # event lines kept while they cannot be written; older ones are summarised in one line
UNKNOWN_MESSAGE, MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL, ARCHIVED = 10008, 50001, 50013, 10003, 50083


class _Retry(Exception):
    def __init__(self, delay: float) -> None:
        super().__init__(delay)
        self.delay = delay


@dataclass
class _Post:
    """A new board message once built: retried with the same nonce and text until Discord has it."""

    nonce: str
    lines: list[str]  # the event lines it carries (taken from the pending ones)
    content: str
    mentions: list[int]
    people: frozenset[int]  # whose turn it begins


def new_nonce() -> str:
    return str(secrets.randbits(63))  # Discord takes a nonce of up to 25 characters


def transient(error: BaseException) -> float | None:
    """Seconds to wait before trying again, or None when trying again cannot help."""
    if isinstance(error, discord.RateLimited):
        return error.retry_after
    if isinstance(error, (asyncio.TimeoutError, OSError, aiohttp.ClientError, discord.DiscordServerError)):
        return 0.0
    if isinstance(error, discord.HTTPException) and (error.status >= 500 or error.status == 429):
        return 0.0
    return None


def error_code(error: BaseException) -> int | None:
    return error.code if isinstance(error, discord.HTTPException) else None


class TableOutbox:
    backoff_first, backoff_max = 0.5, 30.0  # transient failures: first wait and longest wait
    unreachable_retry = 60.0  # how often a channel that cannot be reached is tried again

    def __init__(self, bot: "GameHostBot", game_id: int) -> None:
        self.bot, self.game_id = bot, game_id
        self.lobby = self.board = False
        self.result = False  # the finished table's result message is due
        self.result_nonce: str | None = None  # its nonce, the same on every retry (posted once)
        self.told = False  # the end, told in the lobby's channel too (a table that played in its thread)
        self.told_nonce = new_nonce()
        self.lines: list[str] = []  # event lines not yet on a board message
        self.skipped = 0  # lines given up while the channel could not keep up
        self.warning: int | None = None  # the version whose time warning is due
        self.post: _Post | None = None
        self.pinged: set[int] = set()  # people already @mentioned (or acting) in the turn they are still in
        self.board_for: set[int] = set()  # people whose turn the current board message was posted for
        self.board_lines: list[str] = []  # the event lines the current board message shows
        self.board_text = ""  # its content as last written
        self.old_boards: list[tuple[int, str]] = []  # replaced boards to turn into plain lines: (id, content)
        self.failures = 0
        self.unreachable = False
        self._task: asyncio.Task[None] | None = None

    # ---- what changed (called by the service's listener; never waits) ---------------------
    def push(self, update: Update) -> None:
        kind = update.kind
        self._follow_turns(update)
        if kind == "warning":
            self.warning = update.version
            self.board = True
        elif kind in ("lobby", "started"):
            self.lobby = True
            self.board = self.board or kind == "started"
        else:
            self.board = True
            self.lobby = self.lobby or kind == "ended"  # the lobby says the game is over (or was ended)
            self.result = self.result or (kind == "ended" and update.table.status == "finished")
            self.told = self.told or kind == "ended"
            self._add_lines(self._event_lines(update))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())

    def _follow_turns(self, update: Update) -> None:
        """A person's turn lasts while they stay to act: one @mention per turn, none once they act in it."""
        table = update.table
        acting = set(table.user_ids_to_act()) if table.status == "running" and table.state is not None else set()
        self.pinged &= acting
        seat = table.seat_of(update.actor) if update.actor else None
        if seat is not None and seat.user_id in acting:
            self.pinged.add(seat.user_id)  # they are deciding already: no ping for the next step of their turn
        self.board_for &= acting

    def _event_lines(self, update: Update) -> list[str]:
        table, locale = update.table, update.table.row.locale
        names = names_for(table, locale)
        lines = [line for ev in update.events if ev.visible_to is None
                 and (line := render.event_line(table.row.game, ev, names, locale))]
        seat = table.seat_of(update.actor) if update.actor else None
        if update.kind == "timeout" and seat is not None:
            lines.insert(0, t("table.timed_out", locale, player=names(update.actor)))
            if seat.away:
                lines.append(t("table.seat_away", locale, player=names(update.actor)))
        if update.kind == "seats" and seat is not None:
            lines.append(t("table.seat_to_bot" if seat.is_bot else "table.seat_back", locale,
                           player=names(update.actor)))
        return lines + self._pause_lines(update)

    @staticmethod
    def _pause_lines(update: Update) -> list[str]:
        """The table paused, resumed, or was closed early (and why)."""
        table, locale = update.table, update.table.row.locale
        if update.kind == "paused":
            return [t("table.paused", locale, id=table.id)]
        if update.kind == "resumed" and update.actor:
            return [t("table.resumed", locale, player=names_for(table, locale)(update.actor))]
        if update.kind != "ended" or table.status != "cancelled":
            return []
        if update.reason == "idle":  # Discord shows the time in each reader's own time zone
            return [t("table.paused_closed", locale, id=table.id, since=f"<t:{int(table.row.paused_at or 0)}:f>")]
        key = {"abandoned": "table.abandoned", "paused_ended": "table.paused_ended"}.get(update.reason or "")
        return [t(key or "table.cancelled", locale, id=table.id)]

    def _add_lines(self, lines: list[str]) -> None:
        self.lines += lines
        taken = len(self.post.lines) if self.post else 0  # a post being retried keeps its lines
        keep = MAX_LINES + taken
        if len(self.lines) > keep:  # bounded: the oldest waiting lines give way, the newest (a result) stay
            start = taken
            dropped = len(self.lines) - keep
            self.skipped += dropped
            del self.lines[start:start + dropped]

    def pending(self) -> bool:
        return bool(self.lobby or self.board or self.post or self.old_boards or self.result or self.told)

    # ---- the writer ------------------------------------------------------------------------
    async def _run(self) -> None:
        while self.pending():
            try:
                table = await self.bot.service.table(self.game_id)
                if table.row.open_thread and table.state is not None:
                    await self._move_to_thread(table)
                await self._step(table, "lobby", self._write_lobby)
                await self._step(table, "board", self._write_table)
                await self._step(table, "result", self._write_result)
                await self._step(table, None, self._retire_old_board)
                await self._step(table, "told", lambda tb: post_result(self.bot, tb, self.told_nonce))
            except _Retry as retry:
                await asyncio.sleep(retry.delay)

    async def _step(self, table: Table, flag: str | None, write: Any) -> None:
        if flag is not None and not getattr(self, flag):
            return
        if flag is not None:
            setattr(self, flag, False)  # an update arriving meanwhile sets it again
        try:
            wrote = await asyncio.wait_for(write(table), REQUEST_TIMEOUT)
        except Exception as error:  # noqa: BLE001 - every failure is sorted below
            if flag is not None:
                setattr(self, flag, True)
            await self._failed(table, flag or "lines", error)
            return
        self.failures = 0
        if wrote and self.unreachable:
            self.unreachable = False
            await self.bot.service.resume_clock(self.game_id)

    async def _failed(self, table: Table, what: str, error: BaseException) -> None:
        code = error_code(error)
        if code == ARCHIVED:
            try:  # a thread Discord archived after a quiet while: open it again, then write
                await asyncio.wait_for(self.bot.http.edit_channel(table.row.channel_id, archived=False),
                                       REQUEST_TIMEOUT)
            except Exception as again:  # noqa: BLE001 - locked, no permission, or Discord down
                wait = transient(again)
                if wait is not None:
                    raise _Retry(max(wait, self.backoff_first)) from None
                await self._cannot_reach(table)
                raise _Retry(self.unreachable_retry) from None
            raise _Retry(0)
        if code in (UNKNOWN_CHANNEL, MISSING_ACCESS, MISSING_PERMISSIONS):
            await self._cannot_reach(table)
            raise _Retry(self.unreachable_retry)
        wait = transient(error)
        if wait is None:  # our own bug (an invalid request): retrying would fail the same way
            log.error("table %s: Discord refused the %s (%s); dropped", self.game_id, what, error)
            if what == "board":
                self._drop_post()
                self.board = bool(self.lines)
            elif what in ("lobby", "result", "told"):  # not retried: Discord refuses the message itself
                setattr(self, what, False)
            elif what == "lines" and self.old_boards:
                self.old_boards.pop(0)
            return
        self.failures += 1
        backoff = min(self.backoff_max, self.backoff_first * 2 ** (self.failures - 1))
        log.warning("table %s: writing the %s failed (%s); trying again in %.1f s", self.game_id, what,
                    type(error).__name__, max(wait, backoff))
        raise _Retry(max(wait, backoff))

    async def _cannot_reach(self, table: Table) -> None:
        if self.unreachable:
            return
        self.unreachable = True
        log.warning("table %s: its channel %s cannot be reached; clock paused", table.id, table.row.channel_id)
        await self.bot.service.pause_clock(table.id)
        await self._tell_host(table)

    async def _tell_host(self, table: Table) -> None:
        locale = table.row.locale
        missing = missing_in_channel(self.bot, table.row.guild_id, table.row.channel_id, TABLE_PERMISSIONS)
        text = t("outbox.unreachable", locale, id=table.id, channel=f"<#{table.row.channel_id}>",
                 missing=permission_names(missing or ["view_channel"], locale))
        try:
            user = self.bot.get_user(table.row.host_id) or await self.bot.fetch_user(table.row.host_id)
            await asyncio.wait_for(user.send(text, allowed_mentions=NO_MENTIONS), REQUEST_TIMEOUT)
        except (discord.HTTPException, asyncio.TimeoutError, OSError, aiohttp.ClientError) as error:
            log.warning("table %s: could not tell its host (%s)", table.id, type(error).__name__)

    def _channel(self, table: Table, lobby: bool = False) -> discord.PartialMessageable:
        """Where the table plays (its thread, once it moved there), or with ``lobby`` where its lobby is."""
        where = (lobby and table.row.lobby_channel_id) or table.row.channel_id
        return self.bot.get_partial_messageable(where, guild_id=table.row.guild_id)

    async def _move_to_thread(self, table: Table) -> None:
        """At its start, before anything is written: the table moves to its thread, or says why it stays."""
        thread_id, why = await open_thread(self.bot, table)
        await self.bot.service.settle_thread(table, thread_id)
        if why:
            self.lines.insert(0, why)
            self.board = True

    # ---- the three kinds of output ---------------------------------------------------------
    async def _write_lobby(self, table: Table) -> bool:
        if not table.row.lobby_message_id:
            return False
        locale = table.row.locale
        if table.status == "lobby":
            kwargs: dict[str, Any] = {"embed": lobby_embed(table, locale), "view": lobby_view(table, locale)}
        else:  # started (who plays, no buttons), over, or ended before it finished
            key = {"running": "lobby.started", "finished": "lobby.over"}.get(table.status, "table.cancelled")
            content = t(key, locale, id=table.id)
            if table.status == "running" and table.row.lobby_channel_id:  # it plays in its thread
                content = t("lobby.playing_in_thread", locale, thread=f"<#{table.row.channel_id}>")
            kwargs = {"content": content, "embed": lobby_embed(table, locale), "view": None}
        try:
            await self._channel(table, lobby=True).get_partial_message(table.row.lobby_message_id).edit(**kwargs)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE or table.status != "lobby":
                raise
            message = await self._channel(table, lobby=True).send(**kwargs, allowed_mentions=NO_MENTIONS)
            await self.bot.service.set_message(table, lobby_message_id=message.id)
        return True

    async def _write_table(self, table: Table) -> bool:
        """The board message: a new one at the bottom when a person's turn begins (or the lines outgrow it), else
        the current one edited. Lines that do not fit leave the flag set for another round."""
        if table.state is None:
            wrote = await self._write_plain_lines(table)
        else:
            if self.post is None and self._new_board_due(table):
                self.post = await self._build_post(table)
            wrote = await (self._post_board(table) if self.post is not None else self._edit_board(table))
        self.board = self.board or bool(self.lines)
        return wrote

    def _people(self, table: Table) -> list[int]:
        return table.user_ids_to_act() if table.status == "running" else []

    def _warning_seconds(self, table: Table) -> int | None:
        if self.warning != table.version or table.row.deadline is None or table.status != "running":
            return None
        return max(0, round(table.row.deadline - self.bot.service.clock()))

    def _turn(self, table: Table, mentioned: list[int]) -> list[str]:
        return turn_lines(table, self._people(table), mentioned, self._warning_seconds(table))

    def _new_board_due(self, table: Table) -> bool:
        if not table.row.board_message_id:
            return table.status == "running" or bool(self.lines)
        people = self._people(table)
        if set(people) - self.board_for:
            return True  # someone's turn begins: the board they decide on goes to the bottom
        turn = self._turn(table, [u for u in people if u in self.pinged])
        return fit(self.lines, turn, self.board_lines) < len(self.lines)  # the board has no room for them

    async def _build_post(self, table: Table) -> _Post:
        """Pending lines (as many as fit), then whose turn it is: @mentions for people whose turn just began."""
        if self.skipped:
            self.lines.insert(0, t("table.lines_skipped", table.row.locale, count=self.skipped))
            self.skipped = 0
        people = self._people(table)
        muted = await self.bot.storage.muted_pings(people) if people else set()
        fresh = [u for u in people if u not in self.pinged and u not in muted]
        turn = self._turn(table, [u for u in people if u in self.pinged or u in fresh])
        lines = self.lines[:fit(self.lines, turn) or 1]
        return _Post(new_nonce(), lines, compose(lines, turn), fresh, frozenset(people))

    async def _post_board(self, table: Table) -> bool:
        post, locale = self.post, table.row.locale
        assert post is not None
        kwargs = await board_message_kwargs(table, locale)
        files = kwargs.pop("attachments", [])
        kwargs["view"] = table_view(table, locale) or discord.utils.MISSING
        message = await self._channel(table).send(
            post.content or None, **kwargs, files=files, nonce=post.nonce,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in post.mentions],
                                                     everyone=False, roles=False))
        old = table.row.board_message_id
        await self.bot.service.set_message(table, board_message_id=message.id)
        if old:
            self.old_boards.append((old, self.board_text))
        self.pinged.update(post.mentions)
        self.board_for = set(post.people)
        self.board_lines, self.board_text = list(post.lines), post.content
        self._drop_post()
        return True

    async def _edit_board(self, table: Table) -> bool:
        locale = table.row.locale
        turn = self._turn(table, [u for u in self._people(table) if u in self.pinged])
        taken = fit(self.lines, turn, self.board_lines)
        lines = [*self.board_lines, *self.lines[:taken]]
        content = compose(lines, turn)
        kwargs = await board_message_kwargs(table, locale)
        kwargs["view"] = table_view(table, locale)
        try:
            await self._channel(table).get_partial_message(table.row.board_message_id or 0).edit(
                content=content, **kwargs, allowed_mentions=NO_MENTIONS)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            if table.status != "running" and not self.lines:
                return False  # a deleted board of a finished table is not brought back
            log.info("table %s: its board was deleted; posting it again", table.id)
            self.board_text = ""
            self.post = await self._build_post(table)
            return await self._post_board(table)
        del self.lines[:taken]
        self.board_lines, self.board_text = lines, content
        return True

    async def _write_plain_lines(self, table: Table) -> bool:
        """Lines of a table that never had a board (cancelled in its lobby): a message of their own."""
        if self.post is None and self.lines:
            lines = self.lines[:fit(self.lines, ()) or 1]
            self.post = _Post(new_nonce(), lines, compose(lines, ()), [], frozenset())
        if self.post is None:
            return False
        await self._channel(table).send(self.post.content, nonce=self.post.nonce, allowed_mentions=NO_MENTIONS)
        self._drop_post()
        return True

    async def _write_result(self, table: Table) -> bool:
        """The finished table's result (``table_result.result_message``), once, below its final board; a tournament
        table's has no Rematch (the tournament seats its next round)."""
        if self.board or self.post:  # the final board's lines come first
            self.result = True
            return False
        if self.result_nonce is None:
            self.result_nonce = new_nonce()
        rematch = await self.bot.storage.tournaments.tournament_of_game(table.id) is None
        kwargs = result_message(table, table.row.locale, rematch=rematch)
        await self._channel(table).send(**kwargs, nonce=self.result_nonce)
        return True

    async def _retire_old_board(self, table: Table) -> bool:
        """A replaced board keeps only its lines (picture, board and controls removed); one with none is deleted."""
        wrote = False
        while self.old_boards:
            message_id, content = self.old_boards[0]
            old = self._channel(table).get_partial_message(message_id)
            try:
                if content:
                    await old.edit(content=content, embed=None, attachments=[], view=None,
                                   allowed_mentions=NO_MENTIONS)
                else:
                    await old.delete()
            except discord.NotFound:
                pass  # deleted already: nothing left to tidy
            self.old_boards.pop(0)
            wrote = True
        return wrote

    def _drop_post(self) -> None:
        if self.post is not None:
            del self.lines[:len(self.post.lines)]
            self.post = None

    async def idle(self) -> None:
        """Wait until everything pushed so far is written (tests, shutdown)."""
        while self._task is not None and not self._task.done():
            await asyncio.wait([self._task])

