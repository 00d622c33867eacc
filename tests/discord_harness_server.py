"""The fake Discord server of the test harness: route table, message store, interaction records.

Every handler takes ``(call, path_params)`` and returns ``(status, json_or_None)`` exactly as Discord's REST API
would for the bot; :class:`FakeDiscord.route` adds or overrides routes (later wins), e.g. to inject a ``403``.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable, Optional
from urllib.parse import unquote

from bot.discord_rules import callback_errors, command_errors, member_errors, message_errors, thread_errors
from bot.discord_rules.limits import MAX_PRIVATE_FOLLOWUPS

from .discord_faults import Faults
from .discord_harness_http import (
    COMPONENTS_V2,
    EPHEMERAL,
    LOADING,
    Call,
    FakeResponse,
    Reply,
    SentMessage,
    now_iso,
    snowflake,
)
from .discord_harness_payloads import ATTACHMENT_SIZE_LIMIT, MAX_UPLOADS

Handler = Callable[[Call, dict[str, str]], "tuple[int, Any]"]
SENDABLE_FLAGS = EPHEMERAL | 4 | 4096 | COMPONENTS_V2  # ephemeral, suppress embeds/notifications, components v2
NO_CONTENT = (204, None)
GATEWAY_ONLY = ("members", "channels", "threads", "voice_states", "presences", "stage_instances",  # GUILD_CREATE's
                "guild_scheduled_events", "soundboard_sounds", "joined_at", "large", "member_count", "unavailable")


def error(status: int, code: int, message: str) -> tuple[int, dict]:
    return status, {"message": message, "code": code}


UNKNOWN_CHANNEL = error(404, 10003, "Unknown Channel")
MISSING_PERMISSIONS = error(403, 50013, "Missing Permissions")
THREAD_EXISTS = error(400, 160004, "A thread has already been created for this message")
WRONG_CHANNEL_TYPE = error(400, 50024, "Cannot execute action on this channel type")
ALL_PERMISSIONS = (1 << 53) - 1
CREATE_PUBLIC_THREADS, CREATE_PRIVATE_THREADS, HAS_THREAD = 1 << 35, 1 << 36, 1 << 5
UNKNOWN_MESSAGE = error(404, 10008, "Unknown Message")
THREAD_LOCKED = error(403, 160005, "Thread is locked")
THREAD_LIMIT = error(400, 160006, "Maximum number of active threads reached")
MANAGE_THREADS = 1 << 34
UNKNOWN_WEBHOOK = error(404, 10015, "Unknown Webhook")
MISSING_ACCESS = error(403, 50001, "Missing Access")
CANNOT_DM = error(403, 50007, "Cannot send messages to this user")
FOLLOWUP_LIMIT = error(400, 40094, "This interaction has hit the maximum number of follow up messages")


def kept_attachments(message: Optional[dict]) -> dict[str, str]:
    """Attachment id → file name of a stored message (the attachments an edit may keep)."""
    return {a["id"]: a["filename"] for a in (message or {}).get("attachments", [])}


def upload_errors(files: dict[str, bytes]) -> Optional[tuple[int, dict]]:
    """Discord refuses a request uploading more than ``MAX_UPLOADS`` files, or a file larger than the server's
    ``ATTACHMENT_SIZE_LIMIT`` (whatever the body says)."""
    if len(files) > MAX_UPLOADS:
        return error(400, 50035, f"Invalid Form Body: files: Must be {MAX_UPLOADS} or fewer in length.")
    if any(len(data) > ATTACHMENT_SIZE_LIMIT for data in files.values()):
        return error(413, 40005, "Request entity too large")
    return None


def invalid_message(body: Optional[dict], files: dict, *, creating: bool,
                    existing: Optional[dict] = None) -> Optional[tuple[int, dict]]:
    """Discord's own validation of a message body (``bot.discord_rules``) and of its uploads; ``existing``: the
    edited message."""
    return upload_errors(files) or message_errors(body, list(files), creating=creating,
                                                  existing=kept_attachments(existing))


class FakeDiscord:
    """Plays Discord for one bot: ``calls``, ``messages`` (id → payload), ``replies`` (token → :class:`Reply`)."""

    def __init__(self, *, app_id: int, bot_user: dict, guild_id: int):
        self.app_id, self.bot_user, self.guild_id = app_id, bot_user, guild_id
        self.calls: list[Call] = []
        self.messages: dict[int, dict] = {}
        self._nonces: dict[tuple[str, str], int] = {}  # (channel, nonce) -> first message id (no scan per post)
        self.deleted: set[int] = set()
        self.uploads: dict[int, bytes] = {}  # attachment id → bytes
        self.channels: dict[int, dict] = {}  # guild channels, threads and DMs that exist
        self.token_only: set[int] = set()  # DMs and group DMs reached only through interaction tokens
        self.guild: dict = {}  # the guild as GUILD_CREATE has it (roles, members); the harness fills it
        self.users: dict[int, dict] = {int(bot_user["id"]): bot_user}
        self.replies: dict[str, Reply] = {}
        self.commands: dict[Optional[int], list[dict]] = {}  # synced app commands by guild id (None = global)
        self.on_thread_create: Callable[[dict], None] = lambda data: None
        self.bot_permissions: Callable[[int], int] = lambda channel_id: ALL_PERMISSIONS  # the harness knows them
        self.windows: list[list[Call]] = []  # Reply.calls lists currently receiving every call
        self.max_active_threads = 1000  # active threads a server may have (160006 beyond)
        self.thread_members: dict[int, set[str]] = {}  # thread id → its members' user ids (the bot, who made it)
        self.faults = Faults()  # Discord's rate limits, deadlines and failures, as tests switch them on
        self._routes: list[tuple[str, re.Pattern, Handler, str, bool]] = []
        for method, template, handler in ROUTES:
            self.route(method, template, getattr(self, handler), first=False)

    # ------------------------------------------------------------------ plumbing
    def route(self, method: str, template: str, handler: Handler, *, first: bool = True) -> None:
        """Add/override a route: ``template`` like ``/channels/{channel_id}/messages``. Routes added by tests are
        tried before the defaults (and the newest first), so they can override them, e.g. to answer 403."""
        regex = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
        entry = (method, re.compile(f"^{regex}$"), handler, f"{method} {template}", not first)
        self._routes.insert(0, entry) if first else self._routes.append(entry)

    async def respond(self, call: Call) -> FakeResponse:
        """Every request: through the faults a test switched on (``faults``), then the routes."""
        return await self.faults.respond(call, self)

    def record(self, call: Call) -> None:
        self.calls.append(call)
        for window in self.windows:
            window.append(call)

    def handle(self, call: Call) -> FakeResponse:
        self.record(call)
        for method, pattern, handler, name, builtin in self._routes:
            match = pattern.match(call.path)
            if match and method == call.method:
                call.route = name
                params = {k: unquote(v) for k, v in match.groupdict().items()}
                call.status, call.response = self._private_refusal(call, params) or handler(call, params)
                # Discord's validation (or its upload limit) said no: not a test's route, not a state such as 50083
                code = call.response.get("code") if isinstance(call.response, dict) else None
                call.refused = call.refused or (builtin and (
                    (call.status == 400 and code in (50035, 50006)) or (call.status == 413 and code == 40005)))
                break
        else:
            call.known = False
            call.status, call.response = error(404, 0, f"harness: unknown route {call.method} {call.path}")
        return FakeResponse(call.status, call.response)

    def message(self, message_id: int) -> SentMessage:
        return SentMessage(self, int(message_id))

    def channel_messages(self, channel_id: int) -> list[SentMessage]:
        """The current public messages of a channel, oldest first (edits applied, deleted ones gone)."""
        return [SentMessage(self, i) for i, p in sorted(self.messages.items())
                if int(p["channel_id"]) == channel_id and i not in self.deleted and not p["flags"] & EPHEMERAL]

    def adopt(self, payload: dict) -> SentMessage:
        """Store a message payload from elsewhere, e.g. from a harness that ran before a "restart"."""
        self.messages[int(payload["id"])] = json.loads(json.dumps(payload))
        if payload.get("nonce"):
            self._nonces.setdefault((str(payload["channel_id"]), str(payload["nonce"])), int(payload["id"]))
        return SentMessage(self, int(payload["id"]))

    def is_private(self, channel_id: int) -> bool:
        """A DM or group DM where people use the bot installed to their accounts (``Harness.dm``/``group_dm``): it
        writes there only through interaction tokens. (A DM the bot opened with a member of its server is not one.)"""
        return channel_id in self.token_only

    def _private_refusal(self, call: Call, params: dict) -> Optional[tuple[int, dict]]:
        """A channel request by the bot in a DM or group DM it is not a member of: Discord refuses it (the group DM:
        no access; the DM: the bot may not message someone it shares no server with)."""
        channel_id = int(params.get("channel_id", 0))
        if not self.is_private(channel_id):
            return None
        call.refused = True
        return MISSING_ACCESS if self.channels[channel_id]["type"] == 3 else CANNOT_DM

    # ------------------------------------------------------------------ messages
    def create_message(self, channel_id: int, body: dict, files: dict, *, flags: int, reply: Optional[Reply] = None):
        p = {"id": str(snowflake()), "channel_id": str(channel_id), "type": 0, "author": self.bot_user, "content": "",
             "embeds": [], "components": [], "attachments": [], "mentions": [], "mention_roles": [],
             "mention_everyone": False, "pinned": False, "tts": False, "timestamp": now_iso(),
             "edited_timestamp": None, "flags": flags}
        if self.channels.get(channel_id, {}).get("guild_id"):
            p["guild_id"] = str(self.channels[channel_id]["guild_id"])
        if reply is not None:
            owners = {"1": reply.user["id"]} if self.is_private(channel_id) else {"0": str(self.guild_id)}
            p.update(webhook_id=str(self.app_id), application_id=str(self.app_id), type=20 if reply.kind == 2 else 0,
                     interaction_metadata={"id": str(reply.id), "type": reply.kind, "user": reply.user,
                                           "authorizing_integration_owners": owners})
        if body.get("message_reference"):
            p.update(type=19, message_reference={"channel_id": str(channel_id), **body["message_reference"]})
        self.update_message(p, body, files)
        p["edited_timestamp"] = None
        self.messages[int(p["id"])] = p
        return p

    def update_message(self, p: dict, body: dict, files: dict) -> dict:
        for key in ("content", "embeds", "components", "poll", "tts"):
            if key in body:
                p[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if body.get("flags") is not None:  # the ephemeral and loading bits can't be changed by a request
            p["flags"] = p["flags"] & (EPHEMERAL | LOADING) | body["flags"] & ~(EPHEMERAL | LOADING)
        if "attachments" in body or files:
            old = {a["id"]: a for a in p["attachments"]}
            wanted = body.get("attachments") or [{"filename": name} for name in files]
            p["attachments"] = [old[str(a["id"])] if str(a.get("id")) in old else self._attach(p, a, files)
                                for a in wanted if str(a.get("id")) in old or a.get("filename") in files]
        mentioned = re.findall(r"<@!?(\d+)>", p["content"] or "")
        p["mentions"] = [self.users[int(u)] for u in dict.fromkeys(mentioned) if int(u) in self.users]
        p["edited_timestamp"] = now_iso()
        return p

    def _attach(self, p: dict, a: dict, files: dict) -> dict:
        aid, data = snowflake(), files[a["filename"]]
        self.uploads[aid] = data
        url = f"https://cdn.discordapp.com/attachments/{p['channel_id']}/{aid}/{a['filename']}"
        return {"id": str(aid), "filename": a["filename"], "size": len(data), "url": url, "proxy_url": url,
                "description": a.get("description")}

    def _channel_message(self, params: dict) -> Optional[dict]:
        p = self.messages.get(int(params["message_id"]))
        if p is None or int(p["id"]) in self.deleted or p["flags"] & EPHEMERAL:
            return None  # ephemeral messages are only reachable through the interaction webhook
        return p if p["channel_id"] == params["channel_id"] else None

    # ------------------------------------------------------------------ REST routes
    def _get_me(self, call, _):
        return 200, self.bot_user

    def _get_app(self, call, _):
        return 200, {"id": str(self.app_id), "name": self.bot_user["username"], "description": "", "icon": None,
                     "bot_public": True, "bot_require_code_grant": False, "owner": self.bot_user, "team": None,
                     "verify_key": "0" * 64, "flags": 0, "summary": "", "rpc_origins": []}

    def _get_user(self, call, params):
        user = self.users.get(int(params["user_id"]))
        return (200, user) if user else error(404, 10013, "Unknown User")

    def _get_member(self, call, params):
        user = self.users.get(int(params["user_id"]))
        if user is None:
            return error(404, 10007, "Unknown Member")
        known = [m for m in self.guild.get("members", []) if m["user"]["id"] == params["user_id"]]
        return 200, known[0] if known else {"user": user, "roles": [], "joined_at": now_iso(), "deaf": False,
                                             "mute": False, "flags": 0}

    def _my_guilds(self, call, _):
        g = self.guild
        return 200, [{"id": g["id"], "name": g["name"], "icon": None, "banner": None, "owner": False,
                      "permissions": g["roles"][0]["permissions"], "features": g["features"]}] if g else []

    def _get_guild(self, call, params):
        if not self.guild or params["guild_id"] != self.guild["id"]:
            return error(404, 10004, "Unknown Guild")
        return 200, {k: v for k, v in self.guild.items() if k not in GATEWAY_ONLY}

    def _create_dm(self, call, _):
        uid = int(call.json["recipient_id"])
        if uid not in self.users:
            return error(404, 10013, "Unknown User")
        for ch in self.channels.values():
            if ch["type"] == 1 and int(ch["recipients"][0]["id"]) == uid and int(ch["id"]) not in self.token_only:
                return 200, ch
        ch = {"id": str(snowflake()), "type": 1, "recipients": [self.users[uid]], "last_message_id": None, "flags": 0}
        self.channels[int(ch["id"])] = ch
        return 200, ch

    def _get_channel(self, call, params):
        ch = self.channels.get(int(params["channel_id"]))
        return (200, ch) if ch else UNKNOWN_CHANNEL

    def _edit_channel(self, call, params):
        ch = self.channels.get(int(params["channel_id"]))
        if ch is None:
            return UNKNOWN_CHANNEL
        meta = ch.get("thread_metadata") or {}
        if meta.get("locked") and not self.bot_permissions(int(ch["id"])) & MANAGE_THREADS:
            return MISSING_PERMISSIONS  # only a moderator may reopen or unlock a locked thread
        for key, value in call.json.items():
            if key in ("archived", "locked", "auto_archive_duration", "invitable") and "thread_metadata" in ch:
                ch["thread_metadata"][key] = value
            else:
                ch[key] = value
        return 200, ch

    def _delete_channel(self, call, params):
        ch = self.channels.pop(int(params["channel_id"]), None)
        return (200, ch) if ch else UNKNOWN_CHANNEL

    def _post_message(self, call, params):
        cid = int(params["channel_id"])
        if cid not in self.channels:
            return UNKNOWN_CHANNEL
        body = call.json or {}
        bad = invalid_message(body, call.files, creating=True)
        if bad:
            return bad
        if body.get("enforce_nonce") and body.get("nonce"):  # Discord answers a repeat with the message it has
            known = self._nonces.get((str(cid), str(body["nonce"])))
            if known is not None:
                return 200, self.messages[known]
        if archived := self._archived(cid):
            return archived
        message = self.create_message(cid, body, call.files, flags=(body.get("flags") or 0) & ~EPHEMERAL)
        if body.get("nonce"):
            message["nonce"] = str(body["nonce"])
            self._nonces.setdefault((str(cid), message["nonce"]), int(message["id"]))
        return 200, message

    def _archived(self, channel_id: int) -> Optional[tuple[int, dict]]:
        """A message to an archived thread: Discord refuses it until the thread is unarchived; to a locked one,
        unless the bot may manage threads."""
        meta = self.channels.get(channel_id, {}).get("thread_metadata") or {}
        if meta.get("locked") and not self.bot_permissions(channel_id) & MANAGE_THREADS:
            return THREAD_LOCKED
        return error(400, 50083, "Thread is archived") if meta.get("archived") else None

    def _history(self, call, params):
        before, after = int(call.params.get("before", 1 << 64)), int(call.params.get("after", 0))
        found = [m.payload for m in self.channel_messages(int(params["channel_id"])) if after < m.id < before]
        return 200, found[::-1][: int(call.params.get("limit", 50))]

    def _get_message(self, call, params):
        p = self._channel_message(params)
        return (200, p) if p else UNKNOWN_MESSAGE

    def _edit_message(self, call, params):
        p = self._channel_message(params)
        if p is None:
            return UNKNOWN_MESSAGE
        if p["author"]["id"] != self.bot_user["id"]:
            return error(403, 50005, "Cannot edit a message authored by another user")
        if archived := self._archived(int(params["channel_id"])):
            return archived
        return invalid_message(call.json or {}, call.files, creating=False, existing=p) or (
            200, self.update_message(p, call.json or {}, call.files))

    def _delete_message(self, call, params):
        p = self._channel_message(params)
        if p is None:
            return UNKNOWN_MESSAGE
        self.deleted.add(int(p["id"]))
        return NO_CONTENT

    def _create_thread(self, call, params):
        """Discord's rules: a valid name and archive duration, a parent that is no thread, the permission to
        create that kind of thread there, and one thread per message (160004 for a second)."""
        parent = self.channels.get(int(params["channel_id"]))
        if parent is None:
            return UNKNOWN_CHANNEL
        body = call.json or {}
        if "thread_metadata" in parent or parent.get("type") not in (0, 5):
            return WRONG_CHANNEL_TYPE
        if bad := thread_errors(body, from_message="message_id" in params, parent_type=parent.get("type")):
            return bad
        kind = body.get("type") or (12 if "message_id" not in params else 10 if parent["type"] == 5 else 11)
        needed = CREATE_PRIVATE_THREADS if kind == 12 else CREATE_PUBLIC_THREADS
        if not self.bot_permissions(int(parent["id"])) & needed:
            return MISSING_PERMISSIONS
        source = self._channel_message(params) if "message_id" in params else None
        if "message_id" in params and source is None:
            return UNKNOWN_MESSAGE
        tid = int(params["message_id"]) if "message_id" in params else snowflake()  # a message's thread shares its id
        if tid in self.channels:
            return THREAD_EXISTS
        active = [c for c in self.channels.values() if not (c.get("thread_metadata") or {"archived": True})["archived"]]
        if len(active) >= self.max_active_threads:
            return THREAD_LIMIT
        thread = {"id": str(tid), "guild_id": str(self.guild_id), "parent_id": parent["id"], "name": body["name"],
                  "owner_id": self.bot_user["id"], "type": kind, "last_message_id": None,
                  "message_count": 0, "member_count": 1, "rate_limit_per_user": body.get("rate_limit_per_user", 0),
                  "flags": 0, "thread_metadata": {
                      "archived": False, "locked": False, "archive_timestamp": now_iso(),
                      "auto_archive_duration": body.get("auto_archive_duration", 4320),
                      "invitable": body.get("invitable", True), "create_timestamp": now_iso()},
                  "member": {"id": str(tid), "user_id": self.bot_user["id"], "join_timestamp": now_iso(), "flags": 0}}
        self.channels[tid] = thread
        self.thread_members[tid] = {self.bot_user["id"]}
        if source is not None:
            source["flags"] |= HAS_THREAD
        self.on_thread_create(thread)  # Discord also sends THREAD_CREATE over the gateway
        return 201, thread

    def _add_thread_member(self, call, params):
        """Add Thread Member, as Discord rules it (``member_errors``); ``@me``: the bot joins."""
        tid = int(params["channel_id"])
        thread = self.channels.get(tid)
        if thread is None:
            return UNKNOWN_CHANNEL
        user_id = self.bot_user["id"] if params["user_id"] == "@me" else params["user_id"]
        members = self.thread_members.setdefault(tid, set())
        if user_id != self.bot_user["id"] and (bad := member_errors(
                thread, self.bot_permissions(int(thread.get("parent_id") or tid)), bot_id=self.bot_user["id"],
                members=members)):
            return bad
        members.add(user_id)
        thread["member_count"] = len(members)
        return NO_CONTENT

    def _no_content(self, call, params):
        return NO_CONTENT if int(params["channel_id"]) in self.channels else UNKNOWN_CHANNEL

    def _sync(self, call, params):
        bad = command_errors(call.json)
        if bad:
            return bad
        gid = int(params["guild_id"]) if "guild_id" in params else None
        self.commands[gid] = [{**cmd, "id": str(snowflake()), "application_id": str(self.app_id), "version": "1",
                               **({"guild_id": str(gid)} if gid else {})} for cmd in call.json]
        return 200, self.commands[gid]

    def _list_commands(self, call, params):
        return 200, self.commands.get(int(params["guild_id"]) if "guild_id" in params else None, [])

    # ------------------------------------------------------------------ interactions
    def _callback(self, call, params):
        reply = self.replies.get(params["token"])
        if reply is None or str(reply.id) != params["interaction_id"]:
            return error(404, 10062, "Unknown interaction")
        call.interaction_id = reply.id
        late = self.faults.too_late(reply.created, callback=True)
        if late:
            return late
        if reply.callbacks:  # a second initial response: a bug even when the bot swallows the error
            call.refused = True
            return error(400, 40060, "Interaction has already been acknowledged.")
        kind, data = call.json["type"], call.json.get("data") or {}
        source = self.messages.get(reply.source_message_id or 0)
        bad = upload_errors(call.files) or callback_errors(reply.kind, call.json, list(call.files),
                                                           existing=kept_attachments(source))
        if bad:
            return bad
        if kind in (6, 7) and reply.source_message_id is None:
            return error(400, 50035, "Invalid Form Body: this interaction has no message to update")
        reply.callbacks.append({"type": kind, "data": data})
        reply.answered_at = call.at
        if kind in (4, 7):
            reply.shown_at = call.at
        message = None
        if kind in (4, 5):
            flags = (data.get("flags") or 0) & SENDABLE_FLAGS | (LOADING if kind == 5 else 0)
            message = self.create_message(reply.channel_id, data if kind == 4 else {}, call.files, flags=flags,
                                          reply=reply)
            reply.original_id = int(message["id"])
        elif kind in (6, 7):  # the "original response" is now the message the component sits on
            reply.original_id = reply.source_message_id
            message = self.messages[reply.source_message_id]
            if kind == 7:
                self.update_message(message, data, call.files)
        if message is not None:
            reply.message_ids.append(int(message["id"]))
        if "with_response" not in call.params:
            return NO_CONTENT
        response = {"interaction": {"id": str(reply.id), "type": reply.kind}, "resource": {"type": kind}}
        if message is not None and kind != 6:
            response["interaction"].update(response_message_id=message["id"], response_message_loading=kind == 5,
                                           response_message_ephemeral=bool(message["flags"] & EPHEMERAL))
            response["resource"]["message"] = message
        return 200, response

    def _webhook(self, call, params) -> Optional[Reply]:
        reply = self.replies.get(params["token"])
        if reply is not None and params["app_id"] == str(self.app_id):
            call.interaction_id = reply.id
            return reply
        return None

    def _followup(self, call, params):
        reply = self._webhook(call, params)
        if reply is None or not reply.callbacks:
            call.refused = reply is not None  # a followup before the interaction was acknowledged
            return UNKNOWN_WEBHOOK
        body = call.json or {}
        bad = invalid_message(body, call.files, creating=True)
        if bad:
            return bad
        original = self.messages.get(reply.original_id or 0)
        deleted = reply.original_id in self.deleted  # a deleted "thinking…" is not filled: a new message is sent
        if original is not None and original["flags"] & LOADING and not deleted:  # the first followup fills it
            call.deprecated = ("a followup filled a deferred response's \"thinking…\": the answer edits the original "
                               "response (PATCH /webhooks/{app_id}/{token}/messages/@original)")
            original["flags"] &= ~LOADING
            message = self.update_message(original, {k: v for k, v in body.items() if k != "flags"}, call.files)
            reply.shown_at = reply.shown_at or call.at
        else:
            if self.is_private(reply.channel_id) and reply.followups >= MAX_PRIVATE_FOLLOWUPS:
                call.refused = True
                return FOLLOWUP_LIMIT
            flags = (body.get("flags") or 0) & SENDABLE_FLAGS
            message = self.create_message(reply.channel_id, body, call.files, flags=flags, reply=reply)
            reply.message_ids.append(int(message["id"]))
        reply.followups += 1
        return (200, message) if call.params.get("wait") in ("1", "true", "True") else NO_CONTENT

    def _webhook_message(self, call, params) -> Optional[dict]:
        reply = self._webhook(call, params)
        if reply is None:
            return None
        if not reply.callbacks:  # the original response edited (or read) before any defer or answer
            call.refused = True
            return None
        mid = reply.original_id if params["message_id"] == "@original" else int(params["message_id"])
        if mid is None or mid in self.deleted or (mid not in reply.message_ids and mid != reply.original_id):
            return None
        return self.messages.get(mid)

    def _get_webhook_message(self, call, params):
        p = self._webhook_message(call, params)
        return (200, p) if p else UNKNOWN_MESSAGE

    def _edit_webhook_message(self, call, params):
        p = self._webhook_message(call, params)
        if p is None:
            return UNKNOWN_MESSAGE
        bad = invalid_message(call.json or {}, call.files, creating=False, existing=p)
        if bad:
            return bad
        p["flags"] &= ~LOADING
        reply = self.replies.get(params["token"])
        if reply is not None and int(p["id"]) == reply.original_id:
            reply.shown_at = reply.shown_at or call.at
        return 200, self.update_message(p, call.json or {}, call.files)

    def _delete_webhook_message(self, call, params):
        p = self._webhook_message(call, params)
        if p is None:
            return UNKNOWN_MESSAGE
        self.deleted.add(int(p["id"]))
        return NO_CONTENT


ROUTES = [
    ("GET", "/users/@me", "_get_me"),
    ("GET", "/oauth2/applications/@me", "_get_app"),
    ("GET", "/users/{user_id}", "_get_user"),
    ("POST", "/users/@me/channels", "_create_dm"),
    ("GET", "/users/@me/guilds", "_my_guilds"),
    ("GET", "/guilds/{guild_id}", "_get_guild"),
    ("GET", "/guilds/{guild_id}/members/{user_id}", "_get_member"),
    ("GET", "/channels/{channel_id}", "_get_channel"),
    ("PATCH", "/channels/{channel_id}", "_edit_channel"),
    ("DELETE", "/channels/{channel_id}", "_delete_channel"),
    ("POST", "/channels/{channel_id}/messages", "_post_message"),
    ("GET", "/channels/{channel_id}/messages", "_history"),
    ("GET", "/channels/{channel_id}/messages/{message_id}", "_get_message"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}", "_edit_message"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}", "_delete_message"),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads", "_create_thread"),
    ("POST", "/channels/{channel_id}/threads", "_create_thread"),
    ("PUT", "/channels/{channel_id}/thread-members/{user_id}", "_add_thread_member"),
    ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", "_no_content"),
    ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}", "_no_content"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}", "_no_content"),
    ("PUT", "/channels/{channel_id}/messages/pins/{message_id}", "_no_content"),
    ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", "_no_content"),
    ("POST", "/channels/{channel_id}/typing", "_no_content"),
    ("PUT", "/applications/{app_id}/commands", "_sync"),
    ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", "_sync"),
    ("GET", "/applications/{app_id}/commands", "_list_commands"),
    ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", "_list_commands"),
    ("POST", "/interactions/{interaction_id}/{token}/callback", "_callback"),
    ("POST", "/webhooks/{app_id}/{token}", "_followup"),
    ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", "_get_webhook_message"),
    ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", "_edit_webhook_message"),
    ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", "_delete_webhook_message"),
]
