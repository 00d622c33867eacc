"""Interaction tokens, as Discord's developer documentation ("Receiving and Responding") gives them: the first answer
is due within 3 seconds (else the token is invalidated), a token is accepted for 15 minutes for edits and followups,
and an interaction of an app installed only to the person who used it (outside a server that added it) takes at
most 5 followup messages. Edits of what the token sent (its original response and its followups) are not followups.
A token Discord refused within its 15 minutes (404, 10015 Unknown Webhook) stays refused; after them it answers 401,
50027 Invalid Webhook Token (discord/discord-api-docs issues #6851, #7220)."""
from __future__ import annotations

from .limits import CALLBACK_DEADLINE, MAX_PRIVATE_FOLLOWUPS, TOKEN_LIFETIME

__all__ = ["CALLBACK_DEADLINE", "MAX_PRIVATE_FOLLOWUPS", "TOKEN_LIFETIME"]
