"""A paused table's controls (every person at it is away, so no clock runs and no bot moves): its board carries
**My hand**, **Resume** (the I'm back button: a seated person takes their seat back and the game goes on) and
**End table** (its host or Manage Server ends it, without a result), and nothing that could not act."""
from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.table import Table

from .common import GameItem, host, is_admin, reply
from .controls import BackButton, HandButton
from .custom_ids import ID
from .private_table import adopt_board


class EndTableButton(GameItem, template=rf"gh:end:(?P<gid>{ID})"):
    """**End table** on a paused board: the same as ``/game end`` (the host or Manage Server only)."""

    def __init__(self, game_id: int, locale: object | None = None) -> None:
        super().__init__(discord.ui.Button(label=t("table.end_button", locale), emoji="⏹️",
                                           style=discord.ButtonStyle.danger, custom_id=f"gh:end:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "EndTableButton":
        return cls(int(match["gid"]), interaction.locale)

    async def run(self, interaction: discord.Interaction) -> None:
        await adopt_board(interaction, await host(interaction).service.table(self.game_id))  # (a DM's board)
        await host(interaction).service.end(self.game_id, interaction.user.id, is_admin=is_admin(interaction))
        interaction.extras["committed"] = "end"
        await reply(interaction, t("table.ended", interaction.locale, id=self.game_id))


def paused_view(table: Table, locale: object | None) -> discord.ui.View:
    """The controls of a paused table's board."""
    view = discord.ui.View(timeout=None)
    view.add_item(HandButton(table.id, locale))
    view.add_item(BackButton(table.id, locale, resume=True))
    view.add_item(EndTableButton(table.id, locale))
    return view


PAUSED_ITEMS = (EndTableButton,)
