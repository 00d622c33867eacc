"""The Twin Pyramid bot plays legal moves from its own view; how much better than random it plays is
``python -m bench.heuristics --game twinpyramid``."""
from __future__ import annotations

import random

from bot.policies import random_policy
from bot.policies.twinpyramid import choose
from engines.twinpyramid import TwinPyramidEngine

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
