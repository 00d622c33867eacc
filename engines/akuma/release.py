"""Akuma release (アクマカイホウ): the release number and which discards pay it.

A discard pays release number R when its rank sum is at least R and it has no surplus
(removing any one card — enough to check the lowest — drops the sum below R). Rank-0 cards
can never be discarded. When all the hand's non-zero cards sum to less than R, the only
discard allowed is all of them.
"""
from __future__ import annotations

from engines.errors import IllegalAction

from .cards import rank, sort_cards, sort_key

HEAVY_RANK = 8
HEAVY_WEIGHT = 4
MULTIPLIER_RANK = 4


def release_number(row_cards: list[str]) -> int:
    """R = (row cards, each 8 counting 4 and every other card 1) × (number of 4s in the row + 1)."""
    weight = sum(HEAVY_WEIGHT if rank(c) == HEAVY_RANK else 1 for c in row_cards)
    fours = sum(1 for c in row_cards if rank(c) == MULTIPLIER_RANK)
    return weight * (fours + 1)


def discardable(hand: list[str]) -> list[str]:
    return sort_cards(c for c in hand if rank(c) != 0)


def forced_discard(hand: list[str], number: int) -> list[str] | None:
    """All non-zero cards when together they fall short of ``number`` (then nothing else is allowed), else None."""
    cards = discardable(hand)
    if sum(rank(c) for c in cards) < number:
        return cards
    return None


def check_discard(hand: list[str], cards: list[str], number: int) -> list[str]:
    """The discard sorted low to high, or IllegalAction naming what is wrong with it.

    The caller has already checked that the cards are distinct and in the hand.
    """
    for c in sort_cards(cards):
        if rank(c) == 0:
            raise IllegalAction("akuma.release_zero", card=c)
    chosen = sort_cards(cards)
    total = sum(rank(c) for c in chosen)
    forced = forced_discard(hand, number)
    if forced is not None:
        if chosen != forced:
            missing = [c for c in forced if c not in chosen]
            raise IllegalAction(
                "akuma.release_must_discard_all", sum=sum(rank(c) for c in forced),
                release_number=number, missing=missing,
            )
        return chosen
    if total < number:
        raise IllegalAction("akuma.release_too_low", sum=total, release_number=number)
    lowest = chosen[0]
    if total - rank(lowest) >= number:
        raise IllegalAction(
            "akuma.release_surplus", card=lowest, sum=total, release_number=number,
            sum_without=total - rank(lowest),
        )
    return chosen


def all_discards(hand: list[str], number: int) -> list[list[str]]:
    """Every discard that pays ``number``, each sorted low to high.

    Depth-first over the non-zero cards in descending rank: a branch stops as soon as its
    sum reaches ``number``. The card that got it there is the lowest of the discard and the
    sum before it was short, so each such leaf has no surplus — and every surplus-free
    discard, taken in descending order, is found exactly this way.
    """
    forced = forced_discard(hand, number)
    if forced is not None:
        return [forced]
    cards = sorted(discardable(hand), key=sort_key, reverse=True)
    ranks = [rank(c) for c in cards]
    # suffix[i]: the most the cards from i on can still add; prunes branches that cannot reach it.
    suffix = [0] * (len(cards) + 1)
    for i in range(len(cards) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + ranks[i]
    found: list[list[str]] = []
    chosen: list[str] = []

    def extend(start: int, total: int) -> None:
        for i in range(start, len(cards)):
            if total + suffix[i] < number:
                return
            chosen.append(cards[i])
            if total + ranks[i] >= number:
                found.append(sort_cards(chosen))
            else:
                extend(i + 1, total + ranks[i])
            chosen.pop()

    extend(0, 0)
    found.sort(key=lambda cs: (len(cs), [sort_key(c) for c in cs]))
    return found
