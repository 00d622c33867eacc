"""The toy game's rules: two secret cards each from T1..T9, one played face up per turn, highest total wins."""
from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from engines import Action, Engine, Event, GameState, IllegalAction, Result
from engines.rng import Rng

from .view import ToyView

HAND = 2


class ToyOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayCard(Action):
    type: Literal["play"] = "play"
    card: str


ToyAction = Annotated[Union[PlayCard], Field(discriminator="type")]


class ToyState(GameState):
    hands: dict[str, list[str]]
    played: dict[str, list[str]]
    turn: int = 0


def value(card: str) -> int:
    return int(card[1:])


class ToyEngine(Engine["ToyState", PlayCard, ToyOptions, ToyView]):
    name = "toy"
    version = 1
    min_players = 2
    max_players = 3
    state_model = ToyState
    action_model = ToyAction
    options_model = ToyOptions

    def _new_game(self, players: list[str], rng: Rng, options: BaseModel, seed: int) -> ToyState:
        deck = [f"T{n}" for n in range(1, 10)]
        rng.shuffle(deck)
        hands = {p: sorted(deck[i * HAND:(i + 1) * HAND]) for i, p in enumerate(players)}
        return ToyState(game=self.name, players=players, seed=seed, options=options.model_dump(), rng=rng,
                        hands=hands, played={p: [] for p in players})

    def start_events(self, state: ToyState) -> list[Event]:
        return [Event(type="dealt", data={"players": state.players, "cards": HAND})]

    def to_act(self, state: ToyState) -> list[str]:
        player = state.players[state.turn % len(state.players)]
        return [player] if state.hands[player] else []

    def legal_actions(self, state: ToyState, player: str) -> list[Action]:
        return [PlayCard(card=c) for c in state.hands[player]] if player in self.to_act(state) else []

    def _apply(self, state: ToyState, player: str, action: Any) -> list[Event]:
        if action.card not in state.hands[player]:
            raise IllegalAction("toy.not_in_hand", card=action.card)
        state.hands[player].remove(action.card)
        state.played[player].append(action.card)
        state.turn += 1
        return [Event(type="played", data={"player": player, "card": action.card})]

    def view(self, state: ToyState, viewer: str | None) -> ToyView:
        seated = viewer if viewer in state.hands else None
        result = self.result(state)
        return ToyView(game=self.name, players=list(state.players), to_act=self.to_act(state),
                       viewer=viewer, hand=list(state.hands[seated]) if seated is not None else None,
                       over=result is not None, result=result,
                       played={p: list(c) for p, c in state.played.items()},
                       hand_sizes={p: len(h) for p, h in state.hands.items()})

    def result(self, state: ToyState) -> Result | None:
        if self.to_act(state):
            return None
        scores = {p: sum(value(c) for c in cards) for p, cards in state.played.items()}
        ranking = [[p for p in state.players if scores[p] == s] for s in sorted(set(scores.values()), reverse=True)]
        return Result(ranking=ranking, scores=scores)
