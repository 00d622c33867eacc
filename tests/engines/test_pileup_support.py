"""Helpers shared by the Pile up test files (no tests here): build states directly and fix dice."""
from __future__ import annotations

from engines.pileup import PileupEngine, PileupState, Play
from engines.pileup.state import Column
from engines.rng import Rng

ENG = PileupEngine()
P3 = ["ann", "bob", "cat"]


def rng_for(*dice: int) -> Rng:
    """An Rng whose next ``len(dice)`` die rolls are ``dice`` (found by search, deterministic)."""
    for seed in range(2_000_000):
        rng = Rng(state=seed)
        if all(rng.randint(1, 6) == d for d in dice):
            return Rng(state=seed)
    raise AssertionError(f"no rng found for {dice}")


def col(*layers: str) -> Column:
    """A column from layer texts: ``col("R3a", "B3a+B3b")`` is two layers, the top one stacked."""
    return Column(layers=[layer.split("+") for layer in layers])


def table(
    players: list[str] | None = None,
    *,
    hands: dict[str, list[str]] | None = None,
    minus: dict[str, list[str]] | None = None,
    columns: dict[int, Column] | None = None,
    pile: list[str] | None = None,
    turn: int = 0,
    phase: str = "roll",
    dice: list[int] | None = None,
    rolls: tuple[int, ...] = (),
    deck: str | None = None,
) -> PileupState:
    """A state built directly: everything not given is empty (no hands, no pile)."""
    players = players or list(P3)
    state = ENG.new_game(players, seed=1, options={"deck": deck} if deck else None)
    state.hands = {p: sorted((hands or {}).get(p, [])) for p in players}
    state.revealed = {p: [] for p in players}
    state.minus = {p: list((minus or {}).get(p, [])) for p in players}
    state.columns = [(columns or {}).get(n, Column()) for n in range(1, 7)]
    state.draw_pile = list(pile or [])
    state.turn = turn
    state.phase = phase  # type: ignore[assignment]
    state.dice = list(dice or [])
    state.minus_turn = not state.hands[players[turn]]
    if rolls:
        state.rng = rng_for(*rolls)
    return state


def play(*cards: str, stacked: tuple[bool, ...] | None = None) -> Play:
    """A play of ``cards`` (all one number); ``stacked`` defaults to no exact stacking."""
    value = int(cards[0][1])
    return Play(value=value, cards=tuple(cards), stacked=stacked or tuple(False for _ in cards))


def layers(state: PileupState, number: int) -> list[list[str]]:
    return state.columns[number - 1].layers


def types(events) -> list[str]:
    return [e.type for e in events]


def event(events, kind: str):
    found = [e for e in events if e.type == kind]
    assert found, f"no {kind} event in {types(events)}"
    return found[0]
