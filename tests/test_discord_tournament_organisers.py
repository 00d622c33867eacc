"""Co-organisers (issue 51): anyone with the server's organiser role, or Manage Server, runs every tournament of the
server, whoever created it; a plain member runs none (each organiser command refused, nothing changed); /tournament
help says who may do what, only to the one asking, in their language."""
from __future__ import annotations

import discord

from bot.i18n import t

from .discord_harness import Harness
from .discord_helpers import CHECK_IN, ORGANISER_ROLE, TOURNAMENT_JOIN, organiser, says

ALICE, CAROL, DAVE, ERIN = 101, 103, 104, 105


async def test_the_organiser_role_and_manage_server_run_a_tournament_someone_else_created(h: Harness) -> None:
    alice, carol = await organiser(h, ALICE, "alice"), await organiser(h, CAROL, "carol")
    dave = h.user(DAVE, "dave")
    erin = h.user(ERIN, "erin", permissions=discord.Permissions(manage_guild=True))
    r = await h.slash(alice, "tournament create", game="akuma", rounds=2, bots=3, min_seats=4, max_seats=4)
    await h.click(dave, r.message, label=TOURNAMENT_JOIN)
    tn = next(iter(h.bot.tournaments._cache.values()))
    assert tn.creator_id == ALICE

    # A plain member (entered, even) runs nothing, and nothing changes.
    for command, options in (("tournament checkin", {}), ("tournament add", {"player": erin}),
                             ("tournament start", {}), ("tournament end", {})):
        refused = await h.slash(dave, command, **options)
        text = refused.messages[-1].text
        assert says(text, "error.tournament.organiser_only") or says(text, "error.limit.organiser_role",
                                                                   role=f"<@&{ORGANISER_ROLE}>"), (command, text)
    assert tn.status == "signup" and ERIN not in tn.entrants

    # Carol, of the organiser role, runs Alice's tournament: check-in, an entrant, the start, a result, moving on.
    assert says((await h.slash(carol, "tournament checkin", minutes=5)).messages[-1].text,
                "tournament.done.checkin_open")
    await h.click(dave, r.message, label=CHECK_IN)
    assert says((await h.slash(carol, "tournament add", player=carol)).messages[-1].text, "tournament.done.add",
                player=f"<@{CAROL}>")
    await h.slash(carol, "tournament start")
    assert tn.status == "running"
    table = next(tb for tb in tn.round_tables(1) if tb.status != "bye")  # Dave may have the bye
    ranking = " > ".join(str(n) for n in range(1, len(table.players) + 1))
    done = await h.slash(carol, "tournament set-result", table=table.game_id, ranking=ranking)
    assert says(done.messages[-1].text, "tournament.done.set_result", table=table.game_id)
    refused = await h.slash(dave, "tournament set-result", table=table.game_id, ranking=ranking)
    assert says(refused.messages[-1].text, "error.tournament.organiser_only")  # a plain member, seated or not
    refused = await h.slash(dave, "tournament set-result", table=table.game_id, ranking="1 > 2")
    assert says(refused.messages[-1].text, "error.tournament.organiser_only")  # refused before his ranking is read
    # Anyone drops themselves, with no player: named.
    dropped = await h.slash(dave, "tournament drop")
    assert tn.entrants[DAVE].status == "dropped" and (says(dropped.messages[-1].text, "tournament.done.drop",
                                                           player=f"<@{DAVE}>") or says(
        dropped.messages[-1].text, "tournament.done.drop_after_game", player=f"<@{DAVE}>"))
    # Erin, with Manage Server and no role, may too; she ends it.
    assert says((await h.slash(erin, "tournament end")).messages[-1].text, "tournament.done.end")
    assert tn.status == "finished"


async def test_tournament_help_says_who_may_do_what(h: Harness) -> None:
    dave = h.user(DAVE, "dave", locale="ja")
    r = await h.slash(dave, "tournament help")
    assert r.ephemeral
    for key in ("tournament.help.organisers", "tournament.help.create", "tournament.help.everyone",
                "tournament.help.no_role"):
        assert t(key, "ja") in r.text, key  # in the reader's language
    await organiser(h, ALICE, "alice")  # the server now has an organiser role
    r = await h.slash(h.user(ERIN, "erin"), "tournament help")
    assert says(r.text, "tournament.help.role", role=f"<@&{ORGANISER_ROLE}>")
