"""Pile up state, options and the models inside them."""
from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..base import GameState
from ..rng import Rng
from ..streams import StreamsOption, absent
from .cards import DEFAULT_DECK, colour_of, deck_spec, parse_deck

Phase = Literal["roll", "play", "penalty", "give", "dump", "deflect", "over"]


class PileupOptions(StreamsOption):
    """Table options. ``deck``: copies of each number 1-6 per colour, e.g. ``R2B2G2Y2W1K1``; ``streams``
    (``engines.streams``): ``per_seat`` gives every seat its own draw pile, dice and deflect die (Decision [D5])."""

    model_config = ConfigDict(extra="forbid")

    deck: str = DEFAULT_DECK

    @field_validator("deck", mode="before")
    @classmethod
    def _canonical_deck(cls, value: Any) -> str:
        return deck_spec(parse_deck(value))


class Column(BaseModel):
    """One of the six columns: a stack of layers (bottom first). A layer is one card or
    several cards of one colour stacked exactly; it counts as one."""

    layers: list[list[str]] = []
    trapped: bool = False
    trapped_by: Optional[str] = None

    def top_colour(self) -> str | None:
        return colour_of(self.layers[-1][0]) if self.layers else None

    def cards(self) -> list[str]:
        return [c for layer in self.layers for c in layer]


class DumpLink(BaseModel):
    """One step of a dump chain: ``source`` dumped onto ``target``, who then rolled ``die``."""

    source: str
    target: str
    die: Optional[int] = None


class Dump(BaseModel):
    """A column being dumped (擦り付け) after a play whose last white/black card was white."""

    column: int  # 1..6, also the number a deflect roll needs
    dumper: str  # the player whose white card started it
    holder: str  # who decides now: chooses a target (phase dump) or rolls to deflect (phase deflect)
    chain: list[DumpLink] = []


class OwnStreams(BaseModel):
    """One seat's own streams (option ``streams: per_seat``): its draw pile (the next draw is the first card), the
    RNG of its turn rolls and the RNG of its deflect rolls."""

    pile: list[str]
    dice: Rng
    deflect: Rng


class PileupState(GameState):
    game: str = "pileup"
    draw_pile: list[str]
    hands: dict[str, list[str]]
    revealed: dict[str, list[str]]  # hand cards everybody saw (step 4) and that are still in hand
    minus: dict[str, list[str]]
    columns: list[Column]  # index 0 is column 1
    turn: int = 0  # seat index of the turn player
    turn_count: int = 1
    phase: Phase = "roll"
    minus_turn: bool = False  # the turn player's hand is empty: they play a minus card this turn
    dice: list[int] = Field(default_factory=list)  # the turn player's last roll of three dice
    give_left: int = 0  # minus cards still to hand out after a triple
    give_next: int = 0  # seat index of the next recipient
    dump: Optional[Dump] = None
    # per seat (``streams: per_seat``); then ``draw_pile`` is empty
    own: Optional[dict[str, OwnStreams]] = Field(default=None, exclude_if=absent)

    def pile_of(self, player: str) -> list[str]:
        """The pile ``player`` draws from: the draw pile, or the seat's own (``streams: per_seat``)."""
        return self.draw_pile if self.own is None else self.own[player].pile
