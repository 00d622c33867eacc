"""The terminal demo and the record playback end with the same notes under the result as Discord's result message
(``render_hooks(game).result_notes``): in Akuma Trick, why the player who emptied their hand ranks last."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot import render
from bot.__main__ import main
from bot.demo import names_of, run_demo
from bot.i18n import t
from bot.replay import stored_record
from bot.scheduler import BotScheduler
from bot.service import GameService
from bot.storage import Storage
from bot.table import Table


def emptied_notes(table: Table, lang: str) -> list[str]:
    """The note for each player whose hand is empty at the end (read from the final public view)."""
    view, names = table.view(None), names_of(table, lang)
    return [t("akuma.result.emptied_last", lang, player=names(p)) for p in view.players if not view.hand_sizes[p]]


def last_ranking(printed: list[str], lang: str) -> int:
    """Where the final ranking is printed (the last time: the demo prints the final board once)."""
    heading = render.terminal_text(t("common.final_ranking", lang))
    return max(i for i, text in enumerate(printed) if heading in text)


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_demo_says_why_the_player_who_emptied_their_hand_is_last(lang: str) -> None:
    printed: list[str] = []
    table = await run_demo("akuma", 3, seed=1, lang=lang, out=printed.append)
    notes = emptied_notes(table, lang)
    assert notes, "an Akuma Trick game ends when a hand is empty"
    assert all(note in printed[last_ranking(printed, lang):] for note in notes)


async def test_the_playback_ends_with_the_same_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    storage = await Storage.open(tmp_path / "games.db")
    service = GameService(storage)
    scheduler = BotScheduler(service, delay=0)
    table = await service.create_bot_table(game="akuma", players=3, seed=4, channel_id=1)
    await scheduler.idle()
    await scheduler.close()
    (tmp_path / "game.json").write_bytes((await stored_record(storage, table.id)).dump())
    await storage.close()
    notes = emptied_notes(table, "en")
    assert notes
    assert main(["replay", str(tmp_path / "game.json")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert all(note in out[last_ranking(out, "en"):] for note in notes)
