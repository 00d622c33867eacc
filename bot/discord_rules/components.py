"""Message components (action rows, buttons, selects) and modal components (text inputs, labels), as Discord
checks them. Components v2 layouts are not modelled: a message with that flag only gets the custom_id checks."""
from __future__ import annotations

from typing import Any, Optional

import emoji as emoji_data

from . import limits
from .problems import Path, Problems

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT, TEXT_DISPLAY, LABEL = 1, 2, 3, 4, 10, 18
SELECTS = (3, 5, 6, 7, 8)  # string, user, role, mentionable, channel
LINK, PREMIUM = 5, 6


def check_emoji(p: Problems, path: Path, value: Optional[dict]) -> None:
    """A custom emoji needs its id; a unicode emoji (no id) must be a real emoji, else Discord answers 50035."""
    if value is None:
        return
    if value.get("id"):
        if not str(value["id"]).isdigit():
            p.add((*path, "id"), "SNOWFLAKE_TYPE_COERCE", f"Value \"{value['id']}\" is not snowflake.")
        return
    name = value.get("name")
    if not name or not emoji_data.is_emoji(name):
        p.add((*path, "name"), "COMPONENT_INVALID_EMOJI", "Invalid emoji")


def check_custom_id(p: Problems, path: Path, component: dict, seen: set[str]) -> None:
    cid = component.get("custom_id")
    p.length((*path, "custom_id"), cid, limits.CUSTOM_ID, 1, required=True)
    if isinstance(cid, str) and cid in seen:
        p.add((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    seen.add(cid if isinstance(cid, str) else "")


def check_button(p: Problems, path: Path, button: dict, seen: set[str]) -> None:
    style = button.get("style")
    if style not in range(1, 7):
        p.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
    if style == LINK:
        p.length((*path, "url"), button.get("url"), limits.LINK_URL, 1, required=True)
        if button.get("custom_id") is not None:
            p.add((*path, "custom_id"), "BUTTON_COMPONENT_LINK_CUSTOM_ID", "A link button cannot have a custom id")
    elif style == PREMIUM:
        if not button.get("sku_id"):
            p.add((*path, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
    else:
        check_custom_id(p, path, button, seen)
        if button.get("url") is not None:
            p.add((*path, "url"), "BUTTON_COMPONENT_URL_NOT_ALLOWED", "Only link buttons can have a url")
    p.length((*path, "label"), button.get("label"), limits.BUTTON_LABEL)
    check_emoji(p, (*path, "emoji"), button.get("emoji"))
    if style != PREMIUM and not button.get("label") and not button.get("emoji"):
        p.add((*path,), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji")


def check_options(p: Problems, path: Path, options: list[dict]) -> None:
    p.count((*path, "options"), options, limits.SELECT_OPTIONS, 1)
    values: set[Any] = set()
    for i, option in enumerate(options):
        at = (*path, "options", i)
        p.length((*at, "label"), option.get("label"), limits.OPTION_LABEL, 1, required=True)
        p.length((*at, "value"), option.get("value"), limits.OPTION_VALUE, 1, required=True)
        p.length((*at, "description"), option.get("description"), limits.OPTION_DESCRIPTION)
        check_emoji(p, (*at, "emoji"), option.get("emoji"))
        if option.get("value") in values:
            p.add((*at, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Select option values must be unique")
        values.add(option.get("value"))


def check_select(p: Problems, path: Path, select: dict, seen: set[str]) -> None:
    check_custom_id(p, path, select, seen)
    p.length((*path, "placeholder"), select.get("placeholder"), limits.SELECT_PLACEHOLDER)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    p.between((*path, "min_values"), low, 0, limits.SELECT_OPTIONS)
    p.between((*path, "max_values"), high, 1, limits.SELECT_OPTIONS)
    if isinstance(low, int) and isinstance(high, int) and low > high:
        p.add((*path, "min_values"), "SELECT_COMPONENT_MIN_MAX_INVALID", "min_values must be <= max_values")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    check_options(p, path, options)
    if isinstance(high, int) and options and high > len(options):
        p.add((*path, "max_values"), "SELECT_COMPONENT_MAX_VALUES_TOO_HIGH",
              "max_values must be less than or equal to the number of options")
    defaults = sum(1 for o in options if o.get("default"))
    if isinstance(high, int) and defaults > high:
        p.add((*path, "options"), "SELECT_COMPONENT_TOO_MANY_DEFAULTS",
              "The number of default options must be less than or equal to max_values")


def check_row(p: Problems, path: Path, row: dict, seen: set[str]) -> None:
    children = row.get("components") or []
    p.count((*path, "components"), children, limits.ROW_BUTTONS, 1)
    selects = [c for c in children if c.get("type") in SELECTS]
    if selects and len(children) > 1:
        p.add((*path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
              "The specified component exceeds the maximum width")
    for i, child in enumerate(children):
        at = (*path, "components", i)
        if child.get("type") == BUTTON:
            check_button(p, at, child, seen)
        elif child.get("type") in SELECTS:
            check_select(p, at, child, seen)
        else:
            p.add((*at, "type"), "COMPONENT_TYPE_INVALID", f"Component type {child.get('type')} is not allowed here")


def check_message_components(p: Problems, components: Optional[list[dict]], *, v2: bool) -> None:
    """Top level: up to five action rows (a components-v2 message only gets unique, short custom ids)."""
    seen: set[str] = set()
    components = components or []
    if v2:
        for i, c in enumerate(_v2_interactive(components)):
            if "custom_id" in c:
                check_custom_id(p, ("components", i), c, seen)
        return
    p.count(("components",), components, limits.ACTION_ROWS)
    for i, row in enumerate(components):
        if row.get("type") != ACTION_ROW:
            p.add(("components", i, "type"), "COMPONENT_TYPE_INVALID", "Top-level components must be action rows")
            continue
        check_row(p, ("components", i), row, seen)


def _v2_interactive(components: list[dict]) -> list[dict]:
    found: list[dict] = []
    for c in components:
        found.append(c)
        found += _v2_interactive(c.get("components") or [])
        found += _v2_interactive([x for x in (c.get("accessory"), c.get("component")) if x])
    return [c for c in found if c.get("type") not in (1, 9, 10, 17, 18)]


def check_text_input(p: Problems, path: Path, text: dict, seen: set[str], *, in_label: bool) -> None:
    check_custom_id(p, path, text, seen)
    if text.get("style") not in (1, 2):
        p.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    if not in_label:  # inside a Label component the label belongs to the Label
        p.length((*path, "label"), text.get("label"), limits.INPUT_LABEL, 1, required=True)
    p.between((*path, "min_length"), text.get("min_length"), 0, limits.TEXT_INPUT)
    p.between((*path, "max_length"), text.get("max_length"), 1, limits.TEXT_INPUT)
    low, high = text.get("min_length"), text.get("max_length")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        p.add((*path, "min_length"), "TEXT_INPUT_MIN_MAX_INVALID", "min_length must be <= max_length")
    p.length((*path, "placeholder"), text.get("placeholder"), limits.TEXT_INPUT_PLACEHOLDER)
    p.length((*path, "value"), text.get("value"), limits.TEXT_INPUT)


def check_modal_component(p: Problems, path: Path, component: dict, seen: set[str]) -> None:
    kind = component.get("type")
    if kind == ACTION_ROW:
        children = component.get("components") or []
        p.count((*path, "components"), children, 1, 1)
        for i, child in enumerate(children):
            if child.get("type") != TEXT_INPUT:
                p.add((*path, "components", i, "type"), "COMPONENT_TYPE_INVALID", "A modal row holds one text input")
            else:
                check_text_input(p, (*path, "components", i), child, seen, in_label=False)
    elif kind == LABEL:
        p.length((*path, "label"), component.get("label"), limits.INPUT_LABEL, 1, required=True)
        p.length((*path, "description"), component.get("description"), limits.INPUT_LABEL_DESCRIPTION)
        inner = component.get("component") or {}
        if inner.get("type") == TEXT_INPUT:
            check_text_input(p, (*path, "component"), inner, seen, in_label=True)
        elif inner.get("type") in SELECTS:
            check_select(p, (*path, "component"), inner, seen)
        else:
            p.add((*path, "component"), "COMPONENT_TYPE_INVALID", "A label holds a text input or a select")
    elif kind == TEXT_DISPLAY:
        p.length((*path, "content"), component.get("content"), limits.TEXT_DISPLAY, 1, required=True)
    else:
        p.add((*path, "type"), "COMPONENT_TYPE_INVALID", f"Component type {kind} is not allowed in a modal")
