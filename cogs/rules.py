"""``/rules <game>``: a quick start, then the rules as this bot plays them, then the decisions this bot took where
the original leaves a point open (the rules files mark them in place; ``/rules`` gathers them after the rules), only
to you."""
from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_rules.limits import EMBED_TOTAL, EMBEDS
from bot.i18n import quick_start_text, rules_text, t

from .common import game_choices

EMBED_LIMIT = 4000
MESSAGE_LIMIT = EMBED_TOTAL  # Discord: characters across all embeds of one message
DECISION = re.compile(r"> \*\*\[D\d+\]")  # a decision's line in the rules files: "> **[D3] Decision:** …"


def arranged_rules(game: str, locale: object | None) -> str:
    """What ``/rules`` says: the quick start, the rules without their decisions, then the decisions."""
    rules: list[str] = []
    decisions: list[str] = []
    for line in rules_text(game, locale).splitlines():
        (decisions if DECISION.match(line) else rules).append(line)
    body = re.sub(r"\n{3,}", "\n\n", "\n".join(rules)).strip()
    parts = [t("rules.quick_start", locale) + "\n" + quick_start_text(game, locale),
             t("rules.in_full", locale) + "\n" + body]
    if decisions:
        parts.append(t("rules.decisions", locale) + "\n" + "\n".join(decisions))
    return "\n\n".join(parts)


def chunks(text: str, limit: int = EMBED_LIMIT) -> list[str]:
    """Split on paragraph boundaries so each piece fits an embed description."""
    pieces: list[str] = []
    current = ""
    for paragraph in text.split("\n\n"):
        candidate = f"{current}\n\n{paragraph}" if current else paragraph
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            pieces.append(current)
        while len(paragraph) > limit:  # at a line's end if one is within the limit
            cut = paragraph.rfind("\n", 0, limit + 1)
            cut = cut if cut > 0 else limit
            pieces.append(paragraph[:cut])
            paragraph = paragraph[cut:].lstrip("\n")
        current = paragraph
    if current:
        pieces.append(current)
    return pieces


def rules_embeds(game: str, locale: object | None) -> list[discord.Embed]:
    """The rules of ``game`` as the embeds of one message (the first one titled with the game's name)."""
    title = t(f"game.{game}.name", locale)
    embeds = [discord.Embed(title=title if i == 0 else None, description=part, colour=0x3498DB)
              for i, part in enumerate(chunks(arranged_rules(game, locale)))]
    return embeds


def rules_messages(game: str, locale: object | None) -> list[list[discord.Embed]]:
    """The rules' embeds grouped into messages Discord accepts (≤ 10 embeds and ≤ 6,000 characters each)."""
    messages: list[list[discord.Embed]] = [[]]
    for embed in rules_embeds(game, locale):
        group = messages[-1]
        if group and (len(group) == EMBEDS or sum(len(e) for e in group) + len(embed) > MESSAGE_LIMIT):
            messages.append(group := [])
        group.append(embed)
    return messages


class RulesCog(commands.Cog):
    """Rules of every game."""

    @app_commands.command(name="rules")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """Read the rules of a game as this bot plays them (a quick start first, decisions after the rules)."""
        first, *rest = rules_messages(game.value, interaction.locale)
        await interaction.response.send_message(embeds=first, ephemeral=True)
        for embeds in rest:
            await interaction.followup.send(embeds=embeds, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RulesCog())
