"""Interaction tokens, as Discord's developer documentation ("Receiving and Responding") gives them: the first answer
is due within 3 seconds (else the token is invalidated), a token is accepted for 15 minutes for edits and followups,
and an interaction of an app installed only to the person who used it (outside a server that added it) takes at
most 5 followup messages. Edits of what the token sent (its original response and its followups) are not followups.
A token Discord refused within its 15 minutes (404, 10015 Unknown Webhook) stays refused; after them it answers 401,
50027 Invalid Webhook Token (discord/discord-api-docs issues #6851, #7220)."""
from __future__ import annotations

CALLBACK_DEADLINE = 3.0  # seconds Discord waits for an interaction's first answer
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token can be used for followups and edits
MAX_PRIVATE_FOLLOWUPS = 5  # followups per interaction for a user-installed app outside a server
