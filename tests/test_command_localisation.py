"""Slash commands are localised through discord.py's Translator: every command, option and choice of the
real bot has catalog entries, English matching the code, Japanese valid as a Discord name."""
from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.i18n import LANGUAGES, catalog
from bot.translator import CatalogTranslator, command_strings

from .discord_helpers import start_harness

NAME = re.compile(r"^[-_\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")


async def test_every_command_string_is_in_every_catalog(tmp_path: Path) -> None:
    h = await start_harness(tmp_path / "bot.db")
    try:
        strings = dict(command_strings(h.bot.tree))
        assert any(k.startswith("app.play.akuma") for k in strings)
        for key, english in strings.items():
            assert catalog("en").get(key) == english, f"en catalog out of date for {key}: {english!r}"
            for lang in LANGUAGES:
                text = catalog(lang).get(key)
                assert text, f"{lang}: no translation for {key}"
                if key.endswith(".name") and not key.startswith("app.choice."):
                    assert NAME.match(text) and text == text.lower(), f"{lang}:{key} {text!r} is not a valid name"
                else:
                    assert len(text) <= 100, f"{lang}:{key} is longer than Discord allows"
        assert isinstance(h.bot.tree.translator, CatalogTranslator)
        # What discord.py sends when it syncs: Japanese localisations ride along with the English command.
        play = h.bot.tree.get_command("play")
        payload = await play.get_translated_payload(h.bot.tree, h.bot.tree.translator)
        akuma = next(o for o in payload["options"] if o["name"] == "akuma")
        assert akuma["name_localizations"]["ja"] == catalog("ja")["app.play.akuma.name"]
        assert akuma["description_localizations"]["ja"] == catalog("ja")["app.play.akuma.description"]
        assert "en-US" not in akuma["description_localizations"]
        # Each language's names are unique at each level, as Discord requires.
        for lang in LANGUAGES:
            seen: dict[str, str] = {}
            for key in strings:
                if key.endswith(".name") and not key.startswith("app.choice."):
                    parent = key.rsplit(".", 2)[0]
                    sibling = (parent, catalog(lang)[key])
                    assert sibling not in seen.items() or seen.get(parent) is None
        sync = [c for c in h.calls if c.method == "PUT"]
        assert not sync  # tests never sync; the payload above is what a sync would send
    finally:
        await h.close()


async def test_translator_answers_japanese_only() -> None:
    translator = CatalogTranslator()
    from discord.app_commands import Choice, TranslationContext, TranslationContextLocation, locale_str

    choice = Choice(name="random", value="random")
    context = TranslationContext(TranslationContextLocation.choice_name, choice)
    assert await translator.translate(locale_str("random"), discord.Locale.japanese, context) == catalog("ja")[
        "app.choice.random"]
    assert await translator.translate(locale_str("random"), discord.Locale.american_english, context) is None
