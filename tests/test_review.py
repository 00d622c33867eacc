"""The replay viewer's pure parts (``bot.review``): the seek menu's points fit one select and start where the
game's events say, and the cache of rebuilt replays stays bounded, dropping the least recently used."""
from __future__ import annotations

import itertools
from pathlib import Path

from bot.replay import state_digest
from bot.review import Perspective, ReplayCache, SeekKind, SeekPoint, SteppedReplay, seek_points, thin

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
    by_frames = ReplayCache(size=8, frames=2 * len(replay) + 1)  # long games: bounded by the frames they hold
    for table_id in range(1, 5):
        by_frames.put(table_id, replay)
    assert len(by_frames) == 2 and by_frames.held_frames() <= by_frames.frames and by_frames.get(4) is replay
    alone = ReplayCache(frames=1)
    alone.put(9, replay)
    assert alone.get(9) is replay  # the one put last stays, however long


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


async def test_viewer_controls_fit_discord_and_read_back(tmp_path: Path) -> None:
    """For the largest table and leader ids, every custom_id of a (shared) viewer fits Discord's 100 characters
    and is read back by its own control's template; the seek menu offers at most 25 frames."""
    import re

    from cogs.custom_ids import MAX_ID
    from cogs.review import REVIEW_ITEMS, viewer_controls

    full = await finished_replay(tmp_path, "twinpyramid", seed=7)
    big = SteppedReplay(type(full)(full.record.model_copy(update={"table": MAX_ID}), full.engine, full.frames))
    last = len(big) - 1
    for leader in (None, MAX_ID):
        rows = viewer_controls(big, last, Perspective.ALL, "en", leader).to_components()
        components = [c for row in rows for c in row["components"]]
        assert len(rows) <= 5 and all(len(row["components"]) <= 5 for row in rows)
        for c in components:
            assert len(c["custom_id"]) <= 100 and len(c.get("options", [])) <= 25, c["custom_id"]
            assert any(re.fullmatch(item.__discord_ui_compiled_template__, c["custom_id"])  # type: ignore[attr-defined]
                       for item in REVIEW_ITEMS), c["custom_id"]
        assert str(MAX_ID) in components[0]["custom_id"] and (leader is None) == (
            components[0]["custom_id"].count(str(MAX_ID)) == 1)
