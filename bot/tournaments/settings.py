"""A tournament's settings at creation: the server-independent caps, the game's default table sizes, the settings
model ``/tournament create`` is generated from (one option per field), and the checks it runs before anything is
written (refused input changes nothing)."""
from __future__ import annotations

import unicodedata
from typing import TypedDict

from pydantic import BaseModel, ConfigDict, Field

from bot.errors import HostError
from bot.games import engine_hooks
from bot.levels import BotLevel
from bot.limits import BOUNDS, Cap
from bot.policies import check_level
from engines import Json, get_engine
from engines.streams import STREAMS_FIELD

from . import knockout
from .formats import rules_for
from .models import Deal, FirstRound, Format

MAX_ROUNDS = BOUNDS[Cap.TOURNAMENT_ROUNDS][1]  # what a server's admins may allow at most (bot.limits)
MAX_BOTS = BOUNDS[Cap.TOURNAMENT_BOTS][1]
MAX_SEATS = 8  # the most seats any game's table has
MAX_BREAK = 30 * 60  # seconds: the longest pause between rounds
MAX_TURN_SECONDS = 600
MAX_CHECKIN_MINUTES = 120
MAX_NAME = 80  # characters of a tournament's name kept (its threads' names add the round and the table)
REMIND_BEFORE = 300  # seconds before the check-in deadline its one reminder goes out (a third of a shorter window)


def default_seats(game: str) -> tuple[int, int]:
    """Table size range a tournament of ``game`` uses unless the organiser says otherwise: the game's own
    ``tournament_seats`` when it declares one, else from its minimum up to four seats (3–4 for Akuma Trick, 2 for a
    two-player game)."""
    engine = get_engine(game)
    declared = engine_hooks(game).tournament_seats
    if declared:
        return declared
    return engine.min_players, min(engine.max_players, max(engine.min_players, 4))


def check_settings(game: str, format: str = "swiss", rounds: int | None = None, seats_min: int | None = None,
                 seats_max: int | None = None, first_round: str = FirstRound.RANDOM,
                 options: Json | None = None, bot_level: str = BotLevel.NORMAL, break_seconds: int = 0,
                 turn_seconds: int = 120, *, final_table: bool = False, advance: int | None = None,
                 cut: int | None = None, deal: str = Deal.OWN) -> tuple[Json, int, int]:
    """Refuse bad settings without touching the database (the cog checks before it defers); returns the
    parsed options and the table sizes."""
    engine = get_engine(game)  # an unknown game is refused here (BadOptions)
    check_level(bot_level)
    parsed = engine.parse_options(options).model_dump(mode="json", exclude_defaults=True)
    low, high = default_seats(game)
    seats_min, seats_max = seats_min or low, seats_max or max(high, seats_min or low)
    if not engine.min_players <= seats_min <= seats_max <= engine.max_players:
        raise HostError("tournament.bad_seats", min=engine.min_players, max=engine.max_players)
    if format not in set(Format) or first_round not in set(FirstRound) or deal not in set(Deal):  # the text given
        raise HostError("tournament.bad_format")
    rules = rules_for(Format(format), Deal(deal))
    if rules.same_deal and STREAMS_FIELD not in engine.options_model.model_fields:
        raise HostError("tournament.same_deal_game")  # one shared pile: a seat's play would shift the others' draws
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        raise HostError("tournament.bad_rounds", max=MAX_ROUNDS)
    if rounds is not None and rules.rounds_refused:
        raise HostError(rules.rounds_refused)
    if final_table and not rules.final_table:
        raise HostError(rules.final_table_refused)
    if rules.advance and not (advance is not None and 1 <= advance < seats_min):
        raise HostError("tournament.bad_advance", max=seats_min - 1)
    if advance is not None and not rules.advance:
        raise HostError("tournament.advance_knockout_only")
    if cut is not None and not rules.cut:
        raise HostError("tournament.cut_two_stage_only")
    if rules.cut and (cut is None or knockout.plan(cut, seats_min, seats_max, advance or 0) is None):
        raise HostError("tournament.bad_cut", min=seats_min, max=seats_max, advance=advance or 0)
    if not 0 <= break_seconds <= MAX_BREAK:
        raise HostError("tournament.bad_break", max=MAX_BREAK // 60)
    if not 0 <= turn_seconds <= MAX_TURN_SECONDS:
        raise HostError("tournament.bad_timer", max=MAX_TURN_SECONDS)
    return parsed, seats_min, seats_max


class CreateArguments(TypedDict):
    """``TournamentService.create``'s keyword arguments from the settings of ``/tournament create``."""

    game: str
    name: str
    format: str
    deal: str
    rounds: int | None
    seats_min: int | None
    seats_max: int | None
    final_table: bool
    first_round: str
    bot_level: str
    break_seconds: int
    turn_seconds: int
    start_at_deadline: bool
    advance: int | None
    cut: int | None


class TournamentSettings(BaseModel):
    """What ``/tournament create`` takes: one option per field, in this order (``cogs.model_options`` generates the
    command from it; ``game`` and ``bot_level`` get their choices there: the registered games, the bot levels)."""
    model_config = ConfigDict(frozen=True)

    game: str
    format: Format = Format.SWISS
    deal: Deal = Deal.OWN
    rounds: int | None = Field(None, ge=1, le=MAX_ROUNDS)
    min_seats: int | None = Field(None, ge=2, le=MAX_SEATS)
    max_seats: int | None = Field(None, ge=2, le=MAX_SEATS)
    final_table: bool = False
    first_round: FirstRound = FirstRound.RANDOM
    bots: int = Field(0, ge=0, le=MAX_BOTS)
    name: str | None = None
    bot_level: str = BotLevel.NORMAL
    timer: int = Field(120, ge=0, le=MAX_TURN_SECONDS)
    break_minutes: int = Field(2, ge=0, le=MAX_BREAK // 60)
    start_at_deadline: bool = False
    advance: int | None = Field(None, ge=1, le=MAX_SEATS - 1)
    cut: int | None = Field(None, ge=2, le=MAX_BOTS)

    def check(self) -> None:
        """Refuse bad settings (``check_settings``, a blank name) without touching the database: before the reply is
        deferred in public and before a creation is counted, so a refusal is private and uses no slot."""
        checked_name(self.name or "")
        check_settings(self.game, self.format, self.rounds, self.min_seats, self.max_seats, self.first_round,
                       bot_level=self.bot_level, break_seconds=self.break_minutes * 60, turn_seconds=self.timer,
                       final_table=self.final_table, advance=self.advance, cut=self.cut, deal=self.deal)

    def create_arguments(self) -> CreateArguments:
        """``TournamentService.create``'s keyword arguments for these settings (all but where and by whom)."""
        return CreateArguments(
            game=self.game, name=self.name or "", format=self.format, deal=self.deal, rounds=self.rounds,
            seats_min=self.min_seats, seats_max=self.max_seats, final_table=self.final_table,
            first_round=self.first_round, bot_level=self.bot_level, break_seconds=self.break_minutes * 60,
            turn_seconds=self.timer, start_at_deadline=self.start_at_deadline, advance=self.advance, cut=self.cut)


def checked_name(name: str) -> str:
    """The tournament's name as typed, less surrounding spaces; refused when it shows nothing (only spaces or
    invisible characters: a header of "🏆" and blanks); empty when none was given (the game's default name)."""
    shown = name.strip()
    if name and not any(not (c.isspace() or unicodedata.category(c) in ("Cf", "Cc")) for c in shown):
        raise HostError("tournament.blank_name")
    return shown
