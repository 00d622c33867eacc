"""Starting a thread (from a message, or on its own in a channel): its name, archive duration and type, and the
channel it may start in; adding someone to a thread (``member_errors``)."""
from __future__ import annotations

from typing import Optional

from . import limits
from .problems import Answer, Problems

ARCHIVE_MINUTES = (60, 1440, 4320, 10080)  # the only auto_archive_duration values Discord takes
ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD = 10, 11, 12
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
TEXT_CHANNEL, ANNOUNCEMENT_CHANNEL = 0, 5
# Discord's "Start Thread without Message": an announcement channel has announcement threads, a text channel public
# and private ones ("private threads ... can only be created in GUILD_TEXT channels"); without a type, private.
THREADS_IN = {TEXT_CHANNEL: (PUBLIC_THREAD, PRIVATE_THREAD), ANNOUNCEMENT_CHANNEL: (ANNOUNCEMENT_THREAD,)}
SEND_MESSAGES_IN_THREADS, MANAGE_THREADS = 1 << 38, 1 << 34


def _refusal(status: int, code: int, message: str) -> Answer:
    return status, {"code": code, "message": message}


WRONG_CHANNEL_TYPE = _refusal(400, 50024, "Cannot execute action on this channel type")
MISSING_ACCESS = _refusal(403, 50001, "Missing Access")
MISSING_PERMISSIONS = _refusal(403, 50013, "Missing Permissions")
THREAD_ARCHIVED = _refusal(400, 50083, "Thread is archived")


def thread_errors(body: Optional[dict], *, from_message: bool, parent_type: Optional[int] = None) -> Optional[Answer]:
    """Discord's answer to a "start thread" body, or None if it is accepted: a name of 1–100 characters, an
    archive duration Discord offers and, for a thread not started from a message, a thread type the parent channel
    (``parent_type``, when known) has."""
    body = body or {}
    p = Problems()
    p.length(("name",), body.get("name"), limits.THREAD_NAME, 1, required=True)
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in ARCHIVE_MINUTES:
        p.add(("auto_archive_duration",), "BASE_TYPE_CHOICES",
              f"Value must be one of {{{', '.join(map(str, ARCHIVE_MINUTES))}}}.")
    kind = body.get("type")
    if not from_message and kind is not None and kind not in THREAD_TYPES:
        p.add(("type",), "BASE_TYPE_CHOICES", f"Value must be one of {{{', '.join(map(str, THREAD_TYPES))}}}.")
    if p:
        return p.answer()
    if not from_message and parent_type in THREADS_IN and (kind or PRIVATE_THREAD) not in THREADS_IN[parent_type]:
        return WRONG_CHANNEL_TYPE
    return None


def member_errors(thread: dict, permissions: int, *, bot_id: str, members: set[str]) -> Optional[Answer]:
    """Discord's answer to "Add Thread Member" by the bot (``permissions``: the bot's in the thread's parent;
    ``members``: the thread's members' user ids), or None if it is accepted: the thread is not archived and the bot
    may send messages in it ("Requires the ability to send messages in the thread"); a private thread is seen only
    by its members and moderators (Manage Threads), and one that is not ``invitable`` lets no non-moderator add a
    non-moderator."""
    meta = thread.get("thread_metadata")
    if meta is None:
        return WRONG_CHANNEL_TYPE
    moderator = bool(permissions & MANAGE_THREADS)
    if thread.get("type") == PRIVATE_THREAD and bot_id not in members and not moderator:
        return MISSING_ACCESS
    if meta.get("archived"):
        return THREAD_ARCHIVED
    if not permissions & SEND_MESSAGES_IN_THREADS:
        return MISSING_PERMISSIONS
    if thread.get("type") == PRIVATE_THREAD and not meta.get("invitable", True) and not moderator:
        return MISSING_PERMISSIONS
    return None
