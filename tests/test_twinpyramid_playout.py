"""The strong Twin Pyramid bot's cheaper playouts (``bot/policies/sampling/twinpyramid_playout.py``) make exactly
the moves the engine's own path made: the same legal actions in the same order, the same heuristic choice with the
same use of the random generator, the same state after each move; and the strong bot's decisions on fixed
positions are the ones main's code gave before the fast path existed."""
from __future__ import annotations

import random
import re
from collections import Counter

from bench.twinpyramid_speed import decisions, digest, playouts, positions
from bot.policies.sampling.twinpyramid import sample
from bot.policies.sampling.twinpyramid_playout import rollout_apply, rollout_choose, rollout_legal, table_of
from bot.policies.twinpyramid import Table, choose
from engines.twinpyramid import TwinPyramidEngine
from engines.twinpyramid.state import REARRANGE_LIMIT, TURNS_PER_PLAYER, Pending, Wild

ENGINE = TwinPyramidEngine()

# Recorded with main's code at 22b5733, before any of the fast path existed (a plain export of that commit with
# only bench/twinpyramid_speed.py added, running ``decisions(positions(games=1, every=7, per_phase=4), 18)`` and
# ``playouts(same positions, 2)`` and printing ``digest`` of each).
MAIN_DECISIONS = "9fe6dbaa7bc1671a"  # 67 positions, 18 playouts a decision: the index of each strong choice
MAIN_PLAYOUTS = "e9f66af9b9227d8f"  # 134 playouts of the normal choice: every score, as exact floats


def test_strong_decisions_and_playout_scores_are_mains():
    items = positions(games=1, every=7, per_phase=4)
    assert len(items) == 67
    chosen, _ = decisions(items, 18)
    assert digest(chosen) == MAIN_DECISIONS
    scores, _ = playouts(items, 2)
    assert digest(scores) == MAIN_PLAYOUTS


def _phase(state) -> str:
    return "arranging" if state.arranging else (state.pending.kind if state.pending else "turn")


def _table_parts(table: Table) -> tuple:
    return (table.held, table.shown, table.stones, table.next_player, table.next_has_stones, table.top, table.players)


def _step(state, player: str, walk: random.Random, seen: Counter) -> object:
    """Check the fast path against the engine at this state; return the move to play (the heuristic's, or now and
    then any legal one, so that rarer corners are reached too)."""
    legal = ENGINE.legal_actions(state, player)
    assert rollout_legal(state, player) == legal
    view = ENGINE.view(state, player)
    assert _table_parts(table_of(state, player)) == _table_parts(Table(view))
    seed = walk.getrandbits(32)
    fast_rng, slow_rng = random.Random(seed), random.Random(seed)
    move = rollout_choose(state, player, legal, fast_rng)
    assert move == choose(view, legal, slow_rng)
    assert fast_rng.getstate() == slow_rng.getstate()  # the same draws from the playout's generator
    seen[_phase(state)] += 1
    seen["wild against the player" if state.wild and state.wild.owner != player else "no wild"] += 1
    seen["a change listed" if any(a.type == "change" for a in legal) else "no change"] += 1
    jokers = [a for a in legal if a.type == "change" and a.card.startswith("X") and a.target.startswith("X")]
    seen["a joker takes a joker" if jokers else "no joker for a joker"] += 1
    return move if walk.random() < 0.7 else walk.choice(legal)


def _edges(state, player: str, move, seen: Counter) -> None:
    """The corners a walk rarely reaches: the rearrangement limit used up (on a turn, before a forced draw), an
    empty hand (no rearrangement menu then), the move made on the deal's last turn (the turn limit ends it), and
    two the quick draw and play follow the engine in although play never meets them."""
    corners = ["last turn"]
    if move.type in ("draw", "play"):  # the moves rollout_apply may make itself
        corners += ["a fresh wild of the mover's", "the draw's top seen with a 3"]
    for corner in corners:
        edged = ENGINE.load(ENGINE.dump(state))
        if corner == "last turn":
            edged.turns = TURNS_PER_PLAYER * len(edged.players) - 1
        elif corner == "a fresh wild of the mover's":  # (a wild is spent in the turn it is named: never met in play)
            edged.wild = Wild(owner=player, suit="S", fresh=True)
        elif pile := edged.pile_of(player):  # (a 3's seen cards are drawn by forced draws: never in play)
            edged.peek = [pile[-1]]
        fast = ENGINE.load(ENGINE.dump(edged))
        rollout_apply(fast, player, move)
        ENGINE._apply(edged, player, move)
        assert ENGINE.dump(fast) == ENGINE.dump(edged), corner
        seen[f"{corner}: {move.type}"] += 1
    for edge in ("limit", "empty hand"):
        edged = ENGINE.load(ENGINE.dump(state))
        if edge == "limit":
            edged.rearranged = REARRANGE_LIMIT
            if edged.pending is not None:
                edged.pending.rearranged = REARRANGE_LIMIT
        else:
            edged.seats[player].held, edged.seats[player].shown = [], []
        assert rollout_legal(edged, player) == ENGINE.legal_actions(edged, player), (edge, _phase(edged))
        seen[f"{edge} at {_phase(edged)}"] += 1


def _walk(state, steps: int, walk: random.Random, seen: Counter) -> None:
    for _ in range(steps):
        actors = ENGINE.to_act(state)
        if not actors:
            return
        player = actors[0]
        move = _step(state, player, walk, seen)
        if not state.arranging and walk.random() < 0.2:
            _edges(state, player, move, seen)
        fast = ENGINE.load(ENGINE.dump(state))
        rollout_apply(fast, player, move)
        ENGINE._apply(state, player, move)
        assert ENGINE.dump(fast) == ENGINE.dump(state)


def test_fast_path_matches_the_engine_along_games_and_sampled_playouts():
    seen: Counter = Counter()
    walk = random.Random(5)
    for n in (2, 3, 4):
        for game in range(2):
            _walk(ENGINE.new_game([f"p{i}" for i in range(n)], seed=300 + 10 * n + game), 400, walk, seen)
        # every seat's own pile (``streams: per_seat``, D19)
        _walk(ENGINE.new_game([f"p{i}" for i in range(n)], seed=350 + n, options={"streams": "per_seat"}), 400, walk,
              seen)
    for _dump, view, _legal, seed in positions(games=1, every=11, per_phase=3):
        _walk(sample(view, random.Random(seed)), 30, walk, seen)
    for kind in ("turn", "build", "name_suit", "two_choice", "order_three", "forced_draw", "arranging", "deal_over",
                 "wild against the player", "a change listed", "a joker takes a joker", "limit at turn",
                 "limit at forced_draw",
                 "empty hand at turn", "empty hand at forced_draw", "last turn: draw", "last turn: play",
                 "a fresh wild of the mover's: draw", "a fresh wild of the mover's: play",
                 "the draw's top seen with a 3: draw"):
        assert seen[kind] > 0, (kind, seen)


def test_fast_build_list_puts_the_a_on_top_only_beside_j_q_k():
    """The A's condition (the rest of the hand J, Q or K: no stone, no joker) at the top of an almost full pyramid."""
    base = ENGINE.new_game(["p0", "p1"], seed=1)
    stones = {"7": "7S", "8": "8S", "9": "9S", "10": "10S", "4": "4S", "5": "5S", "6": "6S", "2": "2S", "3": "3S"}
    hands = (["AH", "KH"], ["AH", "X1"], ["AH", "QC", "JD"], ["AH", "4D"], ["AH", "AD"], ["X2", "AH", "KC"])
    for held in hands:
        state = ENGINE.load(ENGINE.dump(base))
        state.seats["p0"].stones, state.seats["p0"].held, state.seats["p0"].shown = dict(stones), list(held), []
        state.pending = Pending(kind="build", player="p0", count=2)
        assert rollout_legal(state, "p0") == ENGINE.legal_actions(state, "p0"), held
    assert len(ENGINE.legal_actions(state, "p0")) == 1  # the joker bars the A: only end_build


def test_bench_prints_decision_and_playout_times(capsys):
    from bench import twinpyramid_speed

    twinpyramid_speed.main(["--games", "1", "--every", "40", "--per-phase", "1", "--iterations", "6",
                            "--playouts", "1"])
    out = capsys.readouterr().out
    assert re.search(r"^\d+ positions \(1 games each at 2, 3, 4 players\): ", out, re.M)
    assert re.search(r"^playout +mean +[\d.]+ ms  \(\d+ playouts\)  scores [0-9a-f]{16}$", out, re.M)
    assert re.search(r"^decision  p50 +[\d.]+ ms  p99 +[\d.]+ ms  mean +[\d.]+ ms  \(iterations 6\)  choices "
                     r"[0-9a-f]{16}$", out, re.M)
