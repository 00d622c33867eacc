"""One rule for every way of looking back at a table (issue 42, item 4), through the strict edge: review, record
and Reveal are open to whoever played there and to the members who can see the channel it played in (their
permissions in that channel, as the cache holds them), and refused with one catalog line to a member who cannot
see it, whatever channel they ask from; the record of a tournament table waits for its round to be over, like
*all hands*; the record's reply tells a player what the file is, not a shell command."""
from __future__ import annotations

import discord

from bot.tournaments.models import Tournament, TournamentTable

from .discord_harness import Harness
from .discord_helpers import says
from .test_discord_record import finished_bot_table

ALICE, BOB, MALLORY = 101, 102, 109


def hide_from_everyone_but(h: Harness, user_id: int) -> None:
    """The table's channel denies View Channel to @everyone and allows it to ``user_id`` (CHANNEL_UPDATE)."""
    channel = h.server.channels[h.channel_id]
    view = str(discord.Permissions(view_channel=True).value)
    channel["permission_overwrites"] = [{"id": str(h.guild_id), "type": 0, "allow": "0", "deny": view},
                                        {"id": str(user_id), "type": 1, "allow": view, "deny": "0"}]
    h.dispatch("CHANNEL_UPDATE", channel)


async def test_review_record_and_reveal_are_for_those_who_can_see_the_table(h: Harness) -> None:
    table = await finished_bot_table(h, "rocca", seed=5)
    result = next(m for m in h.channel_messages() if f"gh:reveal:{table.id}" in str(m.components))
    hide_from_everyone_but(h, BOB)
    mallory, bob = h.user(MALLORY, "mallory"), h.user(BOB, "bob")
    other = next(cid for cid in h.channel_ids.values() if cid != h.channel_id)
    asked = [await h.slash(mallory, "game review", channel=other, table=table.id),
             await h.slash(mallory, "game record", channel=other, table=table.id),
             await h.click(mallory, result, f"gh:reveal:{table.id}"),
             await h.click(mallory, result, f"gh:review:{table.id}")]
    for reply in asked:
        assert reply.ephemeral and says(reply.text, "error.look_back_hidden", game_id=table.id), reply.text
        assert all(not m.attachments for m in reply.messages)
    record = await h.slash(bob, "game record", channel=other, table=table.id)
    assert says(record.text, "record.reply", id=table.id, game="Rocca Card Tower", count=len(
        await h.bot.storage.action_log(table.id))) and record.messages[-1].files
    assert "python -m" not in record.text
    review = await h.slash(bob, "game review", channel=other, table=table.id)
    assert says(review.text, "review.perspective.s")
    reveal = await h.click(bob, result, f"gh:reveal:{table.id}")
    assert says(reveal.text, "reveal.hands")


async def test_the_record_of_a_tournament_table_waits_for_its_round(h: Harness) -> None:
    table = await finished_bot_table(h, "akuma", players=3, seed=9)
    store = h.bot.storage.tournaments
    tournament = Tournament(id=0, guild_id=h.guild_id, channel_id=h.channel_id, creator_id=ALICE, game="akuma",
                            format="swiss", rounds=2, seats_min=3, seats_max=4, seed=1, status="running")
    tournament.id = await store.create(tournament)
    ours, other = TournamentTable(0, 1, 1, [ALICE, 1, 2]), TournamentTable(0, 1, 2, [BOB, 3, 4])
    await store.open_round(tournament, 1, [ours, other])
    ours.status, ours.game_id = "finished", table.id
    await store.set_table(ours)
    alice = h.user(ALICE, "alice")
    refused = await h.slash(alice, "game record", table=table.id)
    assert refused.ephemeral and says(refused.text, "error.record_round_running", game_id=table.id)
    assert all(not m.attachments for m in refused.messages)
    other.status = "finished"
    await store.set_table(other)
    given = await h.slash(alice, "game record", table=table.id)
    assert says(given.text, "record.reply") and f"table-{table.id}-akuma.json" in given.messages[-1].files
