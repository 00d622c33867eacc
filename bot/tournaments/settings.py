"""A tournament's settings at creation: the server-independent caps, the game's default table sizes, and the
checks ``/tournament create`` runs before anything is written (refused input changes nothing)."""
from __future__ import annotations

from typing import Any

from bot.errors import HostError
from bot.games import engine_hooks
from bot.policies import check_level
from engines import get_engine

from .formats import FORMATS
from .models import FIRST_ROUND, Format

MAX_ROUNDS = 20
MAX_BOTS = 64
MAX_BREAK = 30 * 60  # seconds: the longest pause between rounds
MAX_TURN_SECONDS = 600
MAX_CHECKIN_MINUTES = 120


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
                 seats_max: int | None = None, first_round: str = "random",
                 options: dict[str, Any] | None = None, bot_level: str = "normal", break_seconds: int = 0,
                 turn_seconds: int = 120, *, final_table: bool = False,
                 advance: int | None = None) -> tuple[dict[str, Any], int, int]:
    """Refuse bad settings without touching the database (the cog checks before it defers); returns the
    parsed options and the table sizes."""
    engine = get_engine(game)  # an unknown game is refused here (BadOptions)
    check_level(bot_level)
    parsed = engine.parse_options(options).model_dump(mode="json", exclude_defaults=True)
    low, high = default_seats(game)
    seats_min, seats_max = seats_min or low, seats_max or max(high, seats_min or low)
    if not engine.min_players <= seats_min <= seats_max <= engine.max_players:
        raise HostError("tournament.bad_seats", min=engine.min_players, max=engine.max_players)
    if format not in set(Format) or first_round not in FIRST_ROUND:
        raise HostError("tournament.bad_format")
    rules = FORMATS[Format(format)]
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        raise HostError("tournament.bad_rounds", max=MAX_ROUNDS)
    if rounds is not None and rules.rounds_refused:
        raise HostError(rules.rounds_refused)
    if final_table and not rules.final_table:
        raise HostError("tournament.no_final_table")
    if rules.advance and not (advance is not None and 1 <= advance < seats_min):
        raise HostError("tournament.bad_advance", max=seats_min - 1)
    if advance is not None and not rules.advance:
        raise HostError("tournament.advance_knockout_only")
    if not 0 <= break_seconds <= MAX_BREAK:
        raise HostError("tournament.bad_break", max=MAX_BREAK // 60)
    if not 0 <= turn_seconds <= MAX_TURN_SECONDS:
        raise HostError("tournament.bad_timer", max=MAX_TURN_SECONDS)
    return parsed, seats_min, seats_max
