"""The end of a table in public: one result message — who placed where, what the game's rules say about it (Akuma:
why the player who emptied their hand ranks last), a **Rematch** and a **Reveal** button (``cogs/record.py``).
``result_message`` builds it, so the writer can send it wherever the table is followed (its channel; a thread and
its channel)."""
from __future__ import annotations

from typing import Any

import discord

from bot import literal, render
from bot.discord_rules.limits import EMBED_DESCRIPTION
from bot.games import render_hooks
from bot.i18n import join_list, t
from bot.outgoing import MISSING, Outgoing
from bot.storage import GameStatus
from bot.table import Table

from .common import NO_MENTIONS, GameItem, host, names_for
from .custom_ids import ID
from .limits import count_creation, room_for, server_limits
from .record import RevealButton
from .review import ReviewButton
from .share import ShareButton


def result_message(table: Table, locale: object | None, *, rematch: bool = True,
                   board_above: bool = True, share: bool = False) -> Outgoing:
    """A finished table's result: an embed (winners; the places unless the final board with
    them is just above; the game's notes) and, unless
    ``rematch`` is False (a tournament table; the lobby's channel of a table that played in its thread), the
    Rematch button. The footer says only what is true where it is posted (``board_above``: below the final board).
    ``share``: the bot serves replay pages (``WEB_BASE_URL``), so the result offers **Share** (``cogs/share.py``)."""
    result = table.result()
    assert result is not None, "only a finished table has a result"
    names = names_for(table, locale)
    winners = result.ranking[0] if result.ranking else []
    lines = [t("result.winners", locale, players=join_list((names(p) for p in winners), locale))]
    if not board_above:  # the places once: where the final board is above, its ranking (with the scores) has them
        lines += ["", *render.ranking_lines(result.ranking, {}, names, locale)]
    notes = render_hooks(table.row.game).result_notes
    if notes is not None:
        lines += notes(table.view(None), names, locale)
    embed = discord.Embed(title=t("result.title", locale, game=t(f"game.{table.row.game}.name", locale),
                                  id=table.id), description="\n".join(lines)[:EMBED_DESCRIPTION], colour=0xF1C40F)
    if board_above:
        embed.set_footer(text=t("result.footer" if rematch else "result.footer_board", locale))
    view = discord.ui.View(timeout=None)
    if rematch:
        view.add_item(RematchButton(table.id, locale))
        view.add_item(RevealButton(table.id, locale))
        view.add_item(ReviewButton(table.id, locale))
        if share:
            view.add_item(ShareButton(table.id, locale))
    return Outgoing(embed=embed, view=view if rematch else MISSING)


class RematchButton(GameItem, template=rf"gh:rematch:(?P<gid>{ID})"):
    """**Rematch**: anyone who played opens the same table again (once; a second press names the table opened)."""

    def __init__(self, game_id: int, locale: object | None = None) -> None:
        super().__init__(discord.ui.Button(label=t("result.rematch", locale), emoji="🔁",
                                           style=discord.ButtonStyle.primary, custom_id=f"gh:rematch:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "RematchButton":
        return cls(int(match["gid"]), interaction.locale)

    async def run(self, interaction: discord.Interaction) -> None:
        limits = await server_limits(interaction)
        async with room_for(interaction, limits, GameStatus.RUNNING):
            count_creation(interaction, limits)
            table = await host(interaction).service.rematch(self.game_id, interaction.user.id)
        interaction.extras["committed"] = "start"  # a failed answer must not say nothing happened
        old = await host(interaction).service.table(self.game_id)
        locale = old.row.locale
        text = t("result.rematch_started", locale, player=literal.markdown(interaction.user.display_name), id=table.id)
        await interaction.response.edit_message(content=text, view=None, allowed_mentions=NO_MENTIONS)
