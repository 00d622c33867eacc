"""The data of each Twin Pyramid event, as ``engines/twinpyramid`` builds it (``tests/test_event_shapes.py`` checks
every event a game emits against these): what ``bot/render/twinpyramid_events.py`` formats."""
# No postponed annotations: a TypedDict reads NotRequired from its annotations when the class is made.
from typing import Literal, NotRequired

from typing_extensions import TypedDict  # pydantic reads it on Python 3.11 (the test checks events by it)


class Player(TypedDict):
    """``nothing_to_build``, ``two_taken``, ``three_ordered``, ``skipped``, ``break_missed``, ``passed``,
    ``forced_draw_skipped``, ``turn``: who."""

    player: str


class PlayerCard(TypedDict):
    """``effect_suppressed``, ``changed_card``, ``drew_card``: who, and the card."""

    player: str
    card: str


class Cards(TypedDict):
    """``dealt``, ``three_seen``: cards one player sees."""

    cards: list[str]


class DealStarted(TypedDict):
    deal: int
    deals_total: int
    start_player: str
    flipped: list[str]
    top: str


class Rearranged(TypedDict):
    """The public part of a rearrangement: ``to_shown`` the card that became shown; ``slot`` and ``stone`` for a
    stone swapped."""

    player: str
    kind: Literal["swap_shown", "to_shown", "to_held", "swap_stone"]
    to_shown: NotRequired[str]
    slot: NotRequired[str]
    stone: NotRequired[str]


class RearrangedDetail(TypedDict):
    """The whole step, for its player only: the step action's fields."""

    player: str
    type: Literal["swap_shown", "to_shown", "to_held", "swap_stone"]
    held: NotRequired[str]
    shown: NotRequired[str]
    card: NotRequired[str]
    stone: NotRequired[str]


# "from" is a keyword: the functional form.
Played = TypedDict("Played", {"player": str, "card": str, "from": Literal["held", "shown"]})


class TwoPassed(TypedDict):
    player: str
    to: str


class SuitNamed(TypedDict):
    player: str
    suit: str


class Reversed(TypedDict):
    player: str
    direction: int


class Stone(TypedDict):
    """``stone_placed``, ``stone_broken``: whose, the card, and its slot (its rank)."""

    player: str
    card: str
    slot: str | None


class Changed(TypedDict):
    """``target`` only when the card taken went to shown (taken into held, it is secret)."""

    player: str
    card: str
    owner: str | None
    mode: Literal["wild_change", "change", "a_change"]
    into: Literal["held", "shown"]
    target: NotRequired[str]


class Drew(TypedDict):
    """``card`` only when it went to shown."""

    player: str
    zone: Literal["held", "shown"]
    card: NotRequired[str]


class Reshuffled(TypedDict):
    """The draw pile rebuilt from the discard; with per-seat streams (D19) the drawer's own pile, ``own_pile``
    cards."""

    draw_count: NotRequired[int]
    player: NotRequired[str]
    own_pile: NotRequired[int]


class DealEnded(TypedDict):
    """The deal's outcome (``DealOutcome``), each seat's points after it, and whether it was the match's last."""

    number: int
    reason: Literal["complete", "burst", "stalled", "turn_limit"]
    player: str | None
    revealed: list[str]
    payments: dict[str, int]
    turn_limit: int | None
    points: dict[str, int]
    last: bool


class MatchOver(TypedDict):
    ranking: list[list[str]]
    scores: dict[str, int | float]
