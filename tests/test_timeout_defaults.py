"""When time runs out, a bot moves for the absent player (GameService.expire uses the bot policy). This checks,
for every game, that the policy gives a legal move for every decision that comes up — the turn player's and
everyone else's (a Queen counter, a deflect roll, a colour choice, a forced draw) — so no table can stall."""
from __future__ import annotations

import random

import pytest

from bot.policies import choose_action
from engines import GAMES, get_engine


@pytest.mark.parametrize("game", GAMES)
def test_the_timeout_default_is_legal_for_every_pending_decision(game: str) -> None:
    engine = get_engine(game)
    decisions: dict[str, int] = {}
    for seed in range(3):
        rnd = random.Random(seed)
        players = [f"p{i}" for i in range(min(4, engine.max_players))]
        state = engine.new_game(players, seed=seed)
        for _ in range(600):
            actors = engine.to_act(state)
            if not actors:
                break
            for player in actors:  # every player who must decide now, turn player or not
                action = choose_action(engine, state, player, random.Random(f"{seed}:{player}"))
                assert action in engine.legal_actions(state, player), (game, player, action)
                kind = "turn" if player == actors[0] and len(actors) == 1 else "other"
                decisions[f"{kind}:{action.type}"] = decisions.get(f"{kind}:{action.type}", 0) + 1
            player = rnd.choice(actors)
            state, _ = engine.apply(state, player, rnd.choice(engine.legal_actions(state, player)))
    assert sum(decisions.values()) > 20, decisions
