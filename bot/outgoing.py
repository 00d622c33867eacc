"""A message the bot writes, as one typed value (:class:`Outgoing`) with its two forms: ``send`` (a new message: its
pictures as ``files``, its nonce) and ``edit`` (the same message changed: its pictures as ``attachments``; a field
left out is kept as it is). Pictures are kept as bytes, so every try of a send or edit uploads them afresh."""
from __future__ import annotations

import io
from dataclasses import dataclass, replace
from typing import Any

import discord

MISSING: Any = discord.utils.MISSING  # a field left out: a send leaves it empty, an edit keeps it
NO_MENTIONS = discord.AllowedMentions.none()


@dataclass(frozen=True)
class Picture:
    filename: str
    data: bytes
    description: str | None = None

    @classmethod
    def of(cls, file: discord.File) -> "Picture":
        """A picture read from a file made to be sent once."""
        fp = file.fp
        fp.seek(0)
        return cls(file.filename, fp.read(), file.description)

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.data), filename=self.filename, description=self.description)


def mentioning(users: list[int] | tuple[int, ...] | set[int] | frozenset[int]) -> discord.AllowedMentions:
    """Exactly these people are notified (no role, no @everyone)."""
    return discord.AllowedMentions(users=[discord.Object(u) for u in users], everyone=False, roles=False)


@dataclass(frozen=True)
class Outgoing:
    content: str | None = MISSING
    embed: discord.Embed | None = MISSING
    embeds: tuple[discord.Embed, ...] = MISSING  # (instead of ``embed``: several)
    view: discord.ui.View | None = MISSING
    pictures: tuple[Picture, ...] = MISSING  # an edit with () removes them
    mentions: discord.AllowedMentions = NO_MENTIONS
    nonce: str | None = None  # a new message's (only where Discord takes one: a channel)

    def send(self) -> dict[str, Any]:
        """Keyword arguments of ``Messageable.send`` / ``Webhook.send``."""
        kwargs = self._common()
        if self.pictures:
            kwargs["files"] = [picture.file() for picture in self.pictures]
        if self.nonce is not None:
            kwargs["nonce"] = self.nonce
        return kwargs

    def edit(self) -> dict[str, Any]:
        """Keyword arguments of ``Message.edit`` / ``edit_original_response`` / ``Webhook.edit_message``."""
        kwargs = self._common()
        if self.pictures is not MISSING:
            kwargs["attachments"] = [picture.file() for picture in self.pictures]
        return kwargs

    def _common(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"allowed_mentions": self.mentions}
        for name in ("content", "embed", "view"):
            value = getattr(self, name)
            if value is not MISSING:
                kwargs[name] = value
        if self.embeds is not MISSING:
            kwargs["embeds"] = list(self.embeds)
        return kwargs

    @classmethod
    def of(cls, content: str | None = MISSING, *, files: list[discord.File] = MISSING,
           attachments: list[discord.File] = MISSING, embeds: list[discord.Embed] = MISSING,
           allowed_mentions: discord.AllowedMentions = NO_MENTIONS, **fields: Any) -> "Outgoing":
        """The message a set of send or edit arguments describes (its pictures read once, to be sent again)."""
        given = attachments if attachments is not MISSING else files
        pictures: Any = MISSING if given is MISSING else tuple(Picture.of(f) for f in given)
        several: Any = MISSING if embeds is MISSING else tuple(embeds)
        return cls(content=content, embeds=several, pictures=pictures, mentions=allowed_mentions, **fields)

    def without_nonce(self) -> "Outgoing":
        return replace(self, nonce=None)


def cleared(content: str) -> Outgoing:
    """A message reduced to ``content``: no embed, picture or control left."""
    return Outgoing(content=content, embed=None, view=None, pictures=())
