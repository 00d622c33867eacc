"""The strong Akuma bot's cheaper playouts make exactly the moves the engine's full path made: the legal plays are
every play ``check_play`` accepts, the heuristic chooses the same from the playout view as from the engine's view,
and the strong bot's decisions and playout scores on fixed positions are the ones main's code gave before."""
from __future__ import annotations

import random
from itertools import combinations

import pytest

from bench.report import digest
from bench.search_speed import playout_scores, strong_choices
from bench.strong_budget import positions
from bot.policies.akuma import choose
from bot.policies.sampling.akuma import rollout_view
from engines.akuma import AkumaEngine, rules
from engines.akuma.actions import Play, Release
from engines.akuma.cards import deck_for, sort_cards
from engines.errors import IllegalAction

ENGINE = AkumaEngine()

# Recorded with main's code at e609e33, before the playouts got cheaper (bench/search_speed.py added alone):
# ``python -m bench.search_speed --game akuma`` (24 positions per seat count, 4 playouts each, 24 per decision).
MAIN_DIGESTS = {
    3: ("85f538da61bda4e0", "bc7c4d01a36b7066"),  # (every playout score, every strong choice)
    4: ("d45d41381a85b7d2", "3ece3c4528e70785"),
}


@pytest.mark.parametrize("players", [3, 4])
def test_strong_decisions_and_playout_scores_are_mains(players: int) -> None:
    items = positions("akuma", players, 24)
    scores, _ = playout_scores("akuma", items, 4)
    chosen, _ = strong_choices("akuma", items, 24)
    assert (digest(scores), digest(chosen)) == MAIN_DIGESTS[players]


def _accepted(hand: list[str], last_rank: int | None, lock: list[str] | None) -> list[list[str]]:
    """Every non-empty subset of the hand that ``check_play`` (the check a person's move gets) accepts."""
    found = []
    for size in range(1, len(hand) + 1):
        for cards in combinations(hand, size):
            try:
                rules.check_play(list(cards), last_rank, lock)
            except IllegalAction:
                continue
            found.append(sort_cards(cards))
    return found


def test_legal_plays_are_exactly_the_plays_check_play_accepts() -> None:
    rng = random.Random(5)
    deck = deck_for("YPGV")
    for _ in range(300):
        hand = rng.sample(deck, rng.randint(1, 9))
        last_rank = rng.choice([None, 0, *range(1, 10)])
        lock = rng.choice([None, None, ["Y"], ["P", "G"]])
        got = rules.legal_plays(hand, last_rank, lock)
        assert sorted(got) == sorted(_accepted(hand, last_rank, lock)), (hand, last_rank, lock)


def test_listed_actions_are_the_validated_actions() -> None:
    state = ENGINE.new_game(["a", "b", "c", "d"], seed=3)
    walk = random.Random(3)
    while actors := ENGINE.to_act(state):
        legal = ENGINE.legal_actions(state, actors[0])
        for action in legal:
            fresh = type(action).model_validate(action.model_dump())
            assert fresh == action and fresh.model_dump_json() == action.model_dump_json()
            assert isinstance(action, (Play, Release)) <= (action.cards == sort_cards(action.cards))
        state, _ = ENGINE.apply(state, actors[0], walk.choice(legal))


def test_heuristic_chooses_the_same_from_the_playout_view() -> None:
    kinds: set[str] = set()
    for seed in range(12):
        state = ENGINE.new_game([f"p{i}" for i in range(3 + seed % 3)], seed=seed)
        walk = random.Random(seed)
        while actors := ENGINE.to_act(state):
            player = actors[0]
            legal = ENGINE.legal_actions(state, player)
            draw = walk.getrandbits(32)
            fast_rng, slow_rng = random.Random(draw), random.Random(draw)
            move = choose(rollout_view(state, player), legal, fast_rng)
            assert move == choose(ENGINE.view(state, player), legal, slow_rng)
            assert fast_rng.getstate() == slow_rng.getstate()
            kinds.update(a.type for a in legal)
            state, _ = ENGINE.apply(state, player, move if walk.random() < 0.8 else walk.choice(legal))
    assert {"play", "release", "steal", "stop_stealing"} <= kinds
