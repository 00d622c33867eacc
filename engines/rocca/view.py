"""What a player (or a spectator) sees: everything a renderer needs to draw the tower and the table.

Public: the tower with its geometry (lattice centres, drawing coordinates, orientations, which triangles
each card still shows, the state of every side), columns and active cards, the joker restriction, hand
sizes, the pile's size, the direction, "One" declarations, the pending decision with who takes it, and the
last times each player drew instead of placing (what the table saw happen).
Secret: only the viewer's own hand, and the cards the viewer passed a rival with a Q that the rival, as far as
the viewer can tell, still holds (the viewer saw them in its private events).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, ClassVar, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from engines.base import View

from . import geometry as G
from .state import Bend, RoccaState, Side, Suit
from .tower import TowerIndex, card_label, column_label, could_match

if TYPE_CHECKING:
    from .engine import RoccaEngine


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TowerEntry(_Part):
    """One tower card with its geometry, in placement order (later cards lie on top)."""

    card: str
    label: str  # ``b3``: column b, third card
    order: int
    centre: list[int]  # lattice centre
    x: float  # drawing coordinates
    y: float
    orientation: int  # 0..5, 0 = upright
    column: str
    height: int
    placer: str | None  # None for the start card
    on: str | None
    on_side: Side | None
    suit: Suit | None  # the suit a joker named
    bend: Bend | None
    visible: list[int]  # which of its triangles still show
    sides: dict[str, str]  # side -> its state
    active: bool
    playable: bool
    open_sides: list[str]
    matchable_sides: list[str]


class ColumnEntry(_Part):
    label: str
    cards: list[str]
    active: str  # its last card
    parent: str | None
    frozen: bool  # not allowed by the joker restriction


class DrawChainPending(_Part):
    kind: Literal["draw_chain"]
    player: str
    rank: str
    count: int
    card: str
    by: str | None


class QGivePending(_Part):
    kind: Literal["q_give"]
    player: str
    rank: str
    count: int
    card: str
    receiver: str | None  # None: the first pass, the giver picks whom
    given: int


class QAnswerPending(_Part):
    kind: Literal["q_answer"]
    player: str
    rank: str
    count: int
    card: str
    giver: str | None


Pending = Annotated[Union[DrawChainPending, QGivePending, QAnswerPending], Field(discriminator="kind")]


class Restriction(_Part):
    joker: str | None
    columns: list[str]


class DeclinedShown(_Part):
    """One of the last times a player drew instead of placing (see ``state.Declined``): public, the table saw it."""

    tower: int
    card: str | None
    since: int


class RoccaOptionsShown(_Part):
    bon: bool


class RoccaView(View):
    omit_when_none: ClassVar[frozenset[str]] = frozenset({"viewer", "hand", "pile_sizes"})

    turn: str | None  # None once over
    pending: Pending | None
    direction: Literal[1, -1]
    deck_size: int  # the cards left to draw: the draw pile, or every seat's own pile together
    hand_sizes: dict[str, int]
    pile_sizes: dict[str, int] | None  # every seat's own pile (``streams: per_seat``); None while one is shared
    one_declared: list[str]
    out: list[str]
    options: RoccaOptionsShown
    start_player: str
    tower: list[TowerEntry]
    columns: list[ColumnEntry]
    restriction: Restriction | None
    last_placed: str
    winner: str | None
    declined: dict[str, list[DeclinedShown]] = Field(default_factory=dict)
    # the viewer's own: rival -> cards it passed them with a Q, still theirs
    known: dict[str, list[str]] = Field(default_factory=dict)


def tower_view(state: RoccaState, ix: TowerIndex) -> list[TowerEntry]:
    active, playable = set(ix.active), set(ix.playable)
    out = []
    for i, tc in enumerate(state.tower):
        x, y = G.to_xy(tc.centre)
        out.append(TowerEntry(
            card=tc.card, label=card_label(tc), order=i,
            centre=list(tc.centre), x=x, y=y, orientation=tc.orientation,
            column=column_label(tc.column), height=tc.height, placer=tc.placer,
            on=tc.on, on_side=tc.side, suit=tc.suit, bend=tc.bend,
            visible=ix.visible(i), sides={side: ix.side_state(i, side) for side in G.SIDES},
            active=i in active, playable=i in playable,
            open_sides=[s for s in G.SIDES if i in playable and ix.open_for_building(i, s)],
            matchable_sides=[s for s in G.SIDES if could_match(tc, s)],
        ))
    return out


def columns_view(state: RoccaState) -> list[ColumnEntry]:
    allowed = None if state.restricted is None else set(state.restricted)
    return [ColumnEntry(
        label=column_label(i), cards=list(col.cards), active=col.cards[-1], parent=col.parent,
        frozen=allowed is not None and i not in allowed,
    ) for i, col in enumerate(state.columns)]


def pending_view(state: RoccaState) -> Pending | None:
    p = state.pending
    if p is None:
        return None
    if p.kind == "draw_chain":
        return DrawChainPending(kind=p.kind, player=p.player, rank=p.rank, count=p.count, card=p.card, by=p.partner)
    if p.kind == "q_give":
        return QGivePending(kind=p.kind, player=p.player, rank=p.rank, count=p.count, card=p.card,
                            receiver=p.partner, given=p.given)
    return QAnswerPending(kind=p.kind, player=p.player, rank=p.rank, count=p.count, card=p.card, giver=p.partner)


def build_view(engine: RoccaEngine, state: RoccaState, viewer: str | None) -> RoccaView:
    to_act, result = engine.to_act(state), engine.result(state)
    ix = TowerIndex(state)
    seated = viewer if viewer is not None and viewer in state.hands else None
    return RoccaView(
        game=state.game,
        players=list(state.players),
        to_act=list(to_act),
        viewer=seated,
        hand=None if seated is None else list(state.hands[seated]),
        over=state.over,
        result=result,
        turn=None if state.over else state.turn,
        pending=pending_view(state),
        direction=state.direction,
        deck_size=len(state.deck) + sum(len(pile) for pile in (state.own or {}).values()),
        hand_sizes={p: len(h) for p, h in state.hands.items()},
        pile_sizes=None if state.own is None else {p: len(pile) for p, pile in state.own.items()},
        one_declared=list(state.one_declared),
        out=list(state.out),
        options=RoccaOptionsShown(bon=bool(state.options.get("bon"))),
        start_player=state.start_player,
        tower=tower_view(state, ix),
        columns=columns_view(state),
        restriction=None if state.restricted is None else Restriction(
            joker=state.joker, columns=[column_label(c) for c in state.restricted]),
        last_placed=state.tower[-1].card,
        winner=state.winner,
        declined={p: [DeclinedShown(tower=d.tower, card=d.card, since=d.since) for d in times]
                  for p, times in state.declined.items()},
        known={} if seated is None else {p: list(cards) for p, cards in state.known.get(seated, {}).items()},
    )
