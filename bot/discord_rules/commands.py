"""Application-command payloads as sent by a bulk overwrite (``PUT /applications/{id}[/guilds/{id}]/commands``)."""
from __future__ import annotations

import unicodedata
from typing import Any, Optional

from . import limits
from .problems import Answer, Path, Problems

CHAT_INPUT, USER, MESSAGE_COMMAND = 1, 2, 3
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, NUMBER = 1, 2, 3, 4, 10
MAX_COMMANDS = {CHAT_INPUT: 100, USER: 15, MESSAGE_COMMAND: 15}
# Discord's OpenAPI (ApplicationCommandCreateRequest): ``integration_types`` are ApplicationIntegrationType values
# (0 GUILD_INSTALL, 1 USER_INSTALL), ``contexts`` InteractionContextType values (0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL).
INTEGRATION_TYPES, CONTEXTS = frozenset({0, 1}), frozenset({0, 1, 2})
MAX_SAFE_INTEGER = 2 ** 53
# Discord's developer documentation, "Reference > Locales": the only keys a localization map may have.
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl", "pt-BR",
    "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"})


def name_char_ok(char: str) -> bool:
    """One character of ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` (the scripts as their blocks)."""
    if char in "-_'" or unicodedata.category(char)[0] in "LN":
        return True
    point = ord(char)
    return 0x0900 <= point <= 0x097F or 0xA8E0 <= point <= 0xA8FF or 0x0E00 <= point <= 0x0E7F


def valid_name(name: Any) -> bool:
    """A chat-input command or option name: 1–32 allowed characters, lowercase wherever the script has case."""
    return (isinstance(name, str) and 1 <= len(name) <= limits.COMMAND_NAME and all(map(name_char_ok, name))
            and name == name.lower())


def command_errors(commands: Any) -> Optional[Answer]:
    """Discord's answer to a bulk overwrite of ``commands`` (a list of command payloads), or None."""
    p = Problems()
    if not isinstance(commands, list):
        p.add((), "BASE_TYPE_ARRAY", "Must be an array")
        return p.answer()
    for kind, high in MAX_COMMANDS.items():
        if sum(1 for c in commands if c.get("type", CHAT_INPUT) == kind) > high:
            p.add((), "APPLICATION_COMMANDS_TOO_MANY", f"Maximum number of application commands ({high}) reached")
    seen: set[tuple[int, str]] = set()
    for i, command in enumerate(commands):
        key = (command.get("type", CHAT_INPUT), command.get("name"))
        if key in seen:
            p.add((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
        seen.add(key)
        check_command(p, (i,), command)
    return p.answer()


def check_command(p: Problems, path: Path, command: dict) -> None:
    kind = command.get("type", CHAT_INPUT)
    check_enum_list(p, (*path, "integration_types"), command.get("integration_types"), INTEGRATION_TYPES)
    check_enum_list(p, (*path, "contexts"), command.get("contexts"), CONTEXTS)
    if kind == CHAT_INPUT:
        check_named(p, path, command)
        check_options(p, path, command.get("options") or [], depth=0)
        if command_size(command) > limits.COMMAND_SIZE:
            p.add(path, "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({limits.COMMAND_SIZE})")
    else:  # user and message commands: free-form names, no description, no options
        p.length((*path, "name"), command.get("name"), limits.COMMAND_NAME, 1, required=True)
        if command.get("description"):
            p.add((*path, "description"), "APPLICATION_COMMAND_DESCRIPTION_NOT_ALLOWED",
                  "Only chat input commands have a description")
        if command.get("options"):
            p.add((*path, "options"), "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED",
                  "Only chat input commands have options")


def check_enum_list(p: Problems, path: Path, values: Any, allowed: frozenset[int]) -> None:
    """``integration_types`` / ``contexts``: absent, null (Discord's default) or a list of known values."""
    if values is None:
        return
    if not isinstance(values, list):
        p.add(path, "BASE_TYPE_ARRAY", "Must be an array")
        return
    for i, value in enumerate(values):
        if value not in allowed:
            p.add((*path, i), "ENUM_TYPE_COERCE", f"Value \"{value}\" is not a valid enum value.")


def check_named(p: Problems, path: Path, item: dict) -> None:
    """name / description and their localizations (commands, options, subcommands)."""
    if not valid_name(item.get("name")):
        p.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    p.length((*path, "description"), item.get("description"), limits.COMMAND_DESCRIPTION, 1, required=True)
    for locale, text in _localizations(p, path, item, "name_localizations"):
        if not valid_name(text):
            p.add((*path, "name_localizations", locale), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    for locale, text in _localizations(p, path, item, "description_localizations"):
        p.length((*path, "description_localizations", locale), text, limits.COMMAND_DESCRIPTION, 1, required=True)


def _localizations(p: Problems, path: Path, item: dict, key: str) -> list[tuple[str, Any]]:
    found = []
    for locale, text in (item.get(key) or {}).items():
        if locale in LOCALES:
            found.append((locale, text))
        else:
            p.add((*path, key, locale), "BASE_TYPE_CHOICES", f"Value \"{locale}\" is not a valid locale.")
    return found


def check_options(p: Problems, path: Path, options: list[dict], *, depth: int) -> None:
    """One level of options: ≤ 25, unique names, required before optional, subcommands not mixed with values."""
    p.count((*path, "options"), options, limits.COMMAND_OPTIONS)
    nested = [o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options]
    if any(nested) and not all(nested):
        p.add((*path, "options"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
              "Sub-commands and sub-command groups cannot be mixed with other options")
    names: set[Any] = set()
    optional_seen = False
    for i, option in enumerate(options):
        at = (*path, "options", i)
        if option.get("name") in names:
            p.add((*at, "name"), "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME", "Option names must be unique")
        names.add(option.get("name"))
        if option.get("required") and optional_seen:
            p.add((*at, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                  "Required options must be placed before non-required options")
        optional_seen = optional_seen or not option.get("required")
        check_option(p, at, option, depth)


def check_option(p: Problems, path: Path, option: dict, depth: int) -> None:
    kind = option.get("type")
    check_named(p, path, option)
    if kind == SUB_COMMAND_GROUP:
        if depth > 0:
            p.add((*path, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "A group can only be top-level")
        children = option.get("options") or []
        if any(c.get("type") != SUB_COMMAND for c in children):
            p.add((*path, "options"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "A group holds only sub-commands")
        check_options(p, path, children, depth=depth + 1)
    elif kind == SUB_COMMAND:
        children = option.get("options") or []
        if any(c.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for c in children):
            p.add((*path, "options"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                  "A sub-command cannot hold sub-commands")
        check_options(p, path, children, depth=depth + 1)
    elif kind not in range(3, 12):
        p.add((*path, "type"), "BASE_TYPE_CHOICES", "Value must be a valid option type.")
    else:
        check_choices(p, path, option)


def check_choices(p: Problems, path: Path, option: dict) -> None:
    choices = option.get("choices") or []
    if choices and option.get("type") not in (STRING, INTEGER, NUMBER):
        p.add((*path, "choices"), "APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED", "Only these types have choices")
    if choices and option.get("autocomplete"):
        p.add((*path, "autocomplete"), "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES",
              "Autocomplete cannot be set when there are choices")
    p.count((*path, "choices"), choices, limits.CHOICES)
    for i, choice in enumerate(choices):
        at = (*path, "choices", i)
        p.length((*at, "name"), choice.get("name"), limits.CHOICE_NAME, 1, required=True)
        for locale, text in _localizations(p, at, choice, "name_localizations"):
            p.length((*at, "name_localizations", locale), text, limits.CHOICE_NAME, 1, required=True)
        if not _value_fits(option.get("type"), choice.get("value")):
            p.add((*at, "value"), "APPLICATION_COMMAND_OPTION_CHOICE_VALUE_INVALID",
                  "The choice value does not match the option type")


def _value_fits(kind: Any, value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if kind == STRING:
        return isinstance(value, str) and 1 <= len(value) <= limits.CHOICE_VALUE
    if kind == INTEGER:
        return isinstance(value, int) and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER
    return isinstance(value, (int, float))


def _longest(item: dict, key: str) -> int:
    """The longest of a text and its localizations (Discord counts the largest for the 8,000 limit)."""
    texts = [item.get(key) or "", *(item.get(f"{key}_localizations") or {}).values()]
    return max(len(str(x or "")) for x in texts)


def command_size(item: dict) -> int:
    """Characters Discord counts for a command: names, descriptions, option names/descriptions and choices."""
    size = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(command_size(option) for option in item.get("options") or [])
