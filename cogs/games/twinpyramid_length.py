"""Twin Pyramid's length, chosen knowingly: a table whose ``/play`` names no length plays the default for the seats
taken at Start (one round up to four seats, one deal at five and six: docs/rules/twinpyramid.md, D16 and D17), and
the lobby lists the lengths it offers with each one's expected minutes for the seats taken, saying so when the
table's length is over half an hour."""
from __future__ import annotations

from enum import Enum
from typing import Sequence

from bot.i18n import t
from bot.lengths import expected_minutes
from bot.levels import BotLevel
from engines import BadOptions, Json
from engines.twinpyramid.state import ROUND_BY_DEFAULT_UP_TO, default_length


class Length(Enum):
    """The lengths the lobby offers, by catalog key (``twinpyramid.lobby.length.<value>``)."""

    DEAL = "deal"
    ROUND = "round"
    TWO_ROUNDS = "two_rounds"


LENGTH_OPTIONS: dict[Length, Json] = {
    Length.DEAL: {"deals": 1}, Length.ROUND: {"rounds": 1}, Length.TWO_ROUNDS: {"rounds": 2}}
QUICK_LENGTH = Length.DEAL
QUICK_ABOVE_MINUTES = 30  # a table longer than this is told of the quick length


def lobby_options(options: Json) -> Json:
    """The plug-in's hook: ``/play twinpyramid`` counts the match's length in deals or in rounds, not both (the
    engine would play the rounds and ignore the deals); naming neither leaves the default for the seats taken to
    the engine (D17)."""
    if options.get("deals") is not None and options.get("rounds") is not None:
        raise BadOptions("twinpyramid.deals_or_rounds", deals=options["deals"], rounds=options["rounds"])
    return options


def names_length(options: Json) -> bool:
    return options.get("deals") is not None or options.get("rounds") is not None


def chosen_length(options: Json, seats: int) -> Length | None:
    """Which offered length the options play at ``seats``, None for another (say, 3 deals). Naming none is the
    default for the seats (D17)."""
    length = ({key: options[key] for key in ("deals", "rounds") if options.get(key) is not None}
              if names_length(options) else default_length(seats))
    return next((choice for choice, chosen in LENGTH_OPTIONS.items() if chosen == length), None)


def quick_options(options: Json) -> Json:
    """The quick-start button's game: the lobby's options with the quick length instead of any other."""
    return {**{key: value for key, value in options.items() if key not in ("deals", "rounds")},
            **LENGTH_OPTIONS[QUICK_LENGTH]}


def quick_offered(options: Json, people: int, bots: Sequence[BotLevel]) -> bool:
    """The lobby offers the quick length (a line and a button) when the table's own is expected to pass
    ``QUICK_ABOVE_MINUTES``."""
    current = expected_minutes("twinpyramid", options, people, bots)
    return (current is not None and current > QUICK_ABOVE_MINUTES
            and chosen_length(options, people + len(bots)) is not QUICK_LENGTH)


def length_label(options: Json, people: int, bots: Sequence[BotLevel], locale: object | None) -> str | None:
    """The plug-in's hook: the length these options deal at the seats so far, short, with its expected minutes
    ("one round, ~61 min"), for the lobby's Start and quick-start buttons."""
    minutes = expected_minutes("twinpyramid", options, people, bots)
    if minutes is None:
        return None
    chosen = chosen_length(options, people + len(bots))
    if chosen is not None:
        length = t(f"twinpyramid.lobby.short.{chosen.value}", locale)
    elif options.get("rounds") is not None:
        length = t("twinpyramid.lobby.short.rounds", locale, count=options["rounds"])
    else:
        length = t("twinpyramid.lobby.short.deals", locale, count=options.get("deals") or 1)
    return t("twinpyramid.lobby.short_minutes", locale, length=length, minutes=minutes)


def length_lines(options: Json, people: int, bots: Sequence[BotLevel], locale: object | None) -> list[str]:
    """The lobby's lines on length: each offered length with its expected minutes (the table's own marked), for a
    table that named none that its default follows the seats, and, when the table's length is expected to pass
    ``QUICK_ABOVE_MINUTES``, the quick length."""
    minutes = {choice: expected_minutes("twinpyramid", chosen, people, bots)
               for choice, chosen in LENGTH_OPTIONS.items()}
    current = expected_minutes("twinpyramid", options, people, bots)
    if current is None:
        return []
    seats = people + len(bots)
    chosen = chosen_length(options, seats)
    lines = [t("twinpyramid.lobby.lengths", locale)]
    lines += [t("twinpyramid.lobby.length_choice", locale, mark="✅" if choice is chosen else "▫️",
                length=t(f"twinpyramid.lobby.length.{choice.value}", locale), minutes=minutes[choice] or 0)
              for choice in Length]
    if not names_length(options) and chosen is not None:
        lines.append(t("twinpyramid.lobby.default", locale, count=seats, upto=ROUND_BY_DEFAULT_UP_TO,
                       length=t(f"twinpyramid.lobby.length.{chosen.value}", locale)))
    if quick_offered(options, people, bots):
        quick = length_label(quick_options(options), people, bots, locale)
        button = t("lobby.button.quick_as", locale, length=quick) if quick else t("lobby.button.quick", locale)
        lines.append(t("twinpyramid.lobby.long", locale, limit=QUICK_ABOVE_MINUTES, button=button))
    return lines
