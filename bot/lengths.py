"""A table's expected length, from the measured bot games in ``bot/data/lengths.json`` (``python -m bench.lengths``
writes it; its docstring states the model): people take ``PERSON_SECONDS`` a decision, bots the scheduler's pacing
delay plus their measured thinking (a strong bot its search budget instead)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Sequence

from pydantic import BaseModel

from engines import Json, get_engine

from .levels import BotLevel

DATA_FILE = Path(__file__).with_name("data") / "lengths.json"
PERSON_SECONDS = 8.0  # a person's time per decision, the figure for a newcomer on a phone


@dataclass(frozen=True)
class Measured:
    """One game at one seat count: mean decisions per seat and a normal bot's thinking per decision."""

    decisions_per_seat: float
    bot_think_s: float


class _SeatFigures(BaseModel):
    decisions_per_seat: float
    bot_think_s_per_decision: float


class _GameFigures(BaseModel):
    seats: dict[str, _SeatFigures]  # by seat count


class _LengthsFile(BaseModel):
    """What the lobby reads of ``bot/data/lengths.json`` (the rest says how it was measured)."""

    bot_delay_s: float
    games: dict[str, _GameFigures]


@cache
def _data() -> _LengthsFile:
    return _LengthsFile.model_validate_json(DATA_FILE.read_bytes())


def bot_delay_s() -> float:
    return _data().bot_delay_s


def measured(game: str, seats: int) -> Measured | None:
    figures = _data().games.get(game)
    entry = None if figures is None else figures.seats.get(str(seats))
    if entry is None:
        return None
    return Measured(entry.decisions_per_seat, entry.bot_think_s_per_decision)


def expected_seconds(game: str, options: Json, people: int, bot_levels: Sequence[BotLevel] = (),
                     delay_s: float | None = None) -> float | None:
    """Seconds a table of ``people`` and bots of ``bot_levels`` is expected to play with these options; None for a
    seat count nobody measured (outside the game's range)."""
    from .policies import STRONG_BUDGET_S

    seats = people + len(bot_levels)
    figures = measured(game, seats)
    if figures is None:
        return None
    delay = bot_delay_s() if delay_s is None else delay_s
    bot_seconds = sum(delay + (STRONG_BUDGET_S if level is BotLevel.STRONG else figures.bot_think_s)
                      for level in bot_levels)
    per_seat = figures.decisions_per_seat * get_engine(game).length_units(options, seats)
    return per_seat * (people * PERSON_SECONDS + bot_seconds)


def expected_minutes(game: str, options: Json, people: int,
                     bot_levels: Sequence[BotLevel] = ()) -> int | None:
    """``expected_seconds`` rounded to whole minutes (at least 1)."""
    seconds = expected_seconds(game, options, people, bot_levels)
    return None if seconds is None else max(1, round(seconds / 60))
