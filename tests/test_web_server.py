"""The web side's server (issue 56, items 1, 2 and 6): the real ``aiohttp`` server on a free port of 127.0.0.1,
asked over HTTP. Every answer carries the security headers; every token that opens nothing — forged, truncated,
revoked, of a running game, of a server whose links are off — gets the very same 404 as an unknown address; huge
step numbers are refused with the game's range; names people typed (HTML, markdown, mentions) are shown as text;
the token routes are rate-limited per visitor's address, read through a trusted proxy only."""
from __future__ import annotations

import re
import time
from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.i18n import LANGUAGES, t
from bot.service import GameService
from bot.shares import issue
from bot.web.limits import AddressLimits, Proxies, visitor
from bot.web.server import CSP
from bot.web.source import StoredReplays

from .discord_helpers import Key, says
from .web_helpers import HOSTILE_NAME, fetch, finished_table, served, sqlite_service


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    """One backend here: what these tests look at is the web side (storage: tests/test_web_shares.py)."""
    async with sqlite_service(tmp_path / "games.db") as it:
        yield it

SECURITY = {"Referrer-Policy": "no-referrer", "Content-Security-Policy": CSP, "X-Robots-Tag": "noindex, nofollow",
            "X-Content-Type-Options": "nosniff"}


def secured(headers: dict[str, str]) -> bool:
    return all(headers.get(name) == value for name, value in SECURITY.items())


def text(body: bytes) -> str:
    return body.decode()


async def test_a_link_opens_its_game_step_by_step_with_the_security_headers(service: GameService) -> None:
    table = await finished_table(service, "twinpyramid", players=3)
    token = await issue(service.storage, table.id, None, 1, days=90)
    async with served(StoredReplays(service.storage)) as site:
        status, headers, body = await fetch(f"{site}/r/{token}")
        assert status == 200 and secured(headers) and headers["Cache-Control"] == "no-store"
        page = text(body)
        last = len(table.log) if hasattr(table, "log") else int(re.search(r"step 0/(\d+)", page).group(1))
        assert f"/r/{token}/1?lang=en" in page and 'rel="next"' in page and 'rel="prev"' not in page
        status, headers, picture = await fetch(f"{site}/r/{token}/1/board.png")
        assert status == 200 and headers["Content-Type"] == "image/png" and picture.startswith(b"\x89PNG")
        assert secured(headers)
        status, _, body = await fetch(f"{site}/r/{token}/{last}?lang=ja")
        assert status == 200 and 'lang="ja"' in text(body) and 'rel="next"' not in text(body)
        for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', text(body)):
            status, headers, _ = await fetch(f"{site}{asset}")
            assert status == 200 and secured(headers)
        # nothing third-party: every address the page names is this site's own
        assert not re.findall(r'(?:href|src)="(?!/)[^"]*"', text(body))


async def test_every_token_that_opens_nothing_gets_the_same_404(service: GameService) -> None:
    storage = service.storage
    table = await finished_table(service, "akuma", guild_id=321)
    good = await issue(storage, table.id, None, 1, days=90)
    revoked = await issue(storage, table.id, None, 2, days=90)
    await storage.revoke_shares(table.id, time.time(), created_by=2)
    running = await service.create_bot_table(game="rocca", players=2, seed=4, channel_id=1, guild_id=321)
    early = await issue(storage, running.id, None, 1, days=90)
    other = await finished_table(service, "pileup", guild_id=654)
    switched_off = await issue(storage, other.id, 0, 1, days=90)
    await storage.set_guild_web_links(654, False)
    hostile = {"unknown address": "/nothing-here", "forged": "/r/" + "A" * 43, "truncated": f"/r/{good[:20]}",
               "too long": f"/r/{good}x", "revoked": f"/r/{revoked}", "running game": f"/r/{early}",
               "links off": f"/r/{switched_off}", "links off, picture": f"/r/{switched_off}/0/board.png",
               "traversal": "/r/..%2F..%2Fetc%2Fpasswd", "static traversal": "/static/..%2Fserver.py",
               "unknown static": "/static/other.js", "post": None}
    async with served(StoredReplays(storage)) as site:
        status, _, reference = await fetch(f"{site}/nothing-here")
        assert status == 404
        answers = {}
        for what, path in hostile.items():
            if path is None:
                import aiohttp
                async with aiohttp.ClientSession() as session, session.post(f"{site}/r/{good}") as response:
                    answers[what] = (response.status, await response.read(), secured(dict(response.headers)))
                continue
            status, headers, body = await fetch(f"{site}{path}")
            answers[what] = (status, body, secured(headers))
        assert {what: answer for what, answer in answers.items() if answer != (404, reference, True)} == {}
        assert (await fetch(f"{site}/r/{good}"))[0] == 200  # the good link still opens


async def test_huge_and_past_the_end_steps_are_refused_with_the_games_range(service: GameService) -> None:
    table = await finished_table(service, "diamondbox")
    token = await issue(service.storage, table.id, None, 1, days=90)
    async with served(StoredReplays(service.storage)) as site:
        _, _, first = await fetch(f"{site}/r/{token}/0")
        last = int(re.search(r"step 0/(\d+)", text(first)).group(1))
        for step in (str(last + 1), "999999999", "9" * 5000, "0" * 30 + "1" + "0" * 10):
            status, headers, body = await fetch(f"{site}/r/{token}/{step}")
            assert status == 404 and secured(headers), step
            assert f"/r/{token}/{last}?lang=en" in text(body) and len(body) < 2000  # where the game ends
            said = text(body).replace("&#39;", "'")
            assert (says(said, "web.no_step", step=int(step), last=last) if len(step.lstrip("0")) <= 9
                    else says(said, "web.no_such_step", last=last)), step  # never a number it was not given
        for bad in ("-1", "1e3", "0x10", "１"):
            status, _, _ = await fetch(f"{site}/r/{token}/{bad}")
            assert status == 404, bad
        assert (await fetch(f"{site}/r/{token}/{last}"))[0] == 200
        assert (await fetch(f"{site}/r/{token}/00"))[0] == 200  # leading zeros: step 0
        status, _, body = await fetch(f"{site}/r/{token}/{'0' * 40}3")
        assert status == 200 and "step 3/" in text(body)  # however many, the step they lead


async def test_names_people_typed_are_shown_literally(service: GameService) -> None:
    names = [HOSTILE_NAME, "</p><script>alert(2)</script>", "Ann & <Bob>"]
    table = await finished_table(service, "pileup", players=3, names=names)
    token = await issue(service.storage, table.id, 0, 1, days=90)
    async with served(StoredReplays(service.storage)) as site:
        _, _, first = await fetch(f"{site}/r/{token}/0")
        last = int(re.search(r"step 0/(\d+)", text(first)).group(1))
        for step in (0, 1, last):
            _, _, body = await fetch(f"{site}/r/{token}/{step}")
            page = text(body)
            assert "<img src=x" not in page and "<script>alert" not in page and "<Bob>" not in page
            assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;**bold** `code` @everyone" in page
            assert "&lt;/p&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in page and "Ann &amp; &lt;Bob&gt;" in page
            assert page.count("<script") == 1  # the site's own script, nothing else


async def test_the_rate_limit_counts_each_visitor_and_believes_only_trusted_proxies(service: GameService) -> None:
    table = await finished_table(service, "akuma")
    token = await issue(service.storage, table.id, None, 1, days=90)
    limits = AddressLimits(burst=5, per_second=0.001)
    async with served(StoredReplays(service.storage), limits=limits) as site:
        statuses = [(await fetch(f"{site}/r/{token}/0"))[0] for _ in range(7)]
        assert statuses == [200] * 5 + [429] * 2
        status, headers, body = await fetch(f"{site}/r/{token}/0")
        assert status == 429 and int(headers["Retry-After"]) >= 1 and secured(headers)
        assert says(text(body).replace("&#39;", "'"), "web.too_many", seconds=int(headers["Retry-After"]))
        assert (await fetch(f"{site}/static/replay.css"))[0] == 200  # not a token route
        # through the proxy (127.0.0.1 is trusted here) each visitor has their own bucket, forged hops aside
        away = {"X-Forwarded-For": "198.51.100.7"}
        assert (await fetch(f"{site}/r/{token}/0", away))[0] == 200
        forged = {"X-Forwarded-For": "203.0.113.9, 198.51.100.8"}  # the visitor wrote the first hop
        assert (await fetch(f"{site}/r/{token}/0", forged))[0] == 200
        assert "198.51.100.8" in limits._buckets and "203.0.113.9" not in limits._buckets
    untrusting = AddressLimits(burst=2, per_second=0.001)
    async with served(StoredReplays(service.storage), limits=untrusting, trusted=Proxies()) as site:
        hops = [{"X-Forwarded-For": f"198.51.100.{i}"} for i in range(4)]
        assert [(await fetch(f"{site}/r/{token}/0", h))[0] for h in hops] == [200, 200, 429, 429]


async def test_trusted_proxies_may_be_a_range(service: GameService) -> None:
    """``WEB_TRUSTED_PROXIES=127.0.0.0/8``: a proxy at 127.0.0.2 (Docker's 172.17.0.1, another host…) is believed,
    so each visitor it names has their own allowance; a peer outside the range is not believed."""
    table = await finished_table(service, "akuma")
    token = await issue(service.storage, table.id, None, 1, days=90)
    limits = AddressLimits(burst=2, per_second=0.001)
    async with served(StoredReplays(service.storage), limits=limits, trusted=Proxies.parse("127.0.0.0/8")) as site:
        visitors = [{"X-Forwarded-For": f"198.51.100.{i}"} for i in range(5)]
        assert [(await fetch(f"{site}/r/{token}/0", v, source="127.0.0.2"))[0] for v in visitors] == [200] * 5
        assert "127.0.0.2" not in limits._buckets and "198.51.100.4" in limits._buckets
    untrusted = AddressLimits(burst=2, per_second=0.001)
    async with served(StoredReplays(service.storage), limits=untrusted, trusted=Proxies.parse("10.0.0.0/8")) as site:
        statuses = [(await fetch(f"{site}/r/{token}/0", v, source="127.0.0.2"))[0] for v in visitors]
        assert statuses == [200, 200, 429, 429, 429] and list(untrusted._buckets) == ["127.0.0.2"]


def test_trusted_proxies_that_are_no_address_are_refused_naming_the_setting() -> None:
    from pydantic import ValidationError

    from bot.settings import Settings

    for wrong in ("not-an-ip", "127.0.0.1, 10.0.0.0/33", "localhost", "127.0.0.1;::1"):
        with pytest.raises(ValidationError, match="WEB_TRUSTED_PROXIES entry"):
            Settings(_env_file=None, web_trusted_proxies=wrong)
    proxies = Settings(_env_file=None, web_trusted_proxies=" 172.17.0.0/16 , ::1,192.0.2.7 ").trusted_proxies()
    assert "172.17.3.4" in proxies and "::1" in proxies and "192.0.2.7" in proxies
    assert "172.18.0.1" not in proxies and "::2" not in proxies and "nonsense" not in proxies
    assert "::ffff:172.17.0.9" in proxies  # an IPv4 peer on a dual-stack socket
    assert Settings(_env_file=None, web_trusted_proxies="").trusted_proxies() == Proxies()  # trust none


def test_a_person_stepping_once_a_second_through_the_longest_game_is_never_refused() -> None:
    """A page and its picture count as one: 2,000 steps at one a second (and as long at two a second), each page
    followed by its picture, with the default bucket, never wait; pictures asked on their own still count."""
    for pace in (1.0, 0.5):
        limits = AddressLimits()
        waits = [limits.take("198.51.100.1", now=i * pace, step=f"t/{i}", picture=picture)
                 for i in range(2000) for picture in (False, True)]
        assert not any(waits) and limits.refused == 0, pace
    limits = AddressLimits(burst=2, per_second=0.001)
    assert limits.take("a", 0, step="t/1") == 0 and limits.take("a", 0, step="t/1", picture=True) == 0  # its own
    assert limits.take("a", 0, step="t/1", picture=True) == 0  # a second time: counted (the last token)
    assert limits.take("a", 0, step="t/2", picture=True) > 0  # another step's picture: counted, none left


async def test_the_rate_limits_page_keeps_the_way_back(service: GameService) -> None:
    table = await finished_table(service, "rocca")
    token = await issue(service.storage, table.id, None, 1, days=90)
    limits = AddressLimits(burst=3, per_second=0.001)
    async with served(StoredReplays(service.storage), limits=limits) as site:
        for step in (1, 2, 3):  # three steps, each a page and its picture: three requests' worth
            assert (await fetch(f"{site}/r/{token}/{step}?lang=ja"))[0] == 200
            assert (await fetch(f"{site}/r/{token}/{step}/board.png?lang=ja"))[0] == 200
        status, headers, body = await fetch(f"{site}/r/{token}/4?lang=ja")
        page = text(body)
        assert status == 429 and says(page.replace("&#39;", "'"), "web.too_many", seconds=int(headers["Retry-After"]))
        assert all(t("web.too_many", code, seconds=int(headers["Retry-After"])) in page for code in LANGUAGES)
        for rel, step, key in (("next", 4, "web.try_again"), ("prev", 3, "web.back_to")):
            assert f'<a href="/r/{token}/{step}?lang=ja" data-key="{rel}">{t(key, "ja", step=step)}</a>' in page
        assert f'href="/r/{token}/0?lang=ja" data-key="first"' in page and t("web.keys_again", "ja") in page
        assert re.search(r'<script src="/static/replay\.js\?v=\w+" defer>', page)  # the keys work there too
        forged = "C" * 43  # refused alike, real or not: the 429 tells nothing about a token (nothing was looked up)
        _, real_headers, real = await fetch(f"{site}/r/{token}/0")
        status, headers, body = await fetch(f"{site}/r/{forged}/0")
        assert status == 429 and text(body).replace(forged, token) == text(real).replace(
            real_headers["Retry-After"], headers["Retry-After"])


def test_visitors_are_bucketed_by_address_and_ipv6_by_its_64() -> None:
    trusted = Proxies.parse("127.0.0.1")
    assert visitor("127.0.0.1", ["192.0.2.1, 127.0.0.1"], trusted) == "192.0.2.1"
    # a hop with a port, bracketed IPv6 with a port or not, a zone: the address, one bucket whatever the port
    assert visitor("127.0.0.1", ["203.0.113.9:1234"], trusted) == visitor("127.0.0.1", ["203.0.113.9"], trusted)
    assert visitor("127.0.0.1", ["203.0.113.9:1234"], trusted) == "203.0.113.9"
    assert visitor("127.0.0.1", ["[2001:db8::1]:443"], trusted) == "2001:db8::/64"
    assert visitor("127.0.0.1", ["[2001:db8::1]"], trusted) == "2001:db8::/64"
    assert visitor("fe80::1%eth0", [], trusted) == "fe80::/64"
    assert visitor("127.0.0.1", ["198.51.100.4:80, 127.0.0.1:9000"], trusted) == "198.51.100.4"  # proxy hop
    assert visitor("192.0.2.50", ["192.0.2.1"], trusted) == "192.0.2.50"  # not a proxy: its header is ignored
    assert visitor("2001:db8::1", [], trusted) == visitor("2001:db8::ffff:1", [], trusted) == "2001:db8::/64"
    assert visitor("::ffff:192.0.2.3", [], trusted) == "192.0.2.3"
    assert visitor("127.0.0.1", ["not an address"], trusted) == "not an address"
    limits = AddressLimits(burst=2, per_second=1.0, kept=3)
    assert [limits.take("a", now=0.0) for _ in range(3)] == [0.0, 0.0, 1.0]
    assert limits.take("a", now=1.0) == 0.0  # refilled one a second
    for name in "bcdef":
        limits.take(name, now=2.0)
    assert len(limits) == 3  # bounded memory under a flood of addresses


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_page_speaks_the_games_language_and_switches(service: GameService, lang: str) -> None:
    table = await finished_table(service, "rocca", locale=lang)
    token = await issue(service.storage, table.id, None, 1, days=90)
    other = "ja" if lang == "en" else "en"
    async with served(StoredReplays(service.storage)) as site:
        _, _, body = await fetch(f"{site}/r/{token}/2")
        assert f'<html lang="{lang}">' in text(body) and f"/r/{token}/2?lang={other}" in text(body)
        _, _, switched = await fetch(f"{site}/r/{token}/2?lang={other}")
        assert f'<html lang="{other}">' in text(switched)
        _, _, odd = await fetch(f"{site}/r/{token}/2?lang=fr")
        assert f'<html lang="{lang}">' in text(odd)  # an unknown language: the game's own
    assert Key("web.seat_warning")  # (the catalog key a seat link's page shows, checked in test_web_pages)


async def test_no_token_and_no_hand_reaches_the_logs(service: GameService, caplog: pytest.LogCaptureFixture) -> None:
    """Logging at DEBUG while pages, pictures, misses and refusals are served: no record of the web side or of
    aiohttp holds a token (a path holds one) or a card of anyone's hand. (The database drivers' DEBUG records hold
    SQL parameters: the bot keeps those loggers at INFO, ``bot.client.PAYLOAD_LOGGERS``.)"""
    import logging

    from .test_hidden_information import Secrets

    table = await finished_table(service, "rocca", players=3, seed=10 ** 12 + 21)
    seat = await issue(service.storage, table.id, 0, 1, days=90)
    forged = "B" * 43
    caplog.set_level(logging.DEBUG)
    limits = AddressLimits(burst=6, per_second=0.001)
    async with served(StoredReplays(service.storage), limits=limits) as site:
        for path in (f"/r/{seat}/0", f"/r/{seat}/3", f"/r/{seat}/3/board.png", f"/r/{forged}", f"/r/{seat}/99999",
                     f"/r/{seat}/1", f"/r/{seat}/2"):
            await fetch(f"{site}{path}")
    logged = "\n".join(f"{r.name} {r.getMessage()}" for r in caplog.records
                       if r.name.startswith(("bot", "aiohttp", "cogs")))
    assert "web side listening" in logged  # the capture works
    assert seat not in logged and forged not in logged
    engine = table.engine
    replay_state = engine.load((await service.storage.get_game(table.id)).state)
    assert not Secrets("rocca", replay_state).leaks(logged, None)


@pytest.mark.parametrize("lang", ["en", "ja", None])
async def test_a_database_failure_answers_our_page_telling_nothing_internal(tmp_path: Path, lang: str | None,
                                                                           caplog: pytest.LogCaptureFixture) -> None:
    async with sqlite_service(tmp_path / "games.db") as service:
        table = await finished_table(service, "pileup")
        token = await issue(service.storage, table.id, None, 1, days=90)
        async with served(StoredReplays(service.storage)) as site:
            query = f"?lang={lang}" if lang else ""
            assert (await fetch(f"{site}/r/{token}/1{query}"))[0] == 200
            await service.storage.db.conn.close()  # the database is lost under the web side
            for path in (f"/r/{token}/1{query}", f"/r/{token}/1/board.png{query}"):
                status, headers, body = await fetch(f"{site}{path}")
                assert status == 503 and secured(headers) and headers["Retry-After"].isdigit()
                page = text(body).replace("&#39;", "'")
                asked = [lang] if lang else ["en", "ja"]  # the page's language; both when none was asked
                shown = [code for code in LANGUAGES if t("web.unavailable", code) in page]
                assert says(page, "web.unavailable") and shown == asked
                assert f'<html lang="{lang or "en"}">' in page
                assert "Error" not in page and "sqlite" not in page.lower() and token not in page
    logged = [r.getMessage() for r in caplog.records if r.name.startswith("bot.web")]
    assert any("could not be read from the database (ValueError)" in m for m in logged)
    assert not any(token in m for m in logged)


async def test_a_base_address_with_a_path_is_served_under_it(service: GameService) -> None:
    """``WEB_BASE_URL=https://example.org/games`` behind a proxy that passes ``/games/…`` on: pages, pictures,
    files, the steps' links, the 404's and 429's links and the preview's picture all live under ``/games``."""
    table = await finished_table(service, "rocca")
    token = await issue(service.storage, table.id, None, 1, days=90)
    limits = AddressLimits(burst=100, per_second=0.001)
    async with served(StoredReplays(service.storage), base_url="https://example.org/games", limits=limits) as site:
        status, _, body = await fetch(f"{site}/games/r/{token}")
        page = text(body)
        assert status == 200 and f'href="/games/r/{token}/1?lang=en"' in page
        last = int(re.search(r"step 0/(\d+)", page).group(1))
        addresses = re.findall(r'(?:href|src)="([^"]+)"', page)
        assert addresses and all(a.startswith("/games/") for a in addresses), addresses
        for address in addresses:  # every one of them answers, the style sheet, the script and the picture too
            assert (await fetch(f"{site}{address}"))[0] == 200, address
        image = re.search(r'<meta property="og:image" content="([^"]+)"', page).group(1)
        assert image == f"https://example.org/games/r/{token}/{last}/board.png?lang=en"
        assert (await fetch(f"{site}/games/r/{token}/{last}/board.png"))[0] == 200
        _, _, missing = await fetch(f"{site}/games/r/{token}/{last + 1}")
        assert f'href="/games/r/{token}/{last}?lang=en"' in text(missing)  # the way to its last step
        assert (await fetch(f"{site}/r/{token}"))[0] == 404  # outside the path: nothing
        assert (await fetch(f"{site}/static/replay.css"))[0] == 404
        while (answer := await fetch(f"{site}/games/r/{token}/2"))[0] != 429:
            pass
        assert f'href="/games/r/{token}/2?lang=en" data-key="next"' in text(answer[2])


def test_a_base_address_whose_path_cannot_be_served_is_refused() -> None:
    from pydantic import ValidationError

    from bot.settings import Settings

    for wrong in ("https://example.org/games/../x", "https://example.org/g%20x", "https://example.org/{key}"):
        with pytest.raises(ValidationError, match="WEB_BASE_URL"):
            Settings(_env_file=None, web_base_url=wrong)
    assert Settings(_env_file=None, web_base_url="https://example.org/games/").web_base_url == (
        "https://example.org/games")


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_seat_page_says_by_name_what_its_seat_was_told(service: GameService, lang: str) -> None:
    """Anyone with a seat's link reads it: "You drew …" (the words the seat read) is told as told to that seat."""
    table = await finished_table(service, "diamondbox", players=2)
    token = await issue(service.storage, table.id, 0, 1, days=90)
    seat = t("common.bot_name", lang, number=1)
    told = t("web.seat_told", lang, player=seat, line="")
    found = 0
    async with served(StoredReplays(service.storage)) as site:
        last = int(re.search(r"step 0/(\d+)", text((await fetch(f"{site}/r/{token}/0"))[2])).group(1))
        for step in range(last + 1):
            page = text((await fetch(f"{site}/r/{token}/{step}?lang={lang}"))[2])
            moves = page.split('<section class="moves"', 1)[1].split("<hr>", 1)[0]  # the frame's events
            private = [p for p in re.findall(r"<p>(.*?)</p>", moves) if p.startswith("🔒")]
            assert all(p.startswith(f"🔒 {told}") for p in private), (step, private)
            found += len(private)
    assert found > 0  # the seat was told things, and each says to whom
