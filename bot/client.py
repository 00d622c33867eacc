"""The one ``Bot`` subclass: it owns storage, the game service and the scheduler, loads the
cogs in ``setup_hook`` and turns every command error into an ephemeral reply in one place."""
from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from .replies import reply_error, reply_unknown_control
from .scheduler import BotScheduler
from .service import GameService
from .settings import Settings
from .storage import Storage
from .timers import TurnTimers

log = logging.getLogger(__name__)
EXTENSIONS = ("cogs.lobby", "cogs.table", "cogs.rules")


class GameHostBot(commands.Bot):
    storage: Storage
    service: GameService
    scheduler: BotScheduler
    timers: TurnTimers

    def __init__(self, settings: Settings, *, sync_commands: bool = True, **kwargs: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, **kwargs)
        self.settings = settings
        self.sync_commands = sync_commands
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.tree.interaction_check = self.on_app_command_check  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        self.storage = await Storage.open(self.settings.database_path)
        self.service = GameService(self.storage)
        self.scheduler = BotScheduler(self.service, self.settings.bot_move_delay)
        self.timers = TurnTimers(self.service)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.sync_commands:
            await self.sync_app_commands()
        bots = await self.scheduler.resume()
        timed = await self.timers.resume()
        log.info("resumed %d tables waiting on a bot and %d turn timers", bots, timed)

    async def sync_app_commands(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CheckFailure) and interaction.user.bot:
            return  # other bots are ignored, silently
        original = getattr(error, "original", error)
        await reply_error(interaction, original)

    async def on_app_command_check(self, interaction: discord.Interaction) -> bool:
        return not interaction.user.bot  # bots do not play or run commands

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A component whose custom_id no control of ours recognises (forged, or from an old release)."""
        if interaction.type is not discord.InteractionType.component or interaction.user.bot:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))  # type: ignore[union-attr]
        if any(pattern.fullmatch(custom_id) for pattern in self._connection._view_store._dynamic_items):
            return
        await reply_unknown_control(interaction)

    async def close(self) -> None:
        if hasattr(self, "scheduler"):
            await self.timers.close()
            await self.scheduler.close()
            await self.service.drain()
            await self.storage.close()
        await super().close()
