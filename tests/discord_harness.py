"""Drive a real ``commands.Bot`` with raw gateway payloads; only the network edge is fake.

Usage (``MyBot`` is any ``commands.Bot`` subclass, constructed but not logged in)::

    @pytest.fixture
    async def h():
        async with Harness(MyBot()) as harness:       # closing it re-raises errors nobody looked at
            yield harness

    async with Harness(MyBot()) as h:                 # logs in, runs setup_hook, READY + GUILD_CREATE
        alice = h.user(101, "alice", locale="ja")     # a guild member (GUILD_MEMBER_ADD if the bot has that intent)
        r = await h.slash(alice, "play akuma", seats=4)   # INTERACTION_CREATE, then settle()
        assert r.type == "deferred" and not r.ephemeral  # a lobby: deferred, then filled
        lobby = h.channel_messages()[-1]              # SentMessage: live view, edits applied
        r2 = await h.click(alice, lobby, label="Join")     # or custom_id="akuma:7:join" (regex ok)
        r3 = await h.select(alice, r2.message, "pick", ["c3"])
        r4 = await h.submit(alice, r3, {"name": "Bob"})    # answer the modal r3 opened
        dm = h.dm(alice)                              # her DM with the bot installed to her account (or
        await h.slash(alice, "play akuma", channel=dm)     # h.group_dm(alice, bob)): token-only, as Discord has it

What is real: ``Bot.login`` (``static_login`` is swapped for one that installs the fake session), ``setup_hook``,
the ConnectionState parsers (``READY``, ``GUILD_CREATE``, ``INTERACTION_CREATE`` … fed through
``state.parsers``), the command tree, views, ``DynamicItem`` matching, ``Interaction``/``InteractionResponse``/
followup webhooks and all of ``HTTPClient``/``AsyncWebhookAdapter``. What is fake: the ``aiohttp`` session under
them (``discord_harness_http.FakeSession``) answering like Discord (``discord_harness_server.FakeDiscord``), and
a minimal gateway object (``change_presence`` is recorded; there is no websocket).

Every interaction call returns a :class:`~tests.discord_harness_http.Reply` once the bot is idle, and fails if the
interaction got no response (Discord would show "This interaction failed"), unless ``expect_response=False``.
``harness.errors`` collects exceptions from handlers (the tree, views, modals, dynamic items — via their default
``on_error`` logging or a custom ``tree.on_error``/``bot.on_error`` —, event listeners, tasks with unretrieved
exceptions, the loop's exception handler), requests to unknown routes and requests the fake Discord refused
(``DiscordRefused``: every body is validated with ``bot.discord_rules``, as Discord does); ``settle()`` raises
:class:`HarnessError` if any is pending. Expect one with ``with h.expect_errors(SomeError) as caught: ...``.
Several harnesses may run bots on one event loop at once (e.g. two shard processes on one database): every task
belongs to the harness that started it (``discord_harness_errors.OWNER``), and ``abandon()`` stops one bot the
way its process would die. An ``AutoShardedClient`` gets one READY per shard it runs; the guild must be on one.
Known gaps: a view with its own ``on_error`` that swallows errors, and exceptions in a ``DynamicItem``'s
``interaction_check`` (discord.py treats those as "not allowed") are not seen.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Any, Callable, ClassVar, Iterable, Optional, Union

import discord

from .discord_harness_errors import OWNER, ErrorLog, HarnessErrors, cancel_callbacks_of
from .discord_harness_http import (
    Call,
    DeprecatedRequest,
    DiscordRefused,
    FakeGateway,
    HarnessError,
    Reply,
    SentMessage,
    snowflake,
    use_fake_session,
)
from .discord_harness_payloads import (
    DM,
    GROUP_DM,
    MEMBER_PERMISSIONS,
    HarnessUser,
    build_options,
    channel_payload,
    find_command,
    guild_payload,
    interaction_payload,
    member_add,
    modal_answers,
    private_channel_payload,
    ready_payloads,
)
from .discord_harness_server import FakeDiscord

__all__ = ["Harness", "HarnessError", "DiscordRefused", "HarnessUser", "Reply", "SentMessage", "Call"]
MessageLike = Union[SentMessage, Reply, int]
BACKGROUND = ("__timeout_task_impl", "Loop._loop", "_delay_ready")  # long-lived tasks settle() must not await
WAITING_FOR_USER = ("BaseView.wait", "Client.wait_for")  # a task awaiting one of these waits for the next event


class Harness(HarnessErrors):
    """One bot, one fake guild (``guild_id``, text channels named by ``channels``), one fake Discord."""

    # Called with each harness as it starts (before the bot logs in): what a test suite checks of every harness of
    # its bot, e.g. tests/discord_invariants.watch, which appends to ``checks``.
    watchers: ClassVar[list[Callable[["Harness"], None]]] = []

    def __init__(self, bot: discord.Client, *, guild_id: int = 900_000_000_000_000_001,
                 channels: Iterable[str] = ("general", "games"), bot_user_id: int = 900_000_000_000_000_100,
                 guild_locale: str = "en-US", app_permissions: Optional[discord.Permissions] = None,
                 settle_timeout: float = 20.0, park_sleeps_over: float = 1.0):
        """``settle_timeout``: seconds in which the bot's tasks run but nothing moves before ``settle()`` calls them
        stuck (a hang, not a slow machine: see ``settle``)."""
        self.bot, self.guild_id, self.guild_locale, self.settle_timeout = bot, guild_id, guild_locale, settle_timeout
        self.park_sleeps_over = park_sleeps_over
        self.app_id = bot.application_id or bot_user_id
        self.bot_user = {"id": str(bot_user_id), "username": "GameHost", "global_name": None, "discriminator": "0000",
                         "avatar": None, "bot": True, "verified": True, "mfa_enabled": False, "flags": 0}
        self.app_permissions = app_permissions or discord.Permissions(
            view_channel=True, send_messages=True, send_messages_in_threads=True, embed_links=True,
            attach_files=True, read_message_history=True, add_reactions=True, use_external_emojis=True,
            create_public_threads=True, create_private_threads=True, manage_threads=True, manage_messages=True)
        self.channel_ids = {name: guild_id + 10 + i for i, name in enumerate(channels)}
        self.channel_id = next(iter(self.channel_ids.values()))  # the default channel
        self.server = FakeDiscord(app_id=self.app_id, bot_user=self.bot_user, guild_id=guild_id)
        self.server.on_thread_create = lambda data: self.dispatch("THREAD_CREATE", {**data, "newly_created": True})
        self.server.bot_permissions = lambda channel_id: self.app_permissions.value  # the same in every channel
        for name, cid in self.channel_ids.items():
            self.server.channels[cid] = channel_payload(cid, name, guild_id)
        self.users: dict[int, HarnessUser] = {}
        self.errors: list[BaseException] = []
        self.gateway = FakeGateway()
        self._expected: list[tuple[tuple[type, ...], list]] = []
        self._tasks: list[asyncio.Task] = []
        self._settling: set[asyncio.Task] = set()
        self._background = list(BACKGROUND)
        self._log_handler = ErrorLog(self)
        self._calls_seen, self._closed = 0, False
        self._started = self._finished = 0  # tasks, for settle()'s progress
        self._old_factory = self._old_handler = None
        self._passing = False  # the loop was given back: tasks are only passed through
        self._own: "weakref.WeakSet[asyncio.Task]" = weakref.WeakSet()
        self._handler = lambda _, ctx: self.record_error(ctx.get("exception") or HarnessError(ctx["message"]))
        self.checks: list[Callable[[], None]] = []  # run whenever the bot is idle (settle, close); they record errors

    # ------------------------------------------------------------------ lifecycle
    async def __aenter__(self) -> "Harness":
        return await self.start()

    async def __aexit__(self, exc_type, *_: Any) -> None:
        await self.close(check=exc_type is None)

    async def start(self) -> "Harness":
        """Log in through the fake edge, run ``setup_hook``, then feed READY and GUILD_CREATE; wait for ``on_ready``."""
        loop = asyncio.get_running_loop()
        self._old_factory, self._old_handler = loop.get_task_factory(), loop.get_exception_handler()
        loop.set_task_factory(self._task_factory)
        loop.set_exception_handler(self._handler)
        logging.getLogger("discord").addHandler(self._log_handler)
        use_fake_session(self.bot.http, self.server)
        for watcher in self.watchers:
            watcher(self)
        with self._owning():
            return await self._start()

    async def _start(self) -> "Harness":
        await self.bot.login("harness-token")  # runs the bot's setup_hook, before any gateway event as in real life
        self._hook_error_handlers()
        self.bot.ws = self.gateway  # type: ignore[assignment]
        # discord.py dispatches READY this long after the last GUILD_CREATE; all of them are queued before it looks
        # (taking a queued guild never waits for the timer, however loaded the machine), so the wait is pure delay
        self.state.guild_ready_timeout = 0.005
        for ready in ready_payloads(self):
            self.dispatch("READY", ready)
        self.server.guild = guild_payload(self)
        self.dispatch("GUILD_CREATE", self.server.guild)
        await self.state._ready_task  # discord.py's own wait for the guilds; then on_ready is dispatched
        await self.settle()
        return self

    async def close(self, *, check: bool = True) -> None:
        """Close the bot, cancel what it left running, restore the loop; raise collected errors if ``check``.
        Idempotent. For a "restart", close the old harness before starting the new one."""
        if self._closed:
            return
        self._closed = True
        try:
            await self.bot.close()
            leftover = [t for t in self._tasks if not t.done() and t is not asyncio.current_task()]
            for task in leftover:
                task.cancel()
            if leftover:
                await asyncio.wait(leftover, timeout=1)
            self._reap()
            self._run_checks()
        finally:
            self._give_back_loop()
        if check:
            self.check_errors()

    async def abandon(self) -> None:
        """The bot's process dies: every task started for it is cancelled where it stands, and every timer it armed;
        nothing is closed, flushed or answered (drop its connections yourself, as the kernel would). The harness is
        finished."""
        if self._closed:
            return
        self._closed = True
        mine = [t for t in self._own if not t.done() and t is not asyncio.current_task()]
        for task in mine:
            task.cancel()
        if mine:
            await asyncio.wait(mine, timeout=1)
        cancel_callbacks_of(self)  # its timers too (after the tasks: one may have armed a timer as it stopped)
        self._tasks.clear()
        self._give_back_loop()
        self.errors.clear()

    def _give_back_loop(self) -> None:
        """Restore the loop's task factory and exception handler, unless another harness has since put its own
        there (it still calls ours, which now only passes tasks through)."""
        self._passing = True
        loop = asyncio.get_running_loop()
        if loop.get_task_factory() == self._task_factory:
            loop.set_task_factory(self._old_factory)
        if loop.get_exception_handler() is self._handler:
            loop.set_exception_handler(self._old_handler)
        logging.getLogger("discord").removeHandler(self._log_handler)

    @contextlib.contextmanager
    def _owning(self):
        token = OWNER.set(self)
        try:
            yield
        finally:
            OWNER.reset(token)

    @property
    def state(self):  # the bot's ConnectionState
        return self.bot._connection

    @property
    def guild(self) -> discord.Guild:
        return self.bot.get_guild(self.guild_id)

    def channel(self, name: Optional[str] = None) -> discord.abc.GuildChannel:
        return self.guild.get_channel(self.channel_ids[name] if name else self.channel_id)

    def dispatch(self, event: str, data: dict) -> None:
        """Feed one raw gateway event (e.g. ``"MESSAGE_DELETE"``) exactly as the websocket would."""
        with self._owning():
            self.state.parsers[event](data)

    def add_guild(self, guild_id: int, channels: Iterable[str] = ("elsewhere",)) -> dict[str, int]:
        """Another server the bot is in (GUILD_CREATE), with its text channels; returns their ids by name.
        Interactions in those channels come from that server."""
        ids = {name: guild_id + 10 + i for i, name in enumerate(channels)}
        for name, cid in ids.items():
            self.server.channels[cid] = channel_payload(cid, name, guild_id)
        self.dispatch("GUILD_CREATE", guild_payload(self, guild_id, ids.values()))
        return ids

    def dm(self, user: HarnessUser) -> int:
        """The DM between ``user`` and the bot installed to their account, as for someone who shares no server with
        it (interactions there come with context BOT_DM; the bot writes there only through their tokens); its id."""
        return self._private(DM, [user])

    def group_dm(self, *users: HarnessUser) -> int:
        """A group DM of these people, where they use the bot installed to their accounts (context
        PRIVATE_CHANNEL; the bot is not a member); its id."""
        return self._private(GROUP_DM, list(users))

    def _private(self, kind: int, users: list[HarnessUser]) -> int:
        for cid in self.server.token_only:
            channel = self.server.channels[cid]
            if channel["type"] == kind and [r["id"] for r in channel["recipients"]] == [str(u.id) for u in users]:
                return cid
        cid = snowflake()
        self.server.channels[cid] = private_channel_payload(cid, kind, users)
        self.server.token_only.add(cid)
        return cid

    # ------------------------------------------------------------------ people
    def user(self, id: int, name: str, *, locale: str = "en-US", permissions: Union[int, discord.Permissions, None]
             = None, roles: Iterable[int] = (), bot: bool = False) -> HarnessUser:
        """A guild member who can interact. ``permissions`` are what Discord reports for them (default: a plain
        member's; ``discord.Permissions.all()`` for an admin)."""
        perms = MEMBER_PERMISSIONS if permissions is None else discord.Permissions(getattr(permissions, "value",
                                                                                           permissions))
        user = HarnessUser(id, name, locale=locale, roles=list(roles), bot=bot, permissions=perms.value)
        self.users[id] = user
        self.server.users[id] = user.payload
        if self.bot.intents.members:
            self.dispatch("GUILD_MEMBER_ADD", member_add(user, self.guild_id))
        return user

    # ------------------------------------------------------------------ interactions
    async def slash(self, user: HarnessUser, command: str, *, channel: Union[int, str, None] = None,
                    expect_response: bool = True, **options: Any) -> Reply:
        """Run ``/command sub ...`` in ``channel`` (id or name; default channel if omitted) with options given by
        parameter (or display) name. Values: plain Python values, :class:`HarnessUser` (or id) for user options,
        channel/role ids, ``Choice`` objects or choice names. Discord's client-side checks apply (required options,
        choices, ranges, ``default_permissions``): breaking one raises :class:`HarnessError` before dispatch."""
        data = build_options(self, user, command, options)
        channel_id = self.channel_ids.get(str(channel), channel) if channel else self.channel_id
        self._offered_here(command, channel_id)
        return await self._interact(user, 2, data, channel_id, None, expect_response)

    def _offered_here(self, command: str, channel_id: int) -> None:
        """Discord's client offers a command only in the contexts it declares (a server, the DM with the bot, a
        group DM); a test that must send one elsewhere forges the request (``interaction_payload``)."""
        context = {DM: 1, GROUP_DM: 2}.get(self.server.channels[channel_id]["type"], 0)
        root, _, _ = find_command(self, command)
        contexts = self.bot.tree.allowed_contexts._merge_to_array(getattr(root, "allowed_contexts", None))
        if contexts is not None and context not in contexts:
            raise HarnessError(f"/{command} declares contexts {contexts}: Discord's client does not offer it in "
                               f"context {context}")

    async def autocomplete(self, user: HarnessUser, command: str, focused: str, **options: Any) -> list[dict]:
        """The choices the bot offers while ``user`` types ``options[focused]``."""
        data = build_options(self, user, command, options, focused=focused)
        reply = await self._interact(user, 4, data, self.channel_id, None, True)
        return reply.choices

    async def click(self, user: HarnessUser, message: MessageLike, custom_id: Optional[str] = None, *,
                    label: Optional[str] = None, expect_response: bool = True) -> Reply:
        """Click a button (found by custom_id — exact or regex — or label) on a public or ephemeral message."""
        msg = self.message(message)
        button = msg.button(label, custom_id)
        if button.get("disabled") or "custom_id" not in button:
            raise HarnessError(f"{button} is disabled or a link: Discord would not send this click")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._interact(user, 3, data, msg.channel_id, msg, expect_response)

    async def select(self, user: HarnessUser, message: MessageLike, custom_id: Optional[str], values: list, *,
                     expect_response: bool = True) -> Reply:
        """Choose ``values`` in a select menu; string-select values are checked against its options and limits."""
        msg = self.message(message)
        menu = msg.select(custom_id)
        values = [str(getattr(v, "id", v)) for v in values]
        allowed = [o["value"] for o in menu.get("options") or []]
        if menu.get("disabled") or (menu["type"] == 3 and not set(values) <= set(allowed)) or not (
                menu.get("min_values", 1) <= len(values) <= menu.get("max_values", 1)):
            raise HarnessError(f"Discord would not send {values} for {menu}")
        data = {"custom_id": menu["custom_id"], "component_type": menu["type"], "values": values}
        if menu["type"] != 3:
            data["resolved"] = self._resolved(values)
        return await self._interact(user, 3, data, msg.channel_id, msg, expect_response)

    async def submit(self, user: HarnessUser, modal: Union[Reply, dict], values: dict[str, Any], *,
                     expect_response: bool = True) -> Reply:
        """Submit the modal a reply opened (or a raw modal payload): ``values`` by component custom_id."""
        source = modal if isinstance(modal, Reply) else None
        form = source.modal if source else modal
        if form is None:
            raise HarnessError(f"{modal} did not open a modal")
        rows = modal_answers(form, values)
        msg = self.server.message(source.source_message_id) if source and source.source_message_id else None
        data = {"custom_id": form["custom_id"], "components": rows}
        return await self._interact(user, 5, data, source.channel_id if source else self.channel_id, msg,
                                    expect_response)

    async def _interact(self, user: HarnessUser, kind: int, data: dict, channel_id: int,
                        message: Optional[SentMessage], expect_response: bool) -> Reply:
        if message is not None and message.deleted:
            raise HarnessError(f"{message} was deleted")
        if message is not None and message.ephemeral and (
                message.payload.get("interaction_metadata", {}).get("user", {}).get("id") != str(user.id)):
            raise HarnessError(f"{user.name} cannot see the ephemeral {message}")
        if not self.sees_thread(user, channel_id):
            raise HarnessError(f"{user.name} cannot see the private thread {channel_id}: Discord shows it only to "
                               "its members and to those with Manage Threads")
        payload = interaction_payload(self, user, kind, data, channel_id, message)
        iid = int(payload["id"])
        reply = Reply(self.server, iid, payload["token"], kind, channel_id, user.payload,
                      source_message_id=message.id if message is not None else None)
        self.server.replies[reply.token] = reply
        self._hook_error_handlers()
        self.server.windows.append(reply.calls)
        try:
            self.dispatch("INTERACTION_CREATE", payload)
            await self.settle(check=False)
        finally:
            self.server.windows.remove(reply.calls)
        if expect_response and not reply.responded:
            what = data.get("name") or data.get("custom_id")
            self.record_error(HarnessError(f"interaction {what!r} got no response (Discord: 'interaction failed')"))
        self.check_errors()
        return reply

    def sees_thread(self, user: HarnessUser, channel_id: int) -> bool:
        """Whether ``user`` sees ``channel_id`` as far as private threads go: a member of it, or a moderator."""
        channel = self.server.channels.get(channel_id) or {}
        if channel.get("type") != 12:
            return True
        moderator = discord.Permissions(user.permissions).manage_threads
        return moderator or str(user.id) in self.server.thread_members.get(channel_id, set())

    async def burst(self, user: HarnessUser, message: MessageLike, custom_id: str, times: int, *,
                    wait: bool = True) -> list[Reply]:
        """Click the same button ``times`` times at once (a double click, a laggy client): every interaction is
        dispatched before the bot gets to run any of them; returns their replies once all are handled
        (``wait=False``: at once, still being handled — a later interaction's settle finishes them)."""
        msg = self.message(message)
        button = msg.button(None, custom_id)
        replies = []
        self._hook_error_handlers()
        for _ in range(times):
            payload = interaction_payload(self, user, 3, {"custom_id": button["custom_id"], "component_type": 2},
                                          msg.channel_id, msg)
            reply = Reply(self.server, int(payload["id"]), payload["token"], 3, msg.channel_id, user.payload,
                          source_message_id=msg.id)
            self.server.replies[reply.token] = reply
            self.server.windows.append(reply.calls)
            replies.append(reply)
            self.dispatch("INTERACTION_CREATE", payload)
        if not wait:
            return replies
        try:
            await self.settle(check=False)
        finally:
            for reply in replies:
                self.server.windows.remove(reply.calls)
        for reply in replies:
            if not reply.responded:
                self.record_error(HarnessError(f"burst click {custom_id!r} got no response"))
        self.check_errors()
        return replies

    def _resolved(self, ids: list[str]) -> dict:
        users = {i: self.users[int(i)] for i in ids if int(i) in self.users}
        return {"users": {i: u.payload for i, u in users.items()},
                "members": {i: {k: v for k, v in u.member().items() if k != "user"} for i, u in users.items()}}

    # ------------------------------------------------------------------ records
    @property
    def calls(self) -> list[Call]:
        """Every request that reached the fake edge, in order."""
        return self.server.calls

    def message(self, message: MessageLike) -> SentMessage:
        if isinstance(message, Reply):
            return message.messages[-1]
        return message if isinstance(message, SentMessage) else self.server.message(message)

    def channel_messages(self, channel_id: Optional[int] = None) -> list[SentMessage]:
        """The current public messages of a channel (default channel if omitted), oldest first."""
        return self.server.channel_messages(channel_id or self.channel_id)

    def dm_messages(self, user: HarnessUser) -> list[SentMessage]:
        """Messages the bot sent to ``user`` by DM."""
        dm = [c for c in self.server.channels.values() if c["type"] == 1 and c["recipients"][0]["id"] == str(user.id)]
        return self.server.channel_messages(int(dm[0]["id"])) if dm else []

    def adopt(self, payload: dict) -> SentMessage:
        """Put a message from before a "restart" (e.g. ``old_message.payload``) into this harness's Discord."""
        return self.server.adopt(payload)

    # ------------------------------------------------------------------ settling and errors
    def _task_factory(self, loop, coro, **kwargs):
        task = self._old_factory(loop, coro, **kwargs) if self._old_factory else asyncio.Task(coro, loop=loop, **kwargs)
        owner = OWNER.get()
        if not self._passing and owner in (None, self):
            self._started += 1
            task.add_done_callback(self._count_finished)
            self._tasks.append(task)
            if owner is self:
                self._own.add(task)
        return task

    def _count_finished(self, _: asyncio.Task) -> None:
        self._finished += 1

    def ignore_task(self, name_part: str) -> None:
        """Let ``settle()`` skip tasks whose coroutine qualname contains ``name_part`` (e.g. a turn timer)."""
        self._background.append(name_part)

    def _busy(self) -> list[asyncio.Task]:
        return [t for t in self._tasks if not t.done() and t not in self._settling and not self._parked(t)]

    def _parked(self, task: asyncio.Task) -> bool:
        """Long-lived (``BACKGROUND``, ``ignore_task``), waiting for the user (``view.wait()``, ``bot.wait_for``) or
        for the clock (innermost ``asyncio.sleep`` of ``park_sleeps_over`` seconds or more, e.g. a turn timer)."""
        coro = task.get_coro()
        if any(part in getattr(coro, "__qualname__", "") for part in self._background):
            return True
        while hasattr(coro, "cr_await"):  # walk down the chain of awaited coroutines
            if getattr(coro, "__qualname__", "") in WAITING_FOR_USER:
                return True
            if coro.cr_await is None or not hasattr(coro.cr_await, "cr_await"):
                break
            coro = coro.cr_await
        frame = getattr(coro, "cr_frame", None)
        return coro.__qualname__ == "sleep" and frame is not None and frame.f_locals["delay"] >= self.park_sleeps_over

    def _progress(self) -> tuple[int, int, int]:
        """What moves while the bot works: tasks started, tasks finished, requests that reached the edge."""
        return self._started, self._finished, len(self.server.calls)

    async def settle(self, timeout: Optional[float] = None, *, check: bool = True) -> None:
        """Wait until every task started since the harness began has finished or is parked (see ``_parked``: view
        timeouts, ``tasks.loop``, waits for the user or a long sleep), then raise :class:`HarnessError` for collected
        errors if ``check``. Stuck is not slow: only ``timeout`` seconds (default ``settle_timeout``) in which tasks
        ran but nothing moved (no task started or finished, no request reached the edge) make an error, so a loaded
        machine that plays a long game slowly settles however long it takes."""
        me = asyncio.current_task()
        self._settling.add(me)
        loop = asyncio.get_running_loop()
        patience = timeout or self.settle_timeout
        seen, deadline = self._progress(), loop.time() + patience
        try:
            while True:
                for _ in range(5):  # let call_soon chains schedule their tasks
                    await asyncio.sleep(0)
                busy = self._busy()
                if not busy:
                    break
                if self._progress() != seen:
                    seen, deadline = self._progress(), loop.time() + patience
                elif loop.time() >= deadline:
                    where = [f"{t.get_name()} {t.get_coro()} at {t.get_stack(limit=1)}" for t in busy]
                    raise HarnessError(f"settle(): nothing moved for {patience:g} s; still running:\n  "
                                       + "\n  ".join(where))
                # poll: a task may park (start waiting for the user or a timer) without finishing
                poll = min(0.02, deadline - loop.time())
                await asyncio.wait(busy, timeout=poll, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._settling.discard(me)
            self._reap()
        self._run_checks()
        if check:
            self.check_errors()

    async def until(self, done: Callable[[], object], *, patience: float = 60.0, cap: float = 600.0,
                    then_settle: bool = True) -> None:
        """Let the bot run until ``done()`` holds, then ``settle()`` (unless not ``then_settle``: a test holding some
        of the bot's requests on purpose): for what it does after sleeping (a writer's backoff, a retry, a probe),
        which ``settle()`` does not wait for. A hang, not a slow machine, fails it:
        ``patience`` seconds in which nothing moved (no task started or finished, no request reached the edge),
        or ``cap`` seconds in all (something that moves for ever, e.g. a writer retrying, without ``done``)."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        seen, still = self._progress(), began
        while not done():
            now = loop.time()
            if self._progress() != seen:
                seen, still = self._progress(), now
            elif now - still >= patience or now - began >= cap:
                raise HarnessError(f"until(): not true after {now - began:.0f} s, nothing moved for the last "
                                   f"{now - still:.0f} s")
            await asyncio.sleep(0.02)
        if then_settle:
            await self.settle()

    def _run_checks(self) -> None:
        for check in self.checks:
            check()

    def _reap(self) -> None:
        for task in [t for t in self._tasks if t.done()]:
            self._tasks.remove(task)
            if not task.cancelled() and task._log_traceback:  # asyncio's own "exception never retrieved" test
                self.record_error(task.exception())
        fresh, self._calls_seen = self.calls[self._calls_seen:], len(self.calls)
        self.errors += [HarnessError(f"request to a route the fake Discord does not know: {c.method} {c.path} "
                                     "(add it with harness.server.route)") for c in fresh if not c.known]
        self.errors += [DiscordRefused(c) for c in fresh if c.refused]
        self.errors += [DeprecatedRequest(c) for c in fresh if c.deprecated]
