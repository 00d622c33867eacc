"""The data of each Pile up event, as ``engines/pileup/engine.py`` builds it (``tests/test_event_shapes.py`` checks
every event a game emits against these): what ``bot/render/pileup.py`` formats."""
# No postponed annotations: a TypedDict reads NotRequired from its annotations when the class is made.
from typing import NotRequired

from typing_extensions import TypedDict  # pydantic reads it on Python 3.11 (the test checks events by it)


class Rolled(TypedDict):
    player: str
    dice: list[int]
    minus_turn: bool


class Triple(TypedDict):
    player: str
    dice: list[int]
    sum: int
    gives: int


class Reroll(TypedDict):
    player: str
    dice: list[int]


class HandRevealed(TypedDict):
    player: str
    dice: list[int]
    cards: list[str]


class Played(TypedDict):
    player: str
    column: int
    cards: list[str]
    stacked: list[bool]
    from_minus: bool
    layers: int
    outcome: str


class DumpStarted(TypedDict):
    """``cards``: how many the dumped column holds."""

    player: str
    column: int
    cards: int


class ColumnTrapped(TypedDict):
    player: str
    column: int


class PenaltyTaken(TypedDict):
    player: str
    card: str


class MinusGiven(TypedDict):
    player: str
    to: str
    card: str
    left: int


class Dumped(TypedDict):
    player: str
    to: str
    column: int
    cards: int
    step: int


class DeflectRolled(TypedDict):
    player: str
    die: int
    column: int
    deflected: bool


class ColumnTaken(TypedDict):
    player: str
    column: int
    cards: list[str]
    reason: str
    minus_count: int


class Drew(TypedDict):
    player: str
    cards: list[str]


class Refilled(TypedDict):
    """``draw_pile`` the shared pile's cards left, or ``own_pile`` the drawer's own (``streams: per_seat``)."""

    player: str
    count: int
    hand_size: int
    draw_pile: NotRequired[int]
    own_pile: NotRequired[int]


class TurnStarted(TypedDict):
    player: str
    minus_turn: bool
    skipped: list[str]
    turn: int


class GameOver(TypedDict):
    ranking: list[list[str]]
    minus: dict[str, int | float]
