"""Full garbage collections postponed while a burst is handled (``bot.collector``): held by whoever is behind,
restored once every holder is idle, and never held longer than ``HELD_AT_MOST`` by a backlog that does not end."""
from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest

from bot import collector
from bot.collector import FullCollections


@pytest.fixture
def threshold() -> Iterator[tuple[int, int, int]]:
    saved = gc.get_threshold()
    yield saved
    gc.set_threshold(*saved)


def test_held_while_anyone_is_behind_and_restored_when_all_are_idle(threshold) -> None:
    full = FullCollections()
    first, second = object(), object()
    full.hold(first)
    full.hold(second)
    assert gc.get_threshold() == (threshold[0], threshold[1], collector.NEVER) and full.holds == 1
    full.release(first)
    assert full.held and gc.get_threshold()[2] == collector.NEVER
    full.release(second)
    assert not full.held and gc.get_threshold() == threshold


def test_a_backlog_that_never_ends_lets_them_run_again(threshold, monkeypatch) -> None:
    now = [100.0]
    monkeypatch.setattr(collector.time, "monotonic", lambda: now[0])
    full, holder = FullCollections(), object()
    full.hold(holder)
    now[0] += collector.HELD_AT_MOST + 1
    full.hold(holder)  # still behind: released, and not held again for a while
    assert not full.held and gc.get_threshold() == threshold
    now[0] += collector.REST - 1
    full.hold(holder)
    assert not full.held
    now[0] += 2
    full.hold(holder)
    assert full.held and full.holds == 2


def test_release_without_hold_changes_nothing(threshold) -> None:
    FullCollections().release(object())
    assert gc.get_threshold() == threshold


async def test_a_handler_that_never_ends_holds_them_no_longer_than_the_limit(threshold, monkeypatch) -> None:
    monkeypatch.setattr(collector, "HELD_AT_MOST", 0.05)
    full, holder = FullCollections(), object()
    full.hold(holder)  # and nothing more arrives, nor does the holder ever become idle
    assert full.held
    await asyncio.sleep(0.2)
    assert not full.held and not full.holders and gc.get_threshold() == threshold
