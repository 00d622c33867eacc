"""The lobby and the end of a table through the harness (strict edge): after Start the lobby says who plays and
has no buttons; the host removes a bot or a person before Start; a person joining a lobby full of bots takes a
bot's seat; the end posts one clear result with a Rematch button, removes the table's controls, and a Rematch
seats the same people and bots with the same options (once, however often it is pressed)."""
from __future__ import annotations

import random

from bot.i18n import LANGUAGES, t
from cogs.common import names_for
from engines.rocca.rules import rematch_start_player

from . import ui_driver
from .discord_harness import Harness
from .discord_helpers import (
    JOIN,
    START,
    assert_forged_clicks_refused,
    board_message,
    dispatch_click,
    only_table,
    opens_with_line,
    says,
)
from .test_discord_pings import play_whole_game

ALICE, BOB, CAROL = 101, 102, 103


def game_name(game: str):
    return lambda lang: t(f"game.{game}.name", lang)


async def test_after_start_the_lobby_says_who_plays_and_has_no_buttons(h: Harness) -> None:
    alice, bob = h.user(ALICE, "alice"), h.user(BOB, "bob")
    r = await h.slash(alice, "play akuma", bots=1, level="strong")
    lobby = r.message
    await h.click(bob, lobby, label=JOIN)
    assert says(lobby.text, "lobby.title") and says(lobby.text, "lobby.footer")
    await h.click(alice, lobby, label=START)
    await h.settle()
    table = only_table(h)
    lobby = h.message(lobby.id)
    assert table.status == "running"
    assert not says(lobby.text, "lobby.title") and not says(lobby.text, "lobby.footer"), lobby.text
    assert says(lobby.text, "lobby.title_started", game=game_name("akuma"), id=table.id)
    assert says(lobby.text, "lobby.started")
    bot = table.seat_of("bot1")
    assert "alice" in lobby.text and "bob" in lobby.text and says(
        lobby.text, "lobby.seat_line", number=bot.seat + 1, name=lambda lang: names_for(table, lang)("bot1"),
        tags=lambda lang: t("lobby.bot_tag", lang, level=t("bot.level.strong", lang)))
    assert says(lobby.text, "lobby.footer_started", count=3)
    assert lobby.components == []  # no Join, Leave, Add bot or Start any more


async def test_host_removes_a_bot_or_a_person_and_nobody_else_can(h: Harness) -> None:
    alice, bob, carol = h.user(ALICE, "alice"), h.user(BOB, "bob"), h.user(CAROL, "carol")
    lobby = (await h.slash(alice, "play akuma", bots=2)).message
    await h.click(bob, lobby, label=JOIN)
    table = next(iter(h.bot.service._tables.values()))  # type: ignore[attr-defined]
    menu = lobby.select(r"gh:lobbyrm:\d+:\d+")
    assert {o["value"] for o in menu["options"]} == {"bot1", "bot2", f"u{BOB}"}  # never the host's own seat
    version = table.version
    for stranger in (bob, carol):  # a seated guest and a passer-by: refused, only to them, nothing changes
        r = await h.select(stranger, lobby, r"gh:lobbyrm:\d+:\d+", ["bot1"])
        assert r.ephemeral and says(r.text, "error.host_only")
    assert table.version == version and len(table.seats) == 4
    before = dict(lobby.payload)  # the lobby as it reads now, for a late choice below
    await h.select(alice, lobby, r"gh:lobbyrm:\d+:\d+", ["bot1"])
    await h.settle()
    before["id"] = str(int(before["id"]) + 1)
    late = await h.select(alice, h.adopt(before), r"gh:lobbyrm:\d+:\d+", ["bot2"])  # chosen on the old lobby
    assert late.ephemeral and says(late.text, "error.lobby_changed") and table.seat_of("bot2") is not None
    assert [s.player for s in table.seats] == [f"u{ALICE}", "bot2", f"u{BOB}"]
    assert "Bot 2" in h.message(lobby.id).text and "Bot 1" not in h.message(lobby.id).text
    await h.select(alice, h.message(lobby.id), r"gh:lobbyrm:\d+:\d+", [f"u{BOB}"])
    await h.settle()
    assert [s.player for s in table.seats] == [f"u{ALICE}", "bot2"] and "bob" not in h.message(lobby.id).text
    r = await h.click(bob, h.message(lobby.id), label=JOIN)  # a removed person may join again
    assert table.seat_of_user(BOB) is not None


async def test_a_friend_joining_a_lobby_full_of_bots_takes_a_bots_seat(h: Harness) -> None:
    alice, bob, carol = h.user(ALICE, "alice"), h.user(BOB, "bob"), h.user(CAROL, "carol")
    lobby = (await h.slash(alice, "play diamondbox", bots=3)).message
    table = next(iter(h.bot.service._tables.values()))  # type: ignore[attr-defined]
    assert len(table.seats) == table.engine.max_players == 4
    r = await h.click(bob, lobby, label=JOIN)
    assert not r.ephemeral, r.text  # not "this table is full"
    await h.settle()
    assert [s.player for s in table.seats] == [f"u{ALICE}", "bot1", "bot2", f"u{BOB}"]
    await h.click(carol, h.message(lobby.id), label=JOIN)
    await h.click(h.user(104, "dave"), h.message(lobby.id), label=JOIN)
    assert [s.player for s in table.seats] == [f"u{ALICE}", f"u{104}", f"u{CAROL}", f"u{BOB}"]
    r = await h.click(h.user(105, "erin"), h.message(lobby.id), label=JOIN)  # four people: now it is full
    assert r.ephemeral and says(r.text, "error.table_full", max=4) and table.seat_of_user(105) is None
    await h.click(alice, h.message(lobby.id), label=START)
    assert table.status == "running" and not any(s.is_bot for s in table.seats)


def live_controls(h: Harness, table_id: int) -> list[str]:
    """Custom ids of the table's controls still on public messages (not deleted), those of the result aside."""
    return [c["custom_id"] for m in h.channel_messages() if not m.deleted for c in m.components
            if c.get("custom_id") and f":{table_id}" in c["custom_id"]
            and not c["custom_id"].startswith(("gh:rematch", "gh:reveal", "gh:review"))]


async def test_the_end_posts_one_clear_result_and_leaves_no_control_of_the_table(h: Harness) -> None:
    """A whole Akuma game of two people and a bot: the result names the places and explains why the player who
    emptied their hand ranks last (no bare "score 0"); no Join/My hand/I'm back is left; /game status shows it."""
    table, _ = await play_whole_game(h, "akuma", bob=True)
    await h.settle()
    assert table.status == "finished"
    results = [m for m in h.channel_messages() if says(m.text, "result.title", game=game_name("akuma"), id=table.id)
               and says(str(m.components), "result.rematch")]
    assert len(results) == 1, [m.text for m in h.channel_messages()][-3:]
    result = results[0]
    assert result.id == max(m.id for m in h.channel_messages())  # the last message of the table
    emptied = next(s for s in table.seats if not table.state.hands[s.player])
    def name(lang: str) -> str:
        return names_for(table, lang)(emptied.player)

    assert says(result.text, "akuma.result.emptied_last", player=name)
    assert says(result.text, "result.winners") and "🥇" not in result.text  # the ranking is on the board just above
    assert "🥇" in board_message(h, table).text and says(board_message(h, table).text, "akuma.result.lower_is_better")
    assert sum(m.text.count("🥇") for m in h.channel_messages()) == 1  # the ranking once, not three times
    for message in h.channel_messages():
        assert not any(name(lang) + t("common.score_suffix", lang, score=0) in message.text for lang in LANGUAGES)
    assert live_controls(h, table.id) == []  # lobby, boards: nothing left to press
    for person in (ALICE, BOB):  # each person's latest hand view (the one kept current) has no control left
        hands = [m for m in (h.message(i) for i in sorted(h.server.messages))
                 if m.ephemeral and opens_with_line(m.text, "hand.header")
                 and m.payload.get("interaction_metadata", {}).get("user", {}).get("id") == str(person)]
        assert hands and hands[-1].components == [], hands[-1].components
    lobby = h.message(table.row.lobby_message_id)
    assert says(lobby.text, "lobby.title_over") and lobby.components == []
    r = await h.slash(h.user(ALICE, "alice"), "game status")
    assert r.ephemeral and says(r.text, "table.last_result", id=table.id) and says(r.text, "common.final_ranking")


async def test_rematch_seats_the_same_people_and_bots_once_and_rocca_starts_with_the_last(h: Harness) -> None:
    """Rocca with two people and an easy bot: anyone who played may press Rematch (others are refused); pressing it
    at once by both people opens one table, with the same seats, levels, options and timer, started by the player
    who finished last (Decision [D8]); the two people of the first game were rated among themselves."""
    people = {ALICE: h.user(ALICE, "alice"), BOB: h.user(BOB, "bob")}
    lobby = (await h.slash(people[ALICE], "play rocca", bots=1, level="easy", timer=300)).message
    await h.click(people[BOB], lobby, label=JOIN)
    await h.click(people[ALICE], lobby, label=START)
    table = only_table(h)
    await ui_driver.play_to_the_end(h, table, people, random.Random(5))
    assert table.status == "finished"
    result = next(m for m in h.channel_messages() if says(str(m.components), "result.rematch"))
    button = result.button(None, r"gh:rematch:\d+")
    r = await h.click(h.user(CAROL, "carol"), result, button["custom_id"])
    assert r.ephemeral and says(r.text, "error.rematch_players_only") and table.row.rematch_id is None
    replies = [dispatch_click(h, people[BOB], result, button), dispatch_click(h, people[ALICE], result, button)]
    await h.settle()
    tables = [tb for tb in h.bot.service._tables.values() if tb.id != table.id]  # type: ignore[attr-defined]
    assert len(tables) == 1 and table.row.rematch_id == tables[0].id
    again = tables[0]
    refused = [r for r in replies if r.ephemeral]
    assert len(refused) == 1 and says(refused[0].text, "error.rematch_exists", game_id=again.id)
    assert says(h.message(result.id).text, "result.rematch_started") and h.message(result.id).components == []
    assert [(s.player, s.user_id, s.is_bot, s.level) for s in again.seats] == \
        [(s.player, s.user_id, s.is_bot, s.level) for s in table.seats]
    assert again.seats[1].level == "easy" and again.status == "running" and again.row.turn_seconds == 300
    last = rematch_start_player(table.state.players, table.result().ranking)
    assert again.state.start_player == last == table.result().ranking[-1][0]
    assert again.row.options == {**table.row.options, "start_player": table.state.players.index(last)}
    await h.settle()
    assert board_message(h, again).text  # its board is posted in the channel
    rated = {p: (await h.bot.ratings.stats(h.guild_id, p)).recent[0] for p in people}  # type: ignore[attr-defined]
    assert all(r.game_id == table.id and r.rated for r in rated.values())


async def test_forged_rematch_and_remove_controls_change_nothing(h: Harness) -> None:
    alice = h.user(ALICE, "alice")
    r = await h.slash(alice, "play akuma", bots=2)
    await h.click(alice, r.message, label=START)
    table = only_table(h)
    await assert_forged_clicks_refused(h, alice, table, {
        f"gh:rematch:{table.id}": "Only a finished game",  # a running table has no rematch
        "gh:rematch:987654321": "There is no table #987654321",
        f"gh:lobbyrm:{table.id}:{table.version}": "no longer at this table",  # a button, not a select: no seat
    })
    assert table.row.rematch_id is None and len(h.bot.service._tables) == 1  # type: ignore[attr-defined]
