"""``/config``: server settings (Manage Server only)."""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel, Field, create_model

from bot.errors import HostError
from bot.i18n import t
from bot.limits import BOUNDS, Cap, Limits
from bot.storage import TablesIn

from .common import host, is_admin, reply
from .model_options import model_command

LANGUAGE_CHOICES = [app_commands.Choice(name="automatic", value="auto"),
                    app_commands.Choice(name="English", value="en"),
                    app_commands.Choice(name="日本語", value="ja")]
LINKS_CHOICES = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
TABLES_CHOICES = [app_commands.Choice(name=where.value, value=where.value) for where in TablesIn]


def limits_text(limits: Limits, locale: object | None) -> str:
    """Every limit of the server with its current value, and who may organise tournaments."""
    role = limits.organiser_role_id
    lines = [t("config.limits.title", locale)]
    lines += [t(f"config.limits.{cap.value}", locale, value=limits.cap(cap)) for cap in Cap]
    lines.append(t("config.limits.organisers", locale) if role is None
                 else t("config.limits.organisers_role", locale, role=f"<@&{role}>"))
    lines.append(t("config.limits.how", locale))
    return "\n".join(lines)


# ``/config limits``' options: every cap of ``Limits``, optional (left out: unchanged), within the cap's bounds.
CHANGES: dict[str, Any] = {cap.value: (int | None, Field(None, ge=low, le=high)) for cap, (low, high) in BOUNDS.items()}
LimitChanges: type[BaseModel] = create_model("LimitChanges", **CHANGES)


async def show_or_change_limits(interaction: discord.Interaction, values: dict[str, int | None]) -> None:
    """Show this server's limits; change those given (the others stay)."""
    if not is_admin(interaction):
        raise HostError("manage_server_only")
    assert interaction.guild_id is not None
    changes = {cap: value for cap in Cap if (value := values[cap.value]) is not None}
    storage = host(interaction).storage
    limits = (await storage.guild_limits(interaction.guild_id)).changed(changes)  # out of range: refused
    await storage.set_guild_limits(interaction.guild_id, changes)
    await reply(interaction, limits_text(limits, interaction.locale))


class ConfigCog(commands.Cog):
    """Server settings."""

    config = app_commands.Group(name="config", description="Server settings for the game host",
                                default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self) -> None:
        # generated from the Limits model; added to this cog's copy of the group, so it is called without the cog
        self.config.add_command(model_command("limits", "config.limits", LimitChanges, show_or_change_limits))

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
        # a forged value outside the choices was refused before (GameHostBot.on_app_command_check)
        await host(interaction).storage.set_guild_tables(interaction.guild_id, TablesIn(where))
        await reply(interaction, t(f"config.tables.{where}", interaction.locale))

    @config.command(name="links")
    @app_commands.describe(mode="on: finished games may be shared at links outside Discord; off: no link opens")
    @app_commands.choices(mode=LINKS_CHOICES)
    async def links(self, interaction: discord.Interaction, mode: str) -> None:
        """Allow or stop links to this server's finished games outside Discord (off: every link stops opening)."""
        if not is_admin(interaction):
            raise HostError("manage_server_only")
        assert interaction.guild_id is not None
        await host(interaction).storage.set_guild_web_links(interaction.guild_id, mode == "on")
        await reply(interaction, t(f"config.links.{mode}", interaction.locale))

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
