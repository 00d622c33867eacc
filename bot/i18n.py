"""Every user-facing string goes through ``t(key, locale, **fields)``.

Catalogs live in ``bot/locales/<lang>/*.json`` — ``common.json`` plus one file per game — each a flat
``key -> text`` map with ``{field}`` placeholders, merged per language (a key defined twice is an error).
A Discord locale such as ``ja`` or ``en-US`` picks the catalog; anything else falls back to English.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "ja")
DEFAULT = "en"
_DIR = Path(__file__).with_name("locales")


@cache
def catalog(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in sorted((_DIR / lang).glob("*.json")):
        part = json.loads(path.read_text(encoding="utf-8"))
        clash = merged.keys() & part.keys()
        if clash:
            raise ValueError(f"{path.name} redefines {sorted(clash)}")
        merged.update(part)
    return merged


def language(locale: object | None) -> str:
    """Map a Discord locale (``discord.Locale`` or str) to one of LANGUAGES."""
    return _language_of(str(getattr(locale, "value", locale) or ""))


@cache
def _language_of(value: str) -> str:
    value = value.lower()
    if value.startswith("ja"):
        return "ja"
    return value if value in LANGUAGES else DEFAULT


def has_key(key: str) -> bool:
    return key in catalog(DEFAULT)


def t(key: str, locale: object | None = None, /, **fields: Any) -> str:
    lang = language(locale)
    text = catalog(lang).get(key)
    if text is None:
        text = catalog(DEFAULT).get(key)
    if text is None:
        raise KeyError(f"missing i18n key {key!r}")
    return text.format(**fields) if fields else text


def rules_text(game: str, locale: object | None = None) -> str:
    """The full rules of a game, with its decisions marked, in the locale's language (``locales/rules/``)."""
    folder = _DIR / "rules"
    path = folder / f"{game}.{language(locale)}.md"
    if not path.exists():
        path = folder / f"{game}.{DEFAULT}.md"
    text = path.read_text(encoding="utf-8")
    from importlib import import_module  # a game may fill parts of its rules from its engine's data

    fill = getattr(import_module(f"bot.render.{game}"), "rules_fields", None)
    return text.format(**fill(locale)) if fill is not None else text
