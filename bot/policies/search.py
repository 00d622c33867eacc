"""The ``strong`` bot: determinised search (PIMC) that sees only what its seat may see.

For each decision the bot repeatedly

1. samples a full engine state consistent with its seat's ``view`` (a *determiniser*, the
   plug-in's ``sampler``, ``bot/policies/sampling/<game>.py``: the unseen cards are dealt at random among the
   places they could be, the hidden RNG gets a fresh seed drawn from the bot's own seed),
2. for each candidate action (the ``normal`` choice and the next best few by the game's prior)
3. applies it to the sampled state and plays the game out with the game's heuristic
   (``bot/policies/<game>.py``) for every seat, and
4. scores the finished game for itself (a first place shared by k players counts 1/k,
   blended with the place reached).

It returns the action with the best average score. The search never reads anything but
the view: the true hidden cards and the true RNG never reach it, so two states that differ
only in what this seat cannot see give the same decision for the same seed.

Budget: ``iterations`` (a cap on determinised playouts) makes the choice reproducible for
a seed; without it the search runs for ``budget_s`` seconds of wall time (then the number
of playouts depends on the machine). A game without a determiniser (its plug-in's ``sampler``
is None; ``bot.games.SamplerHooks`` lists the hooks and their defaults), or whose sampler says ``SEARCHED = False``
(Pile up: searching measured no better than the heuristic), plays the ``normal`` heuristic.
"""
from __future__ import annotations

import math
import random
import time
from typing import Any, Callable

from engines import Action, EngineError, View, get_engine

from ..games import MAX_ROLLOUT_STEPS, sampler_hooks
from . import STRONG_BUDGET_S, heuristic_for

WIN_WEIGHT = 0.75  # the rest of the reward is the place reached (1 first .. 0 last)


def sampler_for(game: str) -> Callable[[View, random.Random], Any] | None:
    """The game's determiniser, or None when the game has none (the strong bot then plays ``normal``)."""
    hooks = sampler_hooks(game)
    return None if hooks is None else hooks.sample


def searches(game: str) -> bool:
    """Whether the game's strong bot searches: it has a determiniser and does not play the heuristic instead
    (``SEARCHED = False``, where searching measured no better)."""
    hooks = sampler_hooks(game)
    return hooks is not None and hooks.SEARCHED


def rollout_limits(game: str) -> tuple[int, Callable[[Any, str], float] | None]:
    """(playout steps, evaluation of an unfinished game) from the game's sampler: a game whose
    playouts are long stops them after ``ROLLOUT_STEPS`` and scores the position with ``evaluate``."""
    hooks = sampler_hooks(game)
    return (MAX_ROLLOUT_STEPS, None) if hooks is None else (hooks.ROLLOUT_STEPS, hooks.evaluate)


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
    hooks = sampler_hooks(game)
    assert hooks is not None  # only games that declare sampler hooks are searched
    see = hooks.rollout_view or engine.view
    fast = hooks.rollout_choose  # a cheaper playout policy, given the state itself
    done = hooks.rollout_done  # a point where the playout stops and ``evaluate`` scores
    legal_actions = hooks.rollout_legal or engine.legal_actions
    apply = hooks.rollout_apply or engine._apply
    for _ in range(steps):
        actors = engine.to_act(state)
        if not actors or (done is not None and done(state)):
            break
        player = actors[0]
        legal = legal_actions(state, player)
        if not legal:
            break
        if fast is not None:
            apply(state, player, fast(state, player, legal, rng))
        else:
            apply(state, player, policy(see(state, player), legal, rng))
    result = engine.result(state)
    if result is None:
        if evaluate is not None:
            return evaluate(state, me)
        return 0.5 / len(state.players)  # unfinished (should not happen): a neutral score
    return reward(result, me, len(state.players))


def candidates(game: str, view: View, legal: list[Action], rng: random.Random) -> list[int]:
    """Indices of the legal actions worth searching, best first: the ``normal`` choice, then the rest in the
    order of the game's ``prior(view, action)`` (higher first) when its sampling module has one, else shuffled;
    at most the game's ``SEARCH_CANDIDATES``."""
    normal = heuristic_for(game)(view, legal, random.Random(rng.getrandbits(64)))
    first = legal.index(normal)
    rest = [i for i in range(len(legal)) if i != first]
    hooks = sampler_hooks(game)
    assert hooks is not None  # only games that declare sampler hooks are searched
    prior = hooks.prior
    rng.shuffle(rest)
    if prior is not None:
        rest.sort(key=lambda i: -prior(view, legal[i]))  # stable: ties stay shuffled
    return [first, *rest][:hooks.SEARCH_CANDIDATES]


def choose_strong(
    game: str,
    view: View,
    legal: list[Action],
    seed: str,
    budget_s: float = STRONG_BUDGET_S,
    iterations: int | None = None,
    sample: Callable[[View, random.Random], Any] | None = None,
    report: dict[str, int] | None = None,
) -> Action:
    """The strong bot's move: one element of ``legal``.

    The search runs in rounds: each round samples one determinisation and plays every candidate action
    from it with the same playout randomness (common random numbers, so the candidates are compared on
    equal deals). ``iterations`` caps the playouts (rounds × candidates, at least one round) and makes the
    choice deterministic for ``seed`` (the time budget is then not looked at); otherwise rounds run until
    ``budget_s`` seconds have passed or the game's ``MAX_PLAYOUTS`` (where it sets one) are played. An action
    replaces the ``normal`` choice only when it beats it clearly (see ``pick``).
    Games without a determiniser play the ``normal`` heuristic. ``sample`` replaces the game's determiniser
    (``bench.bots``' clairvoyant ``oracle``, which is handed the true state, uses it; a bot never does).
    ``report``, when given, receives the number of ``playouts`` run (``bench.strong_budget``).
    """
    rng = random.Random(f"strong:{game}:{seed}")
    if len(legal) <= 1:
        return legal[0]
    if sample is None and searches(game):
        sample = sampler_for(game)
    me = view.viewer
    if sample is None or me is None:
        if report is not None:
            report["playouts"] = 0
        return heuristic_for(game)(view, legal, rng)
    hooks = sampler_hooks(game)
    assert hooks is not None  # a game without a sampler returned above
    cands = candidates(game, view, legal, rng)
    scores: dict[int, list[float]] = {i: [] for i in cands}  # per round, None-free (paired by round)
    cap = iterations if iterations is not None else hooks.MAX_PLAYOUTS
    rounds = None if cap is None else max(1, cap // len(cands))
    deadline = None if iterations is not None else time.perf_counter() + budget_s
    done = 0
    while True:
        if rounds is not None and done >= rounds:
            break
        if deadline is not None and done >= 1 and time.perf_counter() >= deadline:
            break
        done += 1
        deal_seed, play_seed = rng.getrandbits(64), rng.getrandbits(64)
        results = {}
        for i in cands:
            state = sample(view, random.Random(deal_seed))
            results[i] = playout(game, state, me, legal[i], random.Random(play_seed))
        if any(r is None for r in results.values()):  # not legal in this sample (cannot happen when sound)
            continue
        for i in cands:
            scores[i].append(results[i])  # type: ignore[arg-type]  # no None: checked just above
    if report is not None:
        report["playouts"] = done * len(cands)
    return legal[pick(cands, scores, hooks.SWITCH_Z)]


def pick(cands: list[int], scores: dict[int, list[float]], switch_z: float = 1.0) -> int:
    """The candidate to play: the ``normal`` choice (``cands[0]``) unless another beats it by more than
    ``switch_z`` standard errors of the paired per-round differences (a plain best-average would mostly
    pick the luckiest of a few noisy candidates)."""
    base = cands[0]
    n = len(scores[base])
    if n < 2:  # one round says nothing of its spread: no candidate beats the normal choice clearly
        return base
    best, best_edge = base, 0.0
    for i in cands[1:]:
        diffs = [a - b for a, b in zip(scores[i], scores[base], strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        se = math.sqrt(var / n)
        if mean > switch_z * se and mean > 0 and mean - switch_z * se > best_edge:
            best, best_edge = i, mean - switch_z * se
    return best
