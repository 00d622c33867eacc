"""The flow of a Twin Pyramid match: starting a deal, ending a turn, draws that may burst a hand, ending a deal
(payments) and the match result. Pure functions that change the state they are given and append events."""
from __future__ import annotations

from ..base import Event, Result
from ..streams import cut, split
from . import rules
from .cards import HELD_LIMIT, START_RANKS, full_deck, rank_of
from .state import DealOutcome, OwnPile, Pending, Seat, TwinPyramidState


def match_result(state: TwinPyramidState) -> Result:
    """Places by points, highest first; equal points share a place (seat order inside)."""
    points = {p: state.seats[p].points for p in state.players}
    ranking: list[list[str]] = []
    for value in sorted(set(points.values()), reverse=True):
        ranking.append([p for p in state.players if points[p] == value])
    return Result(ranking=ranking, scores=points)


def start_deal(state: TwinPyramidState, number: int) -> list[Event]:
    deck = full_deck(state.options["jokers"])
    state.rng.shuffle(deck)
    first = state.first_start  # read from this deal's start and number before they change
    state.deal, state.start = number, (first + number) % len(state.players)
    state.current, state.direction = state.start, 1
    state.draw, state.discard = deck, []
    state.top_suit = state.wild = state.pending = state.three_player = None
    state.three_queue, state.peek = [], []
    state.rearranged = state.passes = state.turns = 0
    state.arranging = False
    events: list[Event] = []
    for i in range(len(state.players)):
        player = state.player_at(state.start + i)
        state.seats[player] = Seat(points=state.seats[player].points)
        state.seats[player].held = [state.draw.pop() for _ in range(HELD_LIMIT)]
        events.append(Event(type="dealt", visible_to=[player], data={"cards": list(state.seats[player].held)}))
    while True:  # flip until a 4, 5, 6, J, Q or K
        card = state.draw.pop()
        state.discard.append(card)
        if rank_of(card) in START_RANKS:
            break
    if state.per_seat:
        deal_own_piles(state)
    events.insert(0, Event(type="deal_started", data={
        "deal": number + 1, "deals_total": state.deals_total,
        "start_player": state.player_at(state.start), "flipped": list(state.discard), "top": state.top(),
    }))
    return events


def deal_own_piles(state: TwinPyramidState) -> None:
    """``streams: per_seat`` (D19): the deal is the original's; what is left of the deck is dealt out round the table
    from the start player, the top card first, as every seat's own pile, and every seat gets its own RNG for the
    deal (split off the game's, which then only shuffles the next deal's deck)."""
    order = [state.player_at(state.start + i) for i in range(len(state.players))]
    piles = cut(state.draw[::-1], order)
    state.own = {p: OwnPile(pile=piles[p][::-1], rng=split(state.rng)) for p in order}
    state.draw = []


def draw_cards(state: TwinPyramidState, player: str, count: int, events: list[Event]) -> bool:
    """Draw up to ``count`` cards; True when that ended the deal (a burst)."""
    for _ in range(count):
        if rules.draw_one(state, player, events) is None:
            events.append(Event(type="forced_draw_skipped", data={"player": player}))
            return False
        if after_draws(state, player, events):
            return True
    return False


def after_draws(state: TwinPyramidState, player: str, events: list[Event]) -> bool:
    if rules.burst(state, player):
        end_deal(state, "burst", player, events)
        return True
    return False


def end_turn(state: TwinPyramidState, events: list[Event], skip: int = 0) -> None:
    ending = state.player_at(state.current)
    if state.wild is not None and state.wild.owner == ending:
        if state.wild.fresh:
            state.wild.fresh = False
        else:
            events.append(Event(type="wild_ended", data={"player": ending, "suit": state.wild.suit}))
            state.wild = None
    state.current = state.next_index(1 + skip)
    state.rearranged = 0
    state.turns += 1
    if state.turns >= state.turn_limit:
        end_deal(state, "turn_limit", None, events)
    else:
        events.append(Event(type="turn", data={"player": state.player_at(state.current)}))


def end_deal(state: TwinPyramidState, reason: str, player: str | None, events: list[Event]) -> None:
    n = len(state.players)
    payments = {p: 0 for p in state.players}
    revealed: list[str] = []
    if player is not None:
        unit = 20 if reason == "complete" else -10
        for p in state.players:
            payments[p] = unit * (n - 1) if p == player else -unit
        seat = state.seats[player]
        seat.revealed = True
        revealed = seat.hand
    elif state.settled_by_stones:  # D18: each seat pays each other seat a point for every stone it has more
        stones = {p: len(state.seats[p].stones) for p in state.players}
        payments = {p: n * stones[p] - sum(stones.values()) for p in state.players}
    for p, amount in payments.items():
        state.seats[p].points += amount
    state.last_deal = DealOutcome(
        number=state.deal + 1, reason=reason, player=player, revealed=revealed, payments=payments,
        turn_limit=state.turn_limit if reason == "turn_limit" else None,
    )
    state.pending = state.wild = state.three_player = None
    state.three_queue, state.peek = [], []
    last = state.deal + 1 >= state.deals_total
    events.append(Event(type="deal_ended", data={
        **state.last_deal.model_dump(), "points": {p: state.seats[p].points for p in state.players}, "last": last,
    }))
    if not last:
        next_start = state.player_at(state.first_start + state.deal + 1)
        state.pending = Pending(kind="deal_over", player=next_start)
    else:
        state.over = True
        result = match_result(state)
        events.append(Event(type="match_over", data=result.model_dump()))
