"""The Twin Pyramid engine: deals, turns, special cards, pending decisions and scoring."""
from __future__ import annotations

from itertools import permutations
from typing import Any

from pydantic import BaseModel

from ..base import Action, Engine, Event, Result
from ..errors import IllegalAction
from ..rng import Rng
from . import rules
from .actions import (
    REARRANGE_TYPES,
    Change,
    Draw,
    EndBuild,
    ForcedDraw,
    NameSuit,
    NextDeal,
    OrderThree,
    Pass,
    PassTwo,
    Place,
    Play,
    Rearrange,
    RearrangeStep,
    TakeTwo,
    TwinPyramidAction,
)
from .cards import BUILD_LIMIT, HELD_LIMIT, SLOTS, START_RANKS, SUITS, full_deck, rank_of, stone_value
from .state import TURNS_PER_PLAYER, DealOutcome, Pending, Seat, TwinPyramidOptions, TwinPyramidState, Wild
from .view import build_view

# Error codes when a well-formed action is refused, by action type.
_REFUSAL = {
    "play": "card_not_playable", "draw": "draw_not_allowed", "change": "change_not_allowed",
    "pass": "pass_not_allowed", "rearrange": "rearrange_not_allowed", "swap_shown": "rearrange_not_allowed", "to_shown": "rearrange_not_allowed",
    "swap_stone": "rearrange_not_allowed", "place": "stone_not_placeable", "order_three": "bad_order",
}
# The action kinds that belong to each kind of decision (for the refusal code).
_PHASE_KINDS = {
    "turn": {"play", "draw", "change", "pass", "rearrange"},
    "arranging": {"swap_shown", "to_shown", "swap_stone"},
    "forced_draw": {"forced_draw", "rearrange"},
    "build": {"place", "end_build"}, "name_suit": {"name_suit"}, "two_choice": {"take_two", "pass_two"},
    "order_three": {"order_three"}, "deal_over": {"next_deal"},
}
SPECIAL_RANKS = frozenset(("2", "3", "7", "8", "9", "10"))


class TwinPyramidEngine(Engine):
    name = "twinpyramid"
    min_players = 2
    max_players = 6
    state_model = TwinPyramidState
    action_model = TwinPyramidAction
    options_model = TwinPyramidOptions

    # ---- setup --------------------------------------------------------------------
    def _new_game(self, players: list[str], rng: Rng, options: BaseModel, seed: int) -> TwinPyramidState:
        assert isinstance(options, TwinPyramidOptions)
        state = TwinPyramidState(
            game=self.name, players=players, seed=seed, options=options.model_dump(), rng=rng,
            seats={p: Seat() for p in players}, deals_total=options.rounds * len(players),
        )
        self._start_deal(state, 0)
        return state

    def _start_deal(self, state: TwinPyramidState, number: int) -> list[Event]:
        deck = full_deck(state.options["jokers"])
        state.rng.shuffle(deck)
        state.deal, state.start = number, number % len(state.players)
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
        events.insert(0, Event(type="deal_started", data={
            "deal": number + 1, "deals_total": state.deals_total,
            "start_player": state.player_at(state.start), "flipped": list(state.discard), "top": state.top(),
        }))
        return events

    def start_events(self, state: TwinPyramidState) -> list[Event]:
        """The public event announcing the first deal (``new_game`` itself returns only the state)."""
        return [Event(type="deal_started", data={
            "deal": state.deal + 1, "deals_total": state.deals_total, "start_player": state.player_at(state.start),
            "flipped": list(state.discard), "top": state.top(),
        })]

    # ---- contract -----------------------------------------------------------------
    def to_act(self, state: TwinPyramidState) -> list[str]:
        if state.over:
            return []
        if state.pending is not None:
            return [state.pending.player]
        return [state.player_at(state.current)]

    def legal_actions(self, state: TwinPyramidState, player: str) -> list[Action]:
        if player not in self.to_act(state):
            return []
        pending = state.pending
        if state.arranging:
            return rules.rearrange_actions(state, player, 0)
        if pending is None:
            main = rules.turn_actions(state, player) or [Pass()]
            return main + self._rearrange_entry(state, player, state.rearranged)
        if pending.kind == "build":
            return rules.placeable(state, player) + [EndBuild()]
        if pending.kind == "name_suit":
            return [NameSuit(suit=s) for s in SUITS]
        if pending.kind == "two_choice":
            return ([TakeTwo()] if rules.may_take_two(state, player) else []) + [PassTwo()]
        if pending.kind == "order_three":
            return [OrderThree(order=list(p)) for p in permutations(state.peek)]
        if pending.kind == "forced_draw":
            return [ForcedDraw()] + self._rearrange_entry(state, player, pending.rearranged)
        return [NextDeal()]

    @staticmethod
    def _rearrange_entry(state: TwinPyramidState, player: str, steps_taken: int) -> list[Action]:
        return [Rearrange()] if rules.rearrange_actions(state, player, steps_taken) else []

    def view(self, state: TwinPyramidState, viewer: str | None) -> dict[str, Any]:
        return build_view(state, viewer, self.to_act(state))

    def result(self, state: TwinPyramidState) -> Result | None:
        if not state.over:
            return None
        points = {p: state.seats[p].points for p in state.players}
        ranking: list[list[str]] = []
        for value in sorted(set(points.values()), reverse=True):
            ranking.append([p for p in state.players if points[p] == value])
        return Result(ranking=ranking, scores=points)

    # ---- transitions ----------------------------------------------------------------
    def _apply(self, state: TwinPyramidState, player: str, action: Any) -> list[Event]:
        if isinstance(action, RearrangeStep):  # ``rearrange`` then its step, both checked as usual
            if state.arranging:
                raise IllegalAction("twinpyramid.rearrange_not_allowed", action=action.type)
            events = self._apply(state, player, Rearrange())
            return events + self._apply(state, player, action.step)
        legal = self.legal_actions(state, player)
        if action not in legal:
            phase = "arranging" if state.arranging else (state.pending.kind if state.pending else "turn")
            reason = _REFUSAL.get(action.type, "not_now") if action.type in _PHASE_KINDS[phase] else "not_now"
            fields = {"card": action.card} if isinstance(getattr(action, "card", None), str) else {}
            raise IllegalAction(f"twinpyramid.{reason}", action=action.type, **fields)
        events = []
        if isinstance(action, Rearrange):
            state.arranging = True
        elif action.type in REARRANGE_TYPES:
            state.arranging = False
            events += rules.rearrange(state, player, action)
            if state.pending is not None:
                state.pending.rearranged += 1
            else:
                state.rearranged += 1
        elif isinstance(action, Play):
            self._play(state, player, action.card, events)
        elif isinstance(action, Draw):
            state.passes = 0
            rules.draw_one(state, player, events)
            if not self._after_draws(state, player, events):
                self._end_turn(state, events)
        elif isinstance(action, Change):
            self._change(state, player, action, events)
        elif isinstance(action, Pass):
            state.passes += 1
            events.append(Event(type="passed", data={"player": player}))
            if state.passes >= len(state.players):  # nobody could act for a full cycle
                self._end_deal(state, "stalled", None, events)
            else:
                self._end_turn(state, events)
        elif isinstance(action, Place):
            self._place(state, player, action.card, events)
        elif isinstance(action, EndBuild):
            state.pending = None
            self._end_turn(state, events)
        elif isinstance(action, NameSuit):
            state.pending = None
            state.top_suit = action.suit
            state.wild = Wild(owner=player, suit=action.suit)
            events.append(Event(type="suit_named", data={"player": player, "suit": action.suit}))
            self._end_turn(state, events)
        elif isinstance(action, TakeTwo):
            state.pending = None
            events.append(Event(type="two_taken", data={"player": player}))
            if not self._draw_cards(state, player, 2, events):
                self._end_turn(state, events)
        elif isinstance(action, PassTwo):
            self._pass_two(state, player, events)
        elif isinstance(action, OrderThree):
            state.pending = None
            state.draw[len(state.draw) - len(action.order):] = list(reversed(action.order))
            state.peek = list(action.order)
            events.append(Event(type="three_ordered", data={"player": player}))
            self._continue_three(state, events)
        elif isinstance(action, ForcedDraw):
            cause = state.pending.cause  # type: ignore[union-attr]  # forced_draw is legal only while pending
            state.pending = None
            if self._draw_cards(state, player, 2 if cause == "2" else 1, events):
                return events
            if cause == "3":
                self._continue_three(state, events)
            else:
                self._end_turn(state, events)
        elif isinstance(action, NextDeal):
            state.pending = None
            events += self._start_deal(state, state.deal + 1)
        return events

    def _play(self, state: TwinPyramidState, player: str, card: str, events: list[Event]) -> None:
        state.passes = 0
        effective = not rules.suppressed(state, player)
        zone = rules.remove_from_hand(state, player, card)
        rules.put_on_discard(state, card)
        rank = rank_of(card)
        events.append(Event(type="played", data={"player": player, "card": card, "from": zone}))
        if rank is None:  # joker, wild mode
            state.pending = Pending(kind="name_suit", player=player)
        elif rank in BUILD_LIMIT:
            if rules.placeable(state, player):
                state.pending = Pending(kind="build", player=player, count=BUILD_LIMIT[rank])
            else:
                events.append(Event(type="nothing_to_build", data={"player": player}))
                self._end_turn(state, events)
        elif rank in SPECIAL_RANKS and not effective:
            events.append(Event(type="effect_suppressed", data={"player": player, "card": card}))
            self._end_turn(state, events)
        elif rank == "2":
            state.pending = Pending(kind="two_choice", player=player)
        elif rank == "3":
            self._start_three(state, player, events)
        elif rank == "7":
            events.append(Event(type="skipped", data={"player": state.player_at(state.next_index())}))
            self._end_turn(state, events, skip=1)
        elif rank == "8":
            state.pending = Pending(kind="name_suit", player=player)
        elif rank == "9":
            state.direction = -state.direction
            events.append(Event(type="reversed", data={"player": player, "direction": state.direction}))
            self._end_turn(state, events)
        elif rank == "10":
            self._break(state, events)
            self._end_turn(state, events)
        else:
            self._end_turn(state, events)

    def _change(self, state: TwinPyramidState, player: str, action: Change, events: list[Event]) -> None:
        state.passes = 0
        zone = rules.remove_from_hand(state, player, action.card)
        if action.owner is None:
            state.discard.pop()
            rules.put_on_discard(state, action.card)
        else:
            shown = state.seats[action.owner].shown
            shown[shown.index(action.target)] = action.card
        into = rules.receive_changed(state, player, action.target, zone)
        joker = rank_of(action.card) is None
        mode = ("wild_change" if action.owner is None else "change") if joker else "a_change"
        # A card taken into held is secret from now on: the public event does not name it.
        public = {"target": action.target} if into == "shown" else {}
        events.append(Event(type="changed", data={
            "player": player, "card": action.card, "owner": action.owner, "mode": mode, "into": into, **public,
        }))
        if into == "held":
            events.append(Event(type="changed_card", visible_to=[player], data={"player": player, "card": action.target}))
        if mode == "wild_change":
            state.pending = Pending(kind="name_suit", player=player)
        else:
            self._end_turn(state, events)

    def _place(self, state: TwinPyramidState, player: str, card: str, events: list[Event]) -> None:
        seat = state.seats[player]
        rules.remove_from_hand(state, player, card)
        seat.stones[rank_of(card)] = card  # type: ignore[index]  # only stones are placed
        events.append(Event(type="stone_placed", data={"player": player, "card": card, "slot": rank_of(card)}))
        if len(seat.stones) == len(SLOTS):
            self._end_deal(state, "complete", player, events)
            return
        pending = state.pending
        assert pending is not None
        pending.count -= 1
        if pending.count <= 0 or not rules.placeable(state, player):
            state.pending = None
            self._end_turn(state, events)

    def _break(self, state: TwinPyramidState, events: list[Event]) -> None:
        victim = state.player_at(state.next_index())
        stones = state.seats[victim].stones
        if not stones:
            events.append(Event(type="break_missed", data={"player": victim}))
            return
        slot, stone = min(stones.items(), key=lambda item: stone_value(item[1]))
        del stones[slot]
        rules.put_on_discard(state, stone)
        events.append(Event(type="stone_broken", data={"player": victim, "card": stone, "slot": slot}))

    def _pass_two(self, state: TwinPyramidState, player: str, events: list[Event]) -> None:
        state.pending = None
        target = state.player_at(state.next_index())
        events.append(Event(type="two_passed", data={"player": player, "to": target}))
        if rules.cards_available(state) == 0:
            events.append(Event(type="forced_draw_skipped", data={"player": target}))
            self._end_turn(state, events)
        else:
            state.pending = Pending(kind="forced_draw", player=target, count=2, cause="2")

    def _start_three(self, state: TwinPyramidState, player: str, events: list[Event]) -> None:
        rules.refill_draw(state, events)
        state.peek = list(reversed(state.draw[-3:]))
        state.three_player = player
        n = len(state.players)
        state.three_queue = [state.player_at(state.next_index(i)) for i in range(1, n)] + [player]
        if state.peek:
            events.append(Event(type="three_seen", visible_to=[player], data={"cards": list(state.peek)}))
        if len(state.peek) > 1:
            state.pending = Pending(kind="order_three", player=player)
        else:
            self._continue_three(state, events)

    def _continue_three(self, state: TwinPyramidState, events: list[Event]) -> None:
        """Run the 3's draws in turn order, pausing for each other player to rearrange first."""
        while state.three_queue:
            drawer = state.three_queue.pop(0)
            if rules.cards_available(state) == 0:
                events.append(Event(type="forced_draw_skipped", data={"player": drawer}))
            elif drawer != state.three_player:
                state.pending = Pending(kind="forced_draw", player=drawer, count=1, cause="3")
                return
            elif self._draw_cards(state, drawer, 1, events):
                return
        state.three_player, state.peek = None, []
        self._end_turn(state, events)

    def _draw_cards(self, state: TwinPyramidState, player: str, count: int, events: list[Event]) -> bool:
        """Draw up to ``count`` cards; True when that ended the deal (a burst)."""
        for _ in range(count):
            if rules.draw_one(state, player, events) is None:
                events.append(Event(type="forced_draw_skipped", data={"player": player}))
                return False
            if self._after_draws(state, player, events):
                return True
        return False

    def _after_draws(self, state: TwinPyramidState, player: str, events: list[Event]) -> bool:
        if rules.burst(state, player):
            self._end_deal(state, "burst", player, events)
            return True
        return False

    def _end_turn(self, state: TwinPyramidState, events: list[Event], skip: int = 0) -> None:
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
        if state.turns >= TURNS_PER_PLAYER * len(state.players):
            self._end_deal(state, "turn_limit", None, events)
        else:
            events.append(Event(type="turn", data={"player": state.player_at(state.current)}))

    def _end_deal(self, state: TwinPyramidState, reason: str, player: str | None, events: list[Event]) -> None:
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
        for p, amount in payments.items():
            state.seats[p].points += amount
        state.last_deal = DealOutcome(
            number=state.deal + 1, reason=reason, player=player, revealed=revealed, payments=payments,
            turn_limit=TURNS_PER_PLAYER * n if reason == "turn_limit" else None,
        )
        state.pending = state.wild = state.three_player = None
        state.three_queue, state.peek = [], []
        events.append(Event(type="deal_ended", data={
            **state.last_deal.model_dump(), "points": {p: state.seats[p].points for p in state.players},
        }))
        if state.deal + 1 < state.deals_total:
            next_start = state.player_at((state.deal + 1) % n)
            state.pending = Pending(kind="deal_over", player=next_start)
        else:
            state.over = True
            result = self.result(state)
            events.append(Event(type="match_over", data=result.model_dump()))  # type: ignore[union-attr]  # the match is over: a result exists
