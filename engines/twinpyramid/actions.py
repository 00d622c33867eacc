"""Actions of Twin Pyramid: one class per kind, combined as a discriminated union.

Rearrangements may come any number of times (up to ``REARRANGE_LIMIT``) before a turn's
one action or a forced draw: each is ``rearrange`` followed by one step (``swap_shown``,
``to_shown``, ``to_held`` or ``swap_stone``). The turn's one
action is ``play``, ``draw``, ``change`` or, when none of them is possible, ``pass``. The
remaining kinds answer pending decisions. ``rearrange_step`` is ``rearrange`` and its step in
one action (for user interfaces; never listed by ``legal_actions``).
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field

from ..base import Action

# ---- rearranging ----------------------------------------------------------------------


class Rearrange(Action):
    """Open the rearrangement menu: the next action is one rearrangement step.

    Keeping the steps behind this one entry keeps a decision's menu short, so that
    rearranging stays a deliberate choice (and random play does not wander in it).
    """

    type: Literal["rearrange"] = "rearrange"


class SwapShown(Action):
    """Exchange a held card with one of your shown cards."""

    type: Literal["swap_shown"] = "swap_shown"
    held: str
    shown: str


class ToShown(Action):
    """Move a held card to your shown cards (to make room in held)."""

    type: Literal["to_shown"] = "to_shown"
    card: str


class ToHeld(Action):
    """Take one of your shown cards back into held (when held has room): hand cards may be
    rearranged freely (手札同士は自由に入れ替えることが出来ます)."""

    type: Literal["to_held"] = "to_held"
    card: str


class SwapStone(Action):
    """Exchange a hand card with your own stone of the same rank."""

    type: Literal["swap_stone"] = "swap_stone"
    card: str
    stone: str


class RearrangeStep(Action):
    """``rearrange`` and its one step as a single action (a user interface's one click per step).

    Accepted exactly when ``rearrange`` followed by ``step`` would be; ``legal_actions`` lists only
    the two-action form, so menus stay short (see ``Rearrange``).
    """

    type: Literal["rearrange_step"] = "rearrange_step"
    step: Annotated[Union[SwapShown, ToShown, ToHeld, SwapStone], Field(discriminator="type")]


# ---- the turn's one action ------------------------------------------------------------


class Play(Action):
    """Play a hand card onto the discard; a joker played this way is the *wild* mode."""

    type: Literal["play"] = "play"
    card: str


class Draw(Action):
    type: Literal["draw"] = "draw"


class Change(Action):
    """Exchange an A or a joker from your hand with ``target``.

    ``owner`` is the player whose shown card is taken, or ``None`` for the discard's top
    card (with a joker that is the *wild change* mode; with an A a plain change).
    """

    type: Literal["change"] = "change"
    card: str
    target: str
    owner: str | None = None


class Pass(Action):
    """End the turn doing nothing; legal only when no play, draw or change is possible."""

    type: Literal["pass"] = "pass"


# ---- pending decisions ----------------------------------------------------------------


class Place(Action):
    """Place a hand stone in its slot of your field pyramid (after a J, Q or K)."""

    type: Literal["place"] = "place"
    card: str


class EndBuild(Action):
    type: Literal["end_build"] = "end_build"


class NameSuit(Action):
    type: Literal["name_suit"] = "name_suit"
    suit: Literal["S", "H", "D", "C"]


class TakeTwo(Action):
    """After your 2: draw the two cards yourself."""

    type: Literal["take_two"] = "take_two"


class PassTwo(Action):
    """After your 2: the next player draws the two cards."""

    type: Literal["pass_two"] = "pass_two"


class OrderThree(Action):
    """After your 3: the seen cards back on the draw pile, ``order[0]`` on top."""

    type: Literal["order_three"] = "order_three"
    order: list[str]


class ForcedDraw(Action):
    """Draw the card(s) a 2 or a 3 makes you draw (after any rearranging)."""

    type: Literal["forced_draw"] = "forced_draw"


class NextDeal(Action):
    """Start the next deal once the last one's result has been seen."""

    type: Literal["next_deal"] = "next_deal"


REARRANGE_TYPES = frozenset(("swap_shown", "to_shown", "to_held", "swap_stone"))

TwinPyramidAction = Annotated[
    Union[
        Rearrange, SwapShown, ToShown, ToHeld, SwapStone, RearrangeStep, Play, Draw, Change, Pass, Place, EndBuild,
        NameSuit,
        TakeTwo, PassTwo, OrderThree, ForcedDraw, NextDeal,
    ],
    Field(discriminator="type"),
]
