"""Starting a thread (from a message, or on its own in a channel): its name and archive duration."""
from __future__ import annotations

from typing import Optional

from . import limits
from .problems import Answer, Problems

ARCHIVE_MINUTES = (60, 1440, 4320, 10080)  # the only auto_archive_duration values Discord takes
THREAD_TYPES = (10, 11, 12)  # announcement, public and private threads


def thread_errors(body: Optional[dict], *, from_message: bool) -> Optional[Answer]:
    """Discord's answer to a "start thread" body, or None if it is accepted: a name of 1–100 characters, an
    archive duration Discord offers and, for a thread not started from a message, a thread type."""
    body = body or {}
    p = Problems()
    p.length(("name",), body.get("name"), limits.THREAD_NAME, 1, required=True)
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in ARCHIVE_MINUTES:
        p.add(("auto_archive_duration",), "BASE_TYPE_CHOICES",
              f"Value must be one of {{{', '.join(map(str, ARCHIVE_MINUTES))}}}.")
    if not from_message and body.get("type") is not None and body["type"] not in THREAD_TYPES:
        p.add(("type",), "BASE_TYPE_CHOICES", f"Value must be one of {{{', '.join(map(str, THREAD_TYPES))}}}.")
    return p.answer()
