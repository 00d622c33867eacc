"""The games are listed once, in ``engines``: ``bot.games`` makes every plug-in from that list, in its order."""
from __future__ import annotations

import pytest

from bot.games import GamePlugin, check_plugin, games, plugin
from engines import GAMES, BadOptions, engine_target, get_engine


def test_every_listed_engine_has_its_plugin_in_the_same_order() -> None:
    assert games() == GAMES and len(GAMES) == 5
    for game in GAMES:
        declared = plugin(game)
        assert declared.engine == engine_target(game) and declared.controls == f"cogs.games.{game}"
        module, _, cls = declared.engine.partition(":")
        assert type(get_engine(game)).__name__ == cls and type(get_engine(game)).__module__.startswith(module)
        check_plugin(game)


def test_a_plugin_of_an_unlisted_game_must_name_its_engine() -> None:
    with pytest.raises(BadOptions):
        GamePlugin("nosuchgame")
    assert GamePlugin("toy", "tests.toy.engine:ToyEngine").engine == "tests.toy.engine:ToyEngine"
