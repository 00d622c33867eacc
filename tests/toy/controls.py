"""The toy game in Discord: one button per card in the hand (``/play toy`` is generated from its options)."""
from __future__ import annotations

import discord

from bot.i18n import t
from bot.table import Table
from cogs.controls import Actions

from . import render
from .view import ToyView


def controls(table: Table, player: str, view: ToyView, selection: list[str],
             locale: object | None) -> list[discord.ui.Item]:
    actions = Actions(table, player)
    return [actions.button({"type": "play", "card": c}, t("toy.button.play", locale, card=render.card(c)))
            for c in view.hand or []]


def selection_notes(table: Table, player: str, view: ToyView, selection: list[str],
                    locale: object | None) -> list[str]:
    return []
