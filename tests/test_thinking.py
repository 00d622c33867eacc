"""Bot thinking in worker processes: a stuck worker is killed and its decision falls back to normal in time, a
killed worker is replaced, a backlog waits for its worker instead of falling back, and every table keeps moving
while a strong bot thinks."""
from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import pytest

from bot.policies import choose_for_seat
from bot.policies.search import choose_strong
from bot.scheduler import BotScheduler
from bot.service import GameService
from bot.thinking import QUICK, WORKER_NICENESS, Thinker, Thinkers, decide_from_state
from bot.workers import QueueFull
from engines import Action, Engine, get_engine

from .thinking_fns import SEARCH_PLAYOUTS, fails, hang, searched, slow, where, where_pid, where_slowly

ENGINE = get_engine("akuma")


def a_decision() -> tuple[Engine, Any, str]:
    state = ENGINE.new_game(["s0", "s1", "s2"], seed=3)
    return ENGINE, state, ENGINE.to_act(state)[0]


def on_the_loop(seed: str, level: str) -> Action:
    """What the seat's policy chooses from its own view, decided here."""
    engine, state, player = a_decision()
    view = engine.view(state, player)
    return choose_for_seat(engine.name, view, engine.legal_actions(state, player), seed, level)


def legal() -> list[Action]:
    engine, state, player = a_decision()
    return engine.legal_actions(state, player)


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


async def test_a_strong_decision_runs_in_a_worker_and_sees_only_its_seat(thinker_factory) -> None:
    """The worker searches the seat's own view: its move is the one the search makes here from that view. (With a
    fixed number of playouts, so the move does not depend on how many fit in the budget on a busy machine.)"""
    thinker = await thinker_factory(decide_fn=searched, timeout=600.0)
    move = await thinker.decide(*a_decision(), "s", "strong")
    engine, state, player = a_decision()
    here = choose_strong(engine.name, engine.view(state, player), engine.legal_actions(state, player), "s",
                         iterations=SEARCH_PLAYOUTS)
    assert move == here and thinker.fallbacks == 0
    assert thinker.pids() and os.getpid() not in thinker.pids()


async def test_workers_yield_to_the_event_loop(thinker_factory) -> None:
    """A worker runs at a lower priority than the bot, so handing it a decision does not push the loop aside."""
    thinker = await thinker_factory()
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    assert [os.getpriority(os.PRIO_PROCESS, pid) for pid in thinker.pids()] == [min(19, mine + WORKER_NICENESS)]


async def test_a_decision_that_hangs_falls_back_to_normal_in_time(thinker_factory) -> None:
    thinker = await thinker_factory(timeout=0.3, decide_fn=hang)
    old = thinker.pids()
    move = await thinker.decide(*a_decision(), "seed", "strong")  # the job never ends: only its limit answers
    assert move == on_the_loop("seed", "normal")
    assert thinker.fallbacks == 1
    assert thinker.replaced == 1  # it ran longer than it may: its worker was killed and replaced
    await thinker.ready()
    assert thinker.pids() and not set(thinker.pids()) & set(old)


async def test_an_error_in_the_worker_falls_back_and_the_worker_lives_on(thinker_factory) -> None:
    thinker = await thinker_factory(decide_fn=fails)
    pids = thinker.pids()
    assert await thinker.decide(*a_decision(), "e", "strong") == on_the_loop("e", "normal")
    assert thinker.fallbacks == 1 and thinker.replaced == 0 and thinker.pids() == pids


async def test_a_killed_worker_is_replaced_and_the_next_decision_works(thinker_factory) -> None:
    thinker = await thinker_factory(decide_fn=where_pid)
    old = thinker.pids()
    os.kill(old[0], signal.SIGKILL)
    while thinker.replaced == 0:  # the loop reads the end of its pipe
        await asyncio.sleep(0.02)
    await thinker.ready()
    move, pid = await thinker.decide(*a_decision(), "b", "strong")
    assert move == on_the_loop("b", "strong") and thinker.fallbacks == 0  # answered by the new worker
    assert pid in thinker.pids() and not set(thinker.pids()) & set(old)


async def test_a_worker_killed_under_a_decision_falls_back_at_once(thinker_factory) -> None:
    thinker = await thinker_factory(timeout=600.0, decide_fn=hang)  # only the kill can end it
    deciding = asyncio.ensure_future(thinker.decide(*a_decision(), "k", "strong"))
    while thinker.pool is not None and not any(w.job for w in thinker.pool.workers):  # the worker holds the job
        await asyncio.sleep(0.01)
    os.kill(thinker.pids()[0], signal.SIGKILL)
    assert await deciding == on_the_loop("k", "normal")
    assert thinker.fallbacks == 1 and thinker.replaced == 1


async def test_easy_and_normal_think_in_their_own_worker_and_a_late_one_falls_back_to_its_own_level(
        thinker_factory) -> None:
    thinker = await thinker_factory(offloaded=QUICK, decide_fn=where_pid)
    for level in QUICK:
        move, pid = await thinker.decide(*a_decision(), "x", level)
        assert move == on_the_loop("x", level) and pid in thinker.pids()
    assert thinker.fallbacks == 0
    hanging = await thinker_factory(timeout=0.3, decide_fn=hang, offloaded=QUICK)
    for level in QUICK:
        assert await hanging.decide(*a_decision(), "y", level) == on_the_loop("y", level)
    assert hanging.fallbacks == 2


async def test_a_backlog_of_quick_decisions_waits_for_its_worker(thinker_factory) -> None:
    """Far more decisions than one worker answers within the stuck limit: each waits its turn (back-pressure), none
    is decided on the loop, every decision is the seat's own, and the healthy worker is not killed — only the
    running time of a decision counts towards its limit, not its wait in the queue."""
    thinker = await thinker_factory(timeout=0.3, decide_fn=where_slowly, offloaded=QUICK)
    assert thinker.pool is not None  # the worker imports this test's module at its first call: not timed
    await thinker.pool.submit(slow, "akuma", ENGINE.dump(a_decision()[1]), a_decision()[2], "warm", "normal")
    started = time.monotonic()
    answers = await asyncio.gather(*(thinker.decide(*a_decision(), f"s{i}", "normal") for i in range(30)))
    assert time.monotonic() - started > 30 * 0.04 > thinker.timeout  # the last ones waited past the limit
    assert [move for move, _pid in answers] == [on_the_loop(f"s{i}", "normal") for i in range(30)]
    assert {pid for _move, pid in answers} == set(thinker.pids())  # all answered by the one worker
    assert thinker.fallbacks == 0 and thinker.replaced == 0 and not thinker.pool.queue


async def test_a_decision_given_up_by_its_table_leaves_the_queue(thinker_factory) -> None:
    """A table that stops waiting (its task cancelled: the table ended, the bot closes) takes its queued decision
    with it: the worker never runs it, and the decisions behind it are answered."""
    thinker = await thinker_factory(decide_fn=where_slowly, offloaded=QUICK)
    assert thinker.pool is not None
    first = asyncio.ensure_future(thinker.decide(*a_decision(), "a", "normal"))
    given_up = asyncio.ensure_future(thinker.decide(*a_decision(), "b", "normal"))
    last = asyncio.ensure_future(thinker.decide(*a_decision(), "c", "normal"))
    await asyncio.sleep(0)
    assert len(thinker.pool.queue) == 2
    given_up.cancel()
    (move_a, _), (move_c, _) = await asyncio.gather(first, last)
    assert (move_a, move_c) == (on_the_loop("a", "normal"), on_the_loop("c", "normal"))
    assert given_up.cancelled() and thinker.fallbacks == 0 and not thinker.pool.queue


async def test_strong_decisions_waiting_for_a_worker_search_what_is_left_of_their_budget(thinker_factory) -> None:
    """Three tables' strong bots at once and one worker: the budget runs from when the table asked, so the first
    searches it all, the ones behind it search what is left (or play normal when little is), and every table is
    answered by the worker, none on the loop. (How long they take on a busy machine is ``python -m
    bench.strong_queue``'s figure: here the worker's run limit is far off, so only the budget logic is tested.)"""
    thinker = await thinker_factory(decide_fn=where_pid, timeout=600.0)
    answers = await asyncio.gather(*(thinker.decide(*a_decision(), f"q{i}", "strong") for i in range(3)))
    assert thinker.fallbacks == 0 and all(pid in thinker.pids() for _move, pid in answers)
    assert all(move in legal() for move, _pid in answers)
    engine, state, player = a_decision()  # one that waited past its budget plays the seat's normal move
    late = decide_from_state(engine.name, engine.dump(state), player, "q9", "strong", deadline=time.monotonic())
    assert late == on_the_loop("q9", "normal")


async def test_decisions_held_when_the_pool_closes_fall_back(thinker_factory) -> None:
    """Closing the pool under running and queued decisions: they are answered on the loop, not lost."""
    thinker = await thinker_factory(timeout=5.0, decide_fn=hang, offloaded=QUICK)
    pending = asyncio.gather(*(thinker.decide(*a_decision(), f"r{i}", "normal") for i in range(3)))
    await asyncio.sleep(0.3)
    assert thinker.pool is not None
    await thinker.pool.close()
    moves = await asyncio.wait_for(pending, 3.0)
    assert moves == [on_the_loop(f"r{i}", "normal") for i in range(3)]
    assert thinker.fallbacks == 3


async def test_a_normal_table_thinks_in_a_worker_beside_a_hanging_strong_search(service: GameService) -> None:
    """The bot's two lanes: a strong search that hangs holds up none of the normal table's decisions, which are
    all answered by the quick worker (none on the loop), while the strong table moves on fallbacks."""
    thinkers = Thinkers(1, quick_in_worker=True)
    thinkers.strong = Thinker(1, timeout=0.3, decide_fn=hang)
    thinkers.quick = Thinker(1, decide_fn=where, offloaded=QUICK)
    thinkers.start()
    await thinkers.ready()
    scheduler = BotScheduler(service, delay=0, thinker=thinkers)
    strong = await service.create_bot_table(game="akuma", players=3, seed=1, channel_id=1, levels=["strong"])
    normal = await service.create_bot_table(game="akuma", players=3, seed=2, channel_id=2)
    first = strong.version
    scheduler.kick(strong.id)
    scheduler.kick(normal.id)
    try:
        while normal.status == "running":
            await asyncio.sleep(0.01)
        while strong.version < first + 2:
            await asyncio.sleep(0.01)
        assert thinkers.strong.fallbacks >= 2 and thinkers.overflowed == 0  # no normal decision in the strong lane
        assert thinkers.quick.fallbacks == 0  # every normal decision came from the quick worker
    finally:
        await scheduler.close()
        await thinkers.close()


async def test_the_quick_lane_can_stay_on_the_loop() -> None:
    """``BOT_THINK_QUICK_IN_WORKER=0``: no process for easy and normal; strong still has its workers."""
    thinkers = Thinkers(1, quick_in_worker=False)
    thinkers.start()
    try:
        await thinkers.ready()
        assert thinkers.quick.pool is None and thinkers.strong.pids()
        for level in QUICK:
            assert await thinkers.decide(*a_decision(), "d", level) == on_the_loop("d", level)
        assert thinkers.quick.fallbacks == 0
    finally:
        await thinkers.close()


async def test_by_default_every_level_thinks_in_a_worker() -> None:
    """The bot's default settings: easy and normal in the quick worker, strong in its pool; none on the loop."""
    from bot.settings import Settings

    thinkers = Thinkers(1, quick_in_worker=Settings.model_fields["bot_think_quick_in_worker"].default)
    thinkers.start()
    try:
        await thinkers.ready()
        assert thinkers.quick.pids() and thinkers.strong.pids() and os.getpid() not in thinkers.quick.pids()
        assert set(thinkers.quick.offloaded) | set(thinkers.strong.offloaded) == {"easy", "normal", "strong"}
        for level in QUICK:
            assert await thinkers.decide(*a_decision(), "w", level) == on_the_loop("w", level)
        assert thinkers.quick.fallbacks == 0
    finally:
        await thinkers.close()


class Recording(Thinkers):
    """The shipped thinking, noting each decision it was asked for and each it answered."""

    def __init__(self) -> None:
        super().__init__(1, quick_in_worker=True)
        self.asked: list[int] = []
        self.handed: list[bool] = []  # whether each decision was handed the stored text of its state
        self.answered: list[Action] = []

    async def decide(self, engine: Engine, state: Any, player: str, seed: str, level: str,
                     *, state_text: str | None = None) -> Action:
        self.asked.append(int(seed.split(":")[1]))
        self.handed.append(state_text == engine.dump(state))  # the table's stored text is the state's own dump
        action = await super().decide(engine, state, player, seed, level, state_text=state_text)
        self.answered.append(action)
        return action


async def test_a_bot_thinks_while_it_waits_its_pacing_delay(service: GameService) -> None:
    """The decision is asked when the bot's turn comes, not after its pacing delay: a decision that waits for a
    busy worker is ready when the delay ends. The table does not move before the delay is over."""
    thinkers = Recording()
    thinkers.start()
    await thinkers.ready()
    scheduler = BotScheduler(service, delay=60, thinker=thinkers)
    table = await service.create_bot_table(game="akuma", players=3, seed=1, channel_id=1)
    version = table.version
    scheduler.kick(table.id)
    try:
        for _ in range(500):
            if thinkers.answered:
                break
            await asyncio.sleep(0.01)
        assert thinkers.asked == [version] and len(thinkers.answered) == 1  # decided in the first seconds
        assert thinkers.handed == [True]
        assert table.version == version and thinkers.quick.fallbacks == 0  # still waiting out the delay
    finally:
        await scheduler.close()
        await thinkers.close()


async def test_a_full_lane_refuses_other_work_but_queues_its_own_and_never_decides_on_the_loop() -> None:
    """One worker stuck on a decision, a queue bound of two: the pool refuses a job past the bound (so the other
    lane is asked first), while the lane's own decisions still queue behind it rather than decide on the loop."""
    thinker = Thinker(1, timeout=60.0, decide_fn=hang, offloaded=QUICK)
    thinker.start()
    await thinker.ready()
    assert thinker.pool is not None
    thinker.pool.max_queued = 2
    waiting = [asyncio.ensure_future(thinker.decide(*a_decision(), f"b{i}", "normal")) for i in range(4)]
    try:
        for _ in range(50):
            await asyncio.sleep(0.01)
        assert thinker.full() and [job.args[3] for job in thinker.pool.queue] == ["b1", "b2", "b3"]
        with pytest.raises(QueueFull):
            thinker.pool.submit(where, *a_decision_args())
        assert not any(w.done() for w in waiting) and thinker.fallbacks == 0
    finally:
        for w in waiting:
            w.cancel()
        await thinker.close()


def a_decision_args() -> tuple[str, str, str, str, str]:
    engine, state, player = a_decision()
    return engine.name, engine.dump(state), player, "x", "normal"


async def test_a_full_lane_overflows_into_the_other_lanes_workers() -> None:
    """The quick lane's worker stuck and its queue full: the next normal decisions are made by the strong lane's
    worker (its real move), and a strong decision whose lane is full plays normal in the quick lane."""
    thinkers = Thinkers(1, quick_in_worker=True)
    thinkers.quick = Thinker(1, timeout=60.0, decide_fn=hang, offloaded=QUICK)
    thinkers.strong = Thinker(1, decide_fn=where_pid, offloaded=("strong",))
    thinkers.start()
    await thinkers.ready()
    assert thinkers.quick.pool is not None
    thinkers.quick.pool.max_queued = 1
    stuck = [asyncio.ensure_future(thinkers.decide(*a_decision(), f"q{i}", "normal")) for i in range(2)]
    try:
        for _ in range(50):
            await asyncio.sleep(0.01)
        assert thinkers.quick.full()
        move, pid = await asyncio.wait_for(thinkers.decide(*a_decision(), "o", "normal"), 10)
        assert pid in thinkers.strong.pids() and move == on_the_loop("o", "normal")
        assert thinkers.overflowed == 1 and thinkers.quick.fallbacks == thinkers.strong.fallbacks == 0
    finally:
        for w in stuck:
            w.cancel()
        await thinkers.close()
