"""Pile up's hand-view selection as a typed model: the rolled value chosen, the cards of the play so far and, on a
triple, the minus cards chosen for each player."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..selection import Selection

CARD = r"[RBGYWK][1-6][a-i]"  # colour, number, copy letter (``R3a``)
VALUE = re.compile(r"v([1-6])")  # select value of a rolled value
STEP = re.compile(rf"({CARD})([+-])")  # ... of a card added to the play: ``-`` a new layer, ``+`` stacked exactly
GIVE = re.compile(rf"([a-d])({CARD})")  # ... of a minus card for a player: ``a`` the next player, ``b`` the one after…
CARRIED = re.compile(rf"v[1-6]|{CARD}[+-]|[a-d](?:{CARD})+")  # one token of the carry


@dataclass(frozen=True)
class PileupSelection(Selection):
    """Select values ``v<n>``, ``<card>+``/``<card>-`` and ``<letter><card>``; carried without separators, the
    minus cards grouped by player: ``v3R1a+B2b-aR3aY1bbK2c``."""

    value: int | None = None
    steps: tuple[str, ...] = ()  # ``<card>+`` / ``<card>-`` in the order played
    gives: tuple[tuple[str, str], ...] = ()  # (player letter, card): each player's cards in the order chosen

    def __post_init__(self) -> None:  # one order for the same choice: the players as first chosen, as carried
        by_player: dict[str, list[tuple[str, str]]] = {}
        for give in self.gives:
            by_player.setdefault(give[0], []).append(give)
        object.__setattr__(self, "gives", tuple(g for gives in by_player.values() for g in gives))

    @classmethod
    def of(cls, values: Sequence[str]) -> PileupSelection:
        value = next((int(m.group(1)) for v in values if (m := VALUE.fullmatch(v))), None)
        steps = tuple(v for v in values if STEP.fullmatch(v))
        gives = tuple((m.group(1), m.group(2)) for v in values if (m := GIVE.fullmatch(v)))
        return cls(value, steps, gives)

    @staticmethod
    def rolled_value(value: int) -> str:
        return f"v{value}"

    @staticmethod
    def give_value(letter: str, card: str) -> str:
        return letter + card

    def values(self) -> list[str]:
        value = [self.rolled_value(self.value)] if self.value is not None else []
        return [*value, *self.steps, *(self.give_value(letter, card) for letter, card in self.gives)]

    def encode(self) -> str:
        value = f"v{self.value}" if self.value is not None else ""
        gives = "".join(card if i and self.gives[i - 1][0] == letter else letter + card
                        for i, (letter, card) in enumerate(self.gives))
        return value + "".join(self.steps) + gives

    @classmethod
    def decode(cls, text: str) -> PileupSelection:
        tokens = [m.group(0) for m in CARRIED.finditer(text)]
        if "".join(tokens) != text:
            raise ValueError(text)
        values: list[str] = []
        for token in tokens:
            if token[0] in "abcd":
                values += [token[0] + token[i:i + 3] for i in range(1, len(token), 3)]
            else:
                values.append(token)
        read = cls.of(values)
        if read.encode() != text:  # e.g. two values, or a player's cards in two groups
            raise ValueError(text)
        return read
