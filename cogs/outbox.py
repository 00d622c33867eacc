"""Each table's channel output: one bounded, coalescing writer per table (:class:`TableOutbox`).

The game never waits for Discord. The service's listener only records what is due (``push``) and returns; the
writer brings the channel up to date in its own task, one kind of message at a time in the order of the table of
kinds (``outbox_kinds.OUTPUTS``: the lobby, the board with its event lines and turn ping, the result, the replaced
boards' tidy-up, the end told in the lobby's channel, the thread archived). What the players were shown is stored
with the table as it is written, so at start-up (``restore``) every table is brought to its game's version, each
turn ping is delivered once, each result posted once, and a clock never runs against a person who was not told it
is their turn.

The writer is a job of the bot's one way out (``bot.delivery.Delivery``): each try writes one kind of message, and
each refusal has one reaction (``refused``): transient failures and rate limits are retried with a growing
backoff; an archived thread is unarchived; a locked thread, missing access or a missing permission tell its host
the real cause and are tried rarely (``outbox_reach``: events from Discord wake the writer, and the gateway's cache
is looked at first); a deleted thread moves the table back to its lobby's channel, a deleted channel ends it;
anything else is our own bug: that message is given up and logged. Whenever the board cannot be shown for more
than a moment the table's clock is paused, and it runs again with the full time once the board is shown.

A table in a DM or group DM (``bot.place``) is written through its presses' tokens (``outbox_token``): it says
when it waits for a press, and the next press (``carry``) brings what waited.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Callable

from bot.i18n import t
from bot.refusals import Backoff, Refusal
from bot.storage import GameStatus
from bot.table import EndReason, Table, Update, UpdateKind

from .outbox_board import BoardWriter, MustWait, due
from .outbox_channel import lose_channel, move_to_thread
from .outbox_kinds import OUTPUTS, Writing, in_lobby_channel
from .outbox_lines import Output, due_after, event_lines
from .outbox_reach import Reach
from .outbox_token import Carrier, NoLiveToken, PressWait, TokenOutlet

if TYPE_CHECKING:
    from bot.client import GameHostBot

log = logging.getLogger(__name__)
# What the board says when a DM table waits for a press, with the clock stopped and (timer:0) without a clock:
TOKEN_ENDING = ("table.waiting_for_press", "table.waiting_for_press_untimed")  # the last token is about to end
FOLLOWUPS_SPENT = ("table.waits_for_press", "table.waits_for_press_untimed")  # the live presses used their messages


def notice(table: Table, keys: tuple[str, str]) -> str:
    timed, untimed = keys
    return t(timed if table.row.turn_seconds else untimed, table.row.locale)


class TableOutbox:
    backoff_first, backoff_max = 0.5, 30.0  # transient failures: first wait and longest wait
    unreachable_first, unreachable_max = 15.0, 600.0  # a channel that cannot be reached: tried this rarely
    probe_every = 60.0  # ... but its writer looks at least this often whether it could write again
    server_probe_every = 15.0  # the held writers of one server ask Discord together at most this often
    hold_after = 2.0  # a backoff at least this long pauses the table's clock (shorter blips do not)
    archive_grace = 300.0  # seconds a finished table's thread stays open after its result

    def __init__(self, bot: "GameHostBot", game_id: int, done: Callable[["TableOutbox"], None] | None = None) -> None:
        self.bot, self.game_id, self.budget = bot, game_id, bot.delivery.budget
        self.table_id = game_id
        self.done = done  # told once an ended table's writer has nothing left to show (it may leave memory)
        self.due: set[Output] = set()
        self.guild_id: int | None = None  # its server (events about a server wake its writers)
        self.board = BoardWriter(bot)
        self.reach = Reach(bot, game_id)
        self.backoff = Backoff(self.backoff_first, self.backoff_max)  # transient failures (the delivery loop's)
        self.unreachable = Backoff(self.unreachable_first, self.unreachable_max)
        self._archive_timer: asyncio.TimerHandle | None = None
        self.clock_held = False  # this writer paused the table's clock until its people are told / reached
        self.end_reason: EndReason | None = None  # why the table ended early (stored with it: ``restore``)
        self._sleeping = self._woken = False  # in a backoff; asked to end it early
        self.gone = False  # its channel was deleted and the table ended: nothing more is written
        self._task: asyncio.Task[None] | None = None
        self._table: Table | None = None  # as the last try read it
        self._writing = Output.LOBBY  # the kind of message the last try wrote
        self._in_flight = False  # ... and whether that write is under way (what it writes is then off ``due``)
        self._followed = False  # it has seen an update or restored its table (it knows where its log stands)
        self.budget_held = False  # its server used its share of the refusal budget: held back until it frees
        self._sibling_reached = False  # woken because another held writer of its server got through
        self.tokens = TokenOutlet()  # a DM or group DM table: the presses whose tokens it writes with
        self.press_wait = PressWait()  # ... and its wait for the next press once the last token is about to end
        self.awaiting_press = False  # ... and it has nothing to write with until the next press
        self.notice_due = False  # ... and its board is to say the table waits (``wait_for_press``)

    # ---- what is due (called by the service's listener; never waits) ---------------------
    def push(self, update: Update) -> None:
        if self.gone:
            return  # its channel was deleted: there is nowhere to show anything
        table = update.table
        self.guild_id = table.row.guild_id
        seat = table.seat_of(update.actor) if update.actor else None
        self.board.follow_turns(table, seat.user_id if seat is not None and not seat.is_bot else None)
        if not self._followed and update.kind in (UpdateKind.LOBBY, UpdateKind.STARTED):
            self.board.began()  # a new table: its log is empty
        self._followed = True
        if update.kind is UpdateKind.WARNING:
            self.board.warning = due(table)
        if update.kind is UpdateKind.ENDED:
            self.end_reason = update.reason
            self.tidy_after_end(table)
        lines = event_lines(update)
        self.board.add_lines(self.board.numbered(lines) if update.logged else lines)
        self.due |= due_after(update)
        self.awaiting_press = False  # (a table with nothing to write with tries once: a clock nobody sees stops)
        self.start_writing()

    async def restore(self, table: Table) -> None:
        """At start-up: bring what the players see in line with the stored table. A running table whose people
        were not all told it is their turn (or whose clock was held) waits, clock paused, until they are."""
        self.guild_id = table.row.guild_id
        self.end_reason = None if table.row.end_reason is None else EndReason(table.row.end_reason)
        self.board.restore(table)
        self._followed = True
        await self.board.catch_up(table)
        if table.status in (GameStatus.LOBBY, GameStatus.RUNNING):
            self.due |= {Output.LOBBY} | ({Output.BOARD} if table.status is GameStatus.RUNNING else set())
        else:
            if not table.row.end_tidied:
                self.due |= {Output.LOBBY, Output.BOARD}
                self.tidy_after_end(table)
            if table.status is GameStatus.FINISHED and not table.row.result_shown:
                self.due |= {Output.RESULT, Output.BOARD}
            if not table.row.told_shown:
                self.due.add(Output.TOLD)
        if table.status is GameStatus.RUNNING and not table.paused and table.user_ids_to_act() and (
                not self.board.all_told(table) or table.row.deadline is None):
            await self.hold_clock(table)
        self.start_writing()

    def tidy_after_end(self, table: Table) -> None:
        """A table that played keeps its thread open a while (``archive_later``); a lobby closed before any deal
        has no thread and nothing more to show once its end is written: it is tidied at once, and its writer
        leaves memory (a server where people open and leave lobbies all day must not keep one writer each)."""
        if table.state is None:
            self.due.add(Output.ARCHIVE)
        else:
            self.archive_later()

    def archive_later(self) -> None:
        """The thread of an ended table is archived a grace period from now (people may still read it, or press
        Rematch), so a server's active threads stay few."""
        if self._archive_timer is None:
            def due() -> None:
                self.due.add(Output.ARCHIVE)
                self.start_writing()
            self._archive_timer = asyncio.get_running_loop().call_later(self.archive_grace, due)

    def wake(self, sibling_reached: bool = False) -> None:
        """Something changed in the server (a thread unlocked, a permission granted, or with ``sibling_reached``
        another table's writer there got through): try now, not at the next backoff."""
        self._sibling_reached |= sibling_reached
        if not sibling_reached:
            self.budget.changed(self.guild_id)
        if self.reach.cause is not None:
            self.due.add(Output.BOARD)
        if self._sleeping and self._task is not None and not self._woken:
            self._woken = True
            self._task.cancel()
        self.start_writing()

    @property
    def carrier(self) -> Carrier | None:
        """A DM or group DM table's newest press: what it posts goes out with its token."""
        return self.tokens.carrier

    def carry(self, carrier: Carrier, table: Table | None = None) -> None:
        """A press on a DM or group DM table (``table``: as it stands, when the press was on it): its token carries
        what is due (and what waited for a token)."""
        self.tokens.add(carrier)
        self.awaiting_press = False
        if table is not None:
            self.board.pressed(table, carrier.interaction.user.id)
            if carrier.source is not None and carrier.source == table.row.lobby_message_id:
                self.due.add(Output.LOBBY)  # a press on the lobby: its token redraws it (it may show an old state)
        if self.board.waiting is not None:
            self.board.waiting = None
            self.due.add(Output.BOARD)  # the board goes on, without the notice
        self.schedule_notice()
        if self.clock_held:
            self.due.add(Output.BOARD)  # the board it waited to show, with the clock running again
        if self._sleeping and self._task is not None and not self._woken:
            self._woken = True
            self._task.cancel()
        self.start_writing()

    def schedule_notice(self) -> None:
        """A DM or group DM table: the board is to say the table waits a minute before the last token that could
        still say it ends (one that can edit the board, or post with its kept followup), whatever the timer."""
        if self.board.waiting is not None:
            return  # it says so already; the next press schedules it again
        board = self._table.row.board_message_id if self._table is not None else None
        delivery = self.bot.delivery
        self.press_wait.schedule(self.tokens.last_word(board), delivery.clock, delivery.sleep, self.wait_for_press)

    async def wait_for_press(self) -> None:
        """The last token that could say so is about to end: the board is to say the table waits for a press,
        clock stopped. Done by the writer (``_say_it_waits``), the one task that writes and holds the clock."""
        if self.board.waiting is not None:
            return
        self.notice_due = True
        self.start_writing()

    async def _say_it_waits(self, table: Table) -> None:
        self.notice_due = False
        if table.status is not GameStatus.RUNNING or table.paused or self.board.waiting is not None:
            return  # (a paused table's board says already how it goes on: Resume, and its clock is stopped)
        await self.hold_clock(table)
        self.board.waiting = notice(table, TOKEN_ENDING)
        self.due.add(Output.BOARD)

    def start_writing(self) -> None:
        if self.awaiting_press:
            return  # a DM table with nothing to write with: only a press (``carry``) starts its writer again
        if self.pending() and (self._task is None or self._task.done()):
            self._task = asyncio.create_task(self._run())

    def pending(self) -> bool:
        """Something is due, or being written now (its kind was taken off ``due`` as its write began)."""
        return bool(self.due or self.board.old_boards or self._in_flight or self.notice_due)

    # ---- the writer: a job of the bot's delivery loop --------------------------------------
    async def _run(self) -> None:
        await self.bot.delivery.run(self)
        if self._table is not None and self._table.row.end_tidied and self.done is not None:
            self.done(self)

    async def attempt(self) -> float | None:
        """One kind of message written (the first due, in the order of ``OUTPUTS``); None once nothing is due."""
        if not self.pending():
            if self._table is not None:
                await self.board.record(self._table)
            return None if not self.pending() else 0.0  # (an update may have come while it was recorded)
        table = self._table = await self.bot.service.table(self.game_id)
        self.budget_held = False
        if self.reach.cause is not None:
            bypass, self._sibling_reached = self._sibling_reached, False
            if not bypass and not self.reach.may_probe(table, self.budget, self.probe_every, self.server_probe_every):
                return self.probe_every
        if table.place.moves_to_thread and table.state is not None:
            await move_to_thread(self, table)
        if self.notice_due:
            await self._say_it_waits(table)
        output = next((o for o in OUTPUTS if o in self.due or (o is Output.RETIRE and self.board.old_boards)), None)
        if output is not None:
            return await self._step(table, output)
        return 0.0

    async def held(self, seconds: float) -> bool:
        """Its server used its share of the refusal budget: held back, clock paused, until it frees."""
        if not self.budget_held:
            log.warning("table %s: its server used its share of refused requests; holding back %.0f s", self.game_id,
                        seconds)
        self.budget_held = True
        await self._cannot_show(await self.bot.service.table(self.game_id))
        return True

    async def _cannot_show(self, table: Table) -> None:
        """The board cannot be shown for a while: the clock waits, and the board (with its ping) is written again
        once it can be, which runs the clock again with the full time."""
        if table.status is GameStatus.RUNNING:
            self.due.add(Output.BOARD)
            await self.hold_clock(table)

    async def sleep(self, seconds: float) -> None:
        """Wait out a backoff; ``wake`` ends the wait early (by cancelling this sleep only)."""
        self._sleeping = True
        try:
            await asyncio.sleep(seconds)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not self._woken or task is None:
                raise
            task.uncancel()
        finally:
            self._sleeping = self._woken = False

    async def _step(self, table: Table, output: Output) -> float | None:
        kind = OUTPUTS[output]
        self.due.discard(output)  # an update arriving meanwhile makes it due again
        self._writing = output
        if kind.where[table.place.kind] is Writing.NOT:
            await kind.skip(self, table)
            return 0.0
        self._in_flight = True
        try:
            wrote = await kind.write(self, table)
        except NoLiveToken:  # a DM or group DM table nobody pressed for a while: it waits for the next press
            return await self._no_token(table, kept=False)
        except MustWait:  # ... or whose last press used its followups: it says so, clock stopped
            await self.hold_clock(table)
            self.board.waiting = notice(table, FOLLOWUPS_SPENT)
            self.due.add(output)
            return 0.0
        except BaseException:
            self.due.add(output)  # (sorted by the delivery loop: ``refused``)
            raise
        finally:
            self._in_flight = False
        if output is Output.BOARD and self.board.pending():
            self.due.add(output)  # lines that did not fit: another round
        if wrote:
            await self._reached(table)
            if table.place.by_token and output is Output.BOARD:
                self.schedule_notice()  # the board may have gone out with another token
        return 0.0

    async def _no_token(self, table: Table, *, kept: bool) -> float | None:
        """A token ended or was refused at a DM or group DM table: what was due goes on at once with another live
        press that can still post (the newest first; ``kept``: after a refusal, the followup kept for saying the
        table waits counts too — the board then says so), else it waits for the next press (the writer's task ends;
        the next update or press starts it again). The clock stops unless everyone deciding was told on the board,
        whose countdown then runs as it shows: nobody's time runs out unseen, and no board shows a clock that
        stopped."""
        self.due |= {self._writing, Output.BOARD}
        if self.tokens.can_post(kept=kept):
            return 0.0
        if table.status is GameStatus.RUNNING and not self.board.all_told(table):
            await self.hold_clock(table)
        self.awaiting_press = True
        return None

    async def _reached(self, table: Table) -> None:
        """A write went through: the channel is reachable; a held clock runs again once the people are told."""
        if self.reach.cause is not None:
            self.reach.cause = None
            self.unreachable.reset()
            self.budget.reachable(table.row.guild_id, table.id)
        if self.clock_held and self.board.all_told(table) and Output.BOARD not in self.due and \
                self.board.waiting is None:
            self.clock_held = False
            await self.bot.service.resume_clock(self.game_id)

    async def removed(self) -> None:
        """The bot was removed from the table's server: its clock stops, and its host is not told (it is the
        server that let the bot go); writing resumes if the bot comes back."""
        table = await self.bot.service.table(self.game_id)
        self.reach.cause = Refusal.NO_ACCESS
        if table.status is GameStatus.RUNNING:
            await self.hold_clock(table)

    async def hold_clock(self, table: Table) -> None:
        if not self.clock_held:
            self.clock_held = True
            await self.bot.service.pause_clock(table.id)

    async def refused(self, refusal: Refusal, error: BaseException, wait: float) -> float | None:
        """A try failed (sorted and counted by the delivery loop): the reaction to each refusal."""
        output, table = self._writing, self._table or await self.bot.service.table(self.game_id)
        self.due.add(output)
        if refusal is Refusal.TOKEN_GONE and self.carrier is not None:  # Discord no longer takes the press's token
            log.info("table %s: Discord refused a press's token (%s); writing with another live one, if any",
                     table.id, getattr(error, "code", None))
            self.tokens.refused()  # what it sent keeps what it shows; the board goes on with another live press
            return await self._no_token(table, kept=True)
        if refusal is Refusal.ARCHIVED:  # opened again (or why not); written to after a backoff all the same
            refusal = await self.bot.delivery.unarchive(self.bot.http, table.place.channel_id, table.row.guild_id,
                                                         table.id) or Refusal.ARCHIVED
            wait = max(wait, self.backoff.next()) if refusal is Refusal.ARCHIVED else wait
        if refusal.retried or refusal is Refusal.ARCHIVED:
            log.warning("table %s: writing the %s failed (%s); trying again in %.1f s", self.game_id,
                        output.value, type(error).__name__, wait)
            if wait >= self.hold_after:
                await self._cannot_show(table)
            return wait
        if refusal.unreachable:
            self.due.add(Output.BOARD)
            await self.hold_clock(table)
            await self.reach.cannot_reach(table, refusal, lobby_channel=in_lobby_channel(table, output))
            self.reach.tried_at = time.monotonic()
            self.budget.hold(table.row.guild_id, table.id, lambda: self.wake(sibling_reached=True))
            return min(self.unreachable.next(), self.probe_every)
        if refusal is Refusal.CHANNEL_GONE:
            await lose_channel(self, table, lobby_channel=in_lobby_channel(table, output))
            return self.backoff.next()
        log.error("table %s: Discord refused the %s (%s); dropped", self.game_id, output.value, error)
        self.due.discard(output)
        OUTPUTS[output].give_up(self)
        return 0.0

    def writing(self) -> bool:
        """Its task is writing now (not done, and not waiting out a backoff)."""
        return self._task is not None and not self._task.done() and not self._sleeping

    async def idle(self) -> None:
        """Wait until everything pushed so far is written (tests, shutdown)."""
        while self._task is not None and not self._task.done():
            await asyncio.wait([self._task])

    async def stop(self) -> None:
        """Stop writing (shutdown): what is still due is written after the next start, from the stored table."""
        if self._archive_timer is not None:
            self._archive_timer.cancel()
        self.press_wait.cancel()
        if self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
