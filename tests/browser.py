"""Headless Chromium from the system's packages (Debian's ``chromium``), driven by Playwright for Python: never a
browser Playwright downloads (``executable_path``), a fresh profile per browser, no network beyond 127.0.0.1. Where
no Chromium is installed the browser tests skip, saying so — except under CI (``CI`` set), which installs it
(``.ci/run``), where its absence fails them."""
from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

import pytest

CHROMIUM = os.environ.get("GAMEHOST_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def need_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    reason = f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium; .ci/run installs it)"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """A browser context on a fresh profile (deleted afterwards)."""
    need_chromium()
    from playwright.async_api import async_playwright

    profile = tempfile.mkdtemp(prefix="gamehost-chromium-")
    try:
        async with async_playwright() as driver:
            context = await driver.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=FLAGS, headless=True)
            try:
                yield context
            finally:
                await context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
