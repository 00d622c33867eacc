"""The toy game in Discord: ``/play toy`` and one button per card in the hand."""
from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import t
from bot.table import Table
from cogs.controls import Actions
from cogs.lobby import DEFAULT_TIMER, LEVEL_CHOICES, TimerOption, open_lobby

from . import render
from .view import ToyView


@app_commands.command(name="toy")
@app_commands.describe(bots="Bot seats to add at once (0–2)",
                       timer="Seconds per decision before a bot moves for an absent player (0 = no timer)")
@app_commands.describe(level="Bot level: easy, normal or strong")
@app_commands.choices(level=LEVEL_CHOICES)
async def play(interaction: discord.Interaction, bots: app_commands.Range[int, 0, 2] = 0,
               timer: TimerOption = DEFAULT_TIMER, level: str = "normal") -> None:
    """Toy (2–3 players): play your two cards, highest total wins."""
    await open_lobby(interaction, "toy", {}, bots, timer, level)


def controls(table: Table, player: str, view: ToyView, selection: list[str],
             locale: object | None) -> list[discord.ui.Item]:
    actions = Actions(table, player)
    return [actions.button({"type": "play", "card": c}, t("toy.button.play", locale, card=render.card(c)))
            for c in view.hand or []]


def selection_notes(table: Table, player: str, view: ToyView, selection: list[str],
                    locale: object | None) -> list[str]:
    return []
