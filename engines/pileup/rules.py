"""Pile up's rules on plain data: plays onto a column (enumerating, checking, what they lead to) and the ranking.

Everything here works on plain data (lists of layers), so a renderer or a bot can preview a
play from a view with :func:`outcome` exactly as the engine will resolve it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, TypedDict

from .actions import Play
from .cards import BLACK, WHITE, colour_of, number_of

if TYPE_CHECKING:
    from .view import PileupView


def _by_colour(cards: list[str], value: int) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for c in sorted(cards):
        if number_of(c) == value:
            groups.setdefault(colour_of(c), []).append(c)
    return groups


def enumerate_plays(
    source: list[str], value: int, top_colour: str | None, max_cards: int | None = None
) -> Iterator[Play]:
    """Every distinct play of cards of number ``value`` from ``source`` onto a column whose top
    layer has ``top_colour`` (None: empty column).

    Identical copies are interchangeable, so each colour's cards are used lowest id first; that
    keeps the list free of duplicates (a hand of two red 3s gives 1-card and 2-card plays, not
    every permutation of the copies).
    """
    groups = _by_colour(source, value)
    used = {c: 0 for c in groups}
    cards: list[str] = []
    stacked: list[bool] = []
    limit = sum(len(g) for g in groups.values()) if max_cards is None else max_cards

    def walk(top: str | None) -> Iterator[Play]:
        if cards:
            yield Play.model_construct(type="play", value=value, cards=tuple(cards), stacked=tuple(stacked))
        if len(cards) >= limit:
            return
        for colour, group in groups.items():
            i = used[colour]
            if i >= len(group):
                continue
            used[colour] = i + 1
            cards.append(group[i])
            for stack in ((False, True) if top == colour else (False,)):
                stacked.append(stack)
                yield from walk(colour)
                stacked.pop()
            cards.pop()
            used[colour] = i

    yield from walk(top_colour)


def play_problem(source: list[str], top_colour: str | None, play: Play, max_cards: int | None) -> str | None:
    """Why ``play`` is not one of :func:`enumerate_plays`' plays (a reason code), or None when it is."""
    cards, value = list(play.cards), play.value
    if not cards or len(cards) != len(play.stacked):
        return "bad_play_shape"
    if max_cards is not None and len(cards) > max_cards:
        return "too_many_cards"
    if len(set(cards)) != len(cards) or any(c not in source for c in cards):
        return "card_not_held"
    if any(number_of(c) != value for c in cards):
        return "wrong_number"
    groups = _by_colour(source, value)
    for colour, group in groups.items():
        mine = [c for c in cards if colour_of(c) == colour]
        if mine != group[: len(mine)]:
            return "use_lowest_copy_first"
    top = top_colour
    for card, stack in zip(cards, play.stacked, strict=True):
        if stack and top != colour_of(card):
            return "stack_needs_same_colour"
        top = colour_of(card)
    return None


def place(layers: list[list[str]], play: Play) -> list[list[str]]:
    """The column's layers after the play's cards are placed (a new list; input untouched)."""
    out = [list(layer) for layer in layers]
    for card, stack in zip(play.cards, play.stacked, strict=True):
        if stack:
            out[-1].append(card)
        else:
            out.append([card])
    return out


def last_special(cards: tuple[str, ...] | list[str]) -> str | None:
    """The colour of the last white or black card in a play (None when it has neither)."""
    for card in reversed(cards):
        if colour_of(card) in (WHITE, BLACK):
            return colour_of(card)
    return None


def _walk(trapped: bool, cards: tuple[str, ...] | list[str], layers_after: int) -> str:
    """Resolve a play with no white last, card by card: a black's rule applies the moment it is
    played (「黒のカードは出した瞬間にルールが適用され」), so any card laid on a trapped column —
    even the same player's next card of this play — takes the column (「3枚目が黒のカードの場合、
    次の4枚目に重ねた人がカードを取得する」)."""
    kind = None
    for card in cards:
        if trapped:
            kind = "spring" if colour_of(card) == BLACK else "take_trap"
            break
        trapped = colour_of(card) == BLACK
    if kind is None:
        kind = "trap" if trapped else ("take" if layers_after >= 3 else "safe")
    return kind


class Outcome(TypedDict):
    """What :func:`outcome` says a play leads to."""

    kind: str
    column: int
    layers: int
    cards: int
    takes: bool


def outcome(layers: list[list[str]], trapped: bool, play: Play) -> Outcome:
    """What a play leads to (docs/rules/pileup.md, "Resolving a play on column v").

    ``kind``: ``dump`` (last white/black is white), ``spring`` (black onto a trapped column,
    Decision), ``trap`` (last card is black), ``take_trap`` (a plain card onto a trapped column,
    the trap set before this play or by a black earlier in it),
    ``take`` (3 or more layers), ``safe``. ``cards``: how many cards the column then holds;
    ``layers``: its layer count; ``takes``: the player must take the column.
    """
    after = place(layers, play)
    if last_special(play.cards) == WHITE:
        kind = "dump"
    else:
        kind = _walk(trapped, play.cards, len(after))
    return {
        "kind": kind,
        "column": play.value,
        "layers": len(after),
        "cards": sum(len(layer) for layer in after),
        "takes": kind in ("spring", "take_trap", "take"),
    }


def preview(view: PileupView, play: Play | dict) -> Outcome:
    """:func:`outcome` of a play, computed from a view (any viewer's) — for UI previews and bots."""
    if isinstance(play, dict):
        play = Play.model_validate(play)
    typed = view.columns[play.value - 1]
    return outcome([layer.cards for layer in typed.layers], typed.trapped, play)


def ranking(players: list[str], minus_counts: dict[str, int]) -> list[list[str]]:
    """Places by fewest minus cards; players with equal counts share a place (seat order inside)."""
    places: list[list[str]] = []
    for count in sorted(set(minus_counts.values())):
        places.append([p for p in players if minus_counts[p] == count])
    return places
