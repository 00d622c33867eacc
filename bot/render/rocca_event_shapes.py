"""The data of each Rocca event, as ``engines/rocca/engine.py`` builds it (``tests/test_event_shapes.py`` checks
every event a game emits against these): what ``bot/render/rocca.py`` formats."""
# No postponed annotations: a TypedDict reads NotRequired from its annotations when the class is made.
from typing import Literal, NotRequired

from typing_extensions import TypedDict  # pydantic reads it on Python 3.11 (the test checks events by it)

from engines.rocca.state import Bend, Side, Suit


class Player(TypedDict):
    """``one_declared``, ``again``, ``turn_lost``, ``q_accepted``, ``went_out``: who."""

    player: str


class GameStarted(TypedDict):
    players: list[str]
    start_player: str
    start_card: str
    bon: bool


class Placed(TypedDict):
    player: str
    card: str
    on: str
    side: Side
    label: str
    on_label: str
    suit: Suit | None
    bend: Bend | None
    cards_left: int


class TowerBent(TypedDict):
    player: str
    joker: str
    suit: Suit | None
    bend: Bend | None


class BonPlayed(TypedDict):
    player: str
    on: str
    cards: list[str]
    labels: list[str]
    interrupted: str
    cards_left: int


class Reversed(TypedDict):
    player: str
    direction: Literal[1, -1]


class DrawChain(TypedDict):
    rank: str
    count: int
    target: str
    by: str


class QCountered(TypedDict):
    player: str
    to: str | None
    count: int


class QPass(TypedDict):
    giver: str
    receiver: str
    count: int


class CardPassed(TypedDict):
    giver: str
    receiver: str
    card: str


class Drew(TypedDict):
    """``pile`` the shared pile's cards left, or ``own_pile`` the drawer's own (``streams: per_seat``)."""

    player: str
    count: int
    wanted: int
    pile: NotRequired[int]
    own_pile: NotRequired[int]


class DrewCards(TypedDict):
    player: str
    cards: list[str]


class OneMissing(TypedDict):
    player: str
    penalty: int


class PlayerOut(TypedDict):
    """``own_pile`` (always 0) when every seat draws from its own pile."""

    player: str
    cards_left: int
    own_pile: NotRequired[int]


class GameOver(TypedDict):
    ranking: list[list[str]]
