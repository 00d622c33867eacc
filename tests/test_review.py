"""The replay viewer's pure parts (``bot.review``): the seek menu's points fit one select and start where the
game's events say, and the cache of rebuilt replays stays bounded, dropping the least recently used."""
from __future__ import annotations

import itertools
from pathlib import Path

from bot.replay import state_digest
from bot.review import ReplayCache, SeekKind, SeekPoint, SteppedReplay, seek_points, thin

from .test_replay_hidden import finished_replay


def test_thinning_keeps_first_and_last_and_at_most_25() -> None:
    points = [SeekPoint(i * 3, i + 1) for i in range(100)]
    thinned = thin(points)
    assert len(thinned) == 25 and thinned[0] == points[0] and thinned[-1] == points[-1]
    assert thin(points[:7]) == points[:7]
    gaps = [b.number - a.number for a, b in itertools.pairwise(thinned)]
    assert max(gaps) - min(gaps) <= 1  # evenly spaced


async def test_seek_points_follow_the_games_events(tmp_path: Path) -> None:
    twin = await finished_replay(tmp_path, "twinpyramid", seed=7)
    kind, points = seek_points(SteppedReplay(twin))
    deals = [f.index for f in twin.frames if any(ev.type == "deal_started" for ev in f.events)]
    assert kind is SeekKind.DEAL and [p.frame for p in points] == deals[:25] and len(deals) > 1
    akuma = await finished_replay(tmp_path, "akuma", seed=7)
    kind, points = seek_points(SteppedReplay(akuma))
    assert kind is SeekKind.TRICK and 1 < len(points) <= 25
    assert all(any(ev.type == "trick_started" for ev in akuma.frames[p.frame].events) for p in points)


async def test_the_cache_keeps_the_most_recently_used(tmp_path: Path) -> None:
    replay = SteppedReplay(await finished_replay(tmp_path, "rocca", seed=3))
    cache = ReplayCache(size=2)
    cache.put(1, replay)
    cache.put(2, replay)
    assert cache.get(1) is replay  # 1 is now the most recent
    cache.put(3, replay)
    assert len(cache) == 2 and cache.get(2) is None and cache.get(1) is replay and cache.get(3) is replay


async def test_a_stepped_replay_reaches_every_frames_state_in_any_order(tmp_path: Path) -> None:
    """Frames between checkpoints are played again from the checkpoint before them (or from the frame shown last):
    forwards, backwards and by jumps, each equals the state the full rebuild holds."""
    full = await finished_replay(tmp_path, "twinpyramid", seed=11)
    stepped = SteppedReplay(full, every=8)
    assert len(stepped) == len(full) and len(stepped.checkpoints) == (len(full) + 7) // 8
    last = len(full) - 1
    order = [*range(len(full)), *range(last, -1, -1), *[(i * 37) % len(full) for i in range(len(full))]]
    for index in order:
        assert state_digest(stepped.state(index)) == state_digest(full.frames[index].state), index
