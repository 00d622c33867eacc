"""Twin Pyramid's length chosen knowingly (issue 44, D16): /play opens one round unless it names a length (one deal
named is kept, not taken for the default), a game stored without a length still plays one deal, and the lobby lists
each offered length with its expected minutes, telling a table over half an hour of the quick one-deal game."""
from __future__ import annotations

from bot.i18n import t
from bot.lengths import expected_minutes
from cogs.games.twinpyramid_length import (
    DEFAULT_LENGTH,
    LENGTH_OPTIONS,
    Length,
    chosen_length,
    length_lines,
    lobby_options,
)
from cogs.play_command import play_options, table_options
from engines.twinpyramid import TwinPyramidEngine

ENG = TwinPyramidEngine()


def play_values(**chosen: object) -> dict[str, object]:
    values = {option.name: option.default for option in play_options("twinpyramid")}
    return {**values, **chosen}


def test_play_opens_one_round_unless_a_length_is_named() -> None:
    options = play_options("twinpyramid")
    assert table_options("twinpyramid", options, play_values()) == {"rounds": 1} == LENGTH_OPTIONS[DEFAULT_LENGTH]
    assert table_options("twinpyramid", options, play_values(deals=1)) == {"deals": 1}
    assert table_options("twinpyramid", options, play_values(rounds=2)) == {"rounds": 2}
    assert lobby_options({"deals": 3, "jokers": 0}) == {"deals": 3, "jokers": 0}
    assert ENG.new_game(["a", "b", "c"], seed=1, options={"rounds": 1}).deals_total == 3


def test_a_game_stored_without_a_length_still_plays_one_deal() -> None:
    state = ENG.new_game(["a", "b", "c"], seed=1, options={})
    assert state.deals_total == 1 and state.options["deals"] == 1
    assert chosen_length({}) is Length.DEAL and chosen_length({"deals": 3}) is None  # the lobby marks what it plays
    assert ENG.load(ENG.dump(state)) == state


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
        assert t("twinpyramid.lobby.long", lang, limit=30, quick=quick) in lines
        assert t("twinpyramid.lobby.long", lang, limit=30, quick=quick) not in length_lines({"deals": 1}, 3, bots,
                                                                                          lang)


def test_a_short_table_is_not_told_it_is_long() -> None:
    """Three bots and one person in one round at the measured pace: the warning only where the minutes pass 30."""
    for people in (1, 2, 3):
        minutes = expected_minutes("twinpyramid", {"rounds": 1}, people, ["normal"] * (3 - people))
        assert minutes is not None
        told = any(line == t("twinpyramid.lobby.long", "en", limit=30,
                             quick=expected_minutes("twinpyramid", {"deals": 1}, people, ["normal"] * (3 - people)))
                   for line in length_lines({"rounds": 1}, people, ["normal"] * (3 - people), "en"))
        assert told is (minutes > 30), (people, minutes)
