"""``/leaderboard game:`` and ``/stats user:``: ratings (OpenSkill, per server and game) and results."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import literal
from bot.i18n import t
from bot.tournaments import text as tx

from .common import NO_MENTIONS, game_choices, host, reply

LEADERBOARD_SIZE = 15


class StatsCog(commands.Cog):
    """Leaderboards and player statistics."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard")
    @app_commands.describe(game="Which game's ratings")
    @app_commands.choices(game=game_choices())
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        """The server's best rated players of a game (people rated among themselves; bots left out)."""
        rows = await host(interaction).ratings.leaderboard(interaction.guild_id, game, LEADERBOARD_SIZE)
        locale = interaction.guild_locale or interaction.locale
        embed = discord.Embed(title=t("stats.leaderboard_title", locale, game=t(f"game.{game}.name", locale)),
                              description="\n".join(tx.leaderboard_lines(rows, locale)), colour=0x1ABC9C)
        embed.set_footer(text=t("stats.leaderboard_footer", locale))
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="stats")
    @app_commands.describe(user="Whose statistics (default: yours)")
    async def stats(self, interaction: discord.Interaction, user: discord.Member | None = None) -> None:
        """Games, wins, placings, ratings and recent results of a player on this server (only to you)."""
        member = user or interaction.user
        stats = await host(interaction).ratings.stats(interaction.guild_id, member.id)
        embed = discord.Embed(title=t("stats.title", interaction.locale, name=literal.markdown(member.display_name)),
                              description="\n".join(tx.stats_lines(stats, interaction.locale)), colour=0x1ABC9C)
        await reply(interaction, embed=embed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StatsCog(bot))
