"""Every game played to its end once in every place a table plays — a server channel, a thread, a DM with the bot,
a group DM — by people through their hand views (``ui_driver.play_to_the_end``) and bots, on the strict edge.

What must hold of every message is the harness's own check, here as in every Discord test
(``tests/discord_invariants.py``): no secret card in a public message or in another seat's view, hand views only
ephemeral, at most one ping per turn change, no channel write at a DM or group DM, nothing Discord would refuse.
This file adds what only a whole game shows: it ends with its result where it was played, and the logs (captured
at DEBUG, with a token set) hold no secret card and no token at any point of it.
"""
from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.place import PlaceKind
from engines import get_engine

from . import ui_driver
from .discord_harness import Harness
from .discord_helpers import JOIN, START, says, start_harness
from .discord_invariants import RNG_DIGITS, Secrets

TOKEN = "fake-token-MTIzNDU2Nzg5.Gh0st.s3cr3t-d0-n0t-l0g"
PLACES = ("channel", "thread", "dm", "group dm")
ALICE, BOB = 101, 102


class Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
        except Exception:  # a bad format string is no secret
            text = str(record.msg)
        if record.exc_info:
            text += "\n" + logging.Formatter().formatException(record.exc_info)
        self.lines.append(f"{record.name}: {text}")


@pytest.fixture
async def logs() -> AsyncIterator[Capture]:
    capture, root = Capture(), logging.getLogger()
    old_level = root.level
    root.addHandler(capture)
    root.setLevel(logging.DEBUG)
    yield capture
    root.removeHandler(capture)
    root.setLevel(old_level)


def options(game: str) -> dict[str, object]:
    """The shortest table of the game: a one-deal Twin Pyramid match; the host starts where the game lets them."""
    chosen: dict[str, object] = {"deals": 1} if game == "twinpyramid" else {}
    if "start_player" in get_engine(game).options_model.model_fields:
        chosen["start"] = "host"
    return chosen


async def open_table(h: Harness, game: str, place: str):
    """The lobby in ``place``, joined by Bob where he can be there (not in Alice's DM with the bot), filled with bots
    to three seats (or the game's least), started by Alice."""
    alice, bob = h.user(ALICE, "alice"), h.user(BOB, "bob")
    people = [alice] if place == "dm" else [alice, bob]
    if place in ("channel", "thread"):
        await h.bot.storage.set_guild_tables(h.guild_id, place)
    where = {"dm": lambda: h.dm(alice), "group dm": lambda: h.group_dm(alice, bob)}.get(place, lambda: h.channel_id)()
    bots = max(get_engine(game).min_players, 3) - len(people)
    r = await h.slash(alice, f"play {game}", channel=where, bots=bots, **options(game))
    if len(people) > 1:  # alone with bots (her DM), the table starts at once
        for person in people[1:]:
            await h.click(person, r.message, label=JOIN)
        await h.click(alice, r.message, label=START)
    table = next(t for t in h.bot.service._tables.values() if t.row.host_id == ALICE and t.status == "running")
    return table, people


def check_logs(h: Harness, table, logs: Capture, leaks: list[str]) -> None:
    """No log record shows a card secret now (unless it was public a moment ago) or a token."""
    secrets = Secrets(table.row.game, table.state) if table.status == "running" else None
    seen = h.invariants.seen_by(None, table)  # type: ignore[attr-defined]
    for line in logs.lines:
        if secrets is not None:
            leaks += [f"a log record shows {what}: {line[:300]!r}"
                      for what in secrets.leaks(line, None, known=seen, rng_digits=RNG_DIGITS)]
        leaks += [f"a log record shows the token: {line[:300]!r}" for token in (TOKEN, "harness-token")
                  if token in line]
    logs.lines.clear()


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("game", ui_driver.playable_games())
async def test_every_game_plays_to_its_end_in_every_place(tmp_path: Path, logs: Capture, game: str,
                                                          place: str) -> None:
    h = await start_harness(tmp_path / "bot.db", tables=None, discord_token=TOKEN)
    try:
        table, people = await open_table(h, game, place)
        assert (table.place.kind is PlaceKind.PRIVATE) == (place in ("dm", "group dm"))
        rng, leaks, moves = random.Random(5), [], 0
        while table.status == "running":
            moves += await ui_driver.play_to_the_end(h, table, people, rng, moves=1)
            check_logs(h, table, logs, leaks)
        assert table.status == "finished" and table.result() is not None and moves > 0
        assert any(says(m.text, "common.final_ranking") for m in h.server.channel_messages(table.row.channel_id))
        assert not leaks, "\n".join(dict.fromkeys(leaks[:30]))
    finally:
        await h.close()
