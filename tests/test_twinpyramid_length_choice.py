"""Twin Pyramid's length chosen knowingly (issue 44, D16, D17): a table whose /play names no length plays the
default for the seats taken at Start (one round up to four, one deal at five and six; a length named is kept), and
the lobby lists each offered length with its expected minutes, says which the default is for the seats so far, and
tells a table over half an hour of the quick one-deal game."""
from __future__ import annotations

import json

import pytest

from bot.errors import HostError
from bot.i18n import t
from bot.lengths import expected_minutes
from bot.replay import rebuild_stored
from bot.service import GameService
from cogs.games.twinpyramid_length import (
    LENGTH_OPTIONS,
    Length,
    chosen_length,
    length_label,
    length_lines,
    lobby_options,
    quick_offered,
    quick_options,
)
from cogs.play_command import play_options, table_options
from engines.twinpyramid import TwinPyramidEngine

from .conftest import rows

ENG = TwinPyramidEngine()


def play_values(**chosen: object) -> dict[str, object]:
    values = {option.name: option.default for option in play_options("twinpyramid")}
    return {**values, **chosen}


def test_play_leaves_the_length_to_the_seats_unless_one_is_named() -> None:
    options = play_options("twinpyramid")
    assert table_options("twinpyramid", options, play_values()) == {}
    assert table_options("twinpyramid", options, play_values(deals=1)) == {"deals": 1}
    assert table_options("twinpyramid", options, play_values(rounds=2)) == {"rounds": 2}
    assert lobby_options({"deals": 3, "jokers": 0}) == {"deals": 3, "jokers": 0}
    assert ENG.new_game(["a", "b", "c"], seed=1, options={"rounds": 1}).deals_total == 3


def test_no_length_named_is_the_default_for_the_seats() -> None:
    assert [chosen_length({}, seats) for seats in range(2, 7)] == [Length.ROUND] * 3 + [Length.DEAL] * 2
    assert chosen_length({"rounds": 1}, 6) is Length.ROUND and chosen_length({"deals": 1}, 3) is Length.DEAL
    assert chosen_length({"deals": 3}, 3) is None  # the lobby marks what it plays
    for seats, deals in ((3, 3), (5, 1), (6, 1)):
        assert ENG.new_game([f"p{n}" for n in range(seats)], seed=1, options={}).deals_total == deals


def test_the_lobby_says_the_default_follows_the_seats() -> None:
    for lang in ("en", "ja"):
        for people, length in ((3, Length.ROUND), (4, Length.ROUND), (5, Length.DEAL), (6, Length.DEAL)):
            lines = length_lines({}, people, [], lang)
            said = t("twinpyramid.lobby.default", lang, count=people, upto=4,
                     length=t(f"twinpyramid.lobby.length.{length.value}", lang))
            assert said in lines
            minutes = expected_minutes("twinpyramid", LENGTH_OPTIONS[length], people, [])
            assert t("twinpyramid.lobby.length_choice", lang, mark="✅", minutes=minutes,
                     length=t(f"twinpyramid.lobby.length.{length.value}", lang)) in lines
            assert said not in length_lines(LENGTH_OPTIONS[length], people, [], lang)  # named: no default line


def test_the_lobby_lists_each_length_with_its_minutes() -> None:
    bots: list[str] = []  # three people: one round is about an hour
    for lang in ("en", "ja"):
        lines = length_lines({"rounds": 1}, 3, bots, lang)
        for choice in Length:
            minutes = expected_minutes("twinpyramid", LENGTH_OPTIONS[choice], 3, bots)
            assert minutes is not None
            mark = "✅" if choice is Length.ROUND else "▫️"
            assert t("twinpyramid.lobby.length_choice", lang, mark=mark, minutes=minutes,
                     length=t(f"twinpyramid.lobby.length.{choice.value}", lang)) in lines
        quick = expected_minutes("twinpyramid", {"deals": 1}, 3, bots)
        button = t("lobby.button.quick_as", lang, length=length_label({"deals": 1}, 3, bots, lang))
        assert button == t("lobby.button.quick_as", lang, length=t(  # the quick game's minutes on its button
            "twinpyramid.lobby.short_minutes", lang, length=t("twinpyramid.lobby.short.deal", lang), minutes=quick))
        long = t("twinpyramid.lobby.long", lang, limit=30, button=button)
        assert long in lines and long not in length_lines({"deals": 1}, 3, bots, lang)
        assert quick_offered({}, 3, bots) and not quick_offered({"deals": 1}, 3, bots)


def test_a_short_table_is_not_told_it_is_long() -> None:
    """Three bots and one person in one round at the measured pace: the warning only where the minutes pass 30."""
    for people in (1, 2, 3):
        minutes = expected_minutes("twinpyramid", {"rounds": 1}, people, ["normal"] * (3 - people))
        assert minutes is not None
        bots = ["normal"] * (3 - people)
        button = t("lobby.button.quick_as", "en", length=length_label({"deals": 1}, people, bots, "en"))
        told = any(line == t("twinpyramid.lobby.long", "en", limit=30, button=button)
                   for line in length_lines({"rounds": 1}, people, bots, "en"))
        assert told is (minutes > 30), (people, minutes)


async def test_the_quick_start_stores_one_deal_with_the_game(service: GameService, db_url: str) -> None:
    """The quick-start button's service call deals one deal and writes those options to the game's row (what a
    replay reads); a plain Start keeps the lobby's options. Both backends."""
    quick = await service.create_lobby(game="twinpyramid", guild_id=1, channel_id=10, user_id=1, name="Alice",
                                       options={"jokers": 1}, seed=3)
    plain = await service.create_lobby(game="twinpyramid", guild_id=1, channel_id=11, user_id=2, name="Bob",
                                       options={"jokers": 1}, seed=3)
    for table in (quick, plain):
        for _ in range(2):
            await service.add_bot(table.id, table.row.host_id, "normal")
    await service.start(quick.id, 1, quick_options)
    await service.start(plain.id, 2)
    assert quick.state.deals_total == 1 and plain.state.deals_total == 3
    stored = dict(rows(db_url, "SELECT id, options FROM games"))
    assert json.loads(stored[quick.id]) == {"jokers": 1, "deals": 1} and json.loads(stored[plain.id]) == {"jokers": 1}
    assert (await rebuild_stored(service.storage, quick.id)).frames[0].state.deals_total == 1


async def test_only_the_host_presses_the_quick_start(service: GameService) -> None:
    table = await service.create_lobby(game="twinpyramid", guild_id=1, channel_id=10, user_id=1, name="Alice")
    await service.join(table.id, 2, "Bob")
    with pytest.raises(HostError) as refused:
        await service.start(table.id, 2, quick_options)
    assert refused.value.code == "host_only" and table.status == "lobby" and table.row.options == {}
