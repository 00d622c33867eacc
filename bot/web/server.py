"""The bot's small web side (issue 56): an ``aiohttp.web`` server inside the bot's own event loop, started in its
set-up and stopped when it closes, off unless ``WEB_BASE_URL`` is set. It serves

- ``/r/<token>/<step>``: a finished game's replay page at that step (``bot.web.page``), and its board picture at
  ``/r/<token>/<step>/board.png``; a token that opens nothing answers the same 404 as any unknown address;
- ``/static/…``: the page's one style sheet and one script (no third-party asset anywhere);
- ``/healthz`` and ``/metrics`` for the operator (``bot.web.operator``), on the public port or on their own.

Every answer carries ``Referrer-Policy: no-referrer`` (a token never leaves in a Referer), a strict
Content-Security-Policy (only this site's own style sheet, script and pictures), ``X-Robots-Tag: noindex`` and no
caching of pages; the token routes are rate-limited per visitor's address (``bot.web.limits``). Nothing logs a
request's address or path (no access log: a path holds a token)."""
from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any, Awaitable, Callable
from urllib.parse import urlsplit

from aiohttp import web
from jinja2 import Environment, PackageLoader, StrictUndefined

from ..errors import HostError, user_message
from ..i18n import LANGUAGES, t
from .limits import LOCAL_PROXIES, AddressLimits, Proxies, visitor
from .page import Link, Opened, board_picture, replay_page, step_href
from .source import ReplaySource

log = logging.getLogger(__name__)

CSP = ("default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; base-uri 'none'; "
       "form-action 'none'; frame-ancestors 'none'")
HEADERS = {
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Robots-Tag": "noindex, nofollow",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    "Server": "gamehost",
}
STEP_DIGITS = 9  # a step number longer than this is past the end of any game (and never parsed)
PICTURES_KEPT = 64  # board pictures kept drawn (a step's picture is drawn once however often it is shown)
DRAWING_AT_ONCE = 2  # pages and pictures drawn at once, off the event loop (the bot's tables come first)
STATIC = {"replay.css": "text/css", "replay.js": "text/javascript", "icon.svg": "image/svg+xml"}
TOKEN_ROUTES = "/r/"
PICTURE = "/board.png"
UNAVAILABLE_RETRY = 30  # seconds a visitor is told to wait when the database fails
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class WebConfig:
    base_url: str  # the site's address as visitors open it (links and previews)
    host: str = "127.0.0.1"
    port: int = 8080
    operator_port: int | None = None  # /healthz and /metrics only there (None: on the public port)
    trusted_proxies: Proxies = LOCAL_PROXIES

    @property
    def prefix(self) -> str:
        """The path the site lives under (``https://example.org/games``: ``/games``), as the proxy passes it on:
        every page, picture and file is served and linked under it."""
        return urlsplit(self.base_url).path.rstrip("/")

    @property
    def origin(self) -> str:
        """``scheme://host[:port]`` of the base address (previews need absolute addresses of pictures)."""
        parts = urlsplit(self.base_url)
        return f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""


class WebServer:
    def __init__(self, config: WebConfig, source: ReplaySource, operator: web.RouteTableDef | None = None,
                 limits: AddressLimits | None = None) -> None:
        self.config, self.source, self.operator = config, source, operator
        self.limits = limits if limits is not None else AddressLimits()
        self.templates = Environment(loader=PackageLoader("bot.web", "templates"), autoescape=True,
                                     undefined=StrictUndefined, auto_reload=False)
        self.static = {name: (resources.files("bot.web").joinpath("static", name).read_bytes(), kind)
                       for name, kind in STATIC.items()}
        self.static_urls = {
            name.split(".")[-1]: f"{config.prefix}/static/{name}?v={hashlib.sha256(data).hexdigest()[:12]}"
            for name, (data, _) in self.static.items()}
        self._pictures: OrderedDict[tuple[int, int, str], bytes] = OrderedDict()
        self._drawing = asyncio.Semaphore(DRAWING_AT_ONCE)
        self._runners: list[web.AppRunner] = []
        self.ports: list[int] = []  # the ports bound, public first (a configured 0 becomes the one chosen)

    # ---- the application -------------------------------------------------------------
    def app(self, *, public: bool = True, operator: bool = True) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=1024)
        app.on_response_prepare.append(_secure)
        if public:
            prefix = self.config.prefix
            app.router.add_get(prefix + r"/r/{key}", self._page)
            app.router.add_get(prefix + r"/r/{key}/{step:[0-9]+}", self._page)
            app.router.add_get(prefix + r"/r/{key}/{step:[0-9]+}" + PICTURE, self._picture)
            app.router.add_get(prefix + r"/static/{name}", self._static)
            app.router.add_get(r"/favicon.ico", self._icon)  # browsers ask for it whatever the page says
        if operator and self.operator is not None:
            app.router.add_routes(self.operator)
        return app

    async def start(self) -> None:
        apart = self.config.operator_port is not None and self.operator is not None
        sites = [(self.app(operator=not apart), self.config.port)]
        if apart:
            sites.append((self.app(public=False), self.config.operator_port or 0))
        for app, port in sites:
            runner = web.AppRunner(app, access_log=None, handle_signals=False)
            await runner.setup()
            self._runners.append(runner)
            site = web.TCPSite(runner, self.config.host, port)
            await site.start()
            self.ports.append(int(runner.addresses[-1][1]))  # the port bound (a configured 0: the one chosen)
        log.info("web side listening on %s port %s", self.config.host, ", ".join(map(str, self.ports)))

    async def stop(self) -> None:
        for runner in reversed(self._runners):
            await runner.cleanup()
        self._runners.clear()

    # ---- every request -----------------------------------------------------------------
    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The token routes' rate limit; any unknown address, method or token: the one 404."""
        if request.path.startswith(self.config.prefix + TOKEN_ROUTES):
            key, step = request.match_info.get("key", ""), _step_text(request)
            wait = self.limits.take(visitor(request.remote, request.headers.getall("X-Forwarded-For", []),
                                            self.config.trusted_proxies),
                                    step=f"{key}/{step}" if key else "", picture=request.path.endswith(PICTURE))
            if wait > 0:
                return self.too_many(request, key, step, max(1, round(wait)))
        try:
            return await handler(request)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            return self.not_found(request)
        except web.HTTPException:
            raise
        except Exception as error:  # a fault of ours: our own page, nothing internal told (the log has it)
            log.error("a web request failed (%s)", type(error).__name__, exc_info=error)
            return self._message(500, request, [t("web.failed", code) for code in _languages(request)])

    def too_many(self, request: web.Request, key: str, step: str, seconds: int) -> web.Response:
        """In both languages (nothing was looked up, so the game's language is not known), with the way back: the
        step asked for again (→), the one before (←), the first (Home), in the language the page was read in."""
        lang, links = _lang(request), []
        if key and len(step) <= STEP_DIGITS:
            base, number = f"{self.config.prefix}{TOKEN_ROUTES}{key}", int(step)
            links.append(Link(t("web.try_again", lang, step=number), f"{base}/{number}?lang={lang}", rel="next"))
            if number > 0:
                links.append(Link(t("web.back_to", lang, step=number - 1), f"{base}/{number - 1}?lang={lang}",
                                  rel="prev"))
            links.append(Link(t("web.step.first", lang), f"{base}/0?lang={lang}", rel="first"))
        return self._message(429, request, [t("web.too_many", code, seconds=seconds) for code in LANGUAGES],
                             links=links, keys=t("web.keys_again", lang) if links else "",
                             headers={"Retry-After": str(seconds)})

    def not_found(self, request: web.Request) -> web.Response:
        """The same answer for every address that is not a page: nothing says whether a token ever existed."""
        return self._message(404, request, [t("web.not_found", code) for code in LANGUAGES])

    def _message(self, status: int, request: web.Request, lines: list[str], links: list[Link] | None = None,
                 keys: str = "", headers: dict[str, str] | None = None) -> web.Response:
        lang = _lang(request)
        body = self.templates.get_template("message.html").render(
            lang=lang, title=lines[0], lines=lines, links=links or [], keys=keys, static=self.static_urls)
        return web.Response(status=status, text=body, content_type="text/html", headers=headers)

    # ---- the pages ---------------------------------------------------------------------
    async def _opened(self, request: web.Request) -> tuple[Opened, int] | web.Response:
        try:
            opened = await self.source.open(request.match_info["key"])
        except HostError as error:  # a stored game that does not replay exactly: said, never shown wrong
            return self._message(409, request, [user_message(error, _lang(request))])
        except Exception as error:  # the database failed: nothing internal is told, the operator's log says what
            log.error("a replay page could not be read from the database (%s)", type(error).__name__)
            return self._message(503, request, [t("web.unavailable", code) for code in _languages(request)],
                                 headers={"Retry-After": str(UNAVAILABLE_RETRY)})
        if opened is None:
            return self.not_found(request)
        opened = replace(opened, base=self.config.prefix + opened.base)  # the page's links, under the site's path
        text = _step_text(request)
        last = len(opened.replay) - 1
        step = int(text) if len(text) <= STEP_DIGITS else last + 1
        if step > last:
            lang = _lang(request, opened.lang)
            line = (t("web.no_step", lang, step=step, last=last) if len(text) <= STEP_DIGITS
                    else t("web.no_such_step", lang, last=last))
            return self._message(404, request, [line], [Link(t("web.to_last", lang, last=last),
                                                              step_href(opened, last, lang))])
        return opened, step

    async def _page(self, request: web.Request) -> web.StreamResponse:
        found = await self._opened(request)
        if isinstance(found, web.Response):
            return found
        opened, step = found
        async with self._drawing:
            body = await asyncio.to_thread(self.render_page, opened, step, _lang(request, opened.lang))
        return web.Response(text=body, content_type="text/html", headers={"Cache-Control": "no-store"})

    def render_page(self, opened: Opened, step: int, lang: str) -> str:
        """The page's HTML (CPU work: run off the event loop)."""
        page = replay_page(opened, step, lang, self.config.origin)
        return self.templates.get_template("replay.html").render(page=page, lang=page.lang, title=page.title,
                                                                 static=self.static_urls)

    async def _picture(self, request: web.Request) -> web.StreamResponse:
        found = await self._opened(request)
        if isinstance(found, web.Response):
            return found
        opened, step = found
        lang = _lang(request, opened.lang)
        key = (opened.replay.record.table, step, lang)
        picture = self._pictures.get(key)
        if picture is None:
            async with self._drawing:
                drawn = await asyncio.to_thread(board_picture, opened, step, lang)
            if drawn is None:
                return self.not_found(request)
            picture = self._keep_picture(key, drawn)
        self._pictures.move_to_end(key)
        return web.Response(body=picture, content_type="image/png",
                            headers={"Cache-Control": "private, max-age=300"})

    def _keep_picture(self, key: tuple[int, int, str], picture: bytes) -> bytes:
        self._pictures[key] = picture
        while len(self._pictures) > PICTURES_KEPT:
            self._pictures.popitem(last=False)
        return picture

    async def _icon(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(self.static_urls["svg"])

    async def _static(self, request: web.Request) -> web.StreamResponse:
        found = self.static.get(request.match_info["name"])
        if found is None:
            return self.not_found(request)
        data, kind = found
        return web.Response(body=data, content_type=kind, headers={"Cache-Control": "public, max-age=86400"})


def _step_text(request: web.Request) -> str:
    return request.match_info.get("step", "0").lstrip("0") or "0"  # 007 is step 7


def _languages(request: web.Request) -> tuple[str, ...]:
    """The languages of a page that could not look the game up: the one asked for (``?lang=``, which every link
    of a page carries), else both."""
    asked = request.query.get("lang", "")
    return (asked,) if asked in LANGUAGES else LANGUAGES


def _lang(request: web.Request, default: str = "en") -> str:
    asked = request.query.get("lang", "")
    return asked if asked in LANGUAGES else default


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(HEADERS)
    response.headers.setdefault("Cache-Control", "no-store")


def config_of(settings: Any) -> WebConfig:
    """The web side's configuration from the bot's settings (``bot.settings.Settings``)."""
    operator = settings.web_operator_port
    if operator and operator == settings.web_port:  # the same port: the same server (0 is a free one each)
        operator = None
    return WebConfig(base_url=(settings.web_base_url or "").strip(), host=settings.web_host, port=settings.web_port,
                     operator_port=operator, trusted_proxies=settings.trusted_proxies())
