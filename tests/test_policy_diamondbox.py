"""The Diamond Box bot: legal, fair (sees only its own view); how much better than random it plays is
``python -m bench.heuristics --game diamondbox``."""
from __future__ import annotations

import random

from bot.policies import heuristic_for
from bot.policies.diamondbox import choose, playability
from engines.diamondbox import ChooseColour, DiamondBoxEngine, Pass

ENG = DiamondBoxEngine()


def test_registered_as_the_games_heuristic() -> None:
    assert heuristic_for("diamondbox") is choose


def test_bot_always_returns_a_legal_action() -> None:
    for seed in range(2):
        for n in (2, 3, 4):
            options = {"turns": "all" if seed % 2 else "half"}
            state = ENG.new_game([f"p{i}" for i in range(n)], seed=seed, options=options)
            rng = random.Random(seed)
            while actors := ENG.to_act(state):
                player = actors[0]
                legal = ENG.legal_actions(state, player)
                action = choose(ENG.view(state, player), legal, rng)
                assert action in legal
                state, _ = ENG.apply(state, player, action)


def test_bot_places_whenever_it_can() -> None:
    for seed in range(40):
        state = ENG.new_game(["a", "b"], seed=seed)
        chooser = ENG.to_act(state)[0]
        state, _ = ENG.apply(state, chooser, choose(ENG.view(state, chooser), ENG.legal_actions(state, chooser),
                                                    random.Random(0)))
        player = ENG.to_act(state)[0]
        placements = ENG.placements(state, player)
        action = choose(ENG.view(state, player), ENG.legal_actions(state, player), random.Random(0))
        if placements:
            assert action != Pass()
        else:
            assert action == Pass()


def test_bot_chooses_the_colour_that_suits_its_hand() -> None:
    state = ENG.new_game(["a", "b"], seed=3)
    chooser = ENG.to_act(state)[0]
    view, legal = ENG.view(state, chooser), ENG.legal_actions(state, chooser)
    action = choose(view, legal, random.Random(1))
    assert isinstance(action, ChooseColour) and action in legal


def test_playability_report_runs() -> None:
    report = playability(3, counts=(2, 3))
    assert set(report) == {2, 3}
    for row in report.values():
        assert 0 <= row.stalemate_rate <= 1 and row.games == 3 and row.mean_placements > 0
