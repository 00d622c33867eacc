"""The bots' choices, pinned: seeded games where every level plays (``easy``, ``normal`` and a ``strong`` search
capped by playouts, so it is deterministic) in every game, digested move by move. The digests were computed before
the policies read the typed view instead of its dict (issue 36); a bot that now chooses differently for the same
seed, view and legal actions changes its game's digest and fails here."""
from __future__ import annotations

import hashlib
import json
import random

import pytest

from bot.games import sampler_hooks
from bot.policies import LEVELS, choose_for_seat
from bot.policies.search import choose_strong
from engines import GAMES, get_engine

MAX_ACTIONS = 120  # per game: enough for every kind of decision, short enough for the default suite
STRONG_PLAYOUTS = 12  # two rounds of up to six candidates: the search's comparison (``pick``) runs
SAMPLE_EVERY = 7  # every so many steps the determiniser's sample and the search prior are digested too
SEEDS = (1, 2)

EXPECTED: dict[str, str] = {  # python -m tests.test_policy_moves, on the code before the change
    "akuma:3:1": "dcd4cd173827e54ac674992d844cf887e58cae52290f42fa32bcc0a35bcb4e67",
    "akuma:3:2": "8efc78e5946e6f6a1bb27896a9f9437339effcae254dc058dae853bafa334fa2",
    "rocca:2:1": "5216bccd7bd011d841b446134890138dbfeb8e2a250bbca0c8ecafb87a5366e1",
    "rocca:2:2": "38419c60984a57c6eb4944488e6071fc0b28d8723c03a3bc2f439113a63e143d",
    "rocca:3:1": "4205dd145cf4acf7b2a48ae60894fc6b372e359eb13e26e68c5da8d91d8be150",
    "rocca:3:2": "61aefc892d036dca9da7d42dd46fbdaa256712144d92661e977afa41d96c5b21",
    "pileup:2:1": "c86f47851a80bc2c80f38dcac4346d9b64ba676cfff919be652e754134cc361c",
    "pileup:2:2": "2866c507e0ec168f101d63d443d7a0ee577ba703fccdf16a699cd5f7ef948b5a",
    "pileup:3:1": "5c87d3343e62a979cc4278381eb6e9a4bbaa1821f0e5a4294bfc3a55299c4a3d",
    "pileup:3:2": "591ad1bb00612bbba5b4e3ca67a3d5216828d97ebfeb042b01be704c3ed37120",
    "twinpyramid:2:1": "f50f8b99999bfb6314e636f766c7ee5be229ded40b0e7c156fde912d6f267e97",
    "twinpyramid:2:2": "edc9833d220ca883cf929cb050a580c2157df661a9340896ccdf733ba615af64",
    "twinpyramid:3:1": "bb64deb50dc0bedd21c22e5854b130f2d30cbdfd74dceb56e318e8602b546f5a",
    "twinpyramid:3:2": "a9139b6f4d0cf5850b345e67d0301c22f40f72d0133350fd6c1942b252947b29",
    "diamondbox:2:1": "4d3cffba2130c044d14fbd21173166a08c7e816e51bc906c0e14221a4c716088",
    "diamondbox:2:2": "c0980d62207dc0da940bca82f45a2c195b7eb580c0a9d3aed3953237b8754754",
    "diamondbox:3:1": "a5426077e75618d4728798ce4a5677a2f875ad87b4636980a7bd5725e8aa2afd",
    "diamondbox:3:2": "f9245e044baa0b59905a9f1aebc27ddfd1652cca98bd767a732eba0e4975d328",
}


# The defaults when the digests were recorded, where a game's defaults changed since (Twin Pyramid: two rounds,
# the host starting, rules 2 — what ``stored_options`` gives a game of version 2).
RECORDED_OPTIONS = {"twinpyramid": {"rounds": 2, "start_player": 0, "rules": 2}}  # and its rules of then


def seat_levels(players: int, seed: int) -> list[str]:
    return [LEVELS[(seat + seed) % len(LEVELS)] for seat in range(players)]


def move_digest(game: str, players: int, seed: int) -> str:
    """sha256 over the game's first ``MAX_ACTIONS`` moves, each seat at its level (``seat_levels``), with a sample
    of the determiniser and the search prior of every legal move every ``SAMPLE_EVERY`` steps."""
    engine = get_engine(game)
    names = [f"s{i}" for i in range(players)]
    levels = dict(zip(names, seat_levels(players, seed), strict=True))
    state = engine.new_game(names, seed=seed, options=RECORDED_OPTIONS.get(game))
    digest = hashlib.sha256()
    for step in range(MAX_ACTIONS):
        actors = engine.to_act(state)
        if not actors:
            break
        player = actors[0]
        view, legal = engine.view(state, player), engine.legal_actions(state, player)
        decision_seed = f"{seed}:{step}"
        if levels[player] == "strong":
            action = choose_strong(game, view, legal, decision_seed, iterations=STRONG_PLAYOUTS)
        else:
            action = choose_for_seat(game, view, legal, decision_seed, levels[player])
        digest.update(json.dumps(action.model_dump(mode="json"), sort_keys=True).encode())
        hooks = sampler_hooks(game)
        if hooks is not None and step % SAMPLE_EVERY == 0:
            digest.update(engine.dump(hooks.sample(view, random.Random(decision_seed))).encode())
            if hooks.prior is not None:
                digest.update(repr([hooks.prior(view, a) for a in legal]).encode())
        state, _ = engine.apply(state, player, action)
    return digest.hexdigest()


def cases() -> list[tuple[str, int, int]]:
    out = []
    for game in GAMES:
        engine = get_engine(game)
        for players in sorted({engine.min_players, min(engine.max_players, 3)}):
            out.extend((game, players, seed) for seed in SEEDS)
    return out


@pytest.mark.parametrize(("game", "players", "seed"), cases())
def test_bots_choose_the_pinned_moves(game: str, players: int, seed: int) -> None:
    assert move_digest(game, players, seed) == EXPECTED[f"{game}:{players}:{seed}"]


if __name__ == "__main__":  # prints EXPECTED for the current code
    for case in cases():
        print(f'    "{case[0]}:{case[1]}:{case[2]}": "{move_digest(*case)}",', flush=True)
