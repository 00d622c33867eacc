"""Diamond Box's actions: a discriminated union on ``type``."""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field

from ..base import Action

Colour = Literal["R", "Y", "G", "B", "P"]
Turn = Literal[0, 90, 180, 270]


class PlaceCard(Action):
    """Put a card from the hand on the centre, turned clockwise by ``turn`` degrees, with
    the top-left square of the turned card on grid square (x, y)."""

    type: Literal["place"] = "place"
    card: str
    turn: Turn = 0
    x: int
    y: int


class Pass(Action):
    type: Literal["pass"] = "pass"


class ChooseColour(Action):
    """The pending designated-colour choice."""

    type: Literal["choose_colour"] = "choose_colour"
    colour: Colour


DiamondBoxAction = Annotated[Union[PlaceCard, Pass, ChooseColour], Field(discriminator="type")]
