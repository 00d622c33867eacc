"""Seat changes of the game service at a running table: come back, kick, hand a seat to a bot, the time per
decision, and ending a table.

Owned by ``GameService`` (``bot/service.py``); loads, publishes, pauses and ends through the ``ServiceCore`` it is
given, and edits a lobby (a kick before the start) through its ``Lobbies``.
"""
from __future__ import annotations

from dataclasses import replace

from .errors import HostError
from .service_core import ServiceCore
from .service_lobby import Lobbies
from .storage import GameStatus, SeatRow, VersionConflict
from .storage.rows import RowChange
from .table import ACTIVE, EndReason, Table, Update, UpdateKind


class Seats:
    def __init__(self, core: ServiceCore, lobbies: Lobbies) -> None:
        self.core = core
        self.lobbies = lobbies

    async def come_back(self, game_id: int, user_id: int) -> Update:
        """A player whose seat a bot was playing (absence or ``/game leave``) takes it back; at a paused table this
        resumes the game: the clock starts again with the full time for the decision now due."""
        table = await self.core.table(game_id)
        async with table.lock:
            if table.status is not GameStatus.RUNNING:
                raise HostError("game_not_running")
            seat = next((s for s in table.seats if s.user_id == user_id), None)
            if seat is None:
                raise HostError("not_seated")
            if not seat.is_bot:
                raise HostError("already_playing")
            await self.core.refuse_if_seated(table.row.channel_id, user_id, except_game=game_id)
            seats = [replace(s, is_bot=False, away=False, timeouts=0, showed_up=True) if s is seat else s
                     for s in table.seats]
            return await self._replace_running_seats(table, seats, seat.player)

    async def _replace_running_seats(self, table: Table, seats: list[SeatRow], actor: str) -> Update:
        """A running table's seats change. With no person left playing it closes (a tournament's table plays on)
        — or, when one of them is only away, pauses (a paused table stays paused); a person taking their seat back
        resumes a paused table."""
        if self.core.everyone_away(seats) and (table.paused or not await self.core.plays_on(table)):
            return await (self._paused_seats(table, seats, actor) if table.paused
                          else self.core.pause(table, seats, actor))
        if (self.core.abandoned(seats) and not await self.core.plays_on(table)) or (
                table.paused and all(s.user_id is None for s in seats)):
            await self.core.storage.replace_seats(table.id, seats, expected_version=table.version, deadline=None)
            table.committed(bumped=True, seats=seats, deadline=None)
            return await self.core.finish(table, GameStatus.CANCELLED, reason=EndReason.ABANDONED, actor=actor)
        resumed = table.paused  # someone plays again: the table goes on
        deadline = self.core.deadline(table, table.state, seats, paused=False)
        pause: dict[str, None] = {"paused_at": None} if resumed else {}
        await self.core.storage.replace_seats(table.id, seats, expected_version=table.version,
                                         bot_to_act=self.core.bot_to_act(table, table.state, seats), deadline=deadline,
                                         **pause)
        changed = RowChange(seats=seats, deadline=deadline)
        if resumed:
            changed["paused_at"] = None
        table.committed(bumped=True, **changed)
        return self.core.changed(table, UpdateKind.RESUMED if resumed else UpdateKind.SEATS, actor=actor)

    async def _paused_seats(self, table: Table, seats: list[SeatRow], actor: str) -> Update:
        """A seat change at a paused table that brings nobody back (a kick): it stays paused."""
        await self.core.storage.replace_seats(table.id, seats, expected_version=table.version, bot_to_act=False,
                                         deadline=None)
        table.committed(bumped=True, seats=seats, deadline=None)
        return self.core.changed(table, UpdateKind.SEATS, actor=actor)

    async def kick(self, game_id: int, by_user: int, user_id: int, *, is_admin: bool) -> Update:
        """The host (or a server manager) removes a player: a lobby seat is freed; at a running table a bot
        takes the seat for good (the player cannot come back to it)."""
        table = await self.core.table(game_id)
        async with table.lock:
            if by_user != table.row.host_id and not is_admin:
                raise not_host(table)
            seat = next((s for s in table.seats if s.user_id == user_id), None)
            if seat is None:
                raise HostError("not_seated_other")
            if table.status is GameStatus.LOBBY:
                if user_id == table.row.host_id:
                    raise HostError("cannot_kick_host")
                return await self.lobbies.edit(table, [s for s in table.seats if s is not seat])
            if table.status is not GameStatus.RUNNING:
                raise HostError("game_not_running")
            seats = [replace(s, user_id=None, is_bot=True, away=False) if s is seat else s for s in table.seats]
            return await self._replace_running_seats(table, seats, seat.player)

    async def set_turn_seconds(self, game_id: int, by_user: int, seconds: int, *, is_admin: bool) -> None:
        """Change a table's time per decision (the host or a server manager); applies from the next decision."""
        table = await self.core.table(game_id)
        async with table.lock:
            if by_user != table.row.host_id and not is_admin:
                raise not_host(table)
            if table.status not in ACTIVE:
                raise HostError("game_not_running")
            try:
                await self.core.storage.update_game(table.id, expected_version=table.version, turn_seconds=seconds)
            except VersionConflict:
                raise HostError("stale") from None
            table.committed(bumped=False, turn_seconds=seconds)
            if table.status is GameStatus.LOBBY:  # the lobby shows the time per decision
                self.core.changed(table, UpdateKind.LOBBY)

    async def hand_to_bot(self, game_id: int, user_id: int) -> Update:
        """``/game leave`` at a running table: the seat stays in the game, played by a bot."""
        table = await self.core.table(game_id)
        async with table.lock:
            if table.status is GameStatus.LOBBY:
                raise HostError("use_leave_button")
            if table.status is not GameStatus.RUNNING:
                raise HostError("game_not_running")
            seat = table.seat_of_user(user_id)
            if seat is None:
                raise HostError("not_seated")
            seats = [replace(s, is_bot=True) if s is seat else s for s in table.seats]
            return await self._replace_running_seats(table, seats, seat.player)

    async def end(self, game_id: int, user_id: int, *, is_admin: bool) -> Update:
        """``/game end``: the host or a server manager stops a lobby or a running table."""
        table = await self.core.table(game_id)
        async with table.lock:
            if table.status not in ACTIVE:
                raise HostError("game_not_running")
            if user_id != table.row.host_id and not is_admin:
                raise not_host(table)
            return await self.core.finish(table, GameStatus.CANCELLED,
                                          reason=EndReason.PAUSED_ENDED if table.paused else None)


def not_host(table: Table) -> HostError:
    """The refusal of someone who is not the table's host (nor, in a server, a manager): outside a server nobody
    has Manage Server, so the message does not mention it."""
    return HostError("host_or_admin_only" if table.place.rated else "host_only")
