"""What a player may do: matching, changes, draws, rearrangements and building.

Pure helpers over a ``TwinPyramidState``; the flow of turns lives in ``engine.py``.
"""
from __future__ import annotations

from ..base import Event
from .actions import Action, Change, Draw, Place, Play, SwapShown, SwapStone, ToHeld, ToShown
from .cards import (
    BURST_SIZE,
    HELD_LIMIT,
    is_joker,
    is_stone,
    rank_of,
    slot_open,
    suit_of,
)
from .state import REARRANGE_LIMIT, TwinPyramidState


def suppressed(state: TwinPyramidState, player: str) -> bool:
    """True while another player's wild (8 or joker) is in force against ``player``."""
    return state.wild is not None and state.wild.owner != player


def can_play(state: TwinPyramidState, player: str, card: str) -> bool:
    """Whether ``card`` may go onto the discard now (suit or rank match, the 2 exception)."""
    if is_joker(card):
        return not suppressed(state, player)
    if suppressed(state, player):
        return suit_of(card) == state.wild.suit  # type: ignore[union-attr]  # suppressed implies a wild
    top = state.top()
    suits = {suit_of(top), state.top_suit} - {None}
    if suit_of(card) in suits:
        return True
    # A 2 may match by suit only; a joker on top has no rank.
    return rank_of(card) != "2" and not is_joker(top) and rank_of(card) == rank_of(top)


def change_targets(state: TwinPyramidState, player: str, card: str) -> list[tuple[str | None, str]]:
    """(owner, target) pairs an A or a joker in ``player``'s hand may be exchanged with.

    ``owner=None`` is the discard's top card. An A takes a card of its suit or another A; a joker takes any card
    (rules 2: any but a joker).
    """
    if suppressed(state, player):
        return []
    if is_joker(card):
        any_card = state.joker_takes_joker

        def fits(target: str) -> bool:
            return any_card or not is_joker(target)
    elif rank_of(card) == "A":
        suit = suit_of(card)

        def fits(target: str) -> bool:
            return not is_joker(target) and (suit_of(target) == suit or rank_of(target) == "A")
    else:
        return []
    targets: list[tuple[str | None, str]] = []
    if fits(state.top()):
        targets.append((None, state.top()))
    for other in state.players:
        if other != player:
            targets.extend((other, shown) for shown in state.seats[other].shown if fits(shown))
    return targets


def play_actions(state: TwinPyramidState, player: str) -> list[Action]:
    return [Play(card=c) for c in state.seats[player].hand if can_play(state, player, c)]


def change_actions(state: TwinPyramidState, player: str) -> list[Action]:
    actions: list[Action] = []
    for card in state.seats[player].hand:
        for owner, target in change_targets(state, player, card):
            actions.append(Change(card=card, target=target, owner=owner))
    return actions


def cards_available(state: TwinPyramidState, player: str) -> int:
    """Cards a draw of ``player`` can still reach: its draw pile (``streams: per_seat``: its own) plus the discard
    under its top card."""
    return len(state.pile_of(player)) + max(0, len(state.discard) - 1)


def turn_actions(state: TwinPyramidState, player: str) -> list[Action]:
    """The turn's possible one actions (without rearrangements and without pass)."""
    actions = play_actions(state, player) + change_actions(state, player)
    hand_size = len(state.seats[player].hand)
    # The 10th card may not be drawn while a play or a change is possible.
    if cards_available(state, player) > 0 and not (hand_size + 1 >= BURST_SIZE and actions):
        actions.append(Draw())
    return actions


def rearrange_actions(state: TwinPyramidState, player: str, steps_taken: int) -> list[Action]:
    if steps_taken >= REARRANGE_LIMIT:
        return []
    seat = state.seats[player]
    actions: list[Action] = [SwapShown(held=h, shown=s) for h in seat.held for s in seat.shown]
    actions += [ToShown(card=h) for h in seat.held]
    if len(seat.held) < HELD_LIMIT:
        actions += [ToHeld(card=s) for s in seat.shown]
    for card in seat.hand:
        stone = seat.stones.get(rank_of(card) or "")
        if stone is not None:
            actions.append(SwapStone(card=card, stone=stone))
    return actions


def rearrange(state: TwinPyramidState, player: str, action: Action) -> list[Event]:
    """Apply a (legal) rearrangement. A card leaving a public place lands in shown."""
    seat = state.seats[player]
    if isinstance(action, SwapShown):
        seat.held[seat.held.index(action.held)] = action.shown
        seat.shown[seat.shown.index(action.shown)] = action.held
        public = {"kind": "swap_shown", "to_shown": action.held}
    elif isinstance(action, ToShown):
        seat.held.remove(action.card)
        seat.shown.append(action.card)
        public = {"kind": "to_shown", "to_shown": action.card}
    elif isinstance(action, ToHeld):
        seat.shown.remove(action.card)
        seat.held.append(action.card)
        public = {"kind": "to_held"}  # now secret: only the private detail names it
    else:
        assert isinstance(action, SwapStone)
        slot = rank_of(action.stone)
        assert slot is not None  # a stone is never a joker
        zone = seat.held if action.card in seat.held else seat.shown
        zone.remove(action.card)
        seat.shown.append(action.stone)
        seat.stones[slot] = action.card
        public = {"kind": "swap_stone", "slot": slot, "stone": action.card, "to_shown": action.stone}
    return [
        Event(type="rearranged", data={"player": player, **public}),
        Event(type="rearranged_detail", visible_to=[player], data={"player": player, **action.model_dump()}),
    ]


def placeable(state: TwinPyramidState, player: str) -> list[Action]:
    """Stones the player may place now (slot empty, supports filled, the A's condition)."""
    seat = state.seats[player]
    hand = seat.hand
    actions: list[Action] = []
    for card in hand:
        rank = rank_of(card)
        if not is_stone(card) or not slot_open(seat.stones, rank):  # type: ignore[arg-type]  # is_stone is checked first
            continue
        if rank == "A" and any(is_stone(c) or is_joker(c) for c in hand if c != card):
            continue  # the A goes on top only when the rest of the hand is J/Q/K
        actions.append(Place(card=card))
    return actions


# Where a card taken by a change goes: into held when it has room (the A or joker given for it
# has just left the hand), else shown, as a drawn card does. Measured against "always shown" and
# "where the A came from" in docs/rules/twinpyramid.md ("Where a changed card goes").
CHANGED_CARD_ZONE = "held"


def receive_changed(state: TwinPyramidState, player: str, card: str, given_from: str) -> str:
    """Put ``card``, taken by a change, into the player's hand (see ``CHANGED_CARD_ZONE``); returns the zone."""
    seat = state.seats[player]
    if CHANGED_CARD_ZONE == "same":
        to_held = given_from == "held"
    else:
        to_held = CHANGED_CARD_ZONE == "held" and len(seat.held) < HELD_LIMIT
    (seat.held if to_held else seat.shown).append(card)
    return "held" if to_held else "shown"


def may_take_two(state: TwinPyramidState, player: str) -> bool:
    """After your own 2: drawing the two cards is barred when it would reach the 10th hand card
    while you hold a card you could play or change (the 10th-card rule applies to every
    voluntary draw; passing the two is always possible)."""
    if len(state.seats[player].hand) + 2 < BURST_SIZE:
        return True
    return not (play_actions(state, player) or change_actions(state, player))


def remove_from_hand(state: TwinPyramidState, player: str, card: str) -> str:
    """Take ``card`` out of the player's hand; returns the zone it was in."""
    seat = state.seats[player]
    if card in seat.held:
        seat.held.remove(card)
        return "held"
    seat.shown.remove(card)
    return "shown"


def put_on_discard(state: TwinPyramidState, card: str) -> None:
    state.discard.append(card)
    state.top_suit = None


def refill_draw(state: TwinPyramidState, player: str, events: list[Event]) -> None:
    """An empty draw pile is rebuilt from the discard, shuffled, except its top card. With ``streams: per_seat``
    (D19) that is ``player``'s own pile, shuffled by the seat's own RNG; the discard stays shared."""
    pile = state.pile_of(player)
    if pile or len(state.discard) <= 1:
        return
    under, state.discard = state.discard[:-1], state.discard[-1:]
    state.shuffler_of(player).shuffle(under)
    pile[:] = under
    data = {"draw_count": len(pile)} if state.own is None else {"player": player, "own_pile": len(pile)}
    events.append(Event(type="reshuffled", data=data))


def draw_one(state: TwinPyramidState, player: str, events: list[Event]) -> str | None:
    """Draw the top card into held (if room) or shown; reshuffles the discard when needed.

    Returns the card, or ``None`` when no card can be had.
    """
    refill_draw(state, player, events)
    pile = state.pile_of(player)
    if not pile:
        return None
    card = pile.pop()
    if state.peek and state.peek[0] == card:
        state.peek.pop(0)
    seat = state.seats[player]
    if len(seat.held) < HELD_LIMIT:
        seat.held.append(card)
        events.append(Event(type="drew", data={"player": player, "zone": "held"}))
        events.append(Event(type="drew_card", visible_to=[player], data={"player": player, "card": card}))
    else:
        seat.shown.append(card)
        events.append(Event(type="drew", data={"player": player, "zone": "shown", "card": card}))
    return card


def burst(state: TwinPyramidState, player: str) -> bool:
    return len(state.seats[player].hand) >= BURST_SIZE
