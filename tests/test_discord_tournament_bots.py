"""Bot entrants (issue 43): named by the catalog in the server's language (ボット1 on a Japanese server), and a table
left with bots only when its last person is replaced plays on: its bots score for the round (and the person, replaced
before her first move, is a no-show there: issue 51)."""
from __future__ import annotations

import discord

from bot.i18n import t
from bot.tournaments import compute_standings

from .discord_harness import Harness
from .discord_helpers import TOURNAMENT_JOIN, organiser, says

ALICE = 101


async def test_bots_are_named_in_the_servers_language_and_play_on_without_their_last_person(h: Harness) -> None:
    alice = await organiser(h, ALICE, "alice", permissions=discord.Permissions.all())
    await h.slash(alice, "config language", language="ja")
    r = await h.slash(alice, "tournament create", game="akuma", rounds=1, bots=3, min_seats=4, max_seats=4)
    await h.click(alice, r.message, label=TOURNAMENT_JOIN)
    names = [t("common.bot_name", "ja", number=n) for n in (1, 2, 3)]
    assert all(name in r.message.text for name in names) and t("common.bot_name", "en", number=1) not in \
        r.message.text
    await h.slash(alice, "tournament start")
    tn = next(iter(h.bot.tournaments._cache.values()))
    assert sorted(e.name for e in tn.entrants.values() if e.is_bot) == sorted(names)
    (table,) = tn.round_tables(1)
    game = await h.bot.service.table(table.game_id)
    assert sorted(s.name for s in game.seats if s.is_bot) == sorted(names)  # the table shows them so too

    replaced = await h.slash(alice, "tournament replace", player=alice)
    assert says(replaced.messages[-1].text, "tournament.done.replace", player=f"<@{ALICE}>")
    await h.settle()
    assert game.status == "finished" and table.status == "finished"  # played to its end by the bots
    rows = {row.user_id: row for row in compute_standings(tn)}
    bots = [u for u in table.players if u < 0]
    assert all(rows[u].games == 1 for u in bots) and sum(rows[u].points for u in bots) == 6  # 3 + 2 + 1
    # Replaced before her first move, she missed the whole game: a no-show, last with no points (issue 51).
    assert (rows[ALICE].games, rows[ALICE].no_shows, rows[ALICE].points) == (0, 1, 0.0)
    assert table.results[ALICE] == (4, 0.0) and table.no_shows == {ALICE}
    assert tn.status == "finished"
