"""The strict edge's thread rules (``bot.discord_rules.threads``), from Discord's documentation ("Start Thread
without Message", "Add Thread Member", Threads topic): private threads only in a text channel (no type starts a
private one), announcement threads only in an announcement channel; adding someone needs an open thread the bot
may send messages in, a private thread the bot can see (a member, or Manage Threads), and, when it is not
invitable, Manage Threads."""
from __future__ import annotations

import pytest

from bot.discord_rules import member_errors, thread_errors

BOT = "1"
SEND_IN_THREADS, MANAGE_THREADS = 1 << 38, 1 << 34


@pytest.mark.parametrize(("parent", "kind", "code"), [
    (0, 11, None), (0, 12, None), (0, None, None), (0, 10, 50024),
    (5, 10, None), (5, 11, 50024), (5, 12, 50024), (5, None, 50024)])
def test_a_thread_type_is_started_only_where_discord_has_it(parent: int, kind: int | None, code: int | None) -> None:
    body = {"name": "Round 1, table 1", "auto_archive_duration": 1440, **({"type": kind} if kind else {})}
    answer = thread_errors(body, from_message=False, parent_type=parent)
    assert (answer and answer[1]["code"]) == code
    assert thread_errors(body, from_message=True, parent_type=parent) is None  # a message's thread: its own type


def thread(kind: int, *, archived: bool = False, invitable: bool = True) -> dict:
    return {"id": "7", "type": kind, "thread_metadata": {"archived": archived, "invitable": invitable}}


@pytest.mark.parametrize(("channel", "permissions", "members", "code"), [
    (thread(11), SEND_IN_THREADS, set(), None),                       # a public thread: anyone who may send there
    (thread(11), 0, {BOT}, 50013),                                    # ... not without Send Messages in Threads
    (thread(11, archived=True), SEND_IN_THREADS, {BOT}, 50083),       # an archived thread takes nobody
    (thread(12), SEND_IN_THREADS, {BOT}, None),                       # private: its member (its creator)
    (thread(12), SEND_IN_THREADS, set(), 50001),                      # ... the bot cannot see it otherwise
    (thread(12), SEND_IN_THREADS | MANAGE_THREADS, set(), None),      # ... unless a moderator
    (thread(12, invitable=False), SEND_IN_THREADS, {BOT}, 50013),     # not invitable: moderators only
    (thread(12, invitable=False), SEND_IN_THREADS | MANAGE_THREADS, {BOT}, None),
    ({"id": "7", "type": 0}, SEND_IN_THREADS, set(), 50024),          # a channel is no thread
])
def test_adding_a_member_follows_discord(channel: dict, permissions: int, members: set[str],
                                         code: int | None) -> None:
    answer = member_errors(channel, permissions, bot_id=BOT, members=members)
    assert (answer and answer[1]["code"]) == code
