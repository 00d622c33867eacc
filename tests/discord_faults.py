"""Discord's behaviour beyond validation, for the harness's fake edge (``harness.server.faults``): rate limits
with Discord's real headers, the 3-second first-answer deadline, 15-minute interaction tokens, slow answers, and
failures tests inject — an error answer, a timeout, a reset connection, or a 502 after Discord already stored what
was sent (so the library sends it again).

Off by default except the headers; tests switch on what they need::

    h.server.faults.rate_limits = True             # per route, 5 messages / 5 s per channel, global 50 / s
    h.server.faults.deadlines = True               # callbacks after 3 s → 10062, webhooks after 15 min → 50027
    h.server.faults.latency = 2.0                  # every answer arrives 2 s after the request
    h.server.faults.fail("PATCH", r"/channels/\\d+/messages/\\d+", status=503, times=2)
    h.server.faults.fail("POST", r"/channels/\\d+/messages", status=502, after=True)   # stored, then 502
    h.server.faults.fail("POST", ..., error=TIMEOUT)   # or RESET
"""
from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Optional

import aiohttp

from bot.discord_rules.limits import CALLBACK_DEADLINE, TOKEN_LIFETIME  # Discord's, named once

if TYPE_CHECKING:
    from .discord_harness_http import Call, FakeResponse
    from .discord_harness_server import FakeDiscord

TIMEOUT, RESET = "timeout", "reset"
CHANNEL_MESSAGES = (5, 5.0)  # messages per channel per window (Discord's documented per-channel limit)
ROUTE_LIMIT = (50, 1.0)  # any other route, per major parameter
GLOBAL_LIMIT = (50, 1.0)  # requests per second across all routes
CODES = {400: 50035, 403: 50013, 404: 10008, 429: 0, 500: 0, 502: 0, 503: 0, 504: 0}
MESSAGES = {50013: "Missing Permissions", 50001: "Missing Access", 10008: "Unknown Message",
            10003: "Unknown Channel", 50083: "Thread is archived", 0: "Server error"}


@dataclass
class Fault:
    method: str
    path: re.Pattern
    status: int = 503
    code: Optional[int] = None
    error: Optional[str] = None  # TIMEOUT or RESET instead of an answer
    after: bool = False  # Discord processed the request before failing
    times: Optional[int] = 1  # None: until removed
    retry_after: float = 0.0  # for 429
    every: int = 1  # fail only every n-th matching request (the others pass untouched)
    hits: int = 0
    seen: int = 0

    def matches(self, call: "Call") -> bool:
        return self.method == call.method and bool(self.path.fullmatch(call.path))


@dataclass
class _Window:
    limit: int
    period: float
    used: list[float] = field(default_factory=list)

    def take(self, now: float) -> Optional[float]:
        """None when allowed (and counted); else seconds until it is."""
        self.used = [t for t in self.used if now - t < self.period]
        if len(self.used) >= self.limit:
            return self.period - (now - self.used[0])
        self.used.append(now)
        return None

    def headers(self, bucket: str, now: float) -> dict[str, str]:
        reset_after = self.period - (now - self.used[0]) if self.used else self.period
        return {"X-RateLimit-Limit": str(self.limit), "X-RateLimit-Remaining": str(max(0, self.limit - len(self.used))),
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": bucket}


class Faults:
    def __init__(self) -> None:
        self.faults: list[Fault] = []
        self.rate_limits = False
        self.deadlines = False
        self.latency = 0.0
        self.limited: list[tuple[str, str, float]] = []  # (route, scope, retry_after) of every 429 sent
        self._windows: dict[str, _Window] = {}
        self._global = _Window(*GLOBAL_LIMIT)
        self.dying: Optional[tuple[Callable[["Call"], bool], bool, asyncio.Event]] = None
        self.dead = False  # the bot's process died (``die_at``)
        self.clock: Callable[[], float] = time.monotonic  # what interaction tokens' ages are counted on
        self.refused_tokens: set[str] = set()  # tokens Discord refuses within their 15 minutes (``refuse_token``)
        self._told_refused: set[str] = set()  # ... and those it already refused once (the bot knows then)

    def fail(self, method: str, path: str, *, status: int = 503, code: Optional[int] = None,
             error: Optional[str] = None, after: bool = False, times: Optional[int] = 1,
             retry_after: float = 0.0, every: int = 1) -> Fault:
        fault = Fault(method, re.compile(path), status, code, error, after, times, retry_after, every)
        self.faults.append(fault)
        return fault

    def clear(self) -> None:
        self.faults.clear()

    def die_at(self, pick: Callable[["Call"], bool], *, after: bool = False) -> asyncio.Event:
        """The bot's process dies at the first request ``pick`` chooses: before Discord sees it, or (``after``)
        once Discord has processed it, before the answer comes back. That request never returns; the event is set
        then, and the test abandons the bot (``Harness.abandon``) as the kernel would."""
        died = asyncio.Event()
        self.dying = (pick, after, died)
        return died

    def _take_fault(self, call: "Call") -> Optional[Fault]:
        for fault in self.faults:
            if fault.matches(call) and (fault.times is None or fault.hits < fault.times):
                fault.seen += 1
                if fault.seen % fault.every:
                    continue
                fault.hits += 1
                return fault
        return None

    # ---- the edge ------------------------------------------------------------------------
    async def respond(self, call: "Call", server: "FakeDiscord") -> "FakeResponse":
        from .discord_harness_http import FakeResponse as make

        if self.dead:  # a dead process sends nothing more (its tasks run on only until the test abandons it)
            await asyncio.Event().wait()
        if self.dying is not None and self.dying[0](call):
            _, after, died = self.dying
            self.dying, self.dead = None, True
            if after:
                server.handle(call)
            else:
                server.record(call)
            died.set()
            await asyncio.Event().wait()  # the process is dead: no answer ever comes back
        try:
            return await self._respond(call, server, make)
        finally:
            if self.latency:  # the request reached Discord at once; its answer takes this long to come back
                await asyncio.sleep(self.latency)

    async def _respond(self, call: "Call", server: "FakeDiscord", make) -> "FakeResponse":
        limited = self._rate_limit(call, make) or self._expired(call, server, make)
        fault = None if limited else self._take_fault(call)
        if limited is not None or (fault is not None and not fault.after):
            server.record(call)
            response = limited or self._inject(call, fault, make)
            call.status = response.status
            return response
        response = server.handle(call)
        if fault is not None:  # processed, then lost on the way back
            return self._inject(call, fault, make)
        bucket = self._window_of(call)
        if bucket is not None:
            response.headers.update(bucket[1].headers(bucket[0], time.monotonic()))
        return response

    def _inject(self, call: "Call", fault: Fault, make: Callable[[int, Any], "FakeResponse"]) -> "FakeResponse":
        if fault.error == TIMEOUT:
            raise aiohttp.ServerTimeoutError(f"harness: {call.method} {call.path} timed out")
        if fault.error == RESET:
            raise aiohttp.ClientOSError(104, "Connection reset by peer")
        code = fault.code if fault.code is not None else CODES.get(fault.status, 0)
        if fault.status == 429:
            return self._too_many(call, "user", fault.retry_after, make)
        return make(fault.status, {"message": MESSAGES.get(code, "Error"), "code": code})

    def _window_of(self, call: "Call") -> Optional[tuple[str, _Window]]:
        match = re.fullmatch(r"/(channels|webhooks|interactions|guilds)/(\d+)(/.*)?", call.path)
        if match is None:
            return None
        is_post = call.method == "POST" and re.fullmatch(r"/channels/\d+/messages", call.path)
        rest = re.sub(r"/\d+", "/{id}", match.group(3) or "")
        route = "messages" if is_post else f"{call.method} {rest}"
        key = f"{match.group(1)}:{match.group(2)}:{route}"
        if key not in self._windows:
            self._windows[key] = _Window(*(CHANNEL_MESSAGES if is_post else ROUTE_LIMIT))
        return f"{abs(hash(route)):x}", self._windows[key]

    def _rate_limit(self, call: "Call", make) -> Optional["FakeResponse"]:
        if not self.rate_limits or call.path.startswith("/interactions/"):  # callbacks are not rate limited
            return None
        now = time.monotonic()
        wait = self._global.take(now)
        if wait is not None:
            return self._too_many(call, "global", wait, make)
        bucket = self._window_of(call)
        if bucket is not None:
            wait = bucket[1].take(now)
            if wait is not None:
                response = self._too_many(call, "user", wait, make)
                response.headers.update(bucket[1].headers(bucket[0], now))
                return response
        return None

    def _too_many(self, call: "Call", scope: str, retry_after: float, make) -> "FakeResponse":
        call.route = f"429 {call.method} {call.path}"
        self.limited.append((call.path, scope, retry_after))
        response = make(429, {"message": "You are being rate limited.", "retry_after": round(retry_after, 3),
                              "global": scope == "global", "code": 0})
        response.headers.update({"Retry-After": str(max(1, round(retry_after))), "X-RateLimit-Scope": scope,
                                 "Via": "1.1 google"})
        if scope == "global":
            response.headers["X-RateLimit-Global"] = "true"
        return response

    # ---- interaction deadlines -------------------------------------------------------------
    def too_late(self, created: float, *, callback: bool = True) -> Optional[tuple[int, dict]]:
        """Discord's answer to a callback after 3 s (10062)."""
        if self.deadlines and self.clock() - created > CALLBACK_DEADLINE:
            return 404, {"message": "Unknown interaction", "code": 10062}
        return None

    def _expired(self, call: "Call", server: "FakeDiscord", make) -> Optional["FakeResponse"]:
        """A followup or an edit with an interaction token older than 15 minutes: 401, code 50027."""
        match = re.fullmatch(r"/webhooks/\d+/([^/]+)(/.*)?", call.path)
        reply = server.replies.get(match.group(1)) if match else None
        if reply is not None and reply.token in self.refused_tokens:
            return self._refused_token(call, reply, make)
        if reply is None or not (self.deadlines or server.is_private(reply.channel_id)):
            return None  # (outside a server the token is all the bot has: its expiry is always on)
        if self.clock() - reply.created <= TOKEN_LIFETIME:
            return None
        body = {"message": "Invalid Webhook Token", "code": 50027}
        if server.is_private(reply.channel_id):
            call.refused, call.response = True, body  # the bot writes there only with a live token: it should know
        return make(401, body)

    # ---- refused tokens ------------------------------------------------------------------------
    def refuse_token(self, token: str) -> None:
        """From now on Discord refuses this interaction token, as it sometimes does within the token's 15 minutes
        (discord/discord-api-docs issues #6851 and #7220): every followup, edit, read or delete with it answers 404
        10015 Unknown Webhook while the 15 minutes last, and 401 50027 Invalid Webhook Token after them."""
        self.refused_tokens.add(token)

    def _refused_token(self, call: "Call", reply: Any, make) -> "FakeResponse":
        """A request with a refused token: the first is Discord's surprise, any later one the bot's error (it was
        told)."""
        if self.clock() - reply.created <= TOKEN_LIFETIME:
            status, body = 404, {"message": "Unknown Webhook", "code": 10015}
        else:
            status, body = 401, {"message": "Invalid Webhook Token", "code": 50027}
        call.refused = reply.token in self._told_refused
        self._told_refused.add(reply.token)
        call.status, call.response = status, body
        return make(status, body)


Responder = Callable[["Call"], Awaitable["FakeResponse"]]
