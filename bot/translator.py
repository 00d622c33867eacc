"""Slash-command localisation: names, descriptions and choices come from the catalogs
(``bot/locales/<lang>/commands.json``), keyed by each string's place in the command tree:

    app.<command path>.name / .description        e.g. app.play.akuma.description
    app.<command path>.<option>.name / .description
    app.choice.<value>                             choice labels, shared by every command

English is the source (the strings written in the code); other languages are sent to Discord as
localisations, so a Japanese client shows Japanese commands."""
from __future__ import annotations

from typing import Any, Iterator

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from .i18n import DEFAULT, catalog, language


def command_key(where: Where, data: Any) -> str | None:
    if where in (Where.command_name, Where.group_name):
        return f"app.{data.qualified_name.replace(' ', '.')}.name"
    if where in (Where.command_description, Where.group_description):
        return f"app.{data.qualified_name.replace(' ', '.')}.description"
    if where in (Where.parameter_name, Where.parameter_description):
        suffix = "name" if where is Where.parameter_name else "description"
        return f"app.{data.command.qualified_name.replace(' ', '.')}.{data.name}.{suffix}"
    if where is Where.choice_name:
        return f"app.choice.{data.value}"
    return None


class CatalogTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        lang = language(locale)
        if lang == DEFAULT:
            return None
        key = command_key(context.location, context.data)
        return catalog(lang).get(key) if key else None


def command_strings(tree: app_commands.CommandTree) -> Iterator[tuple[str | None, str]]:
    """Every (key, English source text) of the commands in ``tree`` — what the catalogs must cover."""
    def walk(command: Any) -> Iterator[tuple[str | None, str]]:
        group = isinstance(command, app_commands.Group)
        yield command_key(Where.group_name if group else Where.command_name, command), command.name
        yield command_key(Where.group_description if group else Where.command_description,
                          command), command.description
        if group:
            for child in command.commands:
                yield from walk(child)
            return
        for param in command.parameters:
            yield command_key(Where.parameter_name, param), param.name
            yield command_key(Where.parameter_description, param), param.description
            for choice in param.choices:
                yield command_key(Where.choice_name, choice), choice.name

    for command in tree.get_commands():
        yield from walk(command)
