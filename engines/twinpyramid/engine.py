"""The Twin Pyramid engine: deals, turns, special cards, pending decisions and scoring."""
from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from typing import Any, ClassVar

from pydantic import BaseModel

from ..base import Action, Engine, Event, Result
from ..errors import IllegalAction
from ..rng import Rng
from ..seating import choose_start_player
from . import flow, rules
from .actions import (
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
    SwapShown,
    SwapStone,
    TakeTwo,
    ToHeld,
    ToShown,
    TwinPyramidAction,
)
from .cards import BUILD_LIMIT, SLOTS, SUITS, rank_of, stone_value
from .state import ORIGINAL_ROUNDS, Pending, Seat, TwinPyramidOptions, TwinPyramidState, Wild
from .view import TwinPyramidView, build_view

# Error codes when a well-formed action is refused, by action type.
_REFUSAL = {
    "play": "card_not_playable", "draw": "draw_not_allowed", "change": "change_not_allowed",
    "pass": "pass_not_allowed", "rearrange": "rearrange_not_allowed", "swap_shown": "rearrange_not_allowed",
    "to_shown": "rearrange_not_allowed",
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
SPECIAL_RANKS = frozenset(("2", "3", "7", "8", "9", "10"))  # effects a wild of another player suppresses


class TwinPyramidEngine(Engine[TwinPyramidState, TwinPyramidAction, TwinPyramidOptions, TwinPyramidView]):
    name = "twinpyramid"
    # 2: options ``{}`` mean one deal, no longer two rounds (``stored_options`` reads a game of 1)
    # 3: the first start player drawn by lot, a joker may change with a joker (rules 3; ``stored_options`` gives
    #    a game of 1 or 2 the host as start player and rules 2)
    # 4: options naming no length mean one round up to four players, one deal at five and six (D17), no longer one
    #    deal, and a deal's turn limit is at most 720 (rules 4; ``stored_options`` gives a game of 2 or 3 that named
    #    no length one deal, and a game of 3 rules 3)
    # 5: at five and six seats a deal without a winner is settled by the field pyramids (D18), and a decision allows
    #    13 rearrangement steps, not 8 (D3; rules 5; ``stored_options`` gives a game of 4 rules 4)
    version = 5  # bump when a rules change plays stored games differently
    secret_events = frozenset({"three_seen"})
    min_players = 2
    max_players = 6
    state_model = TwinPyramidState
    action_model = TwinPyramidAction
    options_model = TwinPyramidOptions
    replays_versions = frozenset({1, 2, 3, 4})

    def stored_options(self, options: dict[str, Any], version: int) -> dict[str, Any]:
        """Before version 2 a match without ``rounds`` lasted the original's two rounds; before version 3 the host
        (seat 0) started and rules 2 applied; before version 4 a match naming no length was one deal and the turn limit
        had no cap (rules 3); before version 5 no deal was settled by stones (rules 4)."""
        if version < 2 and "rounds" not in options:
            options = {**options, "rounds": ORIGINAL_ROUNDS}
        if version < 4 and options.get("rounds") is None and options.get("deals") is None:
            options = {**options, "deals": 1}
        if version < 4:
            options = {"rules": 3, **options}  # no cap on the turn limit (rules 2, set above, stays)
        if version < 3:
            options = {**options, "start_player": 0, "rules": 2}
        if version < 5:
            options = {"rules": 4, **options}  # no house rule (rules 3 and 2, set above, stay)
        return options

    def length_units(self, options: dict[str, Any], players: int) -> int:
        parsed = self.parse_options(options)
        assert isinstance(parsed, TwinPyramidOptions)
        return parsed.deals_for(players)

    # ---- setup --------------------------------------------------------------------
    def _new_game(self, players: list[str], rng: Rng, options: BaseModel, seed: int) -> TwinPyramidState:
        assert isinstance(options, TwinPyramidOptions)
        first = choose_start_player(players, rng, options.start_player)
        state = TwinPyramidState(
            game=self.name, players=players, seed=seed, options=options.chosen(len(players)), rng=rng,
            seats={p: Seat() for p in players}, deals_total=options.deals_for(len(players)),
            start=players.index(first),
        )
        flow.start_deal(state, 0)
        return state

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

    def view(self, state: TwinPyramidState, viewer: str | None) -> TwinPyramidView:
        return build_view(self, state, viewer)

    def result(self, state: TwinPyramidState) -> Result | None:
        return flow.match_result(state) if state.over else None

    def turn_number(self, state: TwinPyramidState) -> int:
        """The turn of the deal under way, as the board counts it ("turn n of at most m"; each deal from 1)."""
        return state.turns + 1

    def held_at_end(self, state: TwinPyramidState) -> dict[str, list[str]]:
        """Every seat's hand, held and shown cards alike (the board's "hand n/10"; the view of a revealed hand
        holds no held card)."""
        return {p: list(seat.hand) for p, seat in state.seats.items()}

    # ---- transitions ----------------------------------------------------------------
    def _apply(self, state: TwinPyramidState, player: str, action: Any) -> list[Event]:
        if not isinstance(action, RearrangeStep):
            self._check_legal(state, player, action)
        events: list[Event] = []
        self._HANDLERS[type(action)](self, state, player, action, events)
        return events

    def _check_legal(self, state: TwinPyramidState, player: str, action: Action) -> None:
        if action in self.legal_actions(state, player):
            return
        phase = "arranging" if state.arranging else (state.pending.kind if state.pending else "turn")
        kind = action.type  # type: ignore[attr-defined]  # every Twin Pyramid action has its type literal
        reason = _REFUSAL.get(kind, "not_now") if kind in _PHASE_KINDS[phase] else "not_now"
        card = getattr(action, "card", None)  # the actions that name one card
        fields = {"card": card} if isinstance(card, str) else {}
        raise IllegalAction(f"twinpyramid.{reason}", action=kind, **fields)

    # One handler per action type; each gets the (already legal) action and appends its events.
    def _on_rearrange_step(self, state: TwinPyramidState, player: str, action: RearrangeStep,
                           events: list[Event]) -> None:
        """``rearrange`` then its step, both checked as usual."""
        if state.arranging:
            raise IllegalAction("twinpyramid.rearrange_not_allowed", action=action.type)
        events += self._apply(state, player, Rearrange())
        events += self._apply(state, player, action.step)

    def _on_rearrange(self, state: TwinPyramidState, player: str, action: Rearrange, events: list[Event]) -> None:
        state.arranging = True

    def _on_step(self, state: TwinPyramidState, player: str, action: Action, events: list[Event]) -> None:
        state.arranging = False
        events += rules.rearrange(state, player, action)
        if state.pending is not None:
            state.pending.rearranged += 1
        else:
            state.rearranged += 1

    def _on_play(self, state: TwinPyramidState, player: str, action: Play, events: list[Event]) -> None:
        self._play(state, player, action.card, events)

    def _on_draw(self, state: TwinPyramidState, player: str, action: Draw, events: list[Event]) -> None:
        state.passes = 0
        rules.draw_one(state, player, events)
        if not flow.after_draws(state, player, events):
            flow.end_turn(state, events)

    def _on_pass(self, state: TwinPyramidState, player: str, action: Pass, events: list[Event]) -> None:
        state.passes += 1
        events.append(Event(type="passed", data={"player": player}))
        if state.passes >= len(state.players):  # nobody could act for a full cycle
            flow.end_deal(state, "stalled", None, events)
        else:
            flow.end_turn(state, events)

    def _on_place(self, state: TwinPyramidState, player: str, action: Place, events: list[Event]) -> None:
        self._place(state, player, action.card, events)

    def _on_end_build(self, state: TwinPyramidState, player: str, action: EndBuild, events: list[Event]) -> None:
        state.pending = None
        flow.end_turn(state, events)

    def _on_name_suit(self, state: TwinPyramidState, player: str, action: NameSuit, events: list[Event]) -> None:
        state.pending = None
        state.top_suit = action.suit
        state.wild = Wild(owner=player, suit=action.suit)
        events.append(Event(type="suit_named", data={"player": player, "suit": action.suit}))
        flow.end_turn(state, events)

    def _on_take_two(self, state: TwinPyramidState, player: str, action: TakeTwo, events: list[Event]) -> None:
        state.pending = None
        events.append(Event(type="two_taken", data={"player": player}))
        if not flow.draw_cards(state, player, 2, events):
            flow.end_turn(state, events)

    def _on_pass_two(self, state: TwinPyramidState, player: str, action: PassTwo, events: list[Event]) -> None:
        state.pending = None
        target = state.player_at(state.next_index())
        events.append(Event(type="two_passed", data={"player": player, "to": target}))
        if rules.cards_available(state, target) == 0:
            events.append(Event(type="forced_draw_skipped", data={"player": target}))
            flow.end_turn(state, events)
        else:
            state.pending = Pending(kind="forced_draw", player=target, count=2, cause="2")

    def _on_order_three(self, state: TwinPyramidState, player: str, action: OrderThree, events: list[Event]) -> None:
        state.pending = None
        pile = state.pile_of(player)  # D19: with ``streams: per_seat`` the 3's player's own pile
        pile[len(pile) - len(action.order):] = list(reversed(action.order))
        state.peek = list(action.order)
        events.append(Event(type="three_ordered", data={"player": player}))
        self._continue_three(state, events)

    def _on_forced_draw(self, state: TwinPyramidState, player: str, action: ForcedDraw, events: list[Event]) -> None:
        cause = state.pending.cause  # type: ignore[union-attr]  # its handler runs only while a choice is pending
        state.pending = None
        if flow.draw_cards(state, player, 2 if cause == "2" else 1, events):
            return
        if cause == "3":
            self._continue_three(state, events)
        else:
            flow.end_turn(state, events)

    def _on_next_deal(self, state: TwinPyramidState, player: str, action: NextDeal, events: list[Event]) -> None:
        state.pending = None
        events += flow.start_deal(state, state.deal + 1)

    # ---- card effects -------------------------------------------------------------------
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
                flow.end_turn(state, events)
        elif rank in SPECIAL_RANKS and not effective:
            events.append(Event(type="effect_suppressed", data={"player": player, "card": card}))
            flow.end_turn(state, events)
        elif rank in self._EFFECTS:
            self._EFFECTS[rank](self, state, player, events)
        else:
            flow.end_turn(state, events)

    def _two(self, state: TwinPyramidState, player: str, events: list[Event]) -> None:
        state.pending = Pending(kind="two_choice", player=player)

    def _seven(self, state: TwinPyramidState, player: str, events: list[Event]) -> None:
        events.append(Event(type="skipped", data={"player": state.player_at(state.next_index())}))
        flow.end_turn(state, events, skip=1)

    def _eight(self, state: TwinPyramidState, player: str, events: list[Event]) -> None:
        state.pending = Pending(kind="name_suit", player=player)

    def _nine(self, state: TwinPyramidState, player: str, events: list[Event]) -> None:
        state.direction = -state.direction
        events.append(Event(type="reversed", data={"player": player, "direction": state.direction}))
        flow.end_turn(state, events)

    def _ten(self, state: TwinPyramidState, player: str, events: list[Event]) -> None:
        self._break(state, events)
        flow.end_turn(state, events)

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
            events.append(Event(type="changed_card", visible_to=[player],
                                data={"player": player, "card": action.target}))
        if mode == "wild_change":
            state.pending = Pending(kind="name_suit", player=player)
        else:
            flow.end_turn(state, events)

    def _place(self, state: TwinPyramidState, player: str, card: str, events: list[Event]) -> None:
        seat = state.seats[player]
        rules.remove_from_hand(state, player, card)
        seat.stones[rank_of(card)] = card  # type: ignore[index]  # a placeable card always has a rank
        events.append(Event(type="stone_placed", data={"player": player, "card": card, "slot": rank_of(card)}))
        if len(seat.stones) == len(SLOTS):
            flow.end_deal(state, "complete", player, events)
            return
        pending = state.pending
        assert pending is not None
        pending.count -= 1
        if pending.count <= 0 or not rules.placeable(state, player):
            state.pending = None
            flow.end_turn(state, events)

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

    def _start_three(self, state: TwinPyramidState, player: str, events: list[Event]) -> None:
        rules.refill_draw(state, player, events)
        state.peek = list(reversed(state.pile_of(player)[-3:]))  # D19: per_seat, the top of the player's own
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
            if rules.cards_available(state, drawer) == 0:
                events.append(Event(type="forced_draw_skipped", data={"player": drawer}))
            elif drawer != state.three_player:
                state.pending = Pending(kind="forced_draw", player=drawer, count=1, cause="3")
                return
            elif flow.draw_cards(state, drawer, 1, events):
                return
        state.three_player, state.peek = None, []
        flow.end_turn(state, events)

    _HANDLERS: ClassVar[dict[type[Action], Callable[..., None]]] = {
        RearrangeStep: _on_rearrange_step, Rearrange: _on_rearrange,
        SwapShown: _on_step, ToShown: _on_step, ToHeld: _on_step, SwapStone: _on_step,
        Play: _on_play, Draw: _on_draw, Change: _change, Pass: _on_pass,
        Place: _on_place, EndBuild: _on_end_build, NameSuit: _on_name_suit, TakeTwo: _on_take_two,
        PassTwo: _on_pass_two, OrderThree: _on_order_three, ForcedDraw: _on_forced_draw, NextDeal: _on_next_deal,
    }
    # What each special rank does when played (J, Q, K build; a joker names a suit; the others end the turn).
    _EFFECTS: ClassVar[dict[str, Callable[..., None]]] = {
        "2": _two, "3": _start_three, "7": _seven, "8": _eight, "9": _nine, "10": _ten,
    }
