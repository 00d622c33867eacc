"""The public board message of a running table: its embed, its picture and its controls."""
from __future__ import annotations

import asyncio
import io

import discord

from bot import render
from bot.discord_rules.limits import ATTACHMENT_DESCRIPTION
from bot.games import RenderHooks, controls_hooks, render_hooks
from bot.i18n import t
from bot.outgoing import Outgoing, Picture
from bot.storage import GameStatus
from bot.table import Table
from engines import View

from .common import board_embed, names_for
from .controls import HandButton

ALT_MAX = ATTACHMENT_DESCRIPTION  # Discord's limit on an attachment's description


def board_view(table: Table, locale: object | None, *, public_controls: bool = False) -> discord.ui.View | None:
    """My hand, plus (on turn messages) the game's public buttons such as a dice roll."""
    if table.status is not GameStatus.RUNNING:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(table.id, locale))
    extra = controls_hooks(table.row.game).public_controls
    if public_controls and extra is not None and not table.paused:  # nobody plays at a paused table
        for item in extra(table, locale):
            view.add_item(item)
    return view


async def board_image(table: Table, locale: object | None) -> discord.File | None:
    """The board picture for games that have one, rendered in a worker thread (never on the event loop)."""
    hooks = render_hooks(table.row.game)
    draw = hooks.image
    if draw is None:
        return None
    view, names = table.view(None), names_for(table, locale).plain()  # pixels and alt text: no markdown
    png = await asyncio.to_thread(draw, view, names, locale)
    return discord.File(io.BytesIO(png), filename="board.png", description=image_alt(hooks, view, names, locale))


def image_alt(hooks: RenderHooks, view: View, names: render.Names, locale: object | None) -> str:
    """The picture's alt text: the game's description of what it shows (``image_alt``), else a generic line;
    at most the 1,024 characters Discord takes."""
    describe = hooks.image_alt
    text = describe(view, names, locale) if describe is not None else t("board.image_alt", locale)
    return text if len(text) <= ALT_MAX else text[:ALT_MAX - 1] + "…"


async def board_message(table: Table, locale: object | None) -> Outgoing:
    """The board itself (its embed, its picture, My hand): what a board message shows under its lines, as sent or
    edited (``bot.outgoing``)."""
    embed = board_embed(table, locale)
    image = await board_image(table, locale)
    if image is not None:
        embed.set_image(url="attachment://board.png")
    return Outgoing(embed=embed, view=board_view(table, locale), pictures=(Picture.of(image),) if image else ())
