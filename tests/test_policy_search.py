"""The strong (search) bot: legal, reproducible for a seed, and blind to what its seat cannot see."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.policies import heuristic_for
from bot.policies.search import choose_strong, sampler_for
from engines import get_engine

GAMES = [("akuma", 3), ("pileup", 3), ("rocca", 3), ("diamondbox", 3), ("twinpyramid", 2)]


def positions(game: str, players: int, seed: int, every: int, limit: int, options: dict[str, Any] | None = None):
    """(state, player) pairs from a game played by the heuristics, every ``every`` actions."""
    engine = get_engine(game)
    policy = heuristic_for(game)
    rng = random.Random(seed)
    state = engine.new_game([f"s{i}" for i in range(players)], seed=seed, options=options)
    step = found = 0
    while (actors := engine.to_act(state)) and found < limit:
        player = actors[0]
        legal = engine.legal_actions(state, player)
        if step % every == 0 and len(legal) > 1:
            yield state, player
            found += 1
        state, _ = engine.apply(state, player, policy(engine.view(state, player), legal, rng))
        step += 1


@pytest.mark.parametrize("game,players", GAMES)
def test_sampled_states_match_the_view(game: str, players: int) -> None:
    engine = get_engine(game)
    sample = sampler_for(game)
    assert sample is not None
    for state, player in positions(game, players, seed=7, every=3, limit=12):
        view = engine.view(state, player)
        for k in range(3):
            sampled = sample(view, random.Random(k))
            assert engine.view(sampled, player) == view
            assert engine.legal_actions(sampled, player) == engine.legal_actions(state, player)


PER_SEAT = {"streams": "per_seat"}


@pytest.mark.parametrize("game,players", [("akuma", 4), ("pileup", 4), ("rocca", 4), ("diamondbox", 3),
                                          ("twinpyramid", 3)])
def test_sampled_states_with_per_seat_streams_match_the_view(game: str, players: int) -> None:
    """With every seat's own pile (``streams: per_seat``) the sampler deals each own pile to the size the view
    shows, the viewer's included, and the sample plays the variant: the same view and legal actions, a draw from
    the drawer's own pile."""
    engine = get_engine(game)
    sample = sampler_for(game)
    assert sample is not None
    for state, player in positions(game, players, seed=7, every=3, limit=12, options=PER_SEAT):
        view = engine.view(state, player)
        for k in range(3):
            sampled = sample(view, random.Random(k))
            assert engine.view(sampled, player) == view
            assert engine.legal_actions(sampled, player) == engine.legal_actions(state, player)
            if game in ("pileup", "rocca", "twinpyramid"):
                assert sampled.options["streams"] == "per_seat" and sampled.own is not None
                assert {p: len(sampled.pile_of(p)) for p in state.players} == \
                    {p: len(state.pile_of(p)) for p in state.players}
                held = set(view.hand or ()) | {c for p in state.players for c in sampled.pile_of(p)}
                assert len(held) == len(view.hand or ()) + sum(len(sampled.pile_of(p)) for p in state.players)


@pytest.mark.parametrize("game,players", GAMES)
def test_choice_is_legal_and_reproducible(game: str, players: int) -> None:
    engine = get_engine(game)
    for state, player in positions(game, players, seed=3, every=5, limit=3):
        view, legal = engine.view(state, player), engine.legal_actions(state, player)
        first = choose_strong(game, view, legal, "seed-1", iterations=8)
        assert first in legal
        assert choose_strong(game, view, legal, "seed-1", iterations=8) == first


@pytest.mark.parametrize("game,players", GAMES)
def test_hidden_cards_do_not_change_the_decision(game: str, players: int) -> None:
    """Another state that differs only in what this seat cannot see (a different deal of the unseen
    cards and a different RNG) gives the same view and so the same decision for the same seed."""
    engine = get_engine(game)
    sample = sampler_for(game)
    assert sample is not None
    for state, player in positions(game, players, seed=11, every=7, limit=2):
        view, legal = engine.view(state, player), engine.legal_actions(state, player)
        other = sample(view, random.Random(99))  # the same view, the hidden cards dealt otherwise
        assert other.model_dump() != state.model_dump()
        other_view = engine.view(other, player)
        assert other_view == view
        assert choose_strong(game, other_view, engine.legal_actions(other, player), "s", iterations=8) == \
            choose_strong(game, view, legal, "s", iterations=8)


def test_sampler_never_puts_a_seen_card_in_hiding() -> None:
    engine = get_engine("akuma")
    state = engine.new_game(["a", "b", "c"], seed=5)
    player = engine.to_act(state)[0]
    view = engine.view(state, player)
    sampled = sampler_for("akuma")(view, random.Random(0))
    mine = set(view.hand or [])
    for p, hand in sampled.hands.items():
        if p != player:
            assert not mine & set(hand)
    assert sampled.rng.state != state.rng.state


def test_game_without_a_determiniser_plays_normal(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot import games

    monkeypatch.setitem(games.LOADED, ("sampler", "akuma"), None)  # as if its plug-in declared sampler=None
    assert sampler_for("akuma") is None
    engine = get_engine("akuma")
    state = engine.new_game(["a", "b", "c"], seed=2)
    player = engine.to_act(state)[0]
    view, legal = engine.view(state, player), engine.legal_actions(state, player)
    assert choose_strong("akuma", view, legal, "x", iterations=4) in legal


def test_bench_wilson_interval() -> None:
    from bench.bots import wilson

    lo, hi = wilson(50, 100)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60


def test_the_switching_margin_is_the_games_own() -> None:
    """``SWITCH_Z`` decides how clearly a candidate must beat the normal choice; a malformed one is refused."""
    import types

    from bot.games import PluginError, SamplerHooks, _hooks
    from bot.policies.search import pick

    scores = {0: [0.0, 0.1, 0.0, 0.1], 1: [0.3, 0.2, 0.4, 0.1]}  # candidate 1 is better by 0.2, se 0.07
    assert pick([0, 1], scores, 1.0) == 1 and pick([0, 1], scores, 5.0) == 0
    assert pick([0, 1], {0: [0.0], 1: [1.0]}, 0.0) == 0  # one round: no spread, so no clear edge
    for bad in (-1.0, "1"):
        module = types.SimpleNamespace(sample=lambda view, rng: None, SWITCH_Z=bad)
        with pytest.raises(PluginError):
            _hooks(SamplerHooks, module, "toy", "sampler")
    module = types.SimpleNamespace(sample=lambda view, rng: None, SWITCH_Z=2, SEARCH_CANDIDATES=3)
    hooks = _hooks(SamplerHooks, module, "toy", "sampler")
    assert (hooks.SWITCH_Z, hooks.SEARCH_CANDIDATES, hooks.ROLLOUT_STEPS) == (2, 3, SamplerHooks.ROLLOUT_STEPS)


@pytest.mark.parametrize("game,players", [g for g in GAMES if g[0] != "akuma"])
def test_the_seers_pile_shuffle_changes_only_the_draws_to_come(game: str, players: int) -> None:
    """``shuffle_pile`` (bench.bots' seer) reorders what nobody has seen: every seat's view stays the same,
    the same cards stay in the piles, and the order does change."""
    from bot.games import sampler_hooks

    engine = get_engine(game)
    hooks = sampler_hooks(game)
    assert hooks is not None and hooks.shuffle_pile is not None
    reordered = 0
    for state, _player in positions(game, players, seed=5, every=4, limit=8):
        shuffled = engine.load(engine.dump(state))
        hooks.shuffle_pile(shuffled, random.Random(1))
        assert all(engine.view(shuffled, p) == engine.view(state, p) for p in state.players)
        before, after = json.loads(engine.dump(state)), json.loads(engine.dump(shuffled))
        assert {k: v for k, v in before.items() if k not in PILES} == {k: v for k, v in after.items() if k not in PILES}
        piles = PILES & before.keys()
        assert [same_cards(before[k]) for k in piles] == [same_cards(after[k]) for k in piles]
        reordered += before != after
    assert reordered > 0


PILES = {"deck", "draw_pile", "piles", "draw"}  # the piles' fields in the games' states


@pytest.mark.parametrize("game", ["pileup", "rocca", "twinpyramid"])
def test_the_seers_shuffle_reorders_every_own_pile(game: str) -> None:
    """With ``streams: per_seat`` the seer's ``shuffle_pile`` reorders each seat's own pile (its cards stay its
    own) and gives Pile up's own dice a new RNG; nothing any seat sees changes."""
    from bot.games import sampler_hooks

    engine = get_engine(game)
    hooks = sampler_hooks(game)
    assert hooks is not None and hooks.shuffle_pile is not None
    reordered = 0
    for state, _player in positions(game, 3, seed=5, every=4, limit=8, options=PER_SEAT):
        shuffled = engine.load(engine.dump(state))
        hooks.shuffle_pile(shuffled, random.Random(1))
        assert all(engine.view(shuffled, p) == engine.view(state, p) for p in state.players)
        assert shuffled.model_dump(exclude={"own"}) == state.model_dump(exclude={"own"})
        assert all(sorted(shuffled.pile_of(p)) == sorted(state.pile_of(p)) for p in state.players)
        reordered += any(shuffled.pile_of(p) != state.pile_of(p) for p in state.players)
    assert reordered > 0


def same_cards(pile: list[str] | dict[str, list[str]]) -> Any:
    return {k: sorted(v) for k, v in pile.items()} if isinstance(pile, dict) else sorted(pile)


def test_pileups_strong_bot_plays_the_heuristic_and_the_seer_still_searches() -> None:
    """Pile up's sampler says ``SEARCHED = False`` (searching measured no better there): strong is the heuristic's
    choice at every decision, while bench.bots' seer and oracle, which pass their own sampler, still search."""
    engine = get_engine("pileup")
    differs = 0
    for state, player in positions("pileup", 3, seed=11, every=1, limit=40):
        view, legal = engine.view(state, player), engine.legal_actions(state, player)
        seed = f"s{len(legal)}"
        normal = heuristic_for("pileup")(view, legal, random.Random(f"strong:pileup:{seed}"))
        assert choose_strong("pileup", view, legal, seed, iterations=12) == normal
        truth = engine.dump(state)
        seer = choose_strong("pileup", view, legal, seed, iterations=12,
                             sample=lambda _v, _r, truth=truth: engine.load(truth))
        differs += seer != normal
    assert differs > 0


def test_a_games_playout_cap_stops_the_search_before_its_time_is_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """``MAX_PLAYOUTS`` ends a search with time left (a fixed ``iterations`` still rules a bench cell); a cap that
    is not a positive whole number is refused."""
    import dataclasses
    import types

    from bot import games
    from bot.games import PluginError, SamplerHooks, _hooks

    engine = get_engine("rocca")
    state, player = next(positions("rocca", 3, seed=4, every=1, limit=1))
    view, legal = engine.view(state, player), engine.legal_actions(state, player)
    hooks = games.sampler_hooks("rocca")
    assert hooks is not None
    monkeypatch.setitem(games.LOADED, ("sampler", "rocca"), dataclasses.replace(hooks, MAX_PLAYOUTS=24))
    report: dict[str, int] = {}
    choose_strong("rocca", view, legal, "cap", budget_s=20.0, report=report)
    assert report["playouts"] == 24  # the cap ended the search, not its 20 s
    choose_strong("rocca", view, legal, "cap", iterations=48, report=report)
    assert report["playouts"] > 24
    for bad in (0, 2.5, "120"):
        module = types.SimpleNamespace(sample=lambda view, rng: None, MAX_PLAYOUTS=bad)
        with pytest.raises(PluginError):
            _hooks(SamplerHooks, module, "toy", "sampler")
