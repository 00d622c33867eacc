"""Host-level domain errors. Like engine errors they carry a stable ``code`` and fields;
``user_message`` turns either kind into the text a player sees (the one place that does)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines import EngineError

from .games import PLUGINS, render_hooks
from .i18n import has_key, join_list, t


class HostError(Exception):
    def __init__(self, code: str, /, **fields: Any) -> None:
        self.code = code
        self.fields = fields
        super().__init__(code)


def user_message(error: BaseException, locale: object | None) -> str:
    if isinstance(error, (HostError, EngineError)):
        key = f"error.{error.code}"
        if has_key(key):
            return t(key, locale, **_readable(error.code, error.fields, locale))
        return t("error.generic_rule", locale, code=error.code)
    return t("error.unexpected", locale)


def _readable(code: str, fields: Mapping[str, object], locale: object | None) -> dict[str, object]:
    """Card ids become the game's card marks; lists become comma lists."""
    game = code.split(".", 1)[0] if "." in code else None
    fmt = None
    if game in PLUGINS:  # game codes (akuma.*) may format card ids; host codes (tournament.*) have no renderer
        fmt = render_hooks(game).error_field
    out: dict[str, object] = {}
    for key, value in fields.items():
        if fmt is not None:
            value = fmt(key, value, locale)
        if isinstance(value, (list, tuple)):
            value = join_list(value, locale)
        out[key] = value
    return out
