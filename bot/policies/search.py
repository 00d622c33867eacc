"""The ``strong`` bot: determinised search (PIMC) that sees only what its seat may see.

For each decision the bot repeatedly

1. samples a full engine state consistent with its seat's ``view`` (a *determiniser*,
   ``bot/policies/sampling/<game>.py``: the unseen cards are dealt at random among the
   places they could be, the hidden RNG gets a fresh seed drawn from the bot's own seed),
2. picks one of its legal actions by UCB1 over the results so far,
3. applies it to the sampled state and plays the game out with the game's heuristic
   (``bot/policies/<game>.py``) for every seat, and
4. scores the finished game for itself (a first place shared by k players counts 1/k,
   blended with the place reached).

It returns the action with the best average score. The search never reads anything but
the view: the true hidden cards and the true RNG never reach it, so two states that differ
only in what this seat cannot see give the same decision for the same seed.

Budget: ``iterations`` (a cap on determinised playouts) makes the choice reproducible for
a seed; without it the search runs for ``budget_s`` seconds of wall time (then the number
of playouts depends on the machine). A game without a determiniser (see ``_SAMPLERS``)
falls back to the ``normal`` heuristic.
"""
from __future__ import annotations

import math
import random
import time
from importlib import import_module
from typing import Any, Callable

from engines import Action, EngineError, get_engine

from . import heuristic_for

# game -> module under bot.policies.sampling that defines ``sample(view, rng) -> state``.
_SAMPLERS: dict[str, str] = {
    "akuma": "akuma",
    "pileup": "pileup",
}

UCB_C = 0.5
WIN_WEIGHT = 0.75  # the rest of the reward is the place reached (1 first .. 0 last)
MAX_ROLLOUT_STEPS = 2000


def sampler_for(game: str) -> Callable[[dict[str, Any], random.Random], Any] | None:
    """The game's determiniser, or None when the game has none (the strong bot then plays ``normal``)."""
    name = _SAMPLERS.get(game)
    if name is None:
        return None
    return import_module(f"bot.policies.sampling.{name}").sample


def rollout_limits(game: str) -> tuple[int, Callable[[Any, str], float] | None]:
    """(playout steps, evaluation of an unfinished game) from the game's sampling module: a game whose
    playouts are long stops them after ``ROLLOUT_STEPS`` and scores the position with ``evaluate``."""
    name = _SAMPLERS.get(game)
    if name is None:
        return MAX_ROLLOUT_STEPS, None
    module = import_module(f"bot.policies.sampling.{name}")
    return getattr(module, "ROLLOUT_STEPS", MAX_ROLLOUT_STEPS), getattr(module, "evaluate", None)


def reward(result: Any, me: str, players: int) -> float:
    """1 for a sole win, 1/k for a win shared by k, plus a little for a better place."""
    place = 1
    for group in result.ranking:
        if me in group:
            win = 1.0 / len(group) if place == 1 else 0.0
            best, worst = place, place + len(group) - 1
            mean_place = (best + worst) / 2
            place_score = (players - mean_place) / (players - 1) if players > 1 else 1.0
            return WIN_WEIGHT * win + (1 - WIN_WEIGHT) * place_score
        place += len(group)
    return 0.0


def playout(game: str, state: Any, me: str, action: Action, rng: random.Random) -> float | None:
    """Apply ``action`` for ``me`` to the (private, sampled) ``state`` and play on with the heuristics.

    Mutates ``state`` in place (the engine's ``_apply`` on our own copy: no per-step copying).
    Returns the reward for ``me``, or None when the action is not legal in this sample.
    """
    engine = get_engine(game)
    policy = heuristic_for(game)
    try:
        engine._apply(state, me, action)
    except EngineError:
        return None
    steps, evaluate = rollout_limits(game)
    for _ in range(steps):
        actors = engine.to_act(state)
        if not actors:
            break
        player = actors[0]
        legal = engine.legal_actions(state, player)
        if not legal:
            break
        engine._apply(state, player, policy(engine.view(state, player), legal, rng))
    result = engine.result(state)
    if result is None:
        if evaluate is not None:
            return evaluate(state, me)
        return 0.5 / len(state.players)  # unfinished (should not happen): a neutral score
    return reward(result, me, len(state.players))


def choose_strong(
    game: str,
    view: dict[str, Any],
    legal: list[Action],
    seed: str,
    budget_s: float = 0.3,
    iterations: int | None = None,
) -> Action:
    """The strong bot's move: one element of ``legal``.

    ``iterations`` caps the playouts and makes the choice deterministic for ``seed`` (the time
    budget is then not looked at); otherwise playouts run until ``budget_s`` seconds have passed.
    Games without a determiniser play the ``normal`` heuristic.
    """
    rng = random.Random(f"strong:{game}:{seed}")
    if len(legal) <= 1:
        return legal[0]
    sample = sampler_for(game)
    me = view.get("viewer")
    if sample is None or me is None:
        return heuristic_for(game)(view, legal, rng)
    visits = [0] * len(legal)
    totals = [0.0] * len(legal)
    dead = [False] * len(legal)  # illegal in a sample (cannot happen with a sound sampler)
    deadline = None if iterations is not None else time.perf_counter() + budget_s
    done = 0
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and done >= 1 and time.perf_counter() >= deadline:
            break
        done += 1
        live = [i for i in range(len(legal)) if not dead[i]]
        if not live:
            break
        untried = [i for i in live if visits[i] == 0]
        if untried:
            i = untried[0]
        else:
            log_n = math.log(sum(visits[j] for j in live))
            i = max(live, key=lambda j: (totals[j] / visits[j] + UCB_C * math.sqrt(log_n / visits[j]), -j))
        state = sample(view, rng)
        r = playout(game, state, me, legal[i], rng)
        if r is None:
            dead[i] = True
            continue
        visits[i] += 1
        totals[i] += r
    tried = [i for i in range(len(legal)) if visits[i] > 0]
    if not tried:
        return heuristic_for(game)(view, legal, rng)
    best = max(tried, key=lambda i: (totals[i] / visits[i], visits[i], -i))
    return legal[best]
