"""Diamond Box: the fast enumeration of legal placements gives exactly what testing every offset with ``check``
gives, in the same order, on positions of seeded games under each reading of condition 1; and the normal bot,
which counts placements through it, plays the same games as before it was made fast."""
from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator

import pytest

from bot.policies import choose_for_seat, random_policy
from engines.diamondbox import DiamondBoxEngine, geometry
from engines.diamondbox.cards import COLOURS, distinct_turns
from engines.diamondbox.geometry import Placement
from engines.diamondbox.rules import allowed_turns, centre_of
from engines.diamondbox.state import DiamondBoxState


def reference(centre: geometry.Centre, hand: list[str], designated: str | None,
              turns: tuple[int, ...]) -> list[Placement]:
    """Every offset of the centre's bounding box widened by a card's size, tested with ``check_card``."""
    if designated is None:
        return []
    box = geometry.bounds(centre)
    found = []
    for card in dict.fromkeys(hand):
        for turn in distinct_turns(card, turns):
            for y in range(box["min_y"] - 3, box["max_y"] + 4):
                for x in range(box["min_x"] - 3, box["max_x"] + 4):
                    reason, covered = geometry.check_card(centre, card, turn, x, y, designated)
                    if reason is None:
                        found.append(Placement(card, turn, x, y, covered))
    return sorted(found, key=lambda p: (-p.covered, p.card, p.turn, p.y, p.x))


def game_states(seed: int, players: int, turns: str, bot: bool) -> Iterator[DiamondBoxState]:
    """Every state of a seeded game where a player is to place (random moves, or the normal bot)."""
    engine = DiamondBoxEngine()
    state = engine.new_game([f"p{i}" for i in range(players)], seed=seed, options={"turns": turns})
    rng = random.Random(seed)
    while actors := engine.to_act(state):
        player = actors[0]
        legal = engine.legal_actions(state, player)
        if state.choice is None:
            yield state
        view = engine.view(state, player)
        action = choose_for_seat("diamondbox", view, legal, str(seed), "normal") if bot \
            else random_policy(view, legal, rng)
        state, _ = engine.apply(state, player, action)


@pytest.mark.parametrize("reading", ["strict", "lenient", "off"])
@pytest.mark.parametrize("turns", ["half", "all"])
def test_enumeration_equals_checking_every_offset(reading: str, turns: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(geometry, "DIAMONDS", reading)
    positions = 0
    for players in (2, 3, 4):
        for seed, bot in ((players, True), (players + 10, False)):
            for i, state in enumerate(game_states(seed, players, turns, bot)):
                if i % 3:
                    continue  # every third position keeps the reference's brute force quick
                centre, allowed = centre_of(state), allowed_turns(state)
                hand = state.hands[state.current]
                expected = reference(centre, hand, state.designated, allowed)
                assert geometry.placements_for(centre, hand, state.designated, allowed) == expected
                for colour in COLOURS:  # the other designated colours, and hands of other seats
                    other = state.hands[state.order[(state.order.index(state.current) + 1) % players]]
                    assert geometry.placements_for(centre, other, colour, allowed) == \
                        reference(centre, other, colour, allowed)
                positions += 1
    assert positions > 30


def test_counts_equal_the_length_of_the_enumeration() -> None:
    for state in game_states(7, 3, "all", True):
        centre, allowed = centre_of(state), allowed_turns(state)
        hand = state.hands[state.current]
        counts = geometry.placement_counts(centre, hand, COLOURS, allowed)
        assert counts == {c: len(geometry.placements_for(centre, hand, c, allowed)) for c in COLOURS}


def test_the_memoised_centre_is_the_centre_built_from_every_placement() -> None:
    for state in game_states(9, 4, "all", False):
        built = geometry.build_centre((p.card, p.turn, p.x, p.y) for p in state.placed)
        assert centre_of(state) == built and list(centre_of(state)) == list(built)


def test_a_lone_square_and_an_empty_centre() -> None:
    # Too small for any overlap of four squares: nothing fits, and an empty centre gives nothing either.
    lone = {(0, 0): geometry.Square("G", ".", "G01", 0)}
    assert geometry.placements_for(lone, ["R01", "Y02"], "G", (0, 90, 180, 270)) == []
    assert geometry.placements_for({}, ["R01"], "G", (0, 180)) == []
    assert geometry.placement_counts({}, ["R01"], ["G"], (0, 180)) == {"G": 0}


def normal_games_digest() -> str:
    """A digest of the actions of whole normal-vs-normal games at 2, 3 and 4 players, half and whole turns."""
    engine = DiamondBoxEngine()
    games = []
    for players in (2, 3, 4):
        for turns in ("half", "all"):
            seed = 100 * players + len(turns)
            state = engine.new_game([f"p{i}" for i in range(players)], seed=seed, options={"turns": turns})
            actions = []
            while actors := engine.to_act(state):
                player = actors[0]
                legal = engine.legal_actions(state, player)
                action = choose_for_seat("diamondbox", engine.view(state, player), legal, f"{seed}:{len(actions)}")
                actions.append(action.model_dump())
                state, _ = engine.apply(state, player, action)
            games.append(actions)
    return hashlib.sha256(json.dumps(games, sort_keys=True).encode()).hexdigest()


# The digest of the same games played by the code before placements were enumerated on bit masks (main at
# 23619f7, where the bot counted placements with len(placements_for(...)) one colour at a time).
NORMAL_GAMES_BEFORE = "8835c79e1925ecd1e3c15ed632abed866687aa822b205795415be5e2d2f3ad8b"


def test_the_normal_bot_plays_the_same_games_as_before() -> None:
    assert normal_games_digest() == NORMAL_GAMES_BEFORE
