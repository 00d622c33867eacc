"""Rocca cards: four suits × ``0 A 2 … 10 J Q K`` plus four jokers (ids ``0S``, ``AH``, ``10D``, ``QC``, ``X1``)."""
from __future__ import annotations

from typing import Iterable

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
RANKS: tuple[str, ...] = ("0", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
LETTERS: frozenset[str] = frozenset({"A", "J", "Q", "K"})
"""Ranks shown as a letter on the face; the others are numbers shown as pips on the profile."""
JOKERS: tuple[str, ...] = ("X1", "X2", "X3", "X4")
CARDS_PER_PLAYER = 5
NOT_A_START_CARD: frozenset[str] = frozenset({"A", "J", "Q", "K", "0"})
ONE_PENALTY = 3
"""Cards drawn by a player who goes out without having declared "One"."""


def full_deck() -> list[str]:
    return [f"{r}{s}" for s in SUITS for r in RANKS] + list(JOKERS)


def is_joker(card: str) -> bool:
    return card.startswith("X")


def rank(card: str) -> str | None:
    """``"10"`` for ``10D``, ``"Q"`` for ``QC``; None for a joker."""
    return None if is_joker(card) else card[:-1]


def suit(card: str) -> str | None:
    return None if is_joker(card) else card[-1]


def is_letter(card: str) -> bool:
    return rank(card) in LETTERS


def is_number(card: str) -> bool:
    r = rank(card)
    return r is not None and r not in LETTERS


def can_start(card: str) -> bool:
    """The start card must be a plain number 2–10 (not A, J, Q, K, a joker or 0)."""
    return not is_joker(card) and rank(card) not in NOT_A_START_CARD


def sort_key(card: str) -> tuple[int, int]:
    if is_joker(card):
        return len(RANKS), JOKERS.index(card)
    return RANKS.index(rank(card) or ""), SUITS.index(suit(card) or "")


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=sort_key)
