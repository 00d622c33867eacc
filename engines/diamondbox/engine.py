"""Diamond Box, rule 2: the rules engine (docs/rules/diamondbox.md).

Flow: a pending designated-colour choice (``state.choice``) or the current player's turn
(``state.current``): place a card from the hand, or pass. The colour choice is an ordinary
pending decision of whoever the rules name, so ``to_act``/``legal_actions`` cover it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypedDict

from pydantic import BaseModel

from ..base import Action, Engine, Event, Result
from ..errors import IllegalAction
from ..rng import Rng
from . import geometry
from .actions import ChooseColour, DiamondBoxAction, Pass, PlaceCard
from .cards import card_ids, distinct_turns, is_card, size_at
from .rules import allowed_turns, cards_left, centre_of, colour_choices
from .state import ColourChoice, DiamondBoxOptions, DiamondBoxState, Placed
from .view import DiamondBoxView, build_view


class FinalData(TypedDict):
    """What ``game_won`` and ``game_drawn`` tell of the end."""

    winner: str | None
    ranking: list[list[str]]
    cards_left: dict[str, int | float]


HAND_SIZE = 5
START_CARDS = 2
PASS_ROUNDS_TO_DRAW = 3


def _g(code: str, **fields: Any) -> IllegalAction:
    return IllegalAction(f"diamondbox.{code}", **fields)


class DiamondBoxEngine(Engine[DiamondBoxState, DiamondBoxAction, DiamondBoxOptions, DiamondBoxView]):
    name = "diamondbox"
    version = 1  # bump when a rules change plays stored games differently
    min_players = 2
    max_players = 4
    state_model = DiamondBoxState
    action_model = DiamondBoxAction
    options_model = DiamondBoxOptions

    # ---- setup -------------------------------------------------------------------
    def _new_game(self, players: list[str], rng: Rng, options: BaseModel, seed: int) -> DiamondBoxState:
        deck = list(card_ids())
        rng.shuffle(deck)
        order = list(players)
        rng.shuffle(order)
        # The first starting card at the origin, the second one row lower: they overlap 4 squares.
        placed = [Placed(card=deck[0], turn=0, x=0, y=0), Placed(card=deck[1], turn=0, x=0, y=1)]
        rest = deck[START_CARDS:]
        share = len(rest) // len(players)
        piles = {p: rest[i * share:(i + 1) * share] for i, p in enumerate(order)}
        hands = {p: piles[p][:HAND_SIZE] for p in order}
        piles = {p: piles[p][HAND_SIZE:] for p in order}
        return DiamondBoxState(
            game=self.name, players=list(players), seed=seed, options=options.model_dump(), rng=rng,
            order=order, hands=hands, piles=piles, placed=placed,
            choice=ColourChoice(chooser=order[-1], reason="start", then=order[0]),
        )

    # ---- who acts and what they may do -------------------------------------------
    def to_act(self, state: DiamondBoxState) -> list[str]:
        if self.is_over(state):
            return []
        if state.choice is not None:
            return [state.choice.chooser]
        return [state.current] if state.current else []

    def legal_actions(self, state: DiamondBoxState, player: str) -> list[Action]:
        if player not in self.to_act(state):
            return []
        if state.choice is not None:
            return [ChooseColour(colour=c) for c in colour_choices(state)]
        found = geometry.placements_for(centre_of(state), state.hands[player], state.designated,
                                        allowed_turns(state))
        actions: list[Action] = [PlaceCard(card=p.card, turn=p.turn, x=p.x, y=p.y) for p in found]
        actions.append(Pass())
        return actions

    def placements(self, state: DiamondBoxState, player: str) -> list[geometry.Placement]:
        """The legal placements with how many squares each covers, best first (for UIs)."""
        if player not in self.to_act(state) or state.choice is not None:
            return []
        return geometry.placements_for(centre_of(state), state.hands[player], state.designated,
                                       allowed_turns(state))

    # ---- transitions --------------------------------------------------------------
    def _apply(self, state: DiamondBoxState, player: str, action: Any) -> list[Event]:
        if state.choice is not None and not isinstance(action, ChooseColour):
            raise _g("colour_choice_pending", chooser=state.choice.chooser)
        handler = self._HANDLERS.get(type(action))
        if handler is None:
            raise _g("unknown_action")
        return handler(self, state, player, action)

    def _choose_colour(self, state: DiamondBoxState, player: str, action: ChooseColour) -> list[Event]:
        choice = state.choice
        if choice is None:
            raise _g("no_colour_choice")
        choices = colour_choices(state)
        if action.colour not in choices:
            raise _g("colour_not_allowed", colour=action.colour, choices=choices)
        previous = state.designated
        state.designated = action.colour
        state.choice = None
        state.current, state.bonus = choice.then, choice.bonus
        state.passes_in_row, state.first_passer = 0, None
        return [Event(type="colour_chosen", data={
            "player": player, "colour": action.colour, "previous": previous, "reason": choice.reason,
            "next": choice.then, "bonus": choice.bonus,
        })]

    def _pass(self, state: DiamondBoxState, player: str, action: Pass) -> list[Event]:
        state.passes_in_row += 1
        if state.first_passer is None:
            state.first_passer = player
        events = [Event(type="passed", data={"player": player, "passes_in_row": state.passes_in_row})]
        state.bonus = False
        if state.passes_in_row < len(state.order):
            state.current = self._next(state, player)
            return events
        # Everyone passed in a row: the last passer changes the colour, the first passer resumes.
        state.pass_rounds += 1
        events.append(Event(type="all_passed", data={"round": state.pass_rounds, "first_passer": state.first_passer}))
        if state.pass_rounds >= PASS_ROUNDS_TO_DRAW:
            return events + self._draw(state, "three_pass_rounds")
        choices = colour_choices(state)
        if not choices:
            return events + self._draw(state, "no_other_colour")
        state.current = None
        state.choice = ColourChoice(chooser=player, reason="all_passed", then=state.first_passer)
        return events + [self._choice_due(state, choices)]

    def _place(self, state: DiamondBoxState, player: str, action: PlaceCard) -> list[Event]:
        hand = state.hands[player]
        if action.card not in hand:
            raise _g("card_not_in_hand", card=action.card if is_card(action.card) else "?")
        turns = allowed_turns(state)
        if action.turn not in turns:
            raise _g("turn_not_allowed", turn=action.turn, turns=list(turns))
        if action.turn not in distinct_turns(action.card, turns):
            raise _g("same_as_other_turn", turn=action.turn)
        centre = centre_of(state)
        reason, covered = geometry.check_card(centre, action.card, action.turn, action.x, action.y,
                                              state.designated)
        if reason is not None:
            raise _g(reason, covered=covered, designated=state.designated)

        hand.remove(action.card)
        state.placed.append(Placed(card=action.card, turn=action.turn, x=action.x, y=action.y,
                                   player=player, covered=covered))
        geometry.place(centre, action.card, action.turn, action.x, action.y, len(state.placed) - 1)
        state.passes_in_row, state.first_passer, state.pass_rounds = 0, None, 0
        full = covered == geometry.FULL_COVER
        width, height = size_at(action.turn)
        events = [Event(type="card_placed", data={
            "player": player, "card": action.card, "turn": action.turn, "x": action.x, "y": action.y,
            "width": width, "height": height, "covered": covered, "index": len(state.placed) - 1,
            "bonus_turn": full,
        })]
        pile = state.piles[player]
        if pile:
            drawn = pile.pop(0)
            hand.append(drawn)
            events.append(Event(type="drew_card", visible_to=[player], data={"player": player, "card": drawn}))
            events.append(Event(type="card_drawn", data={
                "player": player, "hand_size": len(hand), "pile_size": len(pile)}))
        if not hand:
            state.winner = player
            state.current, state.bonus = None, False
            return events + [Event(type="game_won", data=self._final_data(state))]

        if state.designated not in geometry.visible_colours(centre):
            # The designated colour vanished: 4-5 squares -> the placer chooses, the next player
            # plays; 6 squares -> the player before the placer chooses, the placer's bonus turn.
            # Some other colour is always visible then, so this change never stalemates.
            if full:
                choice = ColourChoice(chooser=self._previous(state, player), reason="colour_gone",
                                      then=player, bonus=True)
            else:
                choice = ColourChoice(chooser=player, reason="colour_gone", then=self._next(state, player))
            state.current, state.bonus, state.choice = None, False, choice
            return events + [self._choice_due(state, colour_choices(state, centre))]
        if full:
            state.current, state.bonus = player, True
            events.append(Event(type="bonus_turn", data={"player": player}))
        else:
            state.current, state.bonus = self._next(state, player), False
        return events

    # ---- helpers -----------------------------------------------------------------
    _HANDLERS: ClassVar[dict[type[Action], Callable[..., list[Event]]]] = {
        ChooseColour: _choose_colour, Pass: _pass, PlaceCard: _place,
    }

    def _next(self, state: DiamondBoxState, player: str) -> str:
        return state.order[(state.order.index(player) + 1) % len(state.order)]

    def _previous(self, state: DiamondBoxState, player: str) -> str:
        return state.order[(state.order.index(player) - 1) % len(state.order)]

    def _choice_due(self, state: DiamondBoxState, choices: list[str]) -> Event:
        choice = state.choice
        assert choice is not None
        return Event(type="colour_choice_due", data={
            "chooser": choice.chooser, "reason": choice.reason, "then": choice.then,
            "bonus": choice.bonus, "choices": choices, "previous": state.designated,
        })

    def _draw(self, state: DiamondBoxState, reason: str) -> list[Event]:
        state.draw_reason = reason  # type: ignore[assignment]  # callers pass one of the Literal reasons
        state.current, state.bonus, state.choice = None, False, None
        return [Event(type="game_drawn", data={"reason": reason, **self._final_data(state)})]

    def _final_data(self, state: DiamondBoxState) -> FinalData:
        result = self.result(state)
        assert result is not None
        return FinalData(winner=state.winner, ranking=result.ranking, cards_left=result.scores)

    # ---- end and views -----------------------------------------------------------
    def is_over(self, state: DiamondBoxState) -> bool:
        return state.winner is not None or state.draw_reason is not None

    def held_at_end(self, state: DiamondBoxState) -> dict[str, list[str]]:
        """Every seat's "Cards left" as the result counts them: its hand and its own pile."""
        return {p: [*state.hands[p], *state.piles[p]] for p in state.players}

    def result(self, state: DiamondBoxState) -> Result | None:
        if not self.is_over(state):
            return None
        left = {p: cards_left(state, p) for p in state.order}
        if state.winner is None:
            return Result(ranking=[list(state.order)], scores=left)
        others = sorted({left[p] for p in state.order if p != state.winner})
        ranking = [[state.winner]] + [
            [p for p in state.order if p != state.winner and left[p] == n] for n in others
        ]
        return Result(ranking=ranking, scores=left)

    def view(self, state: DiamondBoxState, viewer: str | None) -> DiamondBoxView:
        return build_view(self, state, viewer)
