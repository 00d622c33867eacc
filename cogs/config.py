"""``/config``: server settings (Manage Server only)."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import HostError
from bot.i18n import t
from bot.limits import Cap, Limits

from .common import host, is_admin, reply

LANGUAGE_CHOICES = [app_commands.Choice(name="automatic", value="auto"),
                    app_commands.Choice(name="English", value="en"),
                    app_commands.Choice(name="日本語", value="ja")]
TABLES_CHOICES = [app_commands.Choice(name="thread", value="thread"),
                  app_commands.Choice(name="channel", value="channel")]


def limits_text(limits: Limits, locale: object | None) -> str:
    """Every limit of the server with its current value, and who may organise tournaments."""
    role = limits.organiser_role_id
    lines = [t("config.limits.title", locale)]
    lines += [t(f"config.limits.{cap.value}", locale, value=limits.cap(cap)) for cap in Cap]
    lines.append(t("config.limits.organisers", locale) if role is None
                 else t("config.limits.organisers_role", locale, role=f"<@&{role}>"))
    lines.append(t("config.limits.how", locale))
    return "\n".join(lines)


class ConfigCog(commands.Cog):
    """Server settings."""

    config = app_commands.Group(name="config", description="Server settings for the game host",
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

    @config.command(name="limits")
    @app_commands.describe(tournament_bots="Most bot entrants a tournament may have",
                           tournament_rounds="Most rounds a tournament may have",
                           lobbies_per_member="Most open lobbies one member may host",
                           lobbies_per_server="Most open lobbies on this server",
                           tables_per_member="Most running tables one member may host",
                           tables_per_server="Most running tables on this server",
                           creations_per_minute="Lobbies, tables and tournaments one member may create a minute")
    async def limits(self, interaction: discord.Interaction,
                     tournament_bots: app_commands.Range[int, 0, 64] | None = None,
                     tournament_rounds: app_commands.Range[int, 1, 20] | None = None,
                     lobbies_per_member: app_commands.Range[int, 1, 25] | None = None,
                     lobbies_per_server: app_commands.Range[int, 1, 500] | None = None,
                     tables_per_member: app_commands.Range[int, 1, 25] | None = None,
                     tables_per_server: app_commands.Range[int, 1, 500] | None = None,
                     creations_per_minute: app_commands.Range[int, 1, 60] | None = None) -> None:
        """Show this server's limits; change those you give (the others stay)."""
        # The ranges above are bot.limits.BOUNDS (tests/test_limits.py holds them equal); Limits.changed checks too.
        if not is_admin(interaction):
            raise HostError("manage_server_only")
        assert interaction.guild_id is not None
        given = {Cap.TOURNAMENT_BOTS: tournament_bots, Cap.TOURNAMENT_ROUNDS: tournament_rounds,
                 Cap.LOBBIES_PER_MEMBER: lobbies_per_member, Cap.LOBBIES_PER_SERVER: lobbies_per_server,
                 Cap.TABLES_PER_MEMBER: tables_per_member, Cap.TABLES_PER_SERVER: tables_per_server,
                 Cap.CREATIONS_PER_MINUTE: creations_per_minute}
        changes: dict[Cap, int] = {cap: value for cap, value in given.items() if value is not None}
        storage = host(interaction).storage
        limits = (await storage.guild_limits(interaction.guild_id)).changed(changes)  # out of range: refused
        await storage.set_guild_limits(interaction.guild_id, changes)
        await reply(interaction, limits_text(limits, interaction.locale))

    @config.command(name="organiser")
    @app_commands.describe(role="Members with this role may create and start tournaments; leave out to clear")
    async def organiser(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        """Choose a role whose members may create and start tournaments, besides Manage Server."""
        if not is_admin(interaction):
            raise HostError("manage_server_only")
        assert interaction.guild_id is not None
        await host(interaction).storage.set_organiser_role(interaction.guild_id, None if role is None else role.id)
        text = t("config.organiser.cleared", interaction.locale) if role is None else \
            t("config.organiser.set", interaction.locale, role=role.mention)
        await reply(interaction, text)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ConfigCog())
