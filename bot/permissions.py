"""The Discord permissions the bot needs where it plays (names as in ``discord.Permissions``)."""
from __future__ import annotations

# A table's channel: its board (embed + picture), event lines and the replies that link to them.
TABLE_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
# A tournament opens a public thread per table and writes in it (and unarchives it when Discord archived it).
TOURNAMENT_PERMISSIONS = TABLE_PERMISSIONS + ("create_public_threads", "send_messages_in_threads",
                                              "manage_threads")
# A same-deal tournament opens a private thread per table instead, and adds the seated people to it (issue 55).
SAME_DEAL_PERMISSIONS = TOURNAMENT_PERMISSIONS + ("create_private_threads",)
