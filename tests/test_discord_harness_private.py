"""The strict edge knows Discord's rules outside a server, for an app a person installed to their account: in a DM or
group DM the bot writes only through interaction tokens (no channel writes, no threads), a token lasts 15 minutes,
an interaction takes at most 5 followups, and ``app_permissions`` are only Attach Files, Embed Links and Mention
Everyone (a tiny sample bot, not the cogs)."""
from __future__ import annotations

import time

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from .discord_faults import TOKEN_LIFETIME
from .discord_harness import DiscordRefused, Harness, HarnessError


class Private(commands.Cog):
    def __init__(self) -> None:
        self.kept: list[discord.Interaction] = []

    @app_commands.command(name="chatty", description="Answers, then sends followups")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def chatty(self, interaction: discord.Interaction, followups: int) -> None:
        await interaction.response.send_message(f"perms {interaction.app_permissions.value}")
        for i in range(followups):
            await interaction.followup.send(f"followup {i}")

    @app_commands.command(name="post", description="Answers, then writes to the channel itself")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def post(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok")
        await interaction.client.http.send_message(interaction.channel_id, params=_text("by the bot"))

    @app_commands.command(name="keep", description="Answers and keeps the interaction for later")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def keep(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("kept")
        self.kept.append(interaction)


def _text(content: str):  # the body discord.py would send for a plain message
    from discord.http import handle_message_parameters

    return handle_message_parameters(content=content)


class PrivateBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.none())
        self.cog = Private()

    async def setup_hook(self) -> None:
        await self.add_cog(self.cog)


@pytest.fixture
async def h():
    harness = await Harness(PrivateBot()).start()
    yield harness
    await harness.close(check=False)


async def test_outside_a_server_the_app_has_only_the_reduced_permissions(h: Harness) -> None:
    alice = h.user(101, "alice")
    reduced = discord.Permissions(attach_files=True, embed_links=True, mention_everyone=True).value
    for channel in (h.dm(alice), h.group_dm(alice, h.user(102, "bob"))):
        assert (await h.slash(alice, "chatty", channel=channel, followups=0)).content == f"perms {reduced}"


async def test_five_followups_outside_a_server_and_no_sixth(h: Harness) -> None:
    alice = h.user(101, "alice")
    assert len((await h.slash(alice, "chatty", followups=6)).messages) == 7  # in a server: no such cap
    reply = await h.slash(alice, "chatty", channel=h.dm(alice), followups=5)
    assert len(reply.messages) == 6 and reply.followups == 5
    with pytest.raises(HarnessError, match=r"(?s)Discord refused POST /webhooks/.*40094"):
        await h.slash(alice, "chatty", channel=h.group_dm(alice, h.user(102, "bob")), followups=6)


@pytest.mark.parametrize("where", ["dm", "group_dm"])
async def test_no_channel_writes_in_a_dm_or_group_dm(h: Harness, where: str) -> None:
    alice, bob = h.user(101, "alice"), h.user(102, "bob")
    channel = h.dm(alice) if where == "dm" else h.group_dm(alice, bob)
    with pytest.raises(HarnessError, match=r"(?s)Discord refused POST /channels/\d+/messages.*(50001|50007)"):
        await h.slash(alice, "post", channel=channel)
    await h.slash(alice, "post")  # in a server channel the same write is fine
    with h.expect_errors(DiscordRefused):  # no threads there either
        with pytest.raises(discord.Forbidden):
            await h.bot.http.start_thread_without_message(channel, name="t", auto_archive_duration=60, type=11)
        await h.settle()


async def test_a_token_outside_a_server_lasts_15_minutes(h: Harness) -> None:
    alice = h.user(101, "alice")
    await h.slash(alice, "keep", channel=h.group_dm(alice, h.user(102, "bob")))
    interaction = h.bot.cog.kept[-1]
    await interaction.followup.send("in time")
    reply = h.server.replies[interaction.token]
    reply.created = time.monotonic() - TOKEN_LIFETIME - 1  # 15 minutes later
    with pytest.raises(discord.HTTPException) as raised:
        await interaction.edit_original_response(content="too late")
    assert raised.value.status == 401 and raised.value.code == 50027
    with pytest.raises(HarnessError, match=r"Discord refused PATCH /webhooks/"):
        await h.settle()


async def test_a_token_discord_refused_stays_refused_and_a_second_use_is_the_bots_error(h: Harness) -> None:
    """Discord sometimes refuses a token within its 15 minutes (discord/discord-api-docs #6851, #7220): 404 10015
    Unknown Webhook for every request with it, 401 50027 once the 15 minutes are over. The first refusal is news to
    the bot; using the token again after it was told is refused as the bot's error."""
    alice = h.user(101, "alice")
    await h.slash(alice, "keep", channel=h.group_dm(alice, h.user(102, "bob")))
    interaction = h.bot.cog.kept[-1]
    h.server.faults.refuse_token(interaction.token)
    with pytest.raises(discord.NotFound) as raised:
        await interaction.followup.send("after the refusal")
    assert raised.value.code == 10015
    await h.settle()  # the first refusal: not the bot's fault
    with pytest.raises(discord.NotFound):
        await interaction.edit_original_response(content="again")
    with pytest.raises(HarnessError, match=r"(?s)Discord refused PATCH /webhooks/.*10015"):
        await h.settle()
    h.server.replies[interaction.token].created -= TOKEN_LIFETIME + 1  # its 15 minutes are over
    with pytest.raises(discord.HTTPException) as raised:
        await interaction.followup.send("much later")
    assert raised.value.status == 401 and raised.value.code == 50027
    with pytest.raises(HarnessError, match=r"Discord refused POST /webhooks/"):
        await h.settle()
