"""Catalogs: the same keys and placeholders in every language; every key used exists."""
from __future__ import annotations

import re
import string
from pathlib import Path

from bot.i18n import LANGUAGES, catalog, language, rules_text, t
from engines import GAMES

ROOT = Path(__file__).resolve().parents[1]


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_catalogs_have_the_same_keys_and_placeholders() -> None:
    base = catalog("en")
    for lang in LANGUAGES:
        other = catalog(lang)
        assert set(other) == set(base), f"{lang}: keys differ: {set(other) ^ set(base)}"
        for key, text in base.items():
            assert placeholders(other[key]) == placeholders(text), f"{lang}:{key} placeholders differ"


def test_every_literal_key_used_in_code_exists() -> None:
    keys = set(catalog("en"))
    used = set()
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            used |= set(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-z0-9_.]+)["']""", path.read_text(encoding="utf-8")))
    missing = used - keys
    assert not missing, f"keys used but not in the catalog: {missing}"


def test_locale_choice() -> None:
    assert language("ja") == "ja" and language("en-US") == "en" and language("fr") == "en" and language(None) == "en"
    assert t("game.akuma.name", "en-GB") == "Akuma Trick"


def test_every_game_has_rules_in_every_language() -> None:
    for game in GAMES:
        for lang in LANGUAGES:
            assert "Decision" in rules_text(game, lang) or "決定" in rules_text(game, lang)
