"""State and options models of Twin Pyramid."""
from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..base import GameState
from ..rng import Rng
from ..streams import StreamsOption, absent

# How many rearrangement steps one decision (a turn, or a forced draw) allows. The rules say any number
# (「何枚でも可能です」, hand cards 「自由に」); a finite bound keeps every game finite (a step can undo the one
# before), and this one cuts no arrangement a player could want (D3): every arrangement of hand and pyramids
# reachable from a position is reachable within ARRANGEMENT_STEPS — at most 9 stone swaps (one a slot whose stone
# changes; a hand of 10 bursts, so at most 9 cards match 9 stones) and at most 4 moves between held and shown
# (held holds 4; a swap of held and shown fixes two cards at once). The bound counts clicks, so it is three times
# that: a player may try two whole arrangements and undo them and still reach any third.
ARRANGEMENT_STEPS = 13
REARRANGE_LIMIT = 3 * ARRANGEMENT_STEPS

# A deal ends when someone completes either pyramid (the original's only ending). As a
# safeguard against a deal that could in principle run for ever (cards locked in hands and
# stones, plays and draws cycling), a deal also ends unpaid after this many turns per player.
# The board shows it in the deal's last tenth; with the project's bots in every seat fewer than 1% of deals
# reach it at two to five players, about a quarter at six (docs/rules/twinpyramid.md, D11).
TURNS_PER_PLAYER = 150
# Rules 4: and at most this many turns a deal, so that a six-seat deal that stalls (cards locked in six pyramids)
# ends within two hours of people; four seats and fewer are unchanged, five go from 750 to 720 (D11, D17).
MAX_TURNS = 720


# The match's length when the options name none, by the players dealt in (engine version 4, docs/rules/twinpyramid.md
# D17): one round (everyone starts once) up to this many players, one deal above — a six-seat round is six deals,
# about seven hours of people. A game stored by version 2 or 3 that named none played one deal (``stored_options``).
ROUND_BY_DEFAULT_UP_TO = 4
ORIGINAL_ROUNDS = 2  # the original's standard: every player is start player twice

# The rules a game is dealt under (the options' ``rules``, set only by ``stored_options`` for a stored game):
# 2 = before issue 44 (the host always started; a joker never took a joker), 3 = the original's text on both.
# 4 = a deal's turn limit is at most MAX_TURNS (engine version 4).
# 5 = the house rule of five and six seats (engine version 5, D18): a deal that ends with nobody's pyramid complete
#     (the turn limit, or a round of passes) is settled by the field pyramids.
RULES = 5
SETTLED_FROM_SEATS = 5  # the house rule's seat counts: five and six


class TwinPyramidOptions(StreamsOption):
    """``deals``: how many deals the match lasts (the start player moves one seat left each deal, so one deal per
    player is one round). ``rounds``, when given, counts rounds instead (``rounds`` × players deals; the original's
    standard is 2) and ``deals`` is not looked at: a game stored before ``deals`` existed (``rounds`` only) plays
    exactly as it did. ``start_player``: the seat of the first deal's start player, None = drawn by lot (the
    original: 「最初のSPはジャンケンなどで決めて」). ``rules``: see ``RULES``; no table chooses it. ``streams``
    (``engines.streams``): ``per_seat`` gives every seat its own draw pile each deal (Decision [D19])."""

    model_config = ConfigDict(extra="forbid")
    stored_only: ClassVar[frozenset[str]] = frozenset({"rules"})  # not offered by /play

    jokers: int = Field(default=2, ge=0, le=2, strict=True)
    deals: int | None = Field(default=None, ge=1, le=30, strict=True)  # with rounds None: ``default_length``
    rounds: int | None = Field(default=None, ge=1, le=10, strict=True)
    start_player: int | None = Field(default=None, ge=0, strict=True)
    rules: int = Field(default=RULES, ge=2, le=RULES, strict=True)

    def length(self, players: int) -> dict[str, int]:
        """The one length the match is counted in: ``rounds`` if given, else ``deals``, else the default for
        this many players."""
        if self.rounds is not None:
            return {"rounds": self.rounds}
        return default_length(players) if self.deals is None else {"deals": self.deals}

    def deals_for(self, players: int) -> int:
        length = self.length(players)
        return length["rounds"] * players if "rounds" in length else length["deals"]

    def chosen(self, players: int) -> dict[str, int | str]:
        """The options as the state keeps them: the jokers, the one length the match is counted in and the rules
        (absent for rules 2, so a stored game of rules 2 replays to the very state it stored), and ``streams`` only
        when ``per_seat`` (a shared game's options are what they were before the option)."""
        return {"jokers": self.jokers, **self.length(players), **({"rules": self.rules} if self.rules > 2 else {}),
                **({"streams": self.streams.value} if self.per_seat else {})}


def default_length(players: int) -> dict[str, int]:
    """The length of a match whose options name none (D17)."""
    return {"rounds": 1} if players <= ROUND_BY_DEFAULT_UP_TO else {"deals": 1}


class Seat(BaseModel):
    """One player's zones. ``held`` is secret; everything else is public."""

    held: list[str] = []
    shown: list[str] = []
    stones: dict[str, str] = {}  # slot rank -> card id
    points: int = 0
    revealed: bool = False  # the hand was shown to everyone (A placed or burst)

    @property
    def hand(self) -> list[str]:
        return self.held + self.shown


class Wild(BaseModel):
    """A suit named with an 8 or a joker, restricting the other players."""

    owner: str
    suit: str
    fresh: bool = True  # still inside the turn it was named in


PendingKind = Literal["build", "name_suit", "two_choice", "order_three", "forced_draw", "deal_over"]


class Pending(BaseModel):
    """A decision the game waits for other than a plain turn action.

    ``player`` decides. ``count``: stones left to place (build) or cards to draw (forced_draw).
    ``cause``: the card rank that caused a forced draw (``"2"`` or ``"3"``).
    """

    kind: PendingKind
    player: str
    count: int = 0
    cause: str | None = None
    rearranged: int = 0


class DealOutcome(BaseModel):
    number: int
    reason: Literal["complete", "burst", "stalled", "turn_limit"]
    player: str | None = None
    revealed: list[str] = []
    payments: dict[str, int] = {}
    turn_limit: int | None = None  # the limit reached, when that ended the deal


class OwnPile(BaseModel):
    """One seat's own draw pile for the deal (``streams: per_seat``, D19): its cards, the top the last, and the RNG
    that shuffles the discard into it when it runs out."""

    pile: list[str]
    rng: Rng


class TwinPyramidState(GameState):
    seats: dict[str, Seat]
    deal: int = 0  # 0-based number of the current deal
    deals_total: int
    start: int = 0  # seat index of this deal's start player
    current: int = 0  # seat index of the player whose turn it is
    direction: int = 1  # +1 clockwise (seat order), -1 after an odd number of 9s
    draw: list[str] = Field(default_factory=list)  # draw pile; its top is the last element
    discard: list[str] = Field(default_factory=list)  # discard pile; its top is the last element
    top_suit: str | None = None  # suit named for the current top card (8 or joker)
    wild: Wild | None = None
    rearranged: int = 0  # rearrangement steps taken in the current turn
    arranging: bool = False  # ``rearrange`` was chosen: the next action is one step
    passes: int = 0  # consecutive turns ended by pass (no action possible)
    turns: int = 0  # turns completed in this deal
    pending: Pending | None = None
    three_player: str | None = None  # who played the 3 whose draws are under way
    three_queue: list[str] = Field(default_factory=list)  # players still to draw for that 3 (the 3's player last)
    peek: list[str] = Field(default_factory=list)  # seen with the 3, still on its player's draw pile, top first
    last_deal: DealOutcome | None = None
    over: bool = False
    # every seat's own draw pile and its RNG, dealt anew each deal (``streams: per_seat``; ``draw`` is then empty)
    own: dict[str, OwnPile] | None = Field(default=None, exclude_if=absent)

    @property
    def per_seat(self) -> bool:
        return self.options.get("streams") == "per_seat"

    def pile_of(self, player: str) -> list[str]:
        """The pile ``player`` draws from: the draw pile, or the seat's own (``streams: per_seat``)."""
        return self.draw if self.own is None else self.own[player].pile

    def shuffler_of(self, player: str) -> Rng:
        """The RNG that rebuilds ``player``'s pile from the discard: the game's, or the seat's own."""
        return self.rng if self.own is None else self.own[player].rng

    def player_at(self, index: int) -> str:
        return self.players[index % len(self.players)]

    def seat_of(self, player: str) -> int:
        return self.players.index(player)

    def next_index(self, steps: int = 1) -> int:
        return (self.current + self.direction * steps) % len(self.players)

    def top(self) -> str:
        return self.discard[-1]

    @property
    def first_start(self) -> int:
        """Seat index of the first deal's start player (each deal moves it one seat on). Derived, not stored: a
        game stored before it was drawn by lot dumps to the very same state."""
        return (self.start - self.deal) % len(self.players)

    @property
    def turn_limit(self) -> int:
        """The turn at which a deal still running ends unpaid (D11): 150 per player, from rules 4 at most 720."""
        limit = TURNS_PER_PLAYER * len(self.players)
        return min(limit, MAX_TURNS) if int(self.options.get("rules", 2)) >= 4 else limit

    @property
    def settled_by_stones(self) -> bool:
        """Rules 5 at five and six seats: a deal without a winner is settled by the field pyramids (D18)."""
        return int(self.options.get("rules", 2)) >= 5 and len(self.players) >= SETTLED_FROM_SEATS

    @property
    def joker_takes_joker(self) -> bool:
        """Rules 3: a joker may change with a joker (the original: any card); before, never."""
        return int(self.options.get("rules", 2)) >= 3

