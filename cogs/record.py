"""``/game record <table>``: a finished table of this server as a file to keep (issue 33, item 5), answered only
to whoever asked. The game is rebuilt and checked first (``bot.replay``): a game that does not replay exactly is
refused with the reason, never handed out. The animated summary of the board pictures goes with it when the game
draws one and it fits the server's attachment limit."""
from __future__ import annotations

import asyncio
import io

import discord

from bot import render
from bot.errors import HostError
from bot.i18n import language, t
from bot.replay import GameRecord, rebuild, stored_record
from bot.replay_show import animated_summary
from bot.replies import NO_MENTIONS

from .common import host


async def send_record(interaction: discord.Interaction, table_id: int) -> None:
    service = host(interaction).service
    table = await service.table(table_id)
    if table.row.guild_id != interaction.guild_id:  # a table of no server is not this server's either
        raise HostError("other_server")
    if table.status != "finished":
        raise HostError("record_not_finished", game_id=table_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    record = await stored_record(service.storage, table_id)
    summary = await asyncio.to_thread(_checked_summary, record, language(interaction.locale))
    name = f"table-{record.table}-{record.game}"
    files = [discord.File(io.BytesIO(record.dump()), filename=f"{name}.json")]
    lines = [t("record.reply", interaction.locale, id=record.table, game=render.game_title(record.game,
               interaction.locale), count=len(record.actions), file=f"{name}.json")]
    if summary is not None and len(summary) <= interaction.filesize_limit:
        files.append(discord.File(io.BytesIO(summary), filename=f"{name}.gif"))
    elif summary is not None:
        lines.append(t("record.summary_too_large", interaction.locale, size=round(len(summary) / 1024)))
    await interaction.followup.send("\n".join(lines), files=files, ephemeral=True, allowed_mentions=NO_MENTIONS)


def _checked_summary(record: GameRecord, locale: str) -> bytes | None:
    """The game rebuilt (refused unless exact) and its animated summary: CPU work, done off the event loop."""
    return animated_summary(rebuild(record), locale)
