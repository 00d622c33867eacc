"""``python -m bot check``: the offline checks (commands as synced, every game's messages) and the token path
against the harness's fake Discord (servers, intents, a channel's permissions computed from roles/overwrites)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import discord

from bot.check import Finding, offline_findings, report
from bot.check_server import server_findings
from bot.client import bot_intents
from bot.i18n import catalog

from .discord_harness import Harness
from .discord_harness_http import use_fake_session
from .discord_harness_payloads import guild_payload

ROOT = Path(__file__).resolve().parents[1]


def test_without_a_token_it_checks_commands_and_messages_and_passes(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    proc = subprocess.run([sys.executable, "-m", "bot", "check"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={**env, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("✅ 7 slash commands") and "sample messages" in lines[1]
    assert "DISCORD_TOKEN" in lines[2] and lines[-1] == "All checks passed."


async def test_a_message_or_command_discord_would_refuse_fails_the_check(monkeypatch) -> None:
    monkeypatch.setitem(catalog("en"), "board.my_hand", "M" * 81)  # a button label over 80
    monkeypatch.setitem(catalog("ja"), "app.rules.description", "説" * 101)  # a localized description over 100
    findings = await offline_findings("en", max_steps=2)
    failed = [f for f in findings if not f.ok]
    assert "components.0.components.0.label: BASE_TYPE_MAX_LENGTH" in "\n".join(f.fix for f in failed)
    assert "description_localizations.ja: BASE_TYPE_BAD_LENGTH" in failed[0].fix
    out: list[str] = []
    assert report(findings, "en", out.append) == 1 and out[-1].endswith("checks failed.")


def fake_discord(intents: discord.Intents | None = None) -> tuple[discord.Client, Harness]:
    """A client that logs in on the harness's fake Discord: a guild whose bot role lacks Attach Files in #games."""
    client = discord.Client(intents=intents if intents is not None else bot_intents())
    h = Harness(client, channels=("general", "games"))
    bot_role = h.guild_id + 1
    h.server.channels[h.channel_ids["games"]]["permission_overwrites"] = [
        {"id": str(bot_role), "type": 0, "allow": "0", "deny": str(discord.Permissions(attach_files=True).value)}]
    h.server.guild = guild_payload(h)
    use_fake_session(client.http, h.server)
    return client, h


async def test_with_a_token_it_lists_servers_intents_and_permissions() -> None:
    client, h = fake_discord()
    findings = await server_findings("token", h.channel_ids["general"], "en", client=client)
    assert all(f.ok for f in findings), [f.line() for f in findings]
    texts = [f.text for f in findings]
    assert texts[:3] == ["Logged in as GameHost#0000", f"In 1 server: Harness Guild ({h.guild_id})",
                         "No privileged intent needed (the bot asks only for guilds)"]
    assert "Manage Threads in #general" in texts and "Attach Files in #general" in texts
    assert [c.route for c in h.calls] == [
        "GET /users/@me", "GET /oauth2/applications/@me",  # login: discord.py asks for its application id
        "GET /users/@me/guilds", "GET /oauth2/applications/@me", "GET /channels/{channel_id}",
        "GET /guilds/{guild_id}", "GET /guilds/{guild_id}/members/{user_id}"]


async def test_a_missing_permission_is_named_with_its_fix() -> None:
    client, h = fake_discord()
    findings = await server_findings("token", h.channel_ids["games"], "en", client=client)
    failed = [f for f in findings if not f.ok]
    assert [f.text for f in failed] == ["Attach Files in #games"]
    assert "give the bot's role Attach Files in #games" in failed[0].line()
    client, h = fake_discord()
    ja = await server_findings("token", h.channel_ids["games"], "ja", client=client)
    assert [f.text for f in ja if not f.ok] == ["#games での「ファイルを添付」"]


async def test_an_intent_the_application_lacks_and_a_bad_token_fail() -> None:
    client, h = fake_discord(discord.Intents(guilds=True, members=True))
    findings = await server_findings("token", None, "en", client=client)
    assert [f.text for f in findings if not f.ok] == ["Privileged intent members is enabled for the application"]
    client, h = fake_discord()
    h.server.route("GET", "/users/@me", lambda call, p: (401, {"message": "401: Unauthorized", "code": 0}))
    findings = await server_findings("bad", None, "en", client=client)
    assert [(f.ok, f.text) for f in findings] == [(False, "Discord refused the token")]


def test_a_finding_line_shows_the_fix_only_when_it_failed() -> None:
    assert Finding(True, "a", "fix").line() == "✅ a"
    assert Finding(False, "a", "fix").line() == "❌ a\n   → fix"
