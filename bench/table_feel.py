"""How a table feels in a busy channel: one whole game per game with two people and a bot, played through the
harness's strict edge by the generic UI driver, measured as the people would meet it.

    python -m bench.table_feel [--game G] [--seed N]

Per game: clicks per person-turn after the hand view is open (median and max; the driver clicks as a person who
knows their move would, but may try a select option that turns out not to lead to it), public messages per game
beside the number of person-turns, @mentions per person-turn, the board's distance from the bottom of the channel
at each person decision (messages below it; median and max), and stale hand views: at each person decision, the
people whose latest hand view still shows an older move of the table; the smallest text of the board picture
once a phone shows it 400 px wide (``bench.images``: the largest boards of seeded games at most seats); the lines
of text the table's thread (or channel) shows once the game is over, per person-turn (every public message there:
its content and its embeds' titles, descriptions and footers, non-empty lines); and the game's length.

The length is estimated from the measured game, played with the game's default options at three seats (two people
and a bot): every person decision takes ``SECONDS_PER_DECISION`` (8 s, a person who knows the game on a phone), one
after the other, and every bot decision takes the bot's pause before it moves (``Settings.bot_move_delay``, 1.5 s)
plus the time it was measured thinking here:

    minutes = (person decisions × 8 s + bot decisions × 1.5 s + bot thinking) / 60
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from bot.table import UpdateKind

from .report import median, print_table

ROOT = Path(__file__).resolve().parents[1]
PEOPLE = (101, 102)
SECONDS_PER_DECISION = 8.0  # a person's decision, from opening the hand view to the click that plays


@dataclass
class Feel:
    game: str
    person_turns: int = 0
    clicks: list[int] = field(default_factory=list)  # per person-turn, after the hand view is open
    public_messages: int = 0
    in_channel: int = 0  # of which in the lobby's channel (the rest in the table's thread)
    mentions: int = 0
    distances: list[int] = field(default_factory=list)
    stale: int = 0
    thread_lines: int = 0  # lines of text the table's thread shows at the end
    bot_decisions: int = 0
    bot_thinking: float = 0.0  # seconds the bots were measured deciding

    def minutes(self) -> float:
        """The estimated length of the game (the model in the module's docstring)."""
        from bot.settings import Settings

        pause = Settings.model_fields["bot_move_delay"].default
        seconds = self.person_turns * SECONDS_PER_DECISION + self.bot_decisions * pause + self.bot_thinking
        return seconds / 60


def _harness():
    sys.path.insert(0, str(ROOT))
    from tests import ui_driver
    from tests.discord_helpers import HAND_HEADER, start_harness

    return start_harness, ui_driver, HAND_HEADER


def written_at(message) -> str:
    return message.payload.get("edited_timestamp") or message.payload["timestamp"]


def latest_hands(h, header: str) -> dict[int, object]:
    """Each person's newest hand view (ephemeral messages answering their clicks)."""
    newest: dict[int, object] = {}
    for message_id in sorted(h.server.messages):
        message = h.message(message_id)
        meta = message.payload.get("interaction_metadata") or {}
        user = int((meta.get("user") or {}).get("id") or 0)
        if message.ephemeral and user in PEOPLE and header in message.text:
            newest[user] = message
    return newest


def public_posts(h, channel_id: int | None = None) -> int:
    """Messages the bot posted (thread and channel), or only those in ``channel_id``."""
    return sum(1 for c in h.calls if c.method == "POST" and c.route == "POST /channels/{channel_id}/messages"
               and (channel_id is None or f"/channels/{channel_id}/" in c.path))


def mentions(h) -> int:
    return sum(len((c.json or {}).get("allowed_mentions", {}).get("users", []) or [])
               for c in h.calls if c.method in ("POST", "PATCH") and isinstance(c.json, dict))


async def measure(game: str, seed: int = 7, tables: str = "thread") -> Feel:
    """One game; ``tables``: where it plays, "thread" (the default a server gets) or "channel"."""
    start_harness, ui_driver, header = _harness()
    with tempfile.TemporaryDirectory() as folder:
        h = await start_harness(Path(folder) / "feel.db", tables=None if tables == "thread" else "channel")
        try:
            return await _play(h, ui_driver, header, game, seed)
        finally:
            await h.close()


async def _play(h, ui_driver, header: str, game: str, seed: int) -> Feel:
    users = {uid: h.user(uid, f"p{uid}") for uid in PEOPLE}
    r = await h.slash(users[PEOPLE[0]], f"play {game}", bots=1)
    await h.click(users[PEOPLE[1]], r.message, label="Join")
    await h.click(users[PEOPLE[0]], r.message, label="Start")
    await h.settle()
    table = (await h.bot.service.tables_in_channel(h.channel_id))[0]
    feel, rng = Feel(game), random.Random(seed)
    changed = [""]  # when the table last changed, in Discord's timestamp format

    async def note_change(update) -> None:
        if update.kind not in (UpdateKind.WARNING, UpdateKind.CLOCK):
            changed[0] = datetime.now(timezone.utc).isoformat()

    h.bot.service.subscribe(note_change)
    time_bots(h, feel)
    clicks = count_clicks(h)
    last: tuple[int, int] | None = None
    while table.status == "running":
        due = table.user_ids_to_act()[0]
        if last != (due, table.version):
            feel.person_turns += 1
            feel.clicks.append(0)
            _look(h, table, feel, header, changed[0])
        before = clicks[0]
        acted = await ui_driver.act(h, users[due], table, rng)
        feel.clicks[-1] += clicks[0] - before - 1  # the click that opened the hand view does not count
        await h.settle()
        last = (due, acted.version + 1)
    feel.public_messages = public_posts(h)
    feel.in_channel = public_posts(h, h.channel_id)
    feel.mentions = mentions(h)
    feel.thread_lines = thread_lines(h, table.row.channel_id)
    return feel


def time_bots(h, feel: Feel) -> None:
    """Counts the bots' decisions and the time they take to decide (the scheduler's ``think``)."""
    scheduler = h.bot.scheduler
    original = scheduler.think

    async def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            feel.bot_decisions += 1
            feel.bot_thinking += time.perf_counter() - start

    scheduler.think = timed


def thread_lines(h, channel_id: int) -> int:
    """Non-empty lines of text of the public messages in ``channel_id`` as they read now: contents, and embeds'
    titles, descriptions and footers (not button labels)."""
    count = 0
    for message in h.channel_messages(channel_id):
        if message.ephemeral or message.deleted:
            continue
        texts = [message.payload.get("content") or ""]
        for embed in message.payload.get("embeds") or []:
            texts += [embed.get("title") or "", embed.get("description") or "",
                      (embed.get("footer") or {}).get("text") or ""]
        count += sum(1 for text in texts for line in text.splitlines() if line.strip())
    return count


def count_clicks(h) -> list[int]:
    """Counts every click and select the driver makes (a one-element list the wrappers update)."""
    count = [0]
    for name in ("click", "select"):
        original = getattr(h, name)

        async def counted(*args, _original=original, **kwargs):
            count[0] += 1
            return await _original(*args, **kwargs)

        setattr(h, name, counted)
    return count


def _look(h, table, feel: Feel, header: str, changed: str) -> None:
    """At a person decision: where the board is, and whose hand view shows an older move."""
    channel = [m for m in h.channel_messages(table.row.channel_id) if not m.ephemeral]
    ids = [m.id for m in channel]
    if table.row.board_message_id in ids:
        feel.distances.append(len(ids) - 1 - ids.index(table.row.board_message_id))
    feel.stale += sum(1 for message in latest_hands(h, header).values() if written_at(message) < changed)


def glyph_column(game: str) -> str:
    from .images import smallest_glyph

    glyph = smallest_glyph(game)
    return "no picture" if glyph is None else f"{glyph:.1f} px"


def report(feels: list[Feel]) -> None:
    rows = []
    for f in feels:
        turns = max(1, f.person_turns)
        rows.append([f.game, f"{median(f.clicks):.0f} (max {max(f.clicks, default=0)})",
                     f"{f.public_messages} (turns {f.person_turns}; {f.in_channel} in the channel)",
                     f"{f.mentions / turns:.2f}",
                     f"{median(f.distances):.0f} (max {max(f.distances, default=0)})", str(f.stale),
                     glyph_column(f.game), f"{f.thread_lines / turns:.2f} ({f.thread_lines})",
                     f"{f.minutes():.1f} ({f.bot_decisions} bot decisions)"])
    header = ["game", "clicks / person-turn", "public messages", "@mentions / person-turn", "board distance",
              "stale hand views", "smallest glyph at 400 px", "thread lines / person-turn", "est. minutes"]
    print_table("How a table feels (two people and a bot, one whole game each)", header, rows)


def main(argv: list[str] | None = None) -> None:
    from engines import GAMES

    parser = argparse.ArgumentParser(prog="python -m bench.table_feel", description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="repeatable; default every game")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--tables", choices=("thread", "channel"), default="thread",
                        help="where the tables play (the server's /config tables); default thread")
    args = parser.parse_args(argv)
    report([asyncio.run(measure(game, args.seed, args.tables)) for game in args.game or GAMES])


if __name__ == "__main__":
    main()
