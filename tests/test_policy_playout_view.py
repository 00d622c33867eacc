"""The playout views (``bot.policies.seat_view.PlayoutView``): the few fields of a seat's view that a heuristic
reads inside the strong bot's playouts, built cheaply from the state. Each field must be one of the game's view
model's fields and hold what the full view holds, all along real games."""
from __future__ import annotations

import dataclasses
import random

import pytest

from bot.games import sampler_hooks
from bot.policies.akuma import AkumaPlayoutView
from bot.policies.rocca import RoccaPlayoutView
from bot.policies.seat_view import PlayoutView
from engines import get_engine
from engines.akuma.view import AkumaView
from engines.rocca.view import RoccaView

PLAYOUT_VIEWS: dict[str, tuple[type[PlayoutView], type]] = {
    "akuma": (AkumaPlayoutView, AkumaView),
    "rocca": (RoccaPlayoutView, RoccaView),
}


def test_every_game_with_a_playout_view_is_checked_here() -> None:
    with_one = {g for g in ("akuma", "rocca", "pileup", "twinpyramid", "diamondbox")
                if (hooks := sampler_hooks(g)) is not None and hooks.rollout_view is not None}
    assert with_one == set(PLAYOUT_VIEWS)


@pytest.mark.parametrize("game", sorted(PLAYOUT_VIEWS))
def test_playout_view_fields_are_the_view_models_fields(game: str) -> None:
    playout, model = PLAYOUT_VIEWS[game]
    names = [f.name for f in dataclasses.fields(playout)]  # type: ignore[arg-type]  # each one is a dataclass
    assert names and set(names) <= set(model.model_fields)


@pytest.mark.parametrize("game", sorted(PLAYOUT_VIEWS))
def test_playout_view_holds_what_the_full_view_holds(game: str) -> None:
    engine, (playout, _model) = get_engine(game), PLAYOUT_VIEWS[game]
    hooks = sampler_hooks(game)
    assert hooks is not None and hooks.rollout_view is not None
    names = [f.name for f in dataclasses.fields(playout)]  # type: ignore[arg-type]
    checked = 0
    for seed in range(6):
        state = engine.new_game([f"p{i}" for i in range(3 + seed % 2)], seed=seed)
        walk = random.Random(seed)
        while actors := engine.to_act(state):
            player = actors[0]
            fast, full = hooks.rollout_view(state, player), engine.view(state, player)
            assert isinstance(fast, playout)
            assert {n: getattr(fast, n) for n in names} == {n: getattr(full, n) for n in names}
            checked += 1
            state, _ = engine.apply(state, player, walk.choice(engine.legal_actions(state, player)))
    assert checked > 100
