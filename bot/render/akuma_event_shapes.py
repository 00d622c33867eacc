"""The data of each Akuma Trick event, as ``engines/akuma/engine.py`` builds it (``tests/test_event_shapes.py``
checks every event a game emits against these): what ``bot/render/akuma.py`` formats."""
# No postponed annotations: a TypedDict reads NotRequired from its annotations when the class is made.
from typing_extensions import TypedDict  # pydantic reads it on Python 3.11 (the test checks events by it)

from engines.akuma.rules import PlayKind
from engines.akuma.state import Direction


class Player(TypedDict):
    """``steals_stopped``: who."""

    player: str


class GameStarted(TypedDict):
    start_player: str
    colours: list[str]
    players: list[str]


class TrickStarted(TypedDict):
    first_player: str
    direction: Direction


class Played(TypedDict):
    player: str
    cards: list[str]
    kind: PlayKind
    rank: int
    reversed: bool
    direction: Direction
    lock: list[str] | None
    steals: int
    hand_size: int


class Steal(TypedDict):
    thief: str
    victim: str
    steals_left: int


class StolenCard(TypedDict):
    thief: str
    victim: str
    card: str


class Released(TypedDict):
    player: str
    cards: list[str]
    release_number: int
    sum: int
    row: list[str]
    hand_size: int


class GameOver(TypedDict):
    ranking: list[list[str]]
    scores: dict[str, int | float]
    hands: dict[str, list[str]]
