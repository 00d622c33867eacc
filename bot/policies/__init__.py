"""Bot seats: how a bot chooses its move.

A policy sees only what its seat may see — the player's own ``view`` — and the list of
legal actions, so bots play fair. ``choose_action`` picks the game's heuristic when its
plug-in declares one (``bot.games``), else a random legal action.
"""
from __future__ import annotations

import random
from typing import Any, Protocol

from engines import Action, BadOptions, Engine, View

from ..games import policy
from ..levels import BotLevel
from .seat_view import PolicyView


class Policy(Protocol):
    def __call__(self, view: PolicyView, legal: list[Action], rng: random.Random) -> Action: ...


def random_policy(view: PolicyView, legal: list[Action], rng: random.Random) -> Action:
    return rng.choice(legal)


def heuristic_for(game: str) -> Policy:
    """The game's declared heuristic (its plug-in's ``policy``), else random legal moves."""
    return policy(game) or random_policy


def choose_action(engine: Engine, state: Any, player: str, rng: random.Random) -> Action:
    legal = engine.legal_actions(state, player)
    return heuristic_for(engine.name)(engine.view(state, player), legal, rng)


LEVELS = tuple(BotLevel)
# Seconds of search per decision of a strong bot. More playouts measured stronger (docs/strong-bot.md: Diamond Box
# 3p 0.420 at 36 per decision, 0.588 at 120); 0.5 s buys Rocca about 120 (`python -m bench.strong_budget`).
STRONG_BUDGET_S = 0.5


def check_level(level: str) -> BotLevel:
    """The level named ``level`` (a slash command's choice, a CLI flag, a worker's argument), else ``BadOptions``."""
    try:
        return BotLevel(level)
    except ValueError:
        raise BadOptions(option="level", reason=[lv.value for lv in LEVELS]) from None


def choose_for_seat(game: str, view: View, legal: list[Action], seed: str,
                    level: BotLevel = BotLevel.NORMAL, budget_s: float = STRONG_BUDGET_S) -> Action:
    """The bot's move from what its seat sees, at its level; a plain top-level function so a worker process can
    run it. ``easy``: the heuristic with frequent sensible slips; ``normal``: the heuristic; ``strong``: search for
    ``budget_s`` seconds."""
    level = check_level(level)
    if level is BotLevel.STRONG:
        from .search import choose_strong
        return choose_strong(game, view, legal, seed, budget_s)
    heuristic = heuristic_for(game)
    if level is BotLevel.EASY:
        from .easy import choose_easy
        return choose_easy(game, view, legal, random.Random(seed), heuristic)
    return heuristic(view, legal, random.Random(seed))
