"""Seat helpers shared by the engines (pure; randomness only from the game's ``Rng``)."""
from __future__ import annotations

from .errors import BadOptions
from .rng import Rng


def choose_start_player(players: list[str], rng: Rng, seat: int | None) -> str:
    """The start player: seat ``seat`` (the ``start_player`` option), or one drawn from ``rng`` when None.

    A seat outside ``0..n-1`` is BadOptions. The RNG is used only when no seat is given."""
    n = len(players)
    if seat is None:
        return players[rng.randbelow(n)]
    if 0 <= seat < n:
        return players[seat]
    raise BadOptions(option="start_player", reason=f"must be a seat index 0..{n - 1}")
