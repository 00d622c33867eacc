"""The lines a table writes in its thread, counted through the real Discord layer (raw gateway payloads in, only
HTTP faked), in both languages: a bot's turn reads as one line however many steps it takes and whichever board
it lands on; a board's legend is shown once per table, not on every board posted; Twin Pyramid's revealed hand reads
the same on the board as in the log; Akuma's note on its ranking is shown once where the ranking is.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, AsyncIterator

import pytest

from bot import render
from bot.i18n import t
from bot.render.twinpyramid import sorted_cards
from bot.table import Table, Update
from cogs.common import names_for
from cogs.outbox_fold import Line, folded
from engines import Event

from . import ui_driver
from .discord_harness import Harness, SentMessage
from .discord_helpers import START, board_message, only_table, public_mark, public_since, start_harness
from .test_discord_twinpyramid import ALICE, ALICE_ID, button, position

LANGS = ["en", "ja"]


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    harness = await start_harness(tmp_path / "bot.db", tables=None)  # each table in its own thread
    yield harness
    await harness.close()


async def open_table(h: Harness, game: str, lang: str, bots: int = 1) -> tuple[Any, Table]:
    """A table of alice and ``bots`` bots on a server whose public language is ``lang`` (``/config language``)."""
    await h.bot.storage.set_guild_language(h.guild_id, lang)
    alice = h.user(ALICE_ID, "alice", locale=lang)
    r = await h.slash(alice, f"play {game}", bots=bots)
    await h.click(alice, r.message, label=START)
    await h.settle()
    table = only_table(h)
    assert table.status == "running" and table.row.locale == lang
    return alice, table


def hear_events(h: Harness) -> list[Event]:
    """Every public event of the table from now on, in order (filled as the service publishes them)."""
    heard: list[Event] = []

    async def listen(update: Update) -> None:
        heard.extend(ev for ev in update.events if ev.visible_to is None)

    h.bot.service.subscribe(listen)
    return heard


def thread_content_lines(h: Harness, table: Table) -> list[str]:
    """The lines of the messages' contents in the table's thread as they read now (event lines live there)."""
    return [line for m in h.channel_messages(table.row.channel_id) if not m.ephemeral
            for line in (m.payload.get("content") or "").splitlines()]


def bot_turns(events: list[Event], table: Table) -> list[list[str]]:
    """The lines of each bot's turn as the renderer writes them one by one: runs of consecutive public lines
    telling the same bot's steps."""
    names = names_for(table, table.row.locale)
    runs: list[list[str]] = []
    previous: str | None = None
    for ev in events:
        text = render.event_line(table.row.game, ev, names, table.row.locale)
        if text is None:
            continue
        player = ev.data.get("player")
        bot = player if isinstance(player, str) and table.is_bot(player) and "\n" not in text else None
        if bot is not None and bot == previous:
            runs[-1].append(text)
        elif bot is not None:
            runs.append([text])
        previous = bot
    return runs


def one_line(steps: list[str]) -> str:
    """The steps as the board folds them (``cogs.outbox_fold.folded``: a Japanese 。 runs on with no separator)."""
    return folded([Line(step, bot="b") for step in steps])[0]


def posted_bodies(h: Harness, channel_id: int) -> list[str]:
    """The text of every message posted in ``channel_id`` as it was sent: content, embeds' descriptions and footers."""
    bodies = []
    for call in h.calls:
        if call.route == "POST /channels/{channel_id}/messages" and f"/channels/{channel_id}/" in call.path:
            body = call.json or {}
            parts = [body.get("content") or ""]
            for embed in body.get("embeds") or []:
                parts += [embed.get("description") or "", (embed.get("footer") or {}).get("text") or ""]
            bodies.append("\n".join(parts))
    return bodies


@pytest.mark.parametrize("lang", LANGS)
async def test_a_bots_turn_is_one_line_and_the_legend_is_shown_once(h: Harness, lang: str) -> None:
    alice, table = await open_table(h, "pileup", lang)
    heard = hear_events(h)
    await ui_driver.play_to_the_end(h, table, [alice], random.Random(3))
    lines = thread_content_lines(h, table)
    runs = bot_turns(heard, table)
    several_steps = [run for run in runs if len(run) >= 3]  # turn, roll, play, draw: written one update at a time
    assert len(several_steps) >= 5
    for run in runs:
        assert lines.count(one_line(run)) == 1, run
    step_lines = [line for line in lines if any(step in line for run in runs for step in run)]
    assert len(step_lines) == len(runs)  # no bot step on a line of its own
    legend = t("pileup.board.legend", lang)
    boards = posted_bodies(h, table.row.channel_id)
    assert len(boards) >= 10 and sum(legend in body for body in boards) == 1
    shown = [m for m in h.channel_messages(table.row.channel_id) if legend in m.text]
    assert len(shown) == 1 and legend in (shown[0].payload.get("content") or "")  # kept when its board is replaced


@pytest.mark.parametrize("lang", LANGS)
async def test_twin_pyramids_legend_is_shown_once_and_its_turns_are_not_announced(h: Harness, lang: str) -> None:
    alice, table = await open_table(h, "twinpyramid", lang)
    await ui_driver.play_to_the_end(h, table, [alice], random.Random(3), moves=8)
    boards = posted_bodies(h, table.row.channel_id)
    legend = t("twinpyramid.board.legend", lang)
    assert len(boards) >= 8 and sum(legend in body for body in boards) == 1
    bot = names_for(table, lang)("bot1")
    assert not [line for line in thread_content_lines(h, table) if line.startswith("➡️") and bot not in line]


@pytest.mark.parametrize("lang", LANGS)
async def test_twin_pyramids_revealed_hand_reads_the_same_on_the_board_and_in_the_log(h: Harness, lang: str) -> None:
    """A burst: alice's 10th card ends the deal and shows her hand, held and shown cards (the case issue 34 saw:
    10 cards in the log, her 4 held cards alone on the board)."""
    alice, table = await open_table(h, "twinpyramid", lang, bots=2)
    held, shown = ["QD", "JH", "9S", "8H"], ["6S", "5D", "4S", "3H", "KD"]
    position(table, {ALICE: {"held": held, "shown": shown}, "bot1": {"held": ["3D"]}, "bot2": {"held": ["4D"]}},
             top="7C", draw=["2S"], deal=2)
    hand = await ui_driver.open_hand(h, alice, table)
    before = public_mark(h)
    await h.click(alice, hand, button(hand, table, {"type": "draw"}))
    names = names_for(table, lang)
    whole = t("twinpyramid.result.revealed", lang, player=names(ALICE), cards=sorted_cards([*held, *shown, "2S"]))
    assert whole in public_since(h, before)  # the log: the whole hand, held and shown cards
    board = board_message(h, table).text
    assert whole in board
    assert t("twinpyramid.board.revealed", lang, cards=sorted_cards(held)) not in board  # not a second, smaller hand


def note_count(messages: list[SentMessage], note: str) -> int:
    return sum(m.text.count(note) for m in messages if not m.ephemeral)


@pytest.mark.parametrize("lang", LANGS)
async def test_akumas_note_on_its_ranking_is_shown_once_where_the_ranking_is(h: Harness, lang: str) -> None:
    alice, table = await open_table(h, "akuma", lang, bots=2)
    await ui_driver.play_to_the_end(h, table, [alice], random.Random(3))
    assert table.status == "finished"
    emptied = [p for p in table.state.players if not table.view(None).hand_sizes[p]]  # type: ignore[attr-defined]
    assert len(emptied) == 1
    note = t("akuma.result.emptied_last", lang, player=names_for(table, lang)(emptied[0]))
    thread = h.channel_messages(table.row.channel_id)
    assert note_count(thread, note) == 1  # in the result, just below the final board; not on the board too
    assert note_count(h.channel_messages(h.channel_id), note) == 1  # the lobby's channel, under its ranking
