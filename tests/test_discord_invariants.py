"""The harness's own checks of every message (``tests/discord_invariants.py``) fail on a planted leak: a secret card
in a public message or in another player's hand view, a hand view sent without the ephemeral flag, a person notified
twice in one turn. (That they hold of everything the bot writes is what every other Discord test shows.)"""
from __future__ import annotations

import random

import discord
import pytest

from bot import render
from bot.games import render_hooks
from cogs.table_post import table_view

from . import ui_driver
from .discord_harness import Harness
from .discord_helpers import JOIN, START, only_table, rendered
from .discord_invariants import InvariantBroken

ALICE, BOB = 101, 102


async def table_with_two(h: Harness):
    """Alice and Bob with a bot at Akuma Trick, dealt."""
    alice, bob = h.user(ALICE, "alice"), h.user(BOB, "bob")
    r = await h.slash(alice, "play akuma", bots=1, start="host")
    await h.click(bob, r.message, label=JOIN)
    await h.click(alice, r.message, label=START)
    return alice, bob, only_table(h)


def a_secret_of(table, player: str) -> str:
    """The mark the board draws for one of ``player``'s cards that nobody else holds a copy of or sees."""
    engine, mark = table.engine, render_hooks(table.row.game).card
    public = {mark(c) for c in engine.view(table.state, None).model_dump_json().split('"') if c}
    others = {mark(c) for p in table.state.players if p != player for c in engine.view(table.state, p).hand or []}
    return next(m for c in engine.view(table.state, player).hand if (m := mark(c)) not in public | others)


async def test_a_secret_card_in_a_public_message_fails_the_test(h: Harness) -> None:
    _, _, table = await table_with_two(h)
    channel = h.bot.get_channel(table.row.channel_id)
    with h.expect_errors(InvariantBroken) as caught:
        await channel.send(f"alice holds {a_secret_of(table, f'u{ALICE}')}")  # the bot says it where all see it
        await h.settle()
    assert "to everyone shows" in str(caught[0])


async def test_another_players_card_in_a_hand_view_fails_the_test(h: Harness, monkeypatch) -> None:
    _, bob, table = await table_with_two(h)
    secret = a_secret_of(table, f"u{ALICE}")
    hand = render.hand
    monkeypatch.setattr(render, "hand", lambda *args: hand(*args) + f"\n(alice has {secret})")
    with h.expect_errors(InvariantBroken) as caught:
        await ui_driver.open_hand(h, bob, table)
    assert f"to u{BOB} shows" in str(caught[0])


async def test_ones_own_cards_in_ones_own_hand_view_are_fine(h: Harness) -> None:
    alice, _, table = await table_with_two(h)
    view = await ui_driver.open_hand(h, alice, table)
    assert a_secret_of(table, f"u{ALICE}") in view.text  # and no error


async def test_a_hand_view_sent_in_public_fails_the_test(h: Harness) -> None:
    _, _, table = await table_with_two(h)
    channel = h.bot.get_channel(table.row.channel_id)
    with h.expect_errors(InvariantBroken) as caught:
        await channel.send(rendered("hand.header", "en", game="Akuma Trick", id=table.id))
        await h.settle()
    assert "without the ephemeral flag" in str(caught[0])


async def test_a_second_ping_in_one_turn_fails_the_test(h: Harness) -> None:
    alice, _, table = await table_with_two(h)
    while ALICE not in table.user_ids_to_act():
        await ui_driver.act(h, h.users[table.user_ids_to_act()[0]], table, random.Random(1))
        await h.settle()
    channel = h.bot.get_channel(table.row.channel_id)
    with h.expect_errors(InvariantBroken) as caught:  # her turn's board pinged her: a second board is one too many
        await channel.send(f"<@{ALICE}> again", view=table_view(table, "en"),
                           allowed_mentions=discord.AllowedMentions(users=[alice]))
        await h.settle()
    assert f"notified {ALICE}" in str(caught[0])


@pytest.mark.parametrize("place", ["dm", "group dm"])
async def test_a_channel_write_at_a_private_place_fails_the_test(h: Harness, place: str) -> None:
    alice, bob = h.user(ALICE, "alice"), h.user(BOB, "bob")
    where = h.dm(alice) if place == "dm" else h.group_dm(alice, bob)
    from .discord_harness import DiscordRefused

    with h.expect_errors(DiscordRefused):
        with pytest.raises(discord.HTTPException):
            await h.bot.http.send_message(where, params=discord.http.handle_message_parameters(content="hello"))
        await h.settle()
