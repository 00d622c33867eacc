"""The Rocca determiniser reads public play (a rival who drew instead of placing held no card that fitted then)
and what its seat knows privately (the cards it passed a rival with a Q)."""
from __future__ import annotations

import random

from bot.policies import choose_for_seat
from bot.policies.sampling.rocca import _placed, fitted_then, sample
from engines.rocca import RoccaEngine
from engines.rocca.cards import full_deck

from .engines.test_rocca_support import act, make

ENG = RoccaEngine()


def test_what_fitted_the_tower_as_it_stood() -> None:
    state = make({"p0": ["JS", "9D"], "p1": ["JD", "2C"], "p2": ["3D"]})
    start = _placed(ENG.view(state, "p0"), 1)
    assert fitted_then(start, None) == {c for c in full_deck() if c.endswith("S") or c.startswith(("5", "X"))}
    state, _ = act(state, "p0", type="place", card="JS", on="5S", side="head")
    state, _ = act(state, "p1", type="place", card="JD", on="JS", side="face")
    chain = _placed(ENG.view(state, "p2"), 3)
    assert fitted_then(chain, "JD") == {"JS", "JH", "JD", "JC"}  # only a J on the chain's face would have done


def test_samples_keep_what_public_play_ruled_out_and_the_truth_agrees() -> None:
    """Over normal games: whenever a rival has passed up placing, its true hand holds at least the cards it has
    held since, none of which fitted then or at a later time it passed up, and so does every sample (dealing the
    unseen cards uniformly fails this, and so does reading only the latest time)."""
    checked = known = 0
    for seed in range(10):
        players = ["a", "b", "c"][: 2 + seed % 2]
        state = ENG.new_game(players, seed=seed)
        step = 0
        while actors := ENG.to_act(state):
            player = actors[0]
            view = ENG.view(state, player)
            for rival, cards in view.known.items():  # passed with a Q: the rival still holds them, and so it
                assert set(cards) <= set(state.hands[rival])  # does in every sample
                assert set(cards) <= set(sample(view, random.Random(step)).hands[rival])
                known += 1
            for rival, times in view.declined.items():
                if rival == player:
                    continue
                sampled = sample(view, random.Random(step)).hands[rival]
                for k, declined in enumerate(times):  # held since then: fitted neither then nor at a later time
                    held = view.hand_sizes[rival] - declined.since
                    ruled_out = set().union(*(fitted_then(_placed(view, d.tower), d.card) for d in times[k:]))
                    assert sum(c not in ruled_out for c in state.hands[rival]) >= held
                    assert sum(c not in ruled_out for c in sampled) >= held
                    checked += held > 0
            action = choose_for_seat("rocca", view, ENG.legal_actions(state, player), f"{seed}:{step}", "normal")
            state, _ = ENG.apply(state, player, action)
            step += 1
    assert checked > 100 and known > 10
