"""Per-seat streams: the ``streams`` option every game with a shared pile or shared dice takes the same way
(docs/engine-contract.md, "Per-seat streams").

``shared`` (the default) is the original game: one shuffled draw pile and one RNG for the whole table.
``per_seat`` gives every seat its own draw pile, cut from the one shuffled deck at the deal, and its own RNG for
each kind of random outcome after the deal (dice, a deflect roll, a random steal), split from the game's RNG at
the deal. Two tables dealt with the same seed, options and seat count then give each seat the same cards, draws
and rolls in the same order whatever the other seats do — what a same-deal tournament round compares.

The option is left out of the options' dump while it is ``shared``, and so is a state's ``own`` field while it is
None (``Field(default=None, exclude_if=absent)``): a game dealt before the option existed dumps, digests
(``bot.replay.state_digest``) and replays exactly as it did.
"""
from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, SerializerFunctionWrapHandler, model_serializer

from .rng import Rng

T = TypeVar("T")
STREAMS_FIELD = "streams"


class Streams(StrEnum):
    SHARED = "shared"
    PER_SEAT = "per_seat"


class StreamsOption(BaseModel):
    """The ``streams`` field of a game's options model (a base class of it). Not a ``/play`` option: a same-deal
    tournament round sets it (``tournament_only``); a casual table plays the original."""

    tournament_only: ClassVar[frozenset[str]] = frozenset({STREAMS_FIELD})

    streams: Streams = Streams.SHARED

    @property
    def per_seat(self) -> bool:
        return self.streams is Streams.PER_SEAT

    @model_serializer(mode="wrap")
    def _shared_left_out(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if self.streams is Streams.SHARED:
            data.pop(STREAMS_FIELD, None)
        elif STREAMS_FIELD in data:
            data[STREAMS_FIELD] = self.streams.value  # plain JSON in the state's options, as the other options
        return data


def absent(value: Any) -> bool:
    """``exclude_if`` of a state's ``own`` field: left out of the dump while None (``shared``). A field's
    ``exclude_if`` costs nothing measurable, where a model serializer doubled the state's dump time."""
    return value is None


def split(rng: Rng) -> Rng:
    """A new stream split from ``rng`` (one draw of it)."""
    return Rng(state=rng.next_u64())


def ticket(stream: Rng) -> Rng:
    """A generator for one random outcome, taking exactly one draw of ``stream``: the k-th outcome of a seat's
    stream then depends on k alone, even when an earlier outcome needed a retry (``Rng.randbelow``)."""
    return Rng(state=stream.next_u64())


def cut(cards: list[T], players: list[str]) -> dict[str, list[T]]:
    """``cards`` dealt round the table one at a time from the first seat: every seat's own pile, in the order the
    cards came (sizes differ by at most one; the first seats get the extra cards)."""
    n = len(players)
    return {p: cards[i::n] for i, p in enumerate(players)}
