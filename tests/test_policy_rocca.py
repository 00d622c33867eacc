"""The Rocca bot: always legal and takes the obvious good decisions; how much better than random it plays is
``python -m bench.heuristics --game rocca``."""
from __future__ import annotations

import random

from bot.policies import heuristic_for
from bot.policies.rocca import choose
from bot.policies.sampling.rocca import rollout_view
from engines.rocca import RoccaEngine

from .engines.test_rocca_support import act, make

ENG = RoccaEngine()


def test_registered_as_the_rocca_heuristic() -> None:
    assert heuristic_for("rocca") is choose


def view_and_legal(state, player):
    return ENG.view(state, player), ENG.legal_actions(state, player)


def test_declares_one_and_passes_chains_on() -> None:
    rng = random.Random(1)
    state = make({"p0": ["7S"], "p1": ["2D"]})
    assert choose(*view_and_legal(state, "p0"), rng).type == "declare_one"
    state = make({"p0": ["JS", "9D"], "p1": ["JH", "2D"], "p2": ["3D"]})
    state, _ = act(state, "p0", type="place", card="JS", on="5S", side="head")
    action = choose(*view_and_legal(state, "p1"), rng)
    assert action.type == "place" and action.card == "JH"


def test_counters_a_queen_and_gives_away_its_worst_card_to_the_leader() -> None:
    rng = random.Random(2)
    state = make({"p0": ["QS", "X1", "2H", "3H"], "p1": ["2D", "4D", "6D"], "p2": ["8D"]})
    state, _ = act(state, "p0", type="place", card="QS", on="5S", side="head")
    give = choose(*view_and_legal(state, "p0"), rng)
    assert give.type == "give" and give.card != "X1" and give.to == "p2"
    state = make({"p0": ["QS", "7H", "8H"], "p1": ["2D"], "p2": ["QD", "4C", "6C"]})
    state, _ = act(state, "p0", type="place", card="QS", on="5S", side="head")
    state, _ = act(state, "p0", type="give", card="7H", to="p2")
    assert choose(*view_and_legal(state, "p2"), rng).type == "place"


def test_places_rather_than_draws_and_keeps_the_joker() -> None:
    rng = random.Random(3)
    state = make({"p0": ["X1", "7S", "9D"], "p1": ["2D"]})
    action = choose(*view_and_legal(state, "p0"), rng)
    assert action.type == "place" and action.card == "7S"
    state = make({"p0": ["9D", "8D"], "p1": ["2D"]})
    assert choose(*view_and_legal(state, "p0"), rng).type == "draw"


def test_heuristic_chooses_the_same_from_the_playout_view() -> None:
    """The strong bot's playouts hand the heuristic ``rollout_view`` (a few of the view's fields, cheaply): it must
    choose as from the seat's full view, drawing the same randomness."""
    kinds: set[str] = set()
    for seed in range(8):
        state = ENG.new_game([f"p{i}" for i in range(2 + seed % 3)], seed=seed, options={"bon": seed % 2 == 0})
        walk = random.Random(seed)
        while actors := ENG.to_act(state):
            player = actors[0]
            legal = ENG.legal_actions(state, player)
            draw = walk.getrandbits(32)
            fast_rng, slow_rng = random.Random(draw), random.Random(draw)
            move = choose(rollout_view(state, player), legal, fast_rng)
            assert move == choose(ENG.view(state, player), legal, slow_rng)
            assert fast_rng.getstate() == slow_rng.getstate()
            kinds.update(a.type for a in legal)
            state, _ = ENG.apply(state, player, move if walk.random() < 0.8 else walk.choice(legal))
    assert {"place", "draw", "accept", "give", "declare_one"} <= kinds
