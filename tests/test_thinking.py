"""Bot thinking in worker processes: late decisions fall back to normal in time, a killed worker is replaced,
and every table keeps moving while a strong bot thinks."""
from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from bot.policies import choose_for_seat
from bot.scheduler import BotScheduler
from bot.service import GameService
from bot.thinking import QUICK, Thinker, Thinkers
from engines import get_engine

from .thinking_fns import hang, slow, where, where_pid


def a_decision(game: str = "akuma") -> tuple[dict, list, str]:
    engine = get_engine(game)
    state = engine.new_game(["s0", "s1", "s2"], seed=3)
    player = engine.to_act(state)[0]
    return engine.view(state, player), engine.legal_actions(state, player), player


@pytest.fixture
async def thinker_factory():
    made: list[Thinker] = []

    async def make(**kwargs) -> Thinker:
        thinker = Thinker(1, **kwargs)
        thinker.start()
        made.append(thinker)
        await thinker.ready()
        return thinker

    yield make
    for thinker in made:
        await thinker.close()


async def test_a_strong_decision_runs_in_a_worker(thinker_factory) -> None:
    thinker = await thinker_factory()
    view, legal, player = a_decision()
    move = await thinker.decide("akuma", view, legal, "s", "strong")
    assert move in legal and thinker.fallbacks == 0
    assert thinker.pids() and os.getpid() not in thinker.pids()


async def test_a_decision_that_hangs_falls_back_to_normal_in_time(thinker_factory) -> None:
    thinker = await thinker_factory(timeout=0.3, decide_fn=hang)
    view, legal, player = a_decision()
    started = time.monotonic()
    move = await thinker.decide("akuma", view, legal, "seed", "strong")
    assert time.monotonic() - started < 1.0
    assert move == choose_for_seat("akuma", view, legal, "seed", "normal")
    assert thinker.fallbacks == 1
    while thinker.replaced == 0 and time.monotonic() - started < 3.0:
        await asyncio.sleep(0.05)
    assert thinker.replaced == 1  # one timeout later its only worker was still stuck: a fresh pool took over


async def test_a_killed_worker_is_replaced_and_the_next_decision_works(thinker_factory) -> None:
    thinker = await thinker_factory()
    view, legal, player = a_decision()
    old = thinker.pids()
    os.kill(old[0], signal.SIGKILL)
    await asyncio.sleep(0.2)
    move = await thinker.decide("akuma", view, legal, "a", "strong")  # the broken pool: normal, on the loop
    assert move in legal
    assert thinker.replaced == 1
    await thinker.ready()
    fallbacks = thinker.fallbacks
    assert await thinker.decide("akuma", view, legal, "b", "strong") in legal
    assert thinker.fallbacks == fallbacks  # answered by the new worker
    assert thinker.pids() and not set(thinker.pids()) & set(old)


async def test_easy_and_normal_think_in_their_own_worker_and_a_late_one_falls_back_to_its_own_level(
        thinker_factory) -> None:
    thinker = await thinker_factory(offloaded=QUICK, decide_fn=where_pid)
    view, legal, player = a_decision()
    for level in QUICK:
        move, pid = await thinker.decide("akuma", view, legal, "x", level)
        assert move == choose_for_seat("akuma", view, legal, "x", level) and pid in thinker.pids()
    assert thinker.fallbacks == 0
    hanging = await thinker_factory(timeout=0.3, decide_fn=hang, offloaded=QUICK)
    for level in QUICK:
        assert await hanging.decide("akuma", view, legal, "y", level) == choose_for_seat(
            "akuma", view, legal, "y", level)
    assert hanging.fallbacks == 2


async def test_a_backlog_of_quick_decisions_is_not_taken_for_a_stuck_pool(thinker_factory) -> None:
    """More decisions than one worker answers within the timeout: the late ones still queued are withdrawn and
    answered on the loop, every decision is legal, and the healthy worker is not killed."""
    thinker = await thinker_factory(timeout=0.3, decide_fn=slow, offloaded=QUICK)
    view, legal, player = a_decision()
    assert thinker.pool is not None  # the worker imports this test's module at its first call: not timed
    await asyncio.wrap_future(thinker.pool.submit(slow, "akuma", view, legal, "warm", "normal"))
    moves = await asyncio.gather(*(thinker.decide("akuma", view, legal, f"s{i}", "normal") for i in range(30)))
    assert moves == [choose_for_seat("akuma", view, legal, f"s{i}", "normal") for i in range(30)]
    assert 0 < thinker.fallbacks < 30  # the first few answered by the worker, the backlog withdrawn
    await asyncio.sleep(0.8)  # past the stuck check: the running decisions have ended by then
    assert thinker.replaced == 0


async def test_a_decision_under_way_when_the_pool_is_replaced_falls_back(thinker_factory) -> None:
    """Replacing the pool cancels what it still held; those decisions are answered on the loop, not lost."""
    thinker = await thinker_factory(timeout=5.0, decide_fn=hang, offloaded=QUICK)
    view, legal, player = a_decision()
    pending = asyncio.gather(*(thinker.decide("akuma", view, legal, f"r{i}", "normal") for i in range(3)))
    await asyncio.sleep(0.3)
    thinker._replace(thinker.pool, "test")
    moves = await asyncio.wait_for(pending, 3.0)
    assert moves == [choose_for_seat("akuma", view, legal, f"r{i}", "normal") for i in range(3)]
    assert thinker.fallbacks == 3


async def test_a_normal_table_thinks_in_a_worker_beside_a_hanging_strong_search(service: GameService) -> None:
    """The bot's two pools: a strong search that hangs holds up none of the normal table's decisions, which are
    all answered by the quick worker (none on the loop), while the strong table moves on fallbacks."""
    thinkers = Thinkers(1, quick_in_worker=True)
    thinkers.strong = Thinker(1, timeout=0.3, decide_fn=hang)
    thinkers.quick = Thinker(1, decide_fn=where, offloaded=QUICK)
    thinkers.start()
    await thinkers.ready()
    scheduler = BotScheduler(service, delay=0, thinker=thinkers)
    strong = await service.create_bot_table(game="akuma", players=3, seed=1, channel_id=1, levels=["strong"])
    normal = await service.create_bot_table(game="akuma", players=3, seed=2, channel_id=2)
    started, first = time.monotonic(), strong.version
    scheduler.kick(strong.id)
    scheduler.kick(normal.id)
    try:
        while normal.status == "running" and time.monotonic() - started < 10:
            await asyncio.sleep(0.01)
        assert normal.status == "finished" and time.monotonic() - started < 3.0  # no wait behind the search
        while strong.version < first + 2 and time.monotonic() - started < 10:
            await asyncio.sleep(0.01)
        assert strong.version >= first + 2 and thinkers.strong.fallbacks >= 2
        assert thinkers.quick.fallbacks == 0  # every normal decision came from the quick worker
    finally:
        await scheduler.close()
        await thinkers.close()


async def test_by_default_quick_levels_decide_on_the_loop_and_only_strong_has_workers() -> None:
    """The bot's default: no process for easy and normal (on two cores the worker cost more than it saved)."""
    thinkers = Thinkers(1)
    thinkers.start()
    try:
        await thinkers.ready()
        assert thinkers.quick.pool is None and thinkers.strong.pids()
        view, legal, player = a_decision()
        for level in QUICK:
            assert await thinkers.decide("akuma", view, legal, "d", level) == choose_for_seat(
                "akuma", view, legal, "d", level)
        assert thinkers.quick.fallbacks == 0
    finally:
        await thinkers.close()
