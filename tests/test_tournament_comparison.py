"""The comparison after a same-deal round (issue 55) as the cog builds it: within Discord's limits however big the
round (a seat of more than 25 tables goes on in a second message, every table keeping its Review button), in both
languages; a round with one finished table says nobody was compared; and which update posts which round's
comparison (the pause, else the next round or the end; once; never a final table or another format's round)."""
from __future__ import annotations

import pytest

from bot.discord_rules.messages import message_errors
from bot.i18n import t
from bot.tournaments import Entrant, Tournament, TournamentTable, TournamentUpdate, ranking_points
from bot.tournaments.models import Deal, TableStatus, TournamentStatus
from bot.tournaments.models import TournamentUpdateKind as Kind
from cogs.common import NO_MENTIONS
from cogs.tournament_comparison import comparison_messages, due_round

from .discord_helpers import says

LONG_NAME = "*_~`|>#" * 4 + "@everyone"  # every markup character Discord reads: escaped, it doubles


def big_round(tables: int, seats: int, lang: str) -> tuple[Tournament, dict[int, dict[int, tuple[str, float]]]]:
    tn = Tournament(1, 1, 10, 99, "akuma", "swiss", 2, seats, seats, seed=0, deal=Deal.SAME, current_round=1,
                    locale=lang, status=TournamentStatus.RUNNING)
    facts: dict[int, dict[int, tuple[str, float]]] = {}
    for number in range(1, tables + 1):
        players = [-(number * 10 + seat) for seat in range(seats)]
        for uid in players:
            tn.entrants[uid] = Entrant(uid, f"{LONG_NAME}{-uid}", is_bot=True, seq=-uid)
        ranking = [[players[(number + k) % seats]] for k in range(seats)]
        tn.tables.append(TournamentTable(number, 1, number, players, TableStatus.FINISHED, game_id=1000 + number,
                                         results=ranking_points(ranking)))
        facts[1000 + number] = {seat: (tn.entrants[uid].name, 10.0 * seat + number) for seat, uid in
                                enumerate(players)}
    return tn, facts


def payload(message: dict) -> dict:
    return {"content": message.get("content"), "embeds": [message["embed"].to_dict()] if "embed" in message else [],
            "components": message["view"].to_components() if "view" in message else [],
            "allowed_mentions": NO_MENTIONS.to_dict()}


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_big_round_fits_discords_limits_with_a_button_per_table_and_seat(lang: str) -> None:
    tn, facts = big_round(30, 4, lang)
    messages = [m.send() for m in comparison_messages(tn, 1, facts)]
    assert len(messages) == 8  # four seats, each 25 tables then 5
    buttons = []
    for message in messages:
        body = payload(message)
        assert message_errors(body, creating=True) is None
        assert "<@" not in (body["content"] or "") + body["embeds"][0]["description"]
        buttons += [c["custom_id"] for row in body["components"] for c in row["components"]]
    assert sorted(buttons) == sorted(f"gh:cmp:{1000 + n}:{seat}" for n in range(1, 31) for seat in range(4))
    titles = [m["embed"].title for m in messages]
    assert titles[:2] == [t("comparison.seat_title_part", lang, round=1, seat=1, part=p, parts=2) for p in (1, 2)]
    assert says(messages[0]["content"], "comparison.heading", round=1) and messages[1]["content"] is None


async def test_a_round_with_one_finished_table_says_nobody_was_compared() -> None:
    tn, facts = big_round(2, 3, "en")
    tn.tables[1].status, tn.tables[1].results = TableStatus.CANCELLED, {}
    (message,) = [m.send() for m in comparison_messages(tn, 1, facts)]
    assert says(message["content"], "comparison.nobody", round=1) and "view" not in message
    assert message_errors(payload(message), creating=True) is None


def update(tn: Tournament, kind: Kind, round_: int | None) -> TournamentUpdate:
    return TournamentUpdate(tn, kind, round_)


async def test_which_update_posts_which_rounds_comparison() -> None:
    tn, _ = big_round(2, 2, "en")
    tn.tables += [TournamentTable(10 + n, 2, n, [-(n * 10), -(n * 10 + 1)], TableStatus.RUNNING) for n in (1, 2)]
    tn.current_round, tn.break_seconds = 2, 120
    assert due_round(update(tn, Kind.BREAK, 1), set()) == 1  # the pause after round 1
    assert due_round(update(tn, Kind.ROUND, 2), set()) is None  # ... which posted it already
    assert due_round(update(tn, Kind.BREAK, 1), {(tn.id, 1)}) is None  # once
    assert due_round(update(tn, Kind.RESULT, 1), set()) is None and due_round(update(tn, Kind.ROUND, 1), set()) is None
    tn.break_seconds = 0
    assert due_round(update(tn, Kind.ROUND, 2), set()) == 1  # no pause: with the next round's call
    tn.break_seconds = 120
    tn.round_tables(1)[0].status = TableStatus.CANCELLED  # the organiser moved on mid-round: no pause came
    assert due_round(update(tn, Kind.ROUND, 2), set()) == 1
    for tb in tn.round_tables(2):
        tb.status = TableStatus.FINISHED
    tn.status = TournamentStatus.FINISHED
    assert due_round(update(tn, Kind.FINISHED, None), set()) == 2  # the last round: with the end
    for tb in tn.round_tables(2):
        tb.status = TableStatus.CANCELLED
    assert due_round(update(tn, Kind.FINISHED, None), set()) is None  # nothing of it finished: nothing to compare
    tn.final_table = True
    tn.rounds = 1
    assert due_round(update(tn, Kind.FINISHED, None), set()) is None  # a final table is no comparison
    tn.deal, tn.final_table = Deal.OWN, False
    assert due_round(update(tn, Kind.BREAK, 1), set()) is None  # an own-deal tournament has none
