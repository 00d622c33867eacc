"""Options and state of Diamond Box (rule 2)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..base import GameState
from ..streams import StreamsOption


class DiamondBoxOptions(StreamsOption):
    """Table options. ``turns``: ``half`` = cards may be turned 0° or 180°,
    ``all`` = also 90° and 270° (the card lies 3 wide and 2 high). ``streams`` (``engines.streams``): both values
    play the same game, since every player already has their own pile and nothing is random after the deal
    (Decision [D6])."""

    model_config = ConfigDict(extra="forbid")

    turns: Literal["half", "all"] = "all"


class Placed(BaseModel):
    """One card on the centre, in the order placed (the two starting cards have no player)."""

    card: str
    turn: int
    x: int
    y: int
    player: str | None = None
    covered: int = 0


class ColourChoice(BaseModel):
    """A pending designated-colour choice: who chooses, why, and who plays after."""

    chooser: str
    reason: Literal["start", "colour_gone", "all_passed"]
    then: str           # whose turn it is once the colour is chosen
    bonus: bool = False  # that turn is the placer's bonus turn (a 6-square cover)


class DiamondBoxState(GameState):
    order: list[str]                 # turn order (random); ``players`` stays the seat order
    hands: dict[str, list[str]]      # secret
    piles: dict[str, list[str]]      # secret, face down; the next draw is the first card
    placed: list[Placed]             # public, bottom first
    designated: str | None = None
    current: str | None = None       # whose turn it is (None while a colour is chosen / over)
    bonus: bool = False              # the current turn is a bonus turn
    choice: ColourChoice | None = None
    passes_in_row: int = 0           # consecutive passes since the last placement or colour change
    first_passer: str | None = None  # who opened the current run of passes
    pass_rounds: int = 0             # full rounds of passes in a row since the last placement
    winner: str | None = None
    draw_reason: Literal["no_other_colour", "three_pass_rounds"] | None = None
