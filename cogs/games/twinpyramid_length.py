"""Twin Pyramid's length, chosen knowingly: ``/play twinpyramid`` opens a table of one round unless it names another
length, and the lobby lists the lengths it offers with each one's expected minutes for the seats taken, saying so
when the table's length is over half an hour (docs/rules/twinpyramid.md, Decision D16)."""
from __future__ import annotations

from enum import Enum
from typing import Any, Sequence

from bot.i18n import t
from bot.lengths import expected_minutes
from engines import BadOptions


class Length(Enum):
    """The lengths the lobby offers, by catalog key (``twinpyramid.lobby.length.<value>``)."""

    DEAL = "deal"
    ROUND = "round"
    TWO_ROUNDS = "two_rounds"


LENGTH_OPTIONS: dict[Length, dict[str, int]] = {
    Length.DEAL: {"deals": 1}, Length.ROUND: {"rounds": 1}, Length.TWO_ROUNDS: {"rounds": 2}}
# The shortest length with a single first place in at least 75% of bot games at three and four seats (D16).
DEFAULT_LENGTH = Length.ROUND
QUICK_LENGTH = Length.DEAL
QUICK_ABOVE_MINUTES = 30  # a table longer than this is told of the quick length


def lobby_options(options: dict[str, Any]) -> dict[str, Any]:
    """The plug-in's hook: ``/play twinpyramid`` counts the match's length in deals or in rounds, not both (the
    engine would play the rounds and ignore the deals); naming neither gives the default length."""
    if options.get("deals") is not None and options.get("rounds") is not None:
        raise BadOptions("twinpyramid.deals_or_rounds", deals=options["deals"], rounds=options["rounds"])
    if options.get("deals") is None and options.get("rounds") is None:
        return {**options, **LENGTH_OPTIONS[DEFAULT_LENGTH]}
    return options


def chosen_length(options: dict[str, Any]) -> Length | None:
    """Which offered length the options are, None for another (say, 3 deals). Naming none is one deal: a table
    stored before D16 (its rematch too) plays the engine's default."""
    length = {key: options[key] for key in ("deals", "rounds") if options.get(key) is not None} or {"deals": 1}
    return next((choice for choice, chosen in LENGTH_OPTIONS.items() if chosen == length), None)


def length_lines(options: dict[str, Any], people: int, bots: Sequence[str], locale: object | None) -> list[str]:
    """The lobby's lines on length: each offered length with its expected minutes (the table's own marked) and,
    when the table's length is expected to pass ``QUICK_ABOVE_MINUTES``, the quick length to open instead."""
    minutes = {choice: expected_minutes("twinpyramid", chosen, people, bots)
               for choice, chosen in LENGTH_OPTIONS.items()}
    current = expected_minutes("twinpyramid", options, people, bots)
    if current is None:
        return []
    chosen = chosen_length(options)
    lines = [t("twinpyramid.lobby.lengths", locale)]
    lines += [t("twinpyramid.lobby.length_choice", locale, mark="✅" if choice is chosen else "▫️",
                length=t(f"twinpyramid.lobby.length.{choice.value}", locale), minutes=minutes[choice] or 0)
              for choice in Length]
    if chosen is not QUICK_LENGTH and current > QUICK_ABOVE_MINUTES:
        lines.append(t("twinpyramid.lobby.long", locale, limit=QUICK_ABOVE_MINUTES,
                       quick=minutes[QUICK_LENGTH] or 0))
    return lines
