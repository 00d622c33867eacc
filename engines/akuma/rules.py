"""Akuma Trick's rules as pure functions over card ids: plays and the Akuma release.

Plays: a play is a *single*, a *set* (2+ cards of one rank, any colours) or a *run* (2+ cards
of one colour with consecutive ranks; 0 never in a run); whether it may be laid on the row,
and every play a hand allows.

Akuma release (アクマカイホウ): the release number and which discards pay it.

A discard pays release number R when its rank sum is at least R and it has no surplus
(removing any one card — enough to check the lowest — drops the sum below R). Rank-0 cards
can never be discarded. When all the hand's non-zero cards sum to less than R, the only
discard allowed is all of them.
"""
from __future__ import annotations

from itertools import combinations, pairwise
from typing import Literal

from engines.errors import IllegalAction

from .cards import ALL_COLOURS, colour, rank, sort_cards, sort_key

PlayKind = Literal["single", "set", "run"]


def classify(cards: list[str]) -> PlayKind | None:
    """The kind of play these (distinct) cards form, or None when they form none."""
    if not cards:
        return None
    if len(cards) == 1:
        return "single"
    ranks = sorted(rank(c) for c in cards)
    if len(set(ranks)) == 1:
        return "set"
    if len({colour(c) for c in cards}) == 1 and ranks[0] >= 1:
        if all(b == a + 1 for a, b in pairwise(ranks)):
            return "run"
    return None


def play_rank(cards: list[str]) -> int:
    """The rank a play beats with: its lowest card."""
    return min(rank(c) for c in cards)


def top_rank(cards: list[str]) -> int:
    """The rank a play leaves as the row's last card: a set's rank, a run's highest card."""
    return max(rank(c) for c in cards)


def lock_of(cards: list[str]) -> list[str] | None:
    """The colours a play locks (those of its 6s, in colour order), or None when it has no 6."""
    sixes = {colour(c) for c in cards if rank(c) == 6}
    return [c for c in ALL_COLOURS if c in sixes] or None


def reverses(cards: list[str]) -> bool:
    """An odd number of 5s reverses the direction; an even number changes nothing."""
    return sum(1 for c in cards if rank(c) == 5) % 2 == 1


def steal_count(cards: list[str]) -> int:
    return sum(1 for c in cards if rank(c) == 2)


def check_play(cards: list[str], last_rank: int | None, lock: list[str] | None) -> PlayKind:
    """The kind of a play that may be laid now, or IllegalAction saying what is wrong.

    ``last_rank`` is the rank of the row's last card (None when the row is empty);
    ``lock`` the locked colours (None when nothing is locked).
    """
    kind = classify(cards)
    if kind is None:
        raise IllegalAction("akuma.bad_combination", cards=sort_cards(cards))
    refusal = row_refusal(cards, last_rank, lock)
    if refusal == "akuma.locked_colour":
        raise IllegalAction(refusal, lock=list(lock or []), cards=sort_cards(cards))
    if refusal == "akuma.not_higher":
        raise IllegalAction(refusal, rank=play_rank(cards), last_rank=last_rank)
    if refusal is not None:
        raise IllegalAction(refusal)
    return kind


def row_refusal(cards: list[str], last_rank: int | None, lock: list[str] | None) -> str | None:
    """Why a single, set or run may not be laid on the row now (the IllegalAction key), or None when it may.

    (``legal_plays`` asks this of every play a hand can form, so it raises nothing and builds no message.)
    """
    if lock is not None:
        first = colour(cards[0])
        if first not in lock or any(colour(c) != first for c in cards):
            return "akuma.locked_colour"
    if last_rank is None:
        return None
    lowest = play_rank(cards)
    if lowest == 0:
        # A play of 0s goes on anything except directly on a 0 (seed: after a 0, rank 1+ is required).
        return "akuma.zero_after_zero" if last_rank == 0 else None
    return "akuma.not_higher" if lowest <= last_rank else None


def candidate_plays(hand: list[str]) -> list[list[str]]:
    """Every single, set and run the hand can form, each sorted low to high, ignoring the row."""
    out: list[list[str]] = [[c] for c in sort_cards(hand)]
    by_rank: dict[int, list[str]] = {}
    by_colour: dict[str, set[int]] = {}
    for c in hand:
        by_rank.setdefault(rank(c), []).append(c)
        by_colour.setdefault(colour(c), set()).add(rank(c))
    for r in sorted(by_rank):
        same = sort_cards(by_rank[r])
        for size in range(2, len(same) + 1):
            out.extend(list(combo) for combo in combinations(same, size))
    for col in ALL_COLOURS:
        ranks = by_colour.get(col, set())
        for low in range(1, 10):
            high = low
            while high + 1 in ranks and low in ranks:
                high += 1
                out.append([f"{col}{r}" for r in range(low, high + 1)])
    return out


def legal_plays(hand: list[str], last_rank: int | None, lock: list[str] | None) -> list[list[str]]:
    """Every play of the hand that may be laid now, in a stable order (by lowest card, then size)."""
    plays = [cards for cards in candidate_plays(hand) if row_refusal(cards, last_rank, lock) is None]
    plays.sort(key=lambda cs: (sort_key(cs[0]), len(cs), [sort_key(c) for c in cs]))
    return plays


# ---- the Akuma release ----------------------------------------------------------------
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
