"""Twin Pyramid cards and steps as text: ``7S`` → ``7♠``, suits, the sort order, rearrangement steps."""
from __future__ import annotations

from engines import Action
from engines.twinpyramid.actions import SwapShown, SwapStone, ToHeld, ToShown

from ..i18n import t

SUIT_MARKS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUITS = tuple(SUIT_MARKS)
JOKER = "🃏"
ROWS = (("7", "8", "9", "10"), ("4", "5", "6"), ("2", "3"), ("A",))  # bottom row first (the view's geometry)
RANK_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
BUILD_LIMIT = {"J": 1, "Q": 2, "K": 3}
ACTIONS = ("rearrange", "rearrange_step", "swap_shown", "to_shown", "to_held", "swap_stone", "play", "draw", "change",
           "pass", "place", "end_build", "name_suit", "take_two", "pass_two", "order_three", "forced_draw", "next_deal")
CELL = 3  # characters per pyramid slot


# ---- cards ------------------------------------------------------------------------------------------------------
def rank_of(card_id: str) -> str | None:
    return None if card_id.startswith("X") else card_id[:-1]


def suit_of(card_id: str) -> str | None:
    return None if card_id.startswith("X") else card_id[-1]


def card(card_id: str) -> str:
    """``7S`` → ``7♠``, ``10H`` → ``10♥``, ``X1`` → ``🃏1`` (the two jokers told apart, so a public joker never
    looks like the one a player holds)."""
    if not card_id:
        return "?"
    if card_id.startswith("X"):
        return JOKER + card_id[1:]
    return card_id[:-1] + SUIT_MARKS.get(card_id[-1], card_id[-1])


def cards(ids: list[str]) -> str:
    return " ".join(card(c) for c in ids) or "—"


def sort_key(card_id: str) -> tuple[int, int]:
    r = rank_of(card_id)
    if r is None:
        return (99, 0)
    return (RANK_ORDER.index(r) if r in RANK_ORDER else 50, SUITS.index(card_id[-1]) if card_id[-1] in SUITS else 9)


def sorted_cards(ids: list[str]) -> str:
    return cards(sorted(ids, key=sort_key))


def suit_mark(suit: str | None) -> str:
    return SUIT_MARKS.get(suit or "", "?")


def suit_name(suit: str, locale: object | None) -> str:
    return t(f"twinpyramid.suit.{suit}", locale) if suit in SUITS else "?"


def step_label(step: Action, locale: object | None) -> str:
    """A rearrangement step as a choice's text; ``?`` for any other action."""
    if isinstance(step, SwapShown):
        return t("twinpyramid.step.swap_shown", locale, held=card(step.held), shown=card(step.shown))
    if isinstance(step, ToShown):
        return t("twinpyramid.step.to_shown", locale, card=card(step.card))
    if isinstance(step, ToHeld):
        return t("twinpyramid.step.to_held", locale, card=card(step.card))
    if isinstance(step, SwapStone):
        return t("twinpyramid.step.swap_stone", locale, card=card(step.card), stone=card(step.stone))
    return "?"
