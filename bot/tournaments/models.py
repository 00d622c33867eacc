"""Tournament records (plain dataclasses mirroring ``0004_tournaments.sql``) and the points table.

Entrants are keyed by Discord user id; bot entrants (organisers fill a field with them, tests play whole
tournaments with them) get negative ids. A tournament table lists its entrants in seat order, so seat ``i``
of the hosted game belongs to ``players[i]``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from bot.storage import BotLevel, SeatRow
from bot.table import human_player
from engines import Json


class Format(StrEnum):
    """A tournament's format (stored as its value); its rules are one row of ``formats.FORMATS``."""

    SWISS = "swiss"
    ROUND_ROBIN = "roundrobin"
    KNOCKOUT = "knockout"
    SWISS_KNOCKOUT = "swiss_knockout"  # Swiss rounds, then a knockout of the top ``cut`` of their standings


class TournamentStatus(StrEnum):
    """signup -> (checkin -> checkin_closed) -> running -> finished | cancelled"""

    SIGNUP = "signup"
    CHECKIN = "checkin"
    CHECKIN_CLOSED = "checkin_closed"  # the deadline passed: nobody joins or checks in; the organiser starts it
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class EntrantStatus(StrEnum):
    ENTERED = "entered"
    CHECKED_IN = "checked_in"
    DROPPED = "dropped"
    AWAY = "away"  # a no-show at their last table: not seated again until they come back (``TournamentService.back``)


SEATABLE = (EntrantStatus.ENTERED, EntrantStatus.CHECKED_IN)  # who the next seating takes


class TableStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    VOID = "void"
    BYE = "bye"


class Deal(StrEnum):
    """Whose deal a round's tables play (a tournament's ``deal``; with its format, one row of ``formats.FORMATS``)."""

    OWN = "own"    # every table its own deal, as at /play
    SAME = "same"  # every table of a round the same deal, per-seat streams: a seat is compared with its holders


class FirstRound(StrEnum):
    """How a tournament seats its first round (its ``first_round``)."""

    RANDOM = "random"
    RATING = "rating"  # by the entrants' ratings


OPEN_STATES = (TournamentStatus.SIGNUP, TournamentStatus.CHECKIN, TournamentStatus.CHECKIN_CLOSED)  # not started
JOINABLE = (TournamentStatus.SIGNUP, TournamentStatus.CHECKIN)  # a person may still join (a button press)
ACTIVE_STATES = (*OPEN_STATES, TournamentStatus.RUNNING)
ENDED_STATES = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
WINNER_POINTS = 3.0
BYE_POINTS = WINNER_POINTS / 2  # a bye scores the middle of the scale: neither a win nor a loss
ROUND_ROBIN_MAX = 16            # "round robin for small fields"
# a round is over once none of its tables is pending or running
DONE_TABLE_STATES = (TableStatus.FINISHED, TableStatus.CANCELLED, TableStatus.VOID, TableStatus.BYE)
LIVE_TABLE_STATES = (TableStatus.PENDING, TableStatus.RUNNING)  # a table still to be played, or being played


def place_points(size: int, place: int) -> float:
    """Points for finishing ``place`` (1-based) at a table of ``size``: linear from 3 (first) to 0 (last),
    so tables of different sizes are worth the same: 3/2/1/0 at four seats, 3/1.5/0 at three, 3/0 at two."""
    if size <= 1:
        return BYE_POINTS
    return round(WINNER_POINTS * (size - place) / (size - 1), 4)


def ranking_points(ranking: list[list[int]]) -> dict[int, tuple[int, float]]:
    """``{entrant: (place, points)}`` for a ranking of places; entrants sharing a place share the points of the
    places they cover (a tie for 2nd at four seats: both get (2 + 1) / 2 = 1.5)."""
    size = sum(len(group) for group in ranking)
    out: dict[int, tuple[int, float]] = {}
    place = 1
    for group in ranking:
        covered = [place_points(size, p) for p in range(place, place + len(group))]
        share = round(sum(covered) / len(covered), 4)
        for entrant in group:
            out[entrant] = (place, share)
        place += len(group)
    return out


@dataclass
class Entrant:
    user_id: int
    name: str
    is_bot: bool = False
    status: EntrantStatus = EntrantStatus.ENTERED
    seq: int = 0              # sign-up order (the last tie-breaker)

    def __post_init__(self) -> None:
        self.status = EntrantStatus(self.status)  # storage and tests give its stored text

    @property
    def seatable(self) -> bool:
        """The next seating takes them: neither dropped nor away after a no-show."""
        return self.status in SEATABLE

    @property
    def player(self) -> str:
        """The engine's player id for this entrant's seat."""
        return f"bot{-self.user_id}" if self.is_bot else human_player(self.user_id)

    @property
    def mention(self) -> str:
        return self.name if self.is_bot else f"<@{self.user_id}>"

    def seat(self, number: int, bot_level: BotLevel = BotLevel.NORMAL) -> SeatRow:
        return SeatRow(number, self.player, self.name, None if self.is_bot else self.user_id, self.is_bot,
                       level=bot_level if self.is_bot else BotLevel.NORMAL)


FILL_ID = -1_000_000  # a stored result of the bot filling seat s has the id FILL_ID - s: no entrant's (bots: -1..)


def fill_id(seat: int) -> int:
    """The id the result of the bot filling ``seat`` is kept under (never an entrant's: people > 0, bots -1..)."""
    return FILL_ID - seat


@dataclass
class TournamentTable:
    id: int
    round: int
    number: int
    players: list[int]                 # entrant ids, seat order
    status: TableStatus = TableStatus.PENDING
    game_id: int | None = None
    channel_id: int | None = None      # the thread the table is played in
    attempt: int = 0                   # replays of a voided table count up
    results: dict[int, tuple[int, float]] = field(default_factory=dict)  # entrant -> (place, points)
    forfeits: set[int] = field(default_factory=set)  # dropped people whose seat a bot played: last, no points
    no_shows: set[int] = field(default_factory=set)  # people who never moved at it, a bot playing their seat: the same
    fill: list[int] = field(default_factory=list)  # seat numbers a bot fills (a same-deal round's equal tables)
    fill_places: dict[int, int] = field(default_factory=dict)  # seat a bot fills -> its place (compared, no points)

    def __post_init__(self) -> None:
        self.status = TableStatus(self.status)

    def seat_list(self) -> list[int | None]:
        """The table's seats in order: an entrant id, or None where a bot fills the seat (``fill``)."""
        entrants = iter(self.players)
        return [None if seat in self.fill else next(entrants) for seat in range(len(self.players) + len(self.fill))]

    @classmethod
    def from_seats(cls, round: int, number: int, seats: list[int | None]) -> TournamentTable:
        """A pending table of ``seats`` (None: a seat a bot fills)."""
        return cls(0, round, number, [u for u in seats if u is not None],
                   fill=[i for i, u in enumerate(seats) if u is None])

    @property
    def done(self) -> bool:
        return self.status in DONE_TABLE_STATES


@dataclass
class Tournament:
    id: int
    guild_id: int | None
    channel_id: int
    creator_id: int
    game: str
    format: Format
    rounds: int
    seats_min: int
    seats_max: int
    seed: int
    name: str = ""
    options: Json = field(default_factory=dict)
    final_table: bool = False
    first_round: FirstRound = FirstRound.RANDOM
    checkin: bool = False              # check-in window opened: only checked-in entrants are seated
    status: TournamentStatus = TournamentStatus.SIGNUP
    current_round: int = 0
    locale: str = "en"
    signup_message_id: int | None = None
    standings_message_id: int | None = None
    bot_level: BotLevel = BotLevel.NORMAL  # the level every bot entrant plays at
    break_seconds: int = 0             # pause between rounds (drops then take effect before the next seating)
    next_round_at: float | None = None  # when the pause under way ends (None: no pause)
    checkin_until: float | None = None  # the check-in deadline shown to entrants
    turn_seconds: int = 120            # time per decision at its tables
    start_at_deadline: bool = False    # the check-in deadline starts it (those not checked in are dropped then)
    advance: int = 0                   # a knockout: the top ``advance`` of each table go on
    checkin_remind_at: float | None = None  # when the one reminder before the check-in deadline is due (None: sent)
    swiss_rounds: int = 0              # a Swiss feeding a knockout: the Swiss stage's rounds
    cut: int = 0                       # ... and how many of its standings go on to the knockout
    deal: Deal = Deal.OWN              # same: every table of a round plays the same deal (formats.FORMATS)
    entrants: dict[int, Entrant] = field(default_factory=dict)
    tables: list[TournamentTable] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.format = Format(self.format)  # stored as its value: rules are looked up by the member
        self.status = TournamentStatus(self.status)
        self.bot_level = BotLevel(self.bot_level)
        self.first_round = FirstRound(self.first_round)
        self.deal = Deal(self.deal)

    @property
    def total_rounds(self) -> int:
        """Planned rounds, the final table included."""
        return self.rounds + (1 if self.final_table else 0)

    def active_entrants(self) -> list[Entrant]:
        """Entrants still in the tournament (away ones too: they may come back), in sign-up order."""
        return sorted((e for e in self.entrants.values() if e.status != EntrantStatus.DROPPED), key=lambda e: e.seq)

    def seatable_entrants(self) -> list[Entrant]:
        """Entrants the next seating takes (not dropped, not away), in sign-up order."""
        return [e for e in self.active_entrants() if e.seatable]

    def round_tables(self, number: int) -> list[TournamentTable]:
        return [t for t in self.tables if t.round == number]

    def table_of_game(self, game_id: int) -> TournamentTable | None:
        return next((t for t in self.tables if t.game_id == game_id), None)

    def live_table_of(self, user_id: int) -> TournamentTable | None:
        return next((t for t in self.tables if t.status in LIVE_TABLE_STATES and user_id in t.players), None)

    def is_final_round(self, number: int) -> bool:
        return self.final_table and number == self.rounds + 1

    @property
    def knockout_stage(self) -> bool:
        """A knockout's rounds are under way (always for a knockout; after its Swiss rounds for a Swiss feeding a
        knockout; never for the other formats, whose ``advance`` is 0)."""
        return self.advance > 0 and (self.current_round > self.swiss_rounds or not self.swiss_rounds)


class TournamentUpdateKind(StrEnum):
    """What changed in a tournament."""

    SIGNUP = "signup"  # its entrants changed (joined, left, checked in, dropped)
    CHECKIN = "checkin"  # check-in opened: the entrants not checked in are called once
    CHECKIN_CLOSED = "checkin_closed"  # the deadline passed: ``people`` were dropped for not checking in
    CHECKIN_REMINDER = "checkin_reminder"  # the deadline is near: ``people`` (not checked in) are reminded once
    NOT_STARTED = "not_started"  # the deadline was to start it, and the start was refused (``error``)
    STARTED = "started"
    ROUND = "round"  # a round was seated
    BREAK = "break"  # every table of a round is done: the pause before the next one began
    RESULT = "result"  # a table's result counted (or was set, voided)
    NO_SHOWS = "no_shows"  # a round ended with ``people`` who never showed up at their table: told once, left out
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass
class TournamentUpdate:
    """What tournament listeners (the Discord cog) hear."""

    tournament: Tournament
    kind: TournamentUpdateKind
    round: int | None = None
    people: list[int] = field(default_factory=list)  # who the update is about (dropped at check-in's end)
    error: Exception | None = None
