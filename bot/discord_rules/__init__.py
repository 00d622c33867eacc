"""Discord's own validation of what a bot sends, as pure functions (no I/O): message bodies, interaction
callbacks, modals, autocomplete answers, application-command payloads, threads started and members added to them.

Each check returns Discord's answer to a bad request — ``(400, {"code": 50035, "message": "Invalid Form Body",
"errors": {<path>: {"_errors": [{"code", "message"}]}}})``, or ``(400, {"code": 50006, ...})`` for an empty
message — or ``None`` when Discord would accept the body. The limits are those of Discord's developer
documentation (https://discord.com/developers/docs, "Message Components", "Embed Limits", "Application
Commands", "Interactions"); the error codes and messages are modelled on Discord's answers. The test harness
validates every request with these functions and ``python -m bot check`` validates the bot's own output.
"""
from __future__ import annotations

from .commands import command_errors
from .interactions import CALLBACKS_FOR, callback_errors
from .messages import message_errors
from .problems import Answer
from .threads import member_errors, thread_errors

__all__ = ["Answer", "CALLBACKS_FOR", "callback_errors", "command_errors", "member_errors", "message_errors",
           "thread_errors"]
