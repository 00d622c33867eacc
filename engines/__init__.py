"""Pure game rules. No discord, no aiosqlite, no I/O, no clock, no global random.

``GAMES`` lists the registered games; ``get_engine(name)`` returns its (stateless) engine.
"""
from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Callable

from .base import Action, Engine, Event, GameState, Result, Shape, View
from .errors import BadAction, BadOptions, EngineError, IllegalAction, NotYourTurn
from .json_value import Json, JsonValue

# name -> "module:EngineClass"; a game is listed here once its engine is complete. The one list of the games:
# ``bot.games`` makes each game's plug-in from it (its order is the order of the /play subcommands).
_REGISTRY: dict[str, str] = {
    "akuma": "engines.akuma:AkumaEngine",
    "rocca": "engines.rocca:RoccaEngine",
    "pileup": "engines.pileup:PileupEngine",
    "twinpyramid": "engines.twinpyramid:TwinPyramidEngine",
    "diamondbox": "engines.diamondbox:DiamondBoxEngine",
}
GAMES: tuple[str, ...] = tuple(_REGISTRY)


@cache
def get_engine(name: str) -> Engine:
    try:
        target = _REGISTRY[name]
    except KeyError:
        raise BadOptions("unknown_game", game=name) from None
    module_name, cls_name = target.split(":")
    return getattr(import_module(module_name), cls_name)()


def engine_target(name: str) -> str:
    """Where ``name``'s engine class is ("module:EngineClass")."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise BadOptions("unknown_game", game=name) from None


def register_engine(name: str, target: str) -> Callable[[], None]:
    """Add an engine ("module:EngineClass") under ``name`` unless one is registered (the host's plug-ins do this
    for a game defined elsewhere, e.g. a test's); returns the function that takes it out again. ``GAMES`` lists
    the games of this package only."""
    if name in _REGISTRY:
        return lambda: None
    _REGISTRY[name] = target
    get_engine.cache_clear()

    def unregister() -> None:
        _REGISTRY.pop(name, None)
        get_engine.cache_clear()

    return unregister


__all__ = [
    "GAMES", "get_engine", "engine_target", "register_engine", "Action", "Engine", "Event", "GameState", "Result",
    "Shape", "View",
    "EngineError", "BadAction", "BadOptions", "IllegalAction", "NotYourTurn", "Json", "JsonValue",
]
