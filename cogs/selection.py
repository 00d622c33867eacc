"""A hand view's selection as a small typed model per game.

What a player has chosen in a hand view lives in the select values (stateless, so it survives a restart). A select
redraws the hand with its own values plus what the other selects show chosen, which it carries in its custom_id
(``gh:pick:<table>:<version>:<part>:<carry>``). Each game declares the model of that selection (its controls'
``selection_model``; ``Picks`` when it declares none): ``of`` reads the select values, ``values`` gives them back,
``encode``/``decode`` write and read the carry compactly. A carry that would make the custom_id longer than Discord's
100 characters is refused with ``HostError("selection_too_long")``, never cut; one that ``decode`` cannot read (a
forged custom_id) with ``HostError("selection_unreadable")``.
"""
from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Sequence, TypeVar

from bot.discord_rules.limits import CUSTOM_ID
from bot.errors import HostError
from bot.games import controls_hooks

MAX_CUSTOM_ID = CUSTOM_ID  # Discord's limit on a component's custom_id
TOKEN = re.compile(r"[!-\-/-~]+")  # a card id or select value that can be carried: printable ASCII, no space or "."
S = TypeVar("S", bound="Selection")


class Selection(ABC):
    """The base of every game's selection model (a frozen dataclass)."""

    @classmethod
    @abstractmethod
    def of(cls: type[S], values: Sequence[str]) -> S:
        """What the select values say; a value the model does not know is left out."""

    @abstractmethod
    def values(self) -> list[str]:
        """The select values this selection shows chosen."""

    @abstractmethod
    def encode(self) -> str:
        """The carry in a custom_id: printable ASCII without spaces."""

    @classmethod
    @abstractmethod
    def decode(cls: type[S], text: str) -> S:
        """The selection ``encode`` wrote; ``ValueError`` for any text it does not write."""


@dataclass(frozen=True)
class Picks(Selection):
    """Chosen cards (Akuma Trick, and a game that declares no model): ``<card>.<card>…``."""

    cards: tuple[str, ...] = ()

    @classmethod
    def of(cls, values: Sequence[str]) -> Picks:
        return cls(tuple(v for v in values if TOKEN.fullmatch(v)))

    def values(self) -> list[str]:
        return list(self.cards)

    def encode(self) -> str:
        return ".".join(self.cards)

    @classmethod
    def decode(cls, text: str) -> Picks:
        cards = tuple(text.split(".")) if text else ()
        if not all(TOKEN.fullmatch(c) for c in cards):
            raise ValueError(text)
        return cls(cards)


def selection_model(game: str) -> type[Selection]:
    return controls_hooks(game).selection_model or Picks


def pick_custom_id(game_id: int, version: int, part: int, carried: str) -> str:
    """A PickSelect's custom_id carrying ``carried`` (an encoded selection), or ``HostError("selection_too_long")``
    when it does not fit."""
    custom_id = f"gh:pick:{game_id}:{version}:{part}:{carried}"
    if len(custom_id) > MAX_CUSTOM_ID:
        raise HostError("selection_too_long", length=len(custom_id), limit=MAX_CUSTOM_ID)
    return custom_id


def decode_carry(game: str, text: str) -> Selection:
    """The carry of a clicked PickSelect, read with the game's model."""
    try:
        return selection_model(game).decode(text)
    except ValueError:
        raise HostError("selection_unreadable") from None
