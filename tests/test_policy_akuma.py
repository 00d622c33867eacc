"""The Akuma Trick bot heuristic: sound single decisions and always legal; how much better than random it plays is
``python -m bench.heuristics --game akuma``."""
from __future__ import annotations

import random

from bot.policies import heuristic_for
from bot.policies.akuma import choose
from engines import get_engine
from engines.akuma import Play, Release, Steal, StopStealing
from tests.engines.test_akuma import make_state

ENG = get_engine("akuma")


def test_registered_as_the_akuma_heuristic() -> None:
    assert heuristic_for("akuma") is choose


def test_choices_are_always_legal() -> None:
    rng = random.Random(3)
    for seed in range(20):
        state = ENG.new_game(["a", "b", "c", "d"], seed=seed)
        while ENG.to_act(state):
            player = ENG.to_act(state)[0]
            legal = ENG.legal_actions(state, player)
            action = choose(ENG.view(state, player), legal, rng)
            assert action in legal
            state, _ = ENG.apply(state, player, action)


def test_never_empties_its_hand_when_it_can_help_it() -> None:
    state = make_state([["Y9", "P9"], ["G1", "G2", "G3"], ["P1", "P2", "P3"]], row=[("p2", ["G8"])])
    legal = ENG.legal_actions(state, "p0")
    assert Play(cards=["Y9", "P9"]) in legal
    action = choose(ENG.view(state, "p0"), legal, random.Random(0))
    assert action in (Play(cards=["Y9"]), Play(cards=["P9"]), Release(cards=["Y9"]), Release(cards=["P9"]))


def test_sheds_the_most_points_when_the_hand_is_long() -> None:
    hand = ["Y1", "P1", "G1", "Y2", "P2", "G3", "Y4", "P7", "P8", "P9"]
    state = make_state([hand, ["G5", "G6", "G7", "G8", "G9", "Y9"], ["Y5", "Y6", "Y7", "Y8"]],
                       row=[("p2", ["Y3"])])
    action = choose(ENG.view(state, "p0"), ENG.legal_actions(state, "p0"), random.Random(0))
    assert action == Play(cards=["P7", "P8", "P9"])


def test_does_not_steal_with_a_comfortable_hand() -> None:
    state = make_state([["Y2", "Y3", "Y4", "Y5", "P5", "G5", "Y6", "Y7"], ["P1", "P2", "P3"], ["G1", "G2"]],
                       row=[("p2", ["G1"])], steals_left=1)
    legal = ENG.legal_actions(state, "p0")
    assert Steal(victim="p1") in legal
    assert choose(ENG.view(state, "p0"), legal, random.Random(0)) == StopStealing()
