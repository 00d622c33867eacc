"""The Twin Pyramid bot plays legal moves from its own view; how much better than random it plays is
``python -m bench.heuristics --game twinpyramid``."""
from __future__ import annotations

import random

from bot.policies import random_policy
from bot.policies.twinpyramid import Table, choose
from engines.rng import Rng
from engines.twinpyramid import TwinPyramidEngine
from engines.twinpyramid.state import OwnPile

from .engines.test_twinpyramid_support import make

ENG = TwinPyramidEngine()


def play_match(seed: int, n: int, bot_seats: set[int], options: dict | None = None) -> dict[str, int]:
    """One match, bots at ``bot_seats`` and random players elsewhere; returns the scores."""
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(n)]
    state = ENG.new_game(players, seed=seed, options=options)
    while ENG.to_act(state):
        player = ENG.to_act(state)[0]
        legal = ENG.legal_actions(state, player)
        policy = choose if players.index(player) in bot_seats else random_policy
        action = policy(ENG.view(state, player), legal, rnd)
        assert action in legal
        state, _ = ENG.apply(state, player, action)
    return ENG.result(state).scores


def test_bot_only_chooses_legal_actions_at_every_table_size():
    for n in range(2, 7):
        play_match(n, n, set(range(n)), {"rounds": 1})


def test_bot_orders_a_three_for_the_card_it_will_draw() -> None:
    """Its own 3's three cards: in the original it draws the last of them (the others draw first); with per-seat
    streams (D19) they stay on its own pile and it draws the top. Either way the card it values most is the one it
    draws."""
    for options, mine in (({}, 2), ({"streams": "per_seat"}, 0)):
        state = make(3, hands={"p0": {"held": ["3H", "4D"], "stones": ["7S", "8S"]}}, top="5H",
                     draw=["KC", "2C", "4S"], options=options)
        if options:
            piles = {p: list(state.draw) if p == "p0" else [] for p in state.players}
            state.own = {p: OwnPile(pile=pile, rng=Rng(state=1)) for p, pile in piles.items()}
            state.draw = []
        state, _ = ENG.apply(state, "p0", {"type": "play", "card": "3H"})
        view = ENG.view(state, "p0")
        order = choose(view, ENG.legal_actions(state, "p0"), random.Random(0)).order  # type: ignore[attr-defined]
        table = Table(view)
        assert table.value(order[mine]) == max(table.value(c) for c in order), (options, order)
