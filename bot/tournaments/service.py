"""The tournament service: sign-up, check-in, start, and the organiser's tools. Like ``GameService`` for games,
it is the only door to tournaments; every check happens before anything is written, so refused input
(``HostError("tournament.<code>")``) changes nothing."""
from __future__ import annotations

import secrets

from bot import i18n
from bot.errors import HostError
from bot.policies import check_level
from bot.service import GameService
from bot.storage import BotLevel, GameStatus, Storage
from engines import Json

from .absence import Replaced, mark_away, seat_to_bot
from .checkin import CheckIn
from .formats import can_come_back, first_round_tables, min_field, rules_for, rules_of, seated_without
from .models import (
    ACTIVE_STATES,
    ENDED_STATES,
    JOINABLE,
    LIVE_TABLE_STATES,
    OPEN_STATES,
    Deal,
    Entrant,
    EntrantStatus,
    FirstRound,
    Format,
    TableStatus,
    Tournament,
    TournamentStatus,
    TournamentTable,
    TournamentUpdateKind,
    ranking_points,
)
from .ratings import RatingService
from .running import OpenFailing, OpenTable, RoundRunner
from .settings import MAX_BOTS, MAX_NAME, MAX_ROUNDS, check_settings, checked_name
from .standings import score_absent_seats

# Seat me again once the tournament has ended: said why, not only "not possible at this stage"
BACK_ENDED = {TournamentStatus.FINISHED: "tournament.back_finished",
              TournamentStatus.CANCELLED: "tournament.back_cancelled"}


class TournamentService:
    """Sign-up and the organiser's tools; the rounds are run by its ``RoundRunner`` (``running.py``)."""

    def __init__(self, storage: Storage, games: GameService, ratings: RatingService) -> None:
        self.rounds = rounds = RoundRunner(storage, games, ratings)
        self.store, self.games, self.ratings = rounds.store, games, ratings
        # The round runner's public calls, callable on the service (bound methods: typed as theirs).
        self.subscribe, self.lock, self.get = rounds.subscribe, rounds.lock, rounds.get
        self.standings, self.rating_points = rounds.standings, rounds.rating_points
        self.openings = rounds.openings
        self.checkins = checkins = CheckIn(self)
        self.open_checkin, self.check_in, self.add_player = checkins.open, checkins.check_in, checkins.add_player
        self._cache = rounds._cache  # the loaded tournaments (the same dict, never rebound): tests look into it

    async def resume(self) -> int:
        """After a restart: running tournaments pick up where they were, check-in deadlines are kept."""
        await self.checkins.resume()
        return await self.rounds.resume()

    async def close(self) -> None:
        await self.checkins.close()
        await self.rounds.close()

    # ---- what the Discord cog installs on the round runner -------------------------------
    @property
    def open_table(self) -> OpenTable:
        return self.rounds.open_table

    @open_table.setter
    def open_table(self, open_table: OpenTable) -> None:
        self.rounds.open_table = open_table

    @property
    def on_open_failing(self) -> OpenFailing:
        return self.rounds.on_open_failing

    @on_open_failing.setter
    def on_open_failing(self, on_open_failing: OpenFailing) -> None:
        self.rounds.on_open_failing = on_open_failing

    # ---- creation and sign-up ---------------------------------------------------------
    async def create(self, *, game: str, guild_id: int | None, channel_id: int, creator_id: int, name: str = "",
                     format: str = "swiss", rounds: int | None = None, seats_min: int | None = None,
                     seats_max: int | None = None, final_table: bool = False, first_round: str = FirstRound.RANDOM,
                     options: Json | None = None, locale: str = "en",
                     seed: int | None = None, bot_level: str = BotLevel.NORMAL, break_seconds: int = 0,
                     turn_seconds: int = 120, start_at_deadline: bool = False,
                     advance: int | None = None, cut: int | None = None, deal: str = Deal.OWN) -> Tournament:
        parsed, seats_min, seats_max = self.check_create(game, format, rounds, seats_min, seats_max, first_round,
                                                         options, bot_level, break_seconds, turn_seconds,
                                                         final_table=final_table, advance=advance, cut=cut, deal=deal)
        rules = rules_for(Format(format), Deal(deal))
        swiss = (rounds or 3) if rules.cut else 0  # a Swiss stage before a knockout: the organiser's rounds
        planned = rules.planned is not None  # the start plans the rounds (a Swiss stage's with its knockout's)
        tournament = Tournament(
            0, guild_id, channel_id, creator_id, game, Format(format), 0 if planned else (rounds or 3),
            seats_min, seats_max, secrets.randbits(62) if seed is None else seed,
            name=checked_name(name)[:MAX_NAME], options=parsed,
            final_table=final_table, first_round=FirstRound(first_round), locale=locale,
            bot_level=check_level(bot_level),
            break_seconds=break_seconds, turn_seconds=turn_seconds, start_at_deadline=start_at_deadline,
            advance=advance or 0, swiss_rounds=swiss, cut=cut or 0, deal=Deal(deal))
        tournament.id = await self.store.create(tournament)
        self._cache[tournament.id] = tournament
        await self.rounds.emit(tournament, TournamentUpdateKind.SIGNUP)
        return tournament

    check_create = staticmethod(check_settings)  # the cog checks before it defers

    def _organiser(self, tournament: Tournament, actor: int, organises_all: bool) -> None:
        if actor != tournament.creator_id and not organises_all:
            raise HostError("tournament.organiser_only")

    @staticmethod
    def require_state(tournament: Tournament, *allowed: TournamentStatus) -> None:
        if tournament.status not in allowed:
            raise HostError("tournament.wrong_state", status=tournament.status)

    async def join(self, tournament_id: int, user_id: int, name: str) -> Tournament:
        async with self.lock(tournament_id):
            t = await self.get(tournament_id)
            if t.status == TournamentStatus.CHECKIN_CLOSED:
                raise HostError("tournament.checkin_closed")
            if t.status not in JOINABLE:
                raise HostError("tournament.closed")
            if user_id in t.entrants:
                raise HostError("tournament.already_entered")
            status = EntrantStatus.CHECKED_IN if t.status == TournamentStatus.CHECKIN else EntrantStatus.ENTERED
            await self.enter(t, [Entrant(user_id, name[:32], False, status)])
            return t

    async def enter(self, t: Tournament, entrants: list[Entrant]) -> None:
        seq = max((e.seq for e in t.entrants.values()), default=0)
        for i, entrant in enumerate(entrants, start=1):
            entrant.seq = seq + i
        await self.store.add_entrants(t.id, entrants)
        t.entrants.update({e.user_id: e for e in entrants})
        await self.rounds.emit(t, TournamentUpdateKind.SIGNUP)

    async def leave(self, tournament_id: int, user_id: int) -> Tournament:
        async with self.lock(tournament_id):
            t = await self.get(tournament_id)
            if t.status not in OPEN_STATES:
                raise HostError("tournament.closed")
            if user_id not in t.entrants:
                raise HostError("tournament.you_not_entered")
            await self.store.remove_entrant(t.id, user_id)
            del t.entrants[user_id]
            await self.rounds.emit(t, TournamentUpdateKind.SIGNUP)
            return t

    async def add_bots(self, tournament_id: int, actor: int, count: int, *, organises_all: bool = False) -> Tournament:
        """Bot entrants (negative ids) to fill a field; their seats are played by the host's bots."""
        async with self.lock(tournament_id):
            t = await self.get(tournament_id)
            self._organiser(t, actor, organises_all)
            self.require_state(t, *OPEN_STATES)
            taken = [-u for u in t.entrants if u < 0]
            if not 1 <= count <= MAX_BOTS - len(taken):
                raise HostError("tournament.too_many_bots", max=MAX_BOTS)
            first = max(taken, default=0) + 1
            status = EntrantStatus.CHECKED_IN if t.checkin else EntrantStatus.ENTERED
            names = [i18n.t("common.bot_name", t.locale, number=n) for n in range(first, first + count)]  # its language
            await self.enter(t, [Entrant(-n, name, True, status) for n, name in enumerate(names, start=first)])
            return t

    async def start(self, tournament_id: int, actor: int, *, organises_all: bool = False, min_people: int = 0,
                    max_rounds: int = MAX_ROUNDS, table_room: tuple[int, int] | None = None) -> Tournament:
        """Seat round 1. ``min_people``: people (not bots) who must be entered (Discord asks for one; bot-only
        tournaments are for tests and benchmarks); ``max_rounds``: the server's cap, which a round robin's
        computed rounds must respect too; ``table_room``: (room left, the server's cap) for running tables, which
        round 1's tables must fit."""
        async with self.lock(tournament_id):
            t = await self.get(tournament_id)
            self._organiser(t, actor, organises_all)
            self.require_state(t, *OPEN_STATES)
            absent = [u for u, e in t.entrants.items() if t.checkin and e.status is not EntrantStatus.CHECKED_IN]
            count = len(t.entrants) - len(absent)
            rules = rules_of(t)
            least = max(min_field(t), rules.min_entrants)  # a same-deal round: two tables at least
            if count < least and t.checkin:  # counted as the sign-up counts: the checked in, of all entered
                raise HostError("tournament.too_few_checked_in", count=count, entered=len(t.entrants), min=least)
            if count < least:
                raise HostError("tournament.too_few_players", count=count, min=least)
            if rules.max_entrants is not None and count > rules.max_entrants:
                raise HostError("tournament.round_robin_too_big", count=count, max=rules.max_entrants)
            if sum(1 for u, e in t.entrants.items() if not e.is_bot and u not in absent) < min_people:
                raise HostError("tournament.no_person", min=min_people)
            if rules.cut and count < t.cut:
                raise HostError("tournament.cut_too_big", count=count, cut=t.cut)
            rounds = rules.planned(t, count) if rules.planned else t.rounds
            if not rounds:  # a knockout no table sizes in the range can carry to one final table
                raise HostError("tournament.knockout_no_plan", count=count, min=t.seats_min, max=t.seats_max,
                                advance=t.advance)
            if rounds > max_rounds:
                raise HostError("limit.tournament_rounds", max=max_rounds)
            if table_room is not None and (tables := first_round_tables(t, count)) > table_room[0]:
                raise HostError("limit.tournament_tables", tables=tables, room=table_room[0], max=table_room[1])
            # not those the deadline dropped
            absent = [u for u in absent if t.entrants[u].status is not EntrantStatus.DROPPED]
            if absent:
                await self.store.set_entrant_status(t.id, absent, EntrantStatus.DROPPED)
                for uid in absent:
                    t.entrants[uid].status = EntrantStatus.DROPPED
            if rounds != t.rounds:  # a planned format plays the rounds its plan takes (shown on the sign-up)
                t.rounds = rounds
                await self.store.update(t.id, rounds=t.rounds)
            await self.rounds.start_round(t, 1, missed=absent)
            return t

    # ---- the organiser's tools ----------------------------------------------------------
    async def drop(self, tournament_id: int, actor: int, user_id: int, *, organises_all: bool = False) -> Tournament:
        """Take a player out of later rounds (a player may drop themselves). A drop during a round takes effect
        after their current game, which they play to its end and which counts; if a bot plays their seat instead
        (``replace``, or a table not yet open), that game is a forfeit: last place, no points. Points already
        earned stay."""
        async with self.lock(tournament_id):
            t = await self.get(tournament_id)
            if actor != user_id:
                self._organiser(t, actor, organises_all)
            self.require_state(t, *ACTIVE_STATES)
            entrant = t.entrants.get(user_id)
            if entrant is None:
                raise HostError("tournament.you_not_entered" if actor == user_id else "tournament.not_entered")
            if entrant.status is EntrantStatus.DROPPED:
                raise HostError("tournament.already_dropped")
            if t.status in OPEN_STATES:  # before the start, dropping is leaving
                await self.store.remove_entrant(t.id, user_id)
                del t.entrants[user_id]
                await self.rounds.emit(t, TournamentUpdateKind.SIGNUP)
                return t
            await self.store.set_entrant_status(t.id, [user_id], EntrantStatus.DROPPED)
            entrant.status = EntrantStatus.DROPPED
            await self.rounds.emit(t, TournamentUpdateKind.SIGNUP)
            await self.rounds.emit(t, TournamentUpdateKind.RESULT, t.current_round)
            return t

    async def replace(self, tournament_id: int, actor: int, user_id: int, *, organises_all: bool = False) -> Replaced:
        """A bot plays the rest of this player's current game (its placing still counts for the player, who stays
        in the tournament, unless they never moved there: a no-show); a table left with bots only plays on, and
        its bots score. A seat a bot already plays (its person away) is answered so: it plays on to the end."""
        async with self.lock(tournament_id):
            t = await self.get(tournament_id)
            self._organiser(t, actor, organises_all)
            self.require_state(t, TournamentStatus.RUNNING)
            if user_id not in t.entrants:
                raise HostError("tournament.not_entered")
            replaced = await seat_to_bot(self.games, t, user_id)
            if replaced is None:
                raise HostError("tournament.not_playing")
            return replaced

    async def back(self, tournament_id: int, user_id: int) -> Tournament:
        """A no-show comes back (the button under the round's no-show message): seated again from the next
        seating on."""
        async with self.lock(tournament_id):
            t = await self.get(tournament_id)
            if t.status in BACK_ENDED:
                raise HostError(BACK_ENDED[t.status])
            self.require_state(t, TournamentStatus.RUNNING)
            entrant = t.entrants.get(user_id)
            if entrant is None:
                raise HostError("tournament.you_not_entered")
            if entrant.status == EntrantStatus.DROPPED:
                raise HostError("tournament.back_dropped")
            if entrant.status != EntrantStatus.AWAY:
                raise HostError("tournament.not_away")
            if not can_come_back(t, user_id):
                if seated_without(t, user_id):
                    raise HostError("tournament.back_too_late", round=t.current_round)
                raise HostError("tournament.back_out")
            await self.store.set_entrant_status(t.id, [user_id], EntrantStatus.ENTERED)
            entrant.status = EntrantStatus.ENTERED
            await self.rounds.emit(t, TournamentUpdateKind.SIGNUP)
            return t

    def _table(self, t: Tournament, game_id: int, *, current: bool = True, void: bool = False) -> TournamentTable:
        table = t.table_of_game(game_id)
        if table is None:
            raise HostError("tournament.unknown_table", table=game_id)
        if current and table.round != t.current_round:
            raise HostError("tournament.not_current_round", table=game_id)
        if table.status in (TableStatus.VOID, TableStatus.BYE):
            raise HostError("tournament.table_void", table=game_id)
        rules_of(t).check_correction(t, table, void)
        return table

    async def void(self, tournament_id: int, actor: int, game_id: int, *, organises_all: bool = False) -> Tournament:
        """Void a table of the current round and replay it: same players, a new deal in a new thread. After the
        end, a void corrects: the table counts for nobody (no points, no opponents) and is not replayed."""
        async with self.lock(tournament_id):
            t = await self.get(tournament_id)
            self._organiser(t, actor, organises_all)
            self.require_state(t, TournamentStatus.RUNNING, TournamentStatus.FINISHED)
            table = self._table(t, game_id, current=t.status is TournamentStatus.RUNNING, void=True)
            table.status, table.results = TableStatus.VOID, {}
            await self.store.set_table(table)
            await self._end_game(table)
            if table.game_id is not None and (await self.games.table(table.game_id)).status is GameStatus.FINISHED:
                await self.ratings.unrate_game(table.game_id)  # it counts for nobody: its ratings are undone
            if t.status is TournamentStatus.RUNNING:
                replay = TournamentTable(0, table.round, table.number, list(table.players),
                                         attempt=table.attempt + 1)
                await self.store.add_table(t.id, replay)
                t.tables.append(replay)
                self.rounds.open_soon(t.id)  # its thread is opened once the lock is released
            await self.rounds.emit(t, TournamentUpdateKind.RESULT, table.round)
            return t

    async def tournament_of_table(self, game_id: int) -> int | None:
        """The tournament a table (its game id) belongs to, whatever its state."""
        return await self.store.tournament_of_game(game_id)

    async def _end_game(self, table: TournamentTable) -> None:
        if table.game_id is not None and (await self.games.table(table.game_id)).status is GameStatus.RUNNING:
            await self.games.end(table.game_id, 0, is_admin=True)

    async def set_result(self, tournament_id: int, actor: int, game_id: int, ranking: list[list[int]], *,
                         organises_all: bool = False) -> Tournament:
        """Set (or correct) a table's placings by hand; a running game there is stopped."""
        async with self.lock(tournament_id):
            t = await self.get(tournament_id)
            self._organiser(t, actor, organises_all)
            self.require_state(t, TournamentStatus.RUNNING, TournamentStatus.FINISHED)
            table = self._table(t, game_id, current=False)
            flat = [u for group in ranking for u in group]
            if sorted(flat) != sorted(table.players) or any(not group for group in ranking):
                raise HostError("tournament.bad_ranking", count=len(table.players))
            table.results, table.status, table.forfeits = ranking_points(ranking), TableStatus.FINISHED, set()
            if table.game_id is not None:
                game = await self.games.table(table.game_id)
                score_absent_seats(t, table, game, no_shows=False)  # the organiser's places stand
                if game.status is GameStatus.FINISHED:  # it was rated by its own result: the correction redoes that
                    people = {s.user_id for s in await self.ratings.people_of(game)}
                    await self.ratings.correct_game(game.id, {u: place for u, (place, _) in table.results.items()
                                                              if u in people})
            await self.store.set_table(table)
            await mark_away(self.store, t, table)  # the organiser's places stand: a no-show there is back
            await self._end_game(table)
            await self.rounds.emit(t, TournamentUpdateKind.RESULT, table.round)
            await self.rounds.advance_if_round_done(t)
            return t

    def check_organiser(self, tournament: Tournament, actor: int, *, organises_all: bool = False) -> None:
        """Refuse anyone but the tournament's creator or someone who organises every tournament of the server (before
        asking them to confirm anything)."""
        self._organiser(tournament, actor, organises_all)

    async def next_round(self, tournament_id: int, actor: int, *, organises_all: bool = False,
                         from_round: int | None = None) -> bool:
        """Force the next round: tables still playing are stopped and score nothing. ``from_round``: the round the
        organiser moves on from; once the tournament has moved past it (a repeat, a double send) nothing happens
        and the answer is False, so a round is never skipped."""
        async with self.lock(tournament_id):
            t = await self.get(tournament_id)
            self._organiser(t, actor, organises_all)
            if from_round is not None and 0 < from_round <= t.current_round and (
                    from_round < t.current_round or t.status in ENDED_STATES):
                return False
            self.require_state(t, TournamentStatus.RUNNING)
            await self._cancel_live_tables(t)
            await self.rounds.next_round_or_finish(t)
            return True

    async def _cancel_live_tables(self, t: Tournament) -> None:
        for table in [tb for tb in t.tables if tb.status in LIVE_TABLE_STATES]:
            table.status, table.results = TableStatus.CANCELLED, {}
            await self.store.set_table(table)
            await self._end_game(table)

    async def end(self, tournament_id: int, actor: int, *, organises_all: bool = False) -> Tournament:
        """End now: running tables are stopped (no points), the standings so far are final. Before the start,
        the tournament is cancelled."""
        async with self.lock(tournament_id):
            t = await self.get(tournament_id)
            self._organiser(t, actor, organises_all)
            self.require_state(t, *ACTIVE_STATES)
            if t.status is TournamentStatus.RUNNING:
                await self._cancel_live_tables(t)
                await self.rounds.finish(t, TournamentStatus.FINISHED)
            else:
                await self.rounds.finish(t, TournamentStatus.CANCELLED)
            return t

    async def in_channel(self, channel_id: int) -> list[Tournament]:
        """Tournaments of this channel still open or running, oldest first."""
        return [await self.get(i) for i in await self.store.ids(statuses=ACTIVE_STATES, channel_id=channel_id)]

    async def set_messages(self, tournament: Tournament, **ids: int) -> None:
        """Remember the sign-up / standings message ids (a restarted bot edits the same messages)."""
        await self.store.update(tournament.id, **ids)
        for key, value in ids.items():
            setattr(tournament, key, value)
