"""The Diamond Box card table and card geometry (docs/rules/diamondbox.md, "Cards").

The printed card faces of the original are unknown, so the table is data: ``cards.json``
next to this module holds the frame colours and the patterns. It is read and validated once, on
first use (``table()``, cached; a game's setup uses it), so a bad table fails at the first game, never
mid-game, and importing this module reads no file.

A card is 2 squares wide and 3 high. A *cell* is one square of a card placed at a turn:
``(dx, dy, diamond)`` relative to the top-left corner of the turned card, with ``x`` to the
right and ``y`` downwards; ``diamond`` is ``"w"``, ``"b"`` or ``"."`` (nothing).
"""
from __future__ import annotations

import json
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, field_validator

COLOURS: tuple[str, ...] = ("R", "Y", "G", "B", "P")  # the rules' colour letters, in display order
DIAMONDS = frozenset("wb.")
CARD_WIDTH, CARD_HEIGHT = 2, 3
TURNS_HALF: tuple[int, ...] = (0, 180)
TURNS_ALL: tuple[int, ...] = (0, 90, 180, 270)

Cell = tuple[int, int, str]


class CardTable(BaseModel):
    """The validated contents of ``cards.json``: colours × patterns."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    colours: tuple[str, ...]
    patterns: dict[str, str]  # pattern number ("01") -> "w./.w/w." (rows top to bottom)

    @field_validator("colours")
    @classmethod
    def _colours(cls, colours: tuple[str, ...]) -> tuple[str, ...]:
        if sorted(colours) != sorted(COLOURS):
            raise ValueError(f"the colours must be exactly {COLOURS}")
        return colours

    @field_validator("patterns")
    @classmethod
    def _patterns(cls, patterns: dict[str, str]) -> dict[str, str]:
        if sorted(patterns) != [f"{i:02d}" for i in range(1, 11)]:
            raise ValueError("there must be exactly 10 patterns numbered 01 to 10")
        for number, pattern in patterns.items():
            rows = pattern.split("/")
            if len(rows) != CARD_HEIGHT or any(len(r) != CARD_WIDTH for r in rows):
                raise ValueError(f"pattern {number} must be 3 rows of 2 squares")
            if not set("".join(rows)) <= DIAMONDS:
                raise ValueError(f"pattern {number} may only use w, b and .")
        if len(set(patterns.values())) != len(patterns):
            raise ValueError("two patterns are identical")
        return patterns


def load_card_table(text: str) -> CardTable:
    """Parses and validates a card table (raises pydantic's ValidationError when bad)."""
    return CardTable.model_validate(json.loads(text))


@cache
def _raw() -> dict[str, object]:
    return json.loads(resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8"))


@cache
def table() -> CardTable:
    """The card table of ``cards.json``, validated (read on the first call)."""
    return CardTable.model_validate(_raw())


def first_guess_patterns() -> dict[str, str]:
    """The rules file's first guess at the patterns, kept beside the tuned ones for the record."""
    return dict(_raw().get("first_guess_patterns", {}))  # type: ignore[call-overload]  # the JSON file's shape is checked by its tests


@cache
def card_ids() -> tuple[str, ...]:
    """Every card id: colour letter + pattern number, in table order."""
    return tuple(c + n for c in table().colours for n in sorted(table().patterns))


_generation = 0  # bumped whenever the patterns are replaced, so that caches keyed on card ids expire


def install_patterns(patterns: dict[str, str]) -> None:
    """Replaces the patterns in this process (for playability experiments and tests; games
    in progress would change meaning, so never call it in a running host)."""
    global _generation
    current = table()
    validated = CardTable(colours=current.colours, patterns=patterns)
    current.patterns.clear()
    current.patterns.update(validated.patterns)
    cells_of.cache_clear()
    distinct_turns.cache_clear()
    _generation += 1


def generation() -> int:
    return _generation


def colour_of(card: str) -> str:
    return card[0]


def pattern_of(card: str) -> str:
    """The card's rows as written in the table, e.g. ``"w./.w/w."``."""
    return table().patterns[card[1:]]


def is_card(card: str) -> bool:
    return len(card) == 3 and card[0] in table().colours and card[1:] in table().patterns


def turn_cells(rows: str, turn: int) -> tuple[Cell, ...]:
    """The cells of a pattern turned clockwise by ``turn`` degrees, sorted by (dy, dx)."""
    grid = rows.split("/")
    cells = []
    for r, row in enumerate(grid):
        for c, diamond in enumerate(row):
            if turn == 0:
                x, y = c, r
            elif turn == 90:
                x, y = CARD_HEIGHT - 1 - r, c
            elif turn == 180:
                x, y = CARD_WIDTH - 1 - c, CARD_HEIGHT - 1 - r
            elif turn == 270:
                x, y = r, CARD_WIDTH - 1 - c
            else:
                raise ValueError(f"bad turn {turn}")
            cells.append((x, y, diamond))
    return tuple(sorted(cells, key=lambda cell: (cell[1], cell[0])))


@cache
def cells_of(card: str, turn: int) -> tuple[Cell, ...]:
    return turn_cells(pattern_of(card), turn)


def size_at(turn: int) -> tuple[int, int]:
    """(width, height) of a card at this turn."""
    return (CARD_WIDTH, CARD_HEIGHT) if turn in (0, 180) else (CARD_HEIGHT, CARD_WIDTH)


@cache
def distinct_turns(card: str, allowed: tuple[int, ...]) -> tuple[int, ...]:
    """The allowed turns that give different placements: a turn whose cells equal an
    earlier turn's (``05`` turned 180° is ``05`` again) adds nothing and is left out."""
    seen: set[tuple[Cell, ...]] = set()
    kept = []
    for turn in allowed:
        cells = cells_of(card, turn)
        if cells not in seen:
            seen.add(cells)
            kept.append(turn)
    return tuple(kept)
