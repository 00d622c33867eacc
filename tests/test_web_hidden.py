"""Hidden information on the replay pages (issue 56): every page of a finished game of every game, seen through
its public link and through each seat's link, shows nothing that perspective did not see at that moment — the
checks of ``tests/test_hidden_information.py`` (``Secrets``: no other seat's hidden cards as ids or as the marks
the game draws, no seed, no RNG state) over the whole HTML (text, alt texts, attributes). The reveal is shown at
the last step only, and it is what Discord's Reveal shows; the link preview (Open Graph) shows no one's cards."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from bot.games import render_hooks
from bot.replay_show import printed_name, record_names
from bot.reveal import reveal_lines
from bot.review import SteppedReplay
from bot.service import GameService
from bot.storage import Storage
from bot.web import WebConfig, WebServer
from bot.web.page import Opened, board_picture, html_line
from bot.web.source import FileReplays
from engines import GAMES, get_engine
from tests.engines.conformance import string_leaves

from .test_hidden_information import Secrets
from .web_helpers import finished_table

REVEAL = '<section class="reveal"'
PREVIEW = re.compile(r'<meta property="og:(?:title|description)" content="([^"]*)">')


def page_text(page: str) -> str:
    return html.unescape(page)


async def replay_of(tmp_path: Path, game: str) -> SteppedReplay:
    from bot.replay import stored_record

    storage = await Storage.open(tmp_path / f"{game}.db")
    try:
        service = GameService(storage)
        table = await finished_table(service, game, seed=10 ** 12 + 21)
        return SteppedReplay(await stored_record(storage, table.id), every=7)
    finally:
        await storage.close()


def page_leaks(server: WebServer, replay: SteppedReplay, viewer: str | None, lang: str) -> list[str]:
    game, last = replay.record.game, len(replay) - 1
    opened = Opened(replay, viewer, lang, True, base="/r/link")
    told: set[str] = set()
    leaks = []
    for index in range(len(replay)):
        private = [ev for ev in replay.events_seen(index, viewer) if ev.visible_to is not None]
        for ev in private:
            told |= set(string_leaves(ev.data))
        allowed = {p for ev in private for p in ev.visible_to or ()}
        page = server.render_page(opened, index, lang)
        shown, reveal = page.split(REVEAL, 1) if REVEAL in page else (page, "")
        assert bool(reveal) == (index == last), f"{game} step {index}: the reveal belongs to the last step only"
        secrets = Secrets(game, replay.state(index))
        for what in secrets.leaks(page_text(shown), viewer, allowed, known=told):
            leaks.append(f"{game} step {index} seen by {viewer or 'a spectator'} ({lang}) shows {what}")
        final = Secrets(game, replay.final)
        for preview in PREVIEW.findall(page):  # the link preview: only the spectator's view after the end
            for what in final.leaks(html.unescape(preview), None):
                leaks.append(f"{game} preview shows {what}")
        if reveal:  # exactly the reveal Discord shows (every hand at the end, the secrets kept during play)
            names = record_names(replay.record, lang, printed_name)
            expected = [str(html_line(line)) for line in reveal_lines(replay, lang, names) if line]
            assert all(line in reveal for line in expected), f"{game}: the page's reveal is not Discord's"
    return leaks


@pytest.mark.parametrize("game", GAMES)
async def test_no_page_or_preview_of_any_game_shows_what_its_perspective_did_not_see(tmp_path: Path,
                                                                                     game: str) -> None:
    replay = await replay_of(tmp_path, game)
    server = WebServer(WebConfig(base_url="https://games.example.org"), FileReplays(replay, "en"))
    players = [p.player for p in replay.record.players]
    leaks = [leak for viewer in [None, *players] for leak in page_leaks(server, replay, viewer, "en")]
    leaks += page_leaks(server, replay, None, "ja") + page_leaks(server, replay, players[-1], "ja")
    assert len(replay) > 2 and not leaks, "\n".join(leaks[:30])


async def test_a_seat_link_shows_that_seats_hand_and_the_public_link_no_hand(tmp_path: Path) -> None:
    replay = await replay_of(tmp_path, "rocca")
    server = WebServer(WebConfig(base_url="https://games.example.org"), FileReplays(replay, "en"))
    engine, seat = get_engine("rocca"), replay.record.players[1].player
    step = 3
    hand = engine.view(replay.state(step), seat).hand or []
    assert hand
    mine = page_text(server.render_page(Opened(replay, seat, "en", True, "/r/s"), step, "en"))
    public = page_text(server.render_page(Opened(replay, None, "en", True, "/r/p"), step, "en"))
    marks = " ".join(render_hooks("rocca").card(c) for c in hand)  # as the hand's line lists them
    assert marks in mine and "🔒" in mine
    assert marks not in public and "🔒" not in public


@pytest.mark.parametrize("game", [g for g in GAMES if render_hooks(g).image is not None])
async def test_the_picture_is_the_public_board_whatever_the_link(tmp_path: Path, game: str) -> None:
    """A seat link's board picture (and so the preview's) is the spectator's, byte for byte: a hand never enters
    a picture."""
    replay = await replay_of(tmp_path, game)
    last = len(replay) - 1
    for index in sorted({0, 1, last // 2, last}):
        public = board_picture(Opened(replay, None, "en", True, "/r/p"), index, "en")
        for seat in replay.record.players:
            assert board_picture(Opened(replay, seat.player, "en", True, "/r/s"), index, "en") == public
