"""Pile up cards and the ``deck`` table option.

A card id is colour + number + copy letter (``R3a``, ``W5a``), as in docs/rules/pileup.md.
Colours: red ``R``, blue ``B``, green ``G``, yellow ``Y``, white ``W``, black ``K``.
The deck is described by how many copies of each number 1–6 every colour has, written
``R3B3G3Y3W1K1`` (the default, 84 cards: three of each number in red, blue, green and
yellow, so the original's example with three red 3s can happen; one white and one black).
"""
from __future__ import annotations

import re
from typing import Any

COLOURS: tuple[str, ...] = ("R", "B", "G", "Y", "W", "K")
WHITE = "W"
BLACK = "K"
SPECIAL = frozenset({WHITE, BLACK})
NUMBERS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
COPY_LETTERS = "abcdefghi"
MAX_COPIES = len(COPY_LETTERS)
DEFAULT_DECK = "R3B3G3Y3W1K1"
HAND_SIZE = 6

_SPEC_PART = re.compile(r"([A-Za-z])([0-9]+)")  # ASCII digits: \d would read other scripts' digits too


def colour_of(card: str) -> str:
    return card[0]


def number_of(card: str) -> int:
    return int(card[1])


def kind_of(card: str) -> str:
    """Colour + number: cards of one kind are interchangeable (only the copy letter differs)."""
    return card[:2]


def is_special(card: str) -> bool:
    return card[0] in SPECIAL


def parse_deck(spec: Any) -> dict[str, int]:
    """Copies per colour from ``"R2B2G2Y2W1K1"`` (spaces/commas allowed) or ``{"R": 2, ...}``.

    Raises ValueError with a message that says what is wrong (shown to the table host).
    """
    if isinstance(spec, dict):
        items = [(str(k), v) for k, v in spec.items()]
    elif isinstance(spec, str):
        text = re.sub(r"[\s,;]+", "", spec)
        if not text or _SPEC_PART.sub("", text):
            raise ValueError(
                f"deck {spec!r} must look like {DEFAULT_DECK}: a colour letter (R B G Y W K) "
                "followed by the copies of each number 1-6"
            )
        items = [(m.group(1), int(m.group(2))) for m in _SPEC_PART.finditer(text)]
    else:
        raise ValueError(f"deck must be a text like {DEFAULT_DECK}")
    counts: dict[str, int] = {}
    for colour, copies in items:
        colour = colour.upper()
        if colour not in COLOURS:
            raise ValueError(f"deck: unknown colour {colour!r} (use R B G Y W K)")
        if colour in counts:
            raise ValueError(f"deck: colour {colour} is given twice")
        if not isinstance(copies, int) or isinstance(copies, bool) or not 0 <= copies <= MAX_COPIES:
            raise ValueError(f"deck: copies of {colour} must be a whole number from 0 to {MAX_COPIES}")
        counts[colour] = copies
    if not any(counts.values()):
        raise ValueError("deck: the deck has no cards")
    return {c: counts[c] for c in COLOURS if counts.get(c)}


def deck_spec(counts: dict[str, int]) -> str:
    """The canonical text of a deck (colours in R B G Y W K order)."""
    return "".join(f"{c}{counts[c]}" for c in COLOURS if counts.get(c))


def build_deck(counts: dict[str, int]) -> list[str]:
    """Every card of the deck, in a fixed order (shuffled by the engine)."""
    return [
        f"{colour}{number}{COPY_LETTERS[i]}"
        for colour in COLOURS
        for number in NUMBERS
        for i in range(counts.get(colour, 0))
    ]


def canonical_of_kind(cards: list[str], card: str) -> bool:
    """True when ``card`` is the lowest id of its kind among ``cards`` (identical copies are
    interchangeable, so each choice is offered once, with that copy)."""
    kind = kind_of(card)
    return card in cards and min(c for c in cards if kind_of(c) == kind) == card


def one_per_kind(cards: list[str]) -> list[str]:
    """The lowest id of every kind in ``cards``, sorted."""
    best: dict[str, str] = {}
    for c in cards:
        k = kind_of(c)
        if k not in best or c < best[k]:
            best[k] = c
    return sorted(best.values())
