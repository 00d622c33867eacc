"""Lobbies of the game service: open a table, join, leave, add bots, start; and tables seated at once.

Owned by ``GameService`` (``bot/service.py``); loads, publishes, deals and ends through the ``ServiceCore`` it is given.
"""
from __future__ import annotations

from typing import Callable

from engines import Json, get_engine

from .errors import HostError
from .games import engine_hooks
from .policies import check_level
from .service_core import ServiceCore
from .storage import BotLevel, GameStatus, SeatRow, VersionConflict
from .table import EndReason, Table, Update, UpdateKind, human_player


class Lobbies:
    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    async def create_lobby(self, *, game: str, guild_id: int | None, channel_id: int, user_id: int, name: str,
                           options: Json | None = None, locale: str = "en",
                           seed: int | None = None, turn_seconds: int = 120, open_thread: bool = False) -> Table:
        """A lobby in ``channel_id``; with ``open_thread`` the table moves, at its start, to a public thread started
        from its lobby message."""
        engine = get_engine(game)
        parsed = engine.parse_options(options)
        await self.core.refuse_if_seated(channel_id, user_id)
        seat = SeatRow(0, human_player(user_id), name, user_id, False)
        game_id = await self.core.storage.create_game(
            guild_id=guild_id, channel_id=channel_id, game=game,
            options=parsed.model_dump(mode="json", exclude_defaults=True),
            seed=self.core.new_seed() if seed is None else seed, host_id=user_id, locale=locale, seats=[seat],
            turn_seconds=turn_seconds, open_thread=open_thread,
        )
        table = await self.core.table(game_id)
        self.core.changed(table, UpdateKind.LOBBY)
        return table

    async def edit(self, table: Table, seats: list[SeatRow], host_id: int | None = None) -> Update:
        seats = [SeatRow(i, s.player, s.name, s.user_id, s.is_bot, level=s.level) for i, s in enumerate(seats)]
        host_id = table.row.host_id if host_id is None else host_id
        await self.core.storage.replace_seats(table.id, seats, expected_version=table.version, host_id=host_id)
        table.committed(bumped=True, seats=seats, host_id=host_id)
        return self.core.changed(table, UpdateKind.LOBBY)

    def _lobby(self, table: Table) -> None:
        if table.status is not GameStatus.LOBBY:
            raise HostError("not_in_lobby")

    async def join(self, game_id: int, user_id: int, name: str) -> Update:
        table = await self.core.table(game_id)
        async with table.lock:
            self._lobby(table)
            if table.seat_of_user(user_id):
                raise HostError("already_joined")
            await self.core.refuse_if_seated(table.row.channel_id, user_id, except_game=game_id)
            person = SeatRow(0, human_player(user_id), name, user_id)
            seats = list(table.seats)
            if len(seats) < table.engine.max_players:
                return await self.edit(table, [*seats, person])
            # A person comes before a bot: they take the seat of the last bot (``bots:`` never blocks a friend).
            bots = [i for i, s in enumerate(seats) if s.is_bot and s.user_id is None]
            if not bots:
                raise HostError("table_full", max=table.engine.max_players)
            seats[bots[-1]] = person
            return await self.edit(table, seats)

    async def remove_seat(self, game_id: int, user_id: int, player: str, expected_version: int | None = None) -> Update:
        """The host takes a seat out of the lobby: a bot, or a person (who may join again). Not the host's own.
        ``expected_version``: the lobby as the host saw it (a changed lobby is refused, None: no check)."""
        table = await self.core.table(game_id)
        async with table.lock:
            self._lobby(table)
            if user_id != table.row.host_id:
                raise HostError("host_only")
            if expected_version is not None and expected_version != table.version:
                raise HostError("lobby_changed")
            seat = table.seat_of(player)
            if seat is None:
                raise HostError("seat_gone")
            if seat.user_id == table.row.host_id and not seat.is_bot:
                raise HostError("cannot_kick_host")
            return await self.edit(table, [s for s in table.seats if s is not seat])

    async def leave_lobby(self, game_id: int, user_id: int) -> Update:
        """Leave a lobby. When the host leaves, the next human hosts; with no human left the lobby closes."""
        table = await self.core.table(game_id)
        async with table.lock:
            self._lobby(table)
            if not table.seat_of_user(user_id):
                raise HostError("not_seated")
            seats = [s for s in table.seats if s.user_id != user_id or s.is_bot]
            humans = [s for s in seats if not s.is_bot]
            if not humans:
                return await self.core.finish(table, GameStatus.CANCELLED)
            host_id = humans[0].user_id if table.row.host_id == user_id else table.row.host_id
            return await self.edit(table, seats, host_id=host_id)

    async def close_idle_lobby(self, game_id: int, version: int) -> Update | None:
        """A lobby nobody changed since ``version`` (for ``LOBBY_CLOSE_HOURS``) is closed, as a table ended without
        a result: its host may have left the server, and it must not stay open, its buttons live, for ever."""
        table = await self.core.table(game_id)
        async with table.lock:
            if table.status is not GameStatus.LOBBY or table.version != version:
                return None  # changed (or started, or ended) meanwhile: its timer was armed again
            return await self.core.finish(table, GameStatus.CANCELLED, reason=EndReason.LOBBY_IDLE)

    async def add_bot(self, game_id: int, user_id: int, level: BotLevel = BotLevel.NORMAL) -> Update:
        level = check_level(level)
        table = await self.core.table(game_id)
        async with table.lock:
            self._lobby(table)
            if user_id != table.row.host_id:
                raise HostError("host_only")
            if len(table.seats) >= table.engine.max_players:
                raise HostError("table_full", max=table.engine.max_players)
            taken = {s.player for s in table.seats}
            number = next(n for n in range(1, 100) if f"bot{n}" not in taken)
            bot = SeatRow(0, f"bot{number}", f"Bot {number}", None, True, level=level)
            return await self.edit(table, [*table.seats, bot])

    async def start(self, game_id: int, user_id: int, quick: Callable[[Json], Json] | None = None
                    ) -> Update:
        """The host deals the game; ``quick`` gives the options of the game's quick length from the lobby's (its
        quick-start button), stored with the game instead of the lobby's."""
        table = await self.core.table(game_id)
        async with table.lock:
            self._lobby(table)
            if user_id != table.row.host_id:
                raise HostError("host_only")
            if len(table.seats) < table.engine.min_players:
                raise HostError("not_enough_players", min=table.engine.min_players, count=len(table.seats))
            if quick is None:
                return await self.core.begin(table)
            options = quick(table.row.options)
            table.engine.parse_options(options)  # BadOptions before anything is written
            return await self.core.begin(table, options)

    async def create_bot_table(self, *, game: str, players: int, seed: int, channel_id: int,
                               guild_id: int | None = None, options: Json | None = None,
                               levels: list[BotLevel] | None = None) -> Table:
        """A table of bot seats only, started at once (the terminal demo, benchmarks); ``levels`` per seat."""
        levels = [check_level(level) for level in levels or [BotLevel.NORMAL] * players]
        seats = [SeatRow(i, f"bot{i + 1}", f"Bot {i + 1}", None, True, level=levels[i % len(levels)])
                 for i in range(players)]
        return await self.create_seated_table(game=game, guild_id=guild_id, channel_id=channel_id, seats=seats,
                                              host_id=0, seed=seed, options=options)

    async def create_seated_table(self, *, game: str, guild_id: int | None, channel_id: int,
                                  seats: list[SeatRow], host_id: int, seed: int,
                                  options: Json | None = None, locale: str = "en",
                                  turn_seconds: int = 120) -> Table:
        """A table with the given seats (people and bots) started at once in ``channel_id`` — a thread, for a
        tournament table. No lobby, and no check that the people sit elsewhere (a tournament seats them)."""
        engine = get_engine(game)
        parsed = engine.parse_options(options)
        seats = [SeatRow(i, s.player, s.name, s.user_id, s.is_bot, level=s.level) for i, s in enumerate(seats)]
        game_id = await self.core.storage.create_game(
            guild_id=guild_id, channel_id=channel_id, game=game,
            options=parsed.model_dump(mode="json", exclude_defaults=True), seed=seed, host_id=host_id,
            locale=locale, seats=seats, turn_seconds=turn_seconds)
        table = await self.core.table(game_id)
        async with table.lock:
            await self.core.begin(table)
        return table

    async def rematch(self, game_id: int, user_id: int) -> Table:
        """A finished table played again, started at once and hosted by whoever asked (anyone who played): the same
        people and bots (with their levels) in the same seats, the same options and time per decision — adjusted by
        the game's ``rematch_options`` (Rocca: the worst player starts). A person since removed, or now seated at
        another table here, is replaced by a bot. Once per table: asking again names the table already opened."""
        old = await self.core.table(game_id)
        async with old.lock:
            if await self.core.storage.tournaments.tournament_of_game(game_id) is not None:
                raise HostError("rematch_tournament")  # the tournament seats its next round
            if old.status is not GameStatus.FINISHED or old.result() is None:
                raise HostError("rematch_not_finished")
            if old.row.rematch_id is not None:
                raise HostError("rematch_exists", game_id=old.row.rematch_id)
            if not any(s.user_id == user_id for s in old.seats):
                raise HostError("rematch_players_only")
            await self.core.refuse_if_seated(old.row.channel_id, user_id)
            seats = await self._rematch_seats(old)
            options = dict(old.row.options)
            hook, result = engine_hooks(old.row.game).rematch_options, old.result()
            if hook is not None and result is not None:
                options = hook(options, [s.player for s in seats], result)
            table = await self.create_seated_table(
                game=old.row.game, guild_id=old.row.guild_id, channel_id=old.row.channel_id, seats=seats,
                host_id=user_id, seed=self.core.new_seed(), options=options, locale=old.row.locale,
                turn_seconds=old.row.turn_seconds)
            try:
                await self.core.storage.update_game(old.id, expected_version=old.version, rematch_id=table.id)
            except VersionConflict:
                raise HostError("stale") from None
            old.committed(bumped=False, rematch_id=table.id)
        return table

    async def _rematch_seats(self, old: Table) -> list[SeatRow]:
        busy = {s.user_id for other in await self.core.tables_in_channel(old.row.channel_id) for s in other.seats
                if s.user_id is not None and not s.is_bot}
        taken = {s.player for s in old.seats}
        seats = []
        for s in old.seats:
            if s.user_id is not None and s.user_id not in busy:  # a person, even one a bot finished for
                seats.append(SeatRow(0, s.player, s.name, s.user_id))
            elif s.user_id is None and s.is_bot and s.player.startswith("bot"):  # the host's bot, same level
                seats.append(SeatRow(0, s.player, s.name, None, True, level=s.level))
            else:  # removed, or busy at another table here
                number = next(n for n in range(1, 100) if f"bot{n}" not in taken)
                taken.add(f"bot{number}")
                seats.append(SeatRow(0, f"bot{number}", f"Bot {number}", None, True))
        return seats
