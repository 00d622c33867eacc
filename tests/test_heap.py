"""bot/heap.py: long-lived objects leave the collector's full walks (frozen), young garbage cycles are collected
rather than frozen, and a loaded table is frozen a moment after it is loaded."""
from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from bot import heap


class Node:
    me: "Node"


def test_settling_freezes_what_lives_and_collects_young_garbage_first() -> None:
    gc.unfreeze()
    alive, dead = Node(), Node()
    dead.me = dead  # a reference cycle nobody holds: only the collector frees it
    gone = weakref.ref(dead)
    del dead
    try:
        heap.HeapKeeper().settle()
        assert gone() is None  # collected, not frozen for ever
        assert gc.get_freeze_count() > 0 and not any(o is alive for o in gc.get_objects())  # out of every walk
    finally:
        gc.unfreeze()
    assert any(o is alive for o in gc.get_objects())


async def test_a_loaded_table_is_frozen_a_moment_later(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "FREEZE_AFTER_S", 0.01)
    keeper = heap.HeapKeeper()
    try:
        keeper.loaded()
        keeper.loaded()  # loaded together: one freeze
        await asyncio.sleep(0.2)
        assert keeper.freezes == 1
    finally:
        keeper.close()
        gc.unfreeze()


def test_a_full_collection_runs_only_when_no_interaction_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "FULL_EVERY_S", 0.0)
    old = Node()
    old.me = old
    gone = weakref.ref(old)
    gc.collect()
    gc.freeze()  # a cycle frozen while alive, garbage since
    del old
    try:
        heap.HeapKeeper(quiet=lambda: False).settle()
        assert gone() is not None  # busy: only the young generations
        heap.HeapKeeper(quiet=lambda: True).settle()
        assert gone() is None  # quiet: everything unfrozen and walked once
    finally:
        gc.unfreeze()
