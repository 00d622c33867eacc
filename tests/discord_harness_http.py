"""The faked network edge of the Discord test harness (see ``tests/discord_harness.py``), and its records.

discord.py sends every REST call — ``HTTPClient.request`` (channel messages, threads, DMs, command sync) and
``discord.webhook.async_.AsyncWebhookAdapter.request`` (interaction callbacks, original response, followups) —
through one ``aiohttp.ClientSession.request(method, url, data=..., headers=..., params=...)``: the session that
``HTTPClient.static_login`` creates and every ``Interaction`` borrows as ``state.http._HTTPClient__session``.
:class:`FakeSession` takes that session's place, so everything of discord.py above it (JSON and multipart encoding,
rate-limit bookkeeping, status → ``NotFound``/``Forbidden``/``HTTPException``, parsing of the answers) runs for
real; it hands each request, decoded into a :class:`Call`, to the fake server (``discord_harness_server``).
:class:`SentMessage` and :class:`Reply` are the read-side views tests assert on.
"""
from __future__ import annotations

import asyncio
import email.parser
import email.policy
import itertools
import json
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Optional
from urllib.parse import urlsplit

import aiohttp
from aiohttp.tracing import Trace
from discord.errors import HTTPException, LoginFailure
from discord.http import Route
from discord.utils import time_snowflake
from multidict import CIMultiDict
from yarl import URL

from bot.discord_rules.problems import error_lines

if TYPE_CHECKING:
    from .discord_harness_server import FakeDiscord

_ids = itertools.count(1)
EPHEMERAL, LOADING, COMPONENTS_V2 = 64, 128, 32768
CALLBACK_NAMES = {4: "message", 5: "deferred", 6: "deferred_update", 7: "update", 8: "autocomplete", 9: "modal"}


def snowflake() -> int:
    """A fresh, time-ordered, process-unique snowflake (so a "restarted" harness never reuses an id)."""
    return time_snowflake(datetime.now(timezone.utc)) + next(_ids) % 4096


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat()


class HarnessError(AssertionError):
    """A test-visible failure: a crash in the bot, an unanswered interaction, an unknown route, a hung task."""


class DiscordRefused(HarnessError):
    """The fake Discord answered a request with 400 (its body breaks Discord's rules): a bug even when the bot
    catches the ``HTTPException``. A test that sends such a request on purpose uses
    ``expect_errors(DiscordRefused)``."""

    def __init__(self, call: "Call"):
        self.call = call
        detail = "\n  ".join(error_lines((call.status, call.response))) or str(call.response)
        super().__init__(f"Discord refused {call.method} {call.path}:\n  {detail}")


class DeprecatedRequest(HarnessError):
    """The fake Discord accepted a request its docs tell apps not to make (as Discord does): a bug all the same."""

    def __init__(self, call: "Call"):
        self.call = call
        super().__init__(f"{call.method} {call.path}: {call.deprecated}")


@dataclass
class Call:
    """One request that reached the fake edge. ``json`` is the JSON body or the multipart ``payload_json``;
    ``files`` maps each uploaded file's name to its bytes; ``route`` is the matched template, e.g.
    ``"POST /channels/{channel_id}/messages"``."""

    method: str
    path: str
    params: dict[str, str]
    json: Any
    files: dict[str, bytes]
    route: str = "?"
    known: bool = True
    refused: bool = False  # the fake Discord answered 400 (or 413): the request breaks Discord's rules
    deprecated: str = ""  # accepted, but what Discord's docs tell apps not to do (why)
    status: int = 0
    response: Any = None
    interaction_id: Optional[int] = None
    at: float = field(default_factory=time.monotonic)  # when the request reached the edge
    edge_cpu: float = 0.0  # this process's CPU seconds the fake Discord spent on it (Discord's work, not the bot's)


class SentMessage:
    """A live view of one stored message: reads always reflect the latest edit (``deleted`` after a delete)."""

    def __init__(self, server: "FakeDiscord", message_id: int):
        self.server, self.id = server, int(message_id)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SentMessage) and (other.server, other.id) == (self.server, self.id)

    def __hash__(self) -> int:
        return self.id

    payload = property(lambda self: self.server.messages[self.id], doc="The raw message payload, as Discord has it.")
    channel_id = property(lambda self: int(self.payload["channel_id"]))
    content = property(lambda self: self.payload.get("content") or "")
    embeds = property(lambda self: self.payload.get("embeds") or [])
    flags = property(lambda self: self.payload.get("flags") or 0)
    ephemeral = property(lambda self: bool(self.flags & EPHEMERAL))
    loading = property(lambda self: bool(self.flags & LOADING), doc="Still the 'thinking…' placeholder of a defer.")
    attachments = property(lambda self: self.payload.get("attachments") or [])
    deleted = property(lambda self: self.id in self.server.deleted)

    @property
    def files(self) -> dict[str, bytes]:
        """Attachment file name → uploaded bytes."""
        return {a["filename"]: self.server.uploads.get(int(a["id"]), b"") for a in self.attachments}

    @property
    def components(self) -> list[dict]:
        """Every interactive component (buttons, selects, text inputs), flattened out of rows/containers."""
        return [c for c in walk_components(self.payload.get("components") or []) if c.get("type") not in (1, 9, 17, 18)]

    @property
    def text(self) -> str:
        """All human-visible text: content, embed title/description/fields/footer, v2 text displays, labels."""
        return payload_text(self.payload)

    def button(self, label: Optional[str] = None, custom_id: Optional[str] = None) -> dict:
        """The button with this label or custom_id (``custom_id`` may be a regex, matched in full)."""
        return self._find(2, label, custom_id)

    def select(self, custom_id: Optional[str] = None, placeholder: Optional[str] = None) -> dict:
        """The select menu (any select type) with this custom_id (regex) or placeholder; the only one if neither."""
        return self._find((3, 5, 6, 7, 8), placeholder, custom_id, text_key="placeholder")

    def _find(self, types, text, custom_id, text_key="label") -> dict:
        types = types if isinstance(types, tuple) else (types,)
        found = [
            c for c in self.components if c.get("type") in types
            and (text is None or _text_matches(text, c.get(text_key)))
            and (custom_id is None or _id_matches(custom_id, c.get("custom_id", "")))
        ]
        if len(found) != 1:
            have = [(c.get(text_key), c.get("custom_id")) for c in self.components if c.get("type") in types]
            raise LookupError(f"{len(found)} components match {text or custom_id!r} in message {self.id}; have {have}")
        return found[0]

    def __repr__(self) -> str:
        state = " deleted" if self.deleted else " ephemeral" if self.ephemeral else ""
        ids = [c.get("custom_id") for c in self.components]
        return f"<SentMessage {self.id}{state} {self.content[:40]!r} components={ids}>"


def _id_matches(wanted: str, custom_id: str) -> bool:
    try:
        return wanted == custom_id or re.fullmatch(wanted, custom_id) is not None
    except re.error:
        return False


def payload_text(payload: dict) -> str:
    """All human-visible text of a message payload (or of a create/edit request's body)."""
    parts = [payload.get("content")]
    for e in payload.get("embeds") or []:
        parts += [e.get("title"), e.get("description"), (e.get("author") or {}).get("name")]
        parts += [f"{f.get('name')}\n{f.get('value')}" for f in e.get("fields") or []]
        parts.append((e.get("footer") or {}).get("text"))
    for c in walk_components(payload.get("components") or []):
        parts += [c.get("content"), c.get("label"), c.get("placeholder")]
        parts += [o.get("label") for o in c.get("options") or []]
    return "\n".join(p for p in parts if p)


def walk_components(components: list[dict]):
    for c in components:
        yield c
        yield from walk_components(c.get("components") or [])
        yield from walk_components([x for x in (c.get("accessory"), c.get("component")) if x])


@dataclass
class Reply:
    """What Discord saw of one interaction: its callback(s) and the messages it created or edited."""

    server: "FakeDiscord" = field(repr=False)
    id: int
    token: str
    kind: int  # interaction type: 2 command, 3 component, 4 autocomplete, 5 modal submit
    channel_id: int
    user: dict = field(repr=False)  # the user payload of who interacted
    source_message_id: Optional[int] = None  # the message a clicked component sits on
    callbacks: list[dict] = field(default_factory=list)  # [{"type": 4, "data": {...}}, ...]
    original_id: Optional[int] = None
    message_ids: list[int] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list, repr=False)  # every request made while it was handled
    created: float = -1.0  # when Discord created the interaction (on the server's token clock; -1: now)
    answered_at: Optional[float] = None  # when the first callback (an answer or a deferral) reached the edge
    shown_at: Optional[float] = None  # when the answer's content did (the callback, or the deferral's first edit)
    followups: int = 0  # followup messages Discord accepted for it (a deferral's filling included)

    def __post_init__(self) -> None:
        if self.created < 0:
            self.created = self.server.faults.clock()

    responded = property(lambda self: bool(self.callbacks))
    type = property(lambda self: CALLBACK_NAMES.get(self.callbacks[0]["type"]) if self.callbacks else None,
                    doc="First callback: message, deferred, deferred_update, update, modal, autocomplete; or None.")
    messages = property(lambda self: [SentMessage(self.server, i) for i in self.message_ids],
                        doc="Original response (or the updated message) and followups, in order.")
    message = property(lambda self: self.messages[0] if self.message_ids else None)
    ephemeral = property(lambda self: bool(self.message and self.message.ephemeral))
    content = property(lambda self: self.message.content if self.message else "")
    embeds = property(lambda self: self.message.embeds if self.message else [])
    components = property(lambda self: [c for m in self.messages for c in m.components])
    text = property(lambda self: "\n".join(m.text for m in self.messages))
    modal = property(lambda self: next((c["data"] for c in self.callbacks if c["type"] == 9), None))
    choices = property(lambda self: next((c["data"]["choices"] for c in self.callbacks if c["type"] == 8), None))

    @property
    def new_messages(self) -> list[SentMessage]:
        """Every message created while this interaction was handled, by any route (channel.send, followups…)."""
        found = [c.response.get("resource", {}).get("message") or c.response for c in self.calls
                 if c.method == "POST" and isinstance(c.response, dict) and (c.json or {}).get("type") != 7]
        ids = dict.fromkeys(int(m["id"]) for m in found if "channel_id" in m)
        return [SentMessage(self.server, i) for i in ids]

    def button(self, label: Optional[str] = None, custom_id: Optional[str] = None) -> tuple[SentMessage, dict]:
        """(message, button) for the newest of this reply's messages holding such a button."""
        return self._find(lambda m: m.button(label, custom_id), label or custom_id)

    def select(self, custom_id: Optional[str] = None, placeholder: Optional[str] = None) -> tuple[SentMessage, dict]:
        """(message, select) for the newest of this reply's messages holding such a select."""
        return self._find(lambda m: m.select(custom_id, placeholder), custom_id or placeholder)

    def _find(self, lookup, what):
        for m in reversed(self.messages):
            try:
                return m, lookup(m)
            except LookupError:
                pass
        raise LookupError(f"no component {what!r} in {self.messages}")


def _text_matches(wanted: Any, shown: Optional[str]) -> bool:
    """A label or placeholder compared exactly, or by a matcher with ``matches(text)`` (a catalog key in tests)."""
    return wanted.matches(shown) if hasattr(wanted, "matches") else shown == wanted


class FakeGateway:
    """Stands in for ``bot.ws`` (there is no websocket): presence changes are recorded, nothing is sent."""

    open, latency = False, 0.0

    def __init__(self) -> None:
        self.presences: list[dict] = []

    async def change_presence(self, *, activity=None, status=None, since: float = 0.0) -> None:
        self.presences.append({"activity": activity, "status": status})

    def is_ratelimited(self) -> bool:
        return False


class FakeResponse:
    """Just enough of ``aiohttp.ClientResponse`` for ``discord.http.json_or_text`` and ``HTTPException``."""

    def __init__(self, status: int, body: Any):
        self.status, self.reason = status, {200: "OK", 204: "No Content"}.get(status, "Error")
        self._text = "" if body is None else json.dumps(body)
        # case-insensitive, as aiohttp's: discord.py reads "X-Ratelimit-…", Discord sends "X-RateLimit-…"
        self.headers = CIMultiDict({"content-type": "application/json"} if body is not None else {})

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        return None


class FakeSession:
    """Stands in for the ``aiohttp.ClientSession``; every request goes to :meth:`FakeDiscord.handle`. Like
    aiohttp's session it tells its ``trace_configs`` (discord.py's ``http_trace``) of each request's end, with the
    response, or of its exception (a broken connection)."""

    closed = False

    def __init__(self, server: "FakeDiscord", trace_configs: list[aiohttp.TraceConfig] | None = None):
        self.server = server
        self.trace_configs = list(trace_configs or [])
        for config in self.trace_configs:
            config.freeze()  # as aiohttp.ClientSession does with its trace_configs

    def request(self, method: str, url: str, *, data=None, params=None, **_: Any):
        traces = [Trace(self, config, config.trace_config_ctx()) for config in self.trace_configs]  # type: ignore[arg-type]
        return _Pending(self.server, method, url, data, params, traces)

    async def ws_connect(self, *_: Any, **__: Any):
        raise RuntimeError("the Discord test harness has no gateway: feed events with harness.dispatch()")

    async def close(self) -> None:
        self.closed = True


def use_fake_session(http, server: "FakeDiscord") -> None:
    """Make ``http`` (a client's ``HTTPClient``) log in on :class:`FakeSession` instead of a real aiohttp session:
    ``HTTPClient.static_login`` minus the session it would create."""
    session = FakeSession(server, [http.http_trace] if http.http_trace is not None else None)

    async def static_login(token: str) -> dict:
        http._HTTPClient__session, http.token = session, token
        http._global_over = asyncio.Event()
        http._global_over.set()
        try:
            return await http.request(Route("GET", "/users/@me"))
        except HTTPException as exc:
            if exc.status == 401:  # as the real static_login
                raise LoginFailure("Improper token has been passed.") from exc
            raise

    http.static_login = static_login


class _Pending:
    def __init__(self, server, method, url, data, params, traces=()):
        self.args = server, method, url, data, params
        self.traces = traces

    async def __aenter__(self) -> FakeResponse:
        began = time.thread_time()
        server, method, url, data, params = self.args
        body, files = await _decode_body(data)
        path = re.sub(r"^/api/v\d+", "", urlsplit(url).path)
        call = Call(method, path, {k: str(v) for k, v in (params or {}).items()}, body, files)
        try:
            response = await server.respond(call)
        except Exception as error:
            for trace in self.traces:
                await trace.send_request_exception(method, URL(url), CIMultiDict(), error)
            raise
        finally:  # (a fault's latency or a dead process would add other tasks' time: benches run without them)
            call.edge_cpu = time.thread_time() - began
        for trace in self.traces:
            await trace.send_request_end(method, URL(url), CIMultiDict(), response)  # type: ignore[arg-type]
        return response

    async def __aexit__(self, *exc) -> None:
        return None


async def _decode_body(data) -> tuple[Any, dict[str, bytes]]:
    """JSON string → object; aiohttp.FormData → (payload_json, {filename: bytes}) by really encoding the form."""
    if data is None:
        return None, {}
    if isinstance(data, (str, bytes)):
        return json.loads(data), {}
    writer = data()
    raw = await writer.as_bytes() if hasattr(writer, "as_bytes") else await _write_all(writer)
    head = f"Content-Type: {writer.headers['Content-Type']}\r\n\r\n".encode()
    msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + raw)
    body, files = None, {}
    for part in msg.iter_parts():
        if part.get_param("name", header="content-disposition") == "payload_json":
            body = json.loads(part.get_payload(decode=True))
        else:
            files[part.get_filename()] = part.get_payload(decode=True)
    return body, files


async def _write_all(writer) -> bytes:
    chunks: list[bytes] = []

    class _Sink:
        async def write(self, chunk: bytes) -> None:
            chunks.append(bytes(chunk))

    await writer.write(_Sink())
    return b"".join(chunks)
