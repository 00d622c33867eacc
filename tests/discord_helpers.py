"""Shared set-up for Discord-layer tests of the real bot: a GameHostBot on a real SQLite file,
driven through the harness (discord.py's real objects; only the HTTP edge is faked)."""
from __future__ import annotations

import atexit
import functools
import itertools
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable

import discord
from pydantic import BaseModel

from bot.client import GameHostBot
from bot.discord_rules import message_errors
from bot.errors import HostError
from bot.i18n import LANGUAGES, catalog, t
from bot.settings import Settings
from bot.table import Table
from engines import EngineError

from .discord_harness import Harness, SentMessage

# A field of a catalog line in a test: its value, or a function of the language giving it, for the parts the bot
# renders in the reader's language too (a bot's name, a suit, an inner line such as a reason or a move), so a line is
# checked as the bot writes it in English or in Japanese.
Field = Any
InLanguage = Callable[[str], str]


def rendered(key: str, lang: str, /, **fields: Field) -> str:
    """The catalog line ``key`` as the bot renders it in ``lang`` (a callable field rendered in ``lang``)."""
    return t(key, lang, **{name: value(lang) if callable(value) else value for name, value in fields.items()})


def lines(key: str, /, **fields: Field) -> frozenset[str]:
    """The catalog line ``key`` in each language, filled with ``fields``."""
    return frozenset(rendered(key, lang, **fields) for lang in LANGUAGES)


def line(key: str, /, **fields: Field) -> InLanguage:
    """An inner line as a field of another: rendered in the outer line's language."""
    return lambda lang: rendered(key, lang, **fields)


def bot_name(number: int) -> InLanguage:
    """A bot seat's name as a table shows it ("Bot 1" / 「ボット1」)."""
    return line("common.bot_name", number=number)


def offers(shown: Iterable[str | None], key: str, /, **fields: Field) -> bool:
    """Whether one of the labels ``shown`` is the line ``key`` with ``fields`` in one of the languages."""
    return not lines(key, **fields).isdisjoint(shown)


class Key:
    """A control's label or a select's placeholder named by its catalog key (the text in any language), so a
    behaviour test finds its buttons whatever the catalogs' wording: ``h.click(user, msg, label=START)``."""

    def __init__(self, key: str, /, *, opening_of: str | None = None, **fields: Field) -> None:
        """``opening_of``: another catalog key whose lines (whatever their fields) match too, told by their fixed
        start — Start is also "Start: one round, ~61 min" when the lobby offers the quick game beside it."""
        self.key = key
        self.texts = lines(key, **fields)
        self.opening_of = opening_of

    def matches(self, shown: str | None) -> bool:
        if shown in self.texts:
            return True
        return self.opening_of is not None and shown is not None and shown.startswith(opening(self.opening_of))

    def __repr__(self) -> str:
        return f"Key({self.key!r})"


def shows(text: str, key: str, **fields: Any) -> bool:
    """Whether ``text`` holds the catalog line ``key`` (with ``fields``) in one of the languages."""
    return any(t(key, lang, **fields) in text for lang in LANGUAGES)


START = Key("lobby.button.start", opening_of="lobby.button.start_as")
JOIN, LEAVE = Key("lobby.button.join"), Key("lobby.button.leave")
MY_HAND, REFRESH = Key("board.my_hand"), Key("hand.refresh")
RESUME, IM_BACK, END_TABLE = Key("table.resume"), Key("table.im_back"), Key("table.end_button")
CHECK_IN = Key("tournament.button.checkin")
TOURNAMENT_JOIN, TOURNAMENT_LEAVE = Key("tournament.button.join"), Key("tournament.button.leave")

def says(text: str, key: str, /, **fields: Field) -> bool:
    """Whether ``text`` holds the catalog line ``key`` in one of the languages: a behaviour test names the message,
    not its English wording. Without ``fields`` the line is told by its longest fixed part (the words between its
    fields); with them, the whole line as the bot renders it with those fields (plural forms and all; a callable
    field rendered in the line's language) must be there."""
    if fields:
        return any(shown in text for shown in lines(key, **fields))
    return any(longest_fixed_part(catalog(lang)[key]) in text for lang in LANGUAGES)


def longest_fixed_part(line: str) -> str:
    return max((part.strip() for part in re.split(r"\{[^{}]*\}", line)), key=len)


def opening(key: str) -> tuple[str, ...]:
    """The fixed start of a catalog line (up to its first field) in each language: enough to know the message."""
    return tuple(catalog(lang)[key].split("{")[0] for lang in LANGUAGES)


def opens_with_line(text: str, key: str) -> bool:
    return any(start in text for start in opening(key))


HAND_HEADER = "hand.header"


@functools.cache
def migrated_template() -> Path:
    """A SQLite file the bot's own migrations ran on, once per test process (they are ~400 statements, each a round
    trip to the connection's thread): a harness's new database starts as a copy of it, and the bot's start still
    runs ``migrate``, which finds nothing left to apply."""
    from bot.storage import Storage

    from .pg_server import run_sync

    folder = Path(tempfile.mkdtemp(prefix="gamehost-template-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "migrated.db"

    async def migrate() -> None:
        await (await Storage.open(f"sqlite:///{path}")).close()

    run_sync(migrate())
    assert not path.with_name(path.name + "-wal").exists()  # the last connection's close checkpointed the WAL
    return path


def make_bot(db_path: Path, **settings: Any) -> GameHostBot:
    """The bot on ``db_path`` (``settings``: more of them, e.g. a ``discord_token``): a new file starts as a copy of
    the migrated template; an existing one (a restart) is used as it is."""
    if not db_path.exists():
        db_path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(migrated_template(), db_path)
    chosen = Settings(_env_file=None, **{"discord_token": None, "database_path": db_path, "bot_move_delay": 0,
                                         **settings})
    return GameHostBot(chosen, sync_commands=False)


async def start_harness(db_path: Path, seed: int = 1, tables: str | None = "channel",
                        discord_has: Callable[[Harness], None] | None = None, **settings: Any) -> Harness:
    """The bot behind a started harness. ``tables``: the server's ``/config tables`` setting. Tests written before
    tables moved to threads read the game in the channel, so they set "channel"; None leaves the default (each
    table in its own thread), as tests/test_discord_threads.py does. ``discord_has`` fills the fake Discord before
    the bot starts (a restart: the messages and threads Discord kept), since a starting bot writes at once."""
    harness = Harness(make_bot(db_path, **settings))
    if discord_has is not None:
        discord_has(harness)
    await harness.start()
    if tables is not None:
        await harness.bot.storage.set_guild_tables(harness.guild_id, tables)
    harness.allow_errors(HostError, EngineError)  # answered ephemerally by the bot's one error handler
    seeds = itertools.count(seed)
    harness.bot.service.new_seed = lambda: next(seeds)  # reproducible deals, table after table
    return harness


async def kill(h: Harness) -> None:
    """What the death of the bot's process leaves: tasks stopped mid-way, connections, locks and worker
    processes gone."""
    await h.abandon()
    bot = h.bot
    db, claim = bot.storage.db, getattr(bot, "_shard_claim", None)
    if db.dialect == "postgres":
        db.pool.terminate()
        if claim is not None:
            claim.conn.terminate()
    else:
        await db.conn.close()  # an open transaction is rolled back, as after a crash
        if claim is not None:
            await claim.release()  # the kernel drops the process's flocks
    await bot.thinker.close()


def only_table(h: Harness) -> Table:
    tables = list(h.bot.service._tables.values())  # type: ignore[attr-defined]
    running = [t for t in tables if t.status in ("running", "finished")]
    assert len(running) == 1
    return running[0]


def public_mark(h: Harness) -> tuple[int, int]:
    """A point in the conversation, for :func:`public_since`: the calls so far and the newest message id."""
    return len(h.calls), max(h.server.messages, default=0)


def public_since(h: Harness, mark: tuple[int, int] = (0, 0)) -> str:
    """The text of every public message posted or edited since ``mark``, as it reads now, oldest first. Event
    lines are added to the board message by edits, so the messages posted since do not show them all."""
    calls, newest = mark
    edited = {int(c.path.rsplit("/", 1)[1]) for c in h.calls[calls:]
              if c.route == "PATCH /channels/{channel_id}/messages/{message_id}"}
    touched = edited | {i for i in h.server.messages if i > newest}
    return "\n".join(m.text for i in sorted(touched) if not (m := h.message(i)).ephemeral and not m.deleted)


def board_message(h: Harness, table: Table) -> SentMessage:
    return h.message(table.row.board_message_id)


def assert_hands_only_ephemeral(h: Harness) -> int:
    """Every message Discord ever stored with a hand view was sent with the ephemeral flag (64), and no public
    message shows one; returns how many hand messages there were (older views deleted since included)."""
    hands = [m for m in (h.message(i) for i in list(h.server.messages)) if opens_with_line(m.text, HAND_HEADER)]
    for message in hands:
        assert message.ephemeral, f"a hand view was sent without the ephemeral flag: {message}"
    for message in h.channel_messages():
        assert not opens_with_line(message.text, HAND_HEADER)
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


def set_state(table: Table, state) -> None:
    """Put a prepared position on the running table (players must be the table's seats)."""
    assert state.players == [s.player for s in table.seats]
    table.state = state


async def my_hand(h: Harness, user, table: Table):
    """Open ``user``'s hand view from the board; it must be ephemeral."""
    r = await h.click(user, board_message(h, table), label=MY_HAND)
    assert r.type == "message" and r.ephemeral and opens_with_line(r.text, HAND_HEADER)
    return r.message


def select_with(hand, value: str) -> str:
    """The custom id (as a regex) of the select in ``hand`` that offers ``value``."""
    for c in hand.components:
        if c.get("type") == 3 and value in [o["value"] for o in c.get("options", [])]:
            return re.escape(c["custom_id"])
    raise AssertionError(f"no select offers {value}: {hand.components}")


def check_discord_limits(items: list[discord.ui.Item]) -> None:
    """Hand controls, with the hand view's own Refresh button, fit Discord's limits (``bot.discord_rules``, as the
    test edge checks them): 5 rows of at most 5, custom ids ≤ 100, labels ≤ 80, ≤ 25 options of ≤ 100 characters,
    no custom id twice."""
    from cogs.controls import RefreshButton

    view = discord.ui.View(timeout=None)
    for item in [*items, RefreshButton(7)]:
        view.add_item(item)
    answer = message_errors({"components": view.to_components()}, creating=False)  # what the test edge answers
    assert answer is None, answer


def offered_controls(items: list[discord.ui.Item]) -> tuple[set[str], set[str]]:
    """(enabled button codes, select values) of hand controls."""
    codes, values = set(), set()
    for item in items:
        inner = getattr(item, "item", item)
        if isinstance(inner, discord.ui.Button) and not inner.disabled:
            codes.add(inner.custom_id.split(":", 4)[4])
        if isinstance(inner, discord.ui.Select):
            values |= {o.value for o in inner.options}
    return codes, values


def offered_actions(items: list[discord.ui.Item], table: Table, player: str) -> list[Any]:
    """The actions the enabled buttons of hand controls send (read through ``cogs.controls.action_of``)."""
    from cogs.controls import action_of, button_actions

    actions = button_actions(table, player)
    out = []
    for item in items:
        inner = getattr(item, "item", item)
        if isinstance(inner, discord.ui.Button) and not inner.disabled and inner.custom_id.startswith("gh:do:"):
            out.append(action_of(table, player, inner.custom_id.split(":", 4)[4], actions))
    return out


def action_button(message, table: Table, player: str, wanted: Any) -> str:
    """The custom id (as a regex) of the enabled button of ``message`` that sends ``wanted`` for ``player`` now:
    an action, its dict, or a test on the action (read through ``cogs.controls.action_of``)."""
    from cogs.controls import action_of

    if isinstance(wanted, dict):
        wanted = table.engine.parse_action(wanted)
    test = wanted if callable(wanted) and not isinstance(wanted, BaseModel) else (lambda a: a == wanted)
    for c in message.components:
        m = re.fullmatch(r"gh:do:(\d+):(\d+):(\S+)", c.get("custom_id") or "")
        if c.get("type") != 2 or c.get("disabled") or not m or (int(m[1]), int(m[2])) != (table.id, table.version):
            continue
        action = action_of(table, player, m[3])
        if action is not None and test(action):
            return re.escape(c["custom_id"])
    raise AssertionError(f"no enabled button sends {wanted}: {[c.get('custom_id') for c in message.components]}")


def dispatch_slash(h, user, command: str, **options):
    """``/command`` sent to the bot without waiting for it (in the harness's channel); returns its Reply."""
    from .discord_harness_http import Reply
    from .discord_harness_payloads import build_options, interaction_payload

    payload = interaction_payload(h, user, 2, build_options(h, user, command, options), h.channel_id, None)
    reply = Reply(h.server, int(payload["id"]), payload["token"], 2, h.channel_id, user.payload)
    h.server.replies[reply.token] = reply
    h.dispatch("INTERACTION_CREATE", payload)
    return reply


def dispatch_click(h, user, msg, button: dict):
    """A click on ``button`` sent to the bot without waiting for it; returns the Reply that records the answer."""
    from .discord_harness_http import Reply
    from .discord_harness_payloads import interaction_payload

    payload = interaction_payload(h, user, 3, {"custom_id": button["custom_id"], "component_type": 2},
                                  msg.channel_id, msg)
    reply = Reply(h.server, int(payload["id"]), payload["token"], 3, msg.channel_id, user.payload,
                  source_message_id=msg.id)
    h.server.replies[reply.token] = reply
    h.dispatch("INTERACTION_CREATE", payload)
    return reply


ORGANISER_ROLE = 900_000_000_000_000_777


async def organiser(h: Harness, user_id: int, name: str, **kwargs: Any):
    """A member with the server's organiser role (``/config organiser``), who may create and start tournaments:
    the role exists in the guild (GUILD_ROLE_CREATE) and is the server's setting."""
    if h.guild.get_role(ORGANISER_ROLE) is None:
        h.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(h.guild_id), "role": {
            "id": str(ORGANISER_ROLE), "name": "Organisers", "permissions": "0", "position": 1, "color": 0,
            "hoist": False, "managed": False, "mentionable": False, "flags": 0}})
        await h.bot.storage.set_organiser_role(h.guild_id, ORGANISER_ROLE)
    return h.user(user_id, name, roles=[ORGANISER_ROLE], **kwargs)


async def lift_limits(h: Harness) -> None:
    """Every cap of the server at the most an admin may set (``/config limits``): for tests that open many tables
    in a row by one member to exercise something else, not the limits."""
    from bot.limits import BOUNDS

    await h.bot.storage.set_guild_limits(h.guild_id, {cap: high for cap, (_, high) in BOUNDS.items()})
