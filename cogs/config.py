"""``/config``: server settings (Manage Server only)."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import HostError
from bot.i18n import t

from .common import host, is_admin, reply

LANGUAGE_CHOICES = [app_commands.Choice(name="automatic", value="auto"),
                    app_commands.Choice(name="English", value="en"),
                    app_commands.Choice(name="日本語", value="ja")]
TABLES_CHOICES = [app_commands.Choice(name="thread", value="thread"),
                  app_commands.Choice(name="channel", value="channel")]


class ConfigCog(commands.Cog):
    """Server settings."""

    config = app_commands.Group(name="config", description="Server settings for the game host", guild_only=True,
                                default_permissions=discord.Permissions(manage_guild=True))

    @config.command(name="language")
    @app_commands.describe(language="Language of the tables' public messages on this server")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        """Choose the language of public game messages here (each player's own views follow their Discord)."""
        if not is_admin(interaction):
            raise HostError("manage_server_only")
        assert interaction.guild_id is not None
        chosen = None if language == "auto" else language
        await host(interaction).storage.set_guild_language(interaction.guild_id, chosen)
        await reply(interaction, t(f"config.language.{language}", chosen or interaction.locale))

    @config.command(name="tables")
    @app_commands.describe(where="thread: each table in its own thread started from its lobby; channel: in the "
                                 "channel")
    @app_commands.choices(where=TABLES_CHOICES)
    async def tables(self, interaction: discord.Interaction, where: str) -> None:
        """Choose where new tables play on this server: each in its own thread (default), or in the channel."""
        if not is_admin(interaction):
            raise HostError("manage_server_only")
        assert interaction.guild_id is not None
        await host(interaction).storage.set_guild_tables(interaction.guild_id, where)
        await reply(interaction, t(f"config.tables.{where}", interaction.locale))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ConfigCog())
