"""The data of each Diamond Box event, as ``engines/diamondbox/engine.py`` builds it (``tests/test_event_shapes.py``
checks every event a game emits against these): what ``bot/render/diamondbox.py`` formats."""
# No postponed annotations: a TypedDict reads NotRequired from its annotations when the class is made.
from typing import Literal

from typing_extensions import TypedDict  # pydantic reads it on Python 3.11 (the test checks events by it)

from engines.diamondbox.actions import Colour, Turn

ChoiceReason = Literal["start", "colour_gone", "all_passed"]


class Player(TypedDict):
    """``bonus_turn``: who."""

    player: str


class ColourChosen(TypedDict):
    player: str
    colour: Colour
    previous: str | None
    reason: ChoiceReason
    next: str
    bonus: bool


class ColourChoiceDue(TypedDict):
    chooser: str
    reason: ChoiceReason
    then: str
    bonus: bool
    choices: list[str]
    previous: str | None


class Passed(TypedDict):
    player: str
    passes_in_row: int


class AllPassed(TypedDict):
    round: int
    first_passer: str | None


class CardPlaced(TypedDict):
    player: str
    card: str
    turn: Turn
    x: int
    y: int
    width: int
    height: int
    covered: int
    index: int
    bonus_turn: bool


class DrewCard(TypedDict):
    player: str
    card: str


class CardDrawn(TypedDict):
    player: str
    hand_size: int
    pile_size: int


class GameWon(TypedDict):
    """The engine's ``FinalData``."""

    winner: str | None
    ranking: list[list[str]]
    cards_left: dict[str, int | float]


class GameDrawn(GameWon):
    reason: Literal["no_other_colour", "three_pass_rounds"]
