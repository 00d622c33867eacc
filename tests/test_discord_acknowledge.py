"""Every click acknowledged in time whatever the load (issue 35, item 1), through the harness on the strict edge:
a process that is behind defers first with the deferral its answer needs, then edits the original response; a
quiet one answers directly; and the edge refuses what Discord refuses (a second initial response, the original
edited or a followup sent before any acknowledgement)."""
from __future__ import annotations

import contextlib
import gc
from datetime import timedelta

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.webhook.async_ import async_context, interaction_response_params

from bot.acknowledge import Backlog
from bot.collector import full_collections

from .discord_harness import DiscordRefused, Harness
from .discord_helpers import (
    HAND_HEADER,
    MY_HAND,
    REFRESH,
    START,
    board_message,
    dispatch_click,
    only_table,
    opens_with_line,
    says,
)

ALICE_ID = 101


async def running_table(h: Harness, alice):
    r = await h.slash(alice, "play akuma", bots=3)
    await h.click(alice, r.message, label=START)
    return only_table(h)


def busy(h: Harness) -> None:
    """The process counts as behind for every interaction (as with more than a few in flight)."""
    h.bot.backlog = Backlog(max_in_flight=0)


async def test_a_quiet_process_answers_my_hand_directly(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await running_table(h, alice)
    r = await h.click(alice, board_message(h, table), label=MY_HAND)
    assert r.type == "message" and r.ephemeral and opens_with_line(r.text, HAND_HEADER)
    assert h.bot.backlog.deferred == 0 and h.bot.backlog.in_flight == 0


async def test_a_busy_process_defers_my_hand_then_edits_the_original(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    table = await running_table(h, alice)
    busy(h)
    r = await h.click(alice, board_message(h, table), label=MY_HAND)
    assert r.type == "deferred" and r.ephemeral  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, ephemeral
    assert opens_with_line(r.text, HAND_HEADER) and r.components  # the "thinking…" message became the hand
    assert len(r.messages) == 1 and not any("/webhooks/" in c.path and c.method == "POST" for c in r.calls)
    assert r.answered_at is not None and r.shown_at is not None and r.answered_at <= r.shown_at
    assert h.bot.backlog.deferred == 1 and h.bot.backlog.in_flight == 0


async def test_a_busy_process_defers_a_click_in_the_hand_view_as_an_update(h: Harness) -> None:
    """A click inside the ephemeral hand view: DEFERRED_UPDATE_MESSAGE, then that same message is edited."""
    alice = h.user(ALICE_ID, "alice")
    table = await running_table(h, alice)
    hand = (await h.click(alice, board_message(h, table), label=MY_HAND)).message
    busy(h)
    r = await h.click(alice, hand, label=REFRESH)
    assert r.type == "deferred_update" and r.message == hand
    assert opens_with_line(hand.content, HAND_HEADER) and not r.new_messages
    edits = [c.route for c in r.calls if c.method == "PATCH"]
    assert edits == ["PATCH /webhooks/{app_id}/{token}/messages/{message_id}"]


async def test_a_busy_process_answers_an_error_in_the_deferred_reply(h: Harness) -> None:
    """Someone not seated clicks My hand while the process is behind: the deferral is filled with the refusal."""
    alice, bob = h.user(ALICE_ID, "alice"), h.user(102, "bob")
    table = await running_table(h, alice)
    busy(h)
    r = await h.click(bob, board_message(h, table), label=MY_HAND)
    assert r.type == "deferred" and r.ephemeral and says(r.text, "error.not_seated")
    assert len(r.messages) == 1


async def test_an_old_click_is_deferred_on_a_quiet_process(h: Harness) -> None:
    """A click already older than a second by its snowflake (it waited in the gateway queue) is deferred."""
    alice = h.user(ALICE_ID, "alice")
    table = await running_table(h, alice)
    h.bot.backlog.max_age = -1.0  # every click counts as old: the snowflake's own age decides, nothing else
    r = await h.click(alice, board_message(h, table), label=MY_HAND)
    assert r.type == "deferred" and opens_with_line(r.text, HAND_HEADER)
    h.bot.backlog.max_age = timedelta(hours=1).total_seconds()
    r = await h.click(alice, board_message(h, table), label=MY_HAND)
    assert r.type == "message"


async def test_a_burst_of_clicks_is_deferred_from_its_first_click(h: Harness) -> None:
    """Many My hand clicks at once: every one is deferred first, the first too (the others had arrived before its
    handler started); every one shows the hand in its own original response (the older views are then deleted,
    the newest kept), and nothing is left counted once they are done. Full garbage collections wait while the
    burst is handled, and run again once it is done (``bot.collector``)."""
    alice = h.user(ALICE_ID, "alice")
    table = await running_table(h, alice)
    board = board_message(h, table)
    full_collections.reset()  # whatever another test's abandoned handlers left
    threshold = gc.get_threshold()
    replies = [dispatch_click(h, alice, board, board.button(MY_HAND, None)) for _ in range(12)]
    assert full_collections.held and gc.get_threshold()[2] > threshold[2]
    await h.settle()
    assert not full_collections.held and gc.get_threshold() == threshold
    kinds = [r.type for r in replies]
    assert kinds == ["deferred"] * 12, kinds
    assert all(r.shown_at is not None and len(r.messages) == 1 for r in replies)
    assert all(opens_with_line(r.text, HAND_HEADER) for r in replies)
    assert sum(not r.message.deleted for r in replies) == 1  # one hand view per person: the older ones deleted
    assert h.bot.backlog.in_flight == 0 and not h.bot.backlog.waiting
    r = await h.click(alice, board, label=MY_HAND)  # quiet again: answered directly
    assert r.type == "message" and not h.bot.backlog.waiting


class Misuse(commands.Cog):
    @app_commands.command(name="twice", description="Answers twice")
    async def twice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one", ephemeral=True)
        adapter = async_context.get()  # discord.py's own InteractionResponse would refuse to send this
        with contextlib.suppress(discord.HTTPException):  # a bot that hides the failure: the edge must not
            await adapter.create_interaction_response(
                interaction.id, interaction.token, session=interaction._session,
                params=interaction_response_params(4, {"content": "two"}))

    @app_commands.command(name="early", description="Edits the original before any answer")
    async def early(self, interaction: discord.Interaction) -> None:
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(content="too soon")


class MisuseBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.none())

    async def setup_hook(self) -> None:
        await self.add_cog(Misuse())


@pytest.fixture
async def strict():
    harness = await Harness(MisuseBot()).start()
    yield harness
    await harness.close(check=False)


@pytest.mark.parametrize(("command", "route", "code"), [
    ("twice", "POST /interactions/{interaction_id}/{token}/callback", 40060),
    ("early", "PATCH /webhooks/{app_id}/{token}/messages/{message_id}", 10008),
])
async def test_the_edge_refuses_what_discord_refuses(strict: Harness, command: str, route: str, code: int) -> None:
    with strict.expect_errors(DiscordRefused) as caught:
        await strict.slash(strict.user(ALICE_ID, "alice"), command, expect_response=False)
    assert caught[0].call.route == route and caught[0].call.response["code"] == code
