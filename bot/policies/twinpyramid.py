"""Twin Pyramid bot: builds its field pyramid deliberately and keeps its hand small.

It sees only its own view. Cards are valued by what they do for the pyramid: a stone for an
empty slot is worth keeping, a J/Q/K is worth playing as soon as it can place stones, and
stones whose slot is already filled are junk to shed (special cards first, to hurt the next
player). It draws while its hand is small and sheds when the hand grows towards ten.
"""
from __future__ import annotations

import random
from typing import Any

from engines import Action
from engines.twinpyramid.view import TwinPyramidView

from .seat_view import PolicyView, held

STONES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
BUILD = {"J": 1, "Q": 2, "K": 3}
SUPPORTS = {"4": ("7", "8"), "5": ("8", "9"), "6": ("9", "10"), "2": ("4", "5"), "3": ("5", "6"), "A": ("2", "3")}
SHED_FIRST = {"2": 3, "10": 3, "7": 2, "9": 1, "8": 1, "3": 0}  # nuisance value when shed
DRAW_UNTIL = 7  # draw (rather than play a useful card) while the hand is below this
CHANGE_GAIN = 1.5  # a change must gain this much card value: small gains only pass cards back and forth


_RANKS: dict[str, str | None] = {}  # every card id seen, with its rank (a look-up is cheaper than the slicing)


def rank(card: str) -> str | None:
    try:
        return _RANKS[card]
    except KeyError:
        found = _RANKS[card] = None if card.startswith("X") else card[:-1]
        return found


STONE_SET = frozenset(STONES)


def suit(card: str) -> str | None:
    return None if card.startswith("X") else card[-1]


class Table:
    """The parts of the view the policy reasons about (``Table.of`` builds one from the same parts read elsewhere,
    e.g. a playout's state)."""

    def __init__(self, view: TwinPyramidView) -> None:
        me = view.viewer
        assert me is not None  # a seat's view
        seat = next(s for s in view.table if s.player == me)
        order = view.players
        step = 1 if view.direction == "clockwise" else -1
        next_player = order[(order.index(me) + step) % len(order)]
        nxt = next(s for s in view.table if s.player == next_player)
        self._fill(list(held(view.hand)), list(seat.shown), {slot for slot, card in seat.stones.items() if card},
                   next_player, nxt.stone_count > 0, view.top, len(order))
        self.own_pile = seat.pile is not None  # ``streams: per_seat`` (D19): every seat draws from its own pile

    @classmethod
    def of(cls, held: list[str], shown: list[str], stones: set[str], next_player: str, next_has_stones: bool,
           top: str, players: int, own_pile: bool = False) -> Table:
        """A table from its parts: the seat's held (secret) and shown cards, its filled slots, the next player and
        whether they have a stone, the discard's top card, the number of players (read, never changed) and
        whether every seat draws from its own pile."""
        table = cls.__new__(cls)
        table._fill(held, shown, stones, next_player, next_has_stones, top, players)
        table.own_pile = own_pile
        return table

    def _fill(self, held: list[str], shown: list[str], stones: set[str], next_player: str, next_has_stones: bool,
              top: str, players: int) -> None:
        self.held, self.shown, self.stones = held, shown, stones
        self.hand = held + shown
        self.next_player, self.next_has_stones = next_player, next_has_stones
        self.top, self.players = top, players
        self._counts: dict[str | None, int] | None = None  # worked out when first needed (many choices need none)
        self._values: dict[str, float] = {}

    @property
    def rank_count(self) -> dict[str | None, int]:
        """How many hand cards of each rank (card ids are unique: a hand card's other copies are one fewer)."""
        if self._counts is None:
            self._counts = {}
            for card in self.hand:
                r = rank(card)
                self._counts[r] = self._counts.get(r, 0) + 1
        return self._counts

    def can_place(self, card: str, stones: set[str], hand: list[str]) -> bool:
        r = rank(card)
        if r not in STONES or r in stones or not all(s in stones for s in SUPPORTS.get(r, ())):
            return False
        if r == "A":
            return not any(rank(c) in STONES or rank(c) is None for c in hand if c != card)
        return True

    def placeable_count(self, hand: list[str], limit: int) -> int:
        """How many stones a build of ``limit`` could place from ``hand`` (greedy, bottom up)."""
        stones, hand, placed = set(self.stones), list(hand), 0
        while placed < limit:
            options = [c for c in hand if self.can_place(c, stones, hand)]
            if not options:
                break
            card = max(options, key=lambda c: STONES.index(rank(c)))
            slot = rank(card)
            assert slot is not None  # a placeable card is a stone
            stones.add(slot)
            hand.remove(card)
            placed += 1
        return placed

    def lacks_stones(self) -> bool:
        """True when the pyramid is nearly done and a slot could take a stone now but no hand card fits it."""
        if len(self.stones) < 7:
            return False
        open_slots = [r for r in STONES if r not in self.stones and all(s in self.stones for s in SUPPORTS.get(r, ()))]
        return bool(open_slots) and not any(r in open_slots for r in self.rank_count)

    def value(self, card: str) -> float:
        """What keeping ``card`` is worth to this hand (remembered: the table does not change)."""
        known = self._values.get(card)
        if known is None:
            known = self._values[card] = self._value(card)
        return known

    def _value(self, card: str) -> float:
        r = rank(card)
        if r is None:
            return 0.0 if len(self.stones) == 9 else 2.0  # a joker left in hand bars the A on top
        if r in BUILD:  # worth more while a hand card is a stone for an empty slot
            return 5.0 if any(o in STONE_SET and o not in self.stones for o in self.rank_count) else 3.0
        if r in self.stones:
            return 0.0
        copies = 1 + self.rank_count.get(r, 0) - (card in self.hand)
        base = 4.0 if r == "A" else 6.0
        return base if copies == 1 else base - 4.0  # a second copy of a needed stone is spare


def _by_type(legal: list[Action], kind: str) -> list[Any]:
    """The legal actions of one kind (read by their fields: each kind is its own action class)."""
    return [a for a in _kinds(legal) if a.type == kind]


def _kinds(legal: list[Action]) -> list[Any]:
    """Twin Pyramid's actions, whose ``type`` (and fields) tell them apart (the same list, read only)."""
    return legal


def choose(view: PolicyView, legal: list[Action], rng: random.Random) -> Action:
    assert isinstance(view, TwinPyramidView)  # only Twin Pyramid's views reach this policy (playouts use ``Table.of``)
    if len(legal) == 1:
        return legal[0]
    return decide(Table(view), legal, rng)


def decide(table: Table, legal: list[Action], rng: random.Random) -> Action:
    """The choice among two or more legal actions, from the table's parts."""
    kinds = {a.type for a in _kinds(legal)}
    if "place" in kinds:
        places = _by_type(legal, "place")
        return max(places, key=lambda a: (rank(a.card) == "A", STONES.index(rank(a.card))))
    if "end_build" in kinds:
        return _by_type(legal, "end_build")[0]
    if "name_suit" in kinds:
        counts = {s: sum(1 for c in table.hand if suit(c) == s) for s in "SHDC"}
        best = max(counts, key=lambda s: counts[s])
        return next(a for a in legal if a.suit == best)  # type: ignore[attr-defined]  # the field of that kind of Twin Pyramid action
    if "pass_two" in kinds:
        return _by_type(legal, "pass_two")[0]
    if "order_three" in kinds:
        return _order_three(table, legal)
    if "forced_draw" in kinds:
        return _by_type(legal, "forced_draw")[0]
    if "swap_shown" in kinds or "to_held" in kinds:
        return _arrange(table, legal)
    if "play" in kinds or "draw" in kinds:
        return _turn(table, legal, rng)
    if "change" in kinds:
        return _forced_change(table, legal)
    return rng.choice([a for a in _kinds(legal) if a.type != "rearrange"] or legal)


def _is_changer(card: str) -> bool:
    return rank(card) in ("A", None)


def _changer_to_hold(table: Table) -> str | None:
    """An A or joker in shown to take into held before a change, so the card it takes lands in held (secret,
    out of the owner's reach) instead of face up where it could be taken straight back. Only when held has room
    or a card that is no A or joker to give up its place (else swapping would only shuffle the As around)."""
    if len(table.held) >= 4 and all(_is_changer(c) for c in table.held):
        return None
    return next((c for c in table.shown if _is_changer(c)), None)


def _arrange(table: Table, legal: list[Action]) -> Action:
    """Inside the rearrangement menu (opened by ``_forced_change``): bring an A or joker from shown into held."""
    changer = _changer_to_hold(table)
    moves = [a for a in _kinds(legal) if (a.type == "to_held" and a.card == changer)
             or (a.type == "swap_shown" and a.shown == changer and not _is_changer(a.held))]
    if moves:
        return min(moves, key=lambda a: table.value(a.held if a.type == "swap_shown" else a.card))
    return legal[0]


def _forced_change(table: Table, legal: list[Action]) -> Action:
    """Only changes are possible (no card to play, the 10th card barred). Prefer a change that lets play go on:
    one with the discard's top card (the next player gets a new top), else one taking a card that can be played on
    the top next turn; never one the owner can take straight back — move the A or joker into held first."""
    changes = _by_type(legal, "change")
    top = table.top
    if any(_trade_back(table, a) for a in changes) and _changer_to_hold(table) and _by_type(legal, "rearrange"):
        return _by_type(legal, "rearrange")[0]

    def key(a: Action) -> tuple[bool, bool, bool, float]:
        target = a.target  # type: ignore[attr-defined]  # the field of that kind of Twin Pyramid action
        playable = suit(target) == suit(top) or (rank(target) == rank(top) and rank(target) != "2")
        return (a.owner is None, not _trade_back(table, a), playable,  # type: ignore[attr-defined]  # the field of that kind of Twin Pyramid action
                table.value(target) - table.value(a.card))  # type: ignore[attr-defined]  # the field of that kind of Twin Pyramid action
    return max(changes, key=key)


def _trade_back(table: Table, change: Action) -> bool:
    """True when the owner could take the card straight back: it lands face up (held stays full: the A or joker
    given came from shown) and the owner receives that A (same suit) or joker. Two bots would trade it back and
    forth for ever."""
    return change.owner is not None and change.card in table.shown and len(table.held) >= 4  # type: ignore[attr-defined]  # the field of that kind of Twin Pyramid action


def _order_three(table: Table, legal: list[Action]) -> Action:
    # the others draw first, one each, and the player last; per-seat (D19) the three are on our own pile: we draw
    # its top
    mine = 0 if table.own_pile else table.players - 1
    def score(action: Action) -> float:
        order = action.order  # type: ignore[attr-defined]  # the field of that kind of Twin Pyramid action
        return table.value(order[mine]) if mine < len(order) else 0.0
    return max(legal, key=score)


def _best_build(table: Table, plays: list[Action]) -> Action | None:
    """A J/Q/K that places stones, the most stones first (then the smaller build limit)."""
    builds = []
    for a in plays:
        limit = BUILD.get(rank(a.card) or "")  # type: ignore[attr-defined]  # the field of that kind of Twin Pyramid action
        if limit:
            rest = [c for c in table.hand if c != a.card]  # type: ignore[attr-defined]  # the field of that kind of Twin Pyramid action
            n = table.placeable_count(rest, limit)
            if n:
                builds.append((n, -limit, a))
    return max(builds, key=lambda t: (t[0], t[1]))[2] if builds else None


def _best_change(table: Table, legal: list[Action]) -> Action | None:
    """A change that takes a needed card, gaining more than CHANGE_GAIN (the A/joker given away is worth less)."""
    changes = _by_type(legal, "change")
    if not changes:
        return None
    best_change, gain = None, CHANGE_GAIN
    has_builder = any(rank(c) in BUILD for c in table.hand)
    for a in changes:
        if rank(a.target) in BUILD and has_builder:
            continue  # a second building card is no progress
        if _trade_back(table, a):
            continue
        taken = table.value(a.target) - table.value(a.card)
        if a.card.startswith("X") and a.owner is None:
            taken += 1.0  # a wild change also names a suit
        if taken > gain:
            best_change, gain = a, taken
    return best_change


def _turn(table: Table, legal: list[Action], rng: random.Random) -> Action:
    plays, draws = [], []
    for a in _kinds(legal):
        if a.type == "play":
            plays.append(a)
        elif a.type == "draw":
            draws.append(a)
    hand_size = len(table.hand)
    # 1. Build: a J/Q/K that places stones, the most stones first.
    # 2. Take a needed card with a change.
    chosen = _best_build(table, plays) or _best_change(table, legal)
    if chosen is not None:
        return chosen
    # 3. Shed junk, nuisance specials first.
    def shed_key(a: Action) -> tuple[float, float]:
        r = rank(a.card) or ""  # type: ignore[attr-defined]  # the field of that kind of Twin Pyramid action
        nuisance = SHED_FIRST.get(r, 0) if not (r == "10" and not table.next_has_stones) else 0
        return (-table.value(a.card), nuisance)  # type: ignore[attr-defined]  # the field of that kind of Twin Pyramid action
    junk = [a for a in plays if table.value(a.card) <= 1.0]
    if junk:
        return max(junk, key=shed_key)
    if draws and hand_size < (DRAW_UNTIL + 1 if table.lacks_stones() else DRAW_UNTIL):
        return draws[0]
    if plays:
        return max(plays, key=shed_key)
    if draws:
        return draws[0]
    return rng.choice([a for a in _kinds(legal) if a.type != "rearrange"] or legal)


def easy_moves(legal: list[Action]) -> list[Action]:
    """The plug-in's hook for the easy level: its random moves never only shuffle its own cards (``rearrange``,
    which the heuristic also avoids)."""
    return [a for a in legal if getattr(a, "type", None) != "rearrange"] or list(legal)
