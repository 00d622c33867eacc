"""One rule for every way of looking back at a table (issue 42, item 4), through the strict edge: review, record
and Reveal are open to whoever played there and to the members who can see the channel it played in (their
permissions in that channel, as the cache holds them), and refused with one catalog line to a member who cannot
see it, whatever channel they ask from; the record of a tournament table waits for its round to be over, like
*all hands*; the record's reply tells a player what the file is, not a shell command."""
from __future__ import annotations

import discord

from bot import literal, render
from bot.i18n import join_list
from bot.table import Table
from cogs.look_back import LOOKS_PER_MINUTE, look_back
from cogs.review import replay_cache

from .discord_harness import Harness
from .discord_helpers import board_message, dispatch_click, says
from .tournament_round import in_running_round

ALICE, BOB, MALLORY = 101, 102, 109


async def finished_bot_table(h: Harness, game: str, players: int = 2, seed: int = 3) -> Table:
    table = await h.bot.service.create_bot_table(game=game, players=players, seed=seed, channel_id=h.channel_id,
                                                 guild_id=h.guild_id)
    await h.settle(timeout=120)  # a loaded machine plays slowly
    assert table.status == "finished"
    return table


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
    round_ = await in_running_round(h, table.id, ALICE, BOB)
    alice = h.user(ALICE, "alice")
    refused = await h.slash(alice, "game record", table=table.id)
    assert refused.ephemeral and says(refused.text, "error.record_round_running", game_id=table.id)
    assert all(not m.attachments for m in refused.messages)
    await round_.finish()
    given = await h.slash(alice, "game record", table=table.id)
    assert says(given.text, "record.reply") and f"table-{table.id}-akuma.json" in given.messages[-1].files


async def test_one_rebuild_serves_reveals_at_once_the_viewer_and_the_record(h: Harness) -> None:
    """Three people press Reveal at the same moment: the game is rebuilt once, and the review and the record
    opened next read the same rebuilt game."""
    table = await finished_bot_table(h, "rocca", seed=5)
    result = next(m for m in h.channel_messages() if f"gh:reveal:{table.id}" in str(m.components))
    people = [h.user(200 + n, f"member{n}") for n in range(3)]
    replies = [dispatch_click(h, p, result, result.button(None, rf"gh:reveal:{table.id}")) for p in people]
    await h.settle(timeout=120)
    assert all(says(r.text, "reveal.hands") for r in replies)
    assert look_back(h.bot).rebuilds == 1
    viewer = await h.slash(people[0], "game review", table=table.id)
    record = await h.slash(people[1], "game record", table=table.id)
    assert says(viewer.text, "review.perspective.s") and says(record.text, "record.reply")
    assert look_back(h.bot).rebuilds == 1


async def test_opening_is_under_a_per_member_cooldown_and_stepping_is_not(h: Harness) -> None:
    table = await finished_bot_table(h, "rocca", seed=5)
    result = next(m for m in h.channel_messages() if f"gh:reveal:{table.id}" in str(m.components))
    carol, dave = h.user(300, "carol"), h.user(301, "dave")
    opened = [await h.slash(carol, "game review", table=table.id)]
    opened += [await h.click(carol, result, f"gh:reveal:{table.id}") for _ in range(LOOKS_PER_MINUTE - 2)]
    opened.append(await h.slash(carol, "game record", table=table.id))
    assert not any(says(r.text, "error.look_back_cooldown") for r in opened)
    for ask in (h.slash(carol, "game review", table=table.id), h.click(carol, result, f"gh:reveal:{table.id}"),
                h.slash(carol, "game record", table=table.id)):
        refused = await ask
        assert refused.ephemeral and says(refused.text, "error.look_back_cooldown")
        assert all(not m.attachments for m in refused.messages)
    viewer = opened[0].messages[-1]
    for _ in range(LOOKS_PER_MINUTE + 2):  # ▶ is no opening
        stepped = await h.click(carol, viewer, label="▶")
        assert not says(stepped.text, "error.look_back_cooldown")
    assert says((await h.click(dave, result, f"gh:reveal:{table.id}")).text, "reveal.hands")  # per member


async def test_one_numbering_of_moves_on_the_board_the_record_the_viewer_and_reveal(h: Harness) -> None:
    """Issue 53: the final board's "move n", the record's n moves, the viewer's last frame n/n and Reveal's moves
    are one count — the logged moves, not the table's changes (its start is one) — and Reveal tells each secret at
    the move the viewer shows it."""
    table = await finished_bot_table(h, "rocca", seed=5)  # seed 5 has Queen passes, which Reveal tells
    moves = len(await h.bot.storage.action_log(table.id))
    assert table.moves == moves < table.version
    author = board_message(h, table).embeds[0]["author"]["name"]
    assert says(author, "common.table_number", id=table.id, move=moves)
    alice = h.user(ALICE, "alice")
    record = await h.slash(alice, "game record", table=table.id)
    assert says(record.text, "record.reply", id=table.id, game="Rocca Card Tower", count=moves)
    viewer = (await h.slash(alice, "game review", table=table.id)).messages[-1]
    await h.click(alice, viewer, label="⏭")
    assert says(h.message(viewer.id).payload["embeds"][0]["title"], "review.title", id=table.id,
                game="Rocca Card Tower", index=moves, total=moves)
    result = next(m for m in h.channel_messages() if f"gh:reveal:{table.id}" in str(m.components))
    reveal = await h.click(alice, result, f"gh:reveal:{table.id}")
    replay = replay_cache(h.bot).get(table.id)
    assert replay is not None and len(replay) == moves + 1
    names = render.seat_names(table.seats, "en", literal.markdown)
    secrets = [(index, event) for index in range(len(replay)) for event in replay.frame_events(index)
               if event.visible_to and event.type in table.engine.secret_events]
    assert secrets
    for index, event in secrets:
        line = render.event_line("rocca", event, names, "en")
        assert says(reveal.text, "reveal.secret", index=index, line=line,
                    players=join_list(names(p) for p in event.visible_to or ())), index
