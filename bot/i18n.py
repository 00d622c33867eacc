"""Every user-facing string goes through ``t(key, locale, **fields)``.

Catalogs live in ``bot/locales/<lang>/*.json`` — ``common.json`` plus one file per game — each a flat
``key -> text`` map with ``{field}`` placeholders, merged per language (a key defined twice is an error); a game
whose plug-in keeps its catalogs elsewhere (``bot.games``) adds its own file.
A Discord locale such as ``ja`` or ``en-US`` picks the catalog; anything else falls back to English.

A number that a word must agree with carries its forms in the field's format spec, by CLDR plural category
(Unicode's rules, from Babel): ``{count:one=# card|other=# cards}`` gives "1 card" and "3 cards"; ``#`` is the
number. A category the language does not have is never chosen, so Japanese writes plain ``{count}枚``.
"""
from __future__ import annotations

import json
import string
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Callable

from babel import Locale

from . import games

LANGUAGES = ("en", "ja")
DEFAULT = "en"
_DIR = Path(__file__).with_name("locales")


@cache
def catalog(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for path in sorted((_DIR / lang).glob("*.json")) + games.catalog_files(lang):
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


def plural_forms(spec: str) -> dict[str, str] | None:
    """``one=# card|other=# cards`` → {"one": "# card", "other": "# cards"}; None for an ordinary format spec."""
    if "=" not in spec:
        return None
    return dict(part.split("=", 1) for part in spec.split("|"))


def _plural_category(rule: Callable[[Any], str], value: Any) -> str:
    """A count may arrive as text ("3"); anything that is not a number reads as the general form."""
    if isinstance(value, str) and value.lstrip("-").isdigit():
        value = int(value)
    return rule(value) if isinstance(value, (int, float)) else "other"


class _PluralFormatter(string.Formatter):
    """The general path, for the rare text the compiled one does not take (``{a.b}``, ``{a!r}``, nested specs)."""

    def __init__(self, lang: str) -> None:
        self.rule = Locale.parse(lang).plural_form

    def format_field(self, value: Any, format_spec: str) -> str:
        forms = plural_forms(format_spec)
        if forms is None:
            return super().format_field(value, format_spec)
        chosen = forms.get(_plural_category(self.rule, value), forms["other"])
        return chosen.replace("#", str(value))


@cache
def _formatter(lang: str) -> _PluralFormatter:
    return _PluralFormatter(lang)


# A compiled text: literal pieces and fields (name, format spec, plural forms or None), or None when the text
# needs the general formatter. Catalog texts are fixed, so each is parsed once instead of at every message
# (the text render was a quarter of the event loop's busy time at 1,000 tables, most of it in this parsing).
_Piece = tuple[str, str | None, str, dict[str, str] | None]


@cache
def _compiled(text: str) -> tuple[_Piece, ...] | None:
    pieces = []
    for literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None and (conversion or not name or "." in name or "[" in name or "{" in (spec or "")):
            return None
        pieces.append((literal, name, spec or "", None if name is None else plural_forms(spec or "")))
    return tuple(pieces)


def _format(lang: str, text: str, fields: Mapping[str, object]) -> str:
    pieces = _compiled(text)
    if pieces is None:
        return _formatter(lang).format(text, **fields)
    out = []
    for literal, name, spec, forms in pieces:
        out.append(literal)
        if name is None:
            continue
        value = fields[name]
        if forms is None:
            out.append(format(value, spec))
        else:
            chosen = forms.get(_plural_category(_formatter(lang).rule, value), forms["other"])
            out.append(chosen.replace("#", str(value)))
    return "".join(out)


def t(key: str, locale: object | None = None, /, **fields: Any) -> str:
    lang = language(locale)
    text = catalog(lang).get(key)
    if text is None:
        lang, text = DEFAULT, catalog(DEFAULT).get(key)
    if text is None:
        raise KeyError(f"missing i18n key {key!r}")
    return _format(lang, text, fields) if fields else text


def join_list(items: Iterable[object], locale: object | None = None) -> str:
    """Items listed in running text with the language's separator (``common.list_separator``: ", " in English,
    "、" in Japanese): names, colours, places."""
    return t("common.list_separator", locale).join(map(str, items))


def with_mark(text: str, mark: str) -> str:
    """``text`` followed by a bracketed ``mark`` ("bob (start player)"): a space before an ASCII bracket, none
    before a full-width one (Japanese 「石 3/10（スタートプレイヤー）」)."""
    return text + ("" if mark.startswith(("（", "「")) else " ") + mark


def sentences(parts: Iterable[str], locale: object | None = None) -> str:
    """Sentences of one line run on with the language's gap (``common.sentence_separator``: a space in English,
    none in Japanese, whose 。 closes a sentence)."""
    return t("common.sentence_separator", locale).join(parts)


def rules_text(game: str, locale: object | None = None) -> str:
    """The full rules of a game, with its decisions marked, in the locale's language (``locales/rules/``)."""
    declared = games.plugin(game)
    path = declared.rules_file(language(locale))
    if not path.exists():
        path = declared.rules_file(DEFAULT)
    text = path.read_text(encoding="utf-8")
    fill = games.render_hooks(game).rules_fields  # a game may fill parts of its rules from its engine's data
    return text.format(**fill(locale)) if fill is not None else text


def quick_start_text(game: str, locale: object | None = None) -> str:
    """A game's quick start (goal, a turn, the buttons; ``locales/rules/<game>.quick.<lang>.md``), which ``/rules``
    shows before the rules."""
    rules = games.plugin(game).rules_file(language(locale))
    path = rules.with_name(f"{game}.quick.{language(locale)}.md")
    if not path.exists():
        path = rules.with_name(f"{game}.quick.{DEFAULT}.md")
    return path.read_text(encoding="utf-8").strip()
