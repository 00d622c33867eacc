"""A click on a control of an earlier drawing of one's own hand view.

A hand view is redrawn after every change of its table (``cogs.live_hands``), and each drawing's controls carry the
table's version; a click made on the drawing the person still saw arrives with a control its message no longer has
(discord.py drops it, ``GameHostBot.on_interaction`` receives it). It is answered with the hand as it is now, in
place, saying the board moved on before the click arrived. Anything else keeps the unknown control's refusal: a
control on a public message, a table that does not exist, a person not seated at it.
"""
from __future__ import annotations

import re

import discord

from bot.errors import HostError
from bot.i18n import t

from .common import host
from .controls import ActButton, BackButton, PickSelect, RefreshButton

HAND_CONTROLS = (ActButton, PickSelect, RefreshButton, BackButton)  # the controls a hand view shows


async def answer_stale_hand_control(interaction: discord.Interaction, control: type, match: re.Match[str]) -> bool:
    """Answer a hand control its message no longer has with the clicker's current hand view (in place); False when
    it is not a control of the clicker's own hand view (the caller refuses it)."""
    message = interaction.message
    if control not in HAND_CONTROLS or message is None or not message.flags.ephemeral:
        return False
    try:
        table = await host(interaction).service.table(int(match["gid"]))
    except HostError:  # no such table
        return False
    if table.state is None or not any(seat.user_id == interaction.user.id for seat in table.seats):
        return False
    refresh = RefreshButton(table.id, interaction.locale)
    refresh.note = "⚠️ " + t("error.stale", interaction.locale)
    await refresh.callback(interaction)  # its acknowledgement, server check and error answers
    return True
