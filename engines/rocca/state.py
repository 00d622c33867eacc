"""Rocca's options and state (pydantic models)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.base import GameState
from engines.knowledge import Known
from engines.streams import StreamsOption, absent

Side = Literal["head", "face", "profile"]
Suit = Literal["S", "H", "D", "C"]
Bend = Literal["left", "right"]


class RoccaOptions(StreamsOption):
    """``streams`` (``engines.streams``): ``per_seat`` gives every seat its own draw pile (Decision [D9])."""

    model_config = ConfigDict(extra="forbid")

    bon: bool = False
    """Optional rule "Bon": out-of-turn chains of 2–3 cards of an active card's letter or number."""
    start_player: int | None = Field(default=None, ge=0)
    """Seat index of the first player (the host's pick, or the worst player of the last game); None = random."""


class TowerCard(BaseModel):
    """One card of the tower, in placement order (later cards lie on top of earlier ones)."""

    card: str
    centre: tuple[int, int]
    orientation: int  # 0..5, 0 = upright
    column: int
    height: int  # 1-based position in its column
    placer: str | None = None  # None for the start card
    on: str | None = None  # the card it was placed on
    side: Side | None = None  # the side of ``on`` it covers
    suit: Suit | None = None  # the suit a joker named
    bend: Bend | None = None  # how a joker bent the tower


class Column(BaseModel):
    """A chain of head placements; its last card is an active card."""

    cards: list[str]
    parent: str | None = None  # the card whose face or profile started it (None for the first column)


class Pending(BaseModel):
    """A decision someone must take before play goes on.

    - ``draw_chain``: ``player`` draws ``count`` (J/K chain) or places a ``rank`` card on the face of ``card``.
    - ``q_give``: ``player`` gives ``count`` cards to ``partner`` (None: the first pass, the giver picks whom);
      ``given`` so far.
    - ``q_answer``: ``player`` accepts, or places a Q on the face of ``card`` and gives ``count`` cards back to
      ``partner`` (who placed the last Q).
    """

    kind: Literal["draw_chain", "q_give", "q_answer"]
    player: str
    rank: str
    count: int
    card: str
    partner: str | None = None
    given: int = 0


DECLINES_KEPT = 3


class Declined(BaseModel):
    """A player passed up placing, in public: drew on their turn (``card`` None), or drew a J/K chain's cards
    instead of countering on the face of ``card``. ``tower``: cards in the tower then; ``since``: cards that
    reached the hand afterwards (the ones drawn then included). The latest ``DECLINES_KEPT`` per player are kept."""

    tower: int
    card: str | None = None
    since: int = 0


class RoccaState(GameState):
    game: str = "rocca"
    hands: dict[str, list[str]]
    deck: list[str]  # secret; the top is the end of the list
    tower: list[TowerCard]
    columns: list[Column]
    restricted: list[int] | None = None  # columns allowed since the last joker (None: all)
    joker: str | None = None  # the joker that set the restriction
    turn: str
    direction: Literal[1, -1] = 1
    start_player: str
    pending: Pending | None = None
    one_declared: list[str] = Field(default_factory=list)
    out: list[str] = Field(default_factory=list)  # players who went out when the pile ran dry, in order
    # public: the last times each player drew instead of placing, oldest first
    declined: dict[str, list[Declined]] = Field(default_factory=dict)
    # private to each key: rival -> the cards it passed that rival with a Q (engines/knowledge.py)
    known: Known = Field(default_factory=dict)
    winner: str | None = None
    over: bool = False
    # every seat's own draw pile, the top at the end (``streams: per_seat``; ``deck`` is then empty); secret
    own: dict[str, list[str]] | None = Field(default=None, exclude_if=absent)

    def pile_of(self, player: str) -> list[str]:
        """The pile ``player`` draws from: the draw pile, or the seat's own (``streams: per_seat``)."""
        return self.deck if self.own is None else self.own[player]
