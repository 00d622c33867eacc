"""Cards and the field-pyramid geometry of Twin Pyramid.

Card ids follow the rules file: rank ``A 2..10 J Q K`` + suit ``S H D C`` (``AS``, ``10H``,
``QC``); jokers are ``X1`` and ``X2``.
"""
from __future__ import annotations

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKERS: tuple[str, ...] = ("X1", "X2")

STONE_RANKS: frozenset[str] = frozenset(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10"))
BUILD_LIMIT: dict[str, int] = {"J": 1, "Q": 2, "K": 3}
START_RANKS: frozenset[str] = frozenset(("4", "5", "6", "J", "Q", "K"))

# The field pyramid, bottom row first, each row left to right (rules: "Zones per player").
PYRAMID_ROWS: tuple[tuple[str, ...], ...] = (("7", "8", "9", "10"), ("4", "5", "6"), ("2", "3"), ("A",))
SLOTS: tuple[str, ...] = tuple(rank for row in PYRAMID_ROWS for rank in row)
SUPPORTS: dict[str, tuple[str, str]] = {
    "4": ("7", "8"), "5": ("8", "9"), "6": ("9", "10"),
    "2": ("4", "5"), "3": ("5", "6"),
    "A": ("2", "3"),
}

BURST_SIZE = 10  # a hand of this many cards completes the hand pyramid
HELD_LIMIT = 4


def is_joker(card: str) -> bool:
    return card in JOKERS


def rank_of(card: str) -> str | None:
    """The rank part of a card id; ``None`` for a joker."""
    return None if is_joker(card) else card[:-1]


def suit_of(card: str) -> str | None:
    """The suit letter of a card id; ``None`` for a joker."""
    return None if is_joker(card) else card[-1]


def is_stone(card: str) -> bool:
    return rank_of(card) in STONE_RANKS


def stone_value(card: str) -> int:
    """Numeric rank of a stone, A counting 1 (used by the 10's break)."""
    rank = rank_of(card)
    return 1 if rank == "A" else int(rank)  # type: ignore[arg-type]  # a stone is never a joker


def full_deck(jokers: int) -> list[str]:
    """All card ids of a table, in a fixed order (the rng shuffles it)."""
    return [rank + suit for suit in SUITS for rank in RANKS] + list(JOKERS[:jokers])


def slot_open(stones: dict[str, str], rank: str) -> bool:
    """True when the slot of ``rank`` is empty and both its supports (if any) are filled."""
    if rank not in STONE_RANKS or rank in stones:
        return False
    return all(support in stones for support in SUPPORTS.get(rank, ()))
