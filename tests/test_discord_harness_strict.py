"""The strict edge: a request that breaks Discord's rules is answered with Discord's 400 body, and the test
fails with ``DiscordRefused`` even when the bot catches the ``HTTPException`` (a tiny sample bot, not the cogs)."""
from __future__ import annotations

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.webhook.async_ import async_context, interaction_response_params

from .discord_harness import DiscordRefused, Harness, HarnessError

BAD_EMOJI = "\U0001F0A0"  # PLAYING CARD BACK: a character, not an emoji


class Strict(commands.Cog):
    @app_commands.command(name="board", description="Board")
    async def board(self, interaction: discord.Interaction, emoji: str = "🃏") -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="My hand", emoji=emoji, custom_id="hand"))
        await interaction.response.send_message("board", view=view)

    @app_commands.command(name="careful", description="Sends a bad message and swallows the error")
    async def careful(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        try:
            await interaction.channel.send(embed=discord.Embed(title="x" * 300))  # type: ignore[union-attr]
        except discord.HTTPException:
            pass  # a bot that hides the failure: the harness must not

    @app_commands.command(name="form", description="Opens a modal")
    async def form(self, interaction: discord.Interaction, title: str) -> None:
        modal = discord.ui.Modal(title=title, custom_id="form")
        modal.add_item(discord.ui.TextInput(label="Name", custom_id="name"))
        await interaction.response.send_modal(modal)

    @app_commands.command(name="misuse", description="Answers a command with UPDATE_MESSAGE")
    async def misuse(self, interaction: discord.Interaction) -> None:
        adapter = async_context.get()  # discord.py's own InteractionResponse would not send this
        await adapter.create_interaction_response(interaction.id, interaction.token, session=interaction._session,
                                                  params=interaction_response_params(7, {"content": "x"}))

    @app_commands.command(name="find", description="Autocompletes")
    async def find(self, interaction: discord.Interaction, game: str) -> None:
        await interaction.response.send_message(game)

    @find.autocomplete("game")
    async def find_game(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"game {i}", value=str(i)) for i in range(int(current or 0))]


class StrictBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.none())

    async def setup_hook(self) -> None:
        await self.add_cog(Strict())


@pytest.fixture
async def h():
    harness = await Harness(StrictBot()).start()
    yield harness
    await harness.close(check=False)


async def test_a_valid_message_passes_and_an_unknown_emoji_fails(h: Harness) -> None:
    alice = h.user(101, "alice")
    assert (await h.slash(alice, "board")).content == "board"
    with pytest.raises(HarnessError, match=r"(?s)Discord refused.*data.components.0.components.0.emoji.name: "
                                           r"COMPONENT_INVALID_EMOJI"):
        await h.slash(alice, "board", emoji=BAD_EMOJI, expect_response=False)
    call = h.calls[-1]
    assert call.status == 400 and call.response["code"] == 50035 and call.response["message"] == "Invalid Form Body"


async def test_a_refusal_the_bot_swallows_still_fails_the_test(h: Harness) -> None:
    alice = h.user(101, "alice")
    with pytest.raises(HarnessError, match=r"Discord refused POST /channels/.*\n  embeds.0.title: BASE_TYPE_MAX"):
        await h.slash(alice, "careful")
    with h.expect_errors(DiscordRefused) as caught:  # a test may expect it
        await h.slash(alice, "careful")
    assert caught[0].call.route == "POST /channels/{channel_id}/messages"


async def test_modal_and_autocomplete_answers_are_validated(h: Harness) -> None:
    alice = h.user(101, "alice")
    assert (await h.slash(alice, "form", title="Rename")).modal["title"] == "Rename"
    with pytest.raises(HarnessError, match=r"(?s)Discord refused.*data.title: BASE_TYPE_BAD_LENGTH"):
        await h.slash(alice, "form", title="x" * 46, expect_response=False)
    assert len(await h.autocomplete(alice, "find", "game", game="25")) == 25
    with pytest.raises(HarnessError, match=r"(?s)Discord refused.*data.choices: BASE_TYPE_MAX_LENGTH"):
        await h.autocomplete(alice, "find", "game", game="26")


async def test_callback_type_must_suit_the_interaction(h: Harness) -> None:
    with pytest.raises(HarnessError, match=r"(?s)Discord refused.*type: INTERACTION_CALLBACK_TYPE_INVALID"):
        await h.slash(h.user(101, "alice"), "misuse", expect_response=False)


async def test_command_sync_is_validated(h: Harness) -> None:
    await h.bot.tree.sync()
    assert {c["name"] for c in h.server.commands[None]} == {"board", "careful", "form", "misuse", "find"}
    bad = app_commands.Command(name="bad", description="x", callback=_noop)
    bad.name = "Bad Name"  # discord.py checks names itself; Discord must refuse one that slips through
    h.bot.tree.add_command(bad)
    with pytest.raises(discord.HTTPException):
        await h.bot.tree.sync()
    with pytest.raises(HarnessError, match=r"Discord refused PUT .*\n  5.name: APPLICATION_COMMAND_INVALID_NAME"):
        await h.settle()


async def _noop(interaction: discord.Interaction) -> None:
    pass
