"""Typed views (docs/engine-contract.md, "Views"): every game's view is its frozen View model, pickles (views cross
to worker processes), keeps its JSON shape (a spectator's has no ``hand`` key) and loads back from that shape."""
from __future__ import annotations

import pickle
import random

import pytest
from pydantic import ValidationError

from engines import GAMES, View, get_engine


def midgame(game: str, steps: int = 12):
    engine = get_engine(game)
    state = engine.new_game([f"p{i}" for i in range(engine.min_players)], seed=11)
    rng = random.Random(11)
    for _ in range(steps):
        actors = engine.to_act(state)
        if not actors:
            break
        player = actors[0]
        state, _ = engine.apply(state, player, rng.choice(engine.legal_actions(state, player)))
    return engine, state


@pytest.mark.parametrize("game", GAMES)
def test_views_are_frozen_models_that_pickle_and_round_trip(game: str) -> None:
    engine, state = midgame(game)
    seat = state.players[0]
    own, spectator = engine.view(state, seat), engine.view(state, None)
    assert isinstance(own, View) and type(own).__module__ == f"engines.{game}.view"
    assert own.viewer == seat and own.hand is not None
    assert spectator.viewer is None and spectator.hand is None
    assert "hand" not in spectator.model_dump() and "viewer" not in spectator.model_dump()
    for view in (own, spectator):
        assert pickle.loads(pickle.dumps(view)) == view
        assert type(view).model_validate(view.model_dump()) == view
        assert type(view).model_validate_json(view.model_dump_json()) == view
    with pytest.raises(ValidationError):
        own.to_act = []  # frozen


@pytest.mark.parametrize("game", GAMES)
def test_a_view_without_a_required_field_is_refused(game: str) -> None:
    engine, state = midgame(game)
    data = engine.view(state, None).model_dump()
    del data["to_act"]
    with pytest.raises(ValidationError):
        type(engine.view(state, None)).model_validate(data)
