"""``/game record <table>``: a finished table of this server as a file to keep (issue 33, item 5), answered only
to whoever asked. The game is rebuilt and checked first (``bot.replay``): a game that does not replay exactly is
refused with the reason, never handed out. The animated summary of the board pictures goes with it when the game
draws one and it fits the server's attachment limit. **Reveal** under a table's result (issue 33, item 3) shows,
only to whoever pressed it, what each seat held at the end and the private events the rules kept secret."""
from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot import literal, render
from bot.discord_rules.limits import EMBED_DESCRIPTION
from bot.errors import HostError
from bot.i18n import language, t
from bot.replay_show import animated_summary
from bot.replies import NO_MENTIONS, fill_original
from bot.reveal import reveal_lines
from bot.storage import GameStatus

from .common import host
from .custom_ids import ID
from .look_back import LookBackItem, all_hands_allowed, check_can_see, check_round_secret, opening, rebuilt_game

REVEAL_EMBED_CHARS = EMBED_DESCRIPTION  # Discord's limit for an embed's description


async def send_record(interaction: discord.Interaction, table_id: int) -> None:
    service = host(interaction).service
    table = await service.table(table_id)
    check_can_see(interaction, table)
    await check_round_secret(interaction, table)
    if table.status is not GameStatus.FINISHED:
        raise HostError("record_not_finished", game_id=table_id)
    if not await all_hands_allowed(interaction, table_id):  # its seed and every hand: not while the round plays
        raise HostError("record_round_running", game_id=table_id)
    opening(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    replay = await rebuilt_game(interaction, table_id)  # refused unless it replays exactly
    record = replay.record
    summary = await asyncio.to_thread(animated_summary, replay, language(interaction.locale))
    name = f"table-{record.table}-{record.game}"
    files = [discord.File(io.BytesIO(record.dump()), filename=f"{name}.json")]
    lines = [t("record.reply", interaction.locale, id=record.table, game=render.game_title(record.game,
               interaction.locale), count=len(record.actions))]
    if summary is not None and len(summary) <= interaction.filesize_limit:
        files.append(discord.File(io.BytesIO(summary), filename=f"{name}.gif"))
        lines.append(t("record.animated", interaction.locale))
    elif summary is not None:
        lines.append(t("record.summary_too_large", interaction.locale, size=round(len(summary) / 1024)))
    await fill_original(interaction, content="\n".join(lines), attachments=files, allowed_mentions=NO_MENTIONS)


class RevealButton(LookBackItem, template=rf"gh:reveal:(?P<gid>{ID})"):
    """**Reveal** under a finished table's result; a tournament table's (it has no such button) once its round is
    over: its other tables may still be playing."""

    def __init__(self, game_id: int, locale: object | None = None) -> None:
        super().__init__(discord.ui.Button(label=t("result.reveal", locale), emoji="🃏",
                                           style=discord.ButtonStyle.secondary, custom_id=f"gh:reveal:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: Any) -> "RevealButton":
        return cls(int(match["gid"]), interaction.locale)

    async def run(self, interaction: discord.Interaction) -> None:
        bot = host(interaction)
        table = await bot.service.table(self.game_id)
        check_can_see(interaction, table)
        await check_round_secret(interaction, table)
        if table.status is not GameStatus.FINISHED:
            raise HostError("record_not_finished", game_id=self.game_id)
        if not await all_hands_allowed(interaction, self.game_id):  # a tournament's: once its round is over
            raise HostError("reveal_round_running", game_id=self.game_id)
        opening(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        replay = await rebuilt_game(interaction, self.game_id)
        lang = language(interaction.locale)
        row = await bot.storage.get_game(self.game_id)  # the seats as stored now (not the table kept in memory)
        seats = row.seats if row is not None else table.seats
        names = render.seat_names(seats, lang, literal.markdown)  # names people typed, shown as written
        text = "\n".join(await asyncio.to_thread(reveal_lines, replay, lang, names))
        title = t("reveal.title", lang, id=self.game_id, game=render.game_title(table.row.game, lang))
        if len(text) <= REVEAL_EMBED_CHARS:
            await fill_original(interaction, embed=discord.Embed(title=title, description=text),
                                allowed_mentions=NO_MENTIONS)
            return
        # a long game's secrets do not fit one embed: all of it as a text file (names as typed), never cut short
        plain_text = "\n".join(reveal_lines(replay, lang, names.plain()))
        await fill_original(
            interaction, content=t("reveal.as_file", lang, title=title), allowed_mentions=NO_MENTIONS,
            attachments=[discord.File(io.BytesIO(plain_text.encode()), filename=f"reveal-{self.game_id}.txt")])
