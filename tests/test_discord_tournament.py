"""Tournaments through Discord (the harness: discord.py's real objects, only HTTP faked): sign-up message with
Join/Leave, check-in, start, a thread per table with the seated players mentioned, the standings message kept
current, the organiser's tools, final standings posted; /leaderboard and /stats."""
from __future__ import annotations

import pytest

from bot.errors import HostError
from bot.i18n import LANGUAGES, t
from bot.tournaments import text as tx

from .discord_harness import Harness
from .discord_helpers import CHECK_IN, TOURNAMENT_JOIN, TOURNAMENT_LEAVE, Key, organiser, says

ALICE, BOB, CAROL, DAVE = 101, 102, 103, 104


def names_table(text: str, game_id: int) -> bool:
    """Whether ``text`` holds a board's header naming table #``game_id``, whatever move the board is at."""
    cut = "\0"
    return any(t("common.table_number", lang, id=game_id, move=cut).split(cut)[0] in text for lang in LANGUAGES)


def threads(h: Harness) -> list[dict]:
    return [c for c in h.server.channels.values() if c.get("parent_id") == str(h.channel_id)]


async def finish_round(h: Harness, alice, people: dict[int, object]) -> None:
    """Tables with people: the first gets its result set by hand, at the others a bot replaces the people."""
    tn = next(iter(h.bot.tournaments._cache.values()))
    live = [t for t in tn.round_tables(tn.current_round) if t.status == "running"]
    with_people = [t for t in live if any(u > 0 for u in t.players)]
    for i, table in enumerate(with_people):
        if i == 0:
            ranking = " > ".join(str(n) for n in range(1, len(table.players) + 1))
            r = await h.slash(alice, "tournament set-result", table=table.game_id, ranking=ranking)
            assert r.ephemeral and says(r.messages[-1].text, "tournament.done.set_result", table=table.game_id)
        else:
            persons = [u for u in table.players if u > 0]
            for uid in persons:  # a bot plays on for each, the last person too: the bots finish the table
                r = await h.slash(alice, "tournament replace", player=people[uid])
                said = "tournament.done.replace"
                assert r.ephemeral and says(r.messages[-1].text, said, player=f"<@{uid}>"), r.messages[-1].text
    await h.settle()
    # Replaced before their first move, they missed their game: no-shows (issue 51), told so; they come back.
    for message in h.channel_messages():
        if says(message.text, "tournament.no_shows") and message.components and tn.status == "running":
            for uid in [u for u in people if f"<@{u}>" in message.text and tn.entrants[u].status == "away"]:
                await h.click(people[uid], message, label=Key("tournament.button.back"))


async def test_a_whole_tournament_from_discord(h: Harness) -> None:
    alice, bob, carol = (await organiser(h, ALICE, "alice")), h.user(BOB, "bob"), h.user(CAROL, "carol")
    people = {ALICE: alice, BOB: bob, CAROL: carol}
    r = await h.slash(alice, "tournament create", game="akuma", rounds=2, bots=4, name="Spring Cup")
    assert r.type == "deferred" and not r.ephemeral  # deferred: the bots and the database come before the answer
    signup = r.message
    assert "Spring Cup" in signup.text and "Bot 4" in signup.text
    labels = [c["label"] for c in signup.components]
    assert len(labels) == 2 and any(map(TOURNAMENT_JOIN.matches, labels)) and any(map(TOURNAMENT_LEAVE.matches, labels))

    for user in (alice, bob, carol):
        reply = await h.click(user, signup, label=TOURNAMENT_JOIN)
        assert reply.ephemeral and says(reply.messages[-1].text, "tournament.done.join")
    assert all(f"<@{u}>" in signup.text for u in people)
    again = await h.click(bob, signup, label=TOURNAMENT_JOIN)
    assert again.ephemeral and says(again.messages[-1].text, "error.tournament.already_entered")
    left = await h.click(carol, signup, label=TOURNAMENT_LEAVE)
    assert left.ephemeral and f"<@{CAROL}>" not in signup.text
    await h.click(carol, signup, label=TOURNAMENT_JOIN)

    refused = await h.slash(bob, "tournament start")  # neither Manage Server nor the organiser role
    assert refused.ephemeral and says(refused.messages[-1].text, "error.limit.organiser_role")
    assert not threads(h)

    started = await h.slash(alice, "tournament start")
    tn = next(iter(h.bot.tournaments._cache.values()))
    assert started.ephemeral and says(started.messages[-1].text, "tournament.done.start", id=tn.id)
    assert says(signup.text, "tournament.status.round", round=1, rounds=2) and signup.components == []  # closed
    assert not says(signup.text, "tournament.signup_footer")

    # Round 1: 7 entrants -> a table of 4 and one of 3, each in its own thread with its people mentioned.
    round1 = tn.round_tables(1)
    assert sorted(len(t.players) for t in round1) == [3, 4] and len(threads(h)) == 2
    for table in round1:
        messages = h.channel_messages(table.channel_id)
        intro = messages[0]
        assert all(f"<@{u}>" in intro.text for u in table.players if u > 0)
        sent = next(c for c in h.calls if c.method == "POST" and c.path == f"/channels/{table.channel_id}/messages")
        assert sorted(map(int, sent.json["allowed_mentions"]["users"])) == sorted(u for u in table.players if u > 0)
        assert any(names_table(m.text, table.game_id) for m in messages[1:])  # the board, in the thread
    standings = h.message(tn.standings_message_id)
    assert says(standings.text, "tournament.standings_title_first", name="Spring Cup", rounds=2)  # not "round 0"
    announcement = [m for m in h.channel_messages() if says(m.text, "tournament.round_started", round=1, rounds=2)]
    assert announcement and all(f"<#{t.channel_id}>" in announcement[0].text for t in round1)

    await finish_round(h, alice, people)
    # A pause before round 2 (the default two minutes), shown as a Discord timestamp; the organiser cuts it short.
    assert tn.current_round == 1 and all(t.done for t in round1) and tn.next_round_at is not None
    at = f"<t:{int(tn.next_round_at)}:R>"
    pause = [m for m in h.channel_messages() if says(m.text, "tournament.break")]
    assert len(pause) == 1 and says(pause[0].text, "tournament.break", round=1, next=2, at=at)
    assert says(signup.text, "tournament.status.break", round=1, next=2, at=at)
    moved = await h.slash(alice, "tournament next-round")
    assert moved.ephemeral and tn.current_round == 2 and tn.next_round_at is None
    for table in round1:  # no Rematch at a tournament table (its result has none), not even through a forged button
        with pytest.raises(HostError, match="rematch_tournament"):
            await h.bot.service.rematch(table.game_id, ALICE)  # type: ignore[attr-defined]
    assert says(standings.text, "tournament.standings_title", name="Spring Cup", round=1, rounds=2)
    assert says(standings.text, "tournament.standing_line")  # each row: points (where from) · opponents' average
    assert len(threads(h)) == 4

    await finish_round(h, alice, people)
    assert tn.status == "finished"
    assert not [m for m in h.channel_messages() if m.id == standings.id]  # made way for the final
    final = [m for m in h.channel_messages()
             if says(m.text, "tournament.standings_title") or says(m.text, "tournament.final_standings_title")]
    assert len(final) == 1 and says(final[0].text, "tournament.finished", name="Spring Cup") and "1." in final[0].text
    assert says(signup.text, "tournament.status.finished")

    # Standings on demand, only to the asker; /stats counts the finished tables with people.
    mine = await h.slash(bob, "tournament standings", tournament=tn.id)
    assert mine.ephemeral and says(mine.messages[-1].text, "tournament.final_standings_title")
    stats = await h.slash(bob, "stats")
    assert stats.ephemeral and says(stats.messages[-1].text, "stats.title", name="bob")
    board = await h.slash(bob, "leaderboard", game="akuma")
    assert not board.ephemeral and says(board.messages[-1].text, "stats.leaderboard_title",
                                        game=t("game.akuma.name", "en"))


async def test_check_in_drop_and_errors(h: Harness) -> None:
    alice, bob, carol, dave = ((await organiser(h, ALICE, "alice")), h.user(BOB, "bob"), h.user(CAROL, "carol"),
                               h.user(DAVE, "dave"))
    r = await h.slash(alice, "tournament create", game="akuma", bots=2)
    signup = r.message
    for user in (bob, carol, dave):
        await h.click(user, signup, label=TOURNAMENT_JOIN)
    nothing = await h.slash(bob, "tournament checkin")
    assert nothing.ephemeral and says(nothing.messages[-1].text, "error.tournament.organiser_only")
    opened = await h.slash(alice, "tournament checkin")
    assert opened.ephemeral and any(CHECK_IN.matches(c["label"]) for c in signup.components)
    for user in (bob, carol):
        reply = await h.click(user, signup, label=CHECK_IN)
        assert reply.ephemeral and says(reply.messages[-1].text, "tournament.done.checkin")
    twice = await h.click(bob, signup, label=CHECK_IN)
    assert says(twice.messages[-1].text, "error.tournament.already_checked_in")
    await h.slash(alice, "tournament start")
    tn = next(iter(h.bot.tournaments._cache.values()))
    assert tn.entrants[DAVE].status == "dropped"  # did not check in
    assert sum(len(t.players) for t in tn.round_tables(1)) == 4  # bob, carol and the two bots

    bad = await h.slash(alice, "tournament drop", player=dave)
    assert bad.ephemeral and says(bad.messages[-1].text, "error.tournament.already_dropped")
    dropped = await h.slash(bob, "tournament drop", player=bob)  # players may drop themselves
    assert dropped.ephemeral and tn.entrants[BOB].status == "dropped"
    wrong = await h.slash(alice, "tournament void", table=99999)
    assert wrong.ephemeral and says(wrong.messages[-1].text, "error.tournament.unknown_table")
    table = tn.round_tables(1)[0]
    badrank = await h.slash(alice, "tournament set-result", table=table.game_id, ranking="1 > banana")
    assert badrank.ephemeral and says(badrank.messages[-1].text, "error.tournament.ranking_unknown", player="banana",
                                      table=table.game_id)
    seats = " > ".join(map(str, range(1, len(table.players) + 1)))
    for ranking in ("1 > 2 > > 3", seats + " > 1"):
        badrank = await h.slash(alice, "tournament set-result", table=table.game_id, ranking=ranking)
        assert badrank.ephemeral and not says(badrank.messages[-1].text, "tournament.done.set_result")
    ended = await h.slash(alice, "tournament end")
    assert ended.ephemeral and tn.status == "finished"
    assert any(says(m.text, "tournament.finished", name=tx.title(tn, tn.locale)) for m in h.channel_messages())
    none = await h.slash(alice, "tournament standings")
    assert none.ephemeral and says(none.messages[-1].text, "error.tournament.none_here")


@pytest.mark.parametrize("name", ["   ", "\u200b\u200b", "\u3000"])
async def test_a_blank_name_is_refused_privately_and_uses_no_creation_slot(h: Harness, name: str) -> None:
    """Bad input changes nothing: three blank names (spaces, zero-width spaces, an ideographic space) are each
    refused in a private reply, nothing reaches the channel, and the member's next create (the default limit is
    three a minute) still succeeds."""
    alice = await organiser(h, ALICE, "alice")
    for _ in range(3):
        r = await h.slash(alice, "tournament create", game="akuma", name=name)
        assert r.ephemeral and says(r.messages[-1].text, "error.tournament.blank_name")
    assert not h.channel_messages() and not h.bot.tournaments._cache
    r = await h.slash(alice, "tournament create", game="akuma", name="Spring Cup")
    assert not r.ephemeral and "Spring Cup" in r.message.text and len(h.bot.tournaments._cache) == 1
