"""A toy sixth game, defined only in the tests and registered only inside them (``PLUGIN``; the ``toy_game``
fixture of tests/test_toy_game.py): each player is dealt two numbered cards and plays one per turn; the highest
total wins. It has every part ``bot.games.GamePlugin`` asks for — engine, render, controls with ``/play toy``,
policy, catalogs and rules in both languages — and no sampler (the strong bot then plays the heuristic)."""
from __future__ import annotations

from pathlib import Path

from bot.games import GamePlugin

PLUGIN = GamePlugin("toy", "tests.toy.engine:ToyEngine", render="tests.toy.render", controls="tests.toy.controls",
                    policy="tests.toy.policy", sampler=None, locales=Path(__file__).with_name("locales"))
