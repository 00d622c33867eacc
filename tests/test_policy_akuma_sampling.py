"""The Akuma determiniser deals the cards a steal took from the seat to the thief, which still holds them."""
from __future__ import annotations

import random

from bot.policies import choose_for_seat
from bot.policies.sampling.akuma import sample
from engines.akuma import AkumaEngine

ENG = AkumaEngine()


def test_samples_give_the_thief_the_cards_it_took_and_the_truth_agrees() -> None:
    """Over normal games: whenever a seat's view says a rival holds cards a steal took from the seat, the rival
    truly holds them, and so does it in every sample, whose hands keep the sizes the view shows (dealing the
    unseen cards uniformly fails this)."""
    checked = 0
    for seed in range(40):  # a steal happens about 0.7 times a game
        players = ["a", "b", "c", "d"][: 3 + seed % 2]
        state = ENG.new_game(players, seed=seed)
        step = 0
        while actors := ENG.to_act(state):
            player = actors[0]
            view = ENG.view(state, player)
            if view.known:
                sampled = sample(view, random.Random(step)).hands
                assert {p: len(h) for p, h in sampled.items()} == view.hand_sizes
                for rival, cards in view.known.items():
                    assert set(cards) <= set(state.hands[rival]) and set(cards) <= set(sampled[rival])
                    checked += 1
            action = choose_for_seat("akuma", view, ENG.legal_actions(state, player), f"{seed}:{step}", "normal")
            state, _ = ENG.apply(state, player, action)
            step += 1
    assert checked > 15
