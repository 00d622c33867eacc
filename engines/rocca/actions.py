"""Rocca's actions: a discriminated union on ``type``."""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field

from engines.base import Action

from .state import Bend, Side, Suit


class Place(Action):
    """Place ``card`` from hand on ``side`` of the active card ``on``; a joker also names ``suit`` and ``bend``."""

    type: Literal["place"] = "place"
    card: str
    on: str
    side: Side
    suit: Suit | None = None
    bend: Bend | None = None


class Draw(Action):
    """Draw one card instead of placing; the turn ends."""

    type: Literal["draw"] = "draw"


class Accept(Action):
    """Take the pending J/K draws (and lose the turn), or let a Q pass stand."""

    type: Literal["accept"] = "accept"


class Give(Action):
    """Give one card to ``to`` during a Q pass (the first pass picks the receiver; give-backs go to the giver)."""

    type: Literal["give"] = "give"
    card: str
    to: str


class DeclareOne(Action):
    type: Literal["declare_one"] = "declare_one"


class Bon(Action):
    """Optional rule: place ``cards`` (2–3 of one rank, in suit order) in a chain from the active card ``on``."""

    type: Literal["bon"] = "bon"
    on: str
    cards: tuple[str, ...]


RoccaAction = Annotated[Union[Place, Draw, Accept, Give, DeclareOne, Bon], Field(discriminator="type")]
