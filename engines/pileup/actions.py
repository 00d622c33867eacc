"""Pile up actions (a discriminated union on ``type``)."""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field

from ..base import Action


class Roll(Action):
    """Roll the dice: three on a turn (again after a miss in the empty-hand phase), one to deflect a dump."""

    type: Literal["roll"] = "roll"


class Play(Action):
    """Play cards of number ``value`` onto column ``value``, in the order given.

    ``stacked[i]`` says whether ``cards[i]`` is stacked exactly onto the layer under it (the
    previous card's layer, or the column's top layer for the first card); it must have the
    same colour. Identical copies are used lowest id first (the legal list shows exactly these).
    """

    type: Literal["play"] = "play"
    value: int
    cards: tuple[str, ...]
    stacked: tuple[bool, ...]


class Penalty(Action):
    """No rolled value matches the hand: move this hand card to the minus cards."""

    type: Literal["penalty"] = "penalty"
    card: str


class Give(Action):
    """After a triple: hand this minus card to the next player clockwise."""

    type: Literal["give"] = "give"
    card: str


class GiveAll(Action):
    """After a triple: hand out all the minus cards still to give in one decision, in the order given: the first to
    the next player clockwise, the second to the one after (never the giver), and so on.

    Accepted exactly when ``cards`` holds as many cards as are still to hand out, each one of the giver's minus
    cards (identical copies are interchangeable); the same as that many ``give`` actions in a row. Not in
    ``legal_actions`` (the orders of a large pile are too many to list; ``give`` lists each choice once), so bots
    and menus keep giving one card at a time.
    """

    type: Literal["give_all"] = "give_all"
    cards: tuple[str, ...]


class DumpOn(Action):
    """Dump the column (being dumped) onto ``target``."""

    type: Literal["dump"] = "dump"
    target: str


class KeepColumn(Action):
    """After a successful deflect roll: keep the column instead of dumping it on (allowed, rarely wise)."""

    type: Literal["keep_column"] = "keep_column"


PileupAction = Annotated[Union[Roll, Play, Penalty, Give, GiveAll, DumpOn, KeepColumn], Field(discriminator="type")]
