"""The replay viewer through the strict edge (issue 33, item 2): **Review** under a result and ``/game review``
open a private viewer of a finished table; ⏮ ◀ ▶ ⏭, the seek menu and the perspective menu edit it in place; *my
seat* never shows another seat's hidden cards; *all hands* waits for a tournament round to be over; unfinished,
unknown and other servers' tables and forged frames are refused and change nothing; an old viewer works after a
restart (its custom_ids carry everything)."""
from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.i18n import LANGUAGES, catalog
from bot.review import Perspective, seek_points
from bot.storage import SeatRow
from bot.table import Table
from cogs.review import replay_cache

from .discord_harness import Harness
from .discord_helpers import Key, assert_forged_clicks_refused, kill, says, start_harness
from .test_hidden_information import Secrets
from .tournament_round import in_running_round

ALICE, BOB, MALLORY = 101, 102, 109
GUILD_B = 900_000_000_000_000_777
NEXT, LAST, FIRST = "▶", "⏭", "⏮"


async def played_table(h: Harness, game: str, players: int = 3, seed: int = 3) -> Table:
    """A finished table whose first seat is Alice's (a bot played it for her, as after she left); easy bots and
    one round of Twin Pyramid keep it short."""
    seats = [SeatRow(0, "p1", "alice", ALICE, True, level="easy")] + [
        SeatRow(i, f"bot{i}", f"Bot {i}", None, True, level="easy") for i in range(1, players)]
    options = {"rounds": 1} if game == "twinpyramid" else None
    table = await h.bot.service.create_seated_table(game=game, guild_id=h.guild_id, channel_id=h.channel_id,
                                                    seats=seats, host_id=ALICE, seed=seed, options=options)
    await h.settle(timeout=120)
    assert table.status == "finished"
    return table


def embed_text(message) -> str:
    embed = message.payload["embeds"][0]
    return "\n".join([embed["title"], embed["description"], embed.get("footer", {}).get("text", "")])


def step_of(message) -> str:
    return message.payload["embeds"][0]["title"]


def shown_frame(message) -> int:
    """The move a viewer's title says it shows (``review.title``, in either language)."""
    title = step_of(message)
    for lang in LANGUAGES:
        pattern = re.escape(catalog(lang)["review.title"]).replace(r"\{index\}", r"(?P<index>\d+)")
        found = re.fullmatch(re.sub(r"\\\{\w+\\\}", ".*?", pattern), title)
        if found is not None:
            return int(found["index"])
    raise AssertionError(f"not a viewer's title: {title!r}")


async def test_review_under_the_result_opens_steps_seeks_and_switches(h: Harness) -> None:
    table = await played_table(h, "twinpyramid", seed=4)
    alice = h.user(ALICE, "alice")
    result = next(m for m in h.channel_messages() if f"gh:review:{table.id}" in str(m.components))
    r = await h.click(alice, result, f"gh:review:{table.id}")
    viewer = r.messages[-1]
    replay = replay_cache(h.bot).get(table.id)
    assert replay is not None and r.ephemeral
    total = len(replay) - 1
    assert shown_frame(viewer) == 0 and says(step_of(viewer), "review.title", id=table.id, game="Twin Pyramid",
                                            index=0, total=total) and says(embed_text(viewer), "review.perspective.m")
    assert "board.png" in viewer.files  # Twin Pyramid draws its board
    assert says(embed_text(viewer), "review.hand")  # her own hand, from the start
    stepped = await h.click(alice, viewer, label=NEXT)
    assert stepped.type != "message" and shown_frame(h.message(viewer.id)) == 1
    await h.click(alice, viewer, label=LAST)
    assert shown_frame(h.message(viewer.id)) == total
    kind, points = seek_points(replay)
    assert kind.value == "deal" and 1 < len(points) <= 25
    await h.select(alice, viewer, r"gh:rvk:.*:d", [str(points[1].frame)])
    assert shown_frame(h.message(viewer.id)) == points[1].frame
    await h.select(alice, viewer, r"gh:rvp:.*", ["a"])
    shown = embed_text(h.message(viewer.id))
    assert says(shown, "review.perspective.a") and shown.count("🔒") >= 3  # every seat's hand
    await h.select(alice, viewer, r"gh:rvp:.*", ["s"])
    shown = embed_text(h.message(viewer.id))
    assert says(shown, "review.perspective.s") and not says(shown, "review.hand")
    assert table.status == "finished" and table.version == (await h.bot.service.table(table.id)).version


async def test_my_seat_never_shows_another_seats_hidden_cards(h: Harness) -> None:
    """Every frame of Alice's viewer at *my seat*, stepped with ▶ through the whole game, passes the leak check
    of tests/test_hidden_information.py for her seat; the events she saw privately may name their cards."""
    table = await played_table(h, "rocca", players=3, seed=10 ** 12 + 21)  # no number shown looks like it
    alice = h.user(ALICE, "alice")
    r = await h.slash(alice, "game review", table=table.id)
    viewer = r.messages[-1]
    replay = replay_cache(h.bot).get(table.id)
    assert replay is not None
    told: set[str] = set()
    from tests.engines.conformance import string_leaves
    leaks = []
    for index in range(len(replay)):
        private = [ev for ev in replay.events_seen(index, "p1") if ev.visible_to is not None]
        for ev in private:
            told |= set(string_leaves(ev.data))
        allowed = {p for ev in private for p in ev.visible_to or ()}
        text = h.message(viewer.id).payload["embeds"][0]["description"]  # the title's step numbers are no cards
        assert shown_frame(h.message(viewer.id)) == index
        leaks += [f"frame {index}: {w}" for w in Secrets("rocca", replay.state(index)).leaks(
            text, "p1", allowed, known=told)]
        if index < len(replay) - 1:
            await h.click(alice, viewer, label=NEXT)
    assert not leaks, leaks[:10]


async def test_review_in_japanese_and_for_a_spectator(h: Harness) -> None:
    table = await played_table(h, "akuma", seed=6)
    bob = h.user(BOB, "bob", locale="ja")
    r = await h.slash(bob, "game review", table=table.id)
    viewer = r.messages[-1]
    assert r.ephemeral and f"卓 #{table.id}" in step_of(viewer) and "観戦者として" in embed_text(viewer)
    assert not viewer.files  # Akuma draws no board picture
    mine = await h.select(bob, viewer, r"gh:rvp:.*", ["m"])
    assert mine.ephemeral and says(mine.text, "error.review_not_seated")


async def test_unfinished_unknown_other_server_and_forged_frames_are_refused(h: Harness) -> None:
    alice = h.user(ALICE, "alice")
    lobby = await h.bot.service.create_lobby(game="akuma", guild_id=h.guild_id, channel_id=h.channel_id,
                                             user_id=BOB, name="bob", seed=4)
    done = await played_table(h, "akuma", seed=8)
    r = await h.slash(alice, "game review", table=lobby.id)
    assert r.ephemeral and says(r.text, "error.review_not_finished") and not r.messages[-1].embeds
    r = await h.slash(alice, "game review", table=987654)
    assert r.ephemeral and "#987654" in r.text
    elsewhere = h.add_guild(GUILD_B)["elsewhere"]
    mallory = h.user(MALLORY, "mallory", permissions=discord.Permissions.all())
    r = await h.slash(mallory, "game review", channel=elsewhere, table=done.id)
    assert r.ephemeral and says(r.text, "error.other_server")
    await assert_forged_clicks_refused(h, alice, done, {
        f"gh:rv:{done.id}:99999:m:3": "There is no move 99999", f"gh:rv:{lobby.id}:1:s:3": "is not finished",
        "gh:rv:987654:1:s:3": "There is no table #987654", f"gh:review:{lobby.id}": "is not finished"})


async def test_all_hands_waits_for_the_tournament_round(h: Harness) -> None:
    """A tournament table finished while another table of its round still plays: *my seat* and the spectator
    view open, *all hands* is refused; once the round is over it opens."""
    table = await played_table(h, "akuma", seed=9)
    round_ = await in_running_round(h, table.id, ALICE, BOB)
    alice = h.user(ALICE, "alice")
    r = await h.slash(alice, "game review", table=table.id)
    viewer = r.messages[-1]
    assert says(embed_text(viewer), "review.perspective.m")
    refused = await h.select(alice, viewer, r"gh:rvp:.*", [Perspective.ALL.value])
    assert refused.ephemeral and says(refused.text, "error.review_round_running")
    assert says(embed_text(h.message(viewer.id)), "review.perspective.m")  # the viewer is unchanged
    await round_.finish()
    await h.select(alice, viewer, r"gh:rvp:.*", [Perspective.ALL.value])
    assert says(embed_text(h.message(viewer.id)), "review.perspective.a")


async def test_an_old_viewer_steps_after_a_restart(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    table = await played_table(h, "pileup", players=2, seed=3)
    alice = h.user(ALICE, "alice")
    r = await h.slash(alice, "game review", table=table.id)
    old = dict(r.messages[-1].payload)
    await kill(h)
    h2 = await start_harness(tmp_path / "bot.db")
    try:
        assert replay_cache(h2.bot).get(table.id) is None
        viewer = h2.adopt(old)
        stepped = await h2.click(h2.user(ALICE, "alice"), viewer, label=NEXT)
        assert stepped.type == "deferred_update" or stepped.responded
        assert shown_frame(h2.message(viewer.id)) == 1 and replay_cache(h2.bot).get(table.id) is not None
    finally:
        await h2.close()


async def test_a_shared_review_is_led_by_one_player_and_watched_by_all(h: Harness) -> None:
    """Issue 33, item 4: Alice (who played) shares her viewer with the table: one public message, stepped only by
    her and edited in place, from the spectator's view (no one's seat); Bob, who did not play, cannot share nor
    step it; a second share names the one open."""
    table = await played_table(h, "rocca", seed=7)
    alice, bob = h.user(ALICE, "alice"), h.user(BOB, "bob")
    mine = (await h.slash(alice, "game review", table=table.id)).messages[-1]
    await h.click(alice, mine, label=NEXT)
    before = len(h.channel_messages())
    r = await h.click(alice, mine, label=Key("review.share"))
    assert r.ephemeral and says(r.messages[-1].text, "review.shared")
    assert len(h.channel_messages()) == before + 1
    shared = h.channel_messages()[-1]
    assert not shared.ephemeral and says(shared.text, "review.shared_by") and shown_frame(shared) == 1
    assert says(embed_text(shared), "review.perspective.s") and not says(embed_text(shared), "review.hand")
    assert "m" not in [o["value"] for o in shared.select(r"gh:rvp:.*")["options"]]
    assert all(not c.get("custom_id", "").startswith("gh:rvsh") for c in shared.components)
    refused = await h.click(bob, shared, label=NEXT)
    assert refused.ephemeral and says(refused.text, "error.review_not_leader") and 1 == shown_frame(
        h.message(shared.id))
    await h.click(alice, shared, label=NEXT)
    await h.select(alice, shared, r"gh:rvp:.*", ["a"])
    assert shown_frame(h.message(shared.id)) == 2 and says(embed_text(h.message(shared.id)),
                                                                "review.perspective.a")
    assert len(h.channel_messages()) == before + 1  # edited in place, never a new message
    again = await h.click(alice, mine, label=Key("review.share"))
    assert again.ephemeral and says(again.text, "error.review_share_open")
    bobs = (await h.slash(bob, "game review", table=table.id)).messages[-1]
    nope = await h.click(bob, bobs, label=Key("review.share"))
    assert nope.ephemeral and says(nope.text, "error.review_share_not_player")
    assert len(h.channel_messages()) == before + 1


async def test_the_moves_a_bot_made_for_an_absent_person_say_so(h: Harness) -> None:
    """Bob joins and never presses: his clock runs out (a bot moves for him) until his seat goes to a bot. A tester
    found his review showing every one of those moves as his own ("bob draws A♠ …"). The log marks a move a bot
    made for a person's seat, and the viewer says so at that move — never at a move the person made."""
    import random

    from bot.policies import choose_action

    from .test_discord_paused import advance, manual_time

    clock = manual_time(h)
    alice, bob = h.user(ALICE, "alice"), h.user(BOB, "bob")
    r = await h.slash(alice, "play akuma", bots=1, timer=30)
    await h.click(bob, r.message, label="Join")
    await h.click(alice, r.message, label="Start")
    await h.settle()
    table = next(tab for tab in await h.bot.service.tables_in_channel(h.channel_id) if tab.status == "running")
    rng = random.Random(5)
    for _ in range(400):
        if table.status != "running":
            break
        if f"u{ALICE}" in table.to_act():
            action = choose_action(table.engine, table.state, f"u{ALICE}", rng)
            await h.bot.service.act(table.id, ALICE, action, table.version)
            await h.settle()
        else:
            await advance(h, clock, 31)
    assert table.status == "finished"
    log = await h.bot.storage.action_log(table.id)
    assert {a.stand_in for a in log if a.player == f"u{BOB}"} == {True}
    assert not any(a.stand_in for a in log if a.player != f"u{BOB}")
    first_of_bob = next(i for i, a in enumerate(log, 1) if a.player == f"u{BOB}")
    viewer = (await h.slash(bob, "game review", table=table.id)).messages[-1]
    for index in range(1, first_of_bob + 2):
        await h.click(bob, viewer, label=NEXT)
        text = embed_text(h.message(viewer.id))
        stood_in = log[index - 1].stand_in
        assert says(text, "review.stand_in", player="bob") is stood_in, (index, text)


async def test_the_viewers_picture_says_in_words_what_it_shows(h: Harness) -> None:
    """The viewer's board.png had no alt text, so a seat's shown card was in no text a spectator got (the strip
    draws it as a colour block). It carries the game's alt text, as the live board's picture does: every seat's
    field pyramid and shown cards at that moment."""
    from bot.render.twinpyramid import image_alt as twinpyramid_alt
    from bot.replay_show import record_names

    table = await played_table(h, "twinpyramid", players=3)
    viewer = (await h.slash(h.user(BOB, "bob"), "game review", table=table.id)).messages[-1]
    replay = replay_cache(h.bot).get(table.id)
    assert replay is not None
    names = record_names(replay.record, "en").plain()
    for index in range(1, 6):
        await h.click(h.user(BOB, "bob"), viewer, label=NEXT)
        shown = h.message(viewer.id)
        [picture] = [a for a in shown.attachments if a["filename"] == "board.png"]
        assert picture["description"] == twinpyramid_alt(replay.view(index, None), names, "en")
        assert says(picture["description"], "twinpyramid.image_alt")
