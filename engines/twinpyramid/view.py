"""What one viewer may see of a Twin Pyramid table (everything a renderer needs).

Secret: held cards of other players (only counted), the draw pile (``streams: per_seat``: every seat's own pile,
only its size shown), the cards seen with a 3 (only their player, while they are still on the draw pile). A
revealed hand is public, so its held cards leave the owner's secret ``hand`` and appear at the table.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from engines.base import Shape, View

from .cards import BUILD_LIMIT, BURST_SIZE, HELD_LIMIT, PYRAMID_ROWS, SLOTS, SUPPORTS
from .state import REARRANGE_LIMIT, PendingKind, TwinPyramidState

if TYPE_CHECKING:
    from .engine import TwinPyramidEngine


class Geometry(Shape):
    """The pyramid's shape and the game's limits (the same at every table)."""

    rows: list[list[str]]  # bottom row first, left to right
    supports: dict[str, list[str]]
    burst_size: int  # a hand of this many cards completes the hand pyramid
    held_limit: int
    build_limit: dict[str, int]
    rearrange_limit: int


GEOMETRY = Geometry(
    rows=[list(row) for row in PYRAMID_ROWS],
    supports={rank: list(pair) for rank, pair in SUPPORTS.items()},
    burst_size=BURST_SIZE,
    held_limit=HELD_LIMIT,
    build_limit=dict(BUILD_LIMIT),
    rearrange_limit=REARRANGE_LIMIT,
)


class SeatView(Shape):
    omit_when_none: ClassVar[frozenset[str]] = frozenset({"pile"})

    player: str
    held_count: int
    shown: list[str]
    hand_count: int
    stones: dict[str, str | None]  # every slot rank -> the card on it, or None
    stone_count: int
    points: int
    revealed: list[str] | None  # the held cards, once the hand was shown to everyone
    pile: int | None  # the seat's own draw pile's size (``streams: per_seat``, D19); None while one is shared


class WildView(Shape):
    owner: str
    suit: str


class PendingView(Shape):
    kind: PendingKind
    player: str
    count: int  # stones left to place (build) or cards to draw (forced_draw)
    cause: str | None  # the rank that caused a forced draw


class LastDeal(Shape):
    """The previous deal's outcome; ``revealed`` (the hand shown) only until the next deal is dealt."""

    omit_when_none: ClassVar[frozenset[str]] = frozenset({"revealed"})

    number: int
    reason: Literal["complete", "burst", "stalled", "turn_limit"]
    player: str | None
    revealed: list[str] | None
    payments: dict[str, int]
    turn_limit: int | None


class TwinPyramidView(View):
    """``rearranges_left``, ``arranging``: for the viewer while they act; ``peek``: the cards the viewer saw with
    their 3 and still on the draw pile, top first."""

    omit_when_none: ClassVar[frozenset[str]] = frozenset({"viewer", "hand", "rearranges_left", "arranging", "peek"})

    options: dict[str, Any]
    phase: Literal["over", "turn"] | PendingKind
    deal: int  # 1-based
    deals_total: int
    start_player: str
    current: str
    direction: Literal["clockwise", "counterclockwise"]
    top: str
    named_suit: str | None
    wild: WildView | None
    turn: int  # turns completed in this deal
    turn_limit: int  # the deal ends when ``turn`` reaches it: unpaid, or settled by stones (``settled_at_limit``)
    settled_at_limit: bool = False  # D18: at five and six seats (rules 5) a deal at the limit is settled
    draw_count: int  # the cards left to draw: the draw pile, or every seat's own pile together (D19)
    discard_count: int
    pending: PendingView | None
    three_player: str | None
    table: list[SeatView]
    geometry: Geometry
    last_deal: LastDeal | None
    rearranges_left: int | None
    arranging: bool | None
    peek: list[str] | None


def _seat_view(state: TwinPyramidState, player: str) -> SeatView:
    seat = state.seats[player]
    return SeatView(
        player=player,
        held_count=len(seat.held),
        shown=list(seat.shown),
        hand_count=len(seat.hand),
        stones={slot: seat.stones.get(slot) for slot in SLOTS},
        stone_count=len(seat.stones),
        points=seat.points,
        revealed=list(seat.held) if seat.revealed else None,
        pile=None if state.own is None else len(state.own[player].pile),
    )


def _last_deal(state: TwinPyramidState, phase: str) -> LastDeal | None:
    """The previous deal's outcome; its revealed hand only until the next deal is dealt
    (those cards are shuffled into the new deal and may be secret again)."""
    if state.last_deal is None:
        return None
    data = state.last_deal.model_dump()
    if phase not in ("deal_over", "over"):
        data["revealed"] = None
    return LastDeal.model_validate(data)


def build_view(engine: TwinPyramidEngine, state: TwinPyramidState, viewer: str | None) -> TwinPyramidView:
    to_act = engine.to_act(state)
    pending = state.pending
    phase: Literal["over", "turn"] | PendingKind = "over" if state.over else (pending.kind if pending else "turn")
    seated = viewer if viewer is not None and viewer in state.seats else None
    acting = seated is not None and seated in to_act
    used = pending.rearranged if pending else state.rearranged
    peeking = seated is not None and seated == state.three_player and bool(state.peek)
    return TwinPyramidView(
        game=state.game,
        players=list(state.players),
        to_act=list(to_act),
        viewer=seated,
        hand=None if seated is None else [] if state.seats[seated].revealed else list(state.seats[seated].held),
        over=state.over,
        result=engine.result(state),
        options=dict(state.options),
        phase=phase,
        deal=state.deal + 1,
        deals_total=state.deals_total,
        start_player=state.player_at(state.start),
        current=state.player_at(state.current),
        direction="clockwise" if state.direction == 1 else "counterclockwise",
        top=state.top(),
        named_suit=state.top_suit,
        wild=WildView(owner=state.wild.owner, suit=state.wild.suit) if state.wild else None,
        turn=state.turns,
        turn_limit=state.turn_limit,
        settled_at_limit=state.settled_by_stones,
        draw_count=len(state.draw) + sum(len(own.pile) for own in (state.own or {}).values()),
        discard_count=len(state.discard),
        pending=None if pending is None else PendingView(kind=pending.kind, player=pending.player,
                                                          count=pending.count, cause=pending.cause),
        three_player=state.three_player,
        table=[_seat_view(state, p) for p in state.players],
        geometry=GEOMETRY,
        last_deal=_last_deal(state, phase),
        rearranges_left=max(0, REARRANGE_LIMIT - used) if acting else None,
        arranging=state.arranging if acting else None,
        peek=list(state.peek) if peeking else None,  # top of the draw pile (D19: the viewer's own) first
    )
