"""What each seat (or a spectator) sees of an Akuma Trick game: everything public, plus the viewer's own hand,
the cards steals took from the viewer that the thief still holds, and, when they must release, the forced discard.
Once the game is over every hand is public."""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.base import View

from .state import AkumaState, Direction

if TYPE_CHECKING:
    from .engine import AkumaEngine


class RowEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    player: str
    cards: list[str]
    kind: Literal["single", "set", "run"]


class AkumaView(View):
    """``release_forced``: the only discard the viewer may release with now (their turn, no steals pending), else
    None; ``final_hands``: every hand, once the game is over (nothing stays secret then)."""

    omit_when_none: ClassVar[frozenset[str]] = frozenset({"viewer", "hand", "final_hands"})

    hand_sizes: dict[str, int]
    row: list[RowEntry]
    last_rank: int | None
    direction: Direction
    lock: list[str] | None
    release_number: int | None  # what a release costs now; None while the row is empty
    trick_starter: str
    start_player: str
    steals_left: int | None  # None when no steals are pending
    colours_in_play: list[str]
    discarded: list[str]
    release_forced: list[str] | None
    final_hands: dict[str, list[str]] | None
    # the viewer's own: rival -> cards a steal took from the viewer, still theirs
    known: dict[str, list[str]] = Field(default_factory=dict)


def build_view(engine: AkumaEngine, state: AkumaState, viewer: str | None) -> AkumaView:
    to_act = engine.to_act(state)
    seated = viewer if viewer in state.players else None
    forced = None
    if seated is not None and seated in to_act and not state.steals_left:
        forced = engine.forced_release(state, seated)
    res = engine.result(state)
    return AkumaView(
        game=engine.name,
        players=list(state.players),
        to_act=to_act,
        viewer=seated,
        # Once the game is over every hand is public (``final_hands``); nothing stays secret.
        hand=None if seated is None else [] if state.over else list(state.hands[seated]),
        over=state.over,
        result=res,
        hand_sizes={p: len(h) for p, h in state.hands.items()},
        row=[RowEntry(player=rp.player, cards=list(rp.cards), kind=rp.kind) for rp in state.row],
        last_rank=engine.last_rank(state),
        direction=state.direction,
        lock=list(state.lock) if state.lock else None,
        release_number=engine.release_number(state) if state.row else None,
        trick_starter=state.trick_starter,
        start_player=state.start_player,
        steals_left=state.steals_left or None,
        colours_in_play=list(state.colours),
        discarded=list(state.discarded),
        release_forced=forced,
        final_hands=None if res is None else {p: list(h) for p, h in state.hands.items()},
        known={} if seated is None or res is not None else {
            p: list(cards) for p, cards in state.known.get(seated, {}).items()},
    )
