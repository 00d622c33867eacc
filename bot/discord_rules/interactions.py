"""Interaction callbacks: which response types an interaction accepts, and the modal and autocomplete bodies."""
from __future__ import annotations

from typing import Optional, Sequence

from . import limits
from .components import check_modal_component
from .messages import message_errors
from .problems import Answer, Problems

PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
PONG, MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE, CHOICES, MODAL, PREMIUM, LAUNCH_ACTIVITY = 1, 4, 5, 6, 7, 8, 9, 10, 12
CALLBACKS_FOR = {
    PING: {PONG},
    APPLICATION_COMMAND: {MESSAGE, DEFERRED, MODAL, PREMIUM, LAUNCH_ACTIVITY},
    MESSAGE_COMPONENT: {MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE, MODAL},
    AUTOCOMPLETE: {CHOICES},
    MODAL_SUBMIT: {MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE},
}


def callback_errors(interaction_type: int, body: Optional[dict], uploads: Sequence[str] = (),
                    existing: Optional[dict[str, str]] = None) -> Optional[Answer]:
    """Discord's answer to ``POST /interactions/{id}/{token}/callback`` for an interaction of this type.
    ``existing``: attachments of the message an UPDATE_MESSAGE edits."""
    body = body or {}
    kind, data = body.get("type"), body.get("data") or {}
    if kind not in CALLBACKS_FOR.get(interaction_type, set()):
        p = Problems()
        p.add(("type",), "INTERACTION_CALLBACK_TYPE_INVALID",
              f"Interaction callback type {kind} is not valid for interaction type {interaction_type}")
        return p.answer()
    if kind == MESSAGE:
        return message_errors(data, uploads, creating=True, at=("data",))
    if kind == UPDATE:
        return message_errors(data, uploads, creating=False, existing=existing, at=("data",))
    if kind == MODAL:
        return modal_errors(data)
    if kind == CHOICES:
        return choices_errors(data)
    if kind == DEFERRED and (data.get("flags") or 0) & ~64:
        p = Problems()
        p.add(("data", "flags"), "MESSAGE_FLAGS_INVALID", "Only the ephemeral flag can be set on a deferred reply")
        return p.answer()
    return None


def modal_errors(data: dict) -> Optional[Answer]:
    """A modal: title ≤ 45, custom_id, one to five rows (a text input each) or labels."""
    p = Problems()
    p.length(("data", "title"), data.get("title"), limits.MODAL_TITLE, 1, required=True)
    p.length(("data", "custom_id"), data.get("custom_id"), limits.CUSTOM_ID, 1, required=True)
    components = data.get("components") or []
    p.count(("data", "components"), components, 5, 1)
    seen: set[str] = set()
    for i, component in enumerate(components):
        check_modal_component(p, ("data", "components", i), component, seen)
    return p.answer()


def choices_errors(data: dict) -> Optional[Answer]:
    """Autocomplete: at most 25 choices, names 1–100, string values ≤ 100."""
    p = Problems()
    choices = data.get("choices") or []
    p.count(("data", "choices"), choices, limits.CHOICES)
    for i, choice in enumerate(choices):
        p.length(("data", "choices", i, "name"), choice.get("name"), limits.CHOICE_NAME, 1, required=True)
        value = choice.get("value")
        if isinstance(value, str):
            p.length(("data", "choices", i, "value"), value, limits.CHOICE_VALUE)
        elif not isinstance(value, (int, float)) or isinstance(value, bool):
            p.add(("data", "choices", i, "value"), "BASE_TYPE_REQUIRED", "A choice value is a string or a number")
    return p.answer()
