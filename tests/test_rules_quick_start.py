"""``/rules`` starts with a quick start (issue 34 item 6): every game's reply begins, in English and Japanese, with
a quick start under ~600 characters (the goal, what a turn is, what the buttons do) and keeps every "[Dn] Decision"
of its rules file, gathered in a section of their own after the rules."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, quick_start_text, rules_text, t
from cogs.rules import arranged_rules, rules_messages
from engines import GAMES

from .discord_harness import Harness
from .discord_helpers import start_harness

DECISION_ID = re.compile(r"\*\*\[(D\d+)\]")
QUICK_LIMIT = 600
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_rules_begin_with_a_short_quick_start_and_end_with_the_decisions(game: str, lang: str) -> None:
    quick = quick_start_text(game, lang)
    assert 150 <= len(quick) <= QUICK_LIMIT, (game, lang, len(quick))
    assert t("board.my_hand", lang) in quick  # the button that opens the hand, as it is labelled
    assert bool(JAPANESE.search(quick)) == (lang == "ja")
    text = arranged_rules(game, lang)
    assert text.startswith(t("rules.quick_start", lang) + "\n" + quick + "\n\n" + t("rules.in_full", lang))
    rules_part, decisions_heading, decisions = text.partition("\n\n" + t("rules.decisions", lang) + "\n")
    assert decisions_heading, "no decisions section"
    in_file = DECISION_ID.findall(rules_text(game, lang))
    assert in_file and DECISION_ID.findall(decisions) == in_file  # all of them, in the file's order
    assert not DECISION_ID.findall(rules_part)  # none left among the rules
    assert all(line.startswith("> **[D") for line in decisions.splitlines())
    first = rules_messages(game, lang)[0][0].description or ""
    assert first.startswith(t("rules.quick_start", lang) + "\n" + quick)  # the first thing the reply shows


def test_every_game_has_a_quick_start_in_every_language() -> None:
    folder = Path(__file__).resolve().parents[1] / "bot" / "locales" / "rules"
    for game in GAMES:
        for lang in LANGUAGES:
            assert (folder / f"{game}.quick.{lang}.md").is_file(), (game, lang)


async def test_the_rules_reply_opens_with_the_quick_start_in_the_readers_language(tmp_path: Path) -> None:
    h: Harness = await start_harness(tmp_path / "bot.db")
    try:
        for lang, user in (("en", h.user(101, "alice")), ("ja", h.user(102, "hiro", locale="ja"))):
            r = await h.slash(user, "rules", game="pileup")
            assert r.ephemeral
            first = r.message.payload["embeds"][0]["description"]
            assert first.startswith(t("rules.quick_start", lang) + "\n" + quick_start_text("pileup", lang))
            assert t("rules.decisions", lang) in r.text
    finally:
        await h.close()
