"""The rules players read with `/rules <game>` (bot/locales/rules/<game>.{en,ja}.md) must say what
docs/rules/<game>.md records: every decision there carries an id ([D1], [D2], …) that must appear in both
language files, and the two language files carry the same ids. Nothing in the repository points outside it."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from engines import GAMES

ROOT = Path(__file__).resolve().parents[1]
DOC_ID = re.compile(r"\*\*Decision \[(D\d+)\]")
LOCALE_ID = re.compile(r"\*\*\[(D\d+)\] (?:Decision|決定|House rule|ハウスルール)")  # a house rule is a decision too


def ids(pattern: re.Pattern[str], path: Path) -> set[str]:
    return set(pattern.findall(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("game", GAMES)
def test_every_decision_of_the_rules_doc_is_in_both_languages(game: str) -> None:
    doc = ids(DOC_ID, ROOT / "docs" / "rules" / f"{game}.md")
    en = ids(LOCALE_ID, ROOT / "bot" / "locales" / "rules" / f"{game}.en.md")
    ja = ids(LOCALE_ID, ROOT / "bot" / "locales" / "rules" / f"{game}.ja.md")
    assert doc, f"docs/rules/{game}.md has no decision ids"
    assert en == ja, f"{game}: en and ja rules differ in decisions {sorted(en ^ ja)}"
    assert doc <= en, f"{game}: decisions {sorted(doc - en)} of docs/rules/{game}.md are missing from /rules"
    untagged = re.findall(r"\*\*Decision(?! \[D\d+\])[^*]*\*\*", (ROOT / "docs" / "rules" / f"{game}.md").read_text())
    assert not untagged, f"docs/rules/{game}.md has decisions without an id: {untagged}"


def test_the_contract_and_rules_live_in_the_repository() -> None:
    assert (ROOT / "docs" / "engine-contract.md").is_file()
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    folder = "shar" + "ed"  # spelled in two parts so that this file does not match its own search
    outside = re.compile(rf"\.\./{folder}|/work/{folder}|\b{folder}/(rules|seeds|design)")
    hits = [f for f in files if Path(ROOT / f).is_file() and f.endswith((".py", ".md", ".json", ".toml", ".txt"))
            and outside.search((ROOT / f).read_text(encoding="utf-8", errors="ignore"))]
    assert not hits, f"files pointing outside the repository: {hits}"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_twin_pyramids_turn_limit_decisions_name_the_house_rule_that_settles_them(lang: str) -> None:
    """D11 and D17 say how a deal at the turn limit ends; at five and six seats D18 settles it, so neither may say
    it ends unpaid without naming D18 (a tester read D17's "ends unpaid" right under D18's "settled")."""
    text = (ROOT / "bot" / "locales" / "rules" / f"twinpyramid.{lang}.md").read_text(encoding="utf-8")
    for decision in ("D9", "D11", "D17"):
        paragraph = next(line for line in text.splitlines() if f"[{decision}]" in line)
        assert "D18" in paragraph, f"{lang} {decision} does not name the house rule D18: {paragraph}"
