"""Shared set-up for Discord-layer tests of the real bot: a GameHostBot on a real SQLite file,
driven through the harness (discord.py's real objects; only the HTTP edge is faked)."""
from __future__ import annotations

import itertools
from pathlib import Path

from bot.client import GameHostBot
from bot.errors import HostError
from bot.settings import Settings
from bot.table import Table
from engines import EngineError

from .discord_harness import Harness, SentMessage

HAND_HEADER = "Your hand"


def make_bot(db_path: Path) -> GameHostBot:
    settings = Settings(_env_file=None, discord_token=None, database_path=db_path, bot_move_delay=0)
    return GameHostBot(settings, sync_commands=False)


async def start_harness(db_path: Path, seed: int = 1) -> Harness:
    harness = await Harness(make_bot(db_path)).start()
    harness.allow_errors(HostError, EngineError)  # answered ephemerally by the bot's one error handler
    seeds = itertools.count(seed)
    harness.bot.service.new_seed = lambda: next(seeds)  # reproducible deals, table after table
    return harness


def only_table(h: Harness) -> Table:
    tables = list(h.bot.service._tables.values())  # type: ignore[attr-defined]
    running = [t for t in tables if t.status in ("running", "finished")]
    assert len(running) == 1
    return running[0]


def board_message(h: Harness, table: Table) -> SentMessage:
    return h.message(table.row.board_message_id)


def assert_hands_only_ephemeral(h: Harness) -> int:
    """Every message Discord ever stored with a hand view was sent with the ephemeral flag (64), and no public
    message shows one; returns how many hand messages there were."""
    hands = [m for m in (h.message(i) for i in list(h.server.messages)) if HAND_HEADER in m.text]
    for message in hands:
        assert message.ephemeral, f"a hand view was sent without the ephemeral flag: {message}"
    for message in h.channel_messages():
        assert HAND_HEADER not in message.text
    return len(hands)


async def assert_forged_clicks_refused(h: Harness, user, table: Table, forged: dict[str, str]) -> None:
    """Buttons with forged custom_ids, put on a copy of the table's board: each click gets an ephemeral answer
    containing the expected text, and neither the game state nor its version changes."""
    payload = dict(board_message(h, table).payload)
    payload["id"] = str(int(payload["id"]) + 1)
    buttons = [{"type": 2, "style": 1, "label": str(i), "custom_id": cid} for i, cid in enumerate(forged)]
    payload["components"] = [{"type": 1, "components": buttons[i:i + 5]} for i in range(0, len(buttons), 5)]
    message = h.adopt(payload)
    engine = table.engine
    state, version = engine.dump(table.state), table.version
    for cid, expected in forged.items():
        r = await h.click(user, message, cid)
        assert r.ephemeral and expected in r.text, (cid, r.text)
    assert engine.dump(table.state) == state and table.version == version
