"""``/tournament set-result``'s ranking text: mentions, seat numbers and names as the standings show them, mixed,
with ``>`` between places and ``=`` for ties; each kind of bad text refused with its own catalog message."""
from __future__ import annotations

import pytest

from bot.errors import HostError, user_message
from bot.tournaments.ranking import parse, resolve

PLAYERS = [101, 102, -1, -2]
NAMES = {101: ["Ann"], 102: ["bob", "Bobby"], -1: ["Bot 1"], -2: ["A > B"]}


def ranked(text: str) -> list[list[int]]:
    return resolve(parse(text, len(PLAYERS)), PLAYERS, NAMES, 7)


@pytest.mark.parametrize("text", [
    "<@101> > <@!102> = 3 > 4",           # mentions (the nickname form too) and seats: a mention is not cut at ">"
    "@Ann > bob = Bot 1 > \"A > B\"",     # names as shown, @ optional, quoted when they hold a separator
    "ann>BOBBY=「Bot 1」>4",               # any case, another of a person's names, Japanese quotes, no spaces
    "ａｎｎ＞<@102>＝３、「A > B」",           # full-width letters, separators and digits
    "1, 2 = 3, 4",                        # commas between places
])
def test_every_way_of_naming_a_player_gives_the_same_ranking(text: str) -> None:
    assert ranked(text) == [[101], [102, -1], [-2]]


@pytest.mark.parametrize("text, code, fields", [
    ("<@103> > 2 > 3 > 4", "tournament.ranking_unknown", {"player": "<@103>", "table": 7}),
    ("carol > 2 > 3 > 4", "tournament.ranking_unknown", {"player": "carol", "table": 7}),
    ("1 > 2 > 3 > 5", "tournament.ranking_no_seat", {"seat": 5, "count": 4, "table": 7}),
    ("1 > 2 > 3 > 1", "tournament.ranking_twice", {"player": "1", "table": 7}),
    ("ann > <@101> > 3 > 4", "tournament.ranking_twice", {"player": "<@101>", "table": 7}),
    ("1 > 2 > 3", "tournament.ranking_missing", {"players": ["4. A > B"], "count": 4, "table": 7}),
    ("1 > > 2 > 3 > 4", "tournament.bad_ranking", {"count": 4}),
    ("1 > 2 > 3 > 4 =", "tournament.bad_ranking", {"count": 4}),
    ("<@101><@102> > 3 > 4", "tournament.bad_ranking", {"count": 4}),
    ("\"A > B > 1 > 2 > 3", "tournament.bad_ranking", {"count": 4}),
    ("", "tournament.bad_ranking", {"count": 4}),
])
def test_bad_rankings_are_refused_each_with_its_own_message(text: str, code: str, fields: dict) -> None:
    with pytest.raises(HostError) as refused:
        ranked(text)
    assert (refused.value.code, refused.value.fields) == (code, fields)


def test_a_name_two_players_share_is_ambiguous() -> None:
    names = {**NAMES, -1: ["Bob"]}
    with pytest.raises(HostError) as refused:
        resolve(parse("bob > 1 > 3 > 4", 4), PLAYERS, names, 7)
    assert (refused.value.code, refused.value.fields) == (
        "tournament.ranking_ambiguous", {"player": "bob", "seats": [2, 3], "table": 7})
    # the seats are listed in the reader's language
    assert "2, 3" in user_message(refused.value, "en") and "2、3" in user_message(refused.value, "ja")
    assert resolve(parse("<@102> > 1 > 3 > 4", 4), PLAYERS, names, 7) == [[102], [101], [-1], [-2]]
