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
from bot.thinking import Thinker
from engines import get_engine

from .thinking_fns import hang


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
    assert thinker.replaced == 1  # its only worker was stuck: a fresh pool took over


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


async def test_easy_and_normal_stay_on_the_loop(thinker_factory) -> None:
    thinker = await thinker_factory(decide_fn=hang)
    view, legal, player = a_decision()
    for level in ("easy", "normal"):
        assert await thinker.decide("akuma", view, legal, "x", level) == choose_for_seat(
            "akuma", view, legal, "x", level)
    assert thinker.fallbacks == 0


async def test_tables_keep_moving_while_a_strong_bot_hangs(service: GameService, thinker_factory) -> None:
    """A strong table whose every decision hangs still moves (normal after the timeout), and a normal table
    next to it finishes without waiting for it."""
    thinker = await thinker_factory(timeout=0.3, decide_fn=hang)
    scheduler = BotScheduler(service, delay=0, thinker=thinker)
    strong = await service.create_bot_table(game="akuma", players=3, seed=1, channel_id=1, levels=["strong"])
    normal = await service.create_bot_table(game="akuma", players=3, seed=2, channel_id=2)
    started, first = time.monotonic(), strong.version
    scheduler.kick(strong.id)
    scheduler.kick(normal.id)
    try:
        while normal.status == "running" and time.monotonic() - started < 5:
            await asyncio.sleep(0.01)
        assert normal.status == "finished" and time.monotonic() - started < 2.0
        while strong.version < first + 2 and time.monotonic() - started < 5:
            await asyncio.sleep(0.01)
        assert strong.version >= first + 2  # the hanging strong table moved too, on normal fallbacks
        assert thinker.fallbacks >= 2
    finally:
        await scheduler.close()
