"""The one ``Bot`` subclass: it owns storage, the game service and the scheduler, loads the
cogs in ``setup_hook`` and turns every command error into an ephemeral reply in one place."""
from __future__ import annotations

import asyncio
import importlib
import logging
import re
from typing import Any, Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from engines import BadOptions

from .acknowledge import Backlog
from .cluster import syncs_commands
from .delivery import Delivery
from .errors import HostError
from .installs import declare_reach, outside_its_server
from .limits import CreationCooldowns, Gates
from .metrics import Metrics
from .rebuilds import Rebuilds
from .replies import reply_error, reply_unknown_control
from .scheduler import BotScheduler
from .service import GameService
from .settings import Settings
from .storage import Storage
from .thinking import Thinkers
from .timers import TurnTimers
from .tournaments import RatingService, TournamentService
from .translator import CatalogTranslator

log = logging.getLogger(__name__)
# Loggers that write whole payloads at DEBUG: SQL parameters (a game's state: every hand, the RNG), HTTP bodies
# (ephemeral hand views), gateway events (the hand message a button sits on). Never below INFO, whatever the
# configured level, so logs hold no hand and no secret.
PAYLOAD_LOGGERS = ("aiosqlite", "asyncpg", "discord.http", "discord.webhook.async_", "discord.gateway", "discord.state")
EXTENSIONS = ("cogs.lobby", "cogs.table", "cogs.rules", "cogs.tournament", "cogs.stats", "cogs.config")


# Answers a click on a control its message no longer has (the control's class and its template's match), or
# returns False to leave it refused as an unknown control (``GameHostBot.stale_control``).
StaleControlAnswer = Callable[[discord.Interaction, type, re.Match[str]], Awaitable[bool]]


def bot_intents() -> discord.Intents:
    """Guilds only: everything else arrives with interactions, so no privileged intent is needed."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class GameHostBot(commands.Bot):
    storage: Storage
    service: GameService
    scheduler: BotScheduler
    thinker: Thinkers
    timers: TurnTimers
    ratings: RatingService
    tournaments: TournamentService

    def __init__(self, settings: Settings, *, sync_commands: bool = True, **kwargs: Any) -> None:
        # A 429 longer than this raises instead of sleeping inside the call: a table's writer retries it later
        # (coalescing meanwhile) and nothing else waits behind it.
        kwargs.setdefault("max_ratelimit_timeout", 30.0)
        self.metrics = Metrics()  # what /metrics shows (bot.metrics); every request to Discord passes its trace
        kwargs.setdefault("http_trace", self.metrics.trace())
        super().__init__(command_prefix=commands.when_mentioned, intents=bot_intents(), help_command=None, **kwargs)
        self.settings = settings
        for name in PAYLOAD_LOGGERS:
            logger = logging.getLogger(name)
            logger.setLevel(max(logger.level, logging.INFO))
        self.sync_commands = sync_commands
        self.backlog = Backlog()  # interactions in flight: a click is deferred first while the process is behind
        self.creations = CreationCooldowns()  # lobbies, tables and tournaments each member created this minute
        self.gates = Gates()  # a server's caps are checked and what they count is written one request at a time
        self.delivery = Delivery()  # the one way out: every writer's requests, their retries and refusal budget
        self.stale_control: StaleControlAnswer | None = None  # set by the table cog: the hand view's old controls
        self.web: Any = None  # bot.web.WebServer, started in setup_hook when WEB_BASE_URL is set
        self.rebuilds = Rebuilds()  # the one cache of rebuilt games: the Discord viewer's and the web pages'
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]  # replaces the tree's hook on this instance
        self.tree.interaction_check = self.on_app_command_check  # type: ignore[method-assign]  # replaces the tree's hook on this instance

    async def setup_hook(self) -> None:
        url = self.settings.database()
        options = {"max_size": self.settings.database_pool_size} if url.startswith("postgres") else {}
        self.storage = await Storage.open(url, **options)
        self.storage.on_commit = self.metrics.commit.observe
        self.service = GameService(self.storage)
        self.service.subscribe(self.metrics.on_update)
        await self._claim_shards()
        self.thinker = Thinkers(self.settings.bot_think_workers or None,
                                quick_in_worker=self.settings.bot_think_quick_in_worker)
        self.thinker.start()  # strong bots think in these worker processes, off the event loop
        self.scheduler = BotScheduler(self.service, self.settings.bot_move_delay, self.thinker)
        self.scheduler.on_decided = self.metrics.decision_wait.observe
        self.timers = TurnTimers(self.service, close_paused_after=self.settings.paused_table_close_days * 86400,
                                 close_lobby_after=self.settings.lobby_close_hours * 3600)
        self.ratings = RatingService(self.storage)
        self.service.subscribe(self.ratings.on_update)
        self.tournaments = TournamentService(self.storage, self.service, self.ratings)
        await self.tree.set_translator(CatalogTranslator())
        for extension in EXTENSIONS:
            # Imported as any module, once per process: ``load_extension`` would run each module's code again for
            # every bot (its classes and commands built anew), and a test process starts hundreds of bots.
            await importlib.import_module(extension).setup(self)
        declare_reach(self.tree)
        if self.sync_commands and syncs_commands(self.service.shards):
            await self.sync_app_commands()  # one process syncs: the one owning shard 0
        bots = await self.scheduler.resume()
        timed = await self.timers.resume()
        log.info("resumed %d tables waiting on a bot and %d turn timers", bots, timed)
        recorded = await self.ratings.catch_up(self.service, self.service.shards)
        running = await self.tournaments.resume()
        log.info("recorded %d finished games; %d tournaments running", recorded, running)
        if self.settings.web_on() and syncs_commands(self.service.shards):  # one web side per cluster: WEB_PORT's
            await self._start_web()

    async def _start_web(self) -> None:
        """The replay pages, /healthz and /metrics (``bot.web``), in this event loop."""
        from .web import WebServer, config_of
        from .web.operator import operator_routes
        from .web.source import StoredReplays

        source = StoredReplays(self.storage, self.rebuilds)
        web = WebServer(config_of(self.settings), source, operator_routes(self))
        try:
            await web.start()
        except OSError as error:  # the bot does not run without the pages its Share buttons link to
            await web.stop()
            log.error("the web side cannot listen on %s port %s (%s): free it, set WEB_PORT, or unset WEB_BASE_URL",
                      self.settings.web_host, self.settings.web_port, error.strerror or error)
            raise
        self.web = web

    async def _claim_shards(self) -> None:
        """With ``SHARD_COUNT``/``SHARD_IDS``: own those shards exclusively on the database (a second process
        with an overlapping range stops here with ``ShardsTaken``), and restart work covers only their tables."""
        self._shard_claim: Any = None
        shards = self.settings.shards()
        if shards is not None:
            try:
                self._shard_claim = await self.storage.claim_shards(shards)
            except Exception:
                await self.storage.close()
                raise
            self.service.shards = shards
            log.info("owning shards %s of %d", list(shards.ids), shards.count)

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
        if isinstance(error, app_commands.CommandNotFound):  # a command this release no longer has
            await reply_unknown_control(interaction)
            return
        original = getattr(error, "original", error)
        await reply_error(interaction, original)

    async def on_app_command_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.bot:
            return False  # bots do not play or run commands
        problem: Exception | None = _bad_option(interaction)
        if problem is None and outside_its_server(interaction):
            problem = HostError("server_only")
        if problem is not None:
            await reply_error(interaction, problem)
            return False
        return True

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction":  # parsed, its handler's task created but not yet run
            self.backlog.arrived(args[0])
        super().dispatch(event_name, *args, **kwargs)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A component or modal that none of ours will answer: a custom_id no control recognises (forged, or from
        an old release), one its message does not have (discord.py drops those silently: ``stale_control`` may
        answer it, e.g. an earlier drawing of one's own hand view), an unknown modal."""
        self.backlog.started(interaction)  # whether or not a control handles it, it waits no more
        if interaction.user.bot:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        # discord.py has no public getter for open modals or dynamic-item templates; tests/test_discord_private_api.py
        # pins the private names read here, so an upgrade that changes them fails a test, not production.
        store = self._connection._view_store
        if interaction.type is discord.InteractionType.modal_submit:
            if custom_id not in store._modals:
                await reply_unknown_control(interaction)
            return
        if interaction.type is not discord.InteractionType.component:
            return
        control = next(((cls, match) for pattern, cls in store._dynamic_items.items()
                        if (match := pattern.fullmatch(custom_id))), None)
        if control is None:
            await reply_unknown_control(interaction)
        elif (data.get("component_type"), custom_id) in _components_of(interaction.message):
            return  # the control's own handler answers
        elif self.stale_control is None or not await self.stale_control(interaction, *control):
            await reply_unknown_control(interaction)

    async def close(self) -> None:
        if self.web is not None:  # no page is served from a closing storage
            await self.web.stop()
            self.web = None
        if hasattr(self, "scheduler"):
            await self.tournaments.close()
            await self.timers.close()
            await self.scheduler.close()
            await self.thinker.close()
            await self.service.drain()
            tables = self.get_cog("TableCog")
            if tables is not None:  # the table writers stop before storage closes
                await tables.flush()  # type: ignore[attr-defined]  # cogs.table.TableCog
            if getattr(self, "_shard_claim", None) is not None:
                await self._shard_claim.release()
            await self.storage.close()
        await super().close()


def make_bot(settings: Settings, **kwargs: Any) -> GameHostBot:
    """The bot for these settings: with ``SHARD_COUNT``, an ``AutoShardedBot`` on this process's shard range."""
    shards = settings.shards()
    if shards is None:
        return GameHostBot(settings, **kwargs)
    sharded = type("ShardedGameHostBot", (GameHostBot, commands.AutoShardedBot),
                   {"before_identify_hook": _identify_in_turn})
    return sharded(settings, shard_count=shards.count, shard_ids=list(shards.ids), **kwargs)


IDENTIFY_WINDOW = 5.5  # seconds Discord wants between two IDENTIFYs of one bucket


async def _identify_in_turn(self: GameHostBot, shard_id: int | None, *, initial: bool = False) -> None:
    """Before a shard identifies: take its bucket's slot, shared by every process on the database, and give it
    back once the window has passed, so processes starting together never IDENTIFY in one bucket at once."""
    slot = await self.storage.identify_slot((shard_id or 0) % max(self.settings.identify_concurrency, 1))

    async def release_later() -> None:
        await asyncio.sleep(IDENTIFY_WINDOW)
        await slot.release()

    pending = self.__dict__.setdefault("_identify_releases", set())  # held, so the tasks are not collected
    task = asyncio.create_task(release_later())
    pending.add(task)
    task.add_done_callback(pending.discard)


def _components_of(message: discord.Message | None) -> set[tuple[int, str]]:
    """(type, custom_id) of every component on a message, rows and containers walked."""
    found: set[tuple[int, str]] = set()
    stack: list[Any] = list(getattr(message, "components", None) or [])
    while stack:
        item = stack.pop()
        if getattr(item, "custom_id", None):
            found.add((item.type.value, item.custom_id))
        stack += list(getattr(item, "children", None) or [])
    return found


def _bad_option(interaction: discord.Interaction) -> BadOptions | None:
    """An option outside its command's choices or range. Discord's client enforces both; a forged request need
    not, and the commands trust them, so every command is checked here once."""
    if interaction.type is not discord.InteractionType.application_command:
        return None
    command = interaction.command  # the subcommand the options belong to; None when unknown
    if command is None:
        return None  # the tree answers an unknown command itself
    # display name -> value as sent (str, int, bool; a float for numbers); Namespace is no mapping, it iterates pairs
    given = {name: value for name, value in interaction.namespace}
    for param in getattr(command, "parameters", []):
        if param.display_name not in given:
            continue
        value = given[param.display_name]
        if param.choices and value not in [c.value for c in param.choices]:
            return BadOptions(option=param.display_name, reason=[str(c.value) for c in param.choices])
        low, high = param.min_value, param.max_value
        if isinstance(value, str):
            value = len(value)
        if isinstance(value, (int, float)) and (
                (low is not None and value < low) or (high is not None and value > high)):
            bounds = f"{'' if low is None else low}–{'' if high is None else high}"
            return BadOptions(option=param.display_name, reason=bounds)
    return None
