"""The board side of a table's writer (``outbox.TableOutbox``): the event lines waiting to be shown, the board
message they go on, and who has been told it is their turn.

A new board goes to the bottom when a person's turn begins (with one @mention per person and turn), or when the
waiting lines outgrow the current one; otherwise the current board is edited. The time warning is a message of its
own below the board, with an @mention (Discord notifies nobody of a mention added by an edit), once per person and
turn — so a turn notifies a person at most twice — and deleted once the decision it warned of is made (a restart
forgets it: it stays). What the players were shown — the board message, the version and lines it shows and whose
turn it was posted for — is stored with the table after every write, so a restarted bot knows which turn pings were
delivered and redraws the board with the same lines.
"""
from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import discord

from bot.errors import HostError
from bot.i18n import t
from bot.outgoing import MISSING, Outgoing, cleared, mentioning
from bot.refusals import UNKNOWN_MESSAGE
from bot.replay import rebuild, stored_record
from bot.storage import GameStatus
from bot.storage.rows import BoardShown
from bot.table import Table, Update, UpdateKind

from .board import board_message
from .outbox_fold import Line, compose, fit, folded, plain_lines
from .outbox_lines import event_lines
from .outbox_token import NoLiveToken
from .outlet import Outlet
from .table_post import named, table_view, turn_lines

if TYPE_CHECKING:
    from bot.client import GameHostBot

log = logging.getLogger(__name__)
MAX_LINES = 40  # event lines kept while they cannot be written; older ones are summarised in one line


class MustWait(Exception):
    """A new board is due where none can be posted but the one kept for saying the table waits (a DM or group DM
    whose last press used its followups): the writer stops the clock and the board says the table waits."""


def new_nonce() -> str:
    return str(secrets.randbits(63))  # Discord takes a nonce of up to 25 characters


@dataclass
class Post:
    """A new board message once built: retried with the same nonce and text until Discord has it."""

    nonce: str
    lines: list[Line]  # the event lines it carries (taken from the pending ones)
    content: str
    mentions: list[int]
    people: frozenset[int]  # whose turn it begins
    log: str = ""  # what it keeps once replaced: its content without the deadline
    carried: list[Line] = field(default_factory=list)  # a bot's turn moved over from the board it replaces
    turn_log: list[str] = field(default_factory=list)  # its turn lines without the deadline


Due = tuple[int, float | None]  # a decision as the time warning knows it: the table's version and its deadline


def due(table: Table) -> Due:
    """The decision now due. A clock resumed with full time (same version, new deadline) is a new one: the warning
    of the old deadline is not shown with it."""
    return table.version, table.row.deadline


class BoardWriter:
    def __init__(self, bot: "GameHostBot") -> None:
        self.bot = bot
        self.lines: list[Line] = []  # event lines not yet on a board message
        self.skipped = 0  # lines given up while the channel could not keep up
        self.warning: Due | None = None  # the decision whose time warning is due
        self.warned: tuple[int, Due] | None = None  # the time warning message shown: (message id, its decision)
        self.warned_in_turn: set[int] = set()  # people the time warning @mentioned in the turn they are still in
        self.post: Post | None = None
        self.pinged: set[int] = set()  # people already @mentioned (or acting) in the turn they are still in
        self.told: set[int] = set()  # people whose turn the current board message was posted for
        self.shown_lines: list[Line] = []  # the event lines the current board message shows
        self.shown_text = ""  # its content as last written, less the deadline (what it keeps once replaced)
        self.shown_turn: list[str] = []  # the turn lines of that content
        self.old_boards: list[tuple[int, str]] = []  # replaced boards to turn into plain lines: (id, content)
        self.unrecorded = False  # edited since the stored record was written
        self.actions: int | None = None  # the game's logged actions as this writer followed them (None: unknown)
        self.waiting: str | None = None  # the table waits for a press (a DM): the notice its board shows
        self.inline_warning = False  # the time warning is a line of the board (a DM: no followup for it)

    def restore(self, table: Table) -> None:
        """After a restart: what the stored record says the players were shown. A board post that was under way
        is sent again with its nonce: Discord answers with the message if it had stored it."""
        shown = table.row.board_shown
        self.told, self.pinged = set(shown.told), set(shown.told)
        self.shown_lines = plain_lines(shown.lines)
        self.shown_text = "\n".join(shown.lines)
        if shown.posting is not None:
            people = [u for u in self._people(table) if u in shown.posting_for]
            turn = self._turn(table, people)
            self.post = Post(shown.posting, [], compose([], turn), people, frozenset(self._people(table)),
                             compose([], self._turn(table, people, clock=False)))

    async def catch_up(self, table: Table) -> None:
        """After a restart: the event lines of the logged actions the board had not taken before the process
        stopped, rebuilt from the action log by the engine (it replays a game exactly), wait to be shown. Lines
        that came from no action (a timeout's notice, a seat change) are not in the log: they stay lost."""
        self.actions = await self.bot.storage.action_count(table.id)
        taken = table.row.board_shown.actions
        if taken is None or taken >= self.actions or table.state is None:
            return
        try:
            replay = await asyncio.to_thread(rebuild, await stored_record(self.bot.storage, table.id))
        except HostError as refused:  # a log the engine no longer replays: its lines cannot be told again
            log.warning("table %s: the lines of actions %d-%d cannot be rebuilt (%s)", table.id, taken + 1,
                        self.actions, refused.code)
            return
        for frame in replay.frames[taken + 1:]:
            actor = frame.action.player if frame.action is not None else None
            lines = event_lines(Update(table, UpdateKind.ACTION, table.version, frame.events, actor))
            self.add_lines([replace(line, action=frame.index) for line in lines])

    def began(self) -> None:
        """The writer follows its table from the lobby or the deal: no action was logged before."""
        if self.actions is None:
            self.actions = 0

    def numbered(self, lines: list[Line]) -> list[Line]:
        """The lines of a change that logged one more action, each marked with that action's number."""
        if self.actions is None:
            return lines
        self.actions += 1
        return [replace(line, action=self.actions) for line in lines]

    def _actions_taken(self) -> int | None:
        """The logged actions whose lines are all on a board: up to the first one with a line still waiting."""
        waiting = [line.action for line in self.lines if line.action is not None]
        return min(waiting) - 1 if waiting and self.actions is not None else self.actions

    def _shown(self, table: Table, **posting: object) -> BoardShown:
        """The record to store. Only people still to act count as told: a move that ended someone's turn while
        this write was on its way already took them off the stored record (``GameService._told_after``)."""
        told = sorted(self.told & set(self._people(table)))
        return BoardShown(version=table.version, told=told, lines=folded(self.shown_lines),
                          actions=self._actions_taken(), **posting)  # type: ignore[arg-type]  # posting / posting_for only

    def follow_turns(self, table: Table, actor_user: int | None) -> None:
        """A person's turn lasts while they stay to act: one @mention per turn, none once they act in it."""
        playing = table.status is GameStatus.RUNNING and table.state is not None
        acting = set(table.user_ids_to_act()) if playing else set()
        self.pinged &= acting
        self.warned_in_turn &= acting
        if actor_user is not None and actor_user in acting:
            self.pinged.add(actor_user)  # they are deciding already: no ping for the next step of their turn
        self.told &= acting

    def add_lines(self, lines: list[Line]) -> None:
        self.lines += lines
        taken = len(self.post.lines) if self.post else 0  # a post being retried keeps its lines
        keep = MAX_LINES + taken
        if len(self.lines) > keep:  # bounded: the oldest waiting lines give way, the newest (a result) stay
            dropped = len(self.lines) - keep
            self.skipped += dropped
            del self.lines[taken:taken + dropped]

    def pending(self) -> bool:
        return bool(self.post or self.lines)

    # ---- writing ---------------------------------------------------------------------------
    async def write(self, table: Table, outlet: Outlet) -> bool:
        """The board message: a new one at the bottom when a person's turn begins (or the lines outgrow it), else
        the current one edited. Lines that do not fit stay pending for another round. While the table waits for a
        press (``waiting``), the board says so instead, edited in place where a live token can (``_write_waiting``).
        Where no new board can be posted but the one kept for saying so (a DM whose press used its followups), it
        raises :class:`MustWait`: the writer stops the clock and the board says the table waits."""
        self.inline_warning = outlet.warns_in_board
        if table.state is None:
            return await self._write_plain_lines(table, outlet)
        if self.waiting is not None and table.status is GameStatus.RUNNING:
            return await self._write_waiting(table, outlet)
        board = table.row.board_message_id
        if self.post is None and (self._new_board_due(table) or (board and not outlet.can_edit(board))):
            if not outlet.can_post():
                raise MustWait()
            self.post = await self._build_post(table)
        elif self.post is not None and not outlet.can_post():
            raise MustWait()  # a post that did not go through, and nothing left to send it with but the kept one
        wrote = await (self._post_board(table, outlet) if self.post is not None else self._edit_board(table, outlet))
        if not outlet.warns_in_board:
            wrote = await self._write_warning(table, outlet) or wrote
        return wrote

    async def _write_warning(self, table: Table, outlet: Outlet) -> bool:
        """The time warning below the board: sent when due, deleted once its decision is made (or the table moved
        on). It @mentions only those it has not warned in this turn."""
        wrote = False
        if self.warned is not None and self.warned[1] != due(table):
            try:
                await outlet.delete(self.warned[0])
            except discord.NotFound:
                pass  # deleted already
            self.warned, wrote = None, True
        seconds = self._warning_seconds(table)
        people = self._people(table)
        if seconds is None or self.warned is not None or not people:
            return wrote
        muted = await self.bot.storage.muted_pings(people)
        ping = [u for u in people if u not in muted and u not in self.warned_in_turn]
        sent = await outlet.send(Outgoing(content=self._warning_text(table, people, ping, seconds),
                                          mentions=mentioning(ping)))
        self.warned = (sent, due(table))
        self.warned_in_turn.update(ping)
        return True

    def _warning_text(self, table: Table, people: list[int], ping: list[int], seconds: int) -> str:
        return t("table.time_warning", table.row.locale, players=named(table, people, ping), seconds=seconds)

    def _people(self, table: Table) -> list[int]:
        return table.user_ids_to_act() if table.status is GameStatus.RUNNING else []

    def _warning_seconds(self, table: Table) -> int | None:
        if self.warning != due(table) or table.row.deadline is None or table.status is not GameStatus.RUNNING:
            return None
        return max(0, round(table.row.deadline - self.bot.service.clock()))

    def _turn(self, table: Table, mentioned: list[int], clock: bool = True) -> list[str]:
        """Whose turn it is (``turn_lines``) and, where the board carries it (a DM: ``inline_warning``), the time
        warning; a separate message of its own elsewhere (``_write_warning``)."""
        lines = turn_lines(table, self._people(table), mentioned, clock)
        seconds = self._warning_seconds(table) if clock and self.inline_warning else None
        if seconds is not None:
            lines.append(self._warning_text(table, self._people(table), [], seconds))
        return lines

    def all_told(self, table: Table) -> bool:
        """Everyone whose turn it is was told so by a board posted for their turn."""
        return set(self._people(table)) <= self.told

    def pressed(self, table: Table, user_id: int) -> None:
        """A person pressed a control of the table (a DM): when it is their turn, they know it."""
        if user_id in self._people(table):
            self.told.add(user_id)
            self.pinged.add(user_id)

    def _new_board_due(self, table: Table) -> bool:
        if not table.row.board_message_id:
            return table.status is GameStatus.RUNNING or bool(self.lines)
        people = self._people(table)
        if set(people) - self.told:
            return True  # someone's turn begins: the board they decide on goes to the bottom
        turn = self._turn(table, [u for u in people if u in self.pinged])
        return fit(self.lines, turn, self.shown_lines) < len(self.lines)  # the board has no room for them

    async def _build_post(self, table: Table) -> Post:
        """Pending lines (as many as fit), then whose turn it is: @mentions for people whose turn just began."""
        if self.skipped:
            self.lines.insert(0, Line(t("table.lines_skipped", table.row.locale, count=self.skipped)))
            self.skipped = 0
        people = self._people(table)
        muted = await self.bot.storage.muted_pings(people) if people else set()
        fresh = [u for u in people if u not in self.pinged and u not in muted]
        told = [u for u in people if u in self.pinged or u in fresh]
        turn = self._turn(table, told)
        carried = self._bot_turn_carried()
        if carried and not fit(self.lines, turn, carried):
            carried = []  # no room for the bot's turn and the next line: it stays on the board it is on
        lines = self.lines[:fit(self.lines, turn, carried) or 1]
        turn_log = self._turn(table, told, clock=False)
        return Post(new_nonce(), lines, compose([*carried, *lines], turn), fresh, frozenset(people),
                    compose([*carried, *lines], turn_log), carried, turn_log)

    def _bot_turn_carried(self) -> list[Line]:
        """The current board's last lines when they tell a bot's turn the first waiting line goes on with: they
        move to the new board, so a bot's turn stays one line although a person's turn began within it."""
        if not self.lines or not self.lines[0].foldable:
            return []
        run = 0
        for line in reversed(self.shown_lines):
            if not (line.foldable and line.bot == self.lines[0].bot):
                break
            run += 1
        return self.shown_lines[len(self.shown_lines) - run:]

    async def _post_board(self, table: Table, outlet: Outlet) -> bool:
        post, locale = self.post, table.row.locale
        assert post is not None
        board = await board_message(table, locale)
        if table.row.board_shown.posting != post.nonce:  # written ahead: a restart sends it with the same nonce
            await self.bot.service.note_output(table, board_shown=self._shown(
                table, posting=post.nonce, posting_for=sorted(post.mentions)))
        sent = await outlet.send(replace(board, content=post.content or None, view=table_view(table, locale) or MISSING,
                                         mentions=mentioning(post.mentions), nonce=post.nonce))
        self._replaced(table, post.carried)
        self.pinged.update(post.mentions)
        self.told = set(post.people)
        self.shown_lines, self.shown_text, self.shown_turn = [*post.carried, *post.lines], post.log, post.turn_log
        self._drop_post()
        self.unrecorded = False
        await self.bot.service.note_output(table, board_message_id=sent, board_shown=self._shown(table))
        return True

    def _replaced(self, table: Table, carried: list[Line]) -> None:
        """The current board gives way to a new one: it is to keep only its lines (``retire_old_boards``)."""
        old = table.row.board_message_id
        if old:
            kept = self.shown_lines[:len(self.shown_lines) - len(carried)]
            self.old_boards.append((old, compose(kept, self.shown_turn) if carried else self.shown_text))

    async def _edit_board(self, table: Table, outlet: Outlet) -> bool:
        told = [u for u in self._people(table) if u in self.pinged]
        turn = self._turn(table, told)
        taken = fit(self.lines, turn, self.shown_lines)
        lines = [*self.shown_lines, *self.lines[:taken]]
        try:
            await outlet.edit(table.row.board_message_id or 0, await self._board_with(table, compose(lines, turn)))
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            if table.status is not GameStatus.RUNNING and not self.lines:
                return False  # a deleted board of a finished table is not brought back
            log.info("table %s: its board was deleted; posting it again", table.id)
            self.shown_text = ""
            self.post = await self._build_post(table)
            return await self._post_board(table, outlet)
        del self.lines[:taken]
        self.shown_turn = self._turn(table, told, clock=False)
        self.shown_lines, self.shown_text = lines, compose(lines, self.shown_turn)
        self.unrecorded = True  # stored once the writer is idle (``record``): one write per burst, not per edit
        return True

    async def _board_with(self, table: Table, content: str) -> Outgoing:
        board = await board_message(table, table.row.locale)
        return replace(board, content=content, view=table_view(table, table.row.locale))

    async def _write_waiting(self, table: Table, outlet: Outlet) -> bool:
        """The table waits for a press, its clock stopped: the board shows what happened, whose turn it is (no
        clock, no ping) and that it waits. Edited in place where a live token can; else a short notice (its new lines,
        whose turn, that it waits, the controls) posted with the followup kept for it (the board it replaces keeps
        its lines and picture); else (no live token) nothing can be said."""
        assert self.waiting is not None
        self.post = None  # a board post that did not go through: its lines (still first in ``lines``) go on this one
        turn = turn_lines(table, self._people(table), [], clock=False)
        taken = fit(self.lines, [*turn, self.waiting], self.shown_lines)
        lines = [*self.shown_lines, *self.lines[:taken]]
        current = table.row.board_message_id
        if current and outlet.can_edit(current):
            await outlet.edit(current, await self._board_with(table, compose(lines, [*turn, self.waiting])))
        elif outlet.can_post(kept=True):  # the board above stays as it was: the notice is short, no second copy
            lines = self.lines[:taken]  # (the next press edits it into the board)
            notice = Outgoing(content=compose(lines, [*turn, self.waiting]), view=table_view(table, table.row.locale))
            sent = await outlet.send(notice, kept=True)
            self._replaced(table, [])
            await self.bot.service.note_output(table, board_message_id=sent)
        else:
            raise NoLiveToken()
        del self.lines[:taken]
        self.shown_lines, self.shown_turn = lines, turn
        self.shown_text = compose(lines, turn)  # what it keeps once replaced: not the notice
        self.unrecorded = True
        return True

    async def record(self, table: Table) -> None:
        """Store the lines the board shows after edits (a restart redraws it with them). Turn pings do not depend
        on it: posts are recorded at once, and a move that ends a turn updates the record in its own commit."""
        if self.unrecorded:
            self.unrecorded = False
            await self.bot.service.note_output(table, board_shown=self._shown(table))

    async def _write_plain_lines(self, table: Table, outlet: Outlet) -> bool:
        """Lines of a table that never had a board (cancelled in its lobby): a message of their own."""
        if self.post is None and self.lines:
            lines = self.lines[:fit(self.lines, ()) or 1]
            self.post = Post(new_nonce(), lines, compose(lines, ()), [], frozenset())
        if self.post is None:
            return False
        await outlet.send(Outgoing(content=self.post.content, nonce=self.post.nonce))
        self._drop_post()
        return True

    async def retire_old_boards(self, outlet: Outlet) -> bool:
        """A replaced board keeps only its lines (picture, board and controls removed); one with none is deleted.
        Through a token only while one that sent it lives (else it keeps what it shows: its controls answer as
        stale)."""
        wrote = False
        while self.old_boards:
            message_id, content = self.old_boards[0]
            try:
                if not outlet.can_edit(message_id):
                    pass
                elif content:
                    await outlet.edit(message_id, cleared(content))
                else:
                    await outlet.delete(message_id)
            except discord.NotFound:
                pass  # deleted already: nothing left to tidy
            self.old_boards.pop(0)
            wrote = True
        return wrote

    def give_up(self) -> None:
        """Discord refused the board message itself (our bug): drop it, keep the lines that were not on it."""
        self._drop_post()

    def _drop_post(self) -> None:
        if self.post is not None:
            del self.lines[:len(self.post.lines)]
            self.post = None
