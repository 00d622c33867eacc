"""A message body (create or edit; channel message, interaction response, followup or webhook edit)."""
from __future__ import annotations

import re
from typing import Any, Mapping, Optional, Sequence

from . import limits
from .components import check_message_components
from .problems import Answer, Problems

SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, VOICE_MESSAGE, COMPONENTS_V2 = 4, 64, 4096, 8192, 32768
SENDABLE_FLAGS = SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | VOICE_MESSAGE | COMPONENTS_V2
MENTION_TYPES = ("roles", "users", "everyone")
ATTACHMENT_URL = re.compile(r"^attachment://(.+)$")
EMPTY_MESSAGE: Answer = (400, {"code": 50006, "message": "Cannot send an empty message"})


def message_errors(body: Optional[dict], uploads: Sequence[str] = (), *, creating: bool,
                   existing: Optional[Mapping[str, str]] = None, at: tuple = ()) -> Optional[Answer]:
    """Discord's answer to a message body, or None if it is accepted.

    ``uploads``: the file names of the multipart ``files[n]`` parts, in order (``n`` is the index);
    ``existing``: attachment id → file name of the message being edited (kept attachments refer to these);
    ``at``: where the message sits in the request (``("data",)`` in an interaction callback)."""
    body = body or {}
    if creating and not _has_content(body, uploads):
        return EMPTY_MESSAGE
    p = Problems(at)
    p.length(("content",), body.get("content"), limits.MESSAGE_CONTENT)
    if isinstance(body.get("nonce"), str):  # a string nonce (Discord's OpenAPI: or an int64)
        p.length(("nonce",), body["nonce"], limits.NONCE)
    flags = body.get("flags") or 0
    if isinstance(flags, int) and flags & ~SENDABLE_FLAGS:
        p.add(("flags",), "MESSAGE_FLAGS_INVALID", "Only some flags can be set when sending a message")
    names = check_attachments(p, body.get("attachments"), uploads, existing or {})
    check_embeds(p, body.get("embeds"), names)
    check_message_components(p, body.get("components"), v2=bool(isinstance(flags, int) and flags & COMPONENTS_V2))
    check_allowed_mentions(p, body.get("allowed_mentions"))
    return p.answer()


def _has_content(body: dict, uploads: Sequence[str]) -> bool:
    return bool(body.get("content") or body.get("embeds") or body.get("components") or uploads
                or body.get("poll") or body.get("sticker_ids"))


def check_attachments(p: Problems, attachments: Optional[list[dict]], uploads: Sequence[str],
                      existing: Mapping[str, str]) -> set[str]:
    """Each attachment is an upload (``id`` = its ``files[n]`` index) or one the message already has; returns the
    file names the message will have."""
    if attachments is None:
        return set(uploads) | set(existing.values())
    p.count(("attachments",), attachments, limits.ATTACHMENTS)
    names: set[str] = set()
    for i, a in enumerate(attachments):
        aid = str(a.get("id", ""))
        if aid in existing:
            names.add(a.get("filename") or existing[aid])
        elif aid.isdigit() and int(aid) < len(uploads):
            names.add(a.get("filename") or uploads[int(aid)])
        else:
            p.add(("attachments", i, "id"), "ATTACHMENT_NOT_FOUND", f"Unknown attachment {aid or None}")
        p.length(("attachments", i, "description"), a.get("description"), limits.ATTACHMENT_DESCRIPTION)
    return names


def check_embeds(p: Problems, embeds: Optional[list[dict]], attachment_names: set[str]) -> None:
    embeds = embeds or []
    p.count(("embeds",), embeds, limits.EMBEDS)
    total = 0
    for i, embed in enumerate(embeds):
        total += check_embed(p, ("embeds", i), embed)
        for key in ("image", "thumbnail", "author", "footer"):
            url = (embed.get(key) or {}).get("icon_url" if key in ("author", "footer") else "url") or ""
            found = ATTACHMENT_URL.match(url)
            if found and found.group(1) not in attachment_names:
                p.add(("embeds", i, key), "EMBED_ATTACHMENT_NOT_FOUND",
                      f"attachment://{found.group(1)} is not an attachment of this message")
    if total > limits.EMBED_TOTAL:
        p.add(("embeds",), "BASE_TYPE_MAX_LENGTH", f"Embed size exceeds maximum size of {limits.EMBED_TOTAL}")


def check_embed(p: Problems, path: tuple, embed: dict) -> int:
    """Checks one embed's fields; returns the characters it adds to the message's 6,000."""
    footer, author = embed.get("footer") or {}, embed.get("author") or {}
    p.length((*path, "title"), embed.get("title"), limits.EMBED_TITLE)
    p.length((*path, "description"), embed.get("description"), limits.EMBED_DESCRIPTION)
    p.length((*path, "footer", "text"), footer.get("text"), limits.EMBED_FOOTER, 1, required=bool(embed.get("footer")))
    p.length((*path, "author", "name"), author.get("name"), limits.EMBED_AUTHOR, 1, required=bool(embed.get("author")))
    fields = embed.get("fields") or []
    p.count((*path, "fields"), fields, limits.EMBED_FIELDS)
    texts: list[Any] = [embed.get("title"), embed.get("description"), footer.get("text"), author.get("name")]
    for j, field in enumerate(fields):
        p.length((*path, "fields", j, "name"), field.get("name"), limits.EMBED_FIELD_NAME, 1, required=True)
        p.length((*path, "fields", j, "value"), field.get("value"), limits.EMBED_FIELD_VALUE, 1, required=True)
        texts += [field.get("name"), field.get("value")]
    return sum(len(x) for x in texts if isinstance(x, str))


def check_allowed_mentions(p: Problems, mentions: Optional[dict]) -> None:
    if mentions is None:
        return
    path = ("allowed_mentions",)
    for key in mentions.keys() - {"parse", "users", "roles", "replied_user"}:
        p.add((*path, key), "BASE_TYPE_UNKNOWN_FIELD", "Unknown field")
    parse = mentions.get("parse") or []
    for i, kind in enumerate(parse):
        if kind not in MENTION_TYPES:
            p.add((*path, "parse", i), "BASE_TYPE_CHOICES", "Value must be one of ('roles', 'users', 'everyone').")
    for kind in ("users", "roles"):
        ids = mentions.get(kind) or []
        p.count((*path, kind), ids, limits.MENTION_IDS)
        if ids and kind in parse:
            p.add((*path, kind), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                  f"parse:[\"{kind}\"] and {kind}: [ids...] are mutually exclusive.")
        for j, value in enumerate(ids):
            if not str(value).isdigit():
                p.add((*path, kind, j), "SNOWFLAKE_TYPE_COERCE", f"Value \"{value}\" is not snowflake.")
    if not isinstance(mentions.get("replied_user", False), bool):
        p.add((*path, "replied_user"), "BASE_TYPE_BOOLEAN", "Must be either true or false.")
