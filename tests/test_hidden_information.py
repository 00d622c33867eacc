"""Hidden information (issue 7, item 5): nothing secret reaches anyone who may not see it, nor the logs.

Secrets: each player's own ``view["hand"]`` (the cards only they may see) — as card ids and as the marks the game's
renderer draws (``bot.render.<game>.card``: ``🟡7``, ``7♠``) — and the RNG (the seed, the current RNG state).
A mark shared with a card that is visible to everyone right now (identical copies) proves nothing and is skipped.

1. Every registered game, many seeded games played to the end by the bot policies: after every move, the public
   board text, every public event line and the public events' data show no player's secret; every hand view text
   and every private event line delivered to P shows no other player's secret (private events may show the
   secrets of the players they are addressed to); no text, view or event carries the seed or the RNG state.
2. Through the Discord layer (the real bot, fake HTTP edge, a fake token, logging captured at DEBUG): tables of
   every game with two people and bots, every move clicked through hand views; every message the bot creates or
   edits is checked right after the interaction — public ones (text, custom_ids, select values) against every
   player's secrets, ephemeral ones against every secret but their reader's — and no log record contains a secret
   card or a token.

``GAMEHOST_FULL=1`` (CI): 20 seeded games per game in part 1 and 2 Discord tables per game in part 2;
``GAMEHOST_SOAK=1``: 1,000 and 12; the default: one game per player count and 1 table (``tests/suite_level.py``).
"""
from __future__ import annotations

import logging
import os
import random
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import pytest

from bot import render
from bot.client import GameHostBot
from bot.errors import HostError
from bot.games import engine_hooks, render_hooks
from bot.policies import choose_action
from bot.settings import Settings
from engines import GAMES, EngineError, get_engine

from . import ui_driver
from .discord_harness import Harness
from .discord_helpers import JOIN, START, lift_limits
from .engines.conformance import string_leaves
from .suite_level import count
from .ui_driver import playable_games as playable

DISCORD_TABLES = int(os.environ.get("GAMEHOST_HIDDEN_TABLES", count(quick=1, full=2, soak=12)))
TOKEN = "fake-token-MTIzNDU2Nzg5.Gh0st.s3cr3t-d0-n0t-l0g"
NAMES = render.Names({}, {})


@lru_cache(maxsize=None)
def pattern(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![0-9A-Za-z]){re.escape(word)}(?![0-9A-Za-z])")


def found(words: Iterable[str], text: str) -> set[str]:
    return {w for w in words if w and w in text and pattern(w).search(text)}


@lru_cache(maxsize=None)
def catalog_marks(game: str) -> frozenset[str]:
    """Marks the game's catalog writes itself (a legend's example such as ``🟦3×2``): no evidence of a leak."""
    import json

    mark = render_hooks(game).card
    folder = Path(render.__file__).resolve().parent.parent / "locales" / "en"
    texts = " ".join(str(v) for f in folder.glob("*.json") for v in json.loads(f.read_text("utf-8")).values())
    engine = get_engine(game)
    every: set[str] = set()
    for seed in range(1, 21):  # enough deals to see every kind of card (Pile up's 84-card deck has 4 left over)
        state = engine.new_game([f"p{i}" for i in range(engine.max_players)], seed=seed)
        every |= {c for p in state.players for c in (engine.view(state, p).hand or [])}
    return frozenset(m for m in {mark(c) for c in every} if pattern(m).search(texts))


class Secrets:
    """What is secret right now, and from whom: ids and marks per owner, minus marks any public card shares."""

    def __init__(self, game: str, state: Any) -> None:
        engine = get_engine(game)
        mark = render_hooks(game).card
        self.game = game
        self.owners = {p: set((engine.view(state, p).hand or [])) for p in state.players}
        public = set(string_leaves(engine.view(state, None)))
        public_marks = {mark(x) for x in public if x}
        self.ids = {p: cards - public for p, cards in self.owners.items()}
        static = catalog_marks(game)
        self.marks = {p: {mark(c) for c in cards} - public_marks - static for p, cards in self.ids.items()}
        self.rng = {str(state.seed), str(state.rng.state)}

    def hidden_from(self, reader: str | None, allowed: Iterable[str] = ()) -> tuple[set[str], set[str]]:
        """(ids, marks) that ``reader`` (None: everyone) may not see; ``allowed``: owners whose secrets are shown to
        the reader on purpose (a private event addressed to them too)."""
        shown = [p for p in self.owners if p == reader or p in set(allowed)]
        mine = set().union(*(self.marks[p] for p in shown)) if shown else set()  # identical copies prove nothing
        owners = [p for p in self.owners if p not in shown]
        ids = set().union(*(self.ids[p] for p in owners)) if owners else set()
        marks = set().union(*(self.marks[p] for p in owners)) - mine if owners else set()
        return ids, marks

    def leaks(self, text: str, reader: str | None, allowed: Iterable[str] = (), *, raw: bool = True,
              known: Iterable[str] = ()) -> set[str]:
        """Secrets in ``text``; ``known``: cards the reader was told about privately (a card they passed on)."""
        ids, marks = self.hidden_from(reader, allowed)
        if known:
            mark = render_hooks(self.game).card
            ids, marks = ids - set(known), marks - {mark(c) for c in known}
        return (found(ids, text) if raw else set()) | found(marks, text) | {r for r in self.rng if r in text}


# ---- 1. every game, many seeded games --------------------------------------------------------------------------
def check_step(game: str, state: Any, events: list, leaks: list[str], where: str,
               told: dict[str, set[str]] | None = None) -> None:
    """``told``: the cards private events have shown each player so far (a hand view may remember them)."""
    engine = get_engine(game)
    secrets = Secrets(game, state)
    board = render.board(game, engine.view(state, None), NAMES, "en").text()
    alt = render_hooks(game).image_alt  # the board picture's alt text is public too
    if alt is not None:
        board += "\n" + alt(engine.view(state, None), NAMES, "en")
    for what in secrets.leaks(board, None):
        leaks.append(f"{where}: public board shows {what}")
    for ev in events:
        data = " ".join(string_leaves(ev.model_dump(mode="json")["data"]))
        line = render.event_line(game, ev, NAMES, "en") or ""
        readers = [None] if ev.visible_to is None else list(ev.visible_to)
        for reader in readers:
            for what in secrets.leaks(line, reader, ev.visible_to or ()) | secrets.leaks(data, reader,
                                                                                          ev.visible_to or ()):
                leaks.append(f"{where}: event {ev.type} to {reader or 'everyone'} shows {what}")
    for player in state.players:
        view = engine.view(state, player)
        text = render.hand(game, view, NAMES, "en")
        seen = (told or {}).get(player, set())
        for what in (secrets.leaks(text, player, known=seen)
                     | secrets.leaks(" ".join(string_leaves(view)), player, known=seen)):
            leaks.append(f"{where}: hand view of {player} shows {what}")


def seat_counts(game: str) -> int:
    engine = get_engine(game)
    return engine.max_players - engine.min_players + 1


def engine_games(game: str) -> int:
    """Seeded games to play: the default plays one at each player count (seed ``s`` seats ``min + s % counts``)."""
    default = count(quick=seat_counts(game), full=20, soak=1000)
    return int(os.environ.get("GAMEHOST_HIDDEN_GAMES", default))


def play_seeded(game: str, seed: int, leaks: list[str]) -> int:
    engine = get_engine(game)
    seats = engine.min_players + seed % seat_counts(game)
    state = engine.new_game([f"p{i}" for i in range(seats)], seed=10 ** 12 + seed)
    rng = random.Random(seed)
    start = engine_hooks(game).start_events
    check_step(game, state, start(state) if start else [], leaks, f"{game} seed {seed} start")
    steps = 0
    told: dict[str, set[str]] = {p: set() for p in state.players}
    while engine.to_act(state):
        player = rng.choice(engine.to_act(state))
        state, events = engine.apply(state, player, choose_action(engine, state, player, rng))
        steps += 1
        for ev in events:
            for reader in ev.visible_to or ():
                told[reader] |= set(string_leaves(ev.data))
        check_step(game, state, events, leaks, f"{game} seed {seed} step {steps}", told)
        assert steps < 12000  # a 6-seat Twin Pyramid match may run deals to the announced turn limit
    return steps


@pytest.mark.parametrize("game", GAMES)
def test_seeded_games_never_show_a_secret_to_anyone_else(game: str) -> None:
    leaks: list[str] = []
    games = engine_games(game)
    steps = sum(play_seeded(game, seed, leaks) for seed in range(games))
    print(f"\nhidden information, {game}: {games} games, {steps} moves checked, leaks found: {len(leaks)}")
    assert not leaks, "\n".join(leaks[:30])


# ---- 2. through the Discord layer, with the logs ----------------------------------------------------------------
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


def message_text(message) -> str:
    parts = [message.text]
    for c in message.components:
        parts.append(c.get("custom_id") or "")
        parts += [o.get("value", "") for o in c.get("options") or []]
    return "\n".join(parts)


async def test_discord_messages_and_logs_show_no_secret(tmp_path: Path) -> None:
    games = playable()
    capture = Capture()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(capture)
    root.setLevel(logging.DEBUG)
    settings = Settings(_env_file=None, discord_token=TOKEN, database_path=tmp_path / "hidden.db", bot_move_delay=0)
    h = await Harness(GameHostBot(settings, sync_commands=False), channels=games).start()
    h.allow_errors(HostError, EngineError)
    touched: set[int] = set()
    update = h.server.update_message

    def update_message(p: dict, body: dict, files: dict) -> dict:
        touched.add(int(p["id"]))
        return update(p, body, files)

    h.server.update_message = update_message  # type: ignore[method-assign]
    known: dict[str, set[str]] = {}  # cards each player was shown by private events (hand views repeat them)
    # Cards public at some moment of the interaction being checked: a message may show what was public when it was
    # drawn even if a new deal has made that card someone's secret by the time it is checked.
    public_meanwhile: set[str] = set()

    async def learn(update: Any) -> None:
        public_meanwhile.update(string_leaves(update.public_view or {}))
        for ev in update.events:
            if ev.visible_to is None:
                public_meanwhile.update(string_leaves(ev.data))
            for player in ev.visible_to or ():
                known.setdefault(player, set()).update(string_leaves(ev.data))

    h.bot.service.subscribe(learn)  # type: ignore[attr-defined]
    leaks: list[str] = []
    checked = {"public": 0, "ephemeral": 0, "log_records": 0}
    checked_lines: dict[int, set[str]] = {}
    await lift_limits(h)  # alice opens a table after another in each game's channel
    users = {101: h.user(101, "alice"), 102: h.user(102, "bob")}

    def check_messages(game: str, table: Any) -> None:
        if table.state is None:
            touched.clear()
            return
        secrets = Secrets(game, table.state)
        for mid in sorted(touched):
            message = h.message(mid)
            meta = message.payload.get("interaction_metadata") or {}
            reader = f"u{meta['user']['id']}" if message.ephemeral and meta else None
            checked["ephemeral" if reader else "public"] += 1
            seen = public_meanwhile | known.get(reader or "", set())
            # A message edited again repeats lines checked when they first appeared (the board message carries its
            # event lines until the next board): only lines new to this message are checked now.
            lines = message_text(message).splitlines()
            new_lines = [line for line in lines if line not in checked_lines.get(mid, set())]
            checked_lines[mid] = set(lines)
            for what in secrets.leaks("\n".join(new_lines), reader, known=seen):
                leaks.append(f"table {table.id} ({game}) message to {reader or 'everyone'} shows {what}: "
                             f"{message.text[:300]!r}")
        touched.clear()

    try:
        rng = random.Random(5)
        for game in games:
            engine = get_engine(game)
            cid = h.channel_ids[game]
            for _ in range(DISCORD_TABLES):
                r = await h.slash(users[101], f"play {game}", channel=cid, bots=max(engine.min_players, 3) - 2)
                await h.click(users[102], r.message, label=JOIN)
                await h.click(users[101], r.message, label=START)
                table = (await h.bot.service.tables_in_channel(cid))[0]  # type: ignore[attr-defined]
                check_messages(game, table)
                while table.status == "running":
                    public_meanwhile.clear()
                    due = table.user_ids_to_act()
                    await ui_driver.act(h, users[due[0]], table, rng)
                    check_messages(game, table)
                    others = [u for u in users.values() if u.id != due[0]]
                    if table.status == "running" and rng.random() < 0.2:  # the other person looks at their hand
                        await ui_driver.open_hand(h, others[0], table)
                        check_messages(game, table)
                    # Every hand still secret now must stay out of the logs, as ids and as marks.
                    secrets = Secrets(game, table.state)
                    for line in capture.lines:
                        checked["log_records"] += 1
                        for what in secrets.leaks(line, None, known=public_meanwhile):
                            leaks.append(f"a log record shows {what}: {line[:300]!r}")
                        for token in (TOKEN, "harness-token"):
                            if token in line:
                                leaks.append(f"a log record shows the token: {line[:300]!r}")
                    capture.lines.clear()
    finally:
        root.removeHandler(capture)
        root.setLevel(old_level)
        await h.close()
    print(f"\nhidden information through Discord: {DISCORD_TABLES} tables per game ({', '.join(games)}), "
          f"messages checked {checked}, leaks found: {len(leaks)}")
    assert checked["public"] and checked["ephemeral"] and checked["log_records"]
    assert not leaks, "\n".join(dict.fromkeys(leaks[:30]))
