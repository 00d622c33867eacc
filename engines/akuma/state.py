"""Akuma Trick's options and state (pydantic models)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.base import GameState
from engines.knowledge import Known
from engines.rng import Rng
from engines.streams import StreamsOption, absent

Direction = Literal["cw", "ccw"]
"""``cw``: seat order increasing (the starting direction); ``ccw``: decreasing."""


class AkumaOptions(StreamsOption):
    """``streams`` (``engines.streams``): ``per_seat`` gives every seat its own RNG for the cards its steals take
    (Decision [D8])."""

    model_config = ConfigDict(extra="forbid")

    start_player: int | None = None
    """Seat index (0..n-1) of the start player; None draws one from the game's RNG."""


class RowPlay(BaseModel):
    """One play lying in the row of the current trick (cards low to high)."""

    player: str
    cards: list[str]
    kind: Literal["single", "set", "run"]


class AkumaState(GameState):
    game: str = "akuma"
    colours: list[str]
    hands: dict[str, list[str]]  # secret; each kept sorted by rank, then colour
    row: list[RowPlay] = Field(default_factory=list)
    direction: Direction = "cw"
    lock: list[str] | None = None
    current: str  # the player to act
    trick_starter: str
    start_player: str
    steals_left: int = 0  # > 0 while ``current`` decides on steals after a play with 2s
    # every card that left the game (released rows and discards); public
    discarded: list[str] = Field(default_factory=list)
    # private to each key: thief -> the cards a steal took from that player (engines/knowledge.py)
    known: Known = Field(default_factory=dict)
    over: bool = False
    # every seat's own RNG for the cards its steals take (``streams: per_seat``); secret
    own: dict[str, Rng] | None = Field(default=None, exclude_if=absent)
