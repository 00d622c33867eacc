"""What each seat (or a spectator) sees of a Diamond Box game.

Everything a renderer needs comes from here: the visible centre square by square, every
placement in order with its outline, the designated colour, counts, the pending decision and
who takes it. Secret: hands (only the viewer's own) and every pile's contents.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from engines.base import View

from . import geometry
from .cards import colour_of, pattern_of, size_at
from .rules import allowed_turns, centre_of, colour_choices
from .state import DiamondBoxState, Placed

if TYPE_CHECKING:
    from .engine import DiamondBoxEngine


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CentreSquare(_Part):
    """One visible square of the centre: the top card's frame colour and diamond there."""

    x: int
    y: int
    colour: str
    diamond: str  # "w", "b" or "." (nothing)
    card: str
    placement: int  # the index in ``placements`` of the card on top


class PlacedCard(_Part):
    index: int
    card: str
    colour: str
    turn: int
    x: int
    y: int
    width: int
    height: int
    player: str | None  # None for the two starting cards
    covered: int


class ColourChoice(_Part):
    chooser: str
    reason: Literal["start", "colour_gone", "all_passed"]
    then: str  # whose turn it is once the colour is chosen
    bonus: bool  # that turn is a bonus turn
    choices: list[str]


class Bounds(_Part):
    min_x: int
    max_x: int
    min_y: int
    max_y: int


class CardFace(_Part):
    """What a renderer needs to draw a card: colour and rows of diamonds."""

    card: str
    colour: str
    rows: list[str]


class DiamondBoxView(View):
    """``turn``: whose placing turn it is (None while a colour is chosen, and once over); ``hand_faces``: the
    viewer's cards as pictures."""

    omit_when_none: ClassVar[frozenset[str]] = frozenset({"viewer", "hand", "hand_faces"})

    order: list[str]  # turn order
    phase: Literal["play", "choose_colour", "over"]
    turn: str | None
    bonus_turn: bool
    designated: str | None
    colour_choice: ColourChoice | None
    centre: list[CentreSquare]
    bounds: Bounds
    visible_colours: list[str]
    placements: list[PlacedCard]
    last_placement: int | None  # index of the last card a player placed
    hand_sizes: dict[str, int]
    pile_sizes: dict[str, int]
    passes_in_row: int
    first_passer: str | None
    pass_rounds: int
    allowed_turns: list[int]
    winner: str | None
    draw_reason: Literal["no_other_colour", "three_pass_rounds"] | None
    hand_faces: list[CardFace] | None


def card_face(card: str) -> CardFace:
    return CardFace(card=card, colour=colour_of(card), rows=pattern_of(card).split("/"))


def _phase(engine: DiamondBoxEngine, state: DiamondBoxState) -> Literal["play", "choose_colour", "over"]:
    if engine.is_over(state):
        return "over"
    return "choose_colour" if state.choice is not None else "play"


def _placement(index: int, p: Placed) -> PlacedCard:
    width, height = size_at(p.turn)
    return PlacedCard(index=index, card=p.card, colour=colour_of(p.card), turn=p.turn, x=p.x, y=p.y,
                      width=width, height=height, player=p.player, covered=p.covered)


def build_view(engine: DiamondBoxEngine, state: DiamondBoxState, viewer: str | None) -> DiamondBoxView:
    centre = centre_of(state)
    choice = None
    if state.choice is not None:
        choice = ColourChoice(chooser=state.choice.chooser, reason=state.choice.reason, then=state.choice.then,
                              bonus=state.choice.bonus, choices=colour_choices(state, centre))
    seated = viewer if viewer is not None and viewer in state.hands else None
    hand = list(state.hands[seated]) if seated is not None else None
    result = engine.result(state)
    return DiamondBoxView(
        game=engine.name,
        players=list(state.players),
        to_act=engine.to_act(state),
        viewer=seated,
        hand=hand,
        over=result is not None,
        result=result,
        order=list(state.order),
        phase=_phase(engine, state),
        turn=state.current,
        bonus_turn=state.bonus,
        designated=state.designated,
        colour_choice=choice,
        centre=[CentreSquare(x=x, y=y, colour=sq.colour, diamond=sq.diamond, card=sq.card, placement=sq.index)
                for (x, y), sq in sorted(centre.items(), key=lambda item: (item[0][1], item[0][0]))],
        bounds=Bounds.model_validate(geometry.bounds(centre)),
        visible_colours=sorted(geometry.visible_colours(centre)),
        placements=[_placement(i, p) for i, p in enumerate(state.placed)],
        last_placement=len(state.placed) - 1 if state.placed[-1].player is not None else None,
        hand_sizes={p: len(state.hands[p]) for p in state.order},
        pile_sizes={p: len(state.piles[p]) for p in state.order},
        passes_in_row=state.passes_in_row,
        first_passer=state.first_passer,
        pass_rounds=state.pass_rounds,
        allowed_turns=list(allowed_turns(state)),
        winner=state.winner,
        draw_reason=state.draw_reason,
        hand_faces=None if hand is None else [card_face(c) for c in hand],
    )
