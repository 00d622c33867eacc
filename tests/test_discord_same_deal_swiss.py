"""A whole same-deal Swiss through Discord (issue 55): three people and bots, three rounds, in English and in
Japanese. What each person sees before, during and after a round: the sign-up saying a start needs two tables, every
round two tables of four with one seat a bot fills, the same deal at both tables (one seed, seat for seat the same
start), every person playing every round, the final standings."""
from __future__ import annotations

import json
import random

import discord
import pytest

from bot.i18n import t
from bot.tournaments import Tournament
from bot.tournaments.models import TableStatus, TournamentStatus

from .discord_harness import Harness, HarnessUser
from .discord_helpers import TOURNAMENT_JOIN, organiser
from .ui_driver import act

ALICE, BOB, CAROL = 101, 102, 103


def tournament_of(h: Harness) -> Tournament:
    return next(iter(h.bot.tournaments._cache.values()))


async def play_round(h: Harness, tn: Tournament, people: dict[int, HarnessUser], rng: random.Random) -> None:
    """Every person moves through their hand view whenever due; the bots play their seats."""
    number = tn.current_round
    for _ in range(2000):
        live = [tb for tb in tn.round_tables(number) if tb.status is TableStatus.RUNNING]
        if not live:
            return
        for tb in live:
            game = await h.bot.service.table(tb.game_id)
            for uid in [u for u in tb.players if f"u{u}" in game.to_act()]:
                await act(h, people[uid], game, rng)
        await h.settle()
    raise AssertionError("the round did not end")


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_same_deal_swiss_from_sign_up_to_final_standings(h: Harness, lang: str) -> None:
    alice = await organiser(h, ALICE, "alice", permissions=discord.Permissions.all())
    people = {ALICE: alice, BOB: h.user(BOB, "bob"), CAROL: h.user(CAROL, "carol")}
    if lang == "ja":
        await h.slash(alice, "config language", language="ja")
    r = await h.slash(alice, "tournament create", game="akuma", deal="same", rounds=3, bots=4, break_minutes=0)
    signup = r.message
    assert t("tournament.same_deal_summary", lang, min=4) in signup.text  # 3-4 seats: two tables need 4
    for user in people.values():
        await h.click(user, signup, label=TOURNAMENT_JOIN)
    await h.slash(alice, "tournament start")
    await h.settle()
    tn = tournament_of(h)
    rng = random.Random(7)
    for number in (1, 2, 3):
        assert tn.current_round == number
        tables = tn.round_tables(number)
        assert [len(tb.seat_list()) for tb in tables] == [4, 4] and sum(len(tb.fill) for tb in tables) == 1
        games = [await h.bot.service.table(tb.game_id) for tb in tables]
        assert len({g.row.seed for g in games}) == 1
        filled = next(tb for tb, g in zip(tables, games, strict=True) if tb.fill)
        bot = (await h.bot.service.table(filled.game_id)).seats[filled.fill[0]]
        assert bot.name == t("tournament.fill_bot", lang, seat=filled.fill[0] + 1)
        dealt = [json.loads(g.engine.dump(g.engine.new_game([s.player for s in g.seats], seed=g.row.seed,
                                                            options=g.row.options)))["hands"] for g in games]
        assert [dealt[0][s.player] for s in games[0].seats] == [dealt[1][s.player] for s in games[1].seats]
        await play_round(h, tn, people, rng)
    assert tn.status is TournamentStatus.FINISHED
    assert all(sum(1 for tb in tn.tables if uid in tb.players) == 3 for uid in people)
