"""The replay pages in a real browser (issue 56, item 6): headless Chromium (``tests/browser.py``) opens a
finished game's page at its link, steps it with the keyboard and with its links, follows a link to a moment and the
deal list, switches the language, sees a seat link show that seat's hand and the public one none, shows names as
typed (no script of theirs runs), breaks no rule of the page's Content-Security-Policy, fits a phone's 360 px
without scrolling sideways and takes a screenshot at 360 and 1,280 px (``GAMEHOST_SCREENSHOTS``: the folder to
keep them in)."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, AsyncIterator

import pytest

from bot.service import GameService
from bot.shares import issue
from bot.web.source import StoredReplays

from .browser import chromium
from .web_helpers import HOSTILE_NAME, finished_table, served, sqlite_service


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    """One backend here: what these tests look at is the web side (storage: tests/test_web_shares.py)."""
    async with sqlite_service(tmp_path / "games.db") as it:
        yield it

STEP = re.compile(r"step (\d+)/(\d+)")


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async with chromium() as context:
        yield context


async def open_page(browser: Any, url: str, width: int = 1280) -> tuple[Any, list[str]]:
    page = await browser.new_page()
    await page.set_viewport_size({"width": width, "height": 900})
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("dialog", lambda dialog: problems.append(f"a dialog opened: {dialog.message}"))
    await page.goto(url)
    return page, problems


async def step_shown(page: Any) -> int:
    found = STEP.search(await page.title())
    assert found, await page.title()
    return int(found.group(1))


async def press(page: Any, key: str) -> int:
    """A key that steps the replay: the step of the page it leads to."""
    async with page.expect_navigation():
        await page.keyboard.press(key)
    return await step_shown(page)


async def test_a_page_opens_steps_by_keyboard_and_links_and_follows_a_moment(service: GameService,
                                                                            browser: Any) -> None:
    table = await finished_table(service, "twinpyramid", players=3, names=[HOSTILE_NAME, "Ann & <Bob>", "碧"])
    token = await issue(service.storage, table.id, None, 1, days=90)
    async with served(StoredReplays(service.storage)) as site:
        page, problems = await open_page(browser, f"{site}/r/{token}")
        assert await step_shown(page) == 0
        await page.wait_for_function("document.querySelector('.board img').naturalWidth > 0")
        assert [await press(page, key) for key in ("ArrowRight", "ArrowRight", "ArrowLeft")] == [1, 2, 1]
        last = await press(page, "End")
        assert last > 20 and await page.locator("#reveal").is_visible()  # the reveal at the end
        assert page.url.endswith(f"/r/{token}/{last}?lang=en")
        assert await press(page, "Home") == 0
        # Tab reaches the links: the first focusable one after the language switch is ⏮ or ▶
        for _ in range(10):
            await page.keyboard.press("Tab")
            if await page.evaluate("document.activeElement.textContent") == "▶":
                break
        assert await press(page, "Enter") == 1
        # a link to a moment, and the deal list
        await page.goto(f"{site}/r/{token}/17")
        assert await step_shown(page) == 17 and not await page.locator("#reveal").count()
        await page.locator("details.seek summary").first.click()  # the first menu: the deals
        second = page.locator("details.seek").first.locator("li a").nth(1)
        target = await second.get_attribute("href")
        await second.click()
        await page.wait_for_url(f"**{target}")
        assert await step_shown(page) == int(target.split("/")[-1].split("?")[0]) > 17
        await page.get_by_role("link", name="日本語").click()
        await page.wait_for_url("**lang=ja")
        assert await page.evaluate("document.documentElement.lang") == "ja"
        text = await page.locator("body").inner_text()
        assert HOSTILE_NAME in text and "Ann & <Bob>" in text  # as typed, never markup
        assert problems == [], problems  # no CSP violation, no script error, no dialog of a name's making


async def test_a_seat_link_shows_that_seats_hand_and_the_public_link_none(service: GameService,
                                                                           browser: Any) -> None:
    table = await finished_table(service, "rocca", players=3)
    public = await issue(service.storage, table.id, None, 1, days=90)
    seat = await issue(service.storage, table.id, 2, 1, days=90)
    async with served(StoredReplays(service.storage)) as site:
        page, problems = await open_page(browser, f"{site}/r/{seat}/4")
        moves = await page.locator(".moves").inner_text()
        assert "🔒" in moves and "Bot 3" in moves and await page.locator(".warning").is_visible()
        assert "Bot 3" in await page.locator(".warning").inner_text()
        other, more = await open_page(browser, f"{site}/r/{public}/4")
        assert "🔒" not in await other.locator(".moves").inner_text() and not await other.locator(".warning").count()
        assert problems == more == []


@pytest.mark.parametrize("game", ["twinpyramid", "rocca"])
async def test_a_phone_and_a_desktop_see_the_whole_page(service: GameService, browser: Any,
                                                        game: str, tmp_path: Path) -> None:
    table = await finished_table(service, game, players=4, seed=5)
    token = await issue(service.storage, table.id, 1, 1, days=90)
    keep = Path(os.environ.get("GAMEHOST_SCREENSHOTS") or tmp_path)
    async with served(StoredReplays(service.storage)) as site:
        for width in (360, 1280):
            page, problems = await open_page(browser, f"{site}/r/{token}/30", width)
            await page.wait_for_function("document.querySelector('.board img').naturalWidth > 0")
            sideways = await page.evaluate("document.documentElement.scrollWidth")
            assert sideways <= width, f"{game} at {width} px scrolls sideways ({sideways} px)"
            image = await page.evaluate("(() => { const r = document.querySelector('.board img')"
                                        ".getBoundingClientRect(); return [r.width, r.height]; })()")
            assert 100 < image[0] <= width and image[1] > 100
            shot = keep / f"replay-{game}-{width}.png"
            await page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000 and problems == []
