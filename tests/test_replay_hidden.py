"""Hidden information in replays (issue 33): a seat's playback of a finished game shows, at every frame, nothing that
seat did not see at that moment — no other seat's hidden cards (as ids or as the marks the game draws), no seed, no
RNG state — and a spectator's shows no one's. The checks are those of ``tests/test_hidden_information.py``
(``Secrets``), applied to the lines ``bot.replay_show.frame_lines`` prints for each frame and perspective."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.replay import Replay, rebuild_stored
from bot.replay_show import frame_lines, record_names
from bot.review import Perspective, SteppedReplay
from bot.review import frame_lines as viewer_lines
from bot.scheduler import BotScheduler
from bot.service import GameService
from bot.storage import Storage
from engines import GAMES, get_engine
from tests.engines.conformance import string_leaves

from .test_hidden_information import Secrets


async def finished_replay(tmp_path: Path, game: str, seed: int, players: int | None = None,
                          options: dict | None = None) -> Replay:
    """A bot game played to its end and rebuilt from storage: ``players`` seats (default: up to 4) and ``options``
    (default: one round of Twin Pyramid)."""
    storage = await Storage.open(tmp_path / f"{game}-{seed}-{players}.db")
    try:
        service = GameService(storage)
        scheduler = BotScheduler(service, delay=0)
        engine = get_engine(game)
        if options is None and game == "twinpyramid":
            options = {"rounds": 1}
        table = await service.create_bot_table(game=game, players=players or min(engine.max_players, 4), seed=seed,
                                               channel_id=1, options=options)
        await scheduler.idle()
        await scheduler.close()
        assert table.status == "finished"
        return await rebuild_stored(storage, table.id)
    finally:
        await storage.close()


def perspective_leaks(replay: Replay, viewer: str | None, *, discord_viewer: bool = False) -> list[str]:
    """``discord_viewer``: the lines of the Discord viewer (``bot.review``) at *my seat* (or as a spectator)
    rather than the terminal playback's."""
    game = replay.record.game
    names = record_names(replay.record, "en")
    told: set[str] = set()  # cards private events have shown this viewer so far
    leaks = []
    stepped = SteppedReplay(replay, every=7)  # the viewer's own frames, most of them played again from a checkpoint
    for index, frame in enumerate(replay.frames):
        seen = replay.events_seen(index, viewer)
        private = [ev for ev in seen if ev.visible_to is not None]
        assert viewer is not None or not private, "a spectator was shown a private event"
        for ev in private:
            told |= set(string_leaves(ev.data))
        allowed = {p for ev in private for p in ev.visible_to or ()}
        if discord_viewer:
            perspective = Perspective.SPECTATOR if viewer is None else Perspective.MINE
            text = "\n".join(viewer_lines(stepped, index, perspective, viewer, "en", names))
        else:
            text = "\n".join(frame_lines(replay, index, viewer, "en", names))
        for what in Secrets(game, frame.state).leaks(text, viewer, allowed, known=told):
            leaks.append(f"{game} frame {index} seen by {viewer or 'a spectator'} shows {what}")
    return leaks


@pytest.mark.parametrize("game", GAMES)
async def test_each_perspective_of_a_replay_shows_only_what_it_saw(tmp_path: Path, game: str) -> None:
    replay = await finished_replay(tmp_path, game, seed=10 ** 12 + 21)  # no frame number or count looks like it
    players = [p.player for p in replay.record.players]
    leaks = [leak for viewer in [None, *players] for leak in perspective_leaks(replay, viewer)]
    assert len(replay) > 2 and not leaks, "\n".join(leaks[:30])


@pytest.mark.parametrize("game", GAMES)
async def test_the_discord_viewer_at_my_seat_shows_only_what_that_seat_saw(tmp_path: Path, game: str) -> None:
    """The viewer's *my seat* shows the seat's hand at every frame (not only on its turns): still nothing of
    another seat's hidden cards; the spectator's shows no one's."""
    replay = await finished_replay(tmp_path, game, seed=10 ** 12 + 21)
    players = [p.player for p in replay.record.players]
    leaks = [leak for viewer in [None, *players] for leak in perspective_leaks(replay, viewer, discord_viewer=True)]
    assert len(replay) > 2 and not leaks, "\n".join(leaks[:30])
