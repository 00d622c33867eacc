"""Twin Pyramid's length through Discord (issue 44, D16, D17): a table whose /play names no length plays the default
for the seats taken at Start — one round up to four seats, one deal at five and six — and its lobby says which
default applies for the seats so far; a table expected to pass half an hour offers the quick one-deal game as a
button, which the host presses instead of Start (the game stored and replayed as one deal)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import AsyncIterator

import pytest

from bot.i18n import t
from bot.lengths import expected_minutes
from bot.replay import rebuild_stored

from .discord_harness import Harness
from .discord_helpers import JOIN, START, Key, bot_name, only_table, says, start_harness

ALICE_ID, BOB_ID = 101, 102
QUICK = Key("lobby.button.quick", opening_of="lobby.button.quick_as")
ADD_NORMAL_BOT = Key("lobby.button.bot_level", level="normal")
DEAL, ROUND = "twinpyramid.lobby.length.deal", "twinpyramid.lobby.length.round"


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    harness = await start_harness(tmp_path / "bot.db")
    yield harness
    await harness.close()


def has_button(h: Harness, message: object, key: Key) -> bool:
    return any(key.matches(c.get("label")) for c in h.message(message).components if c.get("type") == 2)


def default_line(count: int, length_key: str) -> dict[str, object]:
    return {"count": count, "upto": 4, "length": lambda lang: t(length_key, lang)}


@pytest.mark.parametrize("language", ["en", "ja"])
async def test_no_length_named_plays_one_round_at_three_seats_and_one_deal_at_six(h: Harness, language: str) -> None:
    await h.bot.storage.set_guild_language(h.guild_id, language)
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "play twinpyramid", bots=2)
    lobby = h.message(r.message).text
    print(f"\n--- lobby at 3 seats ({language}) ---\n{lobby}")
    assert says(lobby, "twinpyramid.lobby.default", **default_line(3, ROUND))
    await h.click(alice, r.message, label=START)
    table = only_table(h)
    assert table.row.options == {} and table.state.deals_total == 3 and table.state.options["rounds"] == 1
    await h.slash(alice, "game end")

    r = await h.slash(alice, "play twinpyramid", bots=5)
    lobby = h.message(r.message).text
    print(f"--- lobby at 6 seats ({language}) ---\n{lobby}")
    assert says(lobby, "twinpyramid.lobby.default", **default_line(6, DEAL))
    assert not says(lobby, "twinpyramid.lobby.default", **default_line(6, ROUND))
    assert not has_button(h, r.message, QUICK)  # six seats already play the one deal
    await h.click(alice, r.message, label=START)
    table = next(tab for tab in await h.bot.service.tables_in_channel(h.channel_id) if tab.status == "running")
    assert table.state.deals_total == 1 and table.state.options["deals"] == 1
    assert (await rebuild_stored(h.bot.storage, table.id)).frames[0].state.deals_total == 1


async def test_the_lobbys_default_line_follows_the_seats(h: Harness) -> None:
    """Four seats: one round; a fifth seat taken: the lobby now says one deal."""
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "play twinpyramid", bots=3)
    assert says(h.message(r.message).text, "twinpyramid.lobby.default", **default_line(4, ROUND))
    await h.click(alice, r.message, label=ADD_NORMAL_BOT)
    await h.settle()
    lobby = h.message(r.message).text
    assert says(lobby, "twinpyramid.lobby.default", **default_line(5, DEAL))
    assert not says(lobby, "twinpyramid.lobby.default", **default_line(5, ROUND))


@pytest.mark.parametrize("language", ["en", "ja"])
async def test_the_quick_game_is_a_button_that_starts_one_deal(h: Harness, language: str) -> None:
    await h.bot.storage.set_guild_language(h.guild_id, language)
    alice, bob = h.user(ALICE_ID, "alice"), h.user(BOB_ID, "bob")
    r = await h.slash(alice, "play twinpyramid", bots=1)
    await h.click(bob, r.message, label=JOIN)
    await h.settle()
    # two people and a bot: one round is over half an hour, so the lobby offers the one deal as a button
    round_minutes = expected_minutes("twinpyramid", {}, 2, ["normal"])
    assert round_minutes is not None and round_minutes > 30
    quick = expected_minutes("twinpyramid", {"deals": 1}, 2, ["normal"])
    lobby = h.message(r.message).text
    print(f"\n--- lobby with the quick game ({language}) ---\n{lobby}")
    # Start and the quick game side by side, each with its length and its minutes for the seats taken
    def label(key: str, length: str, minutes: int | None) -> Key:
        return Key(key, length=lambda lang: t("twinpyramid.lobby.short_minutes", lang,
                                              length=t(f"twinpyramid.lobby.short.{length}", lang), minutes=minutes))
    quick_button, start_button = label("lobby.button.quick_as", "deal", quick), label("lobby.button.start_as",
                                                                                      "round", round_minutes)
    assert has_button(h, r.message, quick_button) and has_button(h, r.message, start_button)
    assert says(lobby, "twinpyramid.lobby.long", limit=30, button=lambda lang: t(
        "lobby.button.quick_as", lang, length=t("twinpyramid.lobby.short_minutes", lang,
                                                 length=t("twinpyramid.lobby.short.deal", lang), minutes=quick)))
    refused = await h.click(bob, r.message, label=quick_button)  # only the host starts
    assert says(refused.text, "error.host_only")
    assert [tab.status for tab in await h.bot.service.tables_in_channel(h.channel_id)] == ["lobby"]
    await h.click(alice, r.message, label=quick_button)
    table = only_table(h)
    assert table.status == "running" and table.state.deals_total == 1
    assert table.row.options == {"deals": 1}
    stored = await h.bot.storage.get_game(table.id)
    assert stored is not None and stored.options == {"deals": 1}  # what a replay reads
    assert (await rebuild_stored(h.bot.storage, table.id)).frames[0].state.deals_total == 1


async def test_a_table_within_half_an_hour_has_no_quick_button(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "play twinpyramid", bots=2)  # one person, two bots: one round is under 30 minutes
    minutes = expected_minutes("twinpyramid", {}, 1, ["normal", "normal"])
    assert minutes is not None and minutes <= 30
    assert not has_button(h, r.message, QUICK)


async def test_a_shared_first_place_says_who_burst_and_paid(h: Harness) -> None:
    """One-deal games of three bots until one ends in a burst: the other two share first place, and the result
    says who burst and what each other player was paid (issue 44; the line in Japanese: test_render_twinpyramid)."""
    for seed in range(12):
        table = await h.bot.service.create_bot_table(game="twinpyramid", players=3, seed=seed,
                                                     channel_id=h.channel_id, guild_id=h.guild_id,
                                                     options={"deals": 1})
        await h.settle(timeout=120)  # a whole game of bots; a loaded machine plays slowly
        outcome = table.state.last_deal
        assert table.status == "finished" and outcome is not None
        if outcome.reason == "burst":
            break
    else:
        pytest.fail("no burst in 12 one-deal games")
    result = table.result()
    assert result is not None and len(result.ranking[0]) == 2 and outcome.player not in result.ranking[0]
    burster = next(s for s in table.seats if s.player == outcome.player)
    posted = [m.text for m in h.channel_messages() if says(m.text, "twinpyramid.result.shared_burst",
                                                           player=bot_name(burster.seat + 1), amount=10)]
    print("\n" + "\n".join(posted))
    assert len(posted) == 1


async def test_the_docs_name_the_lobbys_buttons_as_the_lobby_shows_them(h: Harness) -> None:
    """README and docs name the lobby's Start and quick buttons in bold; each such name (a bold span that begins with
    ⚡ or "Start:") is a label the lobby of three people shows, minutes included (a tester found the docs calling the
    quick button by an old label, "⚡ Quick game: one deal")."""
    root = Path(__file__).resolve().parents[1]
    named = {span for doc in [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
             for span in re.findall(r"\*\*(⚡[^*]+|Start:[^*]+)\*\*", doc.read_text(encoding="utf-8"))}
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "play twinpyramid")
    for uid, name in ((BOB_ID, "bob"), (103, "carol")):
        await h.click(h.user(uid, name), r.message, label=JOIN)
    await h.settle()
    shown = {c.get("label") for c in h.message(r.message).components if c.get("type") == 2}
    print(f"\nnamed in the docs: {sorted(named)}\nshown: {sorted(map(str, shown))}")
    assert named and {" ".join(span.split()) for span in named} <= shown
