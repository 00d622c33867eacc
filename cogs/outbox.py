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
from bot.table import Table, Update, human_player

from .board import board_message_kwargs, board_view
from .common import NO_MENTIONS, names_for
from .controls import BackButton
from .lobby import lobby_embed, lobby_view
from .permissions import TABLE_PERMISSIONS, missing_in_channel, permission_names

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
    """An event message once built: retried as it is (same nonce, same text) until Discord has it."""

    nonce: str
    content: str
    mentions: list[int]
    view: discord.ui.View | None
    lines: int  # how many pending lines it carries
    turn_of: tuple[int, ...] = ()  # the people its turn line names (its message becomes the turn's ping)


@dataclass
class _Ping:
    """The message that told people it is their turn: the time warning is added to it, not posted again."""

    message_id: int
    content: str
    people: tuple[int, ...]


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
        self.lobby = self.board = self.ping_due = False
        self.lines: list[str] = []
        self.skipped = 0  # lines given up while the channel could not keep up
        self.back_button = False
        self.warning: int | None = None  # the version whose time warning is due
        self.post: _Post | None = None
        self.pinged: set[int] = set()  # people already @mentioned (or acting) in the turn they are still in
        self.ping: _Ping | None = None
        self.board_nonce: str | None = None
        self.failures = 0
        self.unreachable = False
        self._task: asyncio.Task[None] | None = None

    # ---- what changed (called by the service's listener; never waits) ---------------------
    def push(self, update: Update) -> None:
        table, kind = update.table, update.kind
        self._follow_turns(update)
        if kind == "warning":
            self.warning = update.version
        elif kind in ("lobby", "started"):
            self.lobby = True
            self.board = self.board or kind == "started"
        else:
            self.board = self.board or table.state is not None
            self.lobby = self.lobby or (kind == "ended" and table.state is None)
            self._add_lines(self._event_lines(update))
        self.ping_due = self.ping_due or kind not in ("lobby", "warning")
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
        if self.ping is not None and not set(self.ping.people) & acting:
            self.ping = None

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
                self.back_button = True
        if update.kind == "seats" and seat is not None:
            lines.append(t("table.seat_to_bot" if seat.is_bot else "table.seat_back", locale,
                           player=names(update.actor)))
            self.back_button = self.back_button or seat.is_bot
        if update.kind == "ended" and table.status == "cancelled":
            lines.append(t("table.abandoned" if update.reason == "abandoned" else "table.cancelled", locale,
                           id=table.id))
        return lines

    def _add_lines(self, lines: list[str]) -> None:
        self.lines += lines
        keep = MAX_LINES + (self.post.lines if self.post else 0)  # a post being retried keeps its lines
        if len(self.lines) > keep:  # bounded: the oldest waiting lines give way, the newest (a result) stay
            start = self.post.lines if self.post else 0
            dropped = len(self.lines) - keep
            self.skipped += dropped
            del self.lines[start:start + dropped]

    def pending(self) -> bool:
        return bool(self.lobby or self.board or self.lines or self.ping_due or self.warning is not None or self.post)

    # ---- the writer ------------------------------------------------------------------------
    async def _run(self) -> None:
        while self.pending():
            try:
                table = await self.bot.service.table(self.game_id)
                await self._step(table, "lobby", self._write_lobby)
                await self._step(table, "board", self._write_board)
                await self._step(table, None, self._write_warning)
                await self._step(table, None, self._write_lines)
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
            if what == "lines":
                self._drop_post()
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

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)

    # ---- the three kinds of output ---------------------------------------------------------
    async def _write_lobby(self, table: Table) -> bool:
        if not table.row.lobby_message_id:
            return False
        locale = table.row.locale
        if table.status == "lobby":
            kwargs: dict[str, Any] = {"embed": lobby_embed(table, locale), "view": lobby_view(table, locale)}
        elif table.state is not None:
            kwargs = {"content": t("lobby.started", locale), "embed": lobby_embed(table, locale), "view": None}
        else:  # ended before it started
            kwargs = {"content": t("table.cancelled", locale, id=table.id), "embed": lobby_embed(table, locale),
                      "view": None}
        try:
            await self._channel(table).get_partial_message(table.row.lobby_message_id).edit(**kwargs)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE or table.status != "lobby":
                raise
            message = await self._channel(table).send(**kwargs, allowed_mentions=NO_MENTIONS)
            await self.bot.service.set_message(table, lobby_message_id=message.id)
        return True

    async def _write_board(self, table: Table) -> bool:
        if table.state is None:
            return False
        locale = table.row.locale
        if table.row.board_message_id:
            try:
                await self._channel(table).get_partial_message(table.row.board_message_id).edit(
                    **await board_message_kwargs(table, locale))
                return True
            except discord.NotFound as error:
                if error.code != UNKNOWN_MESSAGE:
                    raise
                log.info("table %s: its board was deleted; posting it again", table.id)
        if table.status != "running" and table.row.board_message_id:
            return False  # a deleted board of a finished table is not brought back; the result line says it all
        kwargs = await board_message_kwargs(table, locale)
        files = kwargs.pop("attachments", [])
        self.board_nonce = self.board_nonce or new_nonce()
        message = await self._channel(table).send(**kwargs, files=files, nonce=self.board_nonce,
                                                  allowed_mentions=NO_MENTIONS)
        self.board_nonce = None
        await self.bot.service.set_message(table, board_message_id=message.id)
        return True

    async def _write_warning(self, table: Table) -> bool:
        """The time warning, added to the turn's ping message (an edit notifies nobody a second time)."""
        ping = self.ping
        if self.warning is None or ping is None or self.warning != table.version or table.row.deadline is None:
            return False
        locale = table.row.locale
        seconds = max(0, round(table.row.deadline - self.bot.service.clock()))
        line = t("table.time_warning", locale, players=self._named(table, list(ping.people)), seconds=seconds)
        content = f"{ping.content}\n{line}"[:2000]
        try:
            await self._channel(table).get_partial_message(ping.message_id).edit(content=content,
                                                                                allowed_mentions=NO_MENTIONS)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            self.ping = None  # deleted: the warning goes out as a new line instead
            return False
        self.warning = None
        return True

    async def _write_lines(self, table: Table) -> bool:
        if self.post is None:
            calling = self.ping_due or self.warning is not None
            muted = await self.bot.storage.muted_pings(table.user_ids_to_act()) if calling else set()
            self.post = self._build_post(table, muted)
        post = self.post
        if post is None:
            return False
        message = await self._channel(table).send(
            post.content, view=post.view, nonce=post.nonce,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in post.mentions],
                                                     everyone=False, roles=False))
        if post.turn_of:
            self.ping = _Ping(message.id, post.content, post.turn_of)
        self._drop_post()
        return True

    def _drop_post(self) -> None:
        if self.post is not None:
            self.lines = self.lines[self.post.lines:]
            self.post = None

    def _build_post(self, table: Table, muted: set[int]) -> _Post | None:
        """Pending lines (as many as fit one message), then the time warning or the turn line. Only people whose
        turn has just begun are @mentioned (and not those who muted pings); the others are named."""
        locale = table.row.locale
        if self.skipped:
            self.lines.insert(0, t("table.lines_skipped", locale, count=self.skipped))
            self.skipped = 0
        lines: list[str] = []
        for line in self.lines:
            if len("\n".join(lines + [line])) > 1800:
                break
            lines.append(line)
        taken = len(lines) if lines else min(1, len(self.lines))
        lines = lines or [line[:1800] for line in self.lines[:1]]
        everything = taken == len(self.lines)
        mentions: list[int] = []
        view: discord.ui.View | None = None
        current = table.status == "running" and table.state is not None
        people = table.user_ids_to_act() if current else []
        fresh = [u for u in people if u not in self.pinged and u not in muted]
        turn_of: tuple[int, ...] = ()
        if everything and people and self.warning == table.version and table.row.deadline is not None:
            seconds = max(0, round(table.row.deadline - self.bot.service.clock()))
            lines.append(t("table.time_warning", locale, players=self._named(table, people, fresh), seconds=seconds))
            mentions, view = fresh, board_view(table, locale)
        elif everything and people and (self.ping_due or lines):
            lines.append(t("table.your_turn", locale, players=self._named(table, people, fresh)))
            mentions, view = fresh, board_view(table, locale, public_controls=True)
            turn_of = tuple(people)
        self.pinged.update(mentions)
        if everything:
            self.ping_due, self.warning = False, None
        if self.back_button and everything and current:
            view = view or discord.ui.View(timeout=None)
            view.add_item(BackButton(table.id, locale))
            self.back_button = False
        if not lines:
            return None
        return _Post(new_nonce(), "\n".join(lines)[:2000], mentions, view, taken, turn_of)

    @staticmethod
    def _named(table: Table, people: list[int], mentioned: list[int] | None = None) -> str:
        """People as @mentions where they are pinged, else by the name the board uses."""
        names = names_for(table, table.row.locale)
        return " ".join(f"<@{u}>" if mentioned is None or u in mentioned else f"**{names(human_player(u))}**"
                        for u in people)

    async def idle(self) -> None:
        """Wait until everything pushed so far is written (tests, shutdown)."""
        while self._task is not None and not self._task.done():
            await asyncio.wait([self._task])

