"""Where the commands may be installed and used: the table commands for a person's own account too, in DMs and group
DMs; the server's commands in servers only, and one run elsewhere is answered with why, changing nothing."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord_rules import command_errors
from bot.tournaments.models import TournamentStatus

from .discord_harness_http import HarnessError, Reply
from .discord_harness_payloads import build_options, interaction_payload
from .discord_helpers import says, start_harness

GUILD_INSTALL, USER_INSTALL = 0, 1  # Discord's ApplicationIntegrationType
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2  # Discord's InteractionContextType
EVERYWHERE = ("play", "rules", "game")
SERVER_ONLY = ("config", "tournament", "stats", "leaderboard")


async def test_synced_commands_say_where_they_install_and_run(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    try:
        await h.bot.sync_app_commands()  # the global bulk overwrite, through the strict edge
        synced = {c["name"]: c for c in h.server.commands[None]}
        assert set(synced) == set(EVERYWHERE) | set(SERVER_ONLY)
        for name in EVERYWHERE:
            assert sorted(synced[name]["integration_types"]) == [GUILD_INSTALL, USER_INSTALL], name
            assert sorted(synced[name]["contexts"]) == [GUILD, BOT_DM, PRIVATE_CHANNEL], name
        for name in SERVER_ONLY:
            assert synced[name]["integration_types"] == [GUILD_INSTALL], name
            assert synced[name]["contexts"] == [GUILD], name
        # The edge refuses values Discord does not know, so the check above could fail for a wrong payload.
        assert command_errors([{**synced["play"], "contexts": [3]}]) is not None
        assert not [c for c in h.calls if c.refused]
    finally:
        await h.close()


async def forged(h, user, command: str, channel: int, owners: dict[str, str] | None = None, **options):
    """A slash command sent where Discord's client would not offer it (an old client, a forged request)."""
    payload = interaction_payload(h, user, 2, build_options(h, user, command, options), channel, None)
    if owners is not None:
        payload["authorizing_integration_owners"] = owners
    reply = Reply(h.server, int(payload["id"]), payload["token"], 2, channel, user.payload)
    h.server.replies[reply.token] = reply
    h.dispatch("INTERACTION_CREATE", payload)
    await h.settle()
    return reply


async def test_a_server_command_outside_a_server_says_why_and_changes_nothing(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    try:
        alice = h.user(101, "alice")
        with pytest.raises(HarnessError, match="does not offer it"):  # the client does not even show it there
            await h.slash(alice, "leaderboard", channel=h.dm(alice), game="akuma")
        for channel in (h.dm(alice), h.group_dm(alice, h.user(102, "bob"))):
            for command, options in (("leaderboard", {"game": "akuma"}), ("stats", {})):
                reply = await forged(h, alice, command, channel, **options)
                assert reply.ephemeral and says(reply.text, "error.server_only"), reply.text
        reply = await forged(h, alice, "tournament create", h.dm(alice), game="akuma")
        assert reply.ephemeral and says(reply.text, "error.server_only")
        assert await h.bot.storage.tournaments.ids(statuses=tuple(TournamentStatus)) == []
        # In a server that added the bot the same command runs (no refusal).
        reply = await h.slash(alice, "leaderboard", game="akuma")
        assert not says(reply.text, "error.server_only")
    finally:
        await h.close()


async def test_a_persons_own_install_in_a_server_without_the_bot_says_why(tmp_path: Path) -> None:
    """Someone who installed the app to their account uses it in a server that has not added the bot: Discord
    sends the interaction with only their own install as its authorizer."""
    h = await start_harness(tmp_path / "bot.db")
    try:
        alice = h.user(101, "alice")
        for command, options, key in (("play akuma", {"bots": 3}, "error.server_without_bot"),
                                      ("leaderboard", {"game": "akuma"}, "error.server_only")):
            reply = await forged(h, alice, command, h.channel_id, owners={"1": str(alice.id)}, **options)
            assert reply.ephemeral and says(reply.text, key), reply.text
        assert await h.bot.storage.game_ids(status=("lobby", "running", "finished")) == []
    finally:
        await h.close()
