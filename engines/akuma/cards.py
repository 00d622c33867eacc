"""Akuma cards: six colours × ranks 0–9, ids like ``Y0``, ``P7``, ``W9``."""
from __future__ import annotations

from typing import Iterable

ALL_COLOURS: tuple[str, ...] = ("Y", "P", "G", "V", "B", "W")
"""yellow, pink, green, purple, blue, white — in the order they join as players are added."""

RANKS: tuple[int, ...] = tuple(range(10))
CARDS_PER_PLAYER = 10
ZERO_SCORE = 15
"""A rank-0 card left in hand scores 15."""


def colours_for(n_players: int) -> list[str]:
    """3 players use Y P G; each further player adds the next colour (rules: Cards and players)."""
    return list(ALL_COLOURS[:n_players])


def deck_for(colours: Iterable[str]) -> list[str]:
    return [f"{c}{r}" for c in colours for r in RANKS]


def rank(card: str) -> int:
    return int(card[1:])


def colour(card: str) -> str:
    return card[0]


def sort_key(card: str) -> tuple[int, int]:
    """Rank first, then colour: cards of one rank sit together, which makes sets easy to see."""
    return _SORT_KEYS.get(card) or (rank(card), ALL_COLOURS.index(colour(card)))


# sort_key of every card, looked up (sorting is most of what the strong bot's playouts do besides choosing)
_SORT_KEYS = {f"{c}{r}": (r, i) for i, c in enumerate(ALL_COLOURS) for r in RANKS}


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=sort_key)


def card_score(card: str) -> int:
    r = rank(card)
    return ZERO_SCORE if r == 0 else r


def hand_score(cards: Iterable[str]) -> int:
    return sum(card_score(c) for c in cards)
