"""What each viewer of a Pile up table may see (docs/rules/pileup.md, "Hidden information").

Public: every column with its layers and trap, the draw pile's size (and, with ``streams: per_seat``, the size of
every seat's own pile), every hand's size, every
minus card, the dice, the pending decision and who makes it, and the hand cards revealed by a
failed roll (step 4; they stay known until they leave the hand). Secret: the rest of each hand.

``hand`` is the viewer's secret cards only (the contract's meaning); ``hand_all`` is every card
the viewer holds (secret and revealed), which is what their hand view shows.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, ClassVar, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from engines.base import View

from .cards import colour_of, number_of
from .state import DumpLink, Phase

if TYPE_CHECKING:
    from .engine import PileupEngine
    from .state import PileupState


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Layer(_Part):
    colour: str
    cards: list[str]


class Column(_Part):
    number: int  # 1..6
    layers: list[Layer]  # bottom first
    layer_count: int
    card_count: int
    trapped: bool
    trapped_by: str | None
    being_dumped: bool


class Seat(_Part):
    player: str
    seat: int
    hand_size: int
    revealed: list[str]  # hand cards everybody saw (step 4) and still in that hand
    minus: list[str]
    minus_count: int
    empty_hand: bool
    out: bool
    # the seat's own draw pile's size; None while the table shares one (``streams: shared``). A plain part, not a
    # Shape leaving it out while None: a Shape's validator and serializer made a Pile up view a fifth slower.
    pile: int | None


class RollPending(_Part):
    kind: Literal["roll"]
    player: str
    dice: int  # how many dice the roll throws
    minus_turn: bool


class PlayPending(_Part):
    kind: Literal["play"]
    player: str
    dice: list[int]
    minus_turn: bool


class PenaltyPending(_Part):
    kind: Literal["penalty"]
    player: str
    dice: list[int]


class GivePending(_Part):
    kind: Literal["give"]
    player: str
    remaining: int
    to: str
    dice: list[int]


class DumpTargetPending(_Part):
    kind: Literal["dump_target"]
    player: str
    column: int
    dumper: str
    cards: int
    chain: list[DumpLink]
    may_keep: bool
    targets: list[str]


class DeflectPending(_Part):
    kind: Literal["deflect_roll"]
    player: str
    column: int
    dumper: str
    cards: int
    chain: list[DumpLink]
    dice: int  # one die
    needs: int  # the face that deflects: the column's number


Pending = Annotated[Union[RollPending, PlayPending, PenaltyPending, GivePending, DumpTargetPending,
                          DeflectPending], Field(discriminator="kind")]


class PileupView(View):
    """``hand`` is the viewer's secret cards only; ``hand_all`` every card they hold (secret and revealed);
    ``playable_values`` the dice values the viewer can play now (their play turn only)."""

    omit_when_none: ClassVar[frozenset[str]] = frozenset({"viewer", "hand", "hand_all", "playable_values"})

    phase: Phase
    turn_player: str
    turn: int  # turns played
    minus_turn: bool
    dice: list[int]
    columns: list[Column]
    draw_pile: int  # the cards left to draw: the draw pile, or every seat's own pile together
    deck: str | None
    seats: list[Seat]
    pending: Pending | None
    hand_all: list[str] | None
    playable_values: list[int] | None

    def pile_left(self, player: str) -> int:
        """How many cards ``player`` may still draw: the draw pile's, or its own pile's (``streams: per_seat``)."""
        pile = next(seat.pile for seat in self.seats if seat.player == player)
        return self.draw_pile if pile is None else pile


def _pending(state: "PileupState") -> Pending | None:
    turn_player = state.players[state.turn]
    phase = state.phase
    if phase == "over":
        return None
    if phase == "roll":
        return RollPending(kind="roll", player=turn_player, dice=3, minus_turn=state.minus_turn)
    if phase == "play":
        return PlayPending(kind="play", player=turn_player, dice=list(state.dice), minus_turn=state.minus_turn)
    if phase == "penalty":
        return PenaltyPending(kind="penalty", player=turn_player, dice=list(state.dice))
    if phase == "give":
        return GivePending(kind="give", player=turn_player, remaining=state.give_left,
                           to=state.players[state.give_next], dice=list(state.dice))
    dump = state.dump
    assert dump is not None
    chain = [DumpLink.model_validate(link.model_dump()) for link in dump.chain]
    cards = len(state.columns[dump.column - 1].cards())
    if phase == "dump":
        return DumpTargetPending(kind="dump_target", player=dump.holder, column=dump.column, dumper=dump.dumper,
                                 cards=cards, chain=chain, may_keep=bool(dump.chain),
                                 targets=[p for p in state.players if p != dump.holder])
    return DeflectPending(kind="deflect_roll", player=dump.holder, column=dump.column, dumper=dump.dumper,
                          cards=cards, chain=chain, dice=1, needs=dump.column)


def build_view(engine: PileupEngine, state: PileupState, viewer: str | None) -> PileupView:
    columns = [Column(
        number=number,
        layers=[Layer(colour=colour_of(layer[0]), cards=list(layer)) for layer in column.layers],
        layer_count=len(column.layers),
        card_count=len(column.cards()),
        trapped=column.trapped,
        trapped_by=column.trapped_by,
        being_dumped=state.dump is not None and state.dump.column == number,
    ) for number, column in enumerate(state.columns, start=1)]
    seats = [Seat(
        player=p,
        seat=seat,
        hand_size=len(state.hands[p]),
        revealed=sorted(state.revealed[p]),
        minus=sorted(state.minus[p]),
        minus_count=len(state.minus[p]),
        empty_hand=not state.hands[p],
        out=not state.hands[p] and not state.minus[p],
        pile=None if state.own is None else len(state.own[p].pile),
    ) for seat, p in enumerate(state.players)]
    seated = viewer if viewer is not None and viewer in state.players else None
    hand = hand_all = playable = None
    if seated is not None:
        revealed = set(state.revealed[seated])
        hand_all = sorted(state.hands[seated])
        hand = [c for c in hand_all if c not in revealed]
        if state.phase == "play" and seated == state.players[state.turn]:
            source = state.minus[seated] if state.minus_turn else state.hands[seated]
            numbers = {number_of(c) for c in source}
            playable = [v for v in sorted(set(state.dice)) if v in numbers]
    result = engine.result(state)
    return PileupView(
        game="pileup",
        players=list(state.players),
        to_act=engine.to_act(state),
        viewer=seated,
        hand=hand,
        over=state.phase == "over",
        result=result,
        phase=state.phase,
        turn_player=state.players[state.turn],
        turn=state.turn_count,
        minus_turn=state.minus_turn,
        dice=list(state.dice),
        columns=columns,
        draw_pile=len(state.draw_pile) + sum(len(own.pile) for own in (state.own or {}).values()),
        deck=state.options.get("deck"),
        seats=seats,
        pending=_pending(state),
        hand_all=hand_all,
        playable_values=playable,
    )
