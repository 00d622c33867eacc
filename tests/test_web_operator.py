"""The operator's routes (issue 56, item 4) on the bot's own web server, with the real bot behind the Discord
harness: ``/healthz`` answers 200 only while the gateway is connected, the database answers and the thinking
workers are alive, else 503 naming what failed; ``/metrics`` counts what the bot did (actions committed, the
acknowledgement latency by Discord's clock, refused requests by kind, bots' decision wait, commit time, running
tables), read through discord.py's own ``http_trace``; with ``WEB_OPERATOR_PORT`` both leave the public port."""
from __future__ import annotations

import json
import re
from pathlib import Path

import discord
import pytest

from bot.client import GameHostBot
from bot.errors import HostError
from bot.settings import Settings
from bot.storage import SeatRow
from engines import EngineError

from .discord_harness import Harness
from .test_discord_share import ALICE, BASE, played_table, result_of
from .web_helpers import fetch


async def web_harness(tmp_path: Path, **settings: object) -> Harness:
    chosen: dict[str, object] = {"web_port": 0, **settings}
    bot = GameHostBot(Settings(_env_file=None, discord_token=None, database_path=tmp_path / "games.db",
                               bot_move_delay=0, web_base_url=BASE, **chosen), sync_commands=False)
    harness = Harness(bot)
    await harness.start()
    await harness.bot.storage.set_guild_tables(harness.guild_id, "channel")
    harness.allow_errors(HostError, EngineError)
    return harness


def sample(metrics: str, name: str, labels: str = "") -> float:
    found = re.search(rf"^{re.escape(name)}{re.escape(labels)} (\S+)$", metrics, re.M)
    return float(found.group(1)) if found else 0.0


async def health(h: Harness, port: int | None = None) -> tuple[int, dict]:
    status, _, body = await fetch(f"http://127.0.0.1:{port or h.bot.web.ports[0]}/healthz")
    return status, json.loads(body)


async def test_healthz_says_which_part_failed(tmp_path: Path) -> None:
    h = await web_harness(tmp_path)
    try:
        await h.bot.thinker.ready()
        status, body = await health(h)
        assert status == 503 and body["failed"] == ["gateway"]  # the harness's stand-in gateway is not open
        h.gateway.open = True  # connected (discord.py's DiscordWebSocket.open)
        status, body = await health(h)
        assert status == 200 and body == {"ok": True, "failed": [], "checks": body["checks"]}
        assert body["checks"]["database"] == {"ok": True, "detail": "sqlite"}
        pool = h.bot.thinker.strong.pool
        assert pool is not None
        await pool.close()  # the strong lane's workers are gone
        status, body = await health(h)
        assert status == 503 and body["failed"] == ["workers"] and "strong" in body["checks"]["workers"]["detail"]
        h.gateway.open = False
        status, body = await health(h)
        assert status == 503 and body["failed"] == ["gateway", "workers"]
    finally:
        await h.close()


async def test_healthz_reports_a_database_that_does_not_answer(tmp_path: Path) -> None:
    h = await web_harness(tmp_path)
    try:
        h.gateway.open = True
        await h.bot.thinker.ready()
        assert (await health(h))[0] == 200
        await h.bot.storage.db.conn.close()  # the database connection is lost
        status, body = await health(h)
        assert status == 503 and body["failed"] == ["database"]
        assert body["checks"]["database"] == {"ok": False, "detail": "sqlite: the connection is closed"}
    finally:
        await h.abandon()
        await h.bot.thinker.close()
        await h.bot.web.stop()


async def test_healthz_sees_the_database_file_deleted_under_the_bot(tmp_path: Path) -> None:
    """The bot would go on playing into a deleted file, and lose all of it at its next start: unhealthy."""
    import os

    h = await web_harness(tmp_path)
    try:
        h.gateway.open = True
        await h.bot.thinker.ready()
        await played_table(h)
        assert (await health(h))[0] == 200
        os.remove(tmp_path / "games.db")
        status, body = await health(h)
        assert status == 503 and body["failed"] == ["database"]
        assert body["checks"]["database"]["detail"] == "sqlite: the database file is gone (deleted or moved)"
    finally:
        h.gateway.open = False
        await h.close()


async def test_metrics_count_what_the_bot_did(tmp_path: Path) -> None:
    h = await web_harness(tmp_path)
    try:
        site = f"http://127.0.0.1:{h.bot.web.ports[0]}"
        table = await played_table(h)
        status, headers, body = await fetch(f"{site}/metrics")
        metrics = body.decode()
        assert status == 200 and headers["Content-Type"].startswith("text/plain; version=")
        actions = len(await h.bot.storage.action_log(table.id))
        assert sample(metrics, "gamehost_actions_committed_total") == actions > 10
        assert sample(metrics, "gamehost_tables_running") == 0
        assert sample(metrics, "gamehost_database_commit_seconds_count") >= 1
        assert sample(metrics, "gamehost_bot_decision_wait_seconds_count") >= actions - 1
        before = sample(metrics, "gamehost_acknowledgement_seconds_count")
        alice = h.user(ALICE, "alice")
        await h.click(alice, result_of(h, table), f"gh:share:{table.id}")  # one interaction answered
        h.server.faults.fail("GET", r"/channels/\d+/messages/\d+", status=404, code=10008)
        with pytest.raises(discord.NotFound):
            await h.bot.http.get_message(h.channel_id, 1)
        seats = [SeatRow(0, "p1", "alice", ALICE, False), SeatRow(1, "bot1", "Bot 1", None, True)]
        await h.bot.service.create_seated_table(game="rocca", guild_id=h.guild_id, channel_id=h.channel_id,
                                                seats=seats, host_id=ALICE, seed=5)
        await h.settle()
        _, _, body = await fetch(f"{site}/metrics")
        metrics = body.decode()
        assert sample(metrics, "gamehost_acknowledgement_seconds_count") == before + 1
        assert sample(metrics, "gamehost_acknowledgement_seconds_bucket", '{le="3.0"}') == before + 1
        assert sample(metrics, "gamehost_discord_refused_total", '{kind="not_found"}') == 1
        assert sample(metrics, "gamehost_tables_running") == 1  # waiting for Alice
    finally:
        await h.close()


async def test_the_operator_port_takes_health_and_metrics_off_the_public_one(tmp_path: Path) -> None:
    h = await web_harness(tmp_path, web_operator_port=0)
    try:
        public, operator = h.bot.web.ports
        assert public != operator
        for path in ("/healthz", "/metrics"):
            assert (await fetch(f"http://127.0.0.1:{public}{path}"))[0] == 404
            assert (await fetch(f"http://127.0.0.1:{operator}{path}"))[0] in (200, 503)
        assert (await fetch(f"http://127.0.0.1:{operator}/static/replay.css"))[0] == 404
        assert (await fetch(f"http://127.0.0.1:{public}/static/replay.css"))[0] == 200
    finally:
        await h.close()
    assert h.bot.web is None  # stopped with the bot


@pytest.mark.parametrize("shard", [0, 1])
async def test_in_a_cluster_the_process_owning_shard_0_runs_the_web_side(tmp_path: Path, shard: int) -> None:
    """``python -m bot cluster`` starts its processes with the same WEB_PORT: only one binds it, the one owning
    shard 0 (as only it syncs the commands). (The harness runs no ``Shard`` objects, so the health read of each
    shard's connection, ``ShardInfo.is_closed``, is not reached here: its one stand-in gateway is read.)"""
    from bot.client import make_bot

    from .test_shards_discord import COUNT, guild_on

    settings = Settings(_env_file=None, discord_token=None, database_path=tmp_path / "games.db", bot_move_delay=0,
                        web_base_url=BASE, web_port=0, shard_count=COUNT, shard_ids=str(shard))
    h = Harness(make_bot(settings, sync_commands=False), guild_id=guild_on(shard))
    await h.start()
    try:
        if shard == 1:
            assert h.bot.web is None
            return
        status, body = await health(h)
        assert status == 503 and body["failed"] == ["gateway"] and "disconnected" in body["checks"]["gateway"]["detail"]
        h.gateway.open = True
        assert (await health(h))[0] == 200
    finally:
        await h.close()


async def test_a_taken_port_stops_the_bot_saying_why(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Share buttons would link to pages nobody serves: a bot whose web side cannot listen does not start."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = GameHostBot(Settings(_env_file=None, discord_token=None, database_path=tmp_path / "games.db",
                                   bot_move_delay=0, web_base_url=BASE, web_port=port), sync_commands=False)
        h = Harness(bot)
        with pytest.raises(OSError):
            await h.start()
        await h.close(check=False)
    assert bot.web is None and any("cannot listen" in r.getMessage() for r in caplog.records)


def test_a_web_address_that_is_no_address_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import main

    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    for wrong in ("games.example.org", "ftp://games.example.org", "https://games.example.org/?x=1"):
        monkeypatch.setenv("WEB_BASE_URL", wrong)
        assert main(["run"]) == 2
        assert f"WEB_BASE_URL {wrong!r} must be an address" in capsys.readouterr().err
    assert Settings(_env_file=None, web_base_url="https://games.example.org/").web_base_url == BASE


def test_ports_no_port_can_be_are_refused_naming_the_setting(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import main

    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    monkeypatch.setenv("WEB_BASE_URL", BASE)
    for name, wrong in (("WEB_PORT", "70000"), ("WEB_PORT", "-1"), ("WEB_OPERATOR_PORT", "65536")):
        monkeypatch.setenv(name, wrong)
        assert main(["run"]) == 2
        assert f"{name} {wrong} must be a port from 1 to 65535" in capsys.readouterr().err
        monkeypatch.delenv(name)


async def test_an_operator_port_equal_to_the_public_one_is_the_same_server(tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:  # a port free now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    h = await web_harness(tmp_path, web_port=port, web_operator_port=port)
    try:
        assert h.bot.web.ports == [port]  # one server, not a second bind of its own port
        for path in ("/healthz", "/metrics", "/static/replay.css"):
            assert (await fetch(f"http://127.0.0.1:{port}{path}"))[0] in (200, 503), path
    finally:
        await h.close()
