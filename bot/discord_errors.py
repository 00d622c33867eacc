"""Discord's answers the bot reacts to, named once: its JSON error codes, and the exceptions by which a request to
Discord can fail (an answer refusing it, a rate limit, or the connection breaking or timing out on the way)."""
from __future__ import annotations

import asyncio

import aiohttp
import discord

UNKNOWN_CHANNEL, UNKNOWN_MESSAGE = 10003, 10008
MISSING_ACCESS, MISSING_PERMISSIONS, ARCHIVED = 50001, 50013, 50083
THREAD_EXISTS, THREAD_LOCKED, THREAD_LIMIT = 160004, 160005, 160006
# An interaction token Discord no longer takes: unknown (refused within its 15 minutes, e.g. invalidated), expired
# (after them), or out of followups (a user-installed app outside a server gets 5 per interaction).
UNKNOWN_WEBHOOK, INVALID_WEBHOOK_TOKEN, FOLLOWUP_LIMIT = 10015, 50027, 40094

TRANSPORT = (asyncio.TimeoutError, OSError, aiohttp.ClientError)  # no answer came back: the connection failed
FAILURES = (discord.HTTPException, discord.RateLimited, *TRANSPORT)  # every way a request to Discord fails
# Discord (or the way to it) failed rather than judged the request: worth trying again
DISCORD_FAILED = (discord.DiscordServerError, *TRANSPORT)
