"""``/game record <table>`` through the strict edge (issue 33, item 5): a finished table of this server comes back,
only to whoever asked, as a JSON record that replays exactly (and, for a game that draws a board, its animated
summary as a GIF); a table still running, of another server or unknown, and a game whose log no longer replays,
are refused with a clear message and no file. The fake Discord refuses what Discord refuses: more than 10 files,
or a file over the server's attachment size limit."""
from __future__ import annotations

import io
import json
from pathlib import Path

import discord
import pytest
from PIL import Image

from bot.games import render_hooks
from bot.replay import GameRecord, rebuild
from bot.table import Table

from . import discord_harness_payloads
from .conftest import rows
from .discord_harness import DiscordRefused, Harness
from .discord_harness_payloads import ATTACHMENT_SIZE_LIMIT
from .discord_helpers import assert_forged_clicks_refused, says

ALICE, BOB, MALLORY = 101, 102, 109
GUILD_B = 900_000_000_000_000_777


async def finished_bot_table(h: Harness, game: str, players: int = 2, seed: int = 3) -> Table:
    table = await h.bot.service.create_bot_table(game=game, players=players, seed=seed, channel_id=h.channel_id,
                                                 guild_id=h.guild_id)
    await h.settle()
    assert table.status == "finished"
    return table


def refused(reply, text: str) -> None:
    assert reply.ephemeral and text in reply.messages[-1].text, reply.text
    assert all(not m.attachments for m in reply.messages)


async def test_a_finished_table_comes_back_as_a_record_and_a_summary(h: Harness) -> None:
    table = await finished_bot_table(h, "pileup")
    r = await h.slash(h.user(ALICE, "alice"), "game record", table=table.id)
    answer = r.messages[-1]
    assert r.ephemeral and f"record of table #{table.id}" in answer.text
    files = answer.files
    assert set(files) == {f"table-{table.id}-pileup.json", f"table-{table.id}-pileup.gif"}
    record = GameRecord.read(files[f"table-{table.id}-pileup.json"])
    assert record.table == table.id and record.seed == table.row.seed and record.engine_version == 1
    assert [a.action for a in record.actions] == [a.action for a in await h.bot.storage.action_log(table.id)]
    assert len(rebuild(record)) == len(record.actions) + 1
    with Image.open(io.BytesIO(files[f"table-{table.id}-pileup.gif"])) as gif:
        assert gif.format == "GIF" and gif.n_frames > 2
    assert len(files[f"table-{table.id}-pileup.gif"]) <= ATTACHMENT_SIZE_LIMIT
    assert says(answer.text, "record.animated")  # said only because it is attached


async def test_a_game_without_board_picture_gets_the_record_alone_in_japanese(h: Harness) -> None:
    table = await finished_bot_table(h, "akuma", players=3)
    r = await h.slash(h.user(BOB, "bob", locale="ja"), "game record", table=table.id)
    assert r.ephemeral and f"卓 #{table.id}" in r.messages[-1].text
    assert list(r.messages[-1].files) == [f"table-{table.id}-akuma.json"]
    assert says(r.messages[-1].text, "record.reply") and not says(r.messages[-1].text, "record.animated")


async def test_a_summary_over_the_servers_limit_is_left_out_and_said(h: Harness,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that accepts smaller files (interactions say how large): the real summary does not fit."""
    table = await finished_bot_table(h, "rocca")
    monkeypatch.setattr(discord_harness_payloads, "ATTACHMENT_SIZE_LIMIT", 4096)
    r = await h.slash(h.user(ALICE, "alice"), "game record", table=table.id)
    assert list(r.messages[-1].files) == [f"table-{table.id}-rocca.json"]
    assert says(r.messages[-1].text, "record.summary_too_large") and not says(r.messages[-1].text, "record.animated")


async def test_tables_not_finished_elsewhere_unknown_or_not_replaying_are_refused(h: Harness,
                                                                                  tmp_path: Path) -> None:
    alice = h.user(ALICE, "alice")
    running = await h.bot.service.create_lobby(game="akuma", guild_id=h.guild_id, channel_id=h.channel_id,
                                               user_id=ALICE, name="alice", seed=4)
    await h.bot.service.join(running.id, BOB, "bob")
    await h.bot.service.add_bot(running.id, ALICE)
    await h.bot.service.start(running.id, ALICE)
    await h.settle()
    refused(await h.slash(alice, "game record", table=running.id), "is not finished")
    refused(await h.slash(alice, "game record", table=987654), "There is no table #987654")
    done = await finished_bot_table(h, "akuma", players=3, seed=8)
    elsewhere = h.add_guild(GUILD_B)["elsewhere"]
    mallory = h.user(MALLORY, "mallory", permissions=discord.Permissions.all())
    refused(await h.slash(mallory, "game record", channel=elsewhere, table=done.id), "another server")
    first = json.loads(rows(tmp_path / "bot.db", "SELECT action FROM actions WHERE game_id = ? AND seq = 2",
                            done.id)[0][0])
    rows(tmp_path / "bot.db", "UPDATE actions SET action = ? WHERE game_id = ? AND seq = 1", json.dumps(first),
         done.id)
    refused(await h.slash(alice, "game record", table=done.id), "cannot be replayed")


async def test_the_fake_discord_refuses_too_many_or_too_large_files(h: Harness) -> None:
    channel = h.channel()
    assert isinstance(channel, discord.TextChannel)
    with h.expect_errors(DiscordRefused) as caught:
        with pytest.raises(discord.HTTPException) as many:
            await channel.send(files=[discord.File(io.BytesIO(b"x"), filename=f"f{i}.txt") for i in range(11)])
        with pytest.raises(discord.HTTPException) as large:
            await channel.send(file=discord.File(io.BytesIO(bytes(ATTACHMENT_SIZE_LIMIT + 1)), filename="big.bin"))
        await h.settle()
    assert (many.value.status, large.value.status) == (400, 413) and len(caught) == 2
    sent = await channel.send(file=discord.File(io.BytesIO(bytes(ATTACHMENT_SIZE_LIMIT)), filename="max.bin"))
    assert len(h.message(sent.id).files["max.bin"]) == ATTACHMENT_SIZE_LIMIT


async def test_reveal_under_the_result_shows_every_hand_and_the_secret_events(h: Harness) -> None:
    """Rocca: the Reveal button under the result shows, only to whoever pressed it, what each seat held at the end
    (every card of the final state's hands) and the Queen passes that only their two players saw."""
    table = await finished_bot_table(h, "rocca", seed=5)
    result = next(m for m in h.channel_messages() if "Rematch" in str(m.components))
    r = await h.click(h.user(MALLORY, "mallory"), result, result.button(None, rf"gh:reveal:{table.id}")["custom_id"])
    text = r.messages[-1].text
    assert r.ephemeral and says(text, "reveal.hands")
    mark = render_hooks("rocca").card
    for player, hand in table.state.hands.items():
        assert f"{table.names('en')[player]}: {len(hand)} card" in text and all(mark(c) in text for c in hand)
    passes = [a for a in await h.bot.storage.action_log(table.id) if a.action["type"] == "give"]
    assert passes and says(text, "reveal.secrets")  # seed 5 has Queen passes
    assert text.count("seen by") == len(passes)


async def test_reveal_of_a_table_not_finished_or_unknown_is_refused(h: Harness) -> None:
    """Reveal buttons forged for a lobby and an unknown table, on a copy of a result message."""
    table = await finished_bot_table(h, "akuma", players=3)
    lobby = await h.bot.service.create_lobby(game="akuma", guild_id=h.guild_id, channel_id=h.channel_id,
                                             user_id=ALICE, name="alice", seed=4)
    await h.settle()
    await assert_forged_clicks_refused(h, h.user(BOB, "bob"), table, {
        f"gh:reveal:{lobby.id}": f"Table #{lobby.id} is not finished", "gh:reveal:987654": "There is no table #987654"})


async def test_the_reveal_shows_names_as_typed_and_a_long_one_comes_as_a_file(h: Harness) -> None:
    """A seat whose person typed markdown into their name is shown literally in the reveal (never as bold text or
    a mention); a reveal too long for one embed comes whole as a text file, never cut short."""
    table = await finished_bot_table(h, "rocca", seed=5)
    await h.bot.storage.db.execute("UPDATE seats SET user_id = ?, is_bot = 0, name = ? WHERE game_id = ? AND seat = 0",
                                   ALICE, "**al**_ice_ @everyone", table.id)
    result = next(m for m in h.channel_messages() if "Rematch" in str(m.components))
    reveal = result.button(None, rf"gh:reveal:{table.id}")["custom_id"]
    r = await h.click(h.user(BOB, "bob"), result, reveal)
    shown = r.messages[-1].payload["embeds"][0]["description"]
    assert "\\*\\*al\\*\\*\\_ice\\_" in shown and "**al**" not in shown and "@everyone" not in shown
    await h.bot.storage.db.execute("UPDATE seats SET name = ? WHERE game_id = ? AND seat = 0", "n" * 4000, table.id)
    r = await h.click(h.user(BOB, "bob"), result, reveal)
    (file_text,) = r.messages[-1].files.values()
    assert r.ephemeral and "n" * 4000 in file_text.decode() and not r.messages[-1].embeds
