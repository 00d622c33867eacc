"""Bot levels through Discord: ``/play … level:``, one-click Add bot per level, the lobby showing each level."""
from __future__ import annotations

from .discord_harness import Harness
from .discord_helpers import Key, line, organiser
from .test_discord_akuma import ALICE_ID


def lobby_table(h: Harness):
    return next(iter(h.bot.service._tables.values()))  # type: ignore[attr-defined]


async def test_play_with_a_level_seats_bots_of_that_level(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    r = await h.slash(alice, "play akuma", bots=2, level="strong")
    table = lobby_table(h)
    assert [s.level for s in table.seats if s.is_bot] == ["strong", "strong"]
    assert r.message.text.count("(strong)") == 2
    stored = await h.bot.storage.get_game(table.id)
    assert [s.level for s in stored.seats if s.is_bot] == ["strong", "strong"]


async def test_add_bot_lets_the_host_choose_the_level(h: Harness) -> None:
    alice = h.user(ALICE_ID, "alice")
    lobby = (await h.slash(alice, "play pileup")).message
    await h.click(alice, lobby, label=Key("lobby.button.bot_level", level=line("bot.level.easy")))
    await h.click(alice, lobby, label=Key("lobby.button.bot_level", level=line("bot.level.strong")))
    table = lobby_table(h)
    assert [(s.name, s.level) for s in table.seats if s.is_bot] == [("Bot 1", "easy"), ("Bot 2", "strong")]
    assert "(easy)" in lobby.text and "(strong)" in lobby.text
    labels = {c.get("label") for c in lobby.components}
    assert {"Add bot: easy", "Add bot: normal", "Add bot: strong"} <= labels



async def test_tournament_bot_entrants_play_at_the_chosen_level(h: Harness) -> None:
    alice = await organiser(h, ALICE_ID, "alice")
    await h.slash(alice, "tournament create", game="akuma", bots=2, bot_level="easy")
    service = h.bot.tournaments  # type: ignore[attr-defined]
    (tn,) = service._cache.values()
    assert tn.bot_level == "easy"
    stored = await service.store.load(tn.id)
    assert stored.bot_level == "easy"
    bot = next(e for e in stored.entrants.values() if e.is_bot)
    assert bot.seat(0, stored.bot_level).level == "easy"
