"""The comparison after a same-deal round (issue 55), through Discord: two people and two bots at two Pile up tables
of two. Nothing is compared while a table of the round plays; once the round is over the channel gets one message
per seat — every table's holder of that seat (their name shown literally, never as a mention), place, the game's
score and matchpoints, matching the standings — each table with a Review button that opens its review from that
seat (the clicker's own seat where they held it, else every hand), in the server's language."""
from __future__ import annotations

import random

import discord
import pytest

from bot import literal
from bot.i18n import t
from bot.tournaments import Tournament, compute_standings
from bot.tournaments.knockout_text import number
from bot.tournaments.matchpoints import seat_scores
from bot.tournaments.models import TableStatus

from .discord_harness import Harness
from .discord_helpers import TOURNAMENT_JOIN, organiser, says
from .test_discord_review import NEXT, embed_text
from .ui_driver import play_to_the_end

ALICE, BOB = 101, 102
BOB_NAME = "*bob* @everyone"  # markdown and a mass mention, to be shown literally


def tournament_of(h: Harness) -> Tournament:
    return next(iter(h.bot.tournaments._cache.values()))


def comparison_messages(h: Harness) -> list:
    return [m for m in h.channel_messages() if m.embeds and any("gh:cmp:" in str(c.get("custom_id"))
                                                                for c in m.components)]


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_same_deal_round_ends_with_its_comparison(h: Harness, lang: str) -> None:
    alice = await organiser(h, ALICE, "alice", permissions=discord.Permissions.all())
    bob = h.user(BOB, BOB_NAME)
    await h.slash(alice, "config language", language=lang)
    r = await h.slash(alice, "tournament create", game="pileup", deal="same", rounds=1, bots=2, min_seats=2,
                      max_seats=2, timer=0, break_minutes=0)
    for person in (alice, bob):
        await h.click(person, r.message, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament start")
    await h.settle()
    tn = tournament_of(h)
    tables = tn.round_tables(1)
    assert len(tables) == 2 and all(len(tb.players) == 2 for tb in tables)
    rng = random.Random(7)
    people = {ALICE: alice, BOB: bob}
    # the table played last has a person, who does not move until then (no timer): the other ends first
    later = next(tb for tb in reversed(tables) if any(u > 0 for u in tb.players))
    earlier = next(tb for tb in tables if tb is not later)
    first, second = [await h.bot.service.table(tb.game_id) for tb in (earlier, later)]  # type: ignore[arg-type]
    await play_to_the_end(h, first, people, rng)
    await h.settle()
    assert earlier.status is TableStatus.FINISHED and later.status is TableStatus.RUNNING
    assert comparison_messages(h) == []  # never while a table of the round plays
    # a forged Review from another's seat of the finished table is refused while the round plays
    stranger_seat = next(i for i, s in enumerate(first.seats) if s.user_id != ALICE)
    forged = dict(h.channel_messages()[-1].payload)
    forged["id"] = str(int(forged["id"]) + 1)
    forged["components"] = [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "x", "custom_id": f"gh:cmp:{first.id}:{stranger_seat}"}]}]
    refused = await h.click(alice, h.adopt(forged), f"gh:cmp:{first.id}:{stranger_seat}")
    # not seated there, she may not see the table at all (same-deal secrecy); seated, not another's hand yet
    why = "error.review_round_running" if ALICE in earlier.players else "error.same_deal_round_secret"
    assert refused.ephemeral and says(refused.text, why, game_id=first.id)
    await play_to_the_end(h, second, people, rng)
    await h.settle()
    tn = await h.bot.tournaments.get(tn.id)
    assert tn.status == "finished"

    shown = comparison_messages(h)
    assert len(shown) == 2  # one message per seat
    assert says(shown[0].text, "comparison.heading", round=1)
    scores = seat_scores(tn.round_tables(1))
    rows = {row.user_id: row for row in compute_standings(tn)}
    games = {tb.game_id: await h.bot.service.table(tb.game_id) for tb in tn.round_tables(1)}  # type: ignore[misc]
    for seat, message in enumerate(shown):
        embed = message.payload["embeds"][0]
        assert embed["title"] == t("comparison.seat_title", lang, round=1, seat=seat + 1)
        assert all(len(line) <= 60 for line in embed["description"].split("\n"))  # short lines, for a phone
        buttons = [c for c in message.components if "gh:cmp:" in c["custom_id"]]
        assert len(buttons) == 2 and all(c["custom_id"].endswith(f":{seat}") for c in buttons)
        for score in scores[seat]:
            table = next(tb for tb in tn.round_tables(1) if tb.number == score.table)
            game = games[table.game_id]
            held = game.seats[seat]
            result = game.result()
            assert result is not None
            assert t("comparison.holder", lang, table=score.table, name=literal.markdown(held.name)) in embed[
                "description"]
            place = t("comparison.place", lang, place=score.place)
            line = t("comparison.result", lang, place=place,
                     score=t("comparison.score", lang, score=number(result.scores[held.player])),
                     matchpoints=number(score.matchpoints), most=1, points=number(score.points or 0.0))
            assert line in embed["description"]
            if score.user_id > 0:  # a person: what the comparison says is what the standings count
                assert rows[score.user_id].points == score.points
    everything = "\n".join(m.text for m in shown)
    assert f"<@{BOB}>" not in everything and f"<@{ALICE}>" not in everything
    described = "\n".join(m.payload["embeds"][0]["description"] for m in shown)
    assert literal.markdown(BOB_NAME) in described and BOB_NAME not in described
    labels = [c["label"] for m in shown for c in m.components]  # a label shows text as is: the name as written
    assert any(BOB_NAME in label for label in labels)

    # Review from a seat: that seat's hand, whoever clicks (Alice's own, or the other table's holder of it), and
    # stepping keeps following it
    mine = next(tb for tb in tn.round_tables(1) if ALICE in tb.players)
    other = next(tb for tb in tn.round_tables(1) if tb is not mine)
    seat = mine.players.index(ALICE)
    message = shown[seat]
    for table in (mine, other):
        held = games[table.game_id].seats[seat]
        viewer = await h.click(alice, message, f"gh:cmp:{table.game_id}:{seat}")
        assert viewer.ephemeral
        text = embed_text(viewer.messages[-1])
        # a person by their name; a bot, named in the reader's language (as every review names bots)
        name = held.name if held.user_id is not None else t("common.bot_name", "en", number=int(held.player[3:]))
        assert says(text, "review.perspective_seat", seat=seat + 1, name=name)
        assert says(text, "review.hand") and literal.markdown(name) in text
        stepped = viewer.messages[-1]
        await h.click(alice, stepped, label=NEXT)
        assert says(embed_text(h.message(stepped.id)), "review.perspective_seat", seat=seat + 1, name=name)
