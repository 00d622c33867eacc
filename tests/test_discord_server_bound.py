"""Controls and commands are bound to their server, and custom_ids are read strictly (issue 32, item 4).

Server A is the harness's guild: a running table, a lobby, a tournament in sign-up, a finished table. Server B is
a second guild of the same bot (``Harness.add_guild``); its admin (Manage Server) clicks buttons forged onto a
message in B's channel whose custom_ids name A's table, lobby or tournament, and runs slash commands naming them.
Each is refused with the "another server" answer and nothing of server A changes, in memory or in the database.
Forged custom_ids whose numbers are not canonical ASCII decimals within their bounds (``²``, ``٣``, leading zeros,
overlong, negative, 2**63) get the "unknown control" answer, change nothing and log no error.
"""
from __future__ import annotations

import logging
import random
import sqlite3
from pathlib import Path

import discord
import pytest

from bot.i18n import t
from bot.table import Table

from . import ui_driver
from .discord_harness import Harness, HarnessUser
from .discord_helpers import JOIN, START, lift_limits, only_table, organiser
from .fuzz_inputs import button, forge, select
from .test_discord_paused import manual_time, paused_table

ALICE, BOB, MALLORY = 101, 102, 109
GUILD_B = 800_000_000_000_000_001
OTHER_SERVER = t("error.other_server", "en")
UNKNOWN = t("error.unknown_control", "en")
ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def snapshot(h: Harness, db_path: Path) -> tuple:
    """Server A's tables and tournaments as the bot holds them in memory, and their rows in the database."""
    tables = sorted((tb.id, tb.status, tb.version, tb.paused, repr(tb.seats), tb.row.rematch_id,
                     tb.engine.dump(tb.state) if tb.state is not None else None)
                    for tb in h.bot.service._tables.values())  # type: ignore[attr-defined]
    tournaments = sorted((tn.id, tn.status, sorted(tn.entrants))
                         for tn in h.bot.tournaments._cache.values())  # type: ignore[attr-defined]
    with sqlite3.connect(db_path) as db:
        rows = [list(db.execute(f"SELECT * FROM {name} ORDER BY rowid"))  # fixed table names
                for name in ("games", "seats", "actions", "tournaments", "tournament_entrants")]
    return tables, tournaments, rows


async def server_a(h: Harness) -> tuple[Table, Table, int, dict[int, HarnessUser]]:
    """Server A: a running Akuma table (Alice hosts, Bob, a bot), Alice's lobby in #games, a tournament (Alice is
    one of the server's organisers)."""
    await lift_limits(h)
    people = {ALICE: await organiser(h, ALICE, "alice"), BOB: h.user(BOB, "bob")}
    r = await h.slash(people[ALICE], "play akuma", bots=1)
    await h.click(people[BOB], r.message, label=JOIN)
    await h.click(people[ALICE], r.message, label=START)
    running = only_table(h)
    await h.slash(people[ALICE], "play akuma", channel="games")
    lobby = next(tb for tb in h.bot.service._tables.values() if tb.status == "lobby")  # type: ignore[attr-defined]
    tn = await h.slash(people[ALICE], "tournament create", channel="games", game="akuma", bots=2)
    assert tn.type == "deferred"
    tournament = next(iter(h.bot.tournaments._cache.values()))  # type: ignore[attr-defined]
    await h.settle()
    return running, lobby, tournament.id, people


async def test_controls_naming_another_servers_table_lobby_or_tournament_are_refused(h: Harness,
                                                                                     tmp_path: Path) -> None:
    running, lobby, tournament_id, _ = await server_a(h)
    elsewhere = h.add_guild(GUILD_B)["elsewhere"]
    mallory = h.user(MALLORY, "mallory", permissions=discord.Permissions.all())  # Manage Server in server B
    seat = running.seats[0].seat
    buttons = [f"gh:end:{running.id}", f"gh:hand:{running.id}", f"gh:back:{running.id}", f"gh:refresh:{running.id}",
               f"gh:do:{running.id}:{running.version}:{seat}.0", f"gh:lobby:{lobby.id}:join",
               f"gh:lobby:{lobby.id}:start", f"gh:lobby:{lobby.id}:bot:easy", f"gh:lobby:{lobby.id}:leave",
               f"gh:end:{lobby.id}", f"gh:tn:{tournament_id}:join", f"gh:tn:{tournament_id}:leave"]
    before = snapshot(h, tmp_path / "bot.db")
    for custom_id in buttons:
        r = await h.click(mallory, forge(h, elsewhere, [button(custom_id)]), custom_id)
        assert r.ephemeral and OTHER_SERVER in r.text, (custom_id, r.text)
    selects = {f"gh:lobbyrm:{lobby.id}:{lobby.version}": "bot1", f"gh:pick:{running.id}:{running.version}:0:": "x"}
    for custom_id, value in selects.items():
        r = await h.select(mallory, forge(h, elsewhere, [select(custom_id, [value])]), custom_id, [value])
        assert r.ephemeral and OTHER_SERVER in r.text, (custom_id, r.text)
    assert snapshot(h, tmp_path / "bot.db") == before
    assert running.status == "running" and lobby.status == "lobby"


async def test_commands_naming_another_servers_table_or_tournament_are_refused(h: Harness, tmp_path: Path) -> None:
    running, lobby, tournament_id, _ = await server_a(h)
    elsewhere = h.add_guild(GUILD_B)["elsewhere"]
    mallory = h.user(MALLORY, "mallory", permissions=discord.Permissions.all())
    before = snapshot(h, tmp_path / "bot.db")
    for command, options in [("game end", {"table": running.id}), ("game status", {"table": running.id}),
                             ("game end", {"table": lobby.id}), ("game timer", {"seconds": 5, "table": running.id}),
                             ("tournament standings", {"tournament": tournament_id}),
                             ("tournament start", {"tournament": tournament_id}),
                             ("tournament end", {"tournament": tournament_id})]:
        r = await h.slash(mallory, command, channel=elsewhere, **options)
        assert r.ephemeral and OTHER_SERVER in r.messages[-1].text, (command, r.text)
    assert snapshot(h, tmp_path / "bot.db") == before


async def test_end_table_and_resume_of_another_servers_paused_table_are_refused(h: Harness, tmp_path: Path) -> None:
    """The paused board's End table (host or Manage Server) and Resume: an admin of server B, and even a player of
    the table clicking from server B, are refused; the table stays paused."""
    table = await paused_table(h, manual_time(h))
    elsewhere = h.add_guild(GUILD_B)["elsewhere"]
    mallory = h.user(MALLORY, "mallory", permissions=discord.Permissions.all())
    before = snapshot(h, tmp_path / "bot.db")
    for who in (mallory, h.users[ALICE]):
        for custom_id in (f"gh:end:{table.id}", f"gh:back:{table.id}", f"gh:hand:{table.id}"):
            r = await h.click(who, forge(h, elsewhere, [button(custom_id)]), custom_id)
            assert r.ephemeral and OTHER_SERVER in r.text, (custom_id, r.text)
    assert snapshot(h, tmp_path / "bot.db") == before and table.paused and table.status == "running"


async def test_rematch_of_another_servers_table_is_refused(h: Harness, tmp_path: Path) -> None:
    people = {ALICE: h.user(ALICE, "alice")}
    r = await h.slash(people[ALICE], "play akuma", bots=2, level="easy")
    await h.click(people[ALICE], r.message, label=START)
    table = only_table(h)
    await ui_driver.play_to_the_end(h, table, people, random.Random(5))
    assert table.status == "finished"
    elsewhere = h.add_guild(GUILD_B)["elsewhere"]
    before = snapshot(h, tmp_path / "bot.db")
    custom_id = f"gh:rematch:{table.id}"
    for who in (h.user(MALLORY, "mallory", permissions=discord.Permissions.all()), people[ALICE]):
        r = await h.click(who, forge(h, elsewhere, [button(custom_id)]), custom_id)  # even one who played
        assert r.ephemeral and OTHER_SERVER in r.text, r.text
    assert snapshot(h, tmp_path / "bot.db") == before and table.row.rematch_id is None


async def test_forged_numbers_in_custom_ids_are_unknown_controls(h: Harness, tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    running, lobby, tournament_id, people = await server_a(h)
    alice = people[ALICE]  # the host of every table here and the tournament's creator
    game, version = running.id, running.version
    seat = running.seat_of_user(ALICE).seat  # type: ignore[union-attr]  # Alice sits at her table
    arabic = str(game).translate(ARABIC)
    custom_ids = [
        f"gh:do:{game}:{version}:{seat}.²", f"gh:do:{game}:{version}:{seat}.٣", f"gh:do:{game}:{version}:{seat}.0²",
        f"gh:do:{game}:{version}:{seat}.{'0' * 30}", f"gh:do:{game}:0{version}:{seat}.0",
        f"gh:do:{game}:{version}:0{seat}.0", f"gh:do:{game}:{version}:-{seat}.0", f"gh:do:{game}:{2 ** 63}:{seat}.0",
        f"gh:end:{arabic}", f"gh:end:0{game}", f"gh:end:-{game}", f"gh:end:{2 ** 63}", f"gh:end:{'9' * 20}",
        f"gh:hand:{arabic}", f"gh:hand:{2 ** 64 + game}", f"gh:back:{arabic}", f"gh:refresh:{game}²",
        f"gh:lobby:{str(lobby.id).translate(ARABIC)}:start", f"gh:lobby:{'1' * 25}:join",
        f"gh:tn:{str(tournament_id).translate(ARABIC)}:join", f"gh:tn:-{tournament_id}:join",
        f"gh:tn:{2 ** 63}:leave", f"gh:rematch:{arabic}"]
    before = snapshot(h, tmp_path / "bot.db")
    caplog.set_level(logging.ERROR)
    for custom_id in custom_ids:
        r = await h.click(alice, forge(h, h.channel_id, [button(custom_id)]), custom_id)
        assert r.ephemeral and UNKNOWN in r.text, (custom_id, r.text)
    picks = [f"gh:pick:{game}:{version}:٣:", f"gh:pick:{game}:{version}:0:pg²", f"gh:pick:{arabic}:{version}:0:"]
    for custom_id in picks:
        hand = forge(h, h.channel_id, [select(custom_id, ["x"])], ephemeral_for=alice)
        r = await h.select(alice, hand, custom_id, ["x"])
        assert r.ephemeral and UNKNOWN in r.text, (custom_id, r.text)
    assert snapshot(h, tmp_path / "bot.db") == before
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR] == []
