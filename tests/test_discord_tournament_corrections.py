"""Corrections that correct (issue 43): a ``/tournament set-result`` or ``void`` after the end edits the posted final
standings message, and works from the tournament's channel or a table's thread without ``tournament:``."""
from __future__ import annotations

import random

import pytest

from bot.tournaments import compute_standings

from .discord_harness import Harness, SentMessage
from .discord_helpers import organiser, says
from .ui_driver import act

ALICE, BOB = 101, 102


def order_shown(message: SentMessage, people: list[int]) -> list[int]:
    """``people`` in the order the standings message lists them (by where each one's mention first appears)."""
    description = message.embeds[0]["description"]
    return sorted(people, key=lambda uid: description.index(f"<@{uid}>"))


async def test_a_correction_after_the_end_edits_the_final_standings_from_a_thread_or_the_channel(h: Harness) -> None:
    alice, bob = await organiser(h, ALICE, "alice"), h.user(BOB, "bob")
    r = await h.slash(alice, "tournament create", game="akuma", rounds=1, bots=2, min_seats=4, max_seats=4)
    for user in (alice, bob):
        await h.click(user, r.message, label="Join")
    await h.slash(alice, "tournament start")
    tn = next(iter(h.bot.tournaments._cache.values()))
    (table,) = tn.round_tables(1)
    seats = table.players
    bots = [seats.index(u) + 1 for u in seats if u < 0]
    done = await h.slash(alice, "tournament set-result", table=table.game_id,
                         ranking=f"<@101> > <@102> > {bots[0]} > {bots[1]}")
    assert says(done.messages[-1].text, "tournament.done.set_result", table=table.game_id)
    assert tn.status == "finished"
    final = next(m for m in h.channel_messages() if says(m.text, "tournament.finished"))
    assert final.id == (await h.bot.storage.tournaments.load(tn.id)).standings_message_id
    assert order_shown(final, [ALICE, BOB]) == [ALICE, BOB]
    before = final.text

    # In the table's thread, without tournament: Bob first, Alice last.
    ranking = f"<@102> > {bots[0]} = {bots[1]} > alice"
    fixed = await h.slash(alice, "tournament set-result", channel=table.channel_id, table=table.game_id,
                          ranking=ranking)
    assert fixed.ephemeral and says(fixed.messages[-1].text, "tournament.done.set_result", table=table.game_id)
    assert final.text != before and order_shown(final, [ALICE, BOB]) == [BOB, ALICE]
    stored = await h.bot.storage.tournaments.load(tn.id)
    assert compute_standings(stored)[0].user_id == BOB
    assert len([m for m in h.channel_messages() if says(m.text, "tournament.finished")]) == 1  # edited, not reposted

    # From the channel: voided, the table counts for nobody; the same message says so.
    voided = await h.slash(alice, "tournament void", table=table.game_id)
    assert voided.ephemeral and says(voided.messages[-1].text, "tournament.done.void_ended", table=table.game_id)
    stored = await h.bot.storage.tournaments.load(tn.id)
    assert all(row.points == 0 and row.games == 0 and not row.opponents for row in compute_standings(stored))
    assert not says(final.text, "tournament.points_games", points="3", games=1, wins=1)
    assert says(final.text, "tournament.points_games", points="0", games=0, wins=0)


async def test_a_voided_tables_thread_links_its_replay(h: Harness) -> None:
    alice, bob = await organiser(h, ALICE, "alice"), h.user(BOB, "bob")
    r = await h.slash(alice, "tournament create", game="akuma", rounds=1, bots=2, min_seats=4, max_seats=4)
    for user in (alice, bob):
        await h.click(user, r.message, label="Join")
    await h.slash(alice, "tournament start")
    tn = next(iter(h.bot.tournaments._cache.values()))
    (old,) = tn.round_tables(1)
    voided = await h.slash(alice, "tournament void", channel=old.channel_id, table=old.game_id)
    assert says(voided.messages[-1].text, "tournament.done.void", table=old.game_id)
    replay = next(tb for tb in tn.round_tables(1) if tb.attempt == 1)
    assert replay.status == "running" and replay.channel_id not in (None, old.channel_id)
    told = [m for m in h.channel_messages(old.channel_id)
            if says(m.text, "tournament.replayed_in", table=old.game_id, where=f"<#{replay.channel_id}>")]
    assert len(told) == 1


async def test_a_correction_redoes_the_ratings_the_game_changed(h: Harness) -> None:
    """Alice and Bob play a table to its end (each makes a move, then bots stand in for both): the game is rated by
    its own result. After the end the organiser reverses their order: each rating moves by the difference the
    corrected places make, and /stats-style records show the new places; a void then undoes what the game changed.
    (Replaced before a move of their own they would be no-shows, whom the game does not rate.)"""
    alice, bob = await organiser(h, ALICE, "alice"), h.user(BOB, "bob")
    r = await h.slash(alice, "tournament create", game="akuma", rounds=1, bots=2, min_seats=4, max_seats=4)
    for user in (alice, bob):
        await h.click(user, r.message, label="Join")
    await h.slash(alice, "tournament start")
    tn = next(iter(h.bot.tournaments._cache.values()))
    (table,) = tn.round_tables(1)
    game = await h.bot.service.table(table.game_id)  # type: ignore[attr-defined]
    rng, moved = random.Random(1), set()
    for _ in range(200):
        for user in (alice, bob):
            if user.id not in moved and f"u{user.id}" in game.to_act() and not game.is_bot(f"u{user.id}"):
                await act(h, user, game, rng)
                moved.add(user.id)
                await h.slash(alice, "tournament replace", player=user)
        await h.settle()
        if game.status != "running":
            break
    assert moved == {ALICE, BOB}
    assert tn.status == "finished" and table.status == "finished" and not table.no_shows
    ratings = h.bot.ratings
    before = await ratings.ratings(h.guild_id, "akuma", [ALICE, BOB])
    result = game.result()
    assert result is not None
    place = {uid: next(i for i, group in enumerate(result.ranking) if f"u{uid}" in group) for uid in (ALICE, BOB)}
    first, second = sorted((ALICE, BOB), key=place.__getitem__)
    if place[first] < place[second]:  # rated by the game's own places
        assert before[first].ordinal > before[second].ordinal
    else:  # the bots' game (its seed drawn at creation) may tie them: rated alike
        assert before[first].ordinal == pytest.approx(before[second].ordinal)
    assert before[first].games == 1
    seats = table.players
    bots = [str(seats.index(u) + 1) for u in seats if u < 0]
    await h.slash(alice, "tournament set-result", table=table.game_id,
                  ranking=f"<@{second}> > {bots[0]} > {bots[1]} > <@{first}>")
    after = await ratings.ratings(h.guild_id, "akuma", [ALICE, BOB])
    assert after[second].ordinal > after[first].ordinal  # the corrected winner is now rated above
    assert (after[second].wins, after[first].wins) == (1, 0) and after[first].games == 1  # not counted twice
    assert (await ratings.stats(h.guild_id, second)).placings == {1: 1}
    assert (await ratings.stats(h.guild_id, first)).placings == {4: 1}

    # Voided after the end: it counts for nobody, and the ratings it changed are undone (a newcomer's again).
    await h.slash(alice, "tournament void", table=table.game_id)
    undone = await ratings.ratings(h.guild_id, "akuma", [ALICE, BOB])
    fresh = ratings.default(0)
    for uid in (ALICE, BOB):
        assert undone[uid].mu == pytest.approx(fresh.mu) and undone[uid].sigma == pytest.approx(fresh.sigma)
        assert (undone[uid].games, undone[uid].wins) == (0, 0)
