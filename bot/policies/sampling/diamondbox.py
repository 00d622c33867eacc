"""Diamond Box determiniser: the cards neither in our hand nor on the centre are dealt at random to the
rivals' hands and to every face-down pile (ours too: its order is secret), sizes from the view. Cards
left over when the deck was shared out are out of the game, so the pool can be larger than needed.

Playouts use a cheap policy (a 6-square cover when there is one, else a random placement; colours by
the heuristic) because the heuristic's one-step look-ahead costs ~15 ms a move; they stop after
``ROLLOUT_STEPS`` and score the position by cards left (hand + pile).
"""
from __future__ import annotations

import math
import random
from typing import Any

from engines import View
from engines.diamondbox.cards import TURNS_ALL, card_ids, cells_of
from engines.diamondbox.rules import centre_of
from engines.diamondbox.state import ColourChoice, DiamondBoxState, Placed
from engines.rng import Rng

from ..diamondbox import diamondbox_view
from ..seat_view import held

# 5 and 20 steps measured weaker at 4 players over the same deals at 120 playouts: paired -0.061 (SE 0.022) over
# 800 games and -0.140 (SE 0.054) over 136 (docs/strong-bot.md).
ROLLOUT_STEPS = 10
# More playouts measured weaker at 4 players: the same 400 deals at 240 playouts against 120, paired game by game,
# -0.065 (standard error 0.028); every Diamond Box cell was measured at 120 playouts or fewer (docs/strong-bot.md).
MAX_PLAYOUTS = 120


def unseen_cards(view: View) -> list[str]:
    view = diamondbox_view(view)
    seen = set(held(view.hand)) | {p.card for p in view.placements}
    return [c for c in card_ids() if c not in seen]


def sample(view: View, rng: random.Random) -> DiamondBoxState:
    view = diamondbox_view(view)
    me = view.viewer
    pool = unseen_cards(view)
    rng.shuffle(pool)
    order = list(view.order)
    hands: dict[str, list[str]] = {}
    piles: dict[str, list[str]] = {}
    at = 0
    for p in order:
        if p == me:
            hands[p] = list(held(view.hand))
        else:
            n = view.hand_sizes[p]
            hands[p] = pool[at:at + n]
            at += n
        n = view.pile_sizes[p]
        piles[p] = pool[at:at + n]
        at += n
    choice = view.colour_choice
    turns = "all" if tuple(view.allowed_turns) == TURNS_ALL else "half"
    return DiamondBoxState(
        game="diamondbox", players=list(view.players), seed=0, options={"turns": turns},
        rng=Rng(state=rng.getrandbits(64)), order=order, hands=hands, piles=piles,
        placed=[Placed(card=p.card, turn=p.turn, x=p.x, y=p.y, player=p.player, covered=p.covered)
                for p in view.placements],
        designated=view.designated, current=view.turn, bonus=view.bonus_turn,
        choice=None if choice is None else ColourChoice(
            chooser=choice.chooser, reason=choice.reason, then=choice.then, bonus=choice.bonus),
        passes_in_row=view.passes_in_row, first_passer=view.first_passer, pass_rounds=view.pass_rounds,
        winner=view.winner, draw_reason=view.draw_reason,
    )


def rollout_choose(state: DiamondBoxState, player: str, legal: list[Any], rng: random.Random) -> Any:
    first = legal[0]
    if first.type == "choose_colour":
        return rng.choice(legal)
    places = [a for a in legal if a.type == "place"]
    if not places:
        return first
    centre = centre_of(state)
    full = [a for a in places if all((a.x + dx, a.y + dy) in centre for dx, dy, _ in cells_of(a.card, a.turn))]
    return rng.choice(full or places)


def evaluate(state: DiamondBoxState, me: str) -> float:
    """An unfinished playout's score in [0, 1]: our cards left (hand + pile) against the best rival's."""
    def left(p: str) -> int:
        return len(state.hands[p]) + len(state.piles[p])
    best_rival = min(left(p) for p in state.order if p != me)
    return 0.5 + 0.5 * math.tanh((best_rival - left(me)) / 2.0)


def prior(view: View, action: Any) -> float:
    """Which actions to search first: placements by the heuristic's own score (a 6-square cover first)."""
    view = diamondbox_view(view)
    from collections import Counter

    from bot.policies.diamondbox import _place_score
    from engines.diamondbox.geometry import centre_from_view

    if getattr(action, "type", "") != "place":
        return 0.0
    return _place_score(view, centre_from_view(view), action, Counter([action.card]))


def shuffle_pile(state: DiamondBoxState, rng: random.Random) -> None:
    """Every player's face-down pile in a new order (bench.bots' seer: the hidden hands but not the draws to come)."""
    for pile in state.piles.values():
        rng.shuffle(pile)
